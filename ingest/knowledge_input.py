"""What `add_knowledge` takes and returns: the add_knowledge tool's arguments and answer, validated where they enter.

Kept apart from ingest/knowledge.py so a server can register the tool without importing the indexing side.
"""

from __future__ import annotations

import re
import unicodedata

from pydantic import BaseModel, Field, field_validator

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
