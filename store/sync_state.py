"""Whether the derived stores (graph vectors and communities, which live outside generations) are in step with the
graph a catalog (or a writer) reads, and which of them a sync gave up on.

Whether they match the published graph is recorded twice: a stamp beside them (`read_sync_stamp`) and, for syncs
made in a write session, a `SyncMark` in the manifest that session publishes. A run may skip its syncs only when the
two agree and nothing wrote to the graph since.
"""

from __future__ import annotations

from enum import StrEnum

from trident.store.catalog import Catalog
from trident.store.manifest import published_stamp, read_stale, read_sync_stamp
from trident.store.writer import Writer


class DerivedStore(StrEnum):
    """What is computed from the graph after a run's writes."""

    GRAPH_VECTORS = "graph_vectors"
    COMMUNITIES = "communities"


NOT_SYNCED = "not synced since the graph last changed; the next `trident index` run syncs it"
FILLING = (
    "an index run published chunks it is still embedding and syncs this once they are embedded (if that run was "
    "stopped, the next `trident index` run does)"
)


def syncs_current(index: Catalog | Writer) -> bool:
    """Whether the graph vectors and communities are in step with the graph read (a writer's session, once it has
    written; else the published generation): one small file and the manifest in memory, never the graph."""
    stamp = read_sync_stamp(index.index_dir, index.tenant)
    if stamp is None:
        return False
    manifest = index.manifest
    mark = manifest.synced
    if isinstance(index, Writer) and index.session_open:
        return mark is not None and mark.token == stamp and manifest.generation == mark.generation
    if stamp == published_stamp(manifest):
        return True
    return mark is not None and mark.token == stamp and manifest.generation == mark.generation + 1


def stale_stores(catalog: Catalog) -> dict[str, str]:
    """The derived stores not in step with the graph, each with why: the ones the last sync gave up on (and what
    it was doing), or all of them when no sync has run since the graph changed."""
    if syncs_current(catalog):
        return {}
    why = FILLING if catalog.manifest.vectors_pending else NOT_SYNCED
    return read_stale(catalog.index_dir, catalog.tenant) or {store.value: why for store in DerivedStore}
