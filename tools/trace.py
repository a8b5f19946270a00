"""Bounded traversal from one entity: nodes, edges with their evidence, and the path to each node."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, Field
from trident.retrieval.entities import EntityRef, entity_refs, resolve_entity
from trident.retrieval.relation_index import GraphWalk
from trident.store.catalog import Catalog
from trident.store.directory import EntityDirectory
from trident.store.schema import RESOLUTION_HELP, Relation, Resolution
from trident.tools.calls import suggest_call

MAX_HOPS = 4
EDGES_PER_HOP = 2_000


class Direction(StrEnum):
    OUT = "out"
    IN = "in"
    BOTH = "both"


class Edge(BaseModel):
    source: str
    type: str
    target: str
    evidence: str | None = Field(None, description="Citation of the chunk that shows this relation")
    evidence_id: str | None = None
    resolution: Resolution = Field(Resolution.EXACT, description=RESOLUTION_HELP)


class TraceResult(BaseModel):
    root: EntityRef
    nodes: list[EntityRef]
    edges: list[Edge]
    paths: list[list[str]] = Field(description="For each node reached, the entity ids from the root to it")
    truncated: bool = False
    next_call: str | None = Field(None, description="When truncated, the call that gets the rest")
    hidden_guesses: int = Field(
        0,
        description="Call and base edges next to the nodes reached that min_resolution left out (bound less "
        "surely); 0 means the answer is all there is at that resolution",
    )
    message: str | None = None


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


def trace_relationships(
    catalog: Catalog,
    directory: EntityDirectory,
    entity: str,
    *,
    direction: Direction = Direction.BOTH,
    relation_types: Sequence[str] | None = None,
    max_hops: int = 2,
    limit: int = 50,
    relations: GraphWalk | None = None,
    min_resolution: Resolution = Resolution.INFERRED,
) -> TraceResult:
    """Breadth-first from `entity`, at most `max_hops` hops and `limit` edges, in a deterministic order.

    `relations` is where the walk reads the graph (the in-memory `RelationIndex` of a server); by default the
    graph store.

    Raises:
        ValueError: max_hops outside 1..4 or limit outside 1..500.
        EntityNotFoundError: the entity is unknown or ambiguous.
    """
    if not 1 <= max_hops <= MAX_HOPS:
        raise ValueError(f"max_hops must be between 1 and {MAX_HOPS}, got {max_hops}")
    if not 1 <= limit <= 500:
        raise ValueError(f"limit must be between 1 and 500, got {limit}")
    root = resolve_entity(directory, entity)
    graph = relations or catalog.graph
    types = set(relation_types) if relation_types else None
    paths: dict[str, list[str]] = {root.id: [root.id]}
    edges: list[Relation] = []
    seen_edges: set[tuple[str, str, str, str]] = set()
    frontier = {root.id}
    truncated = False
    hidden: set[tuple[str, str, str]] = set()
    for _ in range(max_hops):
        around = graph.neighbours(sorted(frontier), catalog.tenant, EDGES_PER_HOP)
        typed = [(node, r) for node, r in _step(around, frontier, direction) if types is None or r.type in types]
        steps = [(node, r) for node, r in typed if r.resolved_at_least(min_resolution)]
        hidden.update((r.source, r.type, r.target) for _, r in typed if not r.resolved_at_least(min_resolution))
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
    entities = {i: directory.by_id[i] for i in paths if i in directory.by_id}
    citations = graph.citations(sorted({r.evidence for r in edges if r.evidence}))
    root_ref, *nodes = entity_refs(graph, [root, *(entities[i] for i in paths if i in entities and i != root.id)])
    next_call = None
    if truncated:
        next_call = suggest_call(
            "trace_relationships",
            entity=root.id,
            direction=direction if direction is not Direction.BOTH else None,
            relation_types=sorted(types) if types else None,
            max_hops=max_hops,
            limit=min(limit * 2, 500),
            min_resolution=min_resolution if min_resolution is not Resolution.INFERRED else None,
        )
    return TraceResult(
        root=root_ref,
        nodes=nodes,
        edges=[
            Edge(
                source=r.source,
                type=r.type,
                target=r.target,
                evidence=citations.get(r.evidence) if r.evidence else None,
                evidence_id=r.evidence,
                resolution=r.resolution,
            )
            for r in edges
        ],
        paths=[path for node, path in paths.items() if node != root.id],
        truncated=truncated,
        next_call=next_call,
        hidden_guesses=len(hidden),
        message=_hidden_note(len(hidden), root.id, min_resolution),
    )


def _hidden_note(hidden: int, root: str, least: Resolution) -> str | None:
    """Say what min_resolution left out, so a short answer is not read as all there is."""
    if not hidden:
        return None
    weaker = "name" if least is Resolution.INFERRED else "inferred"
    return (
        f"{hidden} call or base edge(s) bound less surely than {least.value!r} are not shown; "
        f"trace_relationships(entity={root!r}, min_resolution={weaker!r}) shows them, each with its resolution"
    )
