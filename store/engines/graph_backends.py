"""The engines an index can keep its graph in. A new index takes the one `TRIDENT_GRAPH_BACKEND` names; an index
keeps the one it was created with (its manifest says which: their files differ), so changing the setting changes
what `trident reset` and a new index build, not an index that exists."""

from __future__ import annotations

from enum import StrEnum

from trident.store.engines.kuzu_graph import KuzuGraphStore
from trident.store.engines.ladybug_graph import LadybugGraphStore
from trident.store.errors import SchemaMismatchError


class GraphBackend(StrEnum):
    KUZU = "kuzu"  # Kùzu 0.11.3, its last release (archived upstream)
    LADYBUG = "ladybug"  # LadybugDB, Kùzu's maintained fork


STORES: dict[GraphBackend, type[KuzuGraphStore]] = {
    GraphBackend.KUZU: KuzuGraphStore,
    GraphBackend.LADYBUG: LadybugGraphStore,
}


def graph_store(backend: str) -> type[KuzuGraphStore]:
    """The store class of the backend an index's manifest names.

    Raises:
        SchemaMismatchError: a backend this version does not know (a newer Trident's, or a damaged manifest).
    """
    try:
        return STORES[GraphBackend(backend)]
    except ValueError:
        known = ", ".join(b.value for b in GraphBackend)
        raise SchemaMismatchError(
            f"the index's manifest keeps its graph in {backend!r}, which this Trident cannot open (it knows {known}); "
            "upgrade Trident, or `trident reset` and index again"
        ) from None
