"""The Kùzu schema of the graph, the columns queries return, and how rows become records."""

from __future__ import annotations

from typing import Any

from trident.store.schema import Chunk, DocumentKind, Entity, Relation, Resolution

DDL = (
    "CREATE NODE TABLE IF NOT EXISTS Chunk(id STRING PRIMARY KEY, doc_id STRING, project STRING, tenant STRING,"
    " path STRING, start_line INT64, end_line INT64, text STRING, title STRING, kind STRING, language STRING,"
    " symbols STRING[])",
    "CREATE NODE TABLE IF NOT EXISTS Entity(id STRING PRIMARY KEY, name STRING, type STRING, project STRING,"
    " tenant STRING, qualified_name STRING, aliases STRING[], description STRING, chunk_id STRING,"
    " doc_id STRING, path STRING)",
    "CREATE REL TABLE IF NOT EXISTS RELATES(FROM Entity TO Entity, type STRING, weight DOUBLE, evidence STRING,"
    " project STRING, doc_id STRING, resolution STRING)",
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
RELATION_COLUMNS = "a.id, r.type, b.id, r.weight, r.evidence, r.project, r.doc_id, a.tenant, r.resolution"


def entity_from_row(row: list[Any]) -> Entity:
    id_, name, type_, project, tenant, qname, aliases, description, chunk_id, doc_id, path = row
    return Entity.model_construct(  # validated when written; thousands are read at once
        id=id_,
        name=name,
        type=type_,
        project=project,
        tenant=tenant,
        qualified_name=qname or "",
        aliases=tuple(aliases or ()),
        description=description or "",
        chunk_id=chunk_id,
        doc_id=doc_id,
        path=path,
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
    source, type_, target, weight, evidence, project, doc_id, tenant, resolution = row
    return Relation.model_construct(  # validated when written; thousands are read at once
        source=source,
        type=type_,
        target=target,
        weight=weight,
        evidence=evidence,
        project=project,
        doc_id=doc_id,
        tenant=tenant,
        resolution=Resolution(resolution or Resolution.EXACT),
    )


def parameter_shape(value: Any) -> object:
    """What a prepared statement's parameter types depend on: the Python type, and for lists whether they are empty
    and the type (or struct keys) of their first item."""
    if isinstance(value, list):
        if not value:
            return ("list", None)
        first = value[0]
        return ("list", tuple(sorted(first)) if isinstance(first, dict) else type(first).__name__)
    return type(value).__name__
