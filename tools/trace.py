"""The trace_relationships tool: a bounded walk from one entity, each edge with its evidence, and the path to each
node; the walk itself is `trident.retrieval.walks`."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from trident.retrieval.entities import EntityRef, entity_refs, resolve_entity
from trident.retrieval.relation_index import GraphWalk
from trident.retrieval.walks import Direction, Walk, walk
from trident.store.catalog import Catalog
from trident.store.directory import EntityDirectory
from trident.store.schema import RESOLUTION_HELP, Relation, Resolution
from trident.tools.calls import check_range, suggest_call

__all__ = ["MAX_EDGES", "MAX_HOPS", "Direction", "Edge", "TraceResult", "trace_relationships"]

MAX_HOPS = 4
MAX_EDGES = 500


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
        ArgumentError: max_hops outside 1..MAX_HOPS or limit outside 1..MAX_EDGES.
        EntityNotFoundError: the entity is unknown or ambiguous.
    """
    check_range("max_hops", max_hops, 1, MAX_HOPS)
    check_range("limit", limit, 1, MAX_EDGES)
    root = resolve_entity(directory, entity)
    graph = relations or catalog.graph
    types = set(relation_types) if relation_types else None
    found = walk(
        graph,
        catalog.tenant,
        root.id,
        direction=direction,
        types=types,
        max_hops=max_hops,
        limit=limit,
        least=min_resolution,
    )
    reached = [directory.by_id[i] for i in found.paths if i in directory.by_id and i != root.id]
    root_ref, *nodes = entity_refs(graph, [root, *reached])
    # What a suggested call keeps: every argument as the caller gave it (the entity by its id, unambiguous).
    given: dict[str, object] = {
        "entity": root.id,
        "direction": direction,
        "relation_types": list(relation_types) if relation_types else None,
        "max_hops": max_hops,
        "limit": limit,
        "min_resolution": min_resolution,
    }
    return TraceResult(
        root=root_ref,
        nodes=nodes,
        edges=_edges(graph, found),
        paths=[path for node, path in found.paths.items() if node != root.id],
        truncated=found.truncated,
        next_call=_again(given, limit=min(limit * 2, MAX_EDGES)) if found.truncated else None,
        hidden_guesses=found.hidden,
        message=_hidden_note(found.hidden, min_resolution, given),
    )


def _again(given: dict[str, object], **changed: object) -> str:
    """The same trace with `changed` arguments, every other one as given."""
    return suggest_call("trace_relationships", **(given | changed))


def _edges(graph: GraphWalk, found: Walk) -> list[Edge]:
    """The walk's edges, each with the citation of its evidence chunk (fetched in one call)."""
    citations = graph.citations(sorted({r.evidence for r in found.edges if r.evidence}))
    return [_edge(r, citations) for r in found.edges]


def _edge(r: Relation, citations: dict[str, str]) -> Edge:
    return Edge(
        source=r.source,
        type=r.type,
        target=r.target,
        evidence=citations.get(r.evidence) if r.evidence else None,
        evidence_id=r.evidence,
        resolution=r.resolution,
    )


def _hidden_note(hidden: int, least: Resolution, given: dict[str, object]) -> str | None:
    """Say what min_resolution left out, so a short answer is not read as all there is."""
    if not hidden:
        return None
    weaker = Resolution.NAME if least is Resolution.INFERRED else Resolution.INFERRED
    return (
        f"{hidden} call or base edge(s) bound less surely than {least.value!r} are not shown; "
        f"{_again(given, min_resolution=weaker)} shows them, each with its resolution"
    )
