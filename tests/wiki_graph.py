"""Small hand-built passage graphs (titles as entities, as a BEIR corpus gives) for the walk's tests."""

from __future__ import annotations

from trident.retrieval.pagerank import EntityChunkGraph
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
