"""Is a hit still what is on disk? Checked at answer time for the returned hits only: a `stat` of each hit's file,
and a hash of its bytes when the file's size or modification time is not the one last seen (remembered per
process, so an unchanged file is hashed once). A file edited or removed since it was indexed makes its hits
`stale`, with why and the command that refreshes it."""

from __future__ import annotations

import hashlib
import shlex
import threading
from collections.abc import Sequence
from pathlib import Path

from trident.retrieval.search_hits import SearchHit
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind, document_id

# Kinds read from a project's files (passages come from a corpus file, knowledge from a tool call).
FILE_KINDS = frozenset({DocumentKind.CODE, DocumentKind.MARKDOWN, DocumentKind.TEXT, DocumentKind.CONFIG})
SEEN_LIMIT = 50_000  # files whose (size, mtime) -> hash is remembered

_seen: dict[tuple[str, int, int], str] = {}
_seen_lock = threading.Lock()


def mark_stale(catalog: Catalog, hits: Sequence[SearchHit]) -> int:
    """Set `stale` and `stale_reason` on each hit whose file changed or disappeared since it was indexed; the
    number of such hits."""
    manifest = catalog.manifest
    verdicts: dict[str, str | None] = {}
    count = 0
    for hit in hits:
        doc_id = document_id(hit.project, hit.path)
        if doc_id not in verdicts:
            entry = manifest.documents.get(doc_id)
            root = manifest.roots.get(hit.project)
            verdicts[doc_id] = (
                _change(Path(root) / hit.path, entry.content_hash)
                if entry is not None and root is not None and entry.kind in FILE_KINDS
                else None
            )
        reason = verdicts[doc_id]
        if reason is not None:
            root = manifest.roots[hit.project]
            refresh = f"trident index {shlex.quote(root)} --project {shlex.quote(hit.project)} (or index_path)"
            hit.stale, hit.stale_reason = True, f"{reason}; refresh it: {refresh}"
            count += 1
    return count


def _change(path: Path, indexed_hash: str) -> str | None:
    """Why the file is not the one indexed, or None if it is."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return f"{path} is gone since it was indexed"
    except OSError as exc:
        return f"{path} cannot be read now ({exc.strerror or exc})"
    key = (str(path), info.st_size, info.st_mtime_ns)
    with _seen_lock:
        known = _seen.get(key)
    if known is None:
        try:
            known = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError as exc:
            return f"{path} cannot be read now ({exc.strerror or exc})"
        with _seen_lock:
            if len(_seen) >= SEEN_LIMIT:
                _seen.clear()
            _seen[key] = known
    return None if known == indexed_hash else f"{path} changed on disk since it was indexed"
