"""The explain_path tool: paths between two entities, each hop with its evidence and the whole path as one sentence
a person can check; the path search itself is `trident.retrieval.connections`."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from trident.retrieval.connections import Connection, connections
from trident.retrieval.entities import EntityRef, entity_refs, resolve_entity
from trident.retrieval.relation_index import GraphWalk
from trident.store.catalog import Catalog
from trident.store.directory import EntityDirectory
from trident.store.schema import RESOLUTION_HELP, Entity, Resolution
from trident.tools.calls import check_range

MAX_HOPS = 6
MAX_PATHS = 10

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

    `relations` is where the walk reads the graph (the in-memory `RelationIndex` of a server); by default the
    graph store.

    Raises:
        ArgumentError: max_hops outside 1..MAX_HOPS or max_paths outside 1..MAX_PATHS.
        EntityNotFoundError: an endpoint is unknown or ambiguous (with suggestions).
    """
    check_range("max_hops", max_hops, 1, MAX_HOPS)
    check_range("max_paths", max_paths, 1, MAX_PATHS)
    start = resolve_entity(directory, source)
    end = resolve_entity(directory, target)
    types = set(relation_types) if relation_types else None
    graph = relations or catalog.graph
    found = connections(
        graph,
        catalog.tenant,
        directory,
        start.id,
        end.id,
        max_hops=max_hops,
        max_paths=max_paths,
        types=types,
        least=min_resolution,
    )
    involved = sorted({n for path in found for r in path.relations for n in (r.source, r.target)})
    names = {i: _display_name(directory.by_id[i]) for i in involved if i in directory.by_id}
    citations = graph.citations(sorted({r.evidence for p in found for r in p.relations if r.evidence}))
    message = None
    if not found:
        message = (
            f"no path of at most {max_hops} hops between {start.id} and {end.id}"
            + (f" over {sorted(types)}" if types else "")
            + "; try a larger max_hops, fewer relation_types, or trace_relationships from either end"
        )
    source_ref, target_ref = entity_refs(graph, [start, end])
    paths = [_path_result(start.id, path, names, citations) for path in found]
    return ExplainResult(source=source_ref, target=target_ref, paths=paths, message=message)


def _path_result(start: str, path: Connection, names: dict[str, str], citations: dict[str, str]) -> PathResult:
    """A path as the tool shows it: each hop with the way it is walked and its evidence, and the sentence."""
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
                resolution=r.resolution,
            )
        )
    return PathResult(
        hops=hops,
        sentence=_sentence(hops, names),
        relation_types=list(dict.fromkeys(h.type for h in hops)),
        code_only=path.code_only,
    )


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
