"""How two entities connect: the cheapest simple paths between them over the relation graph, code relations
before prose, mentions or test code, each path deterministic."""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from trident.retrieval.execution_edges import CONSTRUCTORS, EXECUTED
from trident.retrieval.relation_index import GraphWalk
from trident.store.names.code_paths import is_set_apart
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Relation, RelationType, Resolution

# For each node, (neighbour, relation) pairs in both directions, sorted.
Adjacency = dict[str, list[tuple[str, Relation]]]

# Relations read around a hop's frontier at most: a hub with more is cut, not read whole.
EDGES_PER_HOP = 2_000

# What a hop costs: code structure and calls are the connections people ask about; an import joins whole modules,
# so it says a little less than a call between two functions; a mention or a shared tag says less still, so a path
# through one must be shorter to win. A function handed on runs when what it was handed to calls it: a reference
# stands for two calls at least, so where that callee is indexed the chain through it (`f(g)`, then `g()` in `f`)
# comes first. Walking a relation backwards costs a little extra.
HOP_COST: dict[str, float] = {
    "CONTAINS": 0.5, "DEFINES": 0.5, "CALLS": 1.0, "INHERITS": 1.0, "IMPORTS": 1.25, "DEPENDS_ON": 1.0,
    "LINKS_TO": 1.5, "MENTIONS": 2.0, "RELATED_TO": 2.0, "TAGGED": 2.5, "INSTANCE_OF": 1.5, "OVERRIDES": 1.0,
    "REFERENCES": 2.5, "RETURNS": 1.25, "YIELDS": 1.25, "DECORATED_BY": 1.0,
}  # fmt: skip
DEFAULT_HOP_COST = 1.5
# A class handed on is made where what it was handed to calls it, often a call further on (`_group(tlist,
# sql.Comparison)`, then `group_tokens(cls)`, then `cls(tokens)`): a reference to a constructor stands for three
# calls at least, so the chain through the callees that make it comes first where they are indexed.
HANDED_CLASS_COST = 1.0
# A call or base bound only by its name is a guess, and one resting on an inferred type a little less sure than
# one the code binds: either costs extra, so a path over bindings wins over an equally long one over guesses.
RESOLUTION_COST: dict[Resolution, float] = {
    Resolution.EXACT: 0.0, Resolution.INFERRED: 0.1, Resolution.DISPATCH: 0.3, Resolution.NAME: 1.0,
}  # fmt: skip
BACKWARD_COST = 0.25
# A call the code leaves open between several targets (a table read by a computed key, a name built at run time: a
# binding shared by n targets weighs 1/n) is less likely the one a run takes than a call bound to one: each doubling
# of the targets costs a little, so of two equally long chains the one over surer hops comes first.
FANOUT_COST = 0.1
# Prose says two things are related; code shows it. A hop over a prose relation, or into test, example or
# documentation code, costs more than any path over code alone can (6 hops at most), so the library's own code ranks
# first and prose, a changelog, a test helper or an example's override only where the code has no path.
CODE_RELATIONS = frozenset(
    {
        "CALLS",
        "INHERITS",
        "IMPORTS",
        "DEFINES",
        "CONTAINS",
        "DEPENDS_ON",
        "OVERRIDES",
        "REFERENCES",
        "RETURNS",
        "YIELDS",
        "DECORATED_BY",
    }
)
ASIDE_COST = 100.0
# A project contains every file in it: a path through the project node connects anything to anything.
HUB_COST = 3.0
HUB_PREFIXES = ("project:",)
# Bounds the best-first search on a dense graph; far above what the sample and real projects need.
MAX_EXPANSIONS = 100_000


@dataclass(frozen=True)
class Connection:
    """One path from the source to the target: its relations in walking order, and whether it is made of code
    relations only without passing through test code."""

    relations: list[Relation]
    code_only: bool


def connections(
    graph: GraphWalk,
    tenant: str,
    directory: EntityDirectory,
    source: str,
    target: str,
    *,
    max_hops: int,
    max_paths: int,
    types: set[str] | None,
    least: Resolution,
) -> list[Connection]:
    """Up to `max_paths` best paths of at most `max_hops` hops between two entity ids, either direction, over
    relations of `types` (None: all) and calls and bases bound at least as surely as `least`."""
    around = adjacency(graph, tenant, source, target, max_hops, types, least)
    in_tests = set_apart_of(directory)
    found = best_paths(around, source, target, max_hops, max_paths, in_tests)
    return [Connection(relations=path, code_only=_code_only(source, path, in_tests)) for path in found]


def adjacency(
    graph: GraphWalk,
    tenant: str,
    source: str,
    target: str,
    max_hops: int,
    types: set[str] | None,
    least: Resolution = Resolution.NAME,
) -> Adjacency:
    """Every relation within reach of a path of at most `max_hops` hops: a breadth-first walk of half the hops
    from each end (a node on such a path lies within half of it from one end or the other), which reads far
    fewer relations than walking all the hops from one end."""
    around: Adjacency = defaultdict(list)
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
                    around[r.source].append((r.target, r))
                    around[r.target].append((r.source, r))
                for node in (r.source, r.target):
                    if node not in seen_nodes:
                        seen_nodes.add(node)
                        next_frontier.add(node)
            if not next_frontier:
                break
            frontier = next_frontier
    for edges in around.values():
        edges.sort(key=lambda e: (e[1].type, e[0], e[1].evidence or ""))
    return around


def best_paths(
    around: Adjacency,
    source: str,
    target: str,
    max_hops: int,
    max_paths: int,
    in_tests: Callable[[str], bool] = lambda node: False,
    towards: Adjacency | None = None,
    runs: Callable[[list[Relation], Relation], bool] | None = None,
) -> list[list[Relation]]:
    """The cheapest simple paths from source to target (best-first), at most `max_hops` long, deterministic.

    A step is taken only towards a node from which the target is still within the hops left (hop distances to
    the target, computed once, over `towards`: the relations read backwards when `around` holds them one way
    only), so a search never wanders through the neighbourhood of a hub it cannot leave in time, and an
    unreachable target is known at once. With `runs`, a step is taken only where it says the path so far and
    the step can run as one chain (`ReceiverContext.runs_as_chain`).
    """
    to_target = hop_distances(towards if towards is not None else around, target, max_hops)
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
        for neighbour, relation in around.get(node, []):
            if neighbour in visited and neighbour != target:
                continue
            if len(path) + 1 + to_target.get(neighbour, max_hops + 1) > max_hops:
                continue
            if runs is not None and not runs(path, relation):
                continue
            step = _step_cost(relation, node, neighbour != target and in_tests(neighbour))
            # The relation id breaks ties between parallel edges, so the heap never compares paths.
            edge_key = (*key, relation.type, neighbour, relation.id)
            heapq.heappush(queue, (cost + step, edge_key, neighbour, [*path, relation]))
    return found


def _step_cost(relation: Relation, leaving: str, into_tests: bool) -> float:
    """What walking `relation` from `leaving` adds to a path's cost (see the constants above)."""
    cost = HOP_COST.get(relation.type, DEFAULT_HOP_COST) + (0.0 if relation.source == leaving else BACKWARD_COST)
    cost += RESOLUTION_COST.get(Resolution(relation.resolution), 0.0)
    if relation.type == RelationType.REFERENCES.value and relation.target.rpartition(".")[2] in CONSTRUCTORS:
        cost += HANDED_CLASS_COST
    if relation.type in EXECUTED and 0.0 < relation.weight < 1.0:
        cost += FANOUT_COST * math.log2(1.0 / relation.weight)
    if relation.type not in CODE_RELATIONS or into_tests:
        cost += ASIDE_COST
    if relation.source.startswith(HUB_PREFIXES) or relation.target.startswith(HUB_PREFIXES):
        cost += HUB_COST
    return cost


def hop_distances(around: Adjacency, start: str, limit: int) -> dict[str, int]:
    """Hops from `start` to every node within `limit` hops, in either direction."""
    distance = {start: 0}
    frontier = [start]
    for hops in range(1, limit + 1):
        following = []
        for node in frontier:
            for neighbour, _ in around.get(node, []):
                if neighbour not in distance:
                    distance[neighbour] = hops
                    following.append(neighbour)
        frontier = following
    return distance


def steps(start: str, path: Sequence[Relation]) -> list[tuple[str, Relation]]:
    """(node the hop leaves, hop) along a path from `start`."""
    taken, at = [], start
    for r in path:
        taken.append((at, r))
        at = r.target if r.source == at else r.source
    return taken


def set_apart_of(directory: EntityDirectory) -> Callable[[str], bool]:
    """Whether an entity id is defined in test, example or documentation code (`is_set_apart`), remembered per id
    (a search asks about the same nodes often)."""
    known: dict[str, bool] = {}

    def in_tests(node: str) -> bool:
        if node not in known:
            entity = directory.by_id.get(node)
            known[node] = entity is not None and is_set_apart(entity.path or "")
        return known[node]

    return in_tests


def _code_only(start: str, path: Sequence[Relation], in_tests: Callable[[str], bool]) -> bool:
    """Every hop a code relation, and no node between the ends in test code."""
    if any(r.type not in CODE_RELATIONS for r in path):
        return False
    return not any(in_tests(r.target if r.source == node else r.source) for node, r in steps(start, path)[:-1])
