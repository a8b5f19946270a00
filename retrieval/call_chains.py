"""How one callable ends up running another: chains of calls walked in their direction (stated calls, the overrides
they dispatch to, the constructors a class call runs), the paths `explain_path` gives before any path that climbs
to a container or through an import."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from trident.retrieval.connections import Adjacency, Connection, best_paths, set_apart_of
from trident.retrieval.receiver_context import ReceiverContext
from trident.retrieval.relation_index import GraphWalk, RelationIndex
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Relation, RelationType, Resolution

# What a chain of execution walks: calls (stated, dispatched, constructors) and functions passed to be called.
CALL_TYPES = frozenset({RelationType.CALLS.value, RelationType.REFERENCES.value})
# The ends a call chain joins: a class is reached by its constructor, and two classes are asked about as structure.
CALLABLE_TYPES = frozenset({"Function", "Method"})
# Relations read around a frontier at most: far above a real function's calls and callers (the in-memory index
# answers this from two array slices).
EDGES_PER_STEP = 20_000


def is_callable(directory: EntityDirectory, entity_id: str) -> bool:
    entity = directory.by_id.get(entity_id)
    return entity is not None and entity.type in CALLABLE_TYPES


def call_chains(
    graph: GraphWalk,
    tenant: str,
    directory: EntityDirectory,
    source: str,
    target: str,
    *,
    max_hops: int,
    max_paths: int,
    least: Resolution,
) -> list[Connection]:
    """Up to `max_paths` cheapest chains of at most `max_hops` calls from `source` to `target`, each call walked
    from caller to callee and bound at least as surely as `least`; none when no such chain exists."""
    forward, backward = _call_edges(graph, tenant, source, target, max_hops, least)
    # over the in-memory relations, a chain follows the receiver from call to call (`ReceiverContext`)
    runs = ReceiverContext.of(graph).runs_as_chain if isinstance(graph, RelationIndex) else None
    found = best_paths(
        forward, source, target, max_hops, max_paths, set_apart_of(directory), towards=backward, runs=runs
    )
    return [Connection(relations=path, code_only=True) for path in found]


def runs_in_order(graph: GraphWalk, calls: Sequence[Relation]) -> bool:
    """Whether calls, in the order they run, can run as one chain as their receivers allow (over the in-memory
    relations, `ReceiverContext.runs_as_chain`; a store's relations say nothing against it)."""
    if not calls or not isinstance(graph, RelationIndex):
        return True
    return ReceiverContext.of(graph).runs_as_chain(list(calls[:-1]), calls[-1])


def _call_edges(
    graph: GraphWalk, tenant: str, source: str, target: str, max_hops: int, least: Resolution
) -> tuple[Adjacency, Adjacency]:
    """The calls on any chain of at most `max_hops` from source to target, both ways round: caller -> callees
    and callee -> callers. Callees are followed half the hops from the source and callers the other half from
    the target (every call of such a chain lies within one half or the other)."""
    forward: Adjacency = defaultdict(list)
    backward: Adjacency = defaultdict(list)
    seen: set[tuple[str, str, str]] = set()
    for start, hops, outwards in ((source, (max_hops + 1) // 2, True), (target, max_hops // 2, False)):
        reached, frontier = {start}, {start}
        for _ in range(hops):
            following: set[str] = set()
            for r in graph.neighbours(sorted(frontier), tenant, EDGES_PER_STEP):
                if r.type not in CALL_TYPES or not r.resolved_at_least(least) or r.source == r.target:
                    continue
                near, far = (r.source, r.target) if outwards else (r.target, r.source)
                if near not in frontier:
                    continue
                key = (r.source, r.target, r.evidence or "")
                if key not in seen:
                    seen.add(key)
                    forward[r.source].append((r.target, r))
                    backward[r.target].append((r.source, r))
                if far not in reached:
                    reached.add(far)
                    following.add(far)
            if not following:
                break
            frontier = following
    for edges in (*forward.values(), *backward.values()):
        edges.sort(key=lambda e: (Resolution(e[1].resolution).rank, e[0], e[1].evidence or ""))
    return forward, backward
