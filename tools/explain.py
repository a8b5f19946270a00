"""Paths between two entities, each hop with its evidence and the whole path as one sentence a person can check."""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Sequence

from pydantic import BaseModel, Field
from trident.retrieval.entities import EntityRef, entity_refs, resolve_entity
from trident.retrieval.relation_index import GraphWalk
from trident.store.catalog import Catalog
from trident.store.code_paths import is_test_path
from trident.store.directory import EntityDirectory
from trident.store.schema import RESOLUTION_HELP, Entity, Relation, Resolution

EDGES_PER_HOP = 2_000
MAX_HOPS = 6

# How each relation reads forwards and backwards, so a path can be told in the order it is walked.
PHRASES: dict[str, tuple[str, str]] = {
    "CALLS": ("calls", "is called by"),
    "IMPORTS": ("imports", "is imported by"),
    "DEFINES": ("defines", "is defined in"),
    "CONTAINS": ("contains", "is part of"),
    "INHERITS": ("inherits from", "is the base of"),
    "MENTIONS": ("mentions", "is mentioned in"),
    "LINKS_TO": ("links to", "is linked from"),
    "DEPENDS_ON": ("depends on", "is a dependency of"),
    "TAGGED": ("is tagged", "is the tag of"),
    "RELATED_TO": ("is related to", "is related to"),
    "INSTANCE_OF": ("is an instance of the shared name", "is the shared name of"),
}


class Hop(BaseModel):
    source: str
    type: str
    target: str
    forward: bool = Field(description="False when the path walks this relation against its direction")
    evidence: str | None = Field(None, description="Citation of the chunk that shows this relation")
    resolution: Resolution = Field(Resolution.EXACT, description=RESOLUTION_HELP)


class PathResult(BaseModel):
    hops: list[Hop]
    sentence: str
    relation_types: list[str] = Field(description="The relation types the path walks, in the order it meets them")
    code_only: bool = Field(
        description="Every hop is a code relation (calls, bases, imports, definitions) and no step passes through "
        "test code: such paths rank before any path over mentions, links or tests"
    )


class ExplainResult(BaseModel):
    source: EntityRef
    target: EntityRef
    paths: list[PathResult]
    message: str | None = None


def _adjacency(
    graph: GraphWalk,
    tenant: str,
    source: str,
    target: str,
    max_hops: int,
    types: set[str] | None,
    least: Resolution = Resolution.NAME,
) -> dict[str, list[tuple[str, Relation]]]:
    """Every relation within reach of a path of at most `max_hops` hops: a breadth-first walk of half the hops
    from each end (a node on such a path lies within half of it from one end or the other), which reads far
    fewer relations than walking all the hops from one end."""
    adjacency: dict[str, list[tuple[str, Relation]]] = defaultdict(list)
    seen_edges: set[tuple[str, str, str, str]] = set()
    for start, hops in ((source, (max_hops + 1) // 2), (target, max_hops // 2)):
        seen_nodes = {start}
        frontier = {start}
        for _ in range(hops):
            relations = graph.neighbours(sorted(frontier), tenant, EDGES_PER_HOP)
            next_frontier: set[str] = set()
            for r in relations:
                if (types is not None and r.type not in types) or not r.resolved_at_least(least):
                    continue
                key = (r.source, r.type, r.target, r.evidence or "")
                if key not in seen_edges:
                    seen_edges.add(key)
                    adjacency[r.source].append((r.target, r))
                    adjacency[r.target].append((r.source, r))
                for node in (r.source, r.target):
                    if node not in seen_nodes:
                        seen_nodes.add(node)
                        next_frontier.add(node)
            if not next_frontier:
                break
            frontier = next_frontier
    for edges in adjacency.values():
        edges.sort(key=lambda e: (e[1].type, e[0], e[1].evidence or ""))
    return adjacency


# What a hop costs: code structure and calls are the connections people ask about; an import joins whole modules,
# so it says a little less than a call between two functions; a mention or a shared tag says less still, so a path
# through one must be shorter to win. Walking a relation backwards costs a little extra.
HOP_COST: dict[str, float] = {
    "CONTAINS": 0.5, "DEFINES": 0.5, "CALLS": 1.0, "INHERITS": 1.0, "IMPORTS": 1.25, "DEPENDS_ON": 1.0,
    "LINKS_TO": 1.5, "MENTIONS": 2.0, "RELATED_TO": 2.0, "TAGGED": 2.5, "INSTANCE_OF": 1.5,
}  # fmt: skip
DEFAULT_HOP_COST = 1.5
# A call or base bound only by its name is a guess, and one resting on an inferred type a little less sure than
# one the code binds: either costs extra, so a path over bindings wins over an equally long one over guesses.
RESOLUTION_COST: dict[Resolution, float] = {Resolution.EXACT: 0.0, Resolution.INFERRED: 0.1, Resolution.NAME: 1.0}
BACKWARD_COST = 0.25
# Prose says two things are related; code shows it. A hop over a prose relation, or into test code, costs more than
# any path over code alone can (6 hops at most), so the library's own code ranks first and prose, a changelog or a
# test helper only where the code has no path.
CODE_RELATIONS = frozenset({"CALLS", "INHERITS", "IMPORTS", "DEFINES", "CONTAINS", "DEPENDS_ON"})
ASIDE_COST = 100.0
# A project contains every file in it: a path through the project node connects anything to anything.
HUB_COST = 3.0
HUB_PREFIXES = ("project:",)
MAX_EXPANSIONS = 100_000


def _best_paths(
    adjacency: dict[str, list[tuple[str, Relation]]],
    source: str,
    target: str,
    max_hops: int,
    max_paths: int,
    in_tests: Callable[[str], bool] = lambda node: False,
) -> list[list[Relation]]:
    """The cheapest simple paths from source to target (best-first), at most `max_hops` long, deterministic.

    A step is taken only towards a node from which the target is still within the hops left (hop distances to
    the target, computed once), so a search never wanders through the neighbourhood of a hub it cannot leave in
    time, and an unreachable target is known at once.
    """
    to_target = _hop_distances(adjacency, target, max_hops)
    if to_target.get(source, max_hops + 1) > max_hops:
        return []
    found: list[list[Relation]] = []
    queue: list[tuple[float, tuple[str, ...], str, list[Relation]]] = [(0.0, (), source, [])]
    seen_routes: set[tuple[str, ...]] = set()
    expansions = 0
    while queue and len(found) < max_paths and expansions < MAX_EXPANSIONS:
        cost, key, node, path = heapq.heappop(queue)
        expansions += 1
        if node == target:
            # The same hops shown by other evidence (a relation seen in two chunks) are one path, not two.
            route = key[0::3] + key[1::3]
            if route not in seen_routes:
                seen_routes.add(route)
                found.append(path)
            continue
        if len(path) == max_hops:
            continue
        visited = {source, *(r.target for r in path), *(r.source for r in path)}
        for neighbour, relation in adjacency.get(node, []):
            if neighbour in visited and neighbour != target:
                continue
            if len(path) + 1 + to_target.get(neighbour, max_hops + 1) > max_hops:
                continue
            step = HOP_COST.get(relation.type, DEFAULT_HOP_COST) + (0.0 if relation.source == node else BACKWARD_COST)
            step += RESOLUTION_COST.get(Resolution(relation.resolution), 0.0)
            if relation.type not in CODE_RELATIONS or (neighbour != target and in_tests(neighbour)):
                step += ASIDE_COST
            if relation.source.startswith(HUB_PREFIXES) or relation.target.startswith(HUB_PREFIXES):
                step += HUB_COST
            # The relation id breaks ties between parallel edges, so the heap never compares paths.
            edge_key = (*key, relation.type, neighbour, relation.id)
            heapq.heappush(queue, (cost + step, edge_key, neighbour, [*path, relation]))
    return found


def _steps(start: str, path: Sequence[Relation]) -> list[tuple[str, Relation]]:
    """(node the hop leaves, hop) along a path from `start`."""
    steps, at = [], start
    for r in path:
        steps.append((at, r))
        at = r.target if r.source == at else r.source
    return steps


def _hop_distances(adjacency: dict[str, list[tuple[str, Relation]]], start: str, limit: int) -> dict[str, int]:
    """Hops from `start` to every node within `limit` hops, in either direction."""
    distance = {start: 0}
    frontier = [start]
    for hops in range(1, limit + 1):
        following = []
        for node in frontier:
            for neighbour, _ in adjacency.get(node, []):
                if neighbour not in distance:
                    distance[neighbour] = hops
                    following.append(neighbour)
        frontier = following
    return distance


def _sentence(path: Sequence[Hop], names: dict[str, str]) -> str:
    parts: list[str] = []
    for i, hop in enumerate(path):
        start, end = (hop.source, hop.target) if hop.forward else (hop.target, hop.source)
        verb = PHRASES.get(hop.type, (hop.type.lower().replace("_", " "),) * 2)[0 if hop.forward else 1]
        where = f" ({hop.evidence})" if hop.evidence else ""
        subject = f"`{names.get(start, start)}` " if i == 0 else ", which "
        parts.append(f"{subject}{verb} `{names.get(end, end)}`{where}")
    return "".join(parts) + "."


def _display_name(entity: Entity) -> str:
    return entity.aliases[0] if entity.type == "Method" and entity.aliases else entity.name


def explain_path(
    catalog: Catalog,
    directory: EntityDirectory,
    source: str,
    target: str,
    *,
    max_hops: int = 4,
    max_paths: int = 3,
    relation_types: Sequence[str] | None = None,
    relations: GraphWalk | None = None,
    min_resolution: Resolution = Resolution.INFERRED,
) -> ExplainResult:
    """Up to `max_paths` best paths between two entities (calls and structure before mentions), either direction.

    Raises:
        ValueError: max_hops outside 1..6 or max_paths outside 1..10.
        EntityNotFoundError: an endpoint is unknown or ambiguous (with suggestions).

    `relations` is where the walk reads the graph (the in-memory `RelationIndex` of a server); by default the
    graph store.
    """
    if not 1 <= max_hops <= MAX_HOPS:
        raise ValueError(f"max_hops must be between 1 and {MAX_HOPS}, got {max_hops}")
    if not 1 <= max_paths <= 10:
        raise ValueError(f"max_paths must be between 1 and 10, got {max_paths}")
    start = resolve_entity(directory, source)
    end = resolve_entity(directory, target)
    types = set(relation_types) if relation_types else None
    graph = relations or catalog.graph
    adjacency = _adjacency(graph, catalog.tenant, start.id, end.id, max_hops, types, min_resolution)
    tests: dict[str, bool] = {}

    def in_tests(node: str) -> bool:
        if node not in tests:
            entity = directory.by_id.get(node)
            tests[node] = entity is not None and is_test_path(entity.path or "")
        return tests[node]

    relation_paths = _best_paths(adjacency, start.id, end.id, max_hops, max_paths, in_tests)
    involved = sorted({n for p in relation_paths for r in p for n in (r.source, r.target)})
    names = {i: _display_name(directory.by_id[i]) for i in involved if i in directory.by_id}
    citations = graph.citations(sorted({r.evidence for p in relation_paths for r in p if r.evidence}))
    results = []
    for relations in relation_paths:
        hops: list[Hop] = []
        at = start.id
        for r in relations:
            forward = r.source == at
            at = r.target if forward else r.source
            citation = citations.get(r.evidence) if r.evidence else None
            hops.append(
                Hop(
                    source=r.source,
                    type=r.type,
                    target=r.target,
                    forward=forward,
                    evidence=citation,
                    resolution=r.resolution,
                )
            )
        code_only = all(h.type in CODE_RELATIONS for h in hops) and not any(
            in_tests(r.target if r.source == n else r.source) for n, r in _steps(start.id, relations)[:-1]
        )
        results.append(
            PathResult(
                hops=hops,
                sentence=_sentence(hops, names),
                relation_types=list(dict.fromkeys(h.type for h in hops)),
                code_only=code_only,
            )
        )
    message = None
    if not results:
        message = (
            f"no path of at most {max_hops} hops between {start.id} and {end.id}"
            + (f" over {sorted(types)}" if types else "")
            + "; try a larger max_hops, fewer relation_types, or trace_relationships from either end"
        )
    source_ref, target_ref = entity_refs(graph, [start, end])
    return ExplainResult(source=source_ref, target=target_ref, paths=results, message=message)
