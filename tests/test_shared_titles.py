"""Passages sharing a title (paragraphs of one article, as in MuSiQue-style corpora, issue #19): each defines an
entity of that name, so a walk from a passage naming the title reaches every paragraph, and removing one paragraph
leaves the others reachable."""

from __future__ import annotations

from pathlib import Path

from tests.wiki_graph import indexed_passages, write_passages
from trident.ingest.pipeline import index_beir
from trident.retrieval.path_names import PathName
from trident.retrieval.paths import PathQuery, QueryVectors, run_path
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder, SearchFilter

PASSAGES = [
    ("Green (album)", "Green is the second solo album by the guitarist Steve Hillage, released in 1978."),
    ("Steve Hillage", "Steve Hillage is an English guitarist, best known for his work with Gong."),
    ("Steve Hillage", "Hillage has lived with his partner Miquette Giraudy, a keyboard player, since the 1970s."),
    ("Gong", "Gong is a band formed in Paris in 1967 by Daevid Allen."),
]


def _walked(catalog: Catalog, embedder: Embedder, text: str) -> list[str]:
    views = GenerationViews(RetrievalSettings())
    query = PathQuery(catalog, text, SearchFilter(catalog.tenant, None), views, None, QueryVectors(embedder))
    hits = run_path(PathName.PPR, query).hits
    chunks = views.chunks(catalog, [hit.id for hit in hits])
    return [chunks[hit.id].path for hit in hits]


def test_every_paragraph_of_a_shared_title_is_an_entity_the_walk_reaches(tmp_path: Path, embedder: Embedder) -> None:
    catalog = indexed_passages(tmp_path, embedder, PASSAGES)
    try:
        hillage = sorted(e.id for e in catalog.entities() if e.name == "Steve Hillage")
        assert hillage == ["concept:wiki:Steve Hillage#1", "concept:wiki:Steve Hillage#2"]
        # The album's passage names the guitarist: the walk from the album reaches both of his paragraphs, the
        # partner's one (which names no one the question does) included, ahead of the band.
        walked = _walked(catalog, embedder, "Who is the partner of the guitarist of the album Green (album)?")
        assert walked[0] == "0" and {"1", "2"} <= set(walked[:3])
        # Removing one paragraph leaves the other's entity (before, the one entity belonged to the first passage).
        write_passages(tmp_path / "wiki", {n: p for n, p in enumerate(PASSAGES) if n != 1})
        with catalog.writer() as writer:
            index_beir(writer, tmp_path / "wiki", "wiki")
        assert [e.id for e in catalog.entities() if e.name == "Steve Hillage"] == ["concept:wiki:Steve Hillage#2"]
    finally:
        catalog.close()
