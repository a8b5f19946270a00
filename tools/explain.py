"""The explain_path tool: paths between two entities, each hop with its evidence and the whole path as one sentence
a person can check; the path search itself is `trident.retrieval.connections`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise, product
from typing import Any

from pydantic import BaseModel, Field

from trident.retrieval.call_chains import CALL_TYPES, call_chains, is_callable, runs_in_order
from trident.retrieval.call_sites import call_sites
from trident.retrieval.connections import Connection, connections
from trident.retrieval.definitions import ChunkReader
from trident.retrieval.entities import EntityRef, entity_refs, resolve_entity
from trident.retrieval.omitted import OMITTED_HELP, OmitReason, Omitted, empty_message
from trident.retrieval.reader import Reader
from trident.retrieval.relation_index import GraphWalk
from trident.retrieval.written_names import WrittenNames
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.schema import RESOLUTION_HELP, Entity, Resolution
from trident.tools.bounds import EXPLAIN_MAX_HOPS, EXPLAIN_MAX_PATHS
from trident.tools.calls import check_range, suggest_call
from trident.tools.detail import Detail

MAX_HOPS = EXPLAIN_MAX_HOPS
MAX_PATHS = EXPLAIN_MAX_PATHS
# What min_resolution is when not given: calls bound by the code, a stated type or an override.
DEFAULT_RESOLUTION = Resolution.DISPATCH

# How each relation reads forwards and backwards, so a path can be told in the order it is walked.
PHRASES: dict[str, tuple[str, str]] = {
    "CALLS": ("calls", "is called by"),
    "REFERENCES": ("passes on", "is passed on by"),
    "RETURNS": ("returns", "is returned by"),
    "YIELDS": ("returns elements of", "is an element returned by"),
    "DECORATED_BY": ("is decorated by", "decorates"),
    "IMPORTS": ("imports", "is imported by"),
    "DEFINES": ("defines", "is defined in"),
    "CONTAINS": ("contains", "is part of"),
    "INHERITS": ("inherits from", "is the base of"),
    "OVERRIDES": ("overrides", "is overridden by"),
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
    call_site: str | None = Field(None, description="For a call: the line(s) that write it, project/path:L12,L30")
    resolution: Resolution = Field(Resolution.EXACT, description=RESOLUTION_HELP)


class PathResult(BaseModel):
    hops: list[Hop]
    sentence: str
    call_chain: bool = Field(
        False,
        description="Every hop a call, walked from caller to callee (or every hop against it): how one runs the "
        "other. Between two callables such chains come before any other path",
    )
    relation_types: list[str] = Field(description="The relation types the path walks, in the order it meets them")
    code_only: bool = Field(
        description="Every hop is a code relation (calls, bases, imports, definitions) and no step passes through "
        "test code: such paths rank before any path over mentions, links or tests"
    )


class CompactPath(BaseModel):
    sentence: str = Field(
        description="The path told with import names, each hop's call site (or evidence) and, when not exact, its "
        "resolution"
    )
    call_chain: bool = Field(False, description="Every hop a call, all walked one way: how one runs the other")


class ExplainResult(BaseModel):
    source: EntityRef
    target: EntityRef
    paths: list[PathResult] | list[CompactPath]
    omitted: list[Omitted] = Field(default_factory=list, description=OMITTED_HELP)
    message: str | None = Field(None, description="When no path is found: which filters or bounds kept them out")


@dataclass(frozen=True)
class PathSearch:
    """One explain_path call's search: the two ends (ids) and the arguments as given."""

    source: str
    target: str
    max_hops: int
    max_paths: int
    relation_types: list[str] | None
    min_resolution: Resolution | None  # None: dispatch, and chains through name guesses where none is surer
    calls_first: bool = False
    detail: Detail = Detail.FULL

    def run(self, catalog: Catalog, directory: EntityDirectory, graph: GraphWalk, **changed: Any) -> list[Connection]:
        """The best paths under these arguments, or with `changed` ones (max_hops, max_paths, relation_types,
        min_resolution): between two callables, the chains of calls from one to the other when there are any."""
        query = replace(self, **changed)
        chains: list[Connection] = []
        if query.calls_first and (not query.relation_types or set(query.relation_types) <= CALL_TYPES):
            chains = query.chains(catalog, directory, graph)
            if query.relation_types or len(chains) >= query.max_paths:
                return chains
        shown = {_route(c) for c in chains}
        others = connections(
            graph,
            catalog.tenant,
            directory,
            query.source,
            query.target,
            max_hops=query.max_hops,
            max_paths=query.max_paths,
            types=set(query.relation_types) if query.relation_types else None,
            least=query.least,
        )
        return [*chains, *(c for c in others if _route(c) not in shown)][: query.max_paths]

    @property
    def least(self) -> Resolution:
        """The least sure call or base a path may walk, name guesses aside (see `chains`)."""
        return self.min_resolution or DEFAULT_RESOLUTION

    def chains(self, catalog: Catalog, directory: EntityDirectory, graph: GraphWalk) -> list[Connection]:
        """Chains of calls from the source to the target, else from the target to the source; where none is bound
        that surely and min_resolution was not given, the chains through name guesses (a guessed call is still how
        one may run the other, and closer to it than any structural connection)."""
        surely = [self.min_resolution] if self.min_resolution else [DEFAULT_RESOLUTION, Resolution.NAME]
        ends = ((self.source, self.target), (self.target, self.source))
        for least, (start, end) in product(surely, ends):
            found = call_chains(
                graph,
                catalog.tenant,
                directory,
                start,
                end,
                max_hops=self.max_hops,
                max_paths=self.max_paths,
                least=least,
            )
            if found:
                return found
        return []

    def call(self, **changed: Any) -> str:
        """The explain_path call with these arguments, or with `changed` ones."""
        query = replace(self, **changed)
        return suggest_call(
            "explain_path",
            source=query.source,
            target=query.target,
            max_hops=query.max_hops,
            max_paths=query.max_paths,
            relation_types=query.relation_types,
            min_resolution=query.min_resolution,
            detail=query.detail if query.detail is not Detail.FULL else None,
        )


def explain_path(
    reader: Reader,
    source: str,
    target: str,
    *,
    max_hops: int = 4,
    max_paths: int = 3,
    relation_types: Sequence[str] | None = None,
    min_resolution: Resolution | None = None,
    detail: Detail | str = Detail.FULL,
) -> ExplainResult:
    """Up to `max_paths` best paths between two entities, either direction: between two callables the chains of
    calls from one to the other first (see `call_chains`), else calls and structure before mentions. Without
    `min_resolution`, calls are walked bound at least as surely as dispatch, and where no such chain joins two
    callables, the chains through calls guessed by name come before any structural path (`message` says so).
    When there are more, or none, `omitted` says which argument kept them out and the call that shows them.

    The walk reads the reader's relations in memory, the call sites its chunk rows. With `detail` compact, each path
    is its sentence alone, told with the names code imports the entities by.

    Raises:
        ArgumentError: max_hops outside 1..MAX_HOPS or max_paths outside 1..MAX_PATHS.
        EntityNotFoundError: an endpoint is unknown or ambiguous (with suggestions).
    """
    check_range("max_hops", max_hops, 1, MAX_HOPS)
    check_range("max_paths", max_paths, 1, MAX_PATHS)
    catalog, directory, graph, chunks = reader.catalog, reader.directory(), reader.relations(), reader.chunks
    start = resolve_entity(directory, source)
    end = resolve_entity(directory, target)
    types = list(relation_types) if relation_types else None
    calls_first = start.id != end.id and is_callable(directory, start.id) and is_callable(directory, end.id)
    chosen = Detail.parse(detail)
    query = PathSearch(start.id, end.id, max_hops, max_paths, types, min_resolution, calls_first, chosen)
    # One path more than asked says whether max_paths cut any (best-first: the first max_paths are the same).
    found = query.run(catalog, directory, graph, max_paths=max_paths + 1)
    omitted = _more_paths(query) if len(found) > max_paths else _hidden_paths(query, catalog, directory, graph, found)
    found = found[:max_paths]
    paths = _results(catalog, directory, graph, start.id, found, chunks, compact=chosen is Detail.COMPACT)
    message = None
    if not found:
        nothing = f"no path of at most max_hops={max_hops} hops between {start.id} and {end.id}"
        message = empty_message(nothing + (f" over {types}" if types else ""), omitted)
        message += "; trace_relationships from either end shows what each one connects to"
    if calls_first and paths and not any(p.call_chain for p in paths):
        message = (
            f"no call chain of at most max_hops={max_hops} calls between {start.id} and {end.id} either way; "
            "nearest structural connection below"
        )
    elif calls_first and min_resolution is None and _guessed(found[:1]):
        message = (
            f"no call chain of at most max_hops={max_hops} calls bound at least as surely as "
            f"{DEFAULT_RESOLUTION.value!r} either way; the chains below pass calls guessed by name (each hop says "
            "its resolution)"
        )
    source_ref, target_ref = entity_refs(graph, [start, end])
    return ExplainResult(source=source_ref, target=target_ref, paths=paths, omitted=omitted, message=message)


def _results(
    catalog: Catalog,
    directory: EntityDirectory,
    graph: GraphWalk,
    start: str,
    found: Sequence[Connection],
    chunks: ChunkReader,
    *,
    compact: bool,
) -> list[PathResult] | list[CompactPath]:
    """The paths found as the answer shows them: each hop with its evidence and call site, and the sentence told
    with display names; compact, the sentence alone, told with import names and each hop's resolution."""
    involved = sorted({n for path in found for r in path.relations for n in (r.source, r.target)})
    named = WrittenNames(directory).import_name if compact else _display_name
    names = {i: named(directory.by_id[i]) for i in involved if i in directory.by_id}
    citations = graph.citations(sorted({r.evidence for p in found for r in p.relations if r.evidence}))
    calls = [
        (r.evidence, r.target, r.source) for p in found for r in p.relations if r.type in CALL_TYPES and r.evidence
    ]
    sites = call_sites(directory, chunks, calls)
    paths = [_path_result(graph, start, path, names, citations, sites) for path in found]
    if compact:
        return [CompactPath(sentence=_sentence(p.hops, names, resolved=True), call_chain=p.call_chain) for p in paths]
    return paths


def _guessed(paths: Sequence[Connection]) -> bool:
    """Whether a path walks a call guessed by name."""
    return any(not r.resolved_at_least(DEFAULT_RESOLUTION) for p in paths for r in p.relations if r.type in CALL_TYPES)


def _route(path: Connection) -> tuple[tuple[str, str, str], ...]:
    return tuple((r.source, r.type, r.target) for r in path.relations)


def _more_paths(query: PathSearch) -> list[Omitted]:
    """max_paths cut the paths: at least one more exists."""
    wider = min(query.max_paths * 2, MAX_PATHS)
    return [
        Omitted(
            reason=OmitReason.MAX_PATHS,
            count=1,
            at_least=True,
            detail=f"at least 1 more path past max_paths={query.max_paths}",
            next_call=query.call(max_paths=wider) if wider > query.max_paths else None,
        )
    ]


def _hidden_paths(
    query: PathSearch, catalog: Catalog, directory: EntityDirectory, graph: GraphWalk, found: Sequence[Connection]
) -> list[Omitted]:
    """When no path was found: for each filter or bound the caller can loosen, the paths loosening it alone finds
    (one more search each, only for an empty answer)."""
    if found:
        return []
    loosened: list[tuple[OmitReason, dict[str, Any], str]] = []
    if query.relation_types:
        loosened.append((OmitReason.RELATION_TYPES, {"relation_types": None}, "over other relation types"))
    if query.least is not Resolution.NAME:
        bound = f"through calls or bases bound less surely than {query.least.value!r}"
        loosened.append((OmitReason.MIN_RESOLUTION, {"min_resolution": Resolution.NAME}, bound))
    if query.max_hops < MAX_HOPS:
        loosened.append((OmitReason.MAX_HOPS, {"max_hops": MAX_HOPS}, f"of {query.max_hops + 1}-{MAX_HOPS} hops"))
    omitted = []
    for reason, changed, what in loosened:
        count = len(query.run(catalog, directory, graph, **changed))
        if count:
            full = count == query.max_paths
            detail = f"{'at least ' if full else ''}{count} path(s) {what}"
            omitted.append(
                Omitted(reason=reason, count=count, at_least=full, detail=detail, next_call=query.call(**changed))
            )
    return omitted


def _path_result(
    graph: GraphWalk,
    start: str,
    path: Connection,
    names: dict[str, str],
    citations: dict[str, str],
    sites: dict[tuple[str, str], str],
) -> PathResult:
    """A path as the tool shows it: each hop with the way it is walked and its evidence, and the sentence; a call
    chain where every hop is a call walked the same way and the calls can run in that order (`runs_in_order`)."""
    hops: list[Hop] = []
    at = start
    for r in path.relations:
        forward = r.source == at
        at = r.target if forward else r.source
        evidence = citations.get(r.evidence) if r.evidence else None
        hops.append(
            Hop(
                source=r.source,
                type=r.type,
                target=r.target,
                forward=forward,
                evidence=evidence,
                call_site=sites.get((r.evidence or "", r.target)),
                resolution=r.resolution,
            )
        )
    directions = {h.forward for h in hops}
    calls = all(h.type in CALL_TYPES for h in hops) and len(directions) == 1
    linked = all(a.target == b.source for a, b in pairwise(path.relations))
    in_order = path.relations if linked else path.relations[::-1]  # (a chain walked back from its last callee)
    return PathResult(
        hops=hops,
        sentence=_sentence(hops, names),
        call_chain=calls and runs_in_order(graph, in_order),
        relation_types=list(dict.fromkeys(h.type for h in hops)),
        code_only=path.code_only,
    )


def _sentence(path: Sequence[Hop], names: dict[str, str], *, resolved: bool = False) -> str:
    """The path as one sentence, each hop cited; with `resolved`, a hop bound less surely than exact says how."""
    parts: list[str] = []
    for i, hop in enumerate(path):
        start, end = (hop.source, hop.target) if hop.forward else (hop.target, hop.source)
        verb = PHRASES.get(hop.type, (hop.type.lower().replace("_", " "),) * 2)[0 if hop.forward else 1]
        notes = [n for n in (hop.call_site or hop.evidence, _resolution_note(hop) if resolved else "") if n]
        where = f" ({'; '.join(notes)})" if notes else ""
        subject = f"`{names.get(start, start)}` " if i == 0 else ", which "
        parts.append(f"{subject}{verb} `{names.get(end, end)}`{where}")
    return "".join(parts) + "."


def _resolution_note(hop: Hop) -> str:
    return "" if hop.resolution is Resolution.EXACT else hop.resolution.value


def _display_name(entity: Entity) -> str:
    return entity.aliases[0] if entity.type == "Method" and entity.aliases else entity.name
