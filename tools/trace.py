"""The trace_relationships tool: a bounded walk from one entity, each edge with its evidence, and the path to each
node, a page at a time within a token budget; the walk itself is `trident.retrieval.walks`."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from trident.retrieval.entities import EntityRef, entity_refs, resolve_entity
from trident.retrieval.relation_index import GraphWalk
from trident.retrieval.walks import Direction, walk
from trident.store.catalog import Catalog
from trident.store.directory import EntityDirectory
from trident.store.schema import RESOLUTION_HELP, Relation, Resolution
from trident.store.tokens import json_tokens
from trident.tools.calls import RESPONSE_TOKENS, check_range, suggest_call

__all__ = ["MAX_EDGES", "MAX_HOPS", "MAX_OFFSET", "Direction", "Edge", "TraceResult", "trace_relationships"]

MAX_HOPS = 4
MAX_EDGES = 500
MAX_OFFSET = 5_000
MIN_MAX_TOKENS = 200  # the root and one edge
MAX_MAX_TOKENS = 100_000
ANSWER_OVERHEAD_TOKENS = 250  # the answer's other fields: flags, counts, next_call, the note on hidden guesses


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
    truncated: bool = Field(False, description="True when the limit or the token budget cut the edges short")
    next_call: str | None = Field(None, description="When truncated, the call that gets the next page of edges")
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
    offset: int = 0,
    max_tokens: int = RESPONSE_TOKENS,
) -> TraceResult:
    """Breadth-first from `entity`, at most `max_hops` hops, in a deterministic order: the edges after the first
    `offset`, at most `limit` of them and as many as fit in `max_tokens` (the nodes they reach and the paths to
    those come with them); when either cut the page short, `next_call` gets the next one.

    `relations` is where the walk reads the graph (the in-memory `RelationIndex` of a server); by default the
    graph store.

    Raises:
        ArgumentError: max_hops, limit, offset or max_tokens outside their ranges.
        EntityNotFoundError: the entity is unknown or ambiguous.
    """
    _check(max_hops, limit, offset, max_tokens)
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
        limit=offset + limit,
        least=min_resolution,
    )
    reached = [directory.by_id[i] for i in found.paths if i in directory.by_id and i != root.id]
    root_ref, *nodes = entity_refs(graph, [root, *reached])
    page = TracePage(root_ref, nodes, found.paths, _edges(graph, found.edges[offset:]))
    edges = page.fit(max_tokens)
    given = _given(root.id, direction, relation_types, max_hops, limit, min_resolution, offset, max_tokens)
    truncated = found.truncated or len(edges) < len(page.edges)
    return TraceResult(
        root=root_ref,
        nodes=page.nodes_of(edges),
        edges=edges,
        paths=page.paths_of(edges),
        truncated=truncated,
        next_call=_again(given, offset=offset + len(edges)) if truncated else None,
        hidden_guesses=found.hidden,
        message=_hidden_note(found.hidden, min_resolution, given),
    )


def _given(
    entity: str,
    direction: Direction,
    relation_types: Sequence[str] | None,
    max_hops: int,
    limit: int,
    min_resolution: Resolution,
    offset: int,
    max_tokens: int,
) -> dict[str, object]:
    """What a suggested call keeps: every argument as the caller gave it (the entity by its id, unambiguous; the
    defaults of offset and max_tokens left out), in the tool's order."""
    return {
        "entity": entity,
        "direction": direction,
        "relation_types": list(relation_types) if relation_types else None,
        "max_hops": max_hops,
        "limit": limit,
        "min_resolution": min_resolution,
        "offset": offset or None,
        "max_tokens": max_tokens if max_tokens != RESPONSE_TOKENS else None,
    }


def _check(max_hops: int, limit: int, offset: int, max_tokens: int) -> None:
    """Refuse an argument outside the tool's limits.

    Raises:
        ArgumentError: naming the argument, the value given and the range allowed.
    """
    check_range("max_hops", max_hops, 1, MAX_HOPS)
    check_range("limit", limit, 1, MAX_EDGES)
    check_range("offset", offset, 0, MAX_OFFSET)
    check_range("max_tokens", max_tokens, MIN_MAX_TOKENS, MAX_MAX_TOKENS)


class TracePage:
    """One page of a walk's edges, and the nodes and paths that go with the edges kept."""

    def __init__(self, root: EntityRef, nodes: Sequence[EntityRef], paths: dict[str, list[str]], edges: list[Edge]):
        self.root = root
        self.nodes = {node.id: node for node in nodes}  # in the order the walk reached them
        self.paths = paths
        self.edges = edges

    def _reached(self, edges: Sequence[Edge]) -> list[str]:
        touched = {end for e in edges for end in (e.source, e.target)}
        return [node for node in self.nodes if node in touched]

    def nodes_of(self, edges: Sequence[Edge]) -> list[EntityRef]:
        return [self.nodes[node] for node in self._reached(edges)]

    def paths_of(self, edges: Sequence[Edge]) -> list[list[str]]:
        return [self.paths[node] for node in self._reached(edges)]

    def fit(self, max_tokens: int) -> list[Edge]:
        """The page's first edges whose answer fits in `max_tokens` (at least one: a page always moves on)."""
        used = json_tokens(self.root) + ANSWER_OVERHEAD_TOKENS
        shown: set[str] = set()
        for n, edge in enumerate(self.edges):
            cost = json_tokens(edge, depth=2)
            for end in (edge.source, edge.target):
                if end in self.nodes and end not in shown:
                    shown.add(end)
                    cost += json_tokens(self.nodes[end], depth=2) + json_tokens(self.paths[end], depth=2)
            if n and used + cost > max_tokens:
                return self.edges[:n]
            used += cost
        return self.edges


def _again(given: dict[str, object], **changed: object) -> str:
    """The same trace with `changed` arguments, every other one as given."""
    return suggest_call("trace_relationships", **(given | changed))


def _edges(graph: GraphWalk, relations: Sequence[Relation]) -> list[Edge]:
    """The relations as edges, each with the citation of its evidence chunk (fetched in one call)."""
    citations = graph.citations(sorted({r.evidence for r in relations if r.evidence}))
    return [_edge(r, citations) for r in relations]


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
