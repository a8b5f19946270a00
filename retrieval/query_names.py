"""Which words of a query name code: a query word links to a code entity only when it is written as a name.

In code, class names are English words (`When`, `Text`, `Table`, `Request`, `Update`), and the linking that wins on
encyclopedia questions (a title written in the question) misfires on them: "When is the cache cleared?" is no
question about a class `When`, and "SELECT and UPDATE" or "a GET request" name no `update` or `get` method. A word
names a code entity when it is written in code form (`snake_case`, `CamelCase`, `dotted.name`, in backticks, or
called with `()`), or as a capitalised word inside a sentence that is not a question word, nor a keyword written
in capitals (SQL, HTTP verbs, HTML): never as the first word of a sentence, nor in capitals unless the name is.
Titles of documents, sections and concepts keep being linked as they are written (the encyclopedia sets).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from trident.retrieval.written_names import WrittenNames, written_parts
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Entity, EntityType

CODE_TYPES = frozenset({EntityType.CLASS, EntityType.FUNCTION, EntityType.METHOD, EntityType.MODULE})
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_SENTENCE_END = re.compile(r"(?:^|[.!?:;\n])[\s\"'(\[*>#-]*$")
# Words that open or steer a question, capitalised or not: never a name on their own.
_QUESTION_TEXT = (
    "who what when where which why how whose whom is are was were do does did can could should would will shall "
    "may might must has have had if then else and or not the a an in on at of for to from by with without"
)
QUESTION_WORDS = frozenset(_QUESTION_TEXT.split())


def code_form(token: str) -> bool:
    """Whether a word is written as code: `snake_case`, `dotted.name` or `CamelCase` (a capital after a lower-case
    letter); a word all in capitals (`HTTP`, `UPDATE`) is not, unless it holds an underscore (`MAX_SIZE`)."""
    if "_" in token.strip("_") or "." in token:
        return True
    return any(c.islower() for c in token) and any(c.isupper() for c in token[1:])


def marked_as_code(text: str, start: int, end: int) -> bool:
    """Whether the word at text[start:end] is marked as code where it is written: in backticks or called (`()`)."""
    return text[start - 1 : start] == "`" or text[end : end + 1] in ("`", "(")


def at_sentence_start(text: str, start: int) -> bool:
    """Whether the word at `start` opens the text or a sentence (quotes, brackets and list marks aside)."""
    return _SENTENCE_END.search(text[:start]) is not None


def written_as_name(text: str, start: int, end: int, entity: Entity) -> bool:
    """Whether text[start:end] (a mention of `entity`) is written as the entity's name. Only code entities are
    read this way; a phrase of several words (`parse args` for `parse_args`) stays a mention, unless every word of
    it is a word questions are made of ("is a" names no `IS_A`)."""
    if entity.type not in CODE_TYPES:
        return True
    word = text[start:end]
    if " " in word.strip():
        return not all(part.casefold() in QUESTION_WORDS for part in word.split())
    if code_form(word) or marked_as_code(text, start, end):
        return True
    if word.isupper() and len(word) > 1 and word != entity.name:
        return False
    if word[:1].islower() and entity.type is EntityType.CLASS and entity.name[:1].isupper():
        return False  # "the palette" is what a class `Palette` is about, not the class
    return word.casefold() not in QUESTION_WORDS and not at_sentence_start(text, start)


def code_tokens(text: str) -> Iterator[str]:
    """The words of a text written as code (see `code_form` and `marked_as_code`), in order."""
    for m in _TOKEN.finditer(text):
        if code_form(m.group()) or marked_as_code(text, m.start(), m.end()):
            yield m.group()


def code_entities(directory: EntityDirectory, written: WrittenNames, token: str) -> list[str]:
    """Ids of the entities a word written as code means: a dotted one those it matches best as people write names,
    else those named as its last part (or the whole word); when none is, the code entities of the names it may be
    a misspelling of (`attrs.feilds`, `asTuple`, `HTMLFormatter`: `EntityDirectory.spelt_like`)."""
    parts = written_parts(token)
    if not parts:
        return []
    found = _named_as(directory, written, parts)
    if found:
        return found
    for spelt in directory.spelt_like(parts[-1]):
        found.extend(i for i in _named_as(directory, written, [*parts[:-1], spelt]) if _is_code(directory, i))
    return found


def _named_as(directory: EntityDirectory, written: WrittenNames, parts: list[str]) -> list[str]:
    """The entities `parts` match as people write names, else those named as the last part (or the whole)."""
    dotted = ".".join(parts)
    best = [w.entity.id for w in written.best(dotted)] if len(parts) > 1 else []
    if best:
        return best
    whole = [e.id for e in directory.named(dotted)] if len(parts) > 1 else []
    return [e.id for e in directory.named(parts[-1])] + whole


def _is_code(directory: EntityDirectory, entity_id: str) -> bool:
    entity = directory.by_id.get(entity_id)
    return entity is not None and entity.type in CODE_TYPES
