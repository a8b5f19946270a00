"""What runs when a call runs, derived from the stored relations of one generation: the override a call bound to a
base method may reach (virtual dispatch), and the constructor a call of a class runs.

The binders bind each call to the declared target: `transport.handle_request(...)` with `transport: BaseTransport` is
a call of `BaseTransport.handle_request`. What executes is whichever override the receiver's class has, so every
override of the declared method in the indexed code is a target too — an edge of resolution `dispatch`, after the
declared target and before a guess. Where the binder knows more of the receiver (`Relation.receiver`), fewer run: a
call on `self` in a class `C` whose base defines the method runs an override of C's, of a class deriving from C, or of
a mixin such a class puts before C, never a sibling's; `super().m()` and `Base.m(self)` run the method they name.
Likewise `Client(...)` runs the `__init__` (and `__new__`, `__post_init__`) the class's bases give it. Each method
that overrides another gets an `OVERRIDES` edge to it.

Derived when a generation's relations are read into memory, never stored: an override added or removed in one file
changes what calls in every other file reach, and deriving them again from the generation's own relations keeps them
exactly in step with it.
"""

from __future__ import annotations

import logging
from collections import defaultdict, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise

import pyarrow as pa
import pyarrow.compute as pc

from trident.retrieval.relation_columns import strings
from trident.retrieval.wrapper_calls import wrapper_calls
from trident.store.schema import (
    CLASS_ID_PREFIX,
    GIVEN_RUN,
    RelationType,
    Resolution,
    dispatch_below,
    on_own_receiver,
)

log = logging.getLogger(__name__)
METHOD_PREFIX = "method:"
# What a call of a class runs: Python's in the order it runs them, a JavaScript/TypeScript class's `constructor`.
CONSTRUCTORS = ("__new__", "__init__", "__post_init__", "constructor")
# What runs its target: a call, or a reference (a property read, a bound method handed on to be called).
EXECUTED = frozenset({RelationType.CALLS.value, RelationType.REFERENCES.value})
# Bases followed at most, from one class: far deeper than real hierarchies, a bound on a cycle of guesses.
MAX_BASES = 64


def _name(entity_id: str) -> str:
    """A member's own name: the last part of its qualified name."""
    return entity_id.rsplit(".", 1)[-1]


def _weakest(*resolutions: Resolution) -> Resolution:
    return max(resolutions, key=lambda r: r.rank)


@dataclass
class Hierarchy:
    """Classes with their members and bases, as the stored relations state them."""

    members: dict[str, dict[str, tuple[str, str]]] = field(default_factory=lambda: defaultdict(dict))
    bases: dict[str, list[tuple[str, Resolution]]] = field(default_factory=lambda: defaultdict(list))
    _reach: dict[str, frozenset[str]] = field(default_factory=dict)
    _derived: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    _owners: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, table: pa.Table) -> Hierarchy:
        """From a relation table's CONTAINS (class -> method, evidence: the method's chunk) and INHERITS rows.
        Bases are kept in the order the class writes them (an INHERITS row's receiver), those of no known place after,
        sorted, so the same relations give the same hierarchy."""
        hierarchy = cls()
        contains = _rows(table, RelationType.CONTAINS.value, ("source", "target", "evidence"))
        for owner, member, evidence in sorted(contains):
            if owner.startswith(CLASS_ID_PREFIX) and member.startswith(METHOD_PREFIX):
                hierarchy.members[owner].setdefault(_name(member), (member, evidence))
        defines = _rows(table, RelationType.DEFINES.value, ("target", "evidence"))
        hierarchy._members_defined_apart(defines, [t for _, t, _ in contains])
        inherits = _rows(table, RelationType.INHERITS.value, ("source", "target", "resolution", "receiver"))
        for child, base, resolution, _ in sorted(inherits, key=_written_order):
            if child != base and base.startswith(CLASS_ID_PREFIX):
                hierarchy.bases[child].append((base, Resolution(resolution or Resolution.EXACT.value)))
        return hierarchy

    def _members_defined_apart(self, defines: list[tuple[str, ...]], contained: list[str]) -> None:
        """Methods a file defines outside their class (C++'s `double Circle::area() const`, a Go method in another
        file than its type): members of the project's one class of that short name."""
        classes: dict[tuple[str, str], list[str]] = defaultdict(list)
        for cls in sorted({t for t, _ in defines if t.startswith(CLASS_ID_PREFIX)} | set(contained)):
            if cls.startswith(CLASS_ID_PREFIX):
                classes[(_project(cls), _name(cls))].append(cls)
        for method, evidence in sorted(defines):
            owner = method.rsplit(".", 2)[-2] if method.startswith(METHOD_PREFIX) and method.count(".") > 1 else ""
            found = classes.get((_project(method), owner), []) if owner else []
            if len(found) == 1:
                self.members[found[0]].setdefault(_name(method), (method, evidence))

    def ancestors(self, cls: str) -> Iterator[tuple[str, Resolution]]:
        """The bases of `cls`, nearest first (breadth first: Python's MRO for single inheritance and the common
        mixin shapes), each once, with the weakest resolution on the way to it."""
        seen = {cls}
        queue: deque[tuple[str, Resolution]] = deque(self.bases.get(cls, []))
        while queue and len(seen) <= MAX_BASES:
            base, how = queue.popleft()
            if base in seen:
                continue
            seen.add(base)
            yield base, how
            queue.extend((b, _weakest(how, h)) for b, h in self.bases.get(base, []))
        if queue and len(seen) > MAX_BASES:
            log.warning("bases of %s: stopped after %d classes; overrides beyond them are not linked", cls, MAX_BASES)

    def may_run_on(self, method: str, cls: str) -> bool:
        """Whether a method may be what an instance of `cls` (or of a class deriving from it) has: a member of one of
        those classes or of one of their bases (a mixin beside `cls` in a derived class's bases: `class D(Mixin,
        C)` runs Mixin's method where C's code calls `self.m()`)."""
        if not self._owners:
            self._owners.update((m, owner) for owner, held in self.members.items() for m, _ in held.values())
        if cls not in self._reach:
            self._reach[cls] = self._instances_have(cls)
        return self._owners.get(method, "") in self._reach[cls]

    def _instances_have(self, cls: str) -> frozenset[str]:
        """`cls`, every class deriving from it, and every base of those: where its instances' methods come from (each
        class visited once, so at most as many steps as the hierarchy has classes)."""
        if not self._derived:
            for child, bases in self.bases.items():
                for base, _ in bases:
                    self._derived[base].append(child)
        below, queue = {cls}, deque([cls])
        while queue:
            for child in self._derived.get(queue.popleft(), []):
                if child not in below:
                    below.add(child)
                    queue.append(child)
        return frozenset(below | {base for child in below for base, _ in self.ancestors(child)})

    def lookup(self, cls: str, name: str) -> tuple[str, Resolution] | None:
        """The method `name` a class has, its own or the nearest base's, and how surely it is that one."""
        own = self.members.get(cls, {}).get(name)
        if own is not None:
            return own[0], Resolution.EXACT
        for base, how in self.ancestors(cls):
            found = self.members.get(base, {}).get(name)
            if found is not None:
                return found[0], how
        return None

    def overrides(self) -> Iterator[tuple[str, str, str, Resolution]]:
        """(method, the base method it overrides, the method's chunk, resolution) for every overriding method, and
        for every method a class of several bases takes from one base over another's (`_shadowed`)."""
        for cls in sorted(self.members):
            for name, (method, evidence) in sorted(self.members[cls].items()):
                for base, how in self.ancestors(cls):
                    found = self.members.get(base, {}).get(name)
                    if found is not None:
                        yield method, found[0], evidence, how
                        break
        yield from self._shadowed()

    def _shadowed(self) -> Iterator[tuple[str, str, str, Resolution]]:
        """(method, the method it shadows, the method's chunk, resolution) where a class of several bases takes a
        method from a base written before another whose method of that name its class does not derive from: `class
        Identifier(NameAliasMixin, TokenList)` runs NameAliasMixin's `get_alias` where TokenList's code calls
        `self.get_alias()` on an Identifier."""
        above: dict[str, set[str]] = {}
        seen: set[tuple[str, str]] = set()
        for cls in sorted(c for c, bases in self.bases.items() if len(bases) > 1):
            owners: dict[str, list[tuple[str, str, str, Resolution]]] = defaultdict(list)
            for owner, how in [(cls, Resolution.EXACT), *self.ancestors(cls)]:
                for name, (method, evidence) in self.members.get(owner, {}).items():
                    owners[name].append((owner, method, evidence, how))
            for found in (owners[name] for name in sorted(owners)):
                for (owner, method, evidence, how), (base_owner, base, _, base_how) in pairwise(found):
                    if owner not in above:
                        above[owner] = {a for a, _ in self.ancestors(owner)}
                    if base_owner not in above[owner] and (method, base) not in seen:
                        seen.add((method, base))
                        yield method, base, evidence, _weakest(how, base_how)


def _written_order(row: tuple[str, ...]) -> tuple[str, int, str]:
    """An INHERITS row's (class, base, resolution, place) as it sorts: by class, then by the base's place as the class
    writes it (none known: after), then by base."""
    child, base, _, place = row
    return child, int(place) if place.isdigit() else MAX_BASES, base


def _rows(table: pa.Table, rtype: str, columns: tuple[str, ...]) -> list[tuple[str, ...]]:
    picked = table.filter(pc.equal(table["type"], rtype)).select(list(columns))
    values = [strings(picked, c) for c in columns]
    return list(zip(*values, strict=True))


def _overriders(overrides: Iterable[tuple[str, str, str, Resolution]]) -> dict[str, list[tuple[str, Resolution]]]:
    """Each overridden method's overrides, transitively (an override of an override runs too), sorted."""
    direct: dict[str, list[tuple[str, Resolution]]] = defaultdict(list)
    for method, base, _, how in overrides:
        direct[base].append((method, how))
    every: dict[str, list[tuple[str, Resolution]]] = {}
    for base in direct:
        found: dict[str, Resolution] = {}
        queue = deque((m, h) for m, h in direct[base])
        while queue:
            method, how = queue.popleft()
            if method in found or method == base:
                continue
            found[method] = how
            queue.extend((m, _weakest(how, h)) for m, h in direct.get(method, []))
        every[base] = sorted(found.items())
    return every


def derived_relations(table: pa.Table) -> pa.Table:
    """The relations a generation's stored ones imply about execution (`OVERRIDES`, dispatch and constructor calls,
    the calls of a decorator's wrapper), as rows of the same schema, none repeating a stored call."""
    hierarchy = Hierarchy.of(table)
    overrides = list(hierarchy.overrides())
    rows: dict[str, list[object]] = {name: [] for name in table.schema.names}

    def add(
        source: str, rtype: str, target: str, evidence: str, project: str, doc: str, how: Resolution, receiver: str = ""
    ) -> None:
        values = {
            "source": source,
            "type": rtype,
            "target": target,
            "weight": 1.0,
            "evidence": evidence,
            "project": project,
            "doc_id": doc,
            "resolution": how.value,
            "receiver": receiver,
        }
        for name in rows:
            rows[name].append(values.get(name))

    for method, base, evidence, how in overrides:
        add(method, RelationType.OVERRIDES.value, base, evidence, _project(method), "", how)
    for call in _calls(table, hierarchy, _overriders(overrides)):
        add(*call)
    for wrapped in wrapper_calls(table):
        add(*wrapped)
    return pa.table(rows, schema=table.schema)


def _project(entity_id: str) -> str:
    return entity_id.split(":", 2)[1]


def _calls(
    table: pa.Table, hierarchy: Hierarchy, overriders: dict[str, list[tuple[str, Resolution]]]
) -> Iterator[tuple[str, str, str, str, str, str, Resolution, str]]:
    """The dispatch and constructor calls the stored calls imply: a call bound to an overridden method reaches each
    override (a guess, each override guessed); a call of a class, its constructors (a class named where it is handed
    on, `run(Tuple)`, reaches them as a reference). A reference bound to an overridden method (a property read in
    another file, a bound method passed on to be called) reaches each override as a reference. A relation the
    code already states is not repeated."""
    calls = table.filter(pc.is_in(table["type"].cast(pa.string()), value_set=pa.array(sorted(EXECUTED))))
    wanted = pa.array(sorted(set(overriders) | set(hierarchy.members) | set(hierarchy.bases)), pa.string())
    calls = calls.filter(pc.is_in(calls["target"].cast(pa.string()), value_set=wanted))
    columns = ("source", "target", "type", "evidence", "project", "doc_id", "resolution", "receiver")
    values = [strings(calls, c) for c in columns]
    stated = set(zip(*_stated_calls(table, hierarchy), strict=True))
    seen: set[tuple[str, str, str]] = set()
    for source, target, rtype, evidence, project, doc, resolution, receiver in sorted(zip(*values, strict=True)):
        how = Resolution(resolution or Resolution.EXACT.value)
        if how is Resolution.NAME and not target.startswith(METHOD_PREFIX):
            continue
        if how is Resolution.NAME:
            # a guess at one class's method by its name alone (`CodeIndex._family_root`): its overrides are as
            # likely, each a guess too
            reached = [(m, Resolution.NAME) for m, _ in overriders.get(target, [])]
        elif target.startswith(CLASS_ID_PREFIX) and (rtype == RelationType.CALLS.value or how is Resolution.EXACT):
            # a class called, or named where it is handed on to be constructed (`run(Tuple)`): its constructors (a
            # parameter's classes passed on, `_add_repr(cls)`, are most often read, not made)
            reached = [(m, _weakest(how, h)) for m, h in _constructors(hierarchy, target)]
        elif target.startswith(METHOD_PREFIX) and _virtual(target) and (below := dispatch_below(receiver)) is not None:
            # an override runs where the receiver may be of its class: any, or only under the class the call names
            overrides = overriders.get(target, [])
            may_run = [m for m, _ in overrides if not below or hierarchy.may_run_on(m, below)]
            reached = [(m, Resolution.DISPATCH) for m in may_run]
        else:
            reached = []
        for method, reach in reached:
            # a stored call stands for a reference too; a stored reference is no call
            known = {(source, method, rtype), (source, method, RelationType.CALLS.value)}
            if not known & stated and not known & seen:
                seen.add((source, method, rtype))
                # a dispatch on the caller's own receiver stays one: the override's `self` is the caller's (a
                # constructor's object, made by `type(self)(...)`, is of the caller's class too)
                mark = receiver if on_own_receiver(receiver) or receiver == GIVEN_RUN else ""
                yield source, rtype, method, evidence, project, doc, reach, mark


def _virtual(target: str) -> bool:
    """Whether a call bound to `target` may run an override of it: not when it is a constructor, which only a
    base-initialising call names (`super().__init__()`, `Base.__init__(self)`): those run the base's own."""
    return _name(target) not in CONSTRUCTORS


def _stated_calls(table: pa.Table, hierarchy: Hierarchy) -> tuple[list[str], list[str], list[str]]:
    """(sources, targets, types) of the stored calls and references of class members: the only ones a derived call
    or reference could repeat."""
    methods = pa.array(sorted({m for members in hierarchy.members.values() for m, _ in members.values()}), pa.string())
    calls = table.filter(pc.is_in(table["type"].cast(pa.string()), value_set=pa.array(sorted(EXECUTED))))
    calls = calls.filter(pc.is_in(calls["target"].cast(pa.string()), value_set=methods))
    source, target, kind = (calls[c].cast(pa.string()).to_pylist() for c in ("source", "target", "type"))
    return source, target, kind


def _constructors(hierarchy: Hierarchy, cls: str) -> list[tuple[str, Resolution]]:
    """The `__new__`, `__init__` and `__post_init__` (or `constructor`; a Java constructor is named as its class) a
    call of `cls` runs: its own or the nearest base's."""
    found = [hierarchy.lookup(cls, name) for name in CONSTRUCTORS]
    own = hierarchy.members.get(cls, {}).get(_name(cls))  # Java: `Foo(...)` inside class Foo
    return [f for f in found if f is not None] + ([(own[0], Resolution.EXACT)] if own is not None else [])
