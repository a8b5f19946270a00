"""Where the graph walk starts: the entities a query names exactly, those it names loosely (part of a title, a typo,
or only near its meaning), and the passages the lexical and dense paths rank highest, blended into one restart
distribution, each source weighted by how sure it is.

A walk from exact names alone collapses when a question writes a name the way people do ("De Filippo", "Lothair",
"Lothiar II") or describes an entity instead of naming it: the seeds are wrong or empty and the walk ranks noise.
The passages BM25 and the dense path rank highest hold the entities such a question means; starting a share of the
walk from them (as HippoRAG 2 does with its passage nodes) lets the walk reach the second hop from there, and the
seed set is never empty while either path finds anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from trident.retrieval.pagerank import EntityChunkGraph
from trident.store.protocols import ScoredId
from trident.store.schema import Entity

# The share of the walk's restart each source gets when present (renormalised over the sources present). Exact
# names are the sharpest clue; loose names and the top passages each add a share, so a query naming its entities
# exactly walks mostly from them and one naming none walks from the rest.
NAMED_SHARE = 1.0
LOOSE_SHARE = 0.5
PASSAGE_SHARE = 0.5
# Beside exact names, loose names only fill in (the other name of a comparison, written loosely), and the passages
# do not seed at all: a passage seeded directly takes a place in the ranking that belongs to the walk's second hop
# (the passage a named one leads to), and the fusion has the lexical and dense heads anyway. On the 2Wiki questions
# (all naming their entities exactly), seeding the heads at a fifth of the named share lost 24 questions at R@5
# and won 10.
BESIDE_NAMED = 0.2
PASSAGES_BESIDE_NAMED = 0.05
PASSAGES_PER_PATH = 5  # the head of each ranking that seeds the walk


@dataclass(frozen=True)
class WalkSeeds:
    """Everything a walk starts from. `named`: entities the text names exactly; `loose`: entities it names in part
    or with a typo, each with how much of the name it holds (0-1); `passages`: each path's ranking whose head seeds
    the walk; `nearby`: entities only near the text's meaning (walked from like loose names, never sure)."""

    named: Sequence[Entity] = ()
    loose: Mapping[str, tuple[Entity, float]] = field(default_factory=dict)
    passages: Sequence[Sequence[ScoredId]] = ()
    nearby: Sequence[Entity] = ()

    @property
    def confident(self) -> bool:
        """Whether the walk starts from entities the text surely means: named exactly, or named loosely and
        defined by a passage at the head of the lexical or dense ranking (two sources agree). Only then may the
        walk lead a fused ranking."""
        if self.named:
            return True
        heads = {hit.id for ranking in self.passages for hit in ranking[:PASSAGES_PER_PATH]}
        return any(entity.chunk_id in heads for entity, _ in self.loose.values())

    def entities(self) -> list[Entity]:
        """The entities the walk starts from: named ones, loose ones by how much of the name the text holds, then
        the nearby ones."""
        loose = [e for e, _ in sorted(self.loose.values(), key=lambda pair: (-pair[1], pair[0].id))]
        return list(dict.fromkeys([*self.named, *loose, *self.nearby]))

    def restart(self, graph: EntityChunkGraph) -> dict[int, float]:
        """The walk's restart weight per graph node: each source's weights (rarer entities weigh more within it)
        scaled to sum to the source's share."""
        named: dict[str, float] = {}
        for entity in self.named:
            named[entity.id] = named.get(entity.id, 0.0) + 1.0
        loose = {entity_id: sure for entity_id, (_, sure) in self.loose.items() if entity_id not in named}
        for entity in self.nearby:
            loose.setdefault(entity.id, 1.0)
        chunks: dict[str, float] = {}
        for ranking in self.passages:
            for rank, hit in enumerate(ranking[:PASSAGES_PER_PATH], start=1):
                chunks[hit.id] = chunks.get(hit.id, 0.0) + 1.0 / rank
        beside = BESIDE_NAMED if named else 1.0
        sources = (
            (graph.restart_of(named, {}), NAMED_SHARE),
            (graph.restart_of(loose, {}), LOOSE_SHARE * beside),
            (graph.restart_of({}, chunks), PASSAGE_SHARE * (PASSAGES_BESIDE_NAMED if named else 1.0)),
        )
        out: dict[int, float] = {}
        for weights, share in sources:
            total = sum(weights.values())
            for position, weight in weights.items():
                out[position] = out.get(position, 0.0) + share * weight / total
        return out
