"""The answering side's one read object: an index as one request reads it, through the views of its published
generation that queries share (`GenerationViews`: the entity directory, the relations in memory, the mapped chunk
rows, and the pool and memories of `AnswerState`).

A server holds one `GenerationViews` and opens a `Reader` over it per request; a CLI command, a bench or a test
opens one with views of its own (`Reader.open`). Every tool takes a reader, so a tool has one way to read: no tool
reads the graph store where a server would read its views.

One request, one generation: a reader notes the generation it opened on, and `read_once` answers again when a
writer published another while the answer was read (generations only move forward, so a reader that ends on the
generation it began on read that one only)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from trident.retrieval.relation_index import RelationIndex
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Chunk

T = TypeVar("T")
log = logging.getLogger(__name__)
# Answers read again when generations are published faster than one is read, at most (then the last one stands:
# a writer publishing without pause must not starve readers)
READS = 3


class Reader:
    """An index's published generation as one request reads it: the catalog (its engines and manifest), and the
    views of that generation, each built once and shared with every other reader of the same views."""

    def __init__(self, catalog: Catalog, views: GenerationViews) -> None:
        self.catalog = catalog
        self.views = views
        self.generation = catalog.manifest.generation

    @classmethod
    def open(cls, catalog: Catalog, settings: RetrievalSettings | None = None) -> Reader:
        """A reader with views of its own, built on first use (a CLI command, a bench, a test)."""
        return cls(catalog, GenerationViews(settings or RetrievalSettings()))

    def directory(self) -> EntityDirectory:
        """Every entity by id and by the names people write."""
        return self.views.directory(self.catalog)

    def relations(self) -> RelationIndex:
        """The relations in memory, for walks of many steps."""
        return self.views.relations(self.catalog)

    def chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks of these ids (an unknown one left out), from the generation's memory-mapped rows."""
        return self.views.chunks(self.catalog, ids)

    def moved(self) -> bool:
        """Whether the index has published a generation after the one this reader opened on."""
        return self.catalog.manifest.generation != self.generation

    def newer(self) -> Reader | None:
        """A reader of the newest generation over the same views, when the index has moved past this one's; else
        None (what this reader read was one generation)."""
        if not self.moved():
            return None
        log.info("generation %d replaced while an answer read it: answering from the newest", self.generation)
        return Reader(self.catalog, self.views)


def read_once(reader: Reader, answer: Callable[[Reader], T]) -> T:
    """`answer(reader)`, read again from the newest generation while a writer published another during the read
    (at most READS times): an answer never mixes two generations unless generations come faster than answers."""
    for _ in range(READS - 1):
        found = answer(reader)
        if (newer := reader.newer()) is None:
            return found
        reader = newer
    return answer(reader)


async def read_once_async(reader: Reader, answer: Callable[[Reader], Awaitable[T]]) -> T:
    """`read_once` for an answer read on the event loop (a search)."""
    for _ in range(READS - 1):
        found = await answer(reader)
        if (newer := reader.newer()) is None:
            return found
        reader = newer
    return await answer(reader)
