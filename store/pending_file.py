"""The references each document still waits to bind (a call or a link into something not indexed yet), kept in a
file of their generation's folder instead of the manifest. Only writers retry them; every reader parses the
manifest on opening and on each new generation. At 100K chunks they were three quarters of a 32 MB manifest (0.9 s
to read; 0.09 s without them).

A writer's copy of the published manifest gets them attached to its document entries (`attach_pending`); the
publish writes the file before the manifest names the generation, or keeps the linked file of the generation it was
copied from when they did not change. A manifest written before this file existed carries them in its entries."""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from trident.store.manifest import Manifest, PendingReference
from trident.store.remote.remote_files import link_or_copy, write_durably

log = logging.getLogger(__name__)

PENDING_FILE = "pending.json"
Pending = dict[str, list[PendingReference]]
_FILE: TypeAdapter[Pending] = TypeAdapter(Pending)


def pending_of(manifest: Manifest) -> Pending:
    """Each document's pending references, for the documents that have any."""
    return {doc_id: entry.unresolved for doc_id, entry in manifest.documents.items() if entry.unresolved}


def read_pending(folder: Path) -> Pending | None:
    """The pending references a generation's publish wrote; None: the generation has no such file (written before
    it existed: its manifest's entries carry them), or a damaged one, which is logged and read as none: the index
    stays writable, and those references bind again when their documents are indexed again."""
    try:
        data = (folder / PENDING_FILE).read_bytes()
    except FileNotFoundError:
        return None
    try:
        return _FILE.validate_json(data)
    except ValidationError as exc:
        log.warning(
            "the pending references in %s are damaged (%s); going on without them: a reference waiting for a "
            "project not indexed yet binds once its document is indexed again (`trident index` after touching it, "
            "or `trident reset` and a new index)",
            folder / PENDING_FILE,
            exc.errors()[0]["msg"] if exc.errors() else exc,
        )
        return None


def attach_pending(manifest: Manifest, published_folder: Path, folder: Path) -> Pending:
    """Give a writer's copy of the published manifest its documents' pending references, read from the published
    generation's folder unless the copy carries them already (a generation this process published and still
    reads); what it carries then. The published file is linked into the new generation's `folder` when it was
    whole: what its publish keeps when no reference changed (one that changes them writes a new file and renames
    it over the link)."""
    whole = manifest.pending_attached
    if not manifest.pending_attached:
        stored = read_pending(published_folder)
        whole = stored is not None
        for doc_id, references in (stored or {}).items():
            entry = manifest.documents.get(doc_id)
            if entry is not None:
                manifest.documents[doc_id] = entry.model_copy(update={"unresolved": references})
        manifest.pending_attached = True
    source = published_folder / PENDING_FILE
    if whole and source.is_file():
        link_or_copy(source, folder / PENDING_FILE)
    return pending_of(manifest)


def write_pending(folder: Path, manifest: Manifest, base: Pending) -> None:
    """Write the pending references of the generation in `folder` (durably: the manifest naming it comes after),
    unless they are `base`'s, those of the generation it was copied from, whose file is linked there already."""
    pending = pending_of(manifest)
    target = folder / PENDING_FILE
    unchanged = pending.keys() == base.keys() and all(pending[d] is base[d] or pending[d] == base[d] for d in pending)
    if unchanged and target.is_file():
        return
    write_durably(target, _FILE.dump_json(dict(sorted(pending.items())), exclude_defaults=True))
