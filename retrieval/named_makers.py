"""The tests that can hold an object of a class made from a name given at run time.

A plugin, an extension or a backend is often made from a string: `Markdown(extensions=["smarty"])` finds
`markdown.extensions.smarty` through its entry point and calls the module's `makeExtension`;
`Environment(extensions=["jinja2.ext.do"])` imports what the string names. No call the index holds makes such a class,
so any test seemed to hold one. Only code that writes its module's name can load it: a string naming the module
(`"markdown.extensions.smarty"`, `"jinja2.ext.do"`, `"pkg.mod:Class"`, or the module's own last name, `"smarty"`, as an
entry point or a registry names it). The tests that can hold one are then those of the test files writing such a
string (and the tests of classes deriving from those files' classes), those calling a helper of such a file, and the
tests that can hold what a library module naming it loads, where that module is itself loaded only by name.

Where that cannot be told, the answer is None (any test may hold one): nothing writes the name (the class is made some
other way), a `conftest.py` writes it (its fixtures reach any test), library code that ordinary calls reach writes it
(a default list, a registry every call reads), more files write the module's last name than a search reads."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from trident.retrieval.callers import WALKED
from trident.retrieval.definitions import ChunkReader
from trident.retrieval.relation_index import RelationIndex
from trident.retrieval.test_reach import Linked, is_test
from trident.store.catalog import Catalog
from trident.store.names.code_paths import is_test_path
from trident.store.names.directory import EntityDirectory
from trident.store.protocols import SearchFilter
from trident.store.schema import Chunk, DocumentKind, Entity, RelationType, Resolution, document_id

SITES = 400  # chunks writing a module's last name read at most; more, and which tests name it is not told
DEPTH = 2  # library modules naming it in turn followed at most this deep
_STRING = re.compile(r"""(?<![\w'"])[rRuU]?(['"])([A-Za-z_][\w.:]*)\1""")
_FIXTURES = "conftest.py"
IMPORTS = RelationType.IMPORTS

Holders = frozenset[str] | None


class NamedMakers:
    """Which tests write the name of a module, for the classes of one generation (kept with its relation index)."""

    def __init__(self, catalog: Catalog, directory: EntityDirectory, read: ChunkReader, index: RelationIndex) -> None:
        self._catalog, self._directory, self._read, self._index = catalog, directory, read, index
        self._linked = Linked(index)
        self._modules: dict[tuple[str, str], Holders] = {}

    def tests_holding(self, class_id: str) -> Holders:
        """The tests that can hold an instance of the class, made only from a name given at run time; None where
        any test may."""
        entity = self._directory.by_id.get(class_id)
        if entity is None or not entity.path or is_test_path(entity.path):
            return None
        return self._holders(entity.project, entity.path, 0)

    def tests_of_module(self, entity_id: str) -> Holders:
        """The tests that can hold what a test module or a class body in it makes as it is imported (`env =
        Environment(...)` at its top level): the file's own tests, and those of the test files importing from it;
        None for a `conftest.py` (its fixtures reach any test) or library code."""
        entity = self._directory.by_id.get(entity_id)
        if entity is None or not is_test_path(entity.path or "") or posixpath.basename(entity.path or "") == _FIXTURES:
            return None
        importers = self._linked.ends([e.id for e in self._defined(entity.project, entity.path or "")], IMPORTS)
        files = {(entity.project, entity.path or "")} | {
            (e.project, e.path or "")
            for i in importers
            if (e := self._directory.by_id.get(i)) is not None and is_test_path(e.path or "")
        }
        return frozenset(t for project, path in sorted(files) for t in self._tests_of_file(project, path))

    def _holders(self, project: str, path: str, depth: int) -> Holders:
        key = (project, path)
        if key not in self._modules:
            self._modules[key] = None  # (a module naming itself back through another: nothing more is told)
            self._modules[key] = self._read_holders(project, path, depth)
        return self._modules[key]

    def _read_holders(self, project: str, path: str, depth: int) -> Holders:
        module = self._directory.import_names().python_module(project, path)
        if not module:
            return None
        last = module.rpartition(".")[2]
        hits = self._catalog.text.search(last, SITES, SearchFilter(self._catalog.tenant, (project,)))
        if len(hits) >= SITES:
            return None
        found: set[str] = set()
        naming = [c for c in self._read([h.id for h in hits]).values() if c.path != path and _names(c, module, last)]
        if not naming:
            return None  # (nothing names it: it is made some other way, `Base.__subclasses__()`, `globals()[name]`)
        for chunk in naming:
            if posixpath.basename(chunk.path) == _FIXTURES:
                return None
            if is_test_path(chunk.path):
                found |= self._tests_of_file(chunk.project, chunk.path)
                continue
            loaded = self._holders(chunk.project, chunk.path, depth + 1) if depth < DEPTH else None
            if loaded is None or self._called_from_outside(chunk.project, chunk.path):
                return None
            found |= loaded
        return frozenset(found)

    def _tests_of_file(self, project: str, path: str) -> set[str]:
        """The tests a test file defines, those of classes deriving from its classes, and the tests calling its
        other functions (helpers)."""
        defined = list(self._defined(project, path))
        tests = {e.id for e in defined if is_test(e)}
        classes = [e.id for e in defined if e.type == "Class"]
        below = self._linked.derived(classes)
        members = self._linked.ends(below, RelationType.CONTAINS, outgoing=True)
        tests |= {i for i in members if (e := self._directory.by_id.get(i)) is not None and is_test(e)}
        helpers = [e.id for e in defined if e.type in ("Function", "Method") and not is_test(e)]
        callers = self._linked.ends(helpers, RelationType.CALLS)
        tests |= {i for i in callers if (e := self._directory.by_id.get(i)) is not None and is_test(e)}
        return tests

    def _called_from_outside(self, project: str, path: str) -> bool:
        """Whether library code of another file imports, calls or references a definition of this one (or the
        module) by a binding surer than dispatch: then ordinary calls reach it, not only a name given at run time."""
        index = self._index
        for entity in self._defined(project, path):
            numbers = index.touching(entity.id, (*WALKED, IMPORTS.value), outgoing=False)
            sure = numbers[index.resolution_rank[numbers] < Resolution.DISPATCH.rank]
            for source in index.source[sure].tolist():
                caller = self._directory.by_id.get(index.entity_ids[source])
                if caller is not None and caller.path != path and not is_test_path(caller.path or ""):
                    return True
        return False

    def _defined(self, project: str, path: str) -> Iterator[Entity]:
        entry = self._catalog.manifest.documents.get(document_id(project, path))
        ids = entry.entity_ids if entry is not None else []
        yield from (e for i in ids if (e := self._directory.by_id.get(i)) is not None)


def _names(chunk: Chunk, module: str, last: str) -> bool:
    """Whether a string literal in a chunk of code names the module: its import name, a name inside it
    (`"jinja2.ext.do"`, `"pkg.mod:Class"`), or its last name alone (`"smarty"`)."""
    if chunk.kind != DocumentKind.CODE:
        return False
    for match in _STRING.finditer(chunk.text):
        written = match.group(2)
        if written in (module, last) or written.startswith((f"{module}.", f"{module}:")):
            return True
    return False
