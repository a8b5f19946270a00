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

from trident.retrieval.described import Described
from trident.retrieval.pagerank import EntityChunkGraph
from trident.retrieval.title_match import TitleMatch
from trident.store.protocols import ScoredId
from trident.store.schema import SHARED_PROJECT, Entity

# The share of the walk's restart each source gets when present (renormalised over the sources present). Exact
# names are the sharpest clue; loose names and the top passages each add a share, so a query naming its entities
# exactly walks mostly from them and one naming none walks from the rest.
NAMED_SHARE = 1.0
LOOSE_SHARE = 0.5
PASSAGE_SHARE = 0.5
# Beside exact names, a loose match of the whole name (one typo, a dropped short word) counts as one more name,
# weighed by the rankings' evidence as any loose one is (see EVIDENCE_FLOOR): at a fifth of the loose share, a
# comparison that spelled one of its two titles wrong walked mostly from the other. Measured on the 2Wiki sets of
# `bench/perturbed_2wiki.py` (`auto`, R@2 / R@5): typo 0.680 / 0.917 -> 0.728 / 0.935, qualifier 0.609 / 0.861 ->
# 0.636 / 0.873, the unperturbed questions unchanged. A loose match of only a core or a last name only fills in,
# and the passages do not seed at all: a passage seeded directly takes a place in the ranking that belongs to the
# walk's second hop (the passage a named one leads to), and the fusion has the lexical and dense heads anyway. On
# the 2Wiki questions (all naming their entities exactly), seeding the heads at a fifth of the named share lost 24
# questions at R@5 and won 10.
BESIDE_NAMED = 0.2
PASSAGES_BESIDE_NAMED = 0.05
PASSAGES_PER_PATH = 5  # the head of each ranking that seeds the walk
# Loose names are often ambiguous ("Lothair" fits Lothair I, II and III; "Dark River" two films). Each entity weighs
# by how much of its name the text holds times the evidence the lexical and dense rankings give its defining passage:
# this floor plus the sum of 1/rank over the rankings that hold it (a loose name no path ranks keeps a fifth of the
# weight of one whose passage heads a ranking). Each name the text writes (a mention) counts once, at its best
# entity's weight, shared among its entities, so "Lauri" (one Guido Lauri) weighs as much as "Van Severen" (four).
EVIDENCE_FLOOR = 0.25
# A described passage only the lexical ranking of the words around the names holds (the dense one does not agree)
# is walked from at this weight beside a named entity's 1.0, and does not make the walk sure. Measured on the 2Wiki
# sets of `bench/perturbed_2wiki.py` (`auto`, R@2 / R@5, `described`): 0.2 gave 0.489 / 0.684, 0.3 0.488 / 0.685,
# 0.5 0.481 / 0.685, 1.0 0.476 / 0.684 (before the rest of a question naming nothing was read).
UNAGREED_WEIGHT = 0.3


@dataclass(frozen=True)
class WalkSeeds:
    """Everything a walk starts from. `named`: entities the text names exactly; `loose`: entities it names in part
    or with a typo, each with how much of the name it holds and which of its names it may be; `passages`: each
    path's ranking whose head seeds the walk; `nearby`: entities only near the text's meaning (walked from like
    loose names, never sure); `described`: passages the text describes beyond the names it writes (retrieval/
    described.py), walked from as named entities: fully where the lexical and dense rankings of its other words
    agree on one, at `UNAGREED_WEIGHT` where only the lexical one holds it."""

    named: Sequence[Entity] = ()
    loose: Mapping[str, TitleMatch] = field(default_factory=dict)
    passages: Sequence[Sequence[ScoredId]] = ()
    nearby: Sequence[Entity] = ()
    described: Sequence[Described] = ()
    head_projects: frozenset[str] = frozenset()  # the projects of the heads' passages (empty: not read)

    @property
    def confident(self) -> bool:
        """Whether the walk starts from entities the text surely means: named exactly, described by words the
        lexical and dense rankings agree on, or named loosely and defined by a passage at the head of the lexical or
        dense ranking (two sources agree). Only then may the walk lead a fused ranking. A name of one project does
        not make it sure when the heads (the question's other words) are all in other projects."""
        if any(self._in_head_projects(e) for e in self.named) or any(p.agreed for p in self.described):
            return True
        heads = {hit.id for ranking in self.passages for hit in ranking[:PASSAGES_PER_PATH]}
        return any(match.entity.chunk_id in heads for match in self.loose.values())

    def _in_head_projects(self, entity: Entity) -> bool:
        return not self.head_projects or entity.project in self.head_projects or entity.project == SHARED_PROJECT

    def entities(self) -> list[Entity]:
        """The entities the walk starts from: named ones, loose ones by how much of the name the text holds, then
        the nearby ones."""
        evidence = self._evidence()
        seeding = [m for m in self.loose.values() if self._seeds(m, evidence)]
        loose = [m.entity for m in sorted(seeding, key=lambda m: (-m.coverage, m.entity.id))]
        return list(dict.fromkeys([*self.named, *loose, *self.nearby]))

    @staticmethod
    def _seeds(match: TitleMatch, evidence: Mapping[str, float]) -> bool:
        """Whether a loose match seeds the walk: a partial one only where a path ranks its passage."""
        return not match.partial or evidence.get(match.entity.chunk_id or "", 0.0) > 0

    def _evidence(self) -> dict[str, float]:
        """Per chunk, the sum of 1/rank over the lexical and dense rankings that hold it."""
        found: dict[str, float] = {}
        for ranking in self.passages:
            for rank, hit in enumerate(ranking, start=1):
                found[hit.id] = found.get(hit.id, 0.0) + 1.0 / rank
        return found

    def _loose_weights(self, named: Mapping[str, float]) -> dict[str, float]:
        """Per loose entity (not named exactly), its weight: its coverage times its evidence, each mention's
        entities sharing the best of them."""
        evidence = self._evidence()
        by_mention: dict[str, dict[str, float]] = {}
        for entity_id, match in self.loose.items():
            if entity_id in named or not self._seeds(match, evidence):
                continue
            weight = match.coverage * (EVIDENCE_FLOOR + evidence.get(match.entity.chunk_id or "", 0.0))
            by_mention.setdefault(match.mention, {})[entity_id] = weight
        return {
            entity_id: max(weights.values()) * weight / sum(weights.values())
            for weights in by_mention.values()
            for entity_id, weight in weights.items()
        }

    def _described_weights(self) -> dict[str, float]:
        """Per described passage, its weight beside the named entities (1.0 each)."""
        weights: dict[str, float] = {}
        for passage in self.described:
            weight = 1.0 if passage.agreed else UNAGREED_WEIGHT
            weights[passage.chunk_id] = max(weights.get(passage.chunk_id, 0.0), weight)
        return weights

    def walk(self, graph: EntityChunkGraph, limit: int, damping: float) -> list[ScoredId]:
        """The chunks a walk from these seeds ranks highest, the seeded chunks the graph does not hold among them."""
        inside, outside = self._scaled(graph)
        return graph.rank_from(inside, limit, damping=damping, outside=outside)

    def restart(self, graph: EntityChunkGraph) -> dict[int, float]:
        """The walk's restart weight per graph node: each source's weights (rarer entities weigh more within it)
        scaled to sum to the source's share (with the chunks the graph does not hold: see `outside`)."""
        return self._scaled(graph)[0]

    def outside(self, graph: EntityChunkGraph) -> dict[str, float]:
        """The restart weight of each seeded chunk the graph does not hold (a head passage without a title, a code
        chunk that defines nothing), on the scale of `restart`: `EntityChunkGraph.rank_from` ranks them beside the
        walk's nodes."""
        return self._scaled(graph)[1]

    def _scaled(self, graph: EntityChunkGraph) -> tuple[dict[int, float], dict[str, float]]:
        """Every source's weights scaled to its share: on the graph's nodes, and on the chunks outside it."""
        nodes: dict[int, float] = {}
        chunks: dict[str, float] = {}
        for inside, outside, share in self._sources(graph):
            total = sum(inside.values()) + sum(outside.values())
            for position, weight in inside.items():
                nodes[position] = nodes.get(position, 0.0) + share * weight / total
            for chunk, weight in outside.items():
                chunks[chunk] = chunks.get(chunk, 0.0) + share * weight / total
        return nodes, chunks

    def _sources(self, graph: EntityChunkGraph) -> list[tuple[dict[int, float], dict[str, float], float]]:
        """Per source of seeds, its weights on the graph's nodes, those on chunks outside the graph, and its share."""
        named: dict[str, float] = {}
        for entity in self.named:
            named[entity.id] = named.get(entity.id, 0.0) + 1.0
        loose = self._loose_weights(named)
        if named:  # beside exact names, a loose one of the whole name counts as one of them (see BESIDE_NAMED)
            for entity_id in [i for i in loose if not self.loose[i].partial]:
                named[entity_id] = named.get(entity_id, 0.0) + loose.pop(entity_id)
        for entity in self.nearby:
            loose.setdefault(entity.id, 1.0)
        chunks: dict[str, float] = {}
        for ranking in self.passages:
            for rank, hit in enumerate(ranking[:PASSAGES_PER_PATH], start=1):
                chunks[hit.id] = chunks.get(hit.id, 0.0) + 1.0 / rank
        beside = BESIDE_NAMED if named else 1.0
        described = self._described_weights()
        sources = [
            (graph.restart_of(named, described), graph.outside_of(described), NAMED_SHARE),
            (graph.restart_of(loose, {}), {}, LOOSE_SHARE * beside),
            (
                graph.restart_of({}, chunks),
                graph.outside_of(chunks),
                PASSAGE_SHARE * (PASSAGES_BESIDE_NAMED if named else 1.0),
            ),
        ]
        return [(inside, outside, share) for inside, outside, share in sources if inside or outside]
