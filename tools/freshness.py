"""Is the index still what is on disk? Per hit, at answer time for the returned hits only; per project, for status
(a stat pass with a file-count bound) and, remembered a while, for a search's diagnostics.

A file is unchanged when its size and modification time are the ones indexed (and the time is clearly older than
the run that indexed it, else a write in the same clock tick could hide); otherwise its bytes are hashed and
compared, the hash remembered per (path, size, time) by the reader (`AnswerState`), so a touched but unchanged file
is hashed once and is not reported as changed."""

from __future__ import annotations

import hashlib
import shlex
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from enum import StrEnum
from functools import partial
from pathlib import Path

from pydantic import BaseModel, Field

from trident.host.git_state import head_commit
from trident.retrieval.answer_state import AnswerState
from trident.retrieval.search_hits import SearchHit
from trident.store.catalog import Catalog
from trident.store.file_versions import PerFileVersion, file_version
from trident.store.manifest import DocumentEntry, Manifest, ProjectSource
from trident.store.schema import DocumentKind, document_id

# Kinds read from a project's files (passages come from a corpus file, knowledge from a tool call).
FILE_KINDS = frozenset({DocumentKind.CODE, DocumentKind.MARKDOWN, DocumentKind.TEXT, DocumentKind.CONFIG})
# A file modified within this of the start of the run that indexed it (or later) may have been written again in the
# same clock tick after it was read: its size and time do not vouch for it, its hash does (git's "racy" rule).
RACY_NS = 2_000_000_000
# A stat pass checks at most this many files (in path order): a status call over all its projects, a search per
# project. About 20 ms of stats on a warm disk; the rest are counted as unchecked.
CHECKED_FILES = 20_000
# How long a project's pending changes, as a search reports them, are remembered before they are counted again.
PENDING_SECONDS = 30.0


Hashes = PerFileVersion[str]  # each file version's sha256, as a reader remembers them (`AnswerState.hashes`)


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


def refresh_command(root: str, project: str) -> str:
    """The command (and the tool) that re-indexes a project from its folder."""
    return f"trident index {shlex.quote(root)} --project {shlex.quote(project)} (or index_path)"


def mark_stale(catalog: Catalog, hits: Sequence[SearchHit], hashes: Hashes | None = None) -> int:
    """Set `stale` and `stale_reason` on each hit whose file changed or disappeared since it was indexed; the
    number of such hits. `hashes`: the file versions' content hashes a reader remembers (`AnswerState.hashes`)."""
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
            verdicts[doc_id] = file_state(path, entry, _trusted_before(manifest.sources.get(hit.project)), hashes)
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


def pending_changes(catalog: Catalog, hits: Sequence[SearchHit], state: AnswerState) -> dict[str, int]:
    """For the projects of `hits`: how many indexed files changed or are gone (projects with none left out). Each
    project's count comes from a stat pass of at most CHECKED_FILES files, made in the reader's pool (`state`) at most
    every PENDING_SECONDS per index generation (a search reports the last count and never waits for one); it is never
    below the stale hits' files."""
    manifest = catalog.manifest
    stale_files = Counter(project for project, _ in {(h.project, h.path) for h in hits if h.stale})
    pending: dict[str, int] = {}
    for project in sorted({h.project for h in hits}):
        key = (str(catalog.index_dir), catalog.tenant, project, manifest.generation)
        remembered = state.pending.last(key, partial(_count, manifest, project, state.hashes), PENDING_SECONDS)
        count = max(remembered, stale_files[project])
        if count:
            pending[project] = count
    return pending


def _count(manifest: Manifest, project: str, hashes: Hashes) -> int:
    """How many of the project's indexed files (the first CHECKED_FILES) changed or are gone."""
    root = manifest.roots.get(project)
    files = _file_entries(manifest, project) if root is not None else []
    if root is None or not files:
        return 0
    states = _states(Path(root), files[:CHECKED_FILES], manifest.sources.get(project), hashes)
    return states.total() - states[FileState.CURRENT]


def _file_entries(
    manifest: Manifest, project: str, documents: Mapping[str, DocumentEntry] | None = None
) -> list[DocumentEntry]:
    """A project's documents read from its folder, in path order."""
    entries = (documents if documents is not None else manifest.project_documents(project)).values()
    return sorted((e for e in entries if e.kind in FILE_KINDS), key=lambda e: e.path)


def _states(
    root: Path, files: Sequence[DocumentEntry], source: ProjectSource | None, hashes: Hashes | None = None
) -> Counter[FileState]:
    trusted = _trusted_before(source)
    return Counter(file_state(root / entry.path, entry, trusted, hashes) for entry in files)


def _trusted_before(source: ProjectSource | None) -> int | None:
    """Modification times (ns) before which an unchanged size and time vouch for a file: older than the start of
    the last run that wrote the project by RACY_NS. None: nothing vouches, every file is hashed."""
    if source is None:
        return None
    began = datetime.fromisoformat(source.indexed_at)
    return int(began.timestamp()) * 1_000_000_000 - RACY_NS


def file_state(
    path: Path, entry: DocumentEntry, trusted_before_ns: int | None, hashes: Hashes | None = None
) -> FileState:
    """Whether the file at `path` is the one `entry` indexed: by size and time when they vouch for it (see
    `_trusted_before`), else by the hash of its bytes (remembered in `hashes` per file version, when given)."""
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
    known = hashes.get(version) if hashes is not None else None
    if known is None:
        try:
            known = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return FileState.UNREADABLE
        if hashes is not None:
            hashes.put(version, known)
    return FileState.CURRENT if known == entry.content_hash else FileState.CHANGED
