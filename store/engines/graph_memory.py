"""What a graph store holds in memory of its file: each tenant's entities and relations, once read, exactly as a
read returns them, and kept so by the store's own writes (all of which go through `KuzuGraphStore`). A writer's
session starts with a copy of what the published generation's store holds (its file is a copy of that one), so an
index run in a long-lived process (`trident watch`, a server's index tools) reads neither table whole from Kùzu.

Entity ids and relation endpoints are per tenant: each tenant's index is a graph file of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from trident.store.engines.kuzu_rows import entity_from_row, relation_from_row
from trident.store.schema import Entity, Relation

RelationKey = tuple[str, str, str, str]  # how Kùzu merges a relation: source, type, target, evidence

# The row dicts' keys in the order of the read columns (`entity_from_row`, `relation_from_row`).
ENTITY_ROW_ORDER = (
    "id",
    "name",
    "type",
    "project",
    "tenant",
    "qualified_name",
    "aliases",
    "description",
    "chunk_id",
    "doc_id",
    "path",
)


def relation_key(relation: Relation) -> RelationKey:
    return (relation.source, str(relation.type), relation.target, relation.evidence or "")


class GraphMemory:
    """Per tenant: entities by id and relations by merge key, or nothing (not read yet). Thread-safe; a read that
    a write overtook is not kept (`writes` counts them)."""

    def __init__(
        self,
        entities: dict[str, dict[str, Entity]] | None = None,
        relations: dict[str, dict[RelationKey, Relation]] | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._entities = {tenant: dict(held) for tenant, held in (entities or {}).items()}
        self._relations = {tenant: dict(held) for tenant, held in (relations or {}).items()}
        self.writes = 0

    def copy(self) -> GraphMemory:
        with self._lock:
            return GraphMemory(self._entities, self._relations)

    # --- reads ---

    def entities(self, tenant: str) -> list[Entity] | None:
        """Ordered by id (as Kùzu orders them), or None when not held."""
        with self._lock:
            held = self._entities.get(tenant)
            return None if held is None else [held[key] for key in sorted(held)]

    def relations(self, tenant: str) -> list[Relation] | None:
        """Ordered by source, type, target and evidence, or None when not held."""
        with self._lock:
            held = self._relations.get(tenant)
            return None if held is None else [held[key] for key in sorted(held)]

    def keep_entities(self, tenant: str, found: list[Entity], writes: int) -> None:
        with self._lock:
            if writes == self.writes:
                self._entities[tenant] = {e.id: e for e in found}

    def keep_relations(self, tenant: str, found: list[Relation], writes: int) -> None:
        with self._lock:
            if writes == self.writes:
                self._relations[tenant] = {relation_key(r): r for r in found}

    # --- writes ---

    def merged_entities(self, rows: list[dict[str, Any]]) -> None:
        """Entity rows merged by id (a merge sets every field)."""
        with self._lock:
            self.writes += 1
            for row in rows:
                moved = [t for t, held in self._entities.items() if row["id"] in held and t != row["tenant"]]
                if moved:  # an id taken to another tenant takes its relations along: read them again
                    self._relations.clear()
                for held in self._entities.values():
                    held.pop(row["id"], None)
                target = self._entities.get(row["tenant"])
                if target is not None:
                    target[row["id"]] = entity_from_row([row[column] for column in ENTITY_ROW_ORDER])

    def merged_relations(self, rows: list[dict[str, Any]], tenant_of: Callable[[set[str]], dict[str, str]]) -> None:
        """Relation rows merged by key where both ends exist; `tenant_of` gives the tenant of each existing entity
        among the ids it is asked (those not held here)."""
        with self._lock:
            self.writes += 1
            if not self._relations or not rows:
                return
            ends = _ends(rows)
            known = {i: t for t, held in self._entities.items() for i in held.keys() & ends}
        missing = ends - known.keys()
        if missing:
            known |= tenant_of(missing)
        with self._lock:
            for row in rows:
                tenant = known.get(row["source"])
                held = self._relations.get(tenant) if tenant is not None else None
                if held is None or row["target"] not in known:
                    continue
                values = [row["source"], row["type"], row["target"], row["weight"], row["evidence"], row["project"]]
                relation = relation_from_row([*values, row["doc_id"], tenant, row["resolution"], row["receiver"]])
                held[relation_key(relation)] = relation

    def removed_relations_of(self, doc_ids: Iterable[str]) -> None:
        """The relations the documents own were deleted."""
        owners = set(doc_ids)
        self._drop_relations(lambda r: (r.doc_id or "") in owners)

    def removed_entities(self, ids: Iterable[str]) -> None:
        """The entities were deleted, with every relation touching them."""
        gone = set(ids)
        with self._lock:
            self.writes += 1
            for held in self._entities.values():
                for entity_id in gone & held.keys():
                    del held[entity_id]
        self._drop_relations(lambda r: r.source in gone or r.target in gone)

    def _drop_relations(self, doomed: Callable[[Relation], bool]) -> None:
        with self._lock:
            self.writes += 1
            for held in self._relations.values():
                for key in [key for key, relation in held.items() if doomed(relation)]:
                    del held[key]


def _ends(rows: list[dict[str, Any]]) -> set[str]:
    return {row["source"] for row in rows} | {row["target"] for row in rows}
