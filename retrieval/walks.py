"""A bounded breadth-first walk of the relations around one entity: which edges it takes, in which order, how far."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from trident.retrieval.relation_index import GraphWalk
from trident.store.schema import Relation, Resolution

# Relations read around a hop's frontier at most: a hub with more is cut, not read whole.
EDGES_PER_HOP = 2_000


class Direction(StrEnum):
    """Which way a walk follows relations: from the entity (out), into it (in), or both."""

    OUT = "out"
    IN = "in"
    BOTH = "both"


@dataclass(frozen=True)
class Walk:
    """What a walk reached: the path from the root to every node (the root's own path included), the edges in the
    order taken, whether `limit` cut it, and how many call or base edges `least` left out."""

    paths: dict[str, list[str]]
    edges: list[Relation]
    truncated: bool
    hidden: int


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
    paths: dict[str, list[str]] = {root: [root]}
    edges: list[Relation] = []
    seen_edges: set[tuple[str, str, str, str]] = set()
    hidden: set[tuple[str, str, str]] = set()
    frontier = {root}
    truncated = False
    for _ in range(max_hops):
        around = graph.neighbours(sorted(frontier), tenant, EDGES_PER_HOP)
        typed = [(node, r) for node, r in _step(around, frontier, direction) if types is None or r.type in types]
        steps = [(node, r) for node, r in typed if r.resolved_at_least(least)]
        hidden.update((r.source, r.type, r.target) for _, r in typed if not r.resolved_at_least(least))
        next_frontier: set[str] = set()
        # Within a type, bound edges before guesses: a limit cuts the guesses first.
        for node, r in sorted(steps, key=_step_order):
            key = (r.source, r.type, r.target, r.evidence or "")
            if key in seen_edges:
                continue
            if len(edges) >= limit:
                truncated = True
                break
            seen_edges.add(key)
            edges.append(r)
            if node not in paths:
                origin = r.source if node == r.target else r.target
                paths[node] = [*paths[origin], node]
                next_frontier.add(node)
        if truncated or not next_frontier:
            break
        frontier = next_frontier
    return Walk(paths=paths, edges=edges, truncated=truncated, hidden=len(hidden))


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
