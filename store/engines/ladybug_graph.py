"""The graph in LadybugDB, Kùzu's maintained fork (Kùzu 0.11.3 is its last release): the same Cypher dialect and
Python API under another module name, so the store is Kùzu's with that module (`TRIDENT_GRAPH_BACKEND=ladybug`)."""

from __future__ import annotations

from typing import ClassVar

from trident.store.engines.kuzu_graph import KuzuGraphStore


class LadybugGraphStore(KuzuGraphStore):
    ENGINE: ClassVar[str] = "ladybug"
