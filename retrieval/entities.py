"""Finding the one entity a user means by an id, a name, a qualified name or an alias, and citing it."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from pydantic import BaseModel, Field

from trident.retrieval.relation_index import GraphWalk
from trident.retrieval.written_names import WrittenNames, written_parts
from trident.store.names.code_paths import is_set_apart
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Entity

MAX_SUGGESTIONS = 5
_AN_ID = re.compile(r"^[a-z]+:[^:\s]+:\S+$")  # `type:project:qualified.name` (store/schema.py entity_id)


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
    """The one entity a user means by an id, a name, an alias, or a dotted name written as people write it: its
    import name (`httpx.Client.send`, no `src/` folder), a re-export (`click.Command`), a tail (`Client.send`,
    `module.function`) or its qualified name (retrieval/written_names.py).

    Raises:
        EntityNotFoundError: nothing matches (with the closest names, those matching more of the written name
            first) or several match (with their import names and ids).
    """
    text = name_or_id.strip()
    if text in directory.by_id:
        return directory.by_id[text]
    written = WrittenNames(directory)
    named = {e.id: e for e in directory.named(text)}  # a name and an alias of one entity may both match
    candidates = [e for e in named.values() if projects is None or e.project in projects]
    if not candidates:
        return _written_entity(text, written, projects)
    if len(candidates) == 1:
        return candidates[0]
    bare = len(written_parts(text)) == 1
    ranked = sorted(candidates, key=lambda e: (_preference(e, bare), len(e.id), e.id))
    if _preference(ranked[0], bare) < _preference(ranked[1], bare):
        return ranked[0]
    raise _ambiguous(text, ranked, written)


def _preference(entity: Entity, bare: bool) -> tuple[int, bool, bool]:
    """Which of the entities sharing a name a person means by it, lower first: the more specific kind of thing (a
    class before its module of the same name); the library's own code before a test's, an example's or the
    documentation's (`pygments.highlight` before `doc._static.demo.highlight`); for a name written without a dot, a
    module-level definition before a method (a method is written with its class, `Syntax.highlight`, so `highlight`
    is `pygments.highlight`). Candidates alike in all of these stay ambiguous (two libraries' `get`)."""
    return _SPECIFICITY.get(entity.type, 9), is_set_apart(entity.path or ""), bare and entity.type == "Method"


def _written_entity(text: str, written: WrittenNames, projects: list[str] | None) -> Entity:
    """The entity a dotted name written as people write it means: the one it matches best, when the next one
    leaves out more private modules or is a less specific kind of thing (a function before its module).

    Raises:
        EntityNotFoundError: it matches none, or several alike.
    """
    found = written.best(text, projects)
    if not found:
        raise _not_found(text, written, written.directory)
    if len(found) == 1:
        return found[0].entity
    first, second = ((_SPECIFICITY.get(w.entity.type, 9), w.private) for w in found[:2])
    if first < second:
        return found[0].entity
    raise _ambiguous(text, [w.entity for w in found], written)


def _ambiguous(text: str, ranked: list[Entity], written: WrittenNames) -> EntityNotFoundError:
    """The error for a name several entities answer to alike: each listed by import name, with its id."""
    shown = ranked[:MAX_SUGGESTIONS]
    listed = ", ".join(f"{written.import_name(e)} ({e.type.lower()} in {e.project}, id {e.id})" for e in shown)
    more = f" and {len(ranked) - len(shown)} more" if len(ranked) > len(shown) else ""
    return EntityNotFoundError(
        f"'{text}' names {len(ranked)} entities: {listed}{more}; pass one of these names or ids",
        [e.id for e in shown],
    )


def _not_found(text: str, written: WrittenNames, directory: EntityDirectory) -> EntityNotFoundError:
    """The error for a name nothing matches, suggesting names that resolve: entities named as its last part (or,
    when no entity has that name, as the names spelt closest to it), those holding more of its other parts first."""
    if _AN_ID.match(text):  # an id is looked up as written: another generation's or tenant's id suggests nothing
        return EntityNotFoundError(f"no entity has the id '{text}'; search or name it to find its current id", [])
    parts = written_parts(text) or [text]
    spellings = [parts[-1]] if directory.named(parts[-1]) else directory.spelt_like(parts[-1])
    if not spellings:  # looser than a misspelling, for a hint: a name half alike, or holding the written one
        names = directory.names_starting("")
        spellings = difflib.get_close_matches(parts[-1], names, n=MAX_SUGGESTIONS, cutoff=0.5)
        folded = parts[-1].lower()
        spellings = spellings or [n for n in names if folded in n.lower()][:MAX_SUGGESTIONS]
    found = [e for spelling in spellings for e in written.closest(".".join([*parts[:-1], spelling]), MAX_SUGGESTIONS)]
    close = list(dict.fromkeys(written.import_name(e) for e in found))[:MAX_SUGGESTIONS]
    hint = f"; closest: {', '.join(close)}" if close else "; check the spelling or index the project first"
    return EntityNotFoundError(f"no entity named '{text}'{hint}", close)


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
