"""When a hit's lines last changed: the newest git commit among them (`git blame`, one per file version, remembered
per (path, size, modification time) so a later search runs no git), else the file's modification time (a folder
outside git, an untracked file, lines not committed yet). Worked out for the returned hits only."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from concurrent.futures import wait
from datetime import UTC, datetime
from pathlib import Path

from trident.host.git_blame import line_times
from trident.host.git_state import in_work_tree
from trident.retrieval.answer_state import AnswerState
from trident.retrieval.search_hits import SearchHit
from trident.store.catalog import Catalog
from trident.store.file_versions import FileVersion, PerFileVersion, file_version
from trident.store.schema import DocumentKind, document_id

# A search waits this long for git in all: a large first-seen file blames for up to git's own 2 s, four at a time.
STAMP_DEADLINE_S = 3.0
log = logging.getLogger(__name__)
_FILE_KINDS = frozenset({DocumentKind.CODE, DocumentKind.MARKDOWN, DocumentKind.TEXT, DocumentKind.CONFIG})


def stamp_last_modified(
    catalog: Catalog, hits: Sequence[SearchHit], state: AnswerState, deadline: float = STAMP_DEADLINE_S
) -> None:
    """Set `last_modified` on each hit read from a project's folder (passages and knowledge have none); a file gone
    from disk leaves its hits without one. Files git has not answered for within `deadline` seconds are stamped with
    their modification time (their blame goes on in the reader's pool, remembered in its `state` for the next
    search)."""
    manifest = catalog.manifest
    files: dict[Path, list[SearchHit]] = {}
    for hit in hits:
        entry = manifest.documents.get(document_id(hit.project, hit.path))
        root = manifest.roots.get(hit.project)
        if entry is not None and root is not None and entry.kind in _FILE_KINDS:
            files.setdefault(Path(root) / hit.path, []).append(hit)
    versions = {path: v for path, v in ((path, _version(path)) for path in files) if v is not None}
    times = _blame_within(versions, deadline, state)
    for path, version in versions.items():
        for hit in files[path]:
            hit.last_modified = iso_utc(_newest(times[path], hit.start_line, hit.end_line, version[2] // 1_000_000_000))


def _blame_within(
    versions: dict[Path, FileVersion], deadline: float, state: AnswerState
) -> dict[Path, tuple[int | None, ...]]:
    """Each file's line times, blamed in the reader's pool; () for a file whose blame missed the deadline."""
    blamed = state.blamed
    times = {path: known for path, v in versions.items() if (known := blamed.get(v)) is not None}
    # A file in no work tree is settled here: no git to ask, so no thread to ask it from.
    for path, version in versions.items():
        if path not in times and not in_work_tree(path.parent):
            times[path] = blamed.get_or_make(version, tuple)
    unknown = {path: v for path, v in versions.items() if path not in times}
    if not unknown:
        return times
    futures = {state.submit(_blame, path, version, blamed): path for path, version in unknown.items()}
    done, late = wait(futures, timeout=deadline)
    # Never waits for a late blame: it finishes (within git's own timeout) and is remembered for the next search.
    times |= {futures[future]: future.result() for future in done}
    times |= dict.fromkeys((futures[future] for future in late), ())
    if late:
        log.warning(
            "git blame missed the %.1f s deadline for %d file(s) (%s): their modification time stands in",
            deadline,
            len(late),
            ", ".join(sorted(str(futures[future]) for future in late)[:3]),
        )
    return times


def _version(path: Path) -> FileVersion | None:
    try:
        return file_version(path, path.stat())
    except OSError:
        return None


def _blame(path: Path, version: FileVersion, blamed: PerFileVersion[tuple[int | None, ...]]) -> tuple[int | None, ...]:
    return blamed.get_or_make(version, lambda: tuple(line_times(path) or ()))


def _newest(times: Sequence[int | None], start: int, end: int, mtime: int) -> int:
    """The newest commit time among lines start..end (1-based); an uncommitted line, or lines git does not know
    (the file unknown to git, or shorter now than when it was indexed), count as changed at `mtime`."""
    lines = list(times[start - 1 : end])
    if len(lines) < end - start + 1:
        lines.append(None)
    return max(mtime if t is None else t for t in lines)


def iso_utc(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
