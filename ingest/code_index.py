"""Finishing code references against every indexed project: qualified names, re-exports and class bases.

A binder names a call's target as precisely as its file allows (`trident.ingest.languages.binding`); only here,
with every project's entities, is it known what `httpcore.ConnectionPool` is: a class defined in
`httpcore/_sync/connection_pool.py` of the project `httpcore` and re-exported by its `__init__`.

- A qualified name matches an entity's qualified name or a name its language imports it by
  (`trident.ingest.import_names`). Outside Python, a name written from outside the project (a Go import path, a
  Java package) matches by its longest tail the index knows, of at least two parts, when one entity has it.
- A name the entity lacks is looked up in what it stands for: a member of a class (through the class's bases,
  nearest first), or a name a package re-exports (the one definition of that name inside the package).
- A member is looked up in its class, then its bases breadth first (each level in declared order when the bases
  are known from this run, else by id); never in an unrelated class that happens to define the same name.
- A member of what a call gives (`make_pool().query()`, `self.stream = env.tokenize(...)` then `self.stream.m()`)
  is looked up in the class the called function's annotation says it returns (`RETURNS`), when it says one; a member
  of an element of what it returns (`f[]`), in the class its annotation gives each element (`YIELDS`).
- A member of an attribute's value (`r.connection.send()`, `Class@attribute`) is looked up in the class the
  attribute's class, or the nearest of its bases, states it holds (`HOLDS`; a property: what its getter returns).
- A bare name (`form` NAME) is a guess, kept only when exactly one entity of the project and language has that
  name (one in test code counts only for a caller in test code).
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from enum import StrEnum
from functools import partial
from typing import Any, TypeAlias

from trident.host.gc_pause import paused_gc
from trident.ingest.languages.javascript_syntax import BUILTIN_METHODS as JS_BUILTIN_METHODS
from trident.ingest.languages.python_fixtures import CONFTEST, wider_conftests
from trident.ingest.languages.python_implicit import ATTRIBUTE_HOOKS
from trident.ingest.languages.python_syntax import BUILTIN_METHODS
from trident.ingest.model import (
    ATTRIBUTE_MARK,
    CALLED_MARK,
    ELEMENTS_MARK,
    ENTERED_MARK,
    GENERATED_MARK,
    GETTER_MARK,
    GIVEN_CLASS_MARK,
    IMPORTS_ALL_MARK,
    LIBRARY_RUNS_MARK,
    MADE_BY_MARK,
    OWN_CLASS_MARK,
    OWN_CODE_MARK,
    PARAMETER_CLOSE,
    PARAMETER_OPEN,
    PATH_ASKED_MARK,
    PREFIX_MARK,
    REPARTIAL_MARK,
    SUBCLASSES_MARK,
    TABLE_MARK,
    UPPER_CASE_MARK,
    Reference,
    TargetForm,
    parameter_attribute,
    parameter_parts,
)
from trident.ingest.parameter_uses import families, is_dunder, telling
from trident.ingest.passed_values import PassedValues
from trident.store.manifest import PendingReference
from trident.store.names.code_paths import is_test_path, module_name
from trident.store.names.id_ordered import drop, insert
from trident.store.names.import_names import ImportNames, family, heads_folder
from trident.store.schema import (
    CONSTRUCTOR_METHODS,
    GIVEN_RUN,
    NON_VIRTUAL,
    PASSED_OPEN,
    SELF_MARK,
    Entity,
    EntityType,
    RelationType,
    Resolution,
    entity_id,
)

CODE_TYPES = frozenset(
    {EntityType.MODULE.value, EntityType.CLASS.value, EntityType.FUNCTION.value, EntityType.METHOD.value}
)
MAX_DEPTH = 8  # re-exports of re-exports and base chains deeper than this are not followed
MAX_BASES = 64  # classes visited per member lookup
METACLASS = f"__class__{CALLED_MARK}"  # a class's `HOLDS` fact naming its metaclass (what makes it)
# Languages whose binder names a type of another file by its short name (C#: a namespace is not a folder and `using`
# names no type; Ruby: constants are found lexically): the one class of the project with that name.
SHORT_TYPE_NAMES = frozenset({"csharp", "ruby", "swift"})
# Language families whose names are looked up from the caller's namespaces outwards (C and C++)
SCOPED_NAMES = frozenset({"c"})
# A type's methods may be defined elsewhere: any module's `impl` of it (Rust), an extension method (C#)
IMPLEMENTED_APART = frozenset({"rust", "csharp"})
# Where a linked name is never the caller's member: a bare call in Rust is no method; in C# and Ruby a bare call is
# bound as a member already, so a linked name is a type (`new PublicKey()` in a class with a `PublicKey` property)
LINKED_NOT_MEMBERS = frozenset({"rust", "csharp", "ruby"})

# A method Python runs where a class defines none of the one named: `object`'s default runs another one a class may
# define (`!=` runs `__eq__`, `str(x)` runs `__repr__`, `if x:` runs `__len__` when the class defines no `__bool__`,
# `int(x)` and `float(x)` run `__index__` when it defines no `__int__`, `__float__`);
# an augmented assignment (`s |= more`, `__ior__`) runs the operator's method (`__or__`).
_OPERATORS: tuple[str, ...] = ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow")
_OPERATORS += ("lshift", "rshift", "and", "or", "xor")
DEFAULTS_TO = (
    {"__ne__": "__eq__", "__str__": "__repr__", "__bool__": "__len__", "__int__": "__index__"}
    | {"__float__": "__index__"}
    | {f"__i{name}__": f"__{name}__" for name in _OPERATORS}
)

# What every object has (`==`, `str(x)`, `hash(x)`) or a loop and a test take another way (`for x in p` through
# `__getitem__`, `if p:` through `__len__` or none): a use of one says nothing of the value's class.
OBJECT_HAS = frozenset(dir(object)) | {"__bool__", "__iter__", "__next__", "__contains__", "__reversed__"}
MAX_FITTING = 32  # classes defining the rarest member used on a parameter, past which its uses say too little
MIN_READS = 2  # attributes read on a parameter that classes state, before they say which class it is

AnyReference: TypeAlias = Reference | PendingReference


class _Tails(StrEnum):
    """Whether a qualified name may match by its tail: never (Python, a name in the file's own folder), only from a
    folder or file of the definition on (a binding), or from any part (a guess, labelled as one)."""

    NONE = "none"
    AT_FOLDER = "at_folder"
    ANY = "any"


def is_code(entity: Entity) -> bool:
    return entity.type in CODE_TYPES and bool(family(entity.path or ""))


class CodeIndex:
    """Code entities by qualified and import name, with the bases of each class and the class each function
    returns."""

    @paused_gc()  # as the entity directory's build: acyclic lists and dicts, built faster without collections
    def __init__(
        self,
        entities: Iterable[Entity],
        bases: Iterable[tuple[str, str]] = (),
        returns: Iterable[tuple[str, str]] = (),
    ) -> None:
        code: dict[str, Entity] = {}
        for entity in entities:
            if is_code(entity):
                code.setdefault(entity.id, entity)
        self._by_id = dict(sorted(code.items()))
        self._imports = ImportNames(self._by_id.values())
        self._names: dict[str, list[str]] = {}
        self._by_name: dict[str, list[Entity]] = defaultdict(list)
        self._by_tail: dict[str, list[Entity]] = defaultdict(list)  # outside Python: proper tails of those names
        self._by_short: dict[tuple[str, str], list[Entity]] = defaultdict(list)  # (family, name) -> entities
        self._top_level: dict[str, list[Entity]] = defaultdict(list)  # short name -> module-level definitions
        self._bases: dict[str, list[str]] = defaultdict(list)
        self._returns: dict[str, str] = {}  # function id -> the class its annotation says it returns ("": not known)
        self._holds: dict[tuple[str, str], str] = {}  # (class id, attribute) -> the class or function it holds
        self._open: set[str] = set()  # classes with a base not indexed (yet): their lineage is not all known
        self._table_items: dict[tuple[str, str], list[str]] = {}  # (class id, attribute) -> its table's items
        self._passed = PassedValues(self._overridden)  # what calls pass functions' untyped parameters
        self._uses: dict[str, frozenset[str]] = {}  # an untyped parameter (`f@(p#0)`) -> the members used on it
        self._reads: dict[str, frozenset[str]] = {}  # an untyped parameter -> the attributes read on it
        self._holders: dict[tuple[str, str], dict[str, Entity]] | None = None  # (project, attribute) -> classes
        self._families: dict[str, list[str]] = {}  # a parameter -> those of its family (`parameter_uses.families`)
        self._used_as: dict[tuple[str, str, bool], list[Entity]] = {}
        self._read_as: dict[tuple[str, str, bool], list[Entity]] = {}
        self._one_methods: dict[tuple[str, str, bool], list[Entity]] = {}  # `_one_method`, by (name, project, tests)
        self._methods_of: dict[tuple[str, str], list[Entity]] | None = None
        self._aliases_of: dict[str, list[tuple[str, Entity]]] | None = None  # class id -> (name, method) its body gives
        self._children: dict[str, list[str]] | None = None  # class id -> the classes naming it a base (when asked)
        for e in self._by_id.values():
            self._names[e.id] = _names_of(e, self._imports)
            for table, key in self._places(e):
                table[key].append(e)
        self.add_bases(bases)
        self.add_returns(returns)

    def _places(self, e: Entity) -> Iterator[tuple[dict[Any, list[Entity]], Any]]:
        """(table, key) of each list a code entity is in: by each of its names, their tails outside Python, its
        language and short name, and its short name when it is defined at module level."""
        language = family(e.path or "")
        for name in self._names[e.id]:
            yield self._by_name, name
            if language != "python":
                parts = name.split(".")
                for i in range(1, len(parts) - 1):
                    yield self._by_tail, ".".join(parts[i:])
        yield self._by_short, (language, e.name)
        if e.type != EntityType.MODULE.value and e.qualified_name == f"{module_name(e.path or '')}.{e.name}":
            yield self._top_level, e.name

    @paused_gc()
    def patched(
        self,
        removed: Iterable[str],
        added: Iterable[Entity],
        bases: Iterable[tuple[str, str]] = (),
        returns: Iterable[tuple[str, str]] = (),
    ) -> CodeIndex:
        """This index without the entities of the `removed` ids and with the `added` ones whose ids it does not keep
        (the first of an id), with `bases` and `returns` as its only class bases and return types: equal to one built
        afresh over those entities (tests/test_code_index_patch.py), sharing what did not change with this one, which
        stays as it was. Built afresh when a Python package appears or goes (every import name under it changes)."""
        gone = [self._by_id[i] for i in sorted(set(removed)) if i in self._by_id]
        gone_ids = {e.id for e in gone}
        new: dict[str, Entity] = {}
        for e in added:
            if is_code(e) and e.id not in new and (e.id in gone_ids or e.id not in self._by_id):
                new[e.id] = e
        by_id = dict(sorted([*((k, e) for k, e in self._by_id.items() if k not in gone_ids), *new.items()]))
        imports = ImportNames(by_id.values())
        if imports.packages != self._imports.packages:
            return CodeIndex(by_id.values(), bases, returns)
        patched = CodeIndex([], bases, returns)
        patched._by_id, patched._imports, patched._names = by_id, imports, dict(self._names)
        patched._methods_of = None
        patched._by_name = defaultdict(list, self._by_name)
        patched._by_tail = defaultdict(list, self._by_tail)
        patched._by_short = defaultdict(list, self._by_short)
        patched._top_level = defaultdict(list, self._top_level)
        for e in gone:
            for table, key in patched._places(e):
                drop(table, key, e.id)
            del patched._names[e.id]
        for e in new.values():
            patched._names[e.id] = _names_of(e, imports)
            for table, key in patched._places(e):
                insert(table, key, e)
        return patched

    def add_bases(self, bases: Iterable[tuple[str, str]]) -> None:
        """(class id, base id) pairs, in the order the class declares them when known."""
        for cls, base in bases:
            if base not in self._bases[cls] and base != cls:
                self._bases[cls].append(base)
                self._children = None
                self._one_methods.clear()

    def add_returns(self, returns: Iterable[tuple[str, str]]) -> None:
        """(function id, class id) pairs: the class each function's annotation says it returns (one per function);
        a class id of "" when the annotation names a class the index does not have (yet): what the function returns
        is then not guessed from a member's name."""
        for function, cls in returns:
            if cls or function not in self._returns:
                self._returns[function] = cls

    def add_open(self, classes: Iterable[str]) -> None:
        """Ids of classes that name a base no indexed class is (yet): what their attributes hold may be stated by a
        base a project indexed later brings."""
        self._open.update(classes)

    def add_holds(self, holds: Iterable[tuple[str, str, str]]) -> None:
        """(class id, attribute, entity id) triples: the class an attribute of the class holds, or the function
        whose stated return type it holds (one per attribute, the first kept); an entity id of "" when the stated
        class is not indexed (yet): the attribute is then not looked up in the class's bases."""
        for cls, attribute, held in holds:
            if attribute.startswith(PASSED_OPEN):  # what a call passes a parameter of the function `cls`
                self._passed.add(cls, attribute, held)
                continue
            if attribute == REPARTIAL_MARK:  # `return partial(deprecated, ...)` in `deprecated`
                self._passed.repartial(cls)
                continue
            if not self._holds.get((cls, attribute)):
                self._holds[(cls, attribute)] = held
                self._aliases_of = self._holders = None
                self._read_as.clear()
            table, mark, place = attribute.partition(TABLE_MARK)
            if mark and place and held:  # `TYPE_MAPPING[*]0`: an item of a table a class body gives
                items = self._table_items.setdefault((cls, table), [])
                if held not in items:
                    items.append(held)

    def add_uses(self, uses: Mapping[str, frozenset[str]], reads: Mapping[str, frozenset[str]]) -> None:
        """Untyped parameters (`mod.f@(p#0)`) -> the members their functions use on them (`parameter_uses`) and the
        attributes they read on them (`parameter_reads`)."""
        self._uses.update(uses)
        self._reads.update(reads)
        self._families = families(self._uses)
        self._used_as.clear()
        self._read_as.clear()

    def runs_getter(self, ref: AnyReference, found: Entity) -> bool:
        """Whether a member read a binder kept as a reference (`node.name` on a value of another file's class) runs
        the method it resolved to: the getter of a property its class states (`GETTER_MARK`)."""
        if ref.type != RelationType.REFERENCES or TargetForm(ref.form) is not TargetForm.MEMBER:
            return False
        return self._is_getter(found)

    def _is_getter(self, method: Entity) -> bool:
        """Whether a method is the getter of a property its class states (`GETTER_MARK`)."""
        if method.type != EntityType.METHOD.value:
            return False
        owner = entity_id(EntityType.CLASS.value, method.project, method.qualified_name.rpartition(".")[0])
        return self._holds.get((owner, f"{method.name}{GETTER_MARK}")) == method.id

    def resolve(self, ref: AnyReference, project: str, path: str = "") -> tuple[list[Entity], Resolution]:
        """The entities a reference made in the file `path` binds to and how surely; ([], ...) when none."""
        types = set(ref.target_types) or set(CODE_TYPES)
        form, resolution = TargetForm(ref.form), Resolution(ref.resolution)
        by_path = family(path) not in ("python", "")  # names from paths, not from Python's package roots
        tails, own_folder = _tails(ref, path)
        scoped = family(path) in SCOPED_NAMES
        if form is TargetForm.QUALIFIED:
            target = self._scoped(ref.target, ref.source, set(CODE_TYPES)) if scoped else ref.target
            found = self._qualified(target, project, 0, tails)
            if found and resolution is Resolution.EXACT and self._held_by(target, found[0]):
                resolution = Resolution.INFERRED  # what a variable holds, read from its one assignment
            if not found and (found := self._of_module_instance(ref, target, project, tails)):
                resolution = Resolution.INFERRED
            if not found and (found := self._of_class_attribute(target, project, tails)):
                resolution = Resolution.INFERRED
            if not found and _parameter_marked(target.rpartition(ATTRIBUTE_MARK)[2]):
                return self._nothing_passed(ref, target, project, types, path), Resolution.NAME
        elif form is TargetForm.MEMBER:
            owner_name = self._scoped_owner(ref.owner, ref.source) if scoped else ref.owner
            if by_path and not ref.after_owner:  # a method defined apart from its type (Go, a Rust `impl`)
                apart = self._qualified(f"{owner_name}.{ref.target}", project, 0, tails)
                direct = [e for e in apart if e.type in types]
                if direct and (not own_folder or all(e.project == project for e in direct)):
                    return direct, resolution
            owner, classes = self._owner(ref, owner_name, project, path, tails)
            if not classes and (passed := self._passed_prefixed(ref, owner_name, project, types)):
                return passed, Resolution.DISPATCH  # `getattr(visitor, "visit" + kind)` on a parameter
            if not classes and (classes := self._of_uses(ref.owner, project, path)):
                resolution = Resolution.DISPATCH  # an untyped parameter, of the one class its uses fit
            if not classes and ATTRIBUTE_MARK in ref.owner.rpartition(".")[2]:  # a value no indexed class states
                return self._untyped(ref, project, types, path), Resolution.NAME
            if not classes and (below := self._held_below(owner_name, project, tails)):
                each = {e.id: e for cls in below for e in self._member_or_called(cls, ref.target)}
                return [each[i] for i in sorted(each) if each[i].type in types], Resolution.DISPATCH
            if not classes and (owner or self._called_member(ref.owner, project, tails)):
                # a factory's result, or a member the index does not define: its type is not stated, so only the
                # name is known (and a dunder a statement runs, `__enter__`, names nothing by itself); a function
                # whose stated return type is not indexed yet is left to bind when it is
                waiting = (owner and owner[0].id in self._returns) or self._waiting(ref.owner, project)
                if is_dunder(ref.target) or waiting:
                    return [], Resolution.NAME
                return self._named(ref.target, project, types, ref.source, path), Resolution.NAME
            if classes and ref.target.endswith(PREFIX_MARK):
                return self._prefixed(classes[0], ref.target.removesuffix(PREFIX_MARK)), resolution
            found = self._member(classes[0], ref.target, skip_first=ref.after_owner) if classes else []
            if classes and not found and (called := self._attribute_called(classes[0], ref.target))[0]:
                return [e for e in called[0] if e.type in types], called[1]  # `env.context_class(...)`
            if classes and not found and ref.target in DEFAULTS_TO:  # `object`'s default runs the other one
                found, resolution = self._defaulted(ref, classes[0], types, resolution)
            if classes and not found and (elsewhere := self._defined_elsewhere(ref, classes[0], types)) is not None:
                return elsewhere
        elif form is TargetForm.LINKED:
            return self._linked(ref, project, path)
        else:
            return self._guessed(ref, project, types, path), Resolution.NAME
        # A function bound to itself by scope or type is recursion: an edge (only a name guess never binds itself).
        found = [e for e in found if e.type in types and (e.project == project or not own_folder)]
        return [*found, *self._metaclass_run(ref, found, resolution, path)], resolution

    def _guessed(self, ref: AnyReference, project: str, types: set[str], path: str) -> list[Entity]:
        """A bare name's guess: the project's one entity of the name; for a read (`x.prop` on an untyped x), its one
        property of the name; for a method call, one class's method its overrides share (`_family_root`)."""
        if ref.target.endswith(GETTER_MARK):
            return self._named_getter(ref.target.removesuffix(GETTER_MARK), project, ref.source, path)
        return self._named(ref.target, project, types, ref.source, path) or self._family_root(ref, project, types, path)

    def _metaclass_run(
        self, ref: AnyReference, found: Sequence[Entity], resolution: Resolution, path: str
    ) -> list[Entity]:
        """A class called, or named where it is handed on to be made (`append_node(parsetree.Tag, ...)`), runs its
        metaclass's `__call__` (`_metaclass_calls`), but in that method itself, which makes it with `type.__call__`."""
        handed = ref.type == RelationType.REFERENCES and resolution is Resolution.EXACT
        if (ref.type != RelationType.CALLS and not handed) or family(path) != "python":
            return []
        return [c for c in self._metaclass_calls(found) if c.id != ref.source]

    def _nothing_passed(self, ref: AnyReference, target: str, project: str, types: set[str], path: str) -> list[Entity]:
        """A call of a parameter (`f@(callback#0)()`) no caller passes a function or class: the project's one
        definition of its name, a guess as for any variable, where the function calls it itself; none where a class
        keeping it in an attribute does (`self._func(...)`), or its values are consumed, not called."""
        holder, _, attribute = target.rpartition(ATTRIBUTE_MARK)
        parameter, mark = _parameter_marked(attribute) or ("", "")
        own = any(e.id == ref.source for e in self._qualified(holder, project, 0, _Tails.NONE))
        if mark != CALLED_MARK or ref.type != RelationType.CALLS or not own:
            return []
        return self._named(parameter_parts(parameter)[0], project, types, ref.source, path)

    def _defaulted(
        self, ref: AnyReference, cls: Entity, types: set[str], resolution: Resolution
    ) -> tuple[list[Entity], Resolution]:
        """A dunder neither `cls` nor its bases define, whose `object` default runs another (`DEFAULTS_TO`: `str(x)`
        runs `__repr__`): that one, and as the classes deriving from `cls` define the dunder itself, theirs (a
        mixin's `__repr__` returning `self.__str__()`, which runs the subclass's `__str__`)."""
        defaulted = self._member(cls, DEFAULTS_TO[ref.target], skip_first=ref.after_owner)
        derived = [] if ref.after_owner else [e for e in self._derived_members(cls, ref.target) if e.type in types]
        if not derived:
            return defaulted, resolution
        return list({e.id: e for e in [*derived, *defaulted]}.values()), Resolution.DISPATCH

    def _defined_elsewhere(
        self, ref: AnyReference, cls: Entity, types: set[str]
    ) -> tuple[list[Entity], Resolution] | None:
        """A member neither `cls` nor its bases define in the index: as the classes deriving from it define it (a
        mixin's or base's call of what subclasses define), with what a standard-library base's method of that name
        runs on an instance of the class itself; else that alone (`update`: the class's `__setitem__`); None for
        neither."""
        runs = [e for e in self._library_runs(cls, ref.target) if e.type in types]
        derived = [] if ref.after_owner else [e for e in self._derived_members(cls, ref.target) if e.type in types]
        if derived:
            runs = self._runs_where_not_overridden(cls, ref.target, runs)
            return list({e.id: e for e in [*derived, *runs]}.values()), Resolution.DISPATCH
        if runs:  # the class's own (`FIFOCache.__delitem__` for `self.pop(k)` in FIFOCache), its overrides by dispatch
            runs = [e for e in self._member(cls, runs[0].name, skip_first=False) if e.type in types] or runs
        return (runs, Resolution.INFERRED) if runs else None

    def _runs_where_not_overridden(self, cls: Entity, name: str, runs: list[Entity]) -> list[Entity]:
        """What the standard-library base's method `name` runs (`runs`: `popitem` runs `__delitem__`) on an instance
        of `cls` or of a class deriving from it that defines no `name` of its own on the way down: the method of
        that name each such class has (`Cache.__delitem__`); on FIFOCache, which defines `popitem`, the base's
        `popitem` never runs (its own does), so neither does what the base's would run (`receiver`: exactly
        these, no override beyond)."""
        if not runs:
            return []
        found = {e.id: e for e in self._member(cls, runs[0].name, skip_first=False) or runs[:1]}
        overriding = {cls.id: False}
        for derived in self._derived(cls):
            above = [b for b in self._bases.get(derived.id, []) if b in overriding]
            overriding[derived.id] = bool(self._own(derived, name)) or any(overriding[b] for b in above)
            if not overriding[derived.id]:
                found.update((e.id, e) for e in self._member(derived, runs[0].name, skip_first=False))
        return sorted(found.values(), key=lambda e: e.id)

    def _owner(
        self, ref: AnyReference, owner_name: str, project: str, path: str, tails: _Tails
    ) -> tuple[list[Entity], list[Entity]]:
        """What a member's owner names, and the class it is (a class itself, or what a function named returns)."""
        owner = self._qualified(owner_name, project, 0, tails)
        if not owner and family(path) in SHORT_TYPE_NAMES:  # C#'s `IPay _gw`, `Utils.Format()`
            owner = self._short_owner(ref.owner, project, ref.source, path)
        if not owner and (aliased := self._module_held(owner_name, project, tails)):
            return aliased, aliased  # a type alias another module states a class for (`retry: "RetryBaseT"`)
        return owner, [e for e in owner if e.type == EntityType.CLASS.value] or self._returned(owner)

    def _module_held(self, name: str, project: str, tails: _Tails) -> list[Entity]:
        """The class a module states a module-level name of it holds an instance of (`HOLDS` on the module: a type
        alias naming one class, `Infinity = InfinityType()`); [] for anything else."""
        module, _, attribute = name.rpartition(".")
        modules = [e for e in self._qualified(module, project, 0, tails) if e.type == EntityType.MODULE.value]
        if module and not modules:  # a module a package's function shares its name with (tenacity's `retry`)
            modules = _prefer([e for e in self._by_name.get(module, []) if e.type == EntityType.MODULE.value], project)
        return self._held(modules[:1], attribute) if module and modules else []

    def receiver(self, ref: AnyReference, project: str, path: str, found: Entity, resolution: Resolution) -> str:
        """Which overrides of the method a bound call runs may run instead (`Relation.receiver`): none where the
        call names the method that runs (`super().m()`, `Base.m(self)`) or is on a value made by constructing the
        class (`sql = SqlLexer(...)`, then `sql.get_tokens()`: the class is named after the mark); those an instance of
        the enclosing class may have where the call is on its own receiver (`self.m()` in `C`: C's and its
        subclasses' overrides, not a sibling's; marked as on the caller's own receiver); "" (any) otherwise: a value's
        class as the binder reads it (`self.stream = ByteStream(...)`) may be one of several that other code assigns.
        A call of a class: on the caller's own receiver's class for `type(self)(...)`, what the caller was given for
        a parameter holding a class (`kind()`), "" otherwise."""
        if ref.type == RelationType.INHERITS:  # a base: its place among the class's bases
            return str(ref.place) if ref.place >= 0 else ""
        if resolution is not Resolution.NAME and _parameter_marked(ref.target.rpartition(ATTRIBUTE_MARK)[2]):
            return GIVEN_RUN  # what the caller's callers pass it (or made and passed): they reach it themselves
        if ref.type == RelationType.CALLS and found.type == EntityType.CLASS.value:
            if OWN_CLASS_MARK in ref.target:  # `type(self)(...)`: an object of the caller's receiver's class
                return SELF_MARK + found.id
            return GIVEN_RUN if GIVEN_CLASS_MARK in ref.target else ""  # `kind()`: the class the callers pass it
        if ref.type not in (RelationType.CALLS, RelationType.REFERENCES) or found.type != EntityType.METHOD.value:
            return ""
        form = TargetForm(ref.form)
        named = form is TargetForm.QUALIFIED and not ref.virtual  # `Base.m(self)`, `cache_setitem(self, ...)`
        if ref.after_owner or (named and resolution in (Resolution.EXACT, Resolution.INFERRED)):
            return NON_VIRTUAL
        exact = form is TargetForm.MEMBER and not ref.virtual  # a receiver made by a construction of its class
        how = Resolution(ref.resolution)
        if form is not TargetForm.MEMBER or (how not in (Resolution.EXACT, Resolution.DISPATCH) and not exact):
            return ""  # only the enclosing class's own receiver (`self`, `this`) is surely of that class or below it
        owner_name = self._scoped_owner(ref.owner, ref.source) if family(path) in SCOPED_NAMES else ref.owner
        owner, classes = self._owner(ref, owner_name, project, path, _tails(ref, path)[0])
        if exact:  # what a factory function returns may be of a subclass: only a class itself constructed is exact,
            made = owner[0] if owner and owner[0].type == EntityType.CLASS.value else None  # and one with no `__new__`
            return (
                NON_VIRTUAL + made.id
                if made is not None and not self._member(made, "__new__", skip_first=False)
                else ""
            )
        if not classes:
            return ""
        runs = self._runs_name(classes[0], ref.target)
        if found.name == runs != ref.target and self._derived_members(classes[0], ref.target):
            return NON_VIRTUAL  # what a library method runs, each class's own (`_runs_where_not_overridden`)
        own = self._encloses(classes[0], ref.source)  # `self.m()`, `getattr(self, f"visit_{kind}")`
        below = found.name == ref.target and not self._member(classes[0], found.name, skip_first=False)
        if how is Resolution.DISPATCH or below or any(e.id == found.id for e in self._own(classes[0], found.name)):
            # its own method, or a subclass's where it has none (`_derived_members`): its subclasses' run
            return SELF_MARK + classes[0].id if own else ""
        inherited = any(e.id == found.id for e in self._member(classes[0], found.name, skip_first=False))
        return (SELF_MARK if own else "") + classes[0].id if inherited else ""

    def _encloses(self, cls: Entity, caller_id: str) -> bool:
        """Whether `caller_id` is a method of `cls` itself: a member call of an exact binding whose owner is the
        caller's class is on the caller's own receiver."""
        caller = self._by_id.get(caller_id)
        return (
            caller is not None
            and caller.type == EntityType.METHOD.value
            and caller.project == cls.project
            and caller.qualified_name.rpartition(".")[0] == cls.qualified_name
        )

    def settled(self, ref: AnyReference, project: str) -> bool:
        """Whether a reference that bound nothing never will while the indexed files stay as they are: a member of
        an attribute's value whose holder is an indexed class (what the attribute holds is stated by indexed files,
        or by none; a run that changes them binds the files using them again) unless a base of it is a project's
        not indexed yet, or the `__getattr__` an import may run. Not kept waiting for a project."""
        if ref.target.endswith((PATH_ASKED_MARK, SUBCLASSES_MARK, GETTER_MARK)):  # most modules define no
            return True  # `__getattr__`, most classes no subclass, most reads no property: not kept for a project
        if f"{ATTRIBUTE_MARK}{PARAMETER_OPEN}" in ref.target:  # what calls pass a parameter (`self.x = x`): the run
            return True  # changing the calls binds its file again
        if ref.target in ATTRIBUTE_HOOKS and TargetForm(ref.form) is TargetForm.MEMBER:  # `self.x = v` runs a hook
            return True  # only where a class defines one, and most define none: not kept for a project
        if ref.target.endswith(TABLE_MARK) and ATTRIBUTE_MARK in ref.target:  # an attribute no class gives a table
            holder, _, attribute = ref.target.removesuffix(TABLE_MARK).rpartition(ATTRIBUTE_MARK)
            found = self._qualified(holder, project, 0, _Tails.NONE)
            known = bool([e for e in found[:1] if e.type == EntityType.CLASS.value] or self._returned(found))
            return known and self._stated(found, f"{attribute}{TABLE_MARK}") != ""
        caller = self._by_id.get(ref.source)
        scoped = caller is not None and family(caller.path or "") in SCOPED_NAMES
        owner = self._scoped_owner(ref.owner, ref.source) if scoped else ref.owner
        holder, mark, attribute = owner.rpartition(ATTRIBUTE_MARK)
        if TargetForm(ref.form) is not TargetForm.MEMBER or not mark or "." in attribute:
            return False
        if attribute.startswith(PARAMETER_OPEN):  # most overrides' parameters are stated nowhere: not kept
            return True
        found = self._qualified(holder, project, 0, _Tails.NONE)
        module = bool(found) and found[0].type == EntityType.MODULE.value  # it states its names' instances
        classes = [e for e in found[:1] if e.type == EntityType.CLASS.value] or self._returned(found)
        if not classes and not module:
            return False
        stated = self._stated(found, attribute)
        if stated is None and classes and self._open.intersection(c.id for c in self._lineage(classes[0])):
            return False  # a base another project brings may state it
        return stated != ""

    def _passed_prefixed(self, ref: AnyReference, owner: str, project: str, types: set[str]) -> list[Entity]:
        """The methods named with a built name's start (`visit*`) of every class callers pass the parameter an owner
        names; [] for any other reference."""
        if not ref.target.endswith(PREFIX_MARK):
            return []
        prefix = ref.target.removesuffix(PREFIX_MARK)
        each = {e.id: e for cls in self._every_passed(owner, project) for e in self._prefixed(cls, prefix)}
        return [each[i] for i in sorted(each) if each[i].type in types]

    def _every_passed(self, owner: str, project: str) -> list[Entity]:
        """Every class callers pass the parameter an owner names (`mod.Node.accept_visitor@(visitor#0)`), where they
        share no base (one they share is the owner's class already); [] for any other owner."""
        holder, mark, attribute = owner.rpartition(ATTRIBUTE_MARK)
        if not mark or not attribute.startswith(PARAMETER_OPEN):
            return []
        functions = self._qualified(holder, project, 0, _Tails.NONE)
        if not functions or functions[0].type not in (EntityType.FUNCTION.value, EntityType.METHOD.value):
            return []
        name, place = parameter_parts(attribute)
        return self._passed.every(functions[0].id, name, place, self._passed_classes)

    def _of_uses(self, owner: str, project: str, path: str) -> list[Entity]:
        """The class an untyped parameter (`mod.f@(p#0)`) is by its uses (`_used_class`), or what an attribute of it
        holds on that class (`mod.f@(md#0)@block`: `md.block.register(...)`)."""
        if found := self._used_class(owner, project, path):
            return found
        holder, mark, attribute = owner.rpartition(ATTRIBUTE_MARK)
        if not mark or not holder.endswith(PARAMETER_CLOSE) or attribute.startswith(PARAMETER_OPEN):
            return []
        classes = self._used_class(holder, project, path)
        return self._held(classes, attribute) if classes else []

    def _used_class(self, owner: str, project: str, path: str) -> list[Entity]:
        """The class an untyped parameter (`mod.f@(p#0)`) is an instance of by what its function uses on it
        (`_fitting`); where its uses tell nothing (`p[0] = p[1]`), the one class its family's others are of, if it
        has every member used (`parameter_uses.families`). Test classes only for a parameter of test code."""
        in_tests = is_test_path(path)
        return self._called_class(owner, project, in_tests) or self._read_class(owner, project, in_tests)

    def _called_class(self, owner: str, project: str, in_tests: bool) -> list[Entity]:
        used = self._uses.get(owner, frozenset())
        if telling(used):
            return self._fit(owner, project, in_tests)
        required = [name for name in used if name not in OBJECT_HAS]
        if not required:
            return []
        fits = {c.id: c for other in self._families.get(owner, []) for c in self._fit(other, project, in_tests)}
        if len(fits) != 1:
            return []
        cls = next(iter(fits.values()))
        return [cls] if all(self._has(cls, name) for name in required) else []

    def _read_class(self, owner: str, project: str, in_tests: bool) -> list[Entity]:
        """The one class of the project (or the one base of several) stating every attribute read on an untyped
        parameter that a class of the project states (`HOLDS`), where two or more are, and with every member called
        on it: mistune's plugins (`def abbr(md)`) read `md.block`, `md.inline` and `md.renderer`, which only its
        `Markdown` states. An attribute no class states (`md.hooks = []`) says nothing."""
        key = (owner, project, in_tests)
        if key in self._read_as:
            return self._read_as[key]
        holders = self._attribute_holders()
        known = sorted(name for name in self._reads.get(owner, ()) if (project, name) in holders)
        rarest = min(known, key=lambda name: (len(holders[(project, name)]), name)) if known else ""
        if len(known) < MIN_READS or len(holders[(project, rarest)]) > MAX_FITTING:
            self._read_as[key] = []
            return []
        called = [name for name in self._uses.get(owner, ()) if name not in OBJECT_HAS]
        fit = [
            c
            for c in self._and_derived(holders[(project, rarest)].values(), in_tests)
            if all(self._states(c, name) for name in known) and all(self._has(c, name) for name in called)
        ]
        self._read_as[key] = self._one_root(fit)
        return self._read_as[key]

    def _attribute_holders(self) -> dict[tuple[str, str], dict[str, Entity]]:
        """(project, attribute) -> the classes stating what the attribute holds (`HOLDS`), by id."""
        if self._holders is None:
            self._holders = defaultdict(dict)
            for owner, attribute in sorted(self._holds):
                cls, name = self._by_id.get(owner), attribute.removesuffix(CALLED_MARK)
                if cls is not None and cls.type == EntityType.CLASS.value and name.isidentifier():
                    self._holders[(cls.project, name)][cls.id] = cls
        return self._holders

    def _states(self, cls: Entity, name: str) -> bool:
        """Whether `cls` or a base states what its attribute `name` holds, or defines a member of that name."""
        for c in self._lineage(cls):
            if (c.id, name) in self._holds or (c.id, f"{name}{CALLED_MARK}") in self._holds:
                return True
        return bool(self._member(cls, name, skip_first=False))

    def _one_root(self, fit: Sequence[Entity]) -> list[Entity]:
        """The one class of `fit` none of whose bases is also in it; [] when there are several."""
        fitting = {c.id for c in fit}
        roots = [c for c in fit if not any(b.id in fitting for b in self._lineage(c)[1:])]
        return roots if len(roots) == 1 else []

    def _fit(self, owner: str, project: str, in_tests: bool) -> list[Entity]:
        key = (owner, project, in_tests)
        if key not in self._used_as:
            self._used_as[key] = self._fitting(self._uses.get(owner, frozenset()), project, in_tests)
        return self._used_as[key]

    def _fitting(self, used: frozenset[str], project: str, in_tests: bool) -> list[Entity]:
        """The one class of the project (or the one base of several) with every member used that a plain object
        lacks (`_has`), where two or more are used and one of them names what the value is (`telling`); [] otherwise."""
        required = sorted(name for name in used if name not in OBJECT_HAS)
        names = telling(required)
        if len(required) < 2 or not names:
            return []
        defining = {
            name: [
                e
                for e in self._by_short.get(("python", name), [])
                if e.project == project and e.type == EntityType.METHOD.value
            ]
            for name in names
        }
        defined = [name for name in names if defining[name]]  # (a library base may define the others)
        rarest = min(defined, key=lambda name: (len(defining[name]), name)) if defined else ""
        if not rarest or len(defining[rarest]) > MAX_FITTING:
            return []
        owners = [
            self._by_id.get(entity_id(EntityType.CLASS.value, project, method.qualified_name.rpartition(".")[0]))
            for method in defining[rarest]
        ]
        candidates = self._and_derived([c for c in owners if c is not None], in_tests)
        return self._one_root([c for c in candidates if all(self._has(c, name) for name in required)])

    def _and_derived(self, classes: Iterable[Entity], in_tests: bool) -> list[Entity]:
        """`classes` and every class deriving from them, once each in order; test classes only `in_tests`."""
        found: dict[str, Entity] = {}
        for cls in classes:
            for c in [cls, *self._derived(cls)]:
                if in_tests or not is_test_path(c.path or ""):
                    found.setdefault(c.id, c)
        return list(found.values())

    def _has(self, cls: Entity, name: str) -> bool:
        """Whether a call of `name` on an instance of `cls` runs something: its method, or a function an attribute of
        it holds; or may (a base of a project not indexed may define it)."""
        if self._member_or_called(cls, name):
            return True
        return any(c.id in self._open for c in self._lineage(cls))

    def _untyped(self, ref: AnyReference, project: str, types: set[str], path: str) -> list[Entity]:
        """A call on an attribute's value that no indexed class types, as on any untyped value: the
        guess a bare name gets (`_guessed`), unless a builtin type's method has it (`opts.update()`) or it is a dunder;
        a read of one, the project's one property of its name (`_named_getter`)."""
        builtin = JS_BUILTIN_METHODS if family(path) == "javascript" else BUILTIN_METHODS
        if ref.target in builtin or is_dunder(ref.target):
            return []
        if ref.type == RelationType.REFERENCES and family(path) == "python":  # a read: of a property, its getter
            return self._named_getter(ref.target, project, ref.source, path)
        if ref.type != RelationType.CALLS:
            return []
        return self._guessed(ref, project, types, path)

    def _held_by(self, name: str, entity: Entity) -> bool:
        """Whether `name` calls `entity` through a module-level name holding it, not by one of its own names."""
        if not entity.aliases or name not in self._names.get(entity.id, ()):
            return False
        return name not in (entity.qualified_name, *self._imports.of(entity))

    def _linked(self, ref: AnyReference, project: str, path: str) -> tuple[list[Entity], Resolution]:
        """A name the file does not define, bound as a linker would: in a method, its class's member (C++, Kotlin,
        Swift); in Kotlin (`owner`: the caller's package) and Rust (`owner`: the module a glob import brings), that
        module's function of the name, else only a name guess (a `*` import may have brought it); else the
        project's one function of the name (C), or its one type (a
        Swift or C# type of another file: `Auditor()`, `: GatewayBase`)."""
        for cls in self._caller_classes(ref.source) if family(path) not in LINKED_NOT_MEMBERS else ():
            if member := self._member(cls, ref.target, skip_first=False):
                return member, Resolution.EXACT
        types = set(ref.target_types) or set(CODE_TYPES)
        functions = {EntityType.FUNCTION.value} & types
        if ref.owner and ref.type != RelationType.HOLDS:  # (a `HOLDS` fact's owner is its attribute)
            packaged = self._qualified(f"{ref.owner}.{ref.target}", project, 0, _Tails.NONE)
            if packaged := [e for e in packaged if e.type in functions]:
                return packaged, Resolution(ref.resolution)
            return self._named(ref.target, project, functions, ref.source, path), Resolution.NAME
        # a function first (C's `struct stat` beside `stat()`), else a type
        found = self._named(ref.target, project, functions, ref.source, path) if functions else []
        found = found or self._scoped_class(ref.target, ref.source, types)
        found = found or self._named(ref.target, project, {EntityType.CLASS.value} & types, ref.source, path)
        return found, Resolution(ref.resolution)

    def _scoped(self, name: str, source: str, kinds: set[str]) -> str:
        """A name as a C++ caller writes it, looked up from the caller's namespaces and class outwards, as one of
        `kinds`: in `geo::Circle::perimeter`, `Logger` is `geo.Circle.Logger`, else `geo.Logger`, else `Logger`; a
        name the index does not know whose first part is a class written without its namespace (after `using
        namespace tinyxml2;`, `XMLDocument`) is that class's, where the project has one class of that name."""
        for known in self._names.get(source, []):
            scope = known.rpartition(".")[0]
            while scope:
                if any(e.type in kinds for e in self._by_name.get(f"{scope}.{name}", [])):
                    return f"{scope}.{name}"
                scope = scope.rpartition(".")[0]
        caller = self._by_id.get(source)
        if caller is None or name in self._by_name or EntityType.CLASS.value not in kinds:
            return name
        head, dot, rest = name.partition(".")
        for cls in self._named(head, caller.project, {EntityType.CLASS.value}, source, caller.path or ""):
            written = next((a for a in cls.aliases if a.endswith(f".{head}")), cls.qualified_name)
            return f"{written}{dot}{rest}"
        return name

    def _short_owner(self, owner: str, project: str, source: str, path: str) -> list[Entity]:
        """A receiver's type where types are written by their short names (C#, Ruby, Swift): its first name the
        project's one class of that name (`IPay`; `Element.FirstChild`: what that method gives); a field or property
        no class states is a type's name (`Utils.Format()` in a method: a static call of the project's `Utils`)."""
        cut = min((at for at in (owner.find("."), owner.find(ATTRIBUTE_MARK)) if at > 0), default=len(owner))
        head, classes = owner[:cut], {EntityType.CLASS.value}
        if not self._qualified(head, project, 0, _Tails.NONE):
            for cls in self._scoped_class(head, source, classes) or self._named(head, project, classes, source, path):
                owner = f"{cls.qualified_name}{owner[cut:]}"
        if found := self._qualified(owner, project, 0, _Tails.NONE):
            return found
        holder, mark, attribute = owner.rpartition(ATTRIBUTE_MARK)
        if mark and "." not in attribute:
            holders = self._qualified(holder, project, 0, _Tails.NONE)
            if holders and self._stated(holders, attribute) is None:
                return self._named(attribute, project, classes, source, path)
        return []

    def _scoped_class(self, name: str, source: str, types: set[str]) -> list[Entity]:
        """The class a short name means from the caller's namespaces outwards (C#'s `MetaData` in
        `dnlib.DotNet.Writer` is that namespace's, not `dnlib.DotNet.MD`'s), as `_scoped` finds it; [] for none."""
        classes = {EntityType.CLASS.value}
        if not classes & types or (scoped := self._scoped(name, source, classes)) == name:
            return []
        return [e for e in self._by_name.get(scoped, []) if e.type == EntityType.CLASS.value][:1]

    def _scoped_owner(self, owner: str, source: str) -> str:
        """A C++ receiver's type with its leading class looked up from the caller's namespaces outwards:
        `XMLNode@_document` -> `tinyxml2.XMLNode@_document`, `XMLNode.First` -> `tinyxml2.XMLNode.First`."""
        head = owner.partition(ATTRIBUTE_MARK)[0]
        while head:
            if (scoped := self._scoped(head, source, {EntityType.CLASS.value})) != head:
                return f"{scoped}{owner[len(head) :]}"
            head = head.rpartition(".")[0]
        return owner

    def _caller_classes(self, source: str) -> list[Entity]:
        """The class a calling method is a member of, found by any of the method's names (a C++ method defined
        outside its class is named `geo.Circle.area` as its class is `geo.Circle`)."""
        caller = self._by_id.get(source)
        if caller is not None and caller.type == EntityType.CLASS.value:  # a call in a class's body or initialiser
            return [caller]
        if caller is None or caller.type != EntityType.METHOD.value:
            return []
        language = family(caller.path or "")
        for known in self._names[source]:
            owner = known.rpartition(".")[0]
            found = self._by_name.get(owner, [])
            if classes := [e for e in found if e.type == EntityType.CLASS.value and family(e.path or "") == language]:
                return classes[:1]
        return []

    def _qualified(self, name: str, project: str, depth: int, tails: _Tails) -> list[Entity]:
        if not name or depth > MAX_DEPTH:
            return []
        if name.endswith(TABLE_MARK):  # `DECODERS[kind]()`: every definition the table holds (one project's)
            held = _definitions(self._by_name.get(name, []) or self._table_elsewhere(name, project, depth, tails))
            mine = [e for e in held if e.project == project]
            return mine or (held if len({e.project for e in held}) == 1 else [])
        if name.endswith((OWN_CLASS_MARK, GIVEN_CLASS_MARK)):  # `cls(...)`: the class (the receiver says whose)
            unmarked = name.removesuffix(OWN_CLASS_MARK).removesuffix(GIVEN_CLASS_MARK)
            return self._qualified(unmarked, project, depth + 1, tails)
        if name.endswith(MADE_BY_MARK):  # `type.__call__(cls, ...)` in a metaclass: every class it makes
            return self._made_by(self._qualified(name.removesuffix(MADE_BY_MARK), project, depth + 1, tails)[:1])
        if name.endswith(SUBCLASSES_MARK):  # `cls(...)`: every class deriving from the class (it is bound apart)
            bases = self._qualified(name.removesuffix(SUBCLASSES_MARK), project, depth + 1, tails)
            return self._derived(bases[0]) if bases and bases[0].type == EntityType.CLASS.value else []
        if name.endswith(ENTERED_MARK):  # `with client.stream(...) as response:`
            entered = self._qualified(name.removesuffix(ENTERED_MARK), project, depth + 1, tails)
            element = self._returns.get(f"{entered[0].id}{ELEMENTS_MARK}", "") if entered else ""
            if element in self._by_id:  # a generator made a context manager (`@contextmanager`): what it yields
                return [self._by_id[element]]
            return entered
        if name.endswith(PATH_ASKED_MARK):  # `from .utils import echo`: a module's own `__getattr__`, if it has one
            hook = self._qualified(f"{name.removesuffix(PATH_ASKED_MARK)}.__getattr__", project, depth + 1, tails)
            # (a package's `__init__` is not asked: a package has a `__path__` of its own)
            return [e for e in hook[:1] if e.type == EntityType.FUNCTION.value and not heads_folder(e.path or "")]
        if name.endswith(ELEMENTS_MARK) and ATTRIBUTE_MARK not in name.rpartition(".")[2]:
            # `for node in parent.iter_child_nodes()`: each element's class (`Class@options[]`: what the class states
            # of its attribute's elements, read below as what it holds)
            functions = self._qualified(name.removesuffix(ELEMENTS_MARK), project, depth + 1, tails)
            element = self._returns.get(f"{functions[0].id}{ELEMENTS_MARK}", "") if functions else ""
            return [self._by_id[element]] if element in self._by_id else []
        found = _prefer(self._by_name.get(name, []), project)
        if found and heads_folder(found[0].path or ""):  # a package's own definition of a name it also imports
            found = self._imported_instead(name, found)
        for wider in wider_conftests(name) if not found and CONFTEST in name else ():  # a fixture of a folder above
            if found := _prefer(self._by_name.get(wider, []), project):
                break
        if not found and tails is not _Tails.NONE:
            found = self._tail(name, project, tails)
        if found:
            return found
        head, _, last = name.rpartition(".")
        if ATTRIBUTE_MARK in last:  # `pkg.Response@connection`: what the attribute holds
            holder, _, attribute = name.rpartition(ATTRIBUTE_MARK)
            owners = self._qualified(holder, project, depth + 1, tails)
            if marked := _parameter_marked(attribute):  # `f@(key#2)()`: the functions and classes callers pass it;
                return self._passed_itself(owners, *marked)  # `f@(iterable#1)<next>`: the generators' functions
            return self._held(owners, attribute)
        if not head:
            return []
        for owner in self._qualified(head, project, depth + 1, tails)[:1]:
            if owner.type == EntityType.CLASS.value:  # (what calling an attribute holding a class or function runs)
                return self._member(owner, last, skip_first=False) or self._called(owner, last)
            if owner.type == EntityType.MODULE.value:
                return self._reexported(owner, last) or self._imported_all(owner, last, depth)
            for returned in self._returned([owner]):  # `make_pool().query`: a member of what the call gives
                return self._member(returned, last, skip_first=False)
        return []

    def _of_class_attribute(self, name: str, project: str, tails: _Tails) -> list[Entity]:
        """`Char.tagSet.tagImplicitly(...)`, `Model.objects.filter(...)`: a method of what a class attribute holds,
        as the class or a base states it (`tagSet = TagSet(...)` in a base's body); [] for anything else."""
        head, _, method = name.rpartition(".")
        holder, _, attribute = head.rpartition(".")
        if not holder or ATTRIBUTE_MARK in head:
            return []
        owners = [e for e in self._qualified(holder, project, 0, tails)[:1] if e.type == EntityType.CLASS.value]
        if not owners or self._member(owners[0], attribute, skip_first=False):
            return []  # (a method or nested class of that name is what `_qualified` reads)
        held = self._held(owners, attribute)
        return self._member(held[0], method, skip_first=False) if held else []

    def _imported_instead(self, name: str, found: list[Entity]) -> list[Entity]:
        """What a package's `__init__` imports by a name it also defines (a stand-in for when the import fails:
        `except ImportError: class AsyncHTTP2Connection: ...`): the import, which is what runs where it succeeds."""
        head, _, last = name.rpartition(".")
        packages = [e for e in self._by_name.get(head, []) if e.type == EntityType.MODULE.value]
        held = self._holds.get((packages[0].id, f"{last}{CALLED_MARK}")) if packages else None
        imported = self._by_id.get(held or "")
        return [imported] if imported is not None else found

    def _table_elsewhere(self, name: str, project: str, depth: int, tails: _Tails) -> list[Entity]:
        """The definitions a table holds that is named other than where it is defined: a module's name for another
        module's table it imports to be imported from it (`defaults.DEFAULT_FILTERS[*]`), or a class attribute given
        a copy of one (`Environment@filters[*]`): the table the one function its `HOLDS` fact keeps answers to."""
        head, _, last = name.removesuffix(TABLE_MARK).rpartition(".")
        holder, mark, attribute = last.rpartition(ATTRIBUTE_MARK)
        if mark:
            owners = self._qualified(f"{head}.{holder}" if head else holder, project, depth + 1, tails)
            kept = self._stated(owners, f"{attribute}{TABLE_MARK}")
            if kept is None:  # a table the class body (or a base's) gives: its items
                return self._class_body_items(owners, attribute)
        else:
            modules = [e for e in self._qualified(head, project, depth + 1, tails) if e.type == EntityType.MODULE.value]
            kept = self._holds.get((modules[0].id, f"{last}{TABLE_MARK}")) if modules else None
        one = self._by_id.get(kept or "")
        tables = sorted(a for a in one.aliases if a.endswith(TABLE_MARK)) if one is not None else []
        return [e for table in tables for e in self._by_name.get(table, [])]

    def _class_body_items(self, owners: Sequence[Entity], attribute: str) -> list[Entity]:
        """The functions and classes the table a class body gives `attribute` holds (`TYPE_MAPPING = {str: String,
        ...}`), of the first of `owners` (or the class it returns) or the nearest of its bases that gives one."""
        classes = [o for o in owners[:1] if o.type == EntityType.CLASS.value] or self._returned(owners)
        for cls in self._lineage(classes[0]) if classes else []:
            if items := self._table_items.get((cls.id, attribute)):
                return [self._by_id[i] for i in sorted(items) if i in self._by_id]
        return []

    def _held(self, owners: Sequence[Entity], attribute: str) -> list[Entity]:
        """The class `attribute` holds on the first of `owners` (a class, or a function: on the class it returns),
        as the class or the nearest of its bases states it: [] when none does."""
        held = self._stated(owners, attribute)
        if held is None and owners and owners[0].type == EntityType.MODULE.value:
            return []  # a module's name that is a class itself (a re-export) has no instance's methods
        if held is None:  # an attribute holding a class itself (`parser_class = Parser`): that class's members
            itself = self._by_id.get(self._stated(owners, f"{attribute}{CALLED_MARK}") or "")
            if itself is not None:
                return [itself] if itself.type == EntityType.CLASS.value else []
            classes = [o for o in owners[:1] if o.type == EntityType.CLASS.value]
            return self._undeclared(classes[0], attribute) if classes else []
        found = self._by_id.get(held or "")
        if found is None:
            return []
        return [found] if found.type == EntityType.CLASS.value else self._returned([found])

    def _attribute_called(self, cls: Entity, attribute: str) -> tuple[list[Entity], Resolution]:
        """What calling an attribute `cls` defines no method for runs, and how surely: the class or function it
        holds itself (`env.context_class(...)`), else the `__call__` of what the class's `__getattr__` says it is
        (`pm.hook.myhook(...)`); else, where it holds nothing indexed (`Set = set`), each class or function the
        classes deriving from it hold there instead (`Set = OrderedSet`), as a dispatch."""
        if called := self._called(cls, attribute):
            return called, Resolution.INFERRED
        if dynamic := self._undeclared(cls, attribute):
            return self._member(dynamic[0], "__call__", skip_first=False), Resolution.INFERRED
        return self._held_by_derived(cls, attribute), Resolution.DISPATCH

    def _held_by_derived(self, cls: Entity, attribute: str) -> list[Entity]:
        """Each class or function the classes deriving from `cls` hold under `attribute`, sorted by id."""
        held = {e.id: e for derived in self._derived(cls) for e in self._called(derived, attribute)}
        return [held[i] for i in sorted(held)]

    def _undeclared(self, cls: Entity, attribute: str) -> list[Entity]:
        """The class `cls`'s `__getattr__` (or its nearest base's) says an attribute the class does not define is
        (pluggy's `HookRelay.__getattr__(self, name) -> HookCaller`: `pm.hook.myhook` is a HookCaller, and calling it
        runs `HookCaller.__call__`); [] where the class defines the attribute or its `__getattr__` states no class."""
        stated = self._stated([cls], attribute) is not None or self._stated([cls], f"{attribute}{CALLED_MARK}")
        if stated or self._member(cls, attribute, skip_first=False):
            return []
        return self._returned(self._member(cls, "__getattr__", skip_first=False)[:1])

    def _called(self, cls: Entity, attribute: str) -> list[Entity]:
        """The class or function an attribute of `cls` (or of the nearest of its bases) holds itself, which a call of
        the attribute runs (`context_class = Context`: `env.context_class(...)` constructs a Context); [] when none
        does."""
        held = self._by_id.get(self._stated([cls], f"{attribute}{CALLED_MARK}") or "")
        return [held] if held is not None else []

    def _stated(self, owners: Sequence[Entity], attribute: str) -> str | None:
        """The id of what `attribute` holds as the first of `owners` (or the class it returns) or the nearest of its
        bases states it: "" when that class is not indexed yet, None when no class states it."""
        if owners and owners[0].type != EntityType.CLASS.value and (owners[0].id, attribute) in self._holds:
            return self._holds[(owners[0].id, attribute)]  # a function's callback's parameter (`operate@0:1`)
        if owners and attribute.startswith(PARAMETER_OPEN):  # `Ext.extend@(md#0)`: what the overridden method
            name, place = parameter_parts(attribute)  # states, else what calls pass it
            overridden = self._overridden_parameter(owners[0], parameter_attribute(name))
            if overridden is not None:
                return overridden
            return self._passed.held(owners[0].id, name, place, self._passed_classes, self._lineage)
        classes = [o for o in owners[:1] if o.type == EntityType.CLASS.value] or self._returned(owners)
        for cls in self._lineage(classes[0]) if classes else []:
            if (cls.id, attribute) in self._holds:
                return self._holds[(cls.id, attribute)]
        return None

    def _passed_itself(self, owners: Sequence[Entity], attribute: str, mark: str) -> list[Entity]:
        """The functions and classes a parameter (`(key#2)`) of the first of `owners` holds itself, as the calls of
        every file pass them (a default counts as passed), by id; with `GENERATED_MARK`, the functions whose
        generators they pass it."""
        if not owners or owners[0].type not in (EntityType.FUNCTION.value, EntityType.METHOD.value):
            return []
        ids = set(self._itself_passed(mark, owners[0].id, attribute))
        if mark == CALLED_MARK:  # an instance passed (`wrap(self.retry)`, `retry: retry_base`): its `__call__` runs
            name, place = parameter_parts(attribute)
            for cls in self._passed.every(owners[0].id, name, place, self._passed_classes):
                ids.update(m.id for m in self._member(cls, "__call__", skip_first=False))
        return [self._by_id[i] for i in sorted(ids) if i in self._by_id]

    def _itself_passed(self, mark: str, held_id: str, beside: str) -> frozenset[str]:
        """The ids of the functions and classes a value passed is itself (or whose generator it is, by `mark`): the
        entity (`mark` beside it), or what its own parameter holds so, passed on (`(key#1)`); none for anything
        else."""
        if beside == mark == GENERATED_MARK:  # what a call of the function gives: the generator it holds, if any
            generator = self._holds.get((held_id, GENERATED_MARK))
            return frozenset((generator,)) if generator else frozenset()
        if beside == mark or (beside == OWN_CODE_MARK and mark == CALLED_MARK):  # (a lambda's call runs its code)
            return frozenset((held_id,))
        if beside in (CALLED_MARK, GENERATED_MARK, OWN_CODE_MARK) or not beside.startswith(PARAMETER_OPEN):
            return frozenset()
        name, place = parameter_parts(beside)
        return self._passed.itself(held_id, name, place, mark, partial(self._itself_passed, mark))

    def _passed_classes(self, held_id: str, beside: str) -> list[Entity]:
        """The class a value a call passes is: what the attribute `beside` of the entity holds (`f@(p#0)`: what f's
        parameter holds), else the class itself or what the function returns."""
        held = self._by_id.get(held_id)
        if held is None:
            return []
        if beside:
            return self._held([held], beside)
        return [held] if held.type == EntityType.CLASS.value else self._returned([held])

    def passed_to(self, ref: Reference, project: str, path: str) -> list[tuple[str, str, str]]:
        """(function id, attribute, entity id) of the `HOLDS` facts a call's argument (`PASSES`) states: for each
        function or method the call binds to (a class's `__init__`), the slot and what the value is beside the entity
        it names (`mod.cached@(cache#0)`: the entity `mod.cached`, beside it `(cache#0)`)."""
        if len(ref.passed) != 2:
            return []
        called = replace(ref, type=RelationType.CALLS)
        found, how = self.resolve(called, project, path)
        tails = _tails(called, path)[0]
        if how is Resolution.NAME:  # a method call bound by name: where one class's method and overrides have it
            found = self._one_method(ref.target, project, path) if TargetForm(ref.form) is TargetForm.NAME else []
        own = self._own_code_called(called.target, project, tails)
        functions = [e for e in found if e.type in (EntityType.FUNCTION.value, EntityType.METHOD.value)]
        functions = [e for e in functions if e.id not in own]
        classes = [e for e in found if e.type == EntityType.CLASS.value]
        functions += [i for e in classes for i in self._member(e, "__init__", skip_first=False)[:1]]
        slot, value = ref.passed
        head, mark, beside = value.partition(ATTRIBUTE_MARK)
        itself = next((m for m in (CALLED_MARK, GENERATED_MARK, OWN_CODE_MARK) if not mark and head.endswith(m)), "")
        if itself:  # a function or class itself (`mod.hashkey()`), or a generator of a function (`mod.gen<next>`)
            head, mark, beside = head.removesuffix(itself), ATTRIBUTE_MARK, itself
        held = self._qualified(head, project, 0, tails)[:1]
        if not held and not mark:  # an instance of the class a type alias of another module names
            held = self._module_held(head, project, tails)[:1]
        if not held or not functions:
            return []
        attribute = f"{slot}{mark}{beside}"
        return [(f.id, attribute, held[0].id) for f in functions]

    def _own_code_called(self, target: str, project: str, tails: _Tails) -> frozenset[str]:
        """The ids of the functions a call of a parameter (`f@(callback#0)()`) runs only as code written in them (a
        lambda or nested `def` passed on, `OWN_CODE_MARK`): what the call passes fills the lambda's parameters."""
        holder, _, attribute = target.rpartition(ATTRIBUTE_MARK)
        parameter, mark = _parameter_marked(attribute) or ("", "")
        if mark != CALLED_MARK:
            return frozenset()
        owners = self._qualified(holder, project, 0, tails)[:1]
        if not owners or owners[0].type not in (EntityType.FUNCTION.value, EntityType.METHOD.value):
            return frozenset()
        return self._itself_passed(OWN_CODE_MARK, owners[0].id, parameter)

    def _one_method(self, name: str, project: str, path: str) -> list[Entity]:
        """The project's methods named `name`, where every one is one class's method or an override of it (mako's
        `Node.accept_visitor` and `Tag.accept_visitor`): a call bound by that name alone runs one of them, so what it
        passes reaches their parameters, as a call on a typed value's would; [] where unrelated classes define it."""
        key = (name, project, is_test_path(path))
        if key not in self._one_methods:
            self._one_methods[key] = self._of_one_class(name, project, in_tests=key[2])
        return self._one_methods[key]

    def _family_root(self, ref: AnyReference, project: str, types: set[str], path: str) -> list[Entity]:
        """A Python call by a method's name alone (`concreteDecoder.valueDecoder(...)` on a value a table gives):
        where the project's methods of that name are one class's and its overrides (`_one_method`), a guess at that
        class's method, which a walk back from an override reaches through it; none where unrelated classes define
        the name."""
        if ref.type != RelationType.CALLS or family(path) != "python" or EntityType.METHOD.value not in types:
            return []
        methods = self._one_method(ref.target, project, path)
        return [m for m in methods if all(self._overrides_or_is(other, m) for other in methods)][:1]

    def _overrides_or_is(self, method: Entity, base: Entity) -> bool:
        """Whether `method`'s class is `base`'s class or derives from it."""
        held, below = self._caller_classes(method.id)[:1], self._caller_classes(base.id)[:1]
        return bool(held and below) and below[0].id in {c.id for c in self._lineage(held[0])}

    def _of_one_class(self, name: str, project: str, *, in_tests: bool) -> list[Entity]:
        methods = [
            e
            for e in self._by_short.get(("python", name), [])
            if e.project == project
            and e.type == EntityType.METHOD.value
            and (in_tests or not is_test_path(e.path or ""))
        ]
        classes = [self._caller_classes(e.id)[:1] for e in methods]
        if not methods or not all(classes):
            return []
        lineages = [{c.id for c in self._lineage(held[0])} for held in classes]
        return methods if any(all(held[0].id in lineage for lineage in lineages) for held in classes) else []

    def _overridden(self, function: str) -> list[str]:
        """The ids of the methods of its name a method overrides, nearest base first (a call bound to one may run
        it instead); [] for a function, and for a constructor (`Base(...)` and `super().__init__(...)` run the base's
        own, never an override's)."""
        method = self._by_id.get(function)
        if method is None or method.type != EntityType.METHOD.value or method.name in CONSTRUCTOR_METHODS:
            return []
        classes = self._caller_classes(function)[:1]
        return [o.id for cls in classes for base in self._lineage(cls)[1:] for o in self._own(base, method.name)[:1]]

    def _overridden_parameter(self, method: Entity, attribute: str) -> str | None:
        """The id of what a parameter of `method` holds as the nearest base method of the same name that states it
        does (the method itself states none): "" when that class is not indexed yet, None when none states it."""
        if method.type != EntityType.METHOD.value:
            return None
        for cls in self._caller_classes(method.id):
            for base in self._lineage(cls)[1:]:
                for overridden in self._own(base, method.name)[:1]:
                    if (overridden.id, attribute) in self._holds:
                        return self._holds[(overridden.id, attribute)]
        return None

    def _waiting(self, owner: str, project: str) -> bool:
        """Whether `owner` is the elements of a function whose stated element class is not indexed yet."""
        if not owner.endswith(ELEMENTS_MARK):
            return False
        functions = self._qualified(owner.removesuffix(ELEMENTS_MARK), project, 0, _Tails.NONE)
        return bool(functions) and f"{functions[0].id}{ELEMENTS_MARK}" in self._returns

    def _returned(self, functions: Sequence[Entity]) -> list[Entity]:
        """The class the first of `functions` says it returns, when it says one: [] otherwise."""
        returned = self._returns.get(functions[0].id, "") if functions else ""
        return [self._by_id[returned]] if returned in self._by_id else []

    def _member_or_called(self, cls: Entity, name: str) -> list[Entity]:
        """What `name` of an instance of `cls` runs: its method, else what the attribute holds, else the class's own
        method a standard-library base's method of that name runs (`update`: the class's `__setitem__`)."""
        return self._member(cls, name, skip_first=False) or self._called(cls, name) or self._library_runs(cls, name)

    def _library_runs(self, cls: Entity, name: str) -> list[Entity]:
        """The class's own method a standard-library base's method `name` runs (`Cache(MutableMapping)`: `update`
        runs `Cache.__setitem__`), as the class or the nearest of its bases states it; [] for none."""
        runs = self._by_id.get(self._stated([cls], f"{name}{LIBRARY_RUNS_MARK}") or "")
        return [runs] if runs is not None else []

    def _of_module_instance(self, ref: AnyReference, name: str, project: str, tails: _Tails) -> list[Entity]:
        """What a name no definition has names through a module-level instance another module states: a method of it
        (`pkg.structures.Infinity.grow`), for what an attribute holds, its class (`retry: "RetryBaseT"`, an alias of
        one class: the attribute holds an instance of it), and for a call of the instance, its class's `__call__`
        (pyasn1's `decoder.decode(...)`, where `decode = Decoder()`); [] for anything else."""
        if found := self._instance_member(name, project, tails):
            return found
        if ref.type == RelationType.HOLDS:
            return self._module_held(name, project, tails)
        if ref.type == RelationType.CALLS and (classes := self._module_held(name, project, tails)):
            return self._member(classes[0], "__call__", skip_first=False)  # `decode(b"...")`, `decode = Decoder()`
        return []

    def _instance_member(self, name: str, project: str, tails: _Tails) -> list[Entity]:
        """`pkg.structures.Infinity.grow`, where the module gives `Infinity` one instance (`Infinity =
        InfinityType()`, a `HOLDS` fact of the module): the method of that instance's class; [] for anything else."""
        head, _, member = name.rpartition(".")
        classes = self._module_held(head, project, tails) if member else []
        return self._member(classes[0], member, skip_first=False) if classes else []

    def _runs_name(self, cls: Entity, name: str) -> str:
        """The name of the class's method a standard-library base's method `name` runs ("" for none)."""
        return next((e.name for e in self._library_runs(cls, name)), "")

    def _held_below(self, owner: str, project: str, tails: _Tails) -> list[Entity]:
        """What a call of a class's attribute gives where the class leaves it to its subclasses (`Cache = None` in a
        test mixin, `Cache = FIFOCache` in each test class deriving from it: `self.Cache(maxsize=2)`): every class a
        subclass holds under that name, sorted; [] where none does."""
        head, _, attribute = owner.rpartition(".")
        classes = [e for e in self._qualified(head, project, 0, tails) if e.type == EntityType.CLASS.value][:1]
        held = self._held_by_derived(classes[0], attribute) if classes else []
        return [e for e in held if e.type == EntityType.CLASS.value]

    def _called_member(self, owner: str, project: str, tails: _Tails) -> bool:
        """Whether `owner` (a name the index does not know) is what a call of a member of a known class or function
        gives (`Foo.make`, where Foo has no `make` of its own, or `make` is inherited from a library)."""
        head = owner.rpartition(".")[0]
        known = self._qualified(head, project, 0, tails) if head else []
        return any(e.type != EntityType.MODULE.value for e in known)

    def _tail(self, name: str, project: str, tails: _Tails) -> list[Entity]:
        """The one entity known by the longest tail of `name` (two parts at least) that the index knows."""
        parts = name.split(".")
        for i in range(len(parts) - 1):
            key = ".".join(parts[i:])
            found = _definitions([*(self._by_name.get(key, []) if i else []), *self._by_tail.get(key, [])])
            # The tail must start at a folder or file of the definition: `Pool.query` left of `pg.Pool.query` (a
            # package not in the index) names a class and its method, which any project may have.
            if tails is _Tails.AT_FOLDER:
                found = [e for e in found if parts[i] in posixpath.splitext(e.path or "")[0].split("/")]
            if found:
                mine = [e for e in found if e.project == project]
                return (mine or found) if len(mine or found) == 1 else []
        return []

    def _member(self, cls: Entity, name: str, *, skip_first: bool) -> list[Entity]:
        """`name` defined on the class or, nearest first, on its bases."""
        for current in self._lineage(cls)[1 if skip_first else 0 :]:
            if found := self._own(current, name):
                return found[:1]
        return []

    def _own(self, cls: Entity, name: str) -> list[Entity]:
        """`name` as the class itself defines it: in its own project (another project may have a class of the same
        qualified name, a fork or another version)."""
        for known in self._names[cls.id]:
            if found := [e for e in self._by_name.get(f"{known}.{name}", []) if e.project == cls.project]:
                return found
        return self._implemented_apart(cls, name)

    def _implemented_apart(self, cls: Entity, name: str) -> list[Entity]:
        """A method another file gives a type: a Rust `impl` in another module (`impl FromStr for Version` in
        `parse.rs`), a C# extension method (`static uint Read(this IBinaryReader r)`, which answers to
        `IBinaryReader.Read`): the project's method named `Type.name`, where the project has one type of that name."""
        language = family(cls.path or "")
        if language not in IMPLEMENTED_APART:
            return []
        written = f"{cls.name}.{name}"
        methods = [
            e
            for e in self._by_short.get((language, name), [])
            if e.project == cls.project
            and e.type == EntityType.METHOD.value
            and (e.qualified_name.endswith(f".{written}") or written in e.aliases)
        ]
        types = [e for e in self._by_short.get((language, cls.name), []) if e.project == cls.project]
        return methods[:1] if methods and [e.id for e in types if e.type == EntityType.CLASS.value] == [cls.id] else []

    def _prefixed(self, cls: Entity, prefix: str) -> list[Entity]:
        """The methods whose name starts with `prefix` that the class, its bases or a class deriving from it
        define (`getattr(self, f"visit_{kind}")` in a visitor base reaches its subclasses' `visit_*`); after
        `UPPER_CASE_MARK`, those named in capitals only (pyflakes' `getattr(self, node_class.__name__.upper())`
        reaches `ASSIGN`, `CALL`, ...)."""
        found: dict[str, Entity] = {}
        upper = prefix.startswith(UPPER_CASE_MARK)  # `getattr(self, kind.upper())`: the methods named in capitals
        prefix = prefix.removeprefix(UPPER_CASE_MARK)
        for owner in [*self._lineage(cls), *self._derived(cls)]:
            named = [(m.name, m) for m in self._methods().get((owner.project, owner.qualified_name), [])]
            for name, method in [*named, *self._aliases(owner)]:
                capitals = name.isupper() and not name.startswith("__")
                if name.startswith(prefix) and (capitals or not upper):
                    found.setdefault(method.id, method)
        return sorted(found.values(), key=lambda e: e.id)

    def _aliases(self, cls: Entity) -> list[tuple[str, Entity]]:
        """(name, method) for each name a class's body gives one of its functions (`visit_Template =
        _simple_visit`): a member of that name runs it."""
        if self._aliases_of is None:
            self._aliases_of = defaultdict(list)
            for (holder, attribute), held in self._holds.items():
                method = self._by_id.get(held) if attribute.endswith(CALLED_MARK) else None
                if method is not None and method.type == EntityType.METHOD.value:
                    self._aliases_of[holder].append((attribute.removesuffix(CALLED_MARK), method))
        return self._aliases_of.get(cls.id, [])

    def _methods(self) -> dict[tuple[str, str], list[Entity]]:
        """(project, class qualified name) -> its methods (built when first asked: few references need it)."""
        if self._methods_of is None:
            self._methods_of = defaultdict(list)
            for e in self._by_id.values():
                if e.type == EntityType.METHOD.value:
                    self._methods_of[(e.project, e.qualified_name.rpartition(".")[0])].append(e)
        return self._methods_of

    def _derived_members(self, cls: Entity, name: str) -> list[Entity]:
        """`name` as the classes deriving from `cls` define it (each class's own or its other bases', or what an
        attribute of that name holds there), when `cls` and its bases do not: what `self.name()` in `cls` runs on an
        instance of one of them (a mixin's `self.token_next_by()`, which `Identifier(NameAliasMixin, TokenList)` has
        from `TokenList`)."""
        found: dict[str, Entity] = {}
        for derived in self._derived(cls):
            defined = self._member(derived, name, skip_first=False)
            for e in [*defined, *self._called(derived, name)]:  # (`self.child = self.render`)
                found.setdefault(e.id, e)
        return sorted(found.values(), key=lambda e: e.id)

    def _made_by(self, metaclasses: Sequence[Entity]) -> list[Entity]:
        """The classes the first of `metaclasses` makes: those stating it as their metaclass (`__class__()`), and
        every class deriving from them."""
        if not metaclasses or metaclasses[0].type != EntityType.CLASS.value:
            return []
        stating = sorted(
            c for (c, attribute), held in self._holds.items() if attribute == METACLASS and held == metaclasses[0].id
        )
        made = {c: self._by_id[c] for c in stating if c in self._by_id}
        for cls in list(made.values()):
            made.update((d.id, d) for d in self._derived(cls))
        return [made[i] for i in sorted(made)]

    def _metaclass_calls(self, found: Sequence[Entity]) -> list[Entity]:
        """What calling a class runs first where its metaclass (one of the project's, stated by it or a base)
        defines `__call__`: that method (mako's `Tag(keyword, ...)` runs `_TagMeta.__call__`)."""
        made = [e for e in found if e.type == EntityType.CLASS.value]
        metaclasses = {m for e in made if (m := self._stated([e], METACLASS))}
        calls = [
            c
            for m in sorted(metaclasses)
            if m in self._by_id
            for c in self._member(self._by_id[m], "__call__", skip_first=False)[:1]
        ]
        return [c for c in calls if c.id not in {e.id for e in found}]

    def _derived(self, cls: Entity) -> list[Entity]:
        """Every class deriving from `cls`, nearest first, as far as MAX_BASES classes."""
        if self._children is None:
            self._children = defaultdict(list)
            for child, bases in sorted(self._bases.items()):
                for base in bases:
                    self._children[base].append(child)
        children = self._children
        order: list[Entity] = []
        seen, level = {cls.id}, [cls.id]
        while level and len(order) < MAX_BASES:
            following = [c for current in level for c in children.get(current, []) if c not in seen]
            seen.update(following)
            order.extend(self._by_id[c] for c in following if c in self._by_id)
            level = following
        return order

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

    def _imported_all(self, module: Entity, name: str, depth: int) -> list[Entity]:
        """`name` as a module the Python module `module` imports every name of gives it (`from .exceptions import
        *` in pyparsing's `core.py`, so `core.col` is `util.col`, which `exceptions.py` imports), the last such import
        first, as Python binds them; [] when none does."""
        modules: list[str] = []
        while (held := self._holds.get((module.id, f"{IMPORTS_ALL_MARK}{len(modules)}"))) is not None:
            modules.append(held)
        for star in [self._by_id[m] for m in reversed(modules) if m in self._by_id and m != module.id]:
            if found := self._qualified(f"{star.qualified_name}.{name}", module.project, depth + 1, _Tails.NONE):
                return found
        return []

    def _reexported(self, module: Entity, name: str) -> list[Entity]:
        """The one module-level definition of `name` inside the folder `module` heads (what `from .x import name`
        in an `__init__`, `export ... from './x'` in an `index` or `pub use` in a `mod.rs` make importable); in
        JavaScript and TypeScript, any module may re-export (a barrel: mobx's `internal.ts` is `export * from
        "./utils/utils"` and more), and a name imported from one that does not define it is one it re-exports. What
        a Python package's `__init__` states it imports by the name (`HOLDS`, `Template()`) comes first: the folder
        may hold several definitions of it."""
        stated = self._by_id.get(self._holds.get((module.id, f"{name}{CALLED_MARK}")) or "")
        if stated is not None and heads_folder(stated.path or ""):  # imported from a package that imports it too
            return self._imported_instead(stated.qualified_name, [stated])
        if stated is not None:
            return [stated]
        if not heads_folder(module.path or "") and family(module.path or "") != "javascript":
            return []
        folder = posixpath.dirname(module.path or "")
        inside = [
            e
            for e in self._top_level.get(name, [])
            if e.project == module.project and (e.path or "").startswith(f"{folder}/" if folder else "")
        ]
        return inside if len(inside) == 1 else []

    def _named_getter(self, name: str, project: str, source: str, path: str) -> list[Entity]:
        """The one entity of the project named so (`_named`) where it is a property's getter, a class stating it so
        (`GETTER_MARK`); none for a method or function of that name (a read of it calls nothing)."""
        return [e for e in self._named(name, project, {EntityType.METHOD.value}, source, path) if self._is_getter(e)]

    def _named(self, name: str, project: str, types: set[str], source: str, path: str) -> list[Entity]:
        """The one entity of the project and language with this name (test code only when the caller is test code
        too)."""
        in_tests = is_test_path(path or (self._by_id[source].path or "" if source in self._by_id else ""))
        found = [
            e
            for e in self._by_short.get((family(path) if path else "python", name), [])
            if e.project == project
            and e.type in types
            and e.id != source
            and (in_tests or not is_test_path(e.path or ""))
        ]
        return found if len(found) == 1 else []


def _tails(ref: AnyReference, path: str) -> tuple[_Tails, bool]:
    """How a reference's written name is matched, and whether it is written in the file's own folder: a name written
    from outside the project by its tail; one in the file's own folder (a Go package's other files, a relative
    import) exactly or not at all."""
    by_path = family(path) not in ("python", "")
    folder = posixpath.dirname(path).replace("/", ".")
    written = ref.owner if TargetForm(ref.form) is TargetForm.MEMBER else ref.target
    own_folder = by_path and bool(folder) and written.startswith(f"{folder}.")
    if by_path and not own_folder:
        return (_Tails.ANY if Resolution(ref.resolution) is Resolution.NAME else _Tails.AT_FOLDER), own_folder
    return _Tails.NONE, own_folder


def _parameter_marked(attribute: str) -> tuple[str, str] | None:
    """A parameter's attribute and the mark after it, for what it holds itself called (`(key#2)()`) or the generators
    it holds consumed (`(iterable#1)<next>`); None for any other attribute."""
    for mark in (CALLED_MARK, GENERATED_MARK):
        parameter = attribute.removesuffix(mark)
        if parameter != attribute and parameter.startswith(PARAMETER_OPEN) and parameter.endswith(PARAMETER_CLOSE):
            return parameter, mark
    return None


def _definitions(found: Sequence[Entity]) -> list[Entity]:
    """Distinct entities, a module dropped when something else has the same name (a Java class and its file)."""
    unique = list({e.id: e for e in found}.values())
    others = [e for e in unique if e.type != EntityType.MODULE.value]
    return others if others and len(others) < len(unique) else unique


def _prefer(found: Sequence[Entity], project: str) -> list[Entity]:
    """One project's entities for a name: the referring project's, else the only other project's."""
    found = _definitions(found)
    if not found:
        return []
    mine = [e for e in found if e.project == project]
    if mine:
        return mine[:1]
    projects = {e.project for e in found}
    return list(found[:1]) if len(projects) == 1 else []


def _names_of(entity: Entity, imports: ImportNames) -> list[str]:
    """Every name code can call an entity by: its qualified name, its import names, and the module-level names of its
    file that hold it (a top-level definition's dotted aliases, as its import names name them too)."""
    names = [entity.qualified_name, *imports.of(entity)]
    module_q, _, own = entity.qualified_name.rpartition(".")
    held = [a for a in entity.aliases if a.startswith(f"{module_q}.") and "." not in a[len(module_q) + 1 :]]
    if not held or family(entity.path or "") != "python" or module_name(entity.path or "") != module_q:
        return names
    modules = [module_q, *(n.removesuffix(f".{own}") for n in names[1:] if n.endswith(f".{own}"))]
    return [*names, *(f"{m}.{a[len(module_q) + 1 :]}" for a in held for m in modules)]
