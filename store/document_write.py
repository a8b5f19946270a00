"""What one document contributes to the index, and the text of a chunk the model embeds."""

from __future__ import annotations

from dataclasses import dataclass, field

from trident.store.manifest import PendingReference
from trident.store.schema import Chunk, Document, Entity, Relation


@dataclass
class DocumentWrite:
    """Everything one document contributes, with relations already resolved to entity ids."""

    document: Document
    chunks: list[Chunk] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    unresolved: list[PendingReference] = field(default_factory=list)


def embedding_text(chunk: Chunk) -> str:
    """What the model sees: the title (symbol or heading path) gives a chunk its context."""
    return f"{chunk.title}\n{chunk.text}" if chunk.title and chunk.title not in chunk.text[:200] else chunk.text
