"""The existing callable a missing one most likely became, found by what the prose says of it rather than by its
first word: `send_batch(items)` in "call `send_batch(items)` to post the items" when the project has
`post_items(items)` and no `send_batch`.

Every piece of evidence is required, since a name with no near spelling is as likely another library's:
- the prose calls the name with parameter names, and the candidate takes exactly those (positional ones in order,
  keyword ones by name, the count within its range);
- the sentence that calls the missing name (with the missing name's own words) holds every word of the candidate's
  name, or at least half of them and two words of the candidate's docstring (content words, not the call's own);
- the candidate is the only callable of its project to pass both, among at most MAX_CANDIDATES of those words;
- the missing name is no standard-library function and appears nowhere at the head of the project's modules (where
  imports and aliases are written) nor in the candidate's own definition: code that still uses it gets it elsewhere.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from trident.retrieval.signatures import arity_of
from trident.store.names.identifiers import split_identifier
from trident.store.schema import Chunk, Entity, EntityType

Definitions = Callable[[Sequence[str]], dict[str, Chunk]]  # chunk id -> chunk (the definitions' text)
MIN_NAME_WORDS = 2  # a one-word candidate (`post`, `send`) matches too many sentences to mean anything
MIN_CONTENT_LENGTH = 4  # shorter words (`to`, `the`, `id`) say nothing of what a callable does
DESCRIBED_WORDS = 2  # docstring words the sentence must share when it leaves some of the name's words out
MAX_CANDIDATES = 64  # more callables with the sentence's words: the words single none of them out
BATCH = 500
# Function words long enough to pass MIN_CONTENT_LENGTH, which any sentence and docstring may share.
_FUNCTION_WORDS = frozenset(
    {"with", "from", "that", "this", "these", "those", "each", "when", "then", "than", "into", "also", "only", "their"}
    | {"there", "which", "what", "will", "must", "should", "could", "would", "have", "does", "call", "calls", "called"}
    | {"return", "returns", "given", "none", "true", "false", "used", "uses", "after", "before", "other"}
)
# Standard-library modules whose functions prose calls bare (`dumps(obj)`, `quote_plus(text)`, `make_archive(...)`):
# read once per index generation, on the first call checked by meaning, so that none is taken for a missing name.
STDLIB_MODULES = (
    "os", "os.path", "sys", "json", "re", "shutil", "subprocess", "itertools", "functools", "collections", "math",
    "string", "time", "datetime", "pathlib", "typing", "logging", "urllib.parse", "urllib.request", "asyncio", "io",
    "inspect", "textwrap", "operator", "copy", "glob", "fnmatch", "tempfile", "random", "hashlib", "base64",
    "struct", "contextlib", "dataclasses", "threading", "socket", "pickle", "csv", "html", "uuid", "zlib",
)  # fmt: skip
# A sentence ends at a stop before a capital or a code name, at a blank line or before a list item.
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+(?=[A-Z`*_(\[])|\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.)\s)")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_ARGUMENT = re.compile(r"^\*{0,2}([A-Za-z_]\w*)\s*(=)?")


class NamedCall(Protocol):
    """A reference as `stale_references` reads it from prose: the name, as written with its call, the dotted head."""

    @property
    def name(self) -> str: ...
    @property
    def written(self) -> str: ...
    @property
    def head(self) -> str | None: ...
    @property
    def arguments(self) -> int | None: ...


@dataclass(frozen=True)
class CallArguments:
    """The parameter names a call written in prose passes: `(items, timeout=5)`."""

    positional: tuple[str, ...]
    keywords: frozenset[str]

    @classmethod
    def of(cls, written: str) -> CallArguments | None:
        opened = written.find("(")
        if opened < 0 or not written.endswith(")"):
            return None
        positional: list[str] = []
        keywords: set[str] = set()
        for part in written[opened + 1 : -1].split(","):
            found = _ARGUMENT.match(part.strip())
            if found is None or part.strip().startswith("*"):
                return None  # `*args` passes any number: nothing to compare
            if found.group(2):
                keywords.add(found.group(1))
            else:
                positional.append(found.group(1))
        return cls(tuple(positional), frozenset(keywords)) if positional or keywords else None

    def words(self) -> set[str]:
        return {word for name in (*self.positional, *self.keywords) for word in split_identifier(name)}

    def fit(self, names: tuple[str, ...]) -> bool:
        """Whether a definition with these parameter names takes the call by name."""
        return names[: len(self.positional)] == self.positional and self.keywords <= set(names)


class MeaningIndex:
    """Each project's public functions and methods by the words of their names, and the names the heads of its
    modules use (imports, aliases), read on first need."""

    def __init__(self) -> None:
        self.by_word: dict[tuple[str, str], set[str]] = {}  # (project, word) -> names of callables
        self.entities: dict[tuple[str, str], list[Entity]] = {}  # (project, name) -> its callables
        self.module_chunks: dict[str, list[str]] = {}  # project -> each module's first chunk
        self._used: dict[str, frozenset[str]] = {}
        self._stdlib: frozenset[str] | None = None

    def add(self, entity: Entity) -> None:
        if entity.type == EntityType.MODULE and entity.chunk_id:
            self.module_chunks.setdefault(entity.project, []).append(entity.chunk_id)
        if entity.type not in (EntityType.FUNCTION, EntityType.METHOD) or entity.name.startswith("_"):
            return
        words = split_identifier(entity.name)
        if len(set(words)) < MIN_NAME_WORDS or not entity.chunk_id:
            return
        self.entities.setdefault((entity.project, entity.name), []).append(entity)
        for word in words:
            self.by_word.setdefault((entity.project, word), set()).add(entity.name)

    def used(self, project: str, definitions: Definitions) -> frozenset[str]:
        """Every identifier the first chunk of one of the project's modules writes."""
        found = self._used.get(project)
        if found is None:
            ids = self.module_chunks.get(project, [])
            names: set[str] = set()
            for start in range(0, len(ids), BATCH):
                for chunk in definitions(ids[start : start + BATCH]).values():
                    names.update(_IDENTIFIER.findall(chunk.text))
            found = self._used[project] = frozenset(names)
        return found

    def stdlib(self) -> frozenset[str]:
        """The public names of STDLIB_MODULES (each ships with the interpreter and imports without side effects)."""
        if self._stdlib is None:
            self._stdlib = frozenset(name for m in STDLIB_MODULES for name in dir(importlib.import_module(m)))
        return self._stdlib

    def named_by(self, project: str, words: set[str]) -> list[str]:
        """The project's callables with at least half of their name words among `words`, in name order."""
        near = set().union(*(self.by_word.get((project, word), set()) for word in words))
        return sorted(name for name in near if 2 * len(set(split_identifier(name)) & words) >= _word_count(name))


def nearest_by_meaning(
    index: MeaningIndex, project: str, reference: NamedCall, prose: str, definitions: Definitions
) -> Entity | None:
    """The one callable of `project` the sentence calling the missing `reference` describes, with its parameters;
    None unless all the evidence of the module's docstring holds."""
    called = CallArguments.of(reference.written) if reference.arguments else None
    if called is None or reference.name in index.stdlib():
        return None
    words = set(split_identifier(sentence_of(prose, reference.written))) | set(split_identifier(reference.name))
    content = {w for w in words if len(w) >= MIN_CONTENT_LENGTH} - _FUNCTION_WORDS - called.words()
    content -= set(split_identifier(reference.name))
    names = [name for name in index.named_by(project, words) if case_style(name) == case_style(reference.name)]
    described = [n for n in names if set(split_identifier(n)) <= words or _describes(content, index, project, n)]
    entities = [e for name in described for e in index.entities[(project, name)] if _under(e, reference.head)]
    if not entities or len(entities) > MAX_CANDIDATES:
        return None
    chunks = definitions([e.chunk_id for e in entities if e.chunk_id])
    fitting: dict[str, Entity] = {}
    for entity in entities:
        chunk = chunks.get(entity.chunk_id or "")
        if chunk is not None and _takes(chunk.text, entity, reference, called):
            fitting.setdefault(entity.name, entity)
    if len(fitting) != 1 or reference.name in index.used(project, definitions):
        return None
    return next(iter(fitting.values()))


def _describes(content: set[str], index: MeaningIndex, project: str, name: str) -> bool:
    """Whether the sentence's content words hold DESCRIBED_WORDS of one docstring of the name's callables."""
    docstrings = (set(split_identifier(e.description)) for e in index.entities[(project, name)])
    return any(len(content & words) >= DESCRIBED_WORDS for words in docstrings)


def _word_count(name: str) -> int:
    return len(set(split_identifier(name)))


def _takes(text: str, entity: Entity, reference: NamedCall, called: CallArguments) -> bool:
    """Whether the candidate's definition in `text` takes the call by name, and does not use the missing name."""
    arity = arity_of(text, entity.name, entity.type == EntityType.METHOD)
    if arity is None or not arity.accepts(reference.arguments or 0) or not called.fit(arity.names):
        return False
    return reference.name not in _IDENTIFIER.findall(text)


def sentence_of(prose: str, written: str) -> str:
    """The sentence of `prose` that writes `written` (its first), or "" when it is not found as written."""
    at = prose.find(written)
    if at < 0:
        return ""
    starts = [m.end() for m in _SENTENCE_END.finditer(prose, 0, at)]
    after = _SENTENCE_END.search(prose, at + len(written))
    return prose[starts[-1] if starts else 0 : after.start() if after else len(prose)]


def _under(entity: Entity, head: str | None) -> bool:
    return head is None or head in entity.qualified_name.split(".")


def case_style(name: str) -> str:
    """snake (lower case, underscores), camel (lower first, humps) or pascal (upper first)."""
    bare = name.strip("_")
    if bare[:1].isupper():
        return "pascal"
    return "camel" if any(c.isupper() for c in bare) else "snake"
