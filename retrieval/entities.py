"""Finding the one entity a user means by an id, a name, a qualified name or an alias, and citing it."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from pydantic import BaseModel, Field

from trident.retrieval.relation_index import GraphWalk
from trident.store.directory import EntityDirectory
from trident.store.schema import Entity

MAX_SUGGESTIONS = 5


class EntityNotFoundError(LookupError):
    """No entity, or several equally good ones; the message lists what to ask for instead."""

    def __init__(self, message: str, suggestions: list[str]) -> None:
        super().__init__(message)
        self.suggestions = suggestions


class EntityRef(BaseModel):
    id: str
    name: str
    type: str
    project: str
    citation: str | None = Field(None, description="Where it is defined: project/path:Lstart-Lend")


def resolve_entity(directory: EntityDirectory, name_or_id: str, projects: list[str] | None = None) -> Entity:
    """The one entity a user means by an id, a name, a qualified name or an alias.

    Raises:
        EntityNotFoundError: nothing matches (with the closest names) or several match (with their ids).
    """
    text = name_or_id.strip()
    if text in directory.by_id:
        return directory.by_id[text]
    named = {e.id: e for e in directory.named(text)}  # a name and an alias of one entity may both match
    candidates = [e for e in named.values() if projects is None or e.project in projects]
    if not candidates:
        candidates = [e for e in directory.by_id.values() if e.qualified_name == text]
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        # A name defined once as a class and again as its module is not ambiguous to a person: prefer the
        # most specific kind of thing, then the shortest id.
        ranked = sorted(candidates, key=lambda e: (_SPECIFICITY.get(e.type, 9), len(e.id), e.id))
        if _SPECIFICITY.get(ranked[0].type, 9) < _SPECIFICITY.get(ranked[1].type, 9):
            return ranked[0]
        ids = [e.id for e in ranked[:MAX_SUGGESTIONS]]
        raise EntityNotFoundError(f"'{text}' names {len(candidates)} entities; pass one id: {', '.join(ids)}", ids)
    names = sorted({e.name for e in directory.by_id.values()})
    close = difflib.get_close_matches(text, names, n=MAX_SUGGESTIONS, cutoff=0.5)
    if not close:
        folded = text.lower()
        close = [n for n in names if folded in n.lower()][:MAX_SUGGESTIONS]
    hint = f"; closest: {', '.join(close)}" if close else "; check the spelling or index the project first"
    raise EntityNotFoundError(f"no entity named '{text}'{hint}", close)


_SPECIFICITY = {"Class": 0, "Function": 0, "Method": 0, "Service": 0, "Concept": 1, "Document": 2, "Module": 3}


def entity_refs(graph: GraphWalk, entities: Sequence[Entity]) -> list[EntityRef]:
    """References to the entities, in order, with the citations of their defining chunks fetched in one call."""
    citations = graph.citations(sorted({e.chunk_id for e in entities if e.chunk_id}))
    return [
        EntityRef(
            id=e.id,
            name=e.name,
            type=e.type,
            project=e.project,
            citation=citations.get(e.chunk_id) if e.chunk_id else None,
        )
        for e in entities
    ]
