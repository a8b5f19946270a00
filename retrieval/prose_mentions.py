"""Prose that names a piece of code the way people write code in prose: `` `total` ``, `total()`, `calc.ops.total`
(a single lower-case word such as "total" alone is ordinary prose, and the directory's mentions leave it out; written
as code, it names the function). Read in documents, docstrings and comments."""

from __future__ import annotations

import re

from trident.retrieval.definitions import ChunkReader
from trident.store.catalog import Catalog
from trident.store.names.mention_forms import mentionable_text
from trident.store.protocols import SearchFilter
from trident.store.schema import Entity

# Chunks read per name: prose naming one function more often than this is shown in part.
CHUNKS_PER_NAME = 200


def written_as_code(name: str) -> re.Pattern[str]:
    """`name` in backticks (alone or as the last part of a dotted name), called (`name(`), or dotted (`x.name`)."""
    word = re.escape(name)
    return re.compile(rf"`(?:[\w.]+\.)?{word}(?:\(\))?`|(?<![\w.]){word}\(|(?<=\w\.){word}\b")


def prose_naming(catalog: Catalog, read: ChunkReader, entity: Entity) -> list[str]:
    """Ids of the chunks whose prose (documents whole; docstrings and comments of code) writes `entity`'s name as
    code, outside the entity's own definition, in id order."""
    pattern = written_as_code(entity.name)
    hits = catalog.text.search(entity.name, CHUNKS_PER_NAME, SearchFilter(catalog.tenant))
    chunks = read([h.id for h in hits])
    return sorted(
        chunk_id
        for chunk_id, chunk in chunks.items()
        if chunk_id != entity.chunk_id and pattern.search(mentionable_text(chunk))
    )
