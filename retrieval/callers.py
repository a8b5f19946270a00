"""Who can reach a set of functions: the callers of callers, walked backwards over the call edges of one generation
(stated calls, the dispatch calls that reach an override, the constructor calls that reach an `__init__`), each
with how many calls away it is and the least sure binding on its best chain."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from trident.retrieval.receiver_context import ENDED, NONE, RULED_OUT, ReceiverContext
from trident.retrieval.relation_index import RelationIndex
from trident.store.schema import RelationType, Resolution

RESOLUTIONS = tuple(Resolution)
# What reaches a function: a call of it (stated, dispatched, a constructor), code passing it on to be called, or a
# definition it decorates (what a call of that definition runs is what the decorator made of it).
WALKED = (RelationType.CALLS.value, RelationType.REFERENCES.value, RelationType.DECORATED_BY.value)
FUNCTION = "function:"  # a module-level function's id


@dataclass(frozen=True)
class Reach:
    """How a caller reaches the walk's start: in `hops` calls, the least sure of them bound as `resolution`,
    through `via` (the entity one call nearer the start; itself for a start) and its call's `evidence` chunk."""

    hops: int
    resolution: Resolution
    via: str
    evidence: str


@dataclass(frozen=True)
class CallerWalk:
    """Every caller within the walk's hops (starts included, at 0 hops), and the calls it left out."""

    reached: dict[str, Reach]
    beyond: int  # callers of the farthest ones, one hop past the bound: > 0 means the walk was cut
    weaker: dict[str, int]  # reached id -> calls into it bound less surely than the walk accepts
    wide: int = 0  # dispatches left out: from a caller picking among more than `widest` functions by a key
    given: int = 0  # callers that run what they were given, whose own callers were not walked (`ENDED`)


def walk_callers(
    index: RelationIndex,
    starts: Sequence[str],
    max_hops: int,
    least: Resolution,
    widest: int | None = None,
    barred: frozenset[int] = frozenset(),
) -> CallerWalk:
    """Breadth first from `starts` against the direction of calls and references (`WALKED`), over those bound at
    least as surely as `least`; with `widest`, not over a dispatch from a caller that picks among more module-level
    functions than that (jinja2's table of filters picked by name: which one runs depends on the template).
    A method reached through a dispatch on its own receiver is reached only for a `self` of the override's class,
    and a call into it on a receiver made as another class is not walked (`ReceiverContext`). A dispatch into a
    method of a class in `barred` (relation-index positions) is not walked: no caller's object is of that class.
    Of two chains of the same length into a caller, the surer is kept; the walk is deterministic."""
    reached = {s: Reach(0, Resolution.EXACT, s, "") for s in sorted(set(starts))}
    walk = _Walk(
        index,
        least,
        widest,
        ReceiverContext.of(index),
        {(index.position[s], NONE) for s in reached if s in index.position},
        barred,
    )
    frontier = {state: Resolution.EXACT for state in walk.seen}
    for hops in range(1, max_hops + 2):
        following: dict[tuple[int, int], Reach] = {}
        for (node, context), how in sorted(frontier.items()):
            for state, reach in walk.callers(node, context, how, hops > max_hops):
                known = following.get(state)
                if known is None or reach.resolution.rank < known.resolution.rank:
                    following[state] = reach
        frontier = {}
        for (caller, context), reach in sorted(following.items()):
            caller_id = index.entity_ids[caller]
            known = reached.get(caller_id)
            if known is None or (known.hops == hops and reach.resolution.rank < known.resolution.rank):
                reached[caller_id] = Reach(hops, reach.resolution, reach.via, reach.evidence)
            walk.seen.add((caller, context))
            frontier[(caller, context)] = reach.resolution
        if not frontier:
            break
    return CallerWalk(reached=reached, beyond=walk.beyond, weaker=walk.weaker, wide=walk.wide, given=walk.given)


@dataclass
class _Walk:
    """One walk's rules for a step back from a reached method (in the context its `self` is reached in), the states
    it reached, and what it left out."""

    index: RelationIndex
    least: Resolution
    widest: int | None
    context: ReceiverContext
    seen: set[tuple[int, int]]  # (entity, context) reached; an entity reached in no context stands for every one
    barred: frozenset[int] = frozenset()  # classes whose methods no dispatch into is walked
    beyond: int = 0
    wide: int = 0
    given: int = 0
    weaker: dict[str, int] = field(default_factory=dict)
    fanout: dict[int, int] = field(default_factory=dict)

    def callers(self, node: int, context: int, how: Resolution, past: bool) -> Iterator[tuple[tuple[int, int], Reach]]:
        """((caller, its context), how it reaches) for each call into `node` the walk follows to a state not reached
        yet (`past`: one hop past the bound, only counted)."""
        if context == ENDED:  # its callers reach the start only by passing what it runs: walked from their own
            self.given += bool(calls_into(self.index, node))  # reference or call, which a value a factory
            return  # returns has not
        index, node_id = self.index, self.index.entity_ids[node]
        barred = bool(self.barred) and self.context.class_of(node) in self.barred
        for i in calls_into(index, node):
            rank = int(index.resolution_rank[i])
            if barred and rank == Resolution.DISPATCH.rank:
                continue
            if rank > self.least.rank:
                self.weaker[node_id] = self.weaker.get(node_id, 0) + 1
                continue
            caller = int(index.source[i])
            caller_context = self.context.step(i, context)
            if caller_context == RULED_OUT or (caller, caller_context) in self.seen or (caller, NONE) in self.seen:
                continue
            dispatch = self.widest is not None and rank == Resolution.DISPATCH.rank
            if dispatch and _fanout(index, caller, self.fanout) > (self.widest or 0):
                self.wide += 1
                continue
            if past:
                self.beyond += 1
                continue
            reach = Reach(0, RESOLUTIONS[max(rank, how.rank)], node_id, index.evidence[index.evidence_code[i]])
            yield (caller, caller_context), reach


def _fanout(index: RelationIndex, caller: int, known: dict[int, int]) -> int:
    """How many module-level functions a caller's calls and references dispatch to: those it picks from a table by
    a key the input gives (an override runs by the receiver's class, which the code states, and is not counted)."""
    if caller not in known:
        found = index.touching(index.entity_ids[caller], WALKED, outgoing=True)
        found = found[index.resolution_rank[found] == Resolution.DISPATCH.rank]
        known[caller] = sum(1 for t in index.target[found].tolist() if index.entity_ids[t].startswith(FUNCTION))
    return known[caller]


def calls_into(index: RelationIndex, node: int) -> list[int]:
    """The numbers of the call and reference relations into `node` (a call of itself left out), in a fixed order."""
    found = index.touching(index.entity_ids[node], WALKED, outgoing=False)
    return [int(i) for i in found[index.source[found] != node]]


def chain(walk: CallerWalk, caller: str) -> list[str]:
    """The entities from `caller` to the start it reaches, one call at a time."""
    path = [caller]
    while (reach := walk.reached.get(path[-1])) is not None and reach.via != path[-1]:
        path.append(reach.via)
    return path
