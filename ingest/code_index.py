"""Finishing Python references against every indexed project: qualified names, re-exports and class bases.

A parser names a call's target as precisely as its file allows (`trident.ingest.languages.python_scope`); only
here, with every project's entities, is it known what `httpcore.ConnectionPool` is: a class defined in
`httpcore/_sync/connection_pool.py` of the project `httpcore` and re-exported by its `__init__`.

- A qualified name matches an entity's qualified name, or its import name: the dotted path from the topmost
  folder of its package (folders with an `__init__.py`), so `src/httpx/_client.py` is imported as `httpx._client`.
- A name the entity lacks is looked up in what it stands for: a member of a class (through the class's bases,
  nearest first), or a name a package re-exports (the one definition of that name inside the package).
- A member is looked up in its class, then its bases breadth first (each level in declared order when the bases
  are known from this run, else by id); never in an unrelated class that happens to define the same name.
- A bare name (`form` NAME) is a guess, kept only when exactly one entity of the project has that name (one in
  test code counts only for a caller in test code).
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TypeAlias

from trident.ingest.code import module_name
from trident.ingest.model import Reference, TargetForm
from trident.store.manifest import PendingReference
from trident.store.schema import Entity, EntityType, Resolution

CODE_TYPES = frozenset(
    {EntityType.MODULE.value, EntityType.CLASS.value, EntityType.FUNCTION.value, EntityType.METHOD.value}
)
PYTHON_SUFFIXES = (".py", ".pyi")
MAX_DEPTH = 8  # re-exports of re-exports and base chains deeper than this are not followed
MAX_BASES = 64  # classes visited per member lookup

AnyReference: TypeAlias = Reference | PendingReference


def is_python(entity: Entity) -> bool:
    return entity.type in CODE_TYPES and (entity.path or "").endswith(PYTHON_SUFFIXES)


class CodeIndex:
    """Python code entities by qualified and import name, with the bases of each class."""

    def __init__(self, entities: Iterable[Entity], bases: Iterable[tuple[str, str]] = ()) -> None:
        code = sorted((e for e in entities if is_python(e)), key=lambda e: e.id)
        self._by_id = {e.id: e for e in code}
        self._by_name: dict[str, list[Entity]] = defaultdict(list)
        self._by_short: dict[str, list[Entity]] = defaultdict(list)
        self._top_level: dict[str, list[Entity]] = defaultdict(list)  # short name -> module-level definitions
        self._bases: dict[str, list[str]] = defaultdict(list)
        import_names = _import_names([e for e in code if e.type == EntityType.MODULE.value])
        for e in code:
            self._by_name[e.qualified_name].append(e)
            self._by_short[e.name].append(e)
            module_q = module_name(e.path or "")
            if e.type != EntityType.MODULE.value and e.qualified_name == f"{module_q}.{e.name}":
                self._top_level[e.name].append(e)
            imported = import_names.get((e.project, e.path or ""), module_q)
            if imported != module_q and e.qualified_name.startswith(module_q):
                self._by_name[imported + e.qualified_name[len(module_q) :]].append(e)
        self.add_bases(bases)

    def add_bases(self, bases: Iterable[tuple[str, str]]) -> None:
        """(class id, base id) pairs, in the order the class declares them when known."""
        for cls, base in bases:
            if base not in self._bases[cls] and base != cls:
                self._bases[cls].append(base)

    def resolve(self, ref: AnyReference, project: str) -> tuple[list[Entity], Resolution]:
        """The entities a Python reference binds to and how surely; ([], ...) when none in the index."""
        types = set(ref.target_types) or set(CODE_TYPES)
        form, resolution = TargetForm(ref.form), Resolution(ref.resolution)
        if form is TargetForm.QUALIFIED:
            found = self._qualified(ref.target, project, 0)
        elif form is TargetForm.MEMBER:
            owner = self._qualified(ref.owner, project, 0)
            classes = [e for e in owner if e.type == EntityType.CLASS.value]
            if not classes and owner:  # a factory's result: its type is not stated, so only the name is known
                return self._named(ref.target, project, types, ref.source), Resolution.NAME
            found = self._member(classes[0], ref.target, skip_first=ref.after_owner) if classes else []
        else:
            return self._named(ref.target, project, types, ref.source), Resolution.NAME
        found = [e for e in found if e.type in types and e.id != ref.source]
        return found, resolution

    def _qualified(self, name: str, project: str, depth: int) -> list[Entity]:
        if not name or depth > MAX_DEPTH:
            return []
        found = _prefer(self._by_name.get(name, []), project)
        if found:
            return found
        head, _, last = name.rpartition(".")
        if not head:
            return []
        for owner in self._qualified(head, project, depth + 1)[:1]:
            if owner.type == EntityType.CLASS.value:
                return self._member(owner, last, skip_first=False)
            if owner.type == EntityType.MODULE.value:
                return self._reexported(owner, last)
        return []

    def _member(self, cls: Entity, name: str, *, skip_first: bool) -> list[Entity]:
        """`name` defined on the class or, nearest first, on its bases."""
        for current in self._lineage(cls)[1 if skip_first else 0 :]:
            found = self._by_name.get(f"{current.qualified_name}.{name}", [])
            if found:
                return found[:1]
        return []

    def _lineage(self, cls: Entity) -> list[Entity]:
        order, seen, level = [cls], {cls.id}, [cls.id]
        while level and len(order) < MAX_BASES:
            following: list[str] = []
            for current in level:
                for base in self._bases.get(current, []):
                    if base not in seen and base in self._by_id:
                        seen.add(base)
                        order.append(self._by_id[base])
                        following.append(base)
            level = following
        return order

    def _reexported(self, module: Entity, name: str) -> list[Entity]:
        """The one module-level definition of `name` inside the package `module` heads (what `from .x import
        name` in its `__init__` makes importable from it)."""
        if not (module.path or "").endswith(("__init__.py", "__init__.pyi")):
            return []
        folder = posixpath.dirname(module.path or "")
        inside = [
            e
            for e in self._top_level.get(name, [])
            if e.project == module.project and (e.path or "").startswith(f"{folder}/" if folder else "")
        ]
        return inside if len(inside) == 1 else []

    def _named(self, name: str, project: str, types: set[str], source: str) -> list[Entity]:
        """The one entity of the project with this name (test code only when the caller is test code too)."""
        caller = self._by_id.get(source)
        in_tests = caller is not None and is_test_path(caller.path or "")
        found = [
            e
            for e in self._by_short.get(name, [])
            if e.project == project
            and e.type in types
            and e.id != source
            and (in_tests or not is_test_path(e.path or ""))
        ]
        return found if len(found) == 1 else []


def is_test_path(path: str) -> bool:
    """Test code by the conventions of pytest and unittest: a `tests`/`test`/`testing` folder, `test_*.py`,
    `*_test.py`, `conftest.py`."""
    *folders, name = path.split("/")
    return (
        any(f in ("tests", "test", "testing") for f in folders)
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
    )


def _prefer(found: Sequence[Entity], project: str) -> list[Entity]:
    """One project's entities for a name: the referring project's, else the only other project's."""
    if not found:
        return []
    mine = [e for e in found if e.project == project]
    if mine:
        return mine[:1]
    projects = {e.project for e in found}
    return list(found[:1]) if len(projects) == 1 else []


def _import_names(modules: Sequence[Entity]) -> dict[tuple[str, str], str]:
    """(project, module path) -> the name the module is imported by: its path from the topmost folder of its
    package (the folders above it that hold an `__init__.py`), so `src/httpx/_client.py` -> `httpx._client`."""
    packages = {
        (m.project, posixpath.dirname(m.path or ""))
        for m in modules
        if posixpath.basename(m.path or "") in ("__init__.py", "__init__.pyi")
    }
    names: dict[tuple[str, str], str] = {}
    for m in modules:
        path = m.path or ""
        root = posixpath.dirname(path)
        while root and (m.project, root) in packages:
            root = posixpath.dirname(root)
        names[(m.project, path)] = module_name(path[len(root) + 1 :] if root else path)
    return names
