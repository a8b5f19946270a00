"""The relations of one index generation held in memory as compact arrays, for graph walks that take many small
steps (`trace_relationships`, `explain_path`, the graph path of `search`).

Kùzu answers one `neighbours` call in 5-50 ms; a two-hop trace makes a few and `explain_path` dozens. Here the
same call is two array slices and a sort: the relations touching any entity, in either direction, ordered by
(source, type, target, evidence) exactly as `GraphStore.neighbours` orders them, so either can serve a walk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from trident.retrieval.execution_edges import derived_relations
from trident.store.schema import Relation, Resolution

RESOLUTIONS = tuple(Resolution)  # by rank

RELATION_SCHEMA = pa.schema(
    [
        pa.field("source", pa.string()),
        pa.field("type", pa.string()),
        pa.field("target", pa.string()),
        pa.field("weight", pa.float64()),
        pa.field("evidence", pa.string()),
        pa.field("project", pa.string()),
        pa.field("doc_id", pa.string()),
        pa.field("resolution", pa.string()),
        pa.field("receiver", pa.string()),
    ]
)


class GraphWalk(Protocol):
    """Where a walk reads the relations around a set of entities and the citations of their evidence."""

    def neighbours(self, entity_ids: Sequence[str], tenant: str, limit: int) -> list[Relation]: ...

    def citations(self, chunk_ids: Sequence[str]) -> dict[str, str]: ...


def _codes(values: pa.Array | pa.ChunkedArray) -> tuple[list[str], np.ndarray]:
    """The distinct values in sorted order and each value's position among them (so codes sort as the strings).

    Hash-based in Arrow: only the distinct values are sorted (UTF-8 byte order, which is code point order, as
    Python sorts str), not the million values of a large index's relation columns."""
    values = pc.fill_null(values, "")
    distinct = pc.unique(values)
    names = distinct.take(pc.sort_indices(distinct))
    codes = pc.index_in(values, value_set=names)
    return [str(name) for name in names.to_pylist()], np.asarray(codes, dtype=np.int32).reshape(-1)


def _with_execution(table: pa.Table) -> pa.Table:
    """The stored relations and those execution implies, in one table of the stored one's columns."""
    if table.num_rows == 0 or "resolution" not in table.column_names:
        return table
    derived = derived_relations(table)
    return pa.concat_tables([table, derived.cast(table.schema)]) if derived.num_rows else table


def _column(table: pa.Table, column: str) -> pa.ChunkedArray:
    return table[column].cast(pa.string())


def _csr(keys: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Row pointers and the relation numbers grouped by key (a node's relations are order[ptr[k]:ptr[k + 1]])."""
    order = np.argsort(keys, kind="stable").astype(np.int32)
    ptr = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=size), out=ptr[1:])
    return ptr, order


def _resolution_ranks(table: pa.Table) -> np.ndarray:
    """Each relation's Resolution.rank (a missing or empty value is exact: relations the parser wrote itself)."""
    if table.num_rows == 0 or "resolution" not in table.column_names:
        return np.zeros(table.num_rows, dtype=np.int8)
    names, codes = _codes(_column(table, "resolution"))
    ranks = {r.value: r.rank for r in Resolution}
    return np.take(np.array([ranks.get(name, 0) for name in names], dtype=np.int8), codes)


def _receiver_codes(table: pa.Table) -> tuple[list[str], np.ndarray]:
    """The distinct receiver codes and each relation's (a table without the column: every receiver unknown, "")."""
    if "receiver" not in table.column_names:
        return [""], np.zeros(table.num_rows, dtype=np.int32)
    return _codes(_column(table, "receiver"))


Citations = Callable[[Sequence[str]], dict[str, str]]  # chunk ids -> the citations of those known
CitationSource = Mapping[str, str] | Citations  # every chunk's citation, or a lookup


def _lookup(citations: CitationSource) -> Citations:
    if callable(citations):
        return citations
    every = citations
    return lambda ids: {i: every[i] for i in ids if i in every}


@dataclass(frozen=True)
class RelationIndex:
    """One tenant's relations (endpoints, type, evidence, project and document as codes into sorted name lists)
    and where to find the citation of every chunk, so a walk and its answer need no call to the graph store."""

    tenant: str
    chunk_citations: Citations
    entity_ids: list[str]
    position: dict[str, int]
    types: list[str]
    evidence: list[str]
    projects: list[str]
    doc_ids: list[str]
    source: np.ndarray
    target: np.ndarray
    type_code: np.ndarray
    evidence_code: np.ndarray
    project_code: np.ndarray
    doc_code: np.ndarray
    weight: np.ndarray
    resolution_rank: np.ndarray  # Resolution.rank of each relation: 0 exact ... 3 name
    receivers: list[str]  # the distinct `Relation.receiver` codes, sorted
    receiver_code: np.ndarray
    out_ptr: np.ndarray
    out_order: np.ndarray
    in_ptr: np.ndarray
    in_order: np.ndarray
    # what walks read of these relations once and share (`ReceiverContext.of`), made on first use
    memo: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(
        cls, relations: Sequence[Relation], tenant: str, citations: CitationSource, *, execution: bool = True
    ) -> RelationIndex:
        mine = [r for r in relations if r.tenant == tenant]
        columns = ("source", "type", "target", "weight", "evidence", "project", "doc_id", "resolution", "receiver")
        rows = {name: [getattr(r, name) for r in mine] for name in columns}
        rows["type"] = [str(t) for t in rows["type"]]
        rows["resolution"] = [str(t) for t in rows["resolution"]]
        table = pa.table(rows, schema=RELATION_SCHEMA)
        return cls.from_table(table, tenant, citations, execution=execution)

    @classmethod
    def from_table(
        cls, table: pa.Table, tenant: str, citations: CitationSource, *, execution: bool = True
    ) -> RelationIndex:
        """From a graph store's `relation_table` (one tenant's relations, in any order), with no Python object per
        relation, and the chunks' `citations` (every chunk's, or a lookup of some). The relations are put in
        (source, type, target, evidence, project, document, weight) order here, so whatever order the store returned
        them in, every walk sees the same one. The relations execution implies (overrides, dispatch and constructor
        calls: `execution_edges`) are derived here and walked like the stored ones (`execution=False`: the stored
        relations alone)."""
        table = _with_execution(table) if execution else table
        count = table.num_rows
        endpoints = pa.chunked_array([*_column(table, "source").chunks, *_column(table, "target").chunks], pa.string())
        entity_ids, codes = _codes(endpoints)
        source, target = codes[:count], codes[count:]
        types, type_code = _codes(_column(table, "type"))
        evidence, evidence_code = _codes(_column(table, "evidence"))
        projects, project_code = _codes(_column(table, "project"))
        doc_ids, doc_code = _codes(_column(table, "doc_id"))
        weight = pc.fill_null(table["weight"], 1.0).to_numpy().astype(np.float64) if count else np.zeros(0)
        rank = _resolution_ranks(table)
        receivers, receiver_code = _receiver_codes(table)
        order = np.lexsort((weight, doc_code, project_code, evidence_code, target, type_code, source))
        source, target, type_code, evidence_code = source[order], target[order], type_code[order], evidence_code[order]
        project_code, doc_code, weight, rank = project_code[order], doc_code[order], weight[order], rank[order]
        receiver_code = receiver_code[order]
        out_ptr, out_order = _csr(source, len(entity_ids))
        in_ptr, in_order = _csr(target, len(entity_ids))
        return cls(
            tenant=tenant,
            chunk_citations=_lookup(citations),
            entity_ids=entity_ids,
            position={name: i for i, name in enumerate(entity_ids)},
            types=types,
            evidence=evidence,
            projects=projects,
            doc_ids=doc_ids,
            source=source,
            target=target,
            type_code=type_code,
            evidence_code=evidence_code,
            project_code=project_code,
            doc_code=doc_code,
            weight=weight,
            resolution_rank=rank,
            receivers=receivers,
            receiver_code=receiver_code,
            out_ptr=out_ptr,
            out_order=out_order,
            in_ptr=in_ptr,
            in_order=in_order,
        )

    def __len__(self) -> int:
        return len(self.source)

    def neighbours(self, entity_ids: Sequence[str], tenant: str, limit: int) -> list[Relation]:
        """Relations touching any of the entities, in either direction, ordered by (source, type, target,
        evidence), at most `limit`. Another tenant's index answers nothing."""
        if tenant != self.tenant:
            return []
        nodes = sorted({self.position[e] for e in entity_ids if e in self.position})
        if not nodes:
            return []
        parts = [self.out_order[self.out_ptr[n] : self.out_ptr[n + 1]] for n in nodes]
        parts += [self.in_order[self.in_ptr[n] : self.in_ptr[n + 1]] for n in nodes]
        found = np.unique(np.concatenate(parts))
        ranked = found[
            np.lexsort((self.evidence_code[found], self.target[found], self.type_code[found], self.source[found]))
        ][:limit]
        return [self._relation(int(i)) for i in ranked]

    def touching(self, entity_id: str, types: Sequence[str], *, outgoing: bool) -> np.ndarray:
        """The numbers of one entity's relations of `types` leaving it (`outgoing`) or arriving at it, sorted (an
        unknown entity or type: none); `source`, `target` and `resolution_rank` at them give their ends."""
        node = self.position.get(entity_id)
        codes = [self.types.index(t) for t in types if t in self.types]
        if node is None or not codes:
            return np.zeros(0, dtype=np.int64)
        ptr, order = (self.out_ptr, self.out_order) if outgoing else (self.in_ptr, self.in_order)
        found = order[ptr[node] : ptr[node + 1]]
        return np.sort(found[np.isin(self.type_code[found], codes)])

    def citations(self, chunk_ids: Sequence[str]) -> dict[str, str]:
        """The citations of the chunks of these ids, in their order (an unknown id left out)."""
        found = self.chunk_citations(chunk_ids)
        return {i: found[i] for i in chunk_ids if i in found}

    def all(self) -> list[Relation]:
        """Every relation, ordered as `GraphStore.relations` orders them."""
        ranked = np.lexsort((self.evidence_code, self.target, self.type_code, self.source))
        return [self._relation(int(i)) for i in ranked]

    def edges(self) -> Iterator[tuple[str, str, str, str, float]]:
        """(source, type, target, evidence, weight) of every relation in the order of `all`, as plain tuples."""
        ranked = np.lexsort((self.evidence_code, self.target, self.type_code, self.source))
        for i in ranked.tolist():
            yield (
                self.entity_ids[self.source[i]],
                self.types[self.type_code[i]],
                self.entity_ids[self.target[i]],
                self.evidence[self.evidence_code[i]],
                float(self.weight[i]),
            )

    def _relation(self, i: int) -> Relation:
        # Built from values that were validated on the way in: no second validation (a walk builds thousands).
        return Relation.model_construct(
            source=self.entity_ids[self.source[i]],
            type=self.types[self.type_code[i]],
            target=self.entity_ids[self.target[i]],
            weight=float(self.weight[i]),
            evidence=self.evidence[self.evidence_code[i]],  # "" where the graph store has "" (no evidence chunk)
            project=self.projects[self.project_code[i]],
            doc_id=self.doc_ids[self.doc_code[i]],
            tenant=self.tenant,
            resolution=RESOLUTIONS[int(self.resolution_rank[i])],
            receiver=self.receivers[self.receiver_code[i]],
        )

    def receiver(self, i: int) -> str:
        """The receiver code of relation number `i` (`Relation.receiver`)."""
        return self.receivers[int(self.receiver_code[i])]
