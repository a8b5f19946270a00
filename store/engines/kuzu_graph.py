"""The property graph in Kùzu: chunks and entities as nodes, typed relations with their evidence chunk."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pyarrow as pa

from trident.store.crashpoints import crash_point
from trident.store.engines.graph_memory import GraphMemory, RelationKey
from trident.store.engines.kuzu_rows import (
    CHUNK_COLUMNS,
    DDL,
    ENTITY_COLUMNS,
    EXISTING_HOLDS,
    EXISTING_RELATIONS,
    HOLDS_COPY_SCHEMA,
    LOCATION_COLUMNS,
    MERGE_CHUNKS,
    MERGE_ENTITIES,
    MERGE_HOLDS,
    MERGE_RELATION,
    NO_RECEIVER,
    RELATION_COLUMNS,
    RELATION_COPY_SCHEMA,
    chunk_from_row,
    chunk_row,
    citation_from_row,
    copy_table,
    entity_from_row,
    entity_row,
    holds_row,
    parameter_shape,
    relation_from_row,
    relation_row,
)
from trident.store.errors import ReadOnlyIndexError
from trident.store.mapped.chunk_rows import ROWS_SCHEMA
from trident.store.schema import PASSED_OPEN, Chunk, Entity, Relation, RelationType

BUFFER_POOL_BYTES = 512 * 1024 * 1024
# Kùzu reserves address space for the largest database it may grow to (8 TiB by default); a server holds two or
# three generations open for a moment when it moves to a new one, so a smaller reservation leaves room for many.
MAX_DB_BYTES = 1 << 40
WRITE_BATCH = 2_000
# Up to this many ids are fetched by primary key one at a time; more by one scan of the table.
PK_LOOKUPS_MAX = 200
PK_GROUP_SIZES = (1, 4, 16)  # ids per primary-key query; a group is padded by repeating its last id
ROW_MERGES_MAX = 200  # up to this many relation rows are merged one statement each; of more, the new are copied in
ARROW_CHUNK_ROWS = 100_000


def _among(tenants: dict[str, str], ids: set[str]) -> dict[str, str]:
    return {i: tenants[i] for i in ids if i in tenants}


def _row_key(row: dict[str, Any]) -> RelationKey:
    """A relation row's merge key (as `graph_memory.relation_key` of the relation)."""
    return (row["source"], row["type"], row["target"], row["evidence"])


def _holds_key(row: dict[str, Any]) -> tuple[str, str, str, str]:
    """A `HOLDS` row's merge key: the type an attribute of a class holds as a document states it (one per attribute;
    what a document's calls pass a function's parameter, one per value)."""
    return (row["source"], row["member"], row["doc_id"], row["target"])


def open_database(path: Path, *, read_only: bool, engine: ModuleType) -> Any:
    """A database of `engine` (Kùzu's Python module, or a fork with its API) with this store's buffer pool and
    address-space reservation."""
    return engine.Database(str(path), buffer_pool_size=BUFFER_POOL_BYTES, max_db_size=MAX_DB_BYTES, read_only=read_only)


class KuzuGraphStore:
    """A Kùzu database; calls are serialised because one connection is shared by worker threads.

    Opened read-only (a published generation), it refuses every write: writes go through a writer's session.

    What it has read of a tenant's entities and relations it keeps in memory, and its own writes keep that what the
    file holds (`store/engines/graph_memory.py`); a writer's session starts with what the published generation's store
    holds.

    `ENGINE` names the database's Python module: Kùzu's, or a fork that keeps its API and Cypher dialect
    (`store/engines/ladybug_graph.py`); everything else is the same. It is imported when a store opens: two such modules
    cannot be loaded in one process (each registers the same native types).
    """

    ENGINE: ClassVar[str] = "kuzu"

    def __init__(self, path: Path, *, read_only: bool = False, memory: GraphMemory | None = None) -> None:
        """`memory`: what this file holds, as a store of it (or of the file it was copied from) read it."""
        self.engine: ModuleType = import_module(self.ENGINE)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._path = path
        self._lock = threading.Lock()
        self._memory = memory or GraphMemory()
        self._open(read_only)

    def memory(self) -> GraphMemory:
        """A copy of what this store holds in memory (for a session copied from its file)."""
        return self._memory.copy()

    def _open(self, read_only: bool) -> None:
        self._read_only = read_only
        self._db = open_database(self._path, read_only=read_only, engine=self.engine)
        self._conn = self.engine.Connection(self._db)
        self._statements: dict[tuple[object, ...], Any] = {}
        if not read_only:
            for statement in DDL:
                self._conn.execute(statement)
        self._receiver = "r.receiver" if not read_only or self._receives() else NO_RECEIVER

    def _receives(self) -> bool:
        """Whether the relations of this file carry a receiver (a generation published before they did does not)."""
        result = self._conn.execute("CALL TABLE_INFO('RELATES') RETURN name")
        assert isinstance(result, self.engine.QueryResult)
        return any(row[0] == "receiver" for row in result.get_all())

    @property
    def read_only(self) -> bool:
        return self._read_only

    def reopen_read_only(self) -> None:
        """Checkpoint and close the read-write database, then go on reading the same file read-only; calls made
        meanwhile by other threads wait for the switch, so none of them fails."""
        with self._lock:
            self._statements.clear()
            self._conn.close()
            self._db.close()
            self._open(read_only=True)

    def _check_writable(self) -> None:
        """
        Raises:
            ReadOnlyIndexError: this is a published generation, which never changes.
        """
        if self._read_only:
            raise ReadOnlyIndexError(
                f"the graph at {self._path} is a published generation and read-only; "
                "open a writer: `with catalog.writer() as w:`"
            )

    def _rows(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        with self._lock:
            return self._locked_rows(query, params or {})

    def _locked_rows(self, query: str, params: dict[str, Any]) -> list[list[Any]]:
        result = self._conn.execute(self._prepared(query, params) if params else query, params)
        assert isinstance(result, self.engine.QueryResult)
        rows: list[list[Any]] = []
        while result.has_next():
            rows.append(list(result.get_next()))
        return rows

    def _scan_rows(self, query: str, params: dict[str, Any]) -> list[list[Any]]:
        """As `_rows`, for queries that return a whole table: read as Arrow and converted a column at a time (half
        the time of fetching tens of thousands of rows one by one)."""
        with self._scanning() as execute:
            result = execute(query, params)
            if not result.has_next():
                return []
            table = result.get_as_arrow(ARROW_CHUNK_ROWS)
        return [list(row) for row in zip(*(column.to_pylist() for column in table.columns), strict=True)]

    def _scan_table(self, query: str, params: dict[str, Any], empty: pa.Schema | None = None) -> pa.Table:
        """A whole-table read as one Arrow table (`empty`'s empty table when nothing matches, given one)."""
        with self._scanning() as execute:
            result = execute(query, params)
            if empty is not None and not result.has_next():
                return empty.empty_table()
            return result.get_as_arrow(ARROW_CHUNK_ROWS)

    @contextmanager
    def _scanning(self) -> Iterator[Callable[[str, dict[str, Any]], Any]]:
        """What runs a whole-table read. On a published generation, a database opened for the read and closed after
        it: Kùzu's buffer pool keeps every page it has read for the database's life, so a server's scans of the
        entities and relations for its views left about 90 MB resident at 100K chunks (opening and closing take a
        few tens of milliseconds; the file never changes, so both see the same rows). A writer reads its own."""
        if not self._read_only:
            with self._lock:
                yield lambda query, params: self._executed(self._conn.execute(self._prepared(query, params), params))
            return
        database = open_database(self._path, read_only=True, engine=self.engine)
        connection = self.engine.Connection(database)
        try:
            yield lambda query, params: self._executed(connection.execute(query, params))
        finally:
            connection.close()
            database.close()

    def _executed(self, result: Any) -> Any:
        assert isinstance(result, self.engine.QueryResult)
        return result

    def _prepared(self, query: str, params: dict[str, Any]) -> Any:
        """One prepared statement per query text and parameter shape, kept for the connection's life: Kùzu 0.11
        keeps about 1 MB for every statement it prepares, so preparing on each call grows a server without bound."""
        key = (query, *((name, parameter_shape(value)) for name, value in sorted(params.items())))
        statement = self._statements.get(key)
        if statement is None:
            with warnings.catch_warnings():  # Kùzu deprecates prepare + execute; it is what bounds memory
                warnings.simplefilter("ignore", DeprecationWarning)
                statement = self._conn.prepare(query, params)
            self._statements[key] = statement
        return statement

    def _batched(self, query: str, rows: list[dict[str, Any]]) -> None:
        for start in range(0, len(rows), WRITE_BATCH):
            self._rows(query, {"rows": rows[start : start + WRITE_BATCH]})
            crash_point("graph.batch")

    def upsert(self, chunks: Sequence[Chunk], entities: Sequence[Entity], relations: Sequence[Relation]) -> None:
        """Merge nodes by id and relations by (source, type, target, evidence); re-running is harmless."""
        self._check_writable()
        self._batched(MERGE_CHUNKS, [chunk_row(c) for c in chunks])
        entity_rows = [entity_row(e) for e in entities]
        self._batched(MERGE_ENTITIES, entity_rows)
        self._memory.merged_entities(entity_rows)
        self._merge_relations([relation_row(r) for r in relations if r.type != RelationType.HOLDS])
        self._merge_holds([holds_row(r) for r in relations if r.type == RelationType.HOLDS])

    def _merge_relations(self, rows: list[dict[str, Any]]) -> None:
        """Relation rows merged by (source, type, target, evidence) where both ends exist, the last row of a key
        winning. Kùzu plans a merge whose two ends come from parameter rows as a cross product of two scans of the
        entity table (at 58K entities: 0.3 s for 3 rows, 1.6 s for 200, 12.6 s for 2,000), so rows are merged one
        statement each, both ends found by primary key (2 ms a row); of more than ROW_MERGES_MAX, those new to the
        file are copied in instead."""
        rows = list({_row_key(row): row for row in rows}.values())
        tenants: dict[str, str] | None = None  # of the ends, read once when the rows are many
        merged = rows
        if len(rows) > ROW_MERGES_MAX:
            tenants = self._tenants_of({row["source"] for row in rows} | {row["target"] for row in rows})
            merged = self._copy_new(rows, tenants, "RELATES", RELATION_COPY_SCHEMA, _row_key, self._existing_relations)
        with self._lock:
            for row in merged:
                self._locked_rows(MERGE_RELATION, row)
        crash_point("graph.batch")
        self._memory.merged_relations(rows, self._tenants_of if tenants is None else partial(_among, tenants))

    def _merge_holds(self, rows: list[dict[str, Any]]) -> None:
        """`HOLDS` rows (what a class's attribute holds) by (class, attribute, document), where both ends exist, as
        `_merge_relations` merges relations (kept out of the memory of relations: answers never walk them)."""
        rows = list({_holds_key(row): row for row in rows}.values())
        if len(rows) > ROW_MERGES_MAX:
            tenants = self._tenants_of({row["source"] for row in rows} | {row["target"] for row in rows})
            rows = self._copy_new(rows, tenants, "HOLDS", HOLDS_COPY_SCHEMA, _holds_key, self._existing_holds)
        with self._lock:
            for row in rows:
                self._locked_rows(MERGE_HOLDS, row)
        crash_point("graph.batch")

    def _copy_new(
        self,
        rows: list[dict[str, Any]],
        tenants: dict[str, str],
        table: str,
        schema: pa.Schema,
        key: Callable[[dict[str, Any]], tuple[str, ...]],
        existing: Callable[[list[dict[str, Any]]], set[Any]],
    ) -> list[dict[str, Any]]:
        """Copy into `table` the rows whose ends exist (have `tenants`) and whose `key` the file does not hold yet
        (`existing` of a batch: the keys it holds; `COPY` finds both ends by primary key: 0.1 s for 2,000 rows, but
        0.2-0.4 s in a write session however few it copies); returns those it holds, left to merge."""
        rows = [row for row in rows if row["source"] in tenants and row["target"] in tenants]
        held: list[dict[str, Any]] = []
        for start in range(0, len(rows), WRITE_BATCH):
            batch = rows[start : start + WRITE_BATCH]
            there = existing(batch)
            held.extend(row for row in batch if key(row) in there)
            new = [row for row in batch if key(row) not in there]
            if new:
                with self._lock:
                    self._conn.execute(f"COPY {table} FROM $rows", {"rows": copy_table(new, schema)})
            crash_point("graph.batch")
        return held

    def _existing_holds(self, rows: list[dict[str, Any]]) -> set[tuple[str, str, str, str]]:
        """The keys of the `HOLDS` rows the file holds."""
        found = self._rows(EXISTING_HOLDS, {"sources": sorted({row["source"] for row in rows})})
        return {(str(a), str(m), str(d), str(b)) for a, m, d, b in found}

    def holds(self, tenant: str) -> list[tuple[str, str, str]]:
        """(class, attribute, held entity) of every attribute type the tenant's classes state, ordered: what writers
        bind `r.connection.send()` by. None in an index written before they were kept (until its files are)."""
        rows = self._holds_rows(f"NOT x.member STARTS WITH '{PASSED_OPEN}'", "DISTINCT a.id, x.member, b.id", tenant)
        return [(str(cls), str(member), str(held)) for cls, member, held in rows]

    def passed(self, tenant: str) -> list[tuple[str, str, str, str]]:
        """(function, slot, entity, document) of what each document's calls pass functions' untyped parameters,
        ordered: what writers type the parameters by (`trident.ingest.passed_values`)."""
        rows = self._holds_rows(f"x.member STARTS WITH '{PASSED_OPEN}'", "a.id, x.member, b.id, x.doc_id", tenant)
        return [(str(function), str(slot), str(held), str(doc)) for function, slot, held, doc in rows]

    def _holds_rows(self, where: str, columns: str, tenant: str) -> list[list[Any]]:
        try:
            return self._rows(
                f"MATCH (a:Entity)-[x:HOLDS]->(b:Entity) WHERE a.tenant = $tenant AND {where}"
                f" RETURN {columns} ORDER BY {columns.removeprefix('DISTINCT ')}",
                {"tenant": tenant},
            )
        except RuntimeError as exc:  # a published generation read-only from before the table: it has none
            if "HOLDS" not in str(exc):
                raise
            return []

    def _existing_relations(self, rows: list[dict[str, Any]]) -> set[RelationKey]:
        """The keys of the rows the file holds a relation of."""
        found = self._rows(
            EXISTING_RELATIONS,
            {"sources": sorted({row["source"] for row in rows}), "evidence": sorted({row["evidence"] for row in rows})},
        )
        return {(str(a), str(t), str(b), str(e or "")) for a, t, b, e in found} & {_row_key(row) for row in rows}

    def _tenants_of(self, ids: set[str]) -> dict[str, str]:
        """The tenant of each of the entities that exist."""
        rows = self._by_id("MATCH (e:Entity) WHERE e.id", "e.id, e.tenant", sorted(ids))
        return {str(entity_id): str(tenant) for entity_id, tenant in rows}

    def delete_documents(self, doc_ids: Iterable[str], keep_entities: Iterable[str] = ()) -> None:
        """Remove the documents' chunks, the relations they own, and their entities except `keep_entities`.

        Kept entities are the ones a re-indexed document still defines: keeping the node keeps the edges that
        other documents point at it.
        """
        ids = sorted(set(doc_ids))
        if not ids:
            return
        self._check_writable()
        keep = sorted(set(keep_entities))
        self._delete_relations_of(ids)
        self._rows("MATCH (c:Chunk) WHERE c.doc_id IN $ids DELETE c", {"ids": ids})
        owned = "MATCH (e:Entity) WHERE e.doc_id IN $ids AND NOT e.id IN $keep"
        gone = self._rows(f"{owned} RETURN e.id", {"ids": ids, "keep": keep})
        self._rows(f"{owned} DETACH DELETE e", {"ids": ids, "keep": keep})
        self._memory.removed_entities(row[0] for row in gone)

    def delete_relations(self, doc_ids: Iterable[str]) -> None:
        """Remove the relations the documents own, keeping their chunks and entities (their references are bound
        again)."""
        ids = sorted(set(doc_ids))
        if not ids:
            return
        self._check_writable()
        self._delete_relations_of(ids)

    def _delete_relations_of(self, ids: list[str]) -> None:
        self._rows("MATCH ()-[r:RELATES]->() WHERE r.doc_id IN $ids DELETE r", {"ids": ids})
        self._rows("MATCH ()-[r:HOLDS]->() WHERE r.doc_id IN $ids DELETE r", {"ids": ids})
        self._memory.removed_relations_of(ids)

    def delete_orphans(self, entity_types: Sequence[str]) -> None:
        """Drop shared entities (tags, concepts) that no relation touches any more."""
        self._check_writable()
        orphans = "MATCH (e:Entity) WHERE e.doc_id = '' AND e.type IN $types AND NOT EXISTS { MATCH (e)-[:RELATES]-() }"
        gone = self._rows(f"{orphans} RETURN e.id", {"types": list(entity_types)})
        self._rows(f"{orphans} DELETE e", {"types": list(entity_types)})
        self._memory.removed_entities(row[0] for row in gone)

    def entities(self, tenant: str) -> list[Entity]:
        """The tenant's entities ordered by id (from memory once read)."""
        held = self._memory.entities(tenant)
        if held is not None:
            return held
        writes = self._memory.writes
        rows = self._scan_rows(
            f"MATCH (e:Entity) WHERE e.tenant = $tenant RETURN {ENTITY_COLUMNS} ORDER BY e.id", {"tenant": tenant}
        )
        found = [entity_from_row(row) for row in rows]
        self._memory.keep_entities(tenant, found, writes)
        return found

    def get_entities(self, ids: Sequence[str]) -> list[Entity]:
        rows = self._by_id("MATCH (e:Entity) WHERE e.id", ENTITY_COLUMNS, ids)
        return sorted((entity_from_row(row) for row in rows), key=lambda e: e.id)

    def neighbours(self, entity_ids: Sequence[str], tenant: str, limit: int) -> list[Relation]:
        """Relations touching any of the entities, in either direction, ordered by (source, type, target,
        evidence) and cut at `limit`.

        Two matches start from the entities' primary key, one following their edges out and one in (no scan of all
        relations); a relation between two of the entities is found by both and kept once.
        """
        ids = sorted(set(entity_ids))
        if not ids:
            return []
        columns = f"r.weight, r.evidence, r.project, r.doc_id, a.tenant, r.resolution, {self._receiver}, id(r)"
        rows = [
            *self._rows(
                "MATCH (a:Entity)-[r:RELATES]->(b:Entity) WHERE a.id IN $ids AND a.tenant = $tenant"
                f" RETURN a.id, r.type, b.id, {columns}",
                {"ids": ids, "tenant": tenant},
            ),
            *self._rows(
                "MATCH (b:Entity)-[r:RELATES]->(a:Entity) WHERE a.id IN $ids AND a.tenant = $tenant"
                f" RETURN b.id, r.type, a.id, {columns}",
                {"ids": ids, "tenant": tenant},
            ),
        ]
        found: dict[tuple[int, int], Relation] = {}
        for *fields, rel_id in rows:
            found.setdefault((rel_id["table"], rel_id["offset"]), relation_from_row(fields))
        ordered = sorted(found.values(), key=lambda r: (r.source, r.type, r.target, r.evidence or ""))
        return ordered[:limit]

    def relation_table(self, tenant: str) -> pa.Table:
        """Every relation of a tenant as one Arrow table (columns as `Relation`'s fields), in no particular order
        (sorting 180K rows in Kùzu takes longer than reading them): for readers that keep the graph in memory
        without building a Python object per relation, and order it themselves."""
        query = (
            "MATCH (a:Entity)-[r:RELATES]->(b:Entity) WHERE a.tenant = $tenant RETURN a.id AS source, r.type AS type,"
            " b.id AS target, r.weight AS weight, r.evidence AS evidence, r.project AS project, r.doc_id AS doc_id,"
            f" r.resolution AS resolution, {self._receiver} AS receiver"
        )
        return self._scan_table(query, {"tenant": tenant})

    def links(self, tenant: str, type_: str) -> list[tuple[str, str]]:
        """(source, target) of every relation of one type, ordered: a narrow read for resolvers (class bases)."""
        rows = self._rows(
            "MATCH (a:Entity)-[r:RELATES]->(b:Entity) WHERE a.tenant = $tenant AND r.type = $type"
            " RETURN DISTINCT a.id, b.id ORDER BY a.id, b.id",
            {"tenant": tenant, "type": type_},
        )
        return [(str(source), str(target)) for source, target in rows]

    def relations(self, tenant: str) -> list[Relation]:
        """The tenant's relations ordered by source, type, target and evidence (from memory once read)."""
        held = self._memory.relations(tenant)
        if held is not None:
            return held
        writes = self._memory.writes
        rows = self._rows(
            "MATCH (a:Entity)-[r:RELATES]->(b:Entity) WHERE a.tenant = $tenant"
            f" RETURN {RELATION_COLUMNS.format(receiver=self._receiver)}"
            " ORDER BY a.id, r.type, b.id, r.evidence",
            {"tenant": tenant},
        )
        found = [relation_from_row(row) for row in rows]
        self._memory.keep_relations(tenant, found, writes)
        return found

    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        rows = self._by_id("MATCH (c:Chunk) WHERE c.id", CHUNK_COLUMNS, ids)
        return {row[0]: chunk_from_row(row) for row in rows}

    def chunk_table(self, tenant: str, doc_ids: Sequence[str] | None = None) -> pa.Table:
        """The tenant's chunks (only those of `doc_ids`, when given) as one Arrow table, columns as `Chunk`'s fields,
        in no particular order: for the chunk-row file a publish writes beside its generation."""
        where = "c.tenant = $t" + (" AND c.doc_id IN $docs" if doc_ids is not None else "")
        params: dict[str, Any] = {"t": tenant} | ({"docs": list(doc_ids)} if doc_ids is not None else {})
        columns = ", ".join(f"c.{name} AS {name}" for name in ROWS_SCHEMA.names)
        query = f"MATCH (c:Chunk) WHERE {where} RETURN {columns}"
        return self._scan_table(query, params, ROWS_SCHEMA)

    def citations(self, chunk_ids: Sequence[str]) -> dict[str, str]:
        """`project/path:Lstart-Lend` of each chunk found."""
        rows = self._by_id("MATCH (c:Chunk) WHERE c.id", LOCATION_COLUMNS, chunk_ids)
        return {row[0]: citation_from_row(row) for row in rows}

    def all_citations(self, tenant: str) -> dict[str, str]:
        """The citation of every chunk of a tenant (one scan; for a reader that keeps them in memory)."""
        rows = self._scan_rows(f"MATCH (c:Chunk) WHERE c.tenant = $t RETURN {LOCATION_COLUMNS}", {"t": tenant})
        return {row[0]: citation_from_row(row) for row in rows}

    def _by_id(self, match: str, columns: str, ids: Sequence[str]) -> list[list[Any]]:
        """Rows of the nodes with these ids. Up to PK_LOOKUPS_MAX ids are looked up through the primary-key index,
        several per query (`... = $i0 UNION ALL ... = $i1 ...`, ids repeated up to a fixed group size so that
        a few prepared statements serve every count): under half a millisecond per id. `IN $ids` scans the whole
        table (15-30 ms at 60K chunks), which only pays for long lists."""
        wanted = sorted(set(ids))
        if len(wanted) > PK_LOOKUPS_MAX:
            return self._rows(f"{match} IN $ids RETURN {columns}", {"ids": wanted})
        rows: list[list[Any]] = []
        with self._lock:
            start = 0
            while start < len(wanted):
                size = next(s for s in PK_GROUP_SIZES if s >= len(wanted) - start or s == PK_GROUP_SIZES[-1])
                group = wanted[start : start + size]
                params = {f"i{k}": group[min(k, len(group) - 1)] for k in range(size)}
                query = " UNION ALL ".join(f"{match} = $i{k} RETURN {columns}" for k in range(size))
                rows.extend(self._locked_rows(query, params))
                start += size
        unique = {row[0]: row for row in rows}  # a repeated id comes back once per repeat
        return [unique[i] for i in wanted if i in unique]

    def chunks_of_files(self, tenant: str, names: Sequence[str], projects: Sequence[str] | None) -> list[str]:
        """Ids of the chunks of files with these base names (case-insensitive), optionally in some projects."""
        rows = self._rows(
            "MATCH (c:Chunk) WHERE c.tenant = $t AND lower(regexp_extract(c.path, '[^/]*$')) IN $names"
            " AND ($everywhere OR c.project IN $projects) RETURN c.id ORDER BY c.id",
            {
                "t": tenant,
                "names": [n.lower() for n in names],
                "everywhere": projects is None,
                "projects": list(projects or []),
            },
        )
        return [row[0] for row in rows]

    def chunk_ids(self, tenant: str) -> set[str]:
        return {row[0] for row in self._rows("MATCH (c:Chunk) WHERE c.tenant = $t RETURN c.id", {"t": tenant})}

    def counts(self, tenant: str) -> dict[str, int]:
        chunks = self._rows("MATCH (c:Chunk) WHERE c.tenant = $t RETURN count(c)", {"t": tenant})[0][0]
        entities = self._rows("MATCH (e:Entity) WHERE e.tenant = $t RETURN count(e)", {"t": tenant})[0][0]
        relations = self._rows("MATCH (a:Entity)-[r:RELATES]->() WHERE a.tenant = $t RETURN count(r)", {"t": tenant})[
            0
        ][0]
        return {"chunks": int(chunks), "entities": int(entities), "relations": int(relations)}

    def project_counts(self, tenant: str) -> dict[str, dict[str, int]]:
        """Per project: entities and relations (relations counted by the project that owns them)."""
        out: dict[str, dict[str, int]] = {}
        for project, n in self._rows("MATCH (e:Entity) WHERE e.tenant = $t RETURN e.project, count(e)", {"t": tenant}):
            out.setdefault(project, {"entities": 0, "relations": 0})["entities"] = int(n)
        for project, n in self._rows(
            "MATCH (a:Entity)-[r:RELATES]->() WHERE a.tenant = $t RETURN r.project, count(r)", {"t": tenant}
        ):
            out.setdefault(project, {"entities": 0, "relations": 0})["relations"] = int(n)
        return out

    def close(self) -> None:
        with self._lock:
            self._statements.clear()
            self._conn.close()
            self._db.close()
