"""Why an impact answer may be short of what runs: each thing that can hide a caller or a test of the changed code,
counted. An answer with no reason is complete; any reason makes it a lower bound."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from trident.retrieval.callers import CallerWalk, calls_into
from trident.retrieval.change_map import SiteOwners
from trident.retrieval.definitions import ChunkReader
from trident.retrieval.relation_index import RelationIndex
from trident.store.catalog import Catalog
from trident.store.names.code_paths import CODE_LANGUAGES, TEXT_ONLY_CODE
from trident.store.names.directory import EntityDirectory
from trident.store.protocols import SearchFilter
from trident.store.schema import DocumentKind, Entity, RelationType, Resolution

# Files of languages Trident reads as text only: calls from them into the changed code are not edges.
UNBOUND_SUFFIXES = frozenset(TEXT_ONLY_CODE)
CODE_SUFFIXES = UNBOUND_SUFFIXES | set(CODE_LANGUAGES) | {".pyi"}
FAMILIES = {".pyi": ".py", ".jsx": ".js", ".mjs": ".js", ".cjs": ".js", ".ts": ".js", ".tsx": ".js", ".h": ".c"}
# Call sites read per name: a name written more often than this is not checked whole (and says so).
SITES_PER_NAME = 400
NAMES_CHECKED = 60
_DYNAMIC = re.compile(r"\bgetattr\(\s*[^,()]+,\s*([^)]{1,120})\)")
_LITERAL = re.compile(r"^[\"'](\w*)[\"']\s*(,|$)")
_PREFIX = re.compile(r"^f?[\"'](\w*)(?:\{|[\"']\s*[+%])")
# A base that makes a class a Protocol: `Protocol`, `typing.Protocol`, `t.Protocol[T]`, `typing_extensions.Protocol`
_PROTOCOL_BASE = re.compile(r"(?:^|[\s,.])Protocol\b")
# What a construction runs: written as a call of the class (`Item(...)`), which is the name its call sites write.
CONSTRUCTION = frozenset({"__init__", "__new__", "__post_init__"})
CALLABLES = frozenset({"Function", "Method"})


@dataclass(frozen=True)
class Finding:
    kind: str
    count: int
    detail: str


@dataclass(frozen=True)
class ReasonInputs:
    """What one impact answer found, for the reasons its completeness is checked against."""

    walk: CallerWalk
    index: RelationIndex
    least: Resolution
    names: dict[str, Entity]  # the changed and affected callables, by id
    projects: Sequence[str]
    guessed_tests: int = 0  # tests found only through a name guess
    tested_through: frozenset[str] = frozenset()  # the callables the walk for tests went through, by id
    wide: int = 0  # calls that walk left out: dispatches among more than `widest` functions
    widest: int = 0
    given: int = 0  # functions the walk for tests stopped at: they run what their callers pass them
    left_out: Sequence[str] = ()  # names of the tests reaching the change only through overrides of unmade classes


def reasons(catalog: Catalog, directory: EntityDirectory, read: ChunkReader, found: ReasonInputs) -> list[Finding]:
    """Every reason found, in a fixed order."""
    out: list[Finding] = list(_guesses(found))
    if found.wide:
        out.append(
            Finding(
                "wide_dispatch",
                found.wide,
                f"{found.wide} call(s) on the way to tests pick among more than {found.widest} functions by a key the "
                "input gives (a table of filters or handlers): the tests reaching the change only through them are "
                "not listed",
            )
        )
    given = max(found.walk.given, found.given)
    if given:
        out.append(
            Finding(
                "given_values",
                given,
                f"{given} function(s) on the way run what their callers pass them (a function, class or generator): "
                "a caller reaches the change only where it names or makes what it passes, so one passing on what "
                "another call returned is not listed",
            )
        )
    out.extend(_left_out(found))
    if found.walk.beyond:
        out.append(
            Finding(
                "max_hops",
                found.walk.beyond,
                f"{found.walk.beyond} caller(s) lie one call past max_hops: a larger max_hops walks further",
            )
        )
    out.extend(_implicit_runs(directory, found))
    out.extend(_uncalled(found))
    out.extend(_unbound_sites(catalog, directory, read, found))
    names = {e.name for e in found.names.values()}
    out.extend(_dynamic_access(catalog, read, found.projects, names))
    out.extend(_unread_files(catalog, found.projects))
    return out


def _guesses(found: ReasonInputs) -> Iterable[Finding]:
    """Calls into the affected code bound less surely than asked, and callers or tests reached only by a guess."""
    weaker = sum(found.walk.weaker.values())
    if weaker:
        yield Finding(
            "weaker_calls",
            weaker,
            f"{weaker} call(s) into the affected functions are bound less surely than "
            f"min_resolution={found.least.value!r} (name guesses): min_resolution='name' walks them too",
        )
    guessed = sum(1 for reach in found.walk.reached.values() if reach.resolution is Resolution.NAME)
    if guessed or found.guessed_tests:
        yield Finding(
            "guesses_on_the_way",
            guessed + found.guessed_tests,
            f"{guessed} caller(s) and {found.guessed_tests} test(s) reach the change only through a call bound by its "
            "name alone, or by making the class of a method nothing calls (`class <name>`): they may not run it",
        )


def _uncalled(found: ReasonInputs) -> Iterable[Finding]:
    """Changed functions nothing in the index calls, references or decorates into: what runs them is outside what
    the graph states (a framework calling hooks by their names, as PLY's parser runs each `p_` rule; a registry or
    plugin loaded by name; an entry point), or nothing does. Zero callers is then no sign of safety. (Special
    methods are `implicit_calls`.)"""
    starts = sorted(i for i, reach in found.walk.reached.items() if reach.hops == 0)
    uncalled = [
        entity.qualified_name
        for i in starts
        if (entity := found.names.get(i)) is not None
        and entity.type in CALLABLES
        and not _is_special(entity.name)
        and not (i in found.index.position and calls_into(found.index, found.index.position[i]))
    ]
    if uncalled:
        yield Finding(
            "no_callers",
            len(uncalled),
            f"{len(uncalled)} changed function(s) nothing in the index calls, e.g. {uncalled[0]}: code outside what "
            "the graph states may run them by name (a framework's hooks, a registry, a plugin, an entry point), or "
            "nothing does; zero callers here is no sign that a change is safe",
        )


def _left_out(found: ReasonInputs) -> Iterable[Finding]:
    """The tests left out as reaching the change only through overrides of classes they never make."""
    if found.left_out:
        named = ", ".join(found.left_out[:3])
        yield Finding(
            "unmade_overrides",
            len(found.left_out),
            f"{len(found.left_out)} test(s) reach the change only through an override of a class they never construct "
            f"(nor one deriving from it; for a class made from a name given at run time, such as a plugin, whose code "
            f"never names its module), so cannot run it, and are not listed (e.g. {named}); one making such an object "
            "in a way no call states (by a name read from a file or the environment) would",
        )


def _implicit_runs(directory: EntityDirectory, found: ReasonInputs) -> Iterable[Finding]:
    """Special methods among the affected functions or those the tests were found through: Python runs them
    without a call naming them (operators, `len`, `for`, `with`, `str()`, hashing, `copy` and `pickle`), and the
    graph has those runs only where the value's class is stated, so callers and tests may be hidden."""
    ids = sorted(set(found.names) | found.tested_through)
    special = [
        entity.qualified_name
        for i in ids
        if (entity := found.names.get(i) or directory.by_id.get(i)) is not None
        and _is_special(entity.name)
        and entity.name not in CONSTRUCTION
    ]
    if special:
        yield Finding(
            "implicit_calls",
            len(special),
            f"{len(special)} affected special method(s) Python runs without a call naming them (operators, len, "
            f"for, with, str, copy, pickle), e.g. {special[0]}: their callers are known only where a value's class "
            "is stated",
        )


def _is_special(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _unbound_sites(
    catalog: Catalog, directory: EntityDirectory, read: ChunkReader, found: ReasonInputs
) -> Iterable[Finding]:
    """Code that writes a call of an affected function's name (`x.name(`, `name(`) where no call edge from that
    code reaches it: a receiver the binder could not type, or a same-named function elsewhere."""
    owners = SiteOwners(catalog, directory, read)
    protocols = _Protocols(directory, read, found.index)
    callers = set(found.walk.reached)
    bound: dict[str, set[str]] = {}  # owner -> the names its calls are bound to, read once
    families: dict[str, set[str]] = {}
    for entity in found.names.values():
        families.setdefault(entity.name, set()).add(_family(entity.path or ""))
        if entity.name in CONSTRUCTION and "." in entity.qualified_name:  # `Item(...)` runs `Item.__init__`
            cls = entity.qualified_name.rsplit(".", 2)[-2]
            families.setdefault(cls, set()).add(_family(entity.path or ""))
    names = sorted(name for name in families if name.isidentifier())
    unchecked = max(0, len(names) - NAMES_CHECKED)
    sites: list[str] = []
    for name in names[:NAMES_CHECKED]:
        written = re.compile(rf"(?<![\w]){re.escape(name)}\s*\(")
        hits = catalog.text.search(name, SITES_PER_NAME, SearchFilter(catalog.tenant))
        chunks = read([h.id for h in hits])
        for chunk_id in sorted(chunks):
            chunk = chunks[chunk_id]
            if chunk.kind != DocumentKind.CODE or _family(chunk.path) not in families[name]:
                continue  # prose, or code in another language: it cannot call this function
            text = _without_definitions(chunk.text, name)
            for match in written.finditer(text):
                owner = owners.at(chunk, chunk.start_line + text.count("\n", 0, match.start()))
                if owner not in bound:
                    bound[owner] = _bound_names(found.index, owner, protocols)
                if owner not in callers and name not in bound[owner]:
                    sites.append(f"{chunk.citation} ({name})")
                    break
        unchecked += len(hits) >= SITES_PER_NAME
    if sites:
        examples = ", ".join(sites[:3])
        yield Finding(
            "unbound_calls",
            len(sites),
            f"{len(sites)} place(s) write a call of an affected name that no call edge binds to it, e.g. {examples}",
        )
    if unchecked:
        yield Finding("unchecked_names", unchecked, f"{unchecked} affected name(s) too common to check every call of")


def _bound_names(index: RelationIndex, owner: str, protocols: _Protocols) -> set[str]:
    """The names of what an entity's calls are bound to, surer than a guess: a call of `close()` in a method bound
    to another class's `close` is accounted for, not an unbound call of ours. One bound to a Protocol's method is
    not: what implements a Protocol does not derive from it, so no edge leads from that call to what runs."""
    found = index.touching(owner, (RelationType.CALLS.value,), outgoing=True)
    found = found[index.resolution_rank[found] < Resolution.NAME.rank]
    targets = (index.entity_ids[t] for t in index.target[found].tolist())
    return {t.rsplit(".", 1)[-1] for t in targets if not protocols.declares(t)}


class _Protocols:
    """Which methods a Protocol class declares (`class Serializer(t.Protocol):`, `Protocol[T]`), read from the
    header of the class each method is contained in, once per class."""

    def __init__(self, directory: EntityDirectory, read: ChunkReader, index: RelationIndex) -> None:
        self.directory, self.read, self.index = directory, read, index
        self.classes: dict[str, bool] = {}

    def declares(self, method: str) -> bool:
        containers = self.index.touching(method, (RelationType.CONTAINS.value,), outgoing=False)
        return any(self._is_protocol(self.index.entity_ids[c]) for c in self.index.source[containers].tolist())

    def _is_protocol(self, cls: str) -> bool:
        if cls not in self.classes:
            entity = self.directory.by_id.get(cls)
            chunk = self.read([entity.chunk_id]).get(entity.chunk_id) if entity and entity.chunk_id else None
            header = _class_header(chunk.text, entity.name) if chunk is not None and entity is not None else None
            self.classes[cls] = header is not None and _PROTOCOL_BASE.search(header) is not None
        return self.classes[cls]


def _class_header(text: str, name: str) -> str | None:
    """The bases a class statement writes for `name` (`(t.Protocol[T], Other)`), None when the text has none."""
    found = re.search(rf"\bclass\s+{re.escape(name)}\s*(?:\[[^\]]*\])?\s*\(([^)]*)\)", text)
    return found.group(1) if found is not None else None


def _without_definitions(text: str, name: str) -> str:
    return re.sub(rf"\b(?:def|class|function|func|fn)\s+{re.escape(name)}\b", "", text)


def _dynamic_access(catalog: Catalog, read: ChunkReader, projects: Sequence[str], names: set[str]) -> Iterable[Finding]:
    """`getattr(obj, <computed name>)` in the projects that may compute an affected name: a call reached by a name
    built at run time."""
    hits = catalog.text.search("getattr", SITES_PER_NAME, SearchFilter(catalog.tenant, tuple(projects)))
    chunks = read([h.id for h in hits])
    places = sorted(
        c.citation
        for c in chunks.values()
        if c.kind == DocumentKind.CODE and any(_may_name(m.group(1), names) for m in _DYNAMIC.finditer(c.text))
    )
    if places:
        yield Finding(
            "dynamic_access",
            len(places),
            f"{len(places)} place(s) call through a name computed at run time (getattr), e.g. {places[0]}",
        )


def _may_name(argument: str, names: set[str]) -> bool:
    """Whether a getattr's name argument may be one of `names`: a literal only if it is one; a literal prefix
    (`"visit_" + kind`, `f"on_{event}"`) if one starts with it; anything else (a variable) may be any name."""
    argument = argument.strip()
    if (literal := _LITERAL.match(argument)) is not None:
        return literal.group(1) in names
    if (prefix := _PREFIX.match(argument)) is not None:
        return any(n.startswith(prefix.group(1)) for n in names)
    return True


def _unread_files(catalog: Catalog, projects: Sequence[str]) -> Iterable[Finding]:
    """Files of the projects the graph does not hold calls from: skipped, or in a language without a binder."""
    manifest = catalog.manifest
    skipped = [f.path for p in projects for f in manifest.skipped.get(p, []) if _suffix(f.path) in CODE_SUFFIXES]
    if skipped:
        yield Finding("skipped_files", len(skipped), f"{len(skipped)} file(s) skipped at indexing, e.g. {skipped[0]}")
    wanted = set(projects)
    unbound = sorted(
        e.path for e in manifest.documents.values() if e.project in wanted and _suffix(e.path) in UNBOUND_SUFFIXES
    )
    if unbound:
        yield Finding(
            "languages_without_binder",
            len(unbound),
            f"{len(unbound)} file(s) in languages whose calls are not bound, e.g. {unbound[0]}",
        )


def _family(path: str) -> str:
    """The language family a file's calls can reach into (TypeScript calls JavaScript); its suffix otherwise."""
    suffix = _suffix(path)
    return FAMILIES.get(suffix, suffix)


def _suffix(path: str) -> str:
    return posixpath.splitext(path)[1].lower()
