"""The Kùzu schema of the graph, the columns queries return, and how rows become records."""

from __future__ import annotations

import sys
from typing import Any

import pyarrow as pa

from trident.store.schema import Chunk, DocumentKind, Entity, Relation, Resolution

DDL = (
    "CREATE NODE TABLE IF NOT EXISTS Chunk(id STRING PRIMARY KEY, doc_id STRING, project STRING, tenant STRING,"
    " path STRING, start_line INT64, end_line INT64, text STRING, title STRING, kind STRING, language STRING,"
    " symbols STRING[])",
    "CREATE NODE TABLE IF NOT EXISTS Entity(id STRING PRIMARY KEY, name STRING, type STRING, project STRING,"
    " tenant STRING, qualified_name STRING, aliases STRING[], description STRING, chunk_id STRING,"
    " doc_id STRING, path STRING)",
    "CREATE REL TABLE IF NOT EXISTS RELATES(FROM Entity TO Entity, type STRING, weight DOUBLE, evidence STRING,"
    " project STRING, doc_id STRING, resolution STRING, receiver STRING)",
    # (an index written before relations carried a receiver gets it, "" in each relation it holds: any override)
    "ALTER TABLE RELATES ADD IF NOT EXISTS receiver STRING DEFAULT ''",
    # What a class's attribute holds (`HOLDS` relations): binding facts that writers read, apart from the relations
    # answers walk (an index written before this table gets it when next written, its facts as files are indexed)
    "CREATE REL TABLE IF NOT EXISTS HOLDS(FROM Entity TO Entity, member STRING, evidence STRING, project STRING,"
    " doc_id STRING)",
)

ENTITY_COLUMNS = (
    "e.id, e.name, e.type, e.project, e.tenant, e.qualified_name, e.aliases, e.description, e.chunk_id,"
    " e.doc_id, e.path"
)
CHUNK_COLUMNS = (
    "c.id, c.doc_id, c.project, c.tenant, c.path, c.start_line, c.end_line, c.text, c.title, c.kind, c.language,"
    " c.symbols"
)
LOCATION_COLUMNS = "c.id, c.project, c.path, c.start_line, c.end_line"
RELATION_COLUMNS = (
    "a.id, r.type, b.id, r.weight, r.evidence, r.project, r.doc_id, a.tenant, r.resolution, {receiver} AS receiver"
)
# What a relation's receiver reads as in a published generation written before relations carried one
NO_RECEIVER = "''"

# A record read back has every field set: all the records of a kind share one set of field names instead of one set
# each (0.7 KB a record: 140 MB over the 197K entities and relations of a 100K-chunk index). Safe because records
# are frozen and a copy (`model_copy`) copies the set before changing it.
_ENTITY_FIELDS = set(Entity.model_fields)
_RELATION_FIELDS = set(Relation.model_fields)


def entity_from_row(row: list[Any]) -> Entity:
    id_, name, type_, project, tenant, qname, aliases, description, chunk_id, doc_id, path = row
    return Entity.model_construct(  # validated when written; thousands are read at once
        _ENTITY_FIELDS,
        id=sys.intern(id_),
        name=sys.intern(name),
        type=sys.intern(type_),
        project=sys.intern(project),
        tenant=sys.intern(tenant),
        qualified_name=qname or "",
        aliases=tuple(aliases or ()),
        description=description or "",
        chunk_id=_shared(chunk_id),
        doc_id=_shared(doc_id),
        path=_shared(path),
    )


def chunk_from_row(row: list[Any]) -> Chunk:
    id_, doc_id, project, tenant, path, start, end, text, title, kind, language, symbols = row
    return Chunk.model_construct(  # validated when written; thousands are read at once
        id=id_,
        doc_id=doc_id,
        project=project,
        tenant=tenant,
        path=path,
        start_line=start,
        end_line=end,
        text=text,
        title=title or "",
        kind=DocumentKind(kind),
        language=language or None,
        symbols=tuple(symbols or ()),
    )


def citation_from_row(row: list[Any]) -> str:
    _, project, path, start, end = row
    return f"{project}/{path}:L{start}-L{end}"  # as Chunk.citation


def relation_from_row(row: list[Any]) -> Relation:
    source, type_, target, weight, evidence, project, doc_id, tenant, resolution, receiver = row
    return Relation.model_construct(  # validated when written; thousands are read at once
        _RELATION_FIELDS,
        source=sys.intern(source),
        type=sys.intern(type_),
        target=sys.intern(target),
        weight=weight,
        evidence=_shared(evidence),
        project=sys.intern(project),
        doc_id=_shared(doc_id),
        tenant=sys.intern(tenant),
        resolution=Resolution(resolution or Resolution.EXACT),
        receiver=_shared(receiver) or "",
    )


def _shared(text: str | None) -> str | None:
    """`sys.intern` for a column that may be empty. Interned, equal strings are one object: each row of a read
    brings its own copy of an id, a project or a type that many records hold (a relation's ends are ids the
    entities hold too)."""
    return None if text is None else sys.intern(text)


def parameter_shape(value: Any) -> object:
    """What a prepared statement's parameter types depend on: the Python type, and for lists whether they are empty
    and the type (or struct keys) of their first item."""
    if isinstance(value, list):
        if not value:
            return ("list", None)
        first = value[0]
        return ("list", tuple(sorted(first)) if isinstance(first, dict) else type(first).__name__)
    return type(value).__name__


# ---- what a write sends: one parameter row per record, merged by id ----
MERGE_CHUNKS = (
    "UNWIND $rows AS r MERGE (c:Chunk {id: r.id}) SET c.doc_id = r.doc_id, c.project = r.project,"
    " c.tenant = r.tenant, c.path = r.path, c.start_line = r.start_line, c.end_line = r.end_line,"
    " c.text = r.text, c.title = r.title, c.kind = r.kind, c.language = r.language, c.symbols = r.symbols"
)
MERGE_ENTITIES = (
    "UNWIND $rows AS r MERGE (e:Entity {id: r.id}) SET e.name = r.name, e.type = r.type,"
    " e.project = r.project, e.tenant = r.tenant, e.qualified_name = r.qualified_name,"
    " e.aliases = r.aliases, e.description = r.description, e.chunk_id = r.chunk_id,"
    " e.doc_id = r.doc_id, e.path = r.path"
)
MERGE_RELATION = (
    "MATCH (a:Entity {id: $source}), (b:Entity {id: $target})"
    " MERGE (a)-[x:RELATES {type: $type, evidence: $evidence}]->(b)"
    " SET x.weight = $weight, x.project = $project, x.doc_id = $doc_id, x.resolution = $resolution,"
    " x.receiver = $receiver"
)

MERGE_HOLDS = (
    "MATCH (a:Entity {id: $source}), (b:Entity {id: $target})"
    " MERGE (a)-[x:HOLDS {member: $member, doc_id: $doc_id}]->(b)"
    " SET x.evidence = $evidence, x.project = $project"
)

# New relations are copied in (`COPY RELATES FROM`), whose columns are the ends' primary keys, then the properties in
# the order of the table's DDL.
RELATION_COPY_SCHEMA = pa.schema(
    [
        ("source", pa.string()),
        ("target", pa.string()),
        ("type", pa.string()),
        ("weight", pa.float64()),
        ("evidence", pa.string()),
        ("project", pa.string()),
        ("doc_id", pa.string()),
        ("resolution", pa.string()),
        ("receiver", pa.string()),
    ]
)
EXISTING_RELATIONS = (
    "MATCH (a:Entity)-[x:RELATES]->(b:Entity) WHERE a.id IN $sources AND x.evidence IN $evidence"
    " RETURN a.id, x.type, b.id, x.evidence"
)


HOLDS_COPY_SCHEMA = pa.schema(
    [
        ("source", pa.string()),
        ("target", pa.string()),
        ("member", pa.string()),
        ("evidence", pa.string()),
        ("project", pa.string()),
        ("doc_id", pa.string()),
    ]
)
EXISTING_HOLDS = "MATCH (a:Entity)-[x:HOLDS]->(b:Entity) WHERE a.id IN $sources RETURN a.id, x.member, x.doc_id, b.id"


def holds_row(r: Relation) -> dict[str, Any]:
    """A `HOLDS` relation as a row of its table."""
    return {
        "source": r.source,
        "target": r.target,
        "member": r.member,
        "evidence": r.evidence or "",
        "project": r.project,
        "doc_id": r.doc_id or "",
    }


def copy_table(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    """Rows (`relation_row`, `holds_row`) as the table `COPY ... FROM` reads: the columns of `schema`, in order."""
    return pa.table({name: [row[name] for row in rows] for name in schema.names}, schema)


def chunk_row(c: Chunk) -> dict[str, Any]:
    return {
        "id": c.id,
        "doc_id": c.doc_id,
        "project": c.project,
        "tenant": c.tenant,
        "path": c.path,
        "start_line": c.start_line,
        "end_line": c.end_line,
        "text": c.text,
        "title": c.title,
        "kind": str(c.kind),
        "language": c.language or "",
        "symbols": list(c.symbols),
    }


def entity_row(e: Entity) -> dict[str, Any]:
    return {
        "id": e.id,
        "name": e.name,
        "type": e.type,
        "project": e.project,
        "tenant": e.tenant,
        "qualified_name": e.qualified_name,
        "aliases": list(e.aliases),
        "description": e.description,
        "chunk_id": e.chunk_id or "",
        "doc_id": e.doc_id or "",
        "path": e.path or "",
    }


def relation_row(r: Relation) -> dict[str, Any]:
    return {
        "source": r.source,
        "target": r.target,
        "type": r.type,
        "evidence": r.evidence or "",
        "weight": r.weight,
        "project": r.project,
        "doc_id": r.doc_id or "",
        "resolution": str(r.resolution),
        "receiver": r.receiver,
    }
