"""Is the index still what is on disk? Per hit, at answer time for the returned hits only; per project, for status
(a stat pass with a file-count bound) and, remembered a while, for a search's diagnostics.

A file is unchanged when its size and modification time are the ones indexed (and the time is clearly older than
the run that indexed it, else a write in the same clock tick could hide); otherwise its bytes are hashed and
compared, the hash remembered per (path, size, time) in this process, so a touched but unchanged file is hashed once
and is not reported as changed."""

from __future__ import annotations

import hashlib
import shlex
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, Field

from trident.retrieval.search_hits import SearchHit
from trident.store.catalog import Catalog
from trident.store.file_versions import PerFileVersion, file_version
from trident.store.git_state import head_commit
from trident.store.manifest import DocumentEntry, Manifest, ProjectSource
from trident.store.schema import DocumentKind, document_id

# Kinds read from a project's files (passages come from a corpus file, knowledge from a tool call).
FILE_KINDS = frozenset({DocumentKind.CODE, DocumentKind.MARKDOWN, DocumentKind.TEXT, DocumentKind.CONFIG})
SEEN_LIMIT = 50_000  # files whose (size, mtime) -> hash is remembered
# A file modified within this of the start of the run that indexed it (or later) may have been written again in the
# same clock tick after it was read: its size and time do not vouch for it, its hash does (git's "racy" rule).
RACY_NS = 2_000_000_000
# A stat pass checks at most this many files (in path order): a status call over all its projects, a search per
# project. About 20 ms of stats on a warm disk; the rest are counted as unchecked.
CHECKED_FILES = 20_000
# How long a project's pending changes, as a search reports them, are remembered before they are counted again.
PENDING_SECONDS = 30.0
PENDING_LIMIT = 1_000  # (index, project, generation) counts remembered


class FileState(StrEnum):
    CURRENT = "current"
    CHANGED = "changed"
    GONE = "gone"
    UNREADABLE = "unreadable"


_REASONS = {
    FileState.CHANGED: "{path} changed on disk since it was indexed",
    FileState.GONE: "{path} is gone since it was indexed",
    FileState.UNREADABLE: "{path} cannot be read now",
}


class ProjectFreshness(BaseModel):
    """How a project's index compares with its folder now."""

    indexed_at: str | None = Field(
        description="When the last run that wrote this project began, ISO-8601 UTC (a run that found nothing "
        "changed at the same commit writes nothing and keeps it); null: indexed before this was kept"
    )
    commit: str | None = Field(description="The git HEAD it was indexed from; null: not a git work tree (or unknown)")
    branch: str | None = Field(None, description="The branch checked out then; null: detached or not a repository")
    head: str | None = Field(description="The folder's git HEAD now; null: not a git work tree")
    head_moved: bool = Field(
        description="True when head is not the commit indexed from (false when that commit is not known)"
    )
    changed: int = Field(
        description="Indexed files whose content differs now (size or time moved and the hash differs) or that "
        "cannot be read"
    )
    removed: int = Field(description="Indexed files gone from the folder")
    checked: int = Field(description="Indexed files compared with the folder")
    unchecked: int = Field(
        0,
        description=f"Indexed files not compared: one status call checks at most {CHECKED_FILES:,} files, its "
        "projects in name order and each project's files in path order; the project resource checks one project "
        "alone",
    )
    refresh: str = Field(description="The command that re-indexes the project")


_seen: PerFileVersion[str] = PerFileVersion(SEEN_LIMIT)  # each file version's sha256
_pending: dict[tuple[str, str, str, int], tuple[float, int]] = {}
_pending_lock = threading.Lock()
_counting: set[tuple[str, str, str, int]] = set()  # counts running in the background
_counted = threading.Condition(_pending_lock)


def refresh_command(root: str, project: str) -> str:
    """The command (and the tool) that re-indexes a project from its folder."""
    return f"trident index {shlex.quote(root)} --project {shlex.quote(project)} (or index_path)"


def mark_stale(catalog: Catalog, hits: Sequence[SearchHit]) -> int:
    """Set `stale` and `stale_reason` on each hit whose file changed or disappeared since it was indexed; the
    number of such hits."""
    manifest = catalog.manifest
    verdicts: dict[str, FileState] = {}
    count = 0
    for hit in hits:
        doc_id = document_id(hit.project, hit.path)
        entry = manifest.documents.get(doc_id)
        root = manifest.roots.get(hit.project)
        if entry is None or root is None or entry.kind not in FILE_KINDS:
            continue
        path = Path(root) / hit.path
        if doc_id not in verdicts:
            verdicts[doc_id] = file_state(path, entry, _trusted_before(manifest.sources.get(hit.project)))
        if verdicts[doc_id] is not FileState.CURRENT:
            reason = _REASONS[verdicts[doc_id]].format(path=path)
            hit.stale, hit.stale_reason = True, f"{reason}; refresh it: {refresh_command(root, hit.project)}"
            count += 1
    return count


def project_freshness(
    manifest: Manifest,
    project: str,
    limit: int = CHECKED_FILES,
    documents: Mapping[str, DocumentEntry] | None = None,
    heads: Callable[[Path], str | None] = head_commit,
) -> ProjectFreshness | None:
    """How a project's indexed files compare with its folder (the first `limit` of them, in path order) and its git
    HEAD with the commit indexed from; None when the project holds no files read from a folder. `documents`: the
    project's documents when the caller has them (`Manifest.documents_by_project`), else read from the manifest;
    `heads`: how HEAD is asked (a `HeadCommits` asks once per work tree for many projects)."""
    root = manifest.roots.get(project)
    files = _file_entries(manifest, project, documents)
    if root is None or not files:
        return None
    source = manifest.sources.get(project)
    states = _states(Path(root), files[: max(limit, 0)], source)
    commit = source.commit if source is not None else None
    head = heads(Path(root))
    return ProjectFreshness(
        indexed_at=source.indexed_at if source is not None else None,
        commit=commit,
        branch=source.branch if source is not None else None,
        head=head,
        head_moved=source is not None and commit != head,
        changed=states[FileState.CHANGED] + states[FileState.UNREADABLE],
        removed=states[FileState.GONE],
        checked=states.total(),
        unchecked=len(files) - states.total(),
        refresh=refresh_command(root, project),
    )


def pending_changes(catalog: Catalog, hits: Sequence[SearchHit]) -> dict[str, int]:
    """For the projects of `hits`: how many indexed files changed or are gone (projects with none left out). Each
    project's count comes from a stat pass of at most CHECKED_FILES files, made in the background at most every
    PENDING_SECONDS per index generation (a search reports the last count and never waits for one); it is never
    below the stale hits' files."""
    manifest = catalog.manifest
    stale_files = Counter(project for project, _ in {(h.project, h.path) for h in hits if h.stale})
    pending: dict[str, int] = {}
    for project in sorted({h.project for h in hits}):
        count = max(_remembered_count(catalog, manifest, project), stale_files[project])
        if count:
            pending[project] = count
    return pending


def _remembered_count(catalog: Catalog, manifest: Manifest, project: str) -> int:
    """The project's last count (0 before the first); when it is older than PENDING_SECONDS, or was made for
    another generation, a background thread counts again, so no search waits for a stat pass."""
    key = (str(catalog.index_dir), catalog.tenant, project, manifest.generation)
    now = time.monotonic()
    with _pending_lock:
        remembered = _pending.get(key)
        due = (remembered is None or now - remembered[0] >= PENDING_SECONDS) and key not in _counting
        if due:
            _counting.add(key)
    if due:
        threading.Thread(
            target=_count, args=(key, manifest, project), name="trident-pending-count", daemon=True
        ).start()
    return remembered[1] if remembered is not None else 0


def _count(key: tuple[str, str, str, int], manifest: Manifest, project: str) -> None:
    count = 0
    try:
        root = manifest.roots.get(project)
        files = _file_entries(manifest, project) if root is not None else []
        if root is not None and files:
            states = _states(Path(root), files[:CHECKED_FILES], manifest.sources.get(project))
            count = states.total() - states[FileState.CURRENT]
    finally:
        with _pending_lock:
            if len(_pending) >= PENDING_LIMIT:
                _pending.clear()
            _pending[key] = (time.monotonic(), count)
            _counting.discard(key)
            _counted.notify_all()


def counts_settled(timeout: float) -> bool:
    """Wait until no background count is running (for tests and benchmarks); False if `timeout` passed first."""
    with _pending_lock:
        return _counted.wait_for(lambda: not _counting, timeout)


def _file_entries(
    manifest: Manifest, project: str, documents: Mapping[str, DocumentEntry] | None = None
) -> list[DocumentEntry]:
    """A project's documents read from its folder, in path order."""
    entries = (documents if documents is not None else manifest.project_documents(project)).values()
    return sorted((e for e in entries if e.kind in FILE_KINDS), key=lambda e: e.path)


def _states(root: Path, files: Sequence[DocumentEntry], source: ProjectSource | None) -> Counter[FileState]:
    trusted = _trusted_before(source)
    return Counter(file_state(root / entry.path, entry, trusted) for entry in files)


def _trusted_before(source: ProjectSource | None) -> int | None:
    """Modification times (ns) before which an unchanged size and time vouch for a file: older than the start of
    the last run that wrote the project by RACY_NS. None: nothing vouches, every file is hashed."""
    if source is None:
        return None
    began = datetime.fromisoformat(source.indexed_at)
    return int(began.timestamp()) * 1_000_000_000 - RACY_NS


def file_state(path: Path, entry: DocumentEntry, trusted_before_ns: int | None) -> FileState:
    """Whether the file at `path` is the one `entry` indexed: by size and time when they vouch for it (see
    `_trusted_before`), else by the hash of its bytes."""
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return FileState.GONE
    except OSError:
        return FileState.UNREADABLE
    if entry.size is not None and info.st_size != entry.size:
        return FileState.CHANGED  # the bytes hashed were entry.size long
    vouched = trusted_before_ns is not None and info.st_mtime_ns < trusted_before_ns
    if vouched and (entry.size, entry.mtime_ns) == (info.st_size, info.st_mtime_ns):
        return FileState.CURRENT
    version = file_version(path, info)
    known = _seen.get(version)
    if known is None:
        try:
            known = _seen.put(version, hashlib.sha256(path.read_bytes()).hexdigest())
        except OSError:
            return FileState.UNREADABLE
    return FileState.CURRENT if known == entry.content_hash else FileState.CHANGED
