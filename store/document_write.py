"""What one document contributes to the index, and the text of a chunk the model embeds."""

from __future__ import annotations

from dataclasses import dataclass, field

from trident.store.identifiers import identifier_words
from trident.store.manifest import PendingReference
from trident.store.schema import Chunk, Document, DocumentKind, Entity, Relation


@dataclass
class DocumentWrite:
    """Everything one document contributes, with relations already resolved to entity ids."""

    document: Document
    chunks: list[Chunk] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    unresolved: list[PendingReference] = field(default_factory=list)


def embedding_text(chunk: Chunk) -> str:
    """What the model sees: the title (symbol or heading path) gives a chunk its context; a code chunk is headed by
    its file and the symbol it is part of, written also as words (`rich/console.py: Console.get_style (console get
    style)`), as a small model reads words better than identifiers and a chunk inside a long definition does not
    show its name."""
    if chunk.kind == DocumentKind.CODE:
        return f"{code_header(chunk)}\n{chunk.text}"
    return f"{chunk.title}\n{chunk.text}" if chunk.title and chunk.title not in chunk.text[:200] else chunk.text


def code_header(chunk: Chunk) -> str:
    """`path: Symbol.name (symbol name)`, the words left out where the title is one word already."""
    words = identifier_words(chunk.title)
    named = f"{chunk.title} ({words})" if words and words != chunk.title.lower() else chunk.title
    return f"{chunk.path}: {named}" if named else chunk.path
