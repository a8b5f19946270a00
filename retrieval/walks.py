"""A bounded breadth-first walk of the relations around one entity: which edges it takes, in which order, how far,
and what its filters and bounds kept it from taking."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from trident.retrieval.direction import Direction
from trident.retrieval.relation_index import GraphWalk
from trident.store.schema import Relation, Resolution

# Relations read around a hop's frontier at most: a hub with more is cut, not read whole.
EDGES_PER_HOP = 2_000

RelationKey = tuple[str, str, str]  # (source, type, target): a relation, whatever chunks show it


@dataclass(frozen=True)
class Walk:
    """What a walk reached: the path from the root to every node (the root's own path included), the edges in the
    order taken, whether `limit` cut it, and what it left out. Each count of left-out relations counts those that
    changing that one argument would walk: `hidden` (call or base edges `least` left out), `other_types` (per type,
    relations the types filter left out), `other_direction` (relations the direction left out), `beyond` (relations
    one hop past max_hops, when the walk had nodes left to expand), `rest` (edges of the last hop `limit` cut, more
    may lie beyond) and `hub_cut` (a hop's nodes had more than EDGES_PER_HOP relations; those past it were not read).
    """

    paths: dict[str, list[str]]
    edges: list[Relation]
    truncated: bool
    hidden: int
    other_types: dict[str, int] = field(default_factory=dict)
    other_direction: int = 0
    beyond: int = 0
    rest: int = 0
    hub_cut: bool = False


@dataclass
class _Filters:
    """The walk's filters, and the relations each left out so far."""

    direction: Direction
    types: set[str] | None
    least: Resolution
    guesses: set[RelationKey] = field(default_factory=set)
    other_types: dict[RelationKey, str] = field(default_factory=dict)
    other_direction: set[RelationKey] = field(default_factory=set)
    hub_cut: bool = False

    def around(self, graph: GraphWalk, tenant: str, frontier: set[str]) -> list[Relation]:
        """The relations touching the frontier, at most EDGES_PER_HOP (remembering whether there were more)."""
        found = graph.neighbours(sorted(frontier), tenant, EDGES_PER_HOP + 1)
        self.hub_cut = self.hub_cut or len(found) > EDGES_PER_HOP
        return found[:EDGES_PER_HOP]

    def steps(self, relations: Sequence[Relation], frontier: set[str]) -> list[tuple[str, Relation]]:
        """The (node reached, via relation) pairs the filters allow, noting the relations each filter left out."""
        allowed: list[tuple[str, Relation]] = []
        for node, r in _step(relations, frontier, self.direction):
            typed = self.types is None or r.type in self.types
            sure = r.resolved_at_least(self.least)
            if typed and sure:
                allowed.append((node, r))
            elif typed:
                self.guesses.add(_key(r))
            elif sure:
                self.other_types[_key(r)] = r.type
        if self.direction is not Direction.BOTH:
            against = Direction.IN if self.direction is Direction.OUT else Direction.OUT
            self.other_direction.update(_key(r) for _, r in self.walkable(_step(relations, frontier, against)))
        return allowed

    def walkable(self, steps: Sequence[tuple[str, Relation]]) -> list[tuple[str, Relation]]:
        return [
            (n, r) for n, r in steps if (self.types is None or r.type in self.types) and r.resolved_at_least(self.least)
        ]


def walk(
    graph: GraphWalk,
    tenant: str,
    root: str,
    *,
    direction: Direction,
    types: set[str] | None,
    max_hops: int,
    limit: int,
    least: Resolution,
) -> Walk:
    """Breadth-first from `root`, at most `max_hops` hops and `limit` edges, in a deterministic order; only
    relations of `types` (None: all), and calls and bases bound at least as surely as `least`."""
    filters = _Filters(direction, types, least)
    paths: dict[str, list[str]] = {root: [root]}
    edges: list[Relation] = []
    seen_edges: set[tuple[str, str, str, str]] = set()
    frontier, rest, beyond = {root}, 0, 0
    for hop in range(max_hops):
        # Within a type, bound edges before guesses: a limit cuts the guesses first.
        steps = sorted(filters.steps(filters.around(graph, tenant, frontier), frontier), key=_step_order)
        next_frontier: set[str] = set()
        for n, (node, r) in enumerate(steps):
            if _edge_key(r) in seen_edges:
                continue
            if len(edges) >= limit:
                rest = len({_edge_key(s) for _, s in steps[n:]} - seen_edges)
                break
            seen_edges.add(_edge_key(r))
            edges.append(r)
            if node not in paths:
                origin = r.source if node == r.target else r.target
                paths[node] = [*paths[origin], node]
                next_frontier.add(node)
        if rest or not next_frontier:
            break
        frontier = next_frontier
        if hop == max_hops - 1:
            beyond_steps = filters.walkable(_step(filters.around(graph, tenant, frontier), frontier, direction))
            beyond = len({_key(r) for _, r in beyond_steps} - {_key(r) for r in edges})
    return _walk(paths, edges, filters, rest, beyond)


def _walk(paths: dict[str, list[str]], edges: list[Relation], filters: _Filters, rest: int, beyond: int) -> Walk:
    walked = {_key(r) for r in edges}
    return Walk(
        paths=paths,
        edges=edges,
        truncated=rest > 0,
        hidden=len(filters.guesses),
        other_types=dict(Counter(filters.other_types.values())),
        other_direction=len(filters.other_direction - walked),
        beyond=beyond,
        rest=rest,
        hub_cut=filters.hub_cut,
    )


def _key(r: Relation) -> RelationKey:
    return (r.source, r.type, r.target)


def _edge_key(r: Relation) -> tuple[str, str, str, str]:
    return (r.source, r.type, r.target, r.evidence or "")


def _step(relations: Sequence[Relation], frontier: set[str], direction: Direction) -> list[tuple[str, Relation]]:
    """(node reached, via relation) pairs one hop from the frontier in the allowed direction."""
    steps: list[tuple[str, Relation]] = []
    for r in relations:
        if direction != Direction.IN and r.source in frontier:
            steps.append((r.target, r))
        if direction != Direction.OUT and r.target in frontier:
            steps.append((r.source, r))
    return steps


def _step_order(step: tuple[str, Relation]) -> tuple[str, int, str, str, str]:
    r = step[1]
    return (r.type, Resolution(r.resolution).rank, r.source, r.target, r.evidence or "")
