"""Small hand-built passage graphs (titles as entities, as a BEIR corpus gives) for the walk's tests."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from trident.ingest.pipeline import index_beir
from trident.retrieval.pagerank import EntityChunkGraph
from trident.retrieval.paths import PathQuery, QueryVectors
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder, SearchFilter
from trident.store.schema import Entity, EntityType, Relation


def concept(name: str) -> Entity:
    """A titled passage's entity, defined by the chunk `c-<name>` (as a BEIR passage title is)."""
    return Entity(id=f"concept:wiki:{name}", name=name, type=EntityType.CONCEPT, project="wiki", chunk_id=f"c-{name}")


def mentions(source: str, target: str) -> Relation:
    """`source`'s passage names `target`."""
    return Relation(
        source=f"concept:wiki:{source}",
        type="MENTIONS",
        target=f"concept:wiki:{target}",
        evidence=f"c-{source}",
        project="wiki",
    )


def song_graph() -> EntityChunkGraph:
    """ "Who performed the song Changed It, and where was she born?": the song's passage names the singer; an album
    passage and a chart passage merely mention the song; the singer's passage is two hops from the question."""
    names = ["Changed It", "Nicki Minaj", "Queen album", "Chart 2014", "Trinidad", "Lil Wayne"]
    relations = [
        mentions("Changed It", "Nicki Minaj"),
        mentions("Changed It", "Lil Wayne"),
        mentions("Queen album", "Changed It"),
        mentions("Queen album", "Nicki Minaj"),
        mentions("Chart 2014", "Changed It"),
        mentions("Nicki Minaj", "Trinidad"),
    ]
    return EntityChunkGraph.build([concept(n) for n in names], relations)


def write_passages(folder: Path, passages: Mapping[int, tuple[str, str]]) -> None:
    """A BEIR corpus of (title, text) passages by id."""
    folder.mkdir(exist_ok=True)
    lines = [json.dumps({"_id": str(n), "title": title, "text": text}) for n, (title, text) in passages.items()]
    (folder / "corpus.jsonl").write_text("\n".join(lines) + "\n")


def indexed_passages(tmp_path: Path, embedder: Embedder, passages: list[tuple[str, str]]) -> Catalog:
    """An index of the passages (ids 0, 1, ...) as the project `wiki`, in `tmp_path`; the caller closes it."""
    write_passages(tmp_path / "wiki", dict(enumerate(passages)))
    catalog = Catalog(tmp_path / "index", "default", embedder)
    with catalog.writer() as writer:
        index_beir(writer, tmp_path / "wiki", "wiki")
    return catalog


def question(
    catalog: Catalog, views: GenerationViews, embedder: Embedder, text: str, *, seed_by_vectors: bool = False
) -> PathQuery:
    """A path's input for `text` over the whole tenant of a test index."""
    where = SearchFilter(catalog.tenant, None)
    return PathQuery(catalog, text, where, views, None, QueryVectors(embedder), seed_by_vectors=seed_by_vectors)


def title_of(catalog: Catalog, views: GenerationViews, chunk_id: str) -> str:
    """The title of a chunk of a test index."""
    return views.chunks(catalog, [chunk_id])[chunk_id].title
