"""Personalized PageRank over entities and chunks (HippoRAG-style), the graph path for multi-hop questions.

The walk starts at the entities a query names and spreads over one graph of entity and chunk nodes: an entity
leads strongly to the chunk that defines it and weakly to the chunks that merely mention it, and chunks lead to
the entities they define and reference. A passage two hops away (the one defining the entity that the seed's
passage names) collects more mass than a passage that only mentions the seed in passing. No LLM builds this
graph: its edges are the index's parsed relations and exact name mentions.
"""

from __future__ import annotations

import logging
import math
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from scipy import sparse

from trident.store.protocols import ScoredId
from trident.store.schema import Entity, EntityType, Relation

log = logging.getLogger(__name__)

# The chunk defining an entity is what the entity is, both ways.
DEFINES_WEIGHT = 1.0
# Relation edges run from the evidence chunk to the target (forward) and back (backward). Forward: a passage leads
# to what it names or calls. Backward: an entity leads only weakly to the chunks that merely mention it, more to
# its callers and subclasses ("what calls X" walks that way).
RELATION_WEIGHTS: Mapping[str, tuple[float, float]] = {
    "CALLS": (0.7, 0.3),
    "REFERENCES": (0.7, 0.3),
    "INHERITS": (0.7, 0.3),
    "DEPENDS_ON": (0.7, 0.3),
    "IMPORTS": (0.4, 0.1),
    "LINKS_TO": (0.5, 0.1),
    "RELATED_TO": (0.5, 0.2),
    "CONTAINS": (0.3, 0.3),
    "DEFINES": (0.3, 0.3),
    "MENTIONS": (0.5, 0.05),
    "TAGGED": (0.2, 0.02),
    "INSTANCE_OF": (0.3, 0.3),
}
DEFAULT_RELATION_WEIGHTS = (0.4, 0.1)
# Projects are hubs joined to everything they hold: a walk through one says nothing about the query.
# (source, type, target, evidence chunk or "", weight)
Edge = tuple[str, str, str, str, float]
HUB_TYPES = frozenset({EntityType.PROJECT.value})
DEFAULT_DAMPING = 0.85  # probability of continuing the walk; 1 - damping returns to the seeds
# The walk is computed by pushing residual mass (Andersen, Chung and Lang's push, one vectorised round at a time):
# a node pushes once its residual exceeds this share of the total, so the work stays near the seeds instead of
# sweeping the whole graph fifty times; what is left unpushed bounds each score's error. At 1e-6 a walk over the
# 100K-chunk bench index pushed along about 1.5M edges in some 55 rounds (24 ms p50); at 1e-5 it took 9.6 ms with
# the same top 10 for all 54 bench queries, and the same 2Wiki, SciFact and CoSQA figures to the fourth decimal. At
# 1e-4 a walk takes 1.9 ms at 100K instead of 3.7 (0.74 at 10K instead of 1.04) with the same top 10 for 22 of the
# 24 bench walks at 100K and all 24 at 10K; 2Wiki `auto` R@5 0.9815 against 0.982, SciFact and CoSQA unchanged.
PUSH_THRESHOLD = 1e-4
MAX_ROUNDS = 200
# A round pushing from fewer nodes, along fewer edges, than this runs in plain Python (nearly every round does: a
# walk pushes from about five nodes a round), where numpy's cost per call was most of the walk (2.2 ms of a 10K-chunk
# index's walk of about 60 rounds, 0.8 ms now); the arithmetic is the same, in the same order, so the scores are the
# same to the last bit. Larger rounds (from a hub) run on the arrays.
PLAIN_ROUND = 32


@dataclass(frozen=True)
class Columns:
    """The transition's CSC arrays as Python arrays (column j's edges are starts[j]:starts[j + 1]), and which nodes
    have no out-edges."""

    starts: array[int]
    targets: array[int]
    weights: array[float]
    dangling: frozenset[int]


@dataclass
class EntityChunkGraph:
    """The entity-and-chunk graph of one index generation as a column-stochastic sparse matrix."""

    nodes: list[str]
    index: dict[str, int]
    chunk_nodes: np.ndarray  # indices of chunk nodes
    transition: sparse.csc_matrix  # column j: where a walker at node j goes next
    dangling: np.ndarray  # nodes without out-edges; their mass returns to the seeds
    links: np.ndarray = field(repr=False)  # how many relations touch each node (for seed specificity)

    @classmethod
    def build(cls, entities: Sequence[Entity], relations: Sequence[Relation]) -> EntityChunkGraph:
        """Directed weighted edges: entity <-> its defining chunk, evidence chunk <-> relation target (or source <->
        target when a relation has no evidence)."""
        edges = ((r.source, str(r.type), r.target, r.evidence or "", r.weight) for r in relations)
        return cls.from_edges(entities, edges)

    @classmethod
    def from_edges(
        cls, entities: Sequence[Entity], edges: Iterable[tuple[str, str, str, str, float]]
    ) -> EntityChunkGraph:
        """As `build`, from (source, type, target, evidence, weight) tuples (what `RelationIndex.edges` gives)."""
        kept = {e.id: e for e in entities if e.type not in HUB_TYPES}
        nodes: list[str] = []
        index: dict[str, int] = {}
        chunk_ids: list[int] = []

        def node(name: str, is_chunk: bool) -> int:
            position = index.get(name)
            if position is None:
                position = index[name] = len(nodes)
                nodes.append(name)
                if is_chunk:
                    chunk_ids.append(position)
            return position

        rows: list[int] = []
        cols: list[int] = []
        weights: list[float] = []

        def edge(a: int, b: int, forward: float, backward: float) -> None:
            if a != b:
                rows.extend((a, b))
                cols.extend((b, a))
                weights.extend((forward, backward))

        for entity in sorted(kept.values(), key=lambda e: e.id):
            here = node(f"e:{entity.id}", False)
            if entity.chunk_id:
                edge(here, node(f"c:{entity.chunk_id}", True), DEFINES_WEIGHT, DEFINES_WEIGHT)
        links = [0] * len(nodes)
        for source, type_, target_id, evidence, weight in edges:
            if source not in kept or target_id not in kept:
                continue
            forward, backward = RELATION_WEIGHTS.get(type_, DEFAULT_RELATION_WEIGHTS)
            target = index[f"e:{target_id}"]
            origin = node(f"c:{evidence}", True) if evidence else index[f"e:{source}"]
            edge(origin, target, forward * weight, backward * weight)
            links.extend([0] * (len(nodes) - len(links)))
            links[target] += 1
        size = len(nodes)
        # adjacency[a, b]: weight of the step a -> b; each row is normalised into a node's next-step distribution.
        adjacency = sparse.coo_matrix((weights, (rows, cols)), shape=(size, size)).tocsr()
        adjacency.sum_duplicates()
        out_weight = np.asarray(adjacency.sum(axis=1)).ravel()
        inverse = np.divide(1.0, out_weight, out=np.zeros_like(out_weight), where=out_weight > 0)
        transition = (sparse.diags(inverse) @ adjacency).T.tocsc()  # column-stochastic: mass_next = T @ mass
        return cls(
            nodes=nodes,
            index=index,
            chunk_nodes=np.array(sorted(chunk_ids), dtype=np.int64),
            transition=transition,
            dangling=out_weight == 0,
            links=np.array(links + [0] * (size - len(links)), dtype=np.float64),
        )

    def seed_weights(self, seeds: Sequence[Entity]) -> dict[int, float]:
        """Rare entities weigh more (HippoRAG's node specificity): a name few chunks refer to is a sharper clue."""
        counts: dict[str, float] = {}
        for entity in seeds:
            counts[entity.id] = counts.get(entity.id, 0.0) + 1.0
        return self.restart_of(counts, {})

    def _spread(self, residual: np.ndarray, active: np.ndarray, pushed: np.ndarray) -> None:
        """residual += transition[:, active] @ pushed, reading the active columns straight from the CSC arrays (a
        walk touches a few nodes a round: slicing the matrix each round cost ten times the arithmetic)."""
        starts = self.transition.indptr[active]
        counts = self.transition.indptr[active + 1] - starts
        total = int(counts.sum())
        if not total:
            return
        # Position of each nonzero of the active columns: its column's start plus its offset within the column.
        offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        entries = np.repeat(starts, counts) + offsets
        np.add.at(residual, self.transition.indices[entries], self.transition.data[entries] * np.repeat(pushed, counts))

    @cached_property
    def is_chunk(self) -> np.ndarray:
        """Whether each node is a chunk (a boolean per node)."""
        flags = np.zeros(len(self.nodes), dtype=bool)
        flags[self.chunk_nodes] = True
        return flags

    @cached_property
    def columns(self) -> Columns:
        """The transition's columns as Python arrays (a machine number each, not an object: at 100K chunks 3 MB
        instead of 20), for the walk's rounds that push along a few edges."""
        return Columns(
            array("q", self.transition.indptr.astype(np.int64).tobytes()),
            array("q", self.transition.indices.astype(np.int64).tobytes()),
            array("d", self.transition.data.astype(np.float64).tobytes()),
            frozenset(np.flatnonzero(self.dangling).tolist()),
        )

    def rank(
        self,
        seeds: Sequence[Entity],
        limit: int,
        *,
        damping: float = DEFAULT_DAMPING,
    ) -> list[ScoredId]:
        """Chunks by the stationary mass of a walk that restarts at the seeds; empty without a known seed."""
        return self.rank_from(self.seed_weights(seeds), limit, damping=damping)

    def restart_of(self, entities: Mapping[str, float], chunks: Mapping[str, float]) -> dict[int, float]:
        """Restart weights by node: each entity's weight times its specificity (see `seed_weights`), each chunk's
        as given; ids the graph does not hold are left out."""
        out: dict[int, float] = {}
        for entity_id, weight in entities.items():
            position = self.index.get(f"e:{entity_id}")
            if position is not None and weight > 0.0:
                out[position] = out.get(position, 0.0) + weight / math.log(math.e + self.links[position])
        for chunk_id, weight in chunks.items():
            position = self.index.get(f"c:{chunk_id}")
            if position is not None and weight > 0.0:
                out[position] = out.get(position, 0.0) + weight
        return out

    def outside_of(self, chunks: Mapping[str, float]) -> dict[str, float]:
        """The weighted chunks the graph does not hold (no edge leads to them), as given."""
        return {chunk: weight for chunk, weight in chunks.items() if weight > 0.0 and f"c:{chunk}" not in self.index}

    def rank_from(
        self,
        weights: Mapping[int, float],
        limit: int,
        *,
        damping: float = DEFAULT_DAMPING,
        outside: Mapping[str, float] | None = None,
    ) -> list[ScoredId]:
        """Chunks by the stationary mass of a walk that restarts at the weighted nodes; empty without one.

        `outside`: restart weights of chunks the graph does not hold (a passage without a title, a code chunk that
        defines and names nothing: no edge leads in or out). They rank as the walk ranks a node without edges, whose
        walkers only return to the restart: such a chunk keeps its share of the restart, the graph's nodes keep
        their walk's order. Without them, a walk over a corpus the graph barely covers ranked nothing at all."""
        if not 0.0 < damping < 1.0:
            raise ValueError(f"damping must be between 0 and 1 (exclusive), got {damping}")
        isolated = self.outside_of(outside or {})
        walk = self._walk(weights, damping) if weights else None
        if not isolated:
            return self._top(walk, limit) if walk is not None else []
        # Restart r over the graph's nodes and the isolated ones: the stationary mass is c * r_o on an isolated node
        # and c * |r_g| * p' / ((1 - d) + d * D') on the graph's, p' being the walk over the graph alone and D' its
        # mass on nodes without out-edges; c, common to all, is left out.
        total = sum(weights.values()) + sum(isolated.values())
        scored = [ScoredId(chunk, weight / total) for chunk, weight in isolated.items()]
        if walk is not None:
            returning = (1.0 - damping) + damping * float(walk.mass[self.dangling].sum())
            scale = sum(weights.values()) / total / returning
            scored += [ScoredId(hit.id, hit.score * scale) for hit in self._top(walk, limit)]
        return sorted(scored, key=lambda hit: (-hit.score, hit.id))[:limit]

    def _walk(self, weights: Mapping[int, float], damping: float) -> Walk:
        restart = np.zeros(len(self.nodes))
        for position, weight in weights.items():
            restart[position] = weight
        restart /= restart.sum()
        walk = Walk(self, restart, damping)
        for _ in range(MAX_ROUNDS):
            if not walk.round():
                break
        else:
            left = float(walk.residual.sum())
            log.warning("the walk stopped after %d push rounds with %.2g of its mass unspread", MAX_ROUNDS, left)
        return walk

    def _top(self, walk: Walk, limit: int) -> list[ScoredId]:
        """The walk's `limit` heaviest chunks."""
        mass = walk.mass
        nodes = np.fromiter(walk.visited, dtype=np.int64, count=len(walk.visited))
        nodes = nodes[self.is_chunk[nodes] & (mass[nodes] > 0.0)]
        if len(nodes) > limit:  # only the top `limit` are sorted: every node at least as heavy as the limit-th
            values = mass[nodes]
            nodes = nodes[values >= np.partition(values, len(values) - limit)[len(values) - limit]]
        # Heaviest first; ties by build order, which follows sorted ids.
        top = nodes[np.lexsort((nodes, -mass[nodes]))[:limit]].tolist()
        return [ScoredId(self.nodes[node][2:], mass.item(node)) for node in top]


class Walk:
    """One walk's push rounds: each round, every node whose residual exceeds PUSH_THRESHOLD keeps (1 - damping) of
    it as mass and passes the rest along its out-edges (a node without any returns it to the restart). After a
    round in plain Python only the nodes it touched can exceed the threshold, so the next looks at those alone."""

    def __init__(self, graph: EntityChunkGraph, restart: np.ndarray, damping: float) -> None:
        self.graph = graph
        self.restart = restart
        self.damping = damping
        self.residual = restart.copy()
        self.mass = np.zeros_like(restart)
        self.seeds: list[int] = np.flatnonzero(restart).tolist()
        # Every node whose residual may exceed the threshold; None: any node may (the next round scans them all).
        self.candidates: set[int] | None = set(self.seeds)
        self.visited: set[int] = set()  # every node that has pushed (the nodes with mass)

    def round(self) -> bool:
        """One round; False when no node had anything left to push."""
        active = self._active()
        if not active:
            return False
        self.visited.update(active)
        starts = self.graph.columns.starts
        touched: set[int] | None = None
        if len(active) < PLAIN_ROUND and sum(starts[node + 1] - starts[node] for node in active) < PLAIN_ROUND:
            touched, lost = self._push_plain(active)
        else:
            lost = self._push_arrays(np.array(active, dtype=np.int64))
        if lost:
            self.residual += self.damping * lost * self.restart
            if touched is not None:
                touched.update(self.seeds)
        self.candidates = touched
        return True

    def _active(self) -> list[int]:
        """The nodes whose residual exceeds the threshold, in node order (the order the arrays' rounds add in)."""
        if self.candidates is None or len(self.candidates) >= PLAIN_ROUND:
            return np.flatnonzero(self.residual > PUSH_THRESHOLD).tolist()
        residual = self.residual
        return sorted(node for node in self.candidates if residual.item(node) > PUSH_THRESHOLD)

    def _push_arrays(self, active: np.ndarray) -> float:
        """The round on the arrays; what the dangling nodes among `active` had (it returns to the restart)."""
        residual = self.residual
        pushed = residual[active]
        residual[active] = 0.0
        self.mass[active] += (1.0 - self.damping) * pushed
        self.graph._spread(residual, active, self.damping * pushed)
        return float(pushed[self.graph.dangling[active]].sum())

    def _push_plain(self, active: list[int]) -> tuple[set[int], float]:
        """As `_push_arrays`, one float at a time (the same operations in the same order), and the nodes touched."""
        residual, mass, columns = self.residual, self.mass, self.graph.columns
        pushed = [residual.item(node) for node in active]
        keep = 1.0 - self.damping
        for node, amount in zip(active, pushed, strict=True):
            residual[node] = 0.0
            mass[node] = mass.item(node) + keep * amount
        touched: set[int] = set()
        for node, amount in zip(active, pushed, strict=True):
            share = self.damping * amount
            for edge in range(columns.starts[node], columns.starts[node + 1]):
                target = columns.targets[edge]
                residual[target] = residual.item(target) + columns.weights[edge] * share
                touched.add(target)
        lost = [amount for node, amount in zip(active, pushed, strict=True) if node in columns.dangling]
        # numpy's sum, as the arrays' round takes it (it adds pairwise past seven terms)
        return touched, float(np.array(lost).sum()) if lost else 0.0
