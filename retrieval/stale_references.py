"""Prose that names a code entity its project no longer has, or calls it with an argument count no definition takes.

Read in a hit's prose only: a document's text outside fenced code, a code chunk's comments and docstrings. A name is
taken for a code reference only in forms that leave no doubt: a call (`charge_card(order)`, backticked or in running
text) or a reST role (:func:`charge_card`); a dotted one's head must be one of the project's classes or modules
(`Gateway.charge()`, not `requests.get()`). A name its project has (in any case style), or another project has
exactly, is not stale. A missing one is flagged only when its project has a name close to it (a rename, most likely),
or, for a call, when the sentence calling it describes one callable of the project that takes the same parameters
(`stale_meaning`): a name with nothing near is more likely another library's."""

from __future__ import annotations

import builtins
import difflib
import keyword
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from trident.retrieval.flags import StaleReferenceFlag
from trident.retrieval.signatures import Arity, arity_of, call_arguments
from trident.retrieval.source_kinds import SourceKind
from trident.retrieval.stale_meaning import Definitions as Definitions
from trident.retrieval.stale_meaning import MeaningIndex, case_style, nearest_by_meaning
from trident.store.names.directory import EntityDirectory
from trident.store.names.identifiers import split_identifier
from trident.store.schema import Chunk, Entity, EntityType

NEAR_CUTOFF = 0.75  # difflib ratio from which a project's name is taken for the renamed one
CODE_TYPES = frozenset({EntityType.FUNCTION, EntityType.METHOD, EntityType.CLASS})
CALLABLE_TYPES = frozenset({EntityType.FUNCTION, EntityType.METHOD})
_KNOWN_ELSEWHERE = frozenset(dir(builtins)) | frozenset(keyword.kwlist) | frozenset(sys.stdlib_module_names)
_RECEIVERS = ("self.", "cls.", "this.", "super().")

_ROLE = re.compile(r":(?:py:)?(func|meth|class):`~?!?([A-Za-z_][\w.]*)(?:\(\))?`")
_INLINE = re.compile(r"``?([A-Za-z_][\w.]*)(\([^()`]*\))?``?")
_CALL = re.compile(r"(?<![\w.`$@])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\([^()\n]*\))")
_NAMED_ARGUMENT = re.compile(r"^\*{0,2}[A-Za-z_]\w*(?:\s*=\s*\S.*)?$")
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z][a-z]+[A-Z]")
# A docstring opens the chunk or follows a `def ...:`/`class ...:` line; other triple-quoted strings are data (a test's
# sample source, a template), not prose.
_PY_DOCSTRING = re.compile(r'(?:\A|:[ \t]*(?:#[^\n]*)?\n)\s*[rRuU]?("""|\'\'\')(.*?)\1', re.DOTALL)
_PY_STRING_BLOCK = re.compile(r'("""|\'\'\')(.*?)\1', re.DOTALL)
_PY_COMMENT = re.compile(r"(?<![\"'])#(.*)$", re.MULTILINE)
_C_COMMENT = re.compile(r"//(.*)$|/\*(.*?)\*/", re.MULTILINE | re.DOTALL)
_DEFINED = re.compile(r"\b(?:def|class|func|function|fn)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)")
_FENCE = re.compile(r"^\s*(```|~~~).*?^\s*\1", re.MULTILINE | re.DOTALL)
_C_LIKE = frozenset({"go", "javascript", "typescript", "tsx", "java", "rust", "c", "cpp", "csharp", "kotlin", "swift"})


@dataclass(frozen=True)
class Reference:
    """A code name as prose writes it: `name` the entity's own name, `written` the form found, `arguments` the
    number of arguments of a call (None: not a call, or one whose arguments are elided)."""

    name: str
    written: str
    head: str | None  # a dotted name's first part, checked to be the project's
    arguments: int | None
    strong: bool  # a call or a role: a code name for sure


class ProjectNames:
    """Each project's class, function and method names, for the nearest one to a missing name; built once per
    entity directory (an index generation), on the first missing name."""

    def __init__(self, directory: EntityDirectory) -> None:
        self.by_project: dict[str, dict[str, list[Entity]]] = {}
        self.heads: dict[str, set[str]] = {}  # per project: class and module names, a dotted reference's heads
        self.meaning = MeaningIndex()
        for entity in directory.by_id.values():
            self.meaning.add(entity)
            if entity.type in CODE_TYPES:
                self.by_project.setdefault(entity.project, {}).setdefault(entity.name, []).append(entity)
            if entity.type in (EntityType.CLASS, EntityType.MODULE):
                self.heads.setdefault(entity.project, set()).update({entity.name, entity.qualified_name})
        # (project, case style, first word) -> names: the only names a missing one is compared with (a comparison
        # with every name of the style took 0.65 ms p50 at the 10K-chunk bench index, with these 0.005 ms)
        self.sorted: dict[tuple[str, str, str], list[str]] = {}
        for project, named in self.by_project.items():
            for name in sorted(named):
                self.sorted.setdefault((project, case_style(name), _first_word(name)), []).append(name)

    def nearest(self, project: str, name: str) -> Entity | None:
        """The project's closest name of the same case style and first word (a rename keeps its style; `ConnectEx`
        is not a renamed `connect`, it is another API's), or None when none is close."""
        names = self.sorted.get((project, case_style(name), _first_word(name)), [])
        close = difflib.get_close_matches(name, names, n=1, cutoff=NEAR_CUTOFF)
        return min(self.by_project[project][close[0]], key=lambda e: e.id) if close else None


def _first_word(name: str) -> str:
    """A name's first word: a rename seldom changes it (`compute_total` -> `compute_order_total`), while a C call
    named in a comment only shares a tail with the project's wrapper (`sem_unlink`, `unlink`)."""
    words = split_identifier(name)
    return words[0] if words else ""


PROJECT_NAMES = "project_names"  # the key of each directory's names (`EntityDirectory.derived`)


def project_names(directory: EntityDirectory) -> ProjectNames:
    return directory.derived(PROJECT_NAMES, ProjectNames)


def prose_of(chunk: Chunk, kind: SourceKind) -> str:
    """The prose of a chunk: a document outside its fenced code, a code chunk's docstrings and comments."""
    if kind is SourceKind.DOC:
        return _FENCE.sub("", chunk.text)
    if kind is not SourceKind.CODE:
        return ""
    language = (chunk.language or "").lower()
    if language == "python":
        parts = [m.group(2) for m in _PY_DOCSTRING.finditer(chunk.text)]
        code = _PY_STRING_BLOCK.sub("", chunk.text)
        return "\n".join(parts + [m.group(1) for m in _PY_COMMENT.finditer(code)])
    if language in _C_LIKE:
        return "\n".join(m.group(1) or m.group(2) or "" for m in _C_COMMENT.finditer(chunk.text))
    return ""


def references(prose: str) -> Iterator[Reference]:
    """The code names the prose writes in one of the forms of the module's docstring, once each."""
    seen: set[str] = set()
    lines = "\n".join(line for line in prose.splitlines() if not line.lstrip().startswith((">>>", "...", "$")))
    found: list[tuple[str, str | None, bool]] = [(m.group(2), None, True) for m in _ROLE.finditer(lines)]
    found += [(m.group(1), m.group(2), False) for m in _INLINE.finditer(lines)]
    found += [(m.group(1), m.group(2), False) for m in _CALL.finditer(_ROLE.sub("", _INLINE.sub("", lines)))]
    for written, call, role in found:
        reference = _reference(written, call, role)
        if reference is not None and reference.written not in seen:
            seen.add(reference.written)
            yield reference


def _reference(written: str, call: str | None, role: bool) -> Reference | None:
    for receiver in _RECEIVERS:
        if written.startswith(receiver):
            written = written[len(receiver) :]
    parts = written.split(".")
    name = parts[-1]
    head = parts[0] if len(parts) > 1 else None
    if not name or name.startswith("__") or name.isupper() or name in _KNOWN_ELSEWHERE:
        return None
    if head is not None and (head in _KNOWN_ELSEWHERE or head.isupper()):
        return None
    codelike = "_" in name.strip("_") or bool(_CAMEL.search(name)) or head is not None
    if not (role or (call is not None and codelike)):
        return None  # a name not called: as likely a variable, a field or an attribute, which are not entities
    # Only a call written with parameter names describes the signature: `get_entity("Foo")` or `Charge(1)` shows a
    # use, often of another surface (a tool, a CLI, a binding) that shares the name.
    arguments = call_arguments(call) if call is not None and _named_arguments(call) else None
    shown = f"{written}{call or ''}"
    return Reference(name, shown, head, arguments, strong=role or call is not None)


def _named_arguments(call: str) -> bool:
    return all(_NAMED_ARGUMENT.match(part.strip()) for part in call[1:-1].split(","))


Citations = Callable[[Sequence[str]], dict[str, str]]  # chunk id -> citation


def stale_references(
    chunk: Chunk,
    kind: SourceKind,
    directory: EntityDirectory,
    definitions: Definitions,
    citations: Citations,
) -> list[StaleReferenceFlag]:
    """The flags for the chunk's prose references to code its project no longer has, or calls otherwise."""
    prose = prose_of(chunk, kind)
    if not prose:
        return []
    defined_here = set(_DEFINED.findall(chunk.text))
    flags = []
    for reference in references(prose):
        if reference.name in defined_here or (kind is SourceKind.CODE and reference.name.startswith("_")):
            continue  # a comment's private name is the module's own helper, alias or attribute, seldom an entity
        flag = _check(chunk.project, reference, prose, directory, (definitions, citations))
        if flag is not None:
            flags.append(flag)
    return flags


def _check(
    project: str, reference: Reference, prose: str, directory: EntityDirectory, read: tuple[Definitions, Citations]
) -> StaleReferenceFlag | None:
    # Its own project may write the name in another case style; another project's entity must be the name itself
    # (`compute_total` in a Python project's doc is not a TypeScript project's `computeTotal`).
    existing = [
        e
        for e in directory.named(reference.name)
        if e.project == project or e.name == reference.name or reference.name in e.aliases
    ]
    definitions, citations = read
    names = project_names(directory)
    if existing:
        ours = reference.head is None or reference.head in names.heads.get(project, ())
        return _arity_flag(project, reference, existing, definitions, citations) if ours else None
    if reference.head is not None and reference.head not in names.heads.get(project, ()):
        return None  # `obj.attr` or `lib.call()` with no head of this project's: an attribute or another library's
    near = names.nearest(project, reference.name)
    found = f"nearest: `{near.name}`" if near is not None else ""
    if near is None and reference.strong:
        near = nearest_by_meaning(names.meaning, project, reference, prose, definitions)
        found = f"the one taking its parameters that the text describes: `{near.name}`" if near is not None else ""
    if near is None:
        return None
    see = citations([near.chunk_id]).get(near.chunk_id) if near.chunk_id else None
    detail = f"no `{reference.name}` in project {project} (renamed or removed?); {found}"
    return StaleReferenceFlag(name=reference.written, detail=detail, see=see)


def _arity_flag(
    project: str, reference: Reference, existing: list[Entity], definitions: Definitions, citations: Citations
) -> StaleReferenceFlag | None:
    """A flag when the reference calls the name with a count of arguments none of its project's definitions
    takes (a plain word such as `get(url)` is too likely another library's to be checked)."""
    if not reference.arguments:
        return None
    own = [e for e in existing if e.type in CALLABLE_TYPES and e.chunk_id and e.project == project]
    if not own or not ("_" in reference.name.strip("_") or _CAMEL.search(reference.name) or reference.head):
        return None
    chunks = definitions([e.chunk_id for e in own if e.chunk_id])
    arities: list[tuple[Entity, Arity]] = []
    for entity in own:
        chunk = chunks.get(entity.chunk_id or "")
        arity = arity_of(chunk.text, entity.name, entity.type == EntityType.METHOD) if chunk is not None else None
        if arity is None or arity.accepts(reference.arguments):
            return None  # a definition that takes the call, or one not read: no flag
        arities.append((entity, arity))
    entity, arity = arities[0]
    see = citations([entity.chunk_id]).get(entity.chunk_id) if entity.chunk_id else None
    detail = f"`{reference.written}` passes {reference.arguments} argument(s); `{entity.name}` takes {arity}"
    return StaleReferenceFlag(name=reference.written, detail=detail, see=see)
