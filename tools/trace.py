"""The trace_relationships tool: a bounded walk from one entity, each edge with its evidence, and the path to each
node, a page at a time within a token budget; the walk itself is `trident.retrieval.walks`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial

from pydantic import BaseModel, Field

from trident.retrieval.call_chains import CALL_TYPES
from trident.retrieval.call_sites import call_sites
from trident.retrieval.definitions import ChunkReader
from trident.retrieval.direction import Direction
from trident.retrieval.entities import EntityRef, entity_refs, resolve_entity
from trident.retrieval.omitted import OMITTED_HELP, OmitReason, Omitted, breakdown, empty_message
from trident.retrieval.reader import Reader
from trident.retrieval.relation_index import GraphWalk
from trident.retrieval.walks import EDGES_PER_HOP, Walk, walk
from trident.retrieval.written_names import WrittenNames
from trident.store.names.directory import EntityDirectory
from trident.store.schema import RESOLUTION_HELP, Relation, Resolution
from trident.store.tokens import json_tokens
from trident.tools.bounds import (
    TRACE_MAX_EDGES,
    TRACE_MAX_HOPS,
    TRACE_MAX_MAX_TOKENS,
    TRACE_MAX_OFFSET,
    TRACE_MIN_MAX_TOKENS,
)
from trident.tools.calls import RESPONSE_TOKENS, check_range, suggest_call
from trident.tools.detail import Detail

__all__ = ["MAX_EDGES", "MAX_HOPS", "MAX_OFFSET", "Direction", "Edge", "TraceResult", "trace_relationships"]

MAX_HOPS = TRACE_MAX_HOPS
DEFAULT_HOPS = 2
# An entity with at least this many relations one hop away is a hub: unless max_hops is given, its trace stops at
# the first hop and counts the second (a hub's second hop is mostly edges of its neighbours, not about it).
HUB_EDGES = 20
MAX_EDGES = TRACE_MAX_EDGES
MAX_OFFSET = TRACE_MAX_OFFSET
MIN_MAX_TOKENS = TRACE_MIN_MAX_TOKENS
MAX_MAX_TOKENS = TRACE_MAX_MAX_TOKENS
ANSWER_OVERHEAD_TOKENS = 250  # the answer's other fields: flags, counts, next_call, a note, the page's own cuts


class Edge(BaseModel):
    source: str
    type: str
    target: str
    evidence: str | None = Field(None, description="Citation of the chunk that shows this relation")
    evidence_id: str | None = None
    resolution: Resolution = Field(Resolution.EXACT, description=RESOLUTION_HELP)


def _unset(value: object) -> bool:
    return value is None


class TraceResult(BaseModel):
    root: EntityRef
    nodes: list[EntityRef] | None = Field(None, exclude_if=_unset, description="The entities reached (full answers)")
    edges: list[Edge] | list[str] = Field(
        description="Full: one object an edge. Compact: one line an edge, `source` TYPE `target` (call site or "
        "evidence; resolution when not exact), entities by the names code imports them by"
    )
    paths: list[list[str]] | None = Field(
        None, exclude_if=_unset, description="Full answers: for each node reached, the entity ids from the root to it"
    )
    truncated: bool = Field(False, description="True when the limit or the token budget cut the edges short")
    next_call: str | None = Field(None, description="When truncated, the call that gets the next page of edges")
    hidden_guesses: int = Field(
        0,
        description="Call and base edges next to the nodes reached that min_resolution left out (bound less "
        "surely); 0 means the answer is all there is at that resolution",
    )
    omitted: list[Omitted] = Field(default_factory=list, description=OMITTED_HELP)
    message: str | None = Field(None, description="Why the answer is empty, or what min_resolution left out")


def trace_relationships(
    reader: Reader,
    entity: str,
    *,
    direction: Direction = Direction.BOTH,
    relation_types: Sequence[str] | None = None,
    max_hops: int | None = None,
    limit: int = 50,
    min_resolution: Resolution = Resolution.DISPATCH,
    offset: int = 0,
    max_tokens: int = RESPONSE_TOKENS,
    detail: Detail | str = Detail.FULL,
) -> TraceResult:
    """Breadth-first from `entity`, at most `max_hops` hops, in a deterministic order: the edges after the first
    `offset`, at most `limit` of them and as many as fit in `max_tokens` (the nodes they reach and the paths to
    those come with them); when either cut the page short, `next_call` gets the next one. Compact: an edge a line.

    The walk reads the reader's relations in memory; a compact answer reads the lines writing each call from its
    chunk rows.

    Raises:
        ArgumentError: max_hops, limit, offset, max_tokens or detail outside their ranges.
        EntityNotFoundError: the entity is unknown or ambiguous.
    """
    _check(max_hops if max_hops is not None else DEFAULT_HOPS, limit, offset, max_tokens)
    catalog, directory, graph = reader.catalog, reader.directory(), reader.relations()
    root = resolve_entity(directory, entity)
    types = set(relation_types) if relation_types else None
    around = partial(walk, graph, catalog.tenant, root.id, direction=direction, types=types, least=min_resolution)
    around = partial(around, limit=offset + limit)
    found, max_hops, hub = _hops(around, max_hops)
    reached = [directory.by_id[i] for i in found.paths if i in directory.by_id and i != root.id]
    root_ref, *nodes = entity_refs(graph, [root, *reached])
    page = TracePage(root_ref, nodes, found.paths, _edges(graph, found.edges[offset:]))
    chosen = Detail.parse(detail)
    given = _given(root.id, direction, relation_types, max_hops, limit, min_resolution, offset, max_tokens, chosen)
    edges, next_page, omitted = _fit(page, found, given, offset, max_tokens, hub)
    full = chosen is Detail.FULL
    return TraceResult(
        root=root_ref,
        nodes=page.nodes_of(edges) if full else None,
        edges=edges if full else compact_edges(edges, directory, reader.chunks),
        paths=page.paths_of(edges) if full else None,
        truncated=next_page is not None,
        next_call=next_page,
        hidden_guesses=found.hidden,
        omitted=omitted,
        message=_hidden_note(found.hidden, min_resolution, given)
        if edges
        else empty_message(f"no relations around {root.id}", omitted),
    )


def _hops(around: Callable[..., Walk], max_hops: int | None) -> tuple[Walk, int, bool]:
    """The walk `max_hops` deep; when not given, two hops, or one around a hub (HUB_EDGES or more relations one hop
    away), whose second hop the answer counts instead. Returns the walk, its depth and whether it stopped at a hub."""
    if max_hops is not None:
        return around(max_hops=max_hops), max_hops, False
    first = around(max_hops=1)
    if len(first.edges) >= HUB_EDGES:
        return first, 1, True
    return around(max_hops=DEFAULT_HOPS), DEFAULT_HOPS, False


def _fit(
    page: TracePage, found: Walk, given: dict[str, object], offset: int, max_tokens: int, hub: bool = False
) -> tuple[list[Edge], str | None, list[Omitted]]:
    """The page's edges that fit in `max_tokens` beside what the answer says it left out; the call for the next page
    when the limit or the budget cut the walk; and what was left out."""
    omitted = _omitted(found, given, hub)
    edges = page.fit(max_tokens - json_tokens(omitted, depth=2))
    if not found.truncated and len(edges) == len(page.edges):
        return edges, None, omitted
    # The page's own cuts are said too: their entries take their room from the edges.
    edges = page.fit(max_tokens - json_tokens([*omitted, *_cut(found, given, len(page.edges))], depth=2))
    next_page = _again(given, offset=offset + len(edges))
    return edges, next_page, omitted + _cut(found, given, len(page.edges) - len(edges))


def _given(
    entity: str,
    direction: Direction,
    relation_types: Sequence[str] | None,
    max_hops: int,
    limit: int,
    min_resolution: Resolution,
    offset: int,
    max_tokens: int,
    detail: Detail = Detail.FULL,
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
        "detail": detail if detail is not Detail.FULL else None,
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


def _omitted(found: Walk, given: dict[str, object], hub: bool = False) -> list[Omitted]:
    """What the walk's filters and bounds left out, each with the call that shows it (lifting a filter starts the
    walk over: no offset)."""
    again = {**given, "offset": None}
    omitted = _filtered(found, again)
    if found.beyond:
        hops = int(str(given["max_hops"]))
        why = (
            f"the entity has {len(found.edges)} relations one hop away (a hub), so the walk stopped there: "
            if hub
            else ""
        )
        omitted.append(
            Omitted(
                reason=OmitReason.MAX_HOPS,
                count=found.beyond,
                at_least=True,
                detail=f"{why}at least {found.beyond} relation(s) one hop further",
                next_call=_again(again, max_hops=hops + 1) if hops < MAX_HOPS else None,
            )
        )
    if found.hub_cut:
        omitted.append(
            Omitted(
                reason=OmitReason.EDGES_PER_HOP,
                count=1,
                at_least=True,
                detail=f"relations past the first {EDGES_PER_HOP:,} read around one hop's nodes (a hub); narrow "
                "relation_types or direction, or trace from a node nearer the ones you want",
            )
        )
    return omitted


def _cut(found: Walk, given: dict[str, object], unfit: int) -> list[Omitted]:
    """The edges limit and max_tokens left for the next page (the answer's next_call)."""
    omitted: list[Omitted] = []
    if found.truncated:
        detail = f"at least {found.rest} more edge(s) past limit={given['limit']}"
        omitted.append(Omitted(reason=OmitReason.LIMIT, count=found.rest, at_least=True, detail=detail))
    if unfit:
        detail = f"{unfit} edge(s) of this page past max_tokens"
        omitted.append(Omitted(reason=OmitReason.MAX_TOKENS, count=unfit, detail=detail))
    return omitted


def _filtered(found: Walk, again: dict[str, object]) -> list[Omitted]:
    """What relation_types, direction and min_resolution left out around the nodes the walk went on from."""
    omitted: list[Omitted] = []
    if found.other_types:
        count = sum(found.other_types.values())
        omitted.append(
            Omitted(
                reason=OmitReason.RELATION_TYPES,
                count=count,
                detail=f"{count} relation(s) of other types ({breakdown(found.other_types)})",
                next_call=_again(again, relation_types=None),
            )
        )
    if found.other_direction:
        against = "in" if again["direction"] is Direction.OUT else "out"
        omitted.append(
            Omitted(
                reason=OmitReason.DIRECTION,
                count=found.other_direction,
                detail=f"{found.other_direction} relation(s) pointing {against}",
                next_call=_again(again, direction=Direction.BOTH),
            )
        )
    if found.hidden:
        least = Resolution(str(again["min_resolution"]))
        omitted.append(
            Omitted(
                reason=OmitReason.MIN_RESOLUTION,
                count=found.hidden,
                detail=f"{found.hidden} call or base edge(s) bound less surely than {least.value!r}",
                next_call=_again(again, min_resolution=_weaker(least)),
            )
        )
    return omitted


def _weaker(least: Resolution) -> Resolution:
    """The next resolution less sure than `least` (name, the least sure, stays name)."""
    order = list(Resolution)
    return order[min(order.index(least) + 1, len(order) - 1)]


def _hidden_note(hidden: int, least: Resolution, given: dict[str, object]) -> str | None:
    """Say what min_resolution left out, so a short answer is not read as all there is."""
    if not hidden:
        return None
    return (
        f"{hidden} call or base edge(s) bound less surely than {least.value!r} are not shown; "
        f"{_again(given, min_resolution=_weaker(least))} shows them, each with its resolution"
    )


def compact_edges(edges: Sequence[Edge], directory: EntityDirectory, read: ChunkReader) -> list[str]:
    """Each edge as one line: its ends by import name (by id where an entity is not in the directory), its type, the
    lines writing a call (else its evidence) and its resolution when less sure than exact."""
    calls = [(e.evidence_id, e.target, e.source) for e in edges if e.evidence_id and e.type in CALL_TYPES]
    sites = call_sites(directory, read, calls)
    written = WrittenNames(directory)
    ends = sorted({end for e in edges for end in (e.source, e.target)})
    named = {i: written.import_name(directory.by_id[i]) if i in directory.by_id else i for i in ends}
    shared = Counter(named.values())
    # Two entities of the answer written alike (one package indexed twice, as two projects) are told by their ids.
    name = {i: n if shared[n] == 1 else i for i, n in named.items()}.__getitem__
    lines = []
    for e in edges:
        where = sites.get((e.evidence_id or "", e.target)) or e.evidence
        notes = [n for n in (where, "" if e.resolution is Resolution.EXACT else e.resolution.value) if n]
        lines.append(f"`{name(e.source)}` {e.type} `{name(e.target)}`" + (f" ({'; '.join(notes)})" if notes else ""))
    return lines
