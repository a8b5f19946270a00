"""Agent-authored facts: entities and relations an AI client adds, validated, attributed and searchable."""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime

from pydantic import BaseModel, Field, field_validator
from trident.retrieval.entities import resolve_entity
from trident.store.catalog import Catalog, DocumentWrite
from trident.store.directory import EntityDirectory
from trident.store.schema import Chunk, Document, DocumentKind, Entity, Relation, chunk_id, entity_id, stable_hash

KNOWLEDGE_PROJECT = "knowledge"
_RELATION_TYPE = re.compile(r"^[A-Z][A-Z0-9_]{1,39}$")
_ENTITY_TYPE = re.compile(r"^[A-Z][A-Za-z0-9]{1,39}$")


def _visible(value: str) -> str:
    """A name people and models can read back: no control characters (NUL, escapes) and not only spaces."""
    if not value.strip() or any(unicodedata.category(ch) == "Cc" for ch in value):
        raise ValueError("must be visible text, without control characters")
    return value.strip()


class NewEntity(BaseModel):
    name: str = Field(min_length=1, max_length=200, description="The entity's name, as people write it")
    type: str = Field("Concept", description="CamelCase type such as Concept, Service, Team, Decision")
    description: str = Field("", max_length=2_000)
    aliases: list[str] = Field(default_factory=list, max_length=20)

    @field_validator("name")
    @classmethod
    def _name_is_visible(cls, value: str) -> str:
        return _visible(value)

    @field_validator("aliases")
    @classmethod
    def _aliases_are_visible(cls, value: list[str]) -> list[str]:
        return [_visible(alias) for alias in value]

    @field_validator("type")
    @classmethod
    def _type_is_camel_case(cls, value: str) -> str:
        if not _ENTITY_TYPE.match(value):
            raise ValueError("type must be CamelCase letters and digits, e.g. Concept, Service, Team")
        return value


class NewRelation(BaseModel):
    source: str = Field(min_length=1, description="Name or id of an existing entity, or of one added in this call")
    type: str = Field(description="UPPER_SNAKE relation type, e.g. DEPENDS_ON, OWNED_BY")
    target: str = Field(min_length=1)
    note: str = Field("", max_length=1_000, description="Why this holds; stored as the relation's evidence")

    @field_validator("source", "target")
    @classmethod
    def _ends_are_visible(cls, value: str) -> str:
        return _visible(value)

    @field_validator("type")
    @classmethod
    def _type_is_upper_snake(cls, value: str) -> str:
        if not _RELATION_TYPE.match(value):
            raise ValueError("type must be UPPER_SNAKE_CASE, e.g. DEPENDS_ON")
        return value


class KnowledgeResult(BaseModel):
    document: str
    entities: list[str]
    relations: int
    citation: str


def add_knowledge(
    catalog: Catalog,
    directory: EntityDirectory,
    entities: list[NewEntity],
    relations: list[NewRelation],
    *,
    author: str = "agent",
) -> KnowledgeResult:
    """Store the facts as one searchable document whose chunk is the evidence of every relation.

    Raises:
        ValueError: nothing to add.
        EntityNotFoundError: a relation names an entity that neither exists nor is added here.
    """
    if not entities and not relations:
        raise ValueError("give at least one entity or relation")
    lines = [f"Knowledge added by {author}:"]
    lines += [f"{e.name} ({e.type}): {e.description}".rstrip(": ") for e in entities]
    lines += [f"{r.source} {r.type} {r.target}" + (f": {r.note}" if r.note else "") for r in relations]
    text = "\n".join(lines)
    path = f"facts/{stable_hash(author, text)}.md"
    doc = Document(
        id=f"{KNOWLEDGE_PROJECT}/{path}",
        project=KNOWLEDGE_PROJECT,
        path=path,
        kind=DocumentKind.TEXT,
        content_hash=stable_hash(text, length=40),
        tenant=catalog.tenant,
    )
    cid = chunk_id(KNOWLEDGE_PROJECT, path, 1, len(lines))
    chunk = Chunk(
        id=cid,
        doc_id=doc.id,
        project=KNOWLEDGE_PROJECT,
        path=path,
        text=text,
        start_line=1,
        end_line=len(lines),
        kind=DocumentKind.TEXT,
        title=f"Added by {author} on {datetime.now(UTC).date()}",
        symbols=tuple(e.name for e in entities),
        tenant=catalog.tenant,
    )
    added = [
        Entity(
            id=entity_id(e.type, KNOWLEDGE_PROJECT, e.name),
            name=e.name,
            type=e.type,
            project=KNOWLEDGE_PROJECT,
            qualified_name=e.name,
            aliases=tuple(e.aliases),
            description=e.description,
            chunk_id=cid,
            doc_id=doc.id,
            path=path,
            tenant=catalog.tenant,
        )
        for e in entities
    ]
    local = EntityDirectory([*directory.by_id.values(), *added])
    edges = [
        Relation(
            source=resolve_entity(local, r.source).id,
            type=r.type,
            target=resolve_entity(local, r.target).id,
            evidence=cid,
            project=KNOWLEDGE_PROJECT,
            doc_id=doc.id,
            tenant=catalog.tenant,
        )
        for r in relations
    ]
    catalog.write([DocumentWrite(doc, [chunk], added, edges)])
    return KnowledgeResult(
        document=doc.id, entities=[e.id for e in added], relations=len(edges), citation=chunk.citation
    )
