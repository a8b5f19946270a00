"""The forms an entity is mentioned by in prose: its name and aliases written whole, as a phrase of their words, and
the core of a title without its qualifier (`EntityDirectory` groups them by case-folded text to find mentions)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from trident.store.names.identifiers import split_identifier
from trident.store.schema import Chunk, DocumentKind, Entity, EntityType

MIN_MENTION_LENGTH = 4
# A one-word function name ("run", "charge") is too common in prose to mean the symbol; classes, documents
# and titled concepts are named to be referred to.
MENTIONABLE_TYPES = frozenset(
    {
        EntityType.CLASS,
        EntityType.FUNCTION,
        EntityType.METHOD,
        EntityType.MODULE,
        EntityType.DOCUMENT,
        EntityType.CONCEPT,
        EntityType.SERVICE,
        EntityType.PROJECT,
    }
)
MULTIWORD_ONLY_TYPES = frozenset({EntityType.FUNCTION, EntityType.METHOD, EntityType.MODULE, EntityType.PROJECT})
# Titles people write without their qualifier: a passage or document titled "Kiss and Tell (1945 film)" is mentioned
# as "Kiss and Tell". Its core (title_core) is one more form of its name when it reads as a name (`core_of_a_name`)
# and names no other entity: not "Dark River" when there is a 1990 film and a 2017 one, nor "Paris" (one word, too
# common), nor "Genomic imprinting in development" (a paper's title before its comma: a sentence, not a name).
CORE_TYPES = frozenset({EntityType.DOCUMENT, EntityType.CONCEPT})
CORE_MAX_WORDS = 5
QUALIFIER_MAX_WORDS = 4


def core_of_a_name(core: str, qualifier: str) -> bool:
    """Whether a title's core names it the way a name does: two to five words, every one of four letters or more
    capitalised ("Kiss and Tell", "Guy of Ibelin"), and what it leaves out a short qualifier of at most four words
    ("1945 film", "Duke of Saxe-Eisenach"). Not a paper's title cut at a comma or parenthesis ("Genomic imprinting in
    development", "Mitochondria: Dynamic Organelles in Disease" before ", Aging, and Development"): in SciFact those
    links cost 0.006 nDCG@10."""
    words = core.split()
    return (
        len(split_identifier(core)) > 1
        and len(words) <= CORE_MAX_WORDS
        and len(qualifier.strip(" ,()").split()) <= QUALIFIER_MAX_WORDS
        and all(word[:1].isupper() or word[:1].isdigit() for word in words if len(word) >= 4)
    )


class Form(NamedTuple):
    """One way of writing an entity's name; single words must match case, phrases match case-folded (a tuple: a
    large index has a hundred thousand of them, built before a first query can be answered)."""

    text: str
    case_sensitive: bool
    entity_id: str
    core: bool = False  # the title without its qualifier (CORE_TYPES), not the name written whole


def name_forms(entity: Entity, words_of: Callable[[str], list[str]]) -> Iterator[Form]:
    """The forms an entity is mentioned by, its name and aliases written whole (`words_of` splits a name)."""
    if entity.type not in MENTIONABLE_TYPES:
        return
    for name in {entity.name, *(a for a in entity.aliases if "/" not in a)}:
        words = words_of(name)
        if len(name) < MIN_MENTION_LENGTH or not words:
            continue
        multiword = len(words) > 1
        if not multiword and (entity.type in MULTIWORD_ONLY_TYPES or name.islower()):
            # A lower-case single word ("billing", "session") is ordinary prose, not a reference.
            continue
        yield Form(name, not multiword, entity.id)
        if multiword:
            phrase = " ".join(words)
            if phrase != name.lower():
                yield Form(phrase, False, entity.id)


def core_forms(entity_id: str, core: str) -> Iterator[Form]:
    """The forms of a title's core (`EntityDirectory._unique_cores`)."""
    yield Form(core, False, entity_id, core=True)
    phrase = " ".join(split_identifier(core))
    if phrase != core.lower():
        yield Form(phrase, False, entity_id, core=True)


PROSE_KINDS = frozenset({DocumentKind.MARKDOWN, DocumentKind.TEXT, DocumentKind.PASSAGE})
COMMENT_PREFIXES = ("#", "//", "/*", "*", '"""', "'''", "--")


def mentionable_text(chunk: Chunk) -> str:
    """Prose is read whole; in code only comments and docstrings count as mentions (calls are CALLS)."""
    if chunk.kind in PROSE_KINDS:
        return chunk.text
    return "\n".join(line for line in chunk.text.splitlines() if line.lstrip().startswith(COMMENT_PREFIXES))
