"""Which tests reach a function only through an override of a class they never make an instance of.

A call bound to a base method reaches every override of it (`dispatch`), so walked back from one override, every test
reaching the base method's callers seems to run it. An override runs only on an object of its class (or below it),
and a test holds such an object only where its calls construct that class or one deriving from it, or hand the class
on to code that does. So the tests reaching the walk's start are grouped by the classes, among those entered by
dispatch, that each makes; each group is walked again with dispatch into the other classes' methods barred, and a
test that walk no longer reaches is left out. Never barred: a test class (the test runner makes it), a class made as
a module is imported (a class body's `age = fields.Integer()`: whatever test imports it may hold one), a decorated
class (registered for a table to make). A class made by library code no call reaches (found by a name given at run
time, as a plugin's `makeExtension` is) or by no test's call is held by the tests whose code names its module
(`named_makers`), and by any test where that cannot be told."""

from __future__ import annotations

import itertools
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from trident.retrieval.callers import WALKED, CallerWalk, calls_into, chain
from trident.retrieval.receiver_context import NONE, ReceiverContext
from trident.retrieval.relation_index import RelationIndex
from trident.retrieval.test_reach import CALLABLES, Linked, TestReach, is_test
from trident.store.names.code_paths import is_test_path
from trident.store.names.directory import EntityDirectory
from trident.store.schema import RelationType, Resolution

# (starts, classes barred) -> the walk back from the starts and the tests reaching them, dispatch into those classes'
# methods not walked
TestsOf = Callable[[Sequence[str], frozenset[int]], tuple[CallerWalk, dict[str, TestReach]]]
Holders = frozenset[str] | None  # the tests that can hold an object of a class; None: any test may
PROGRAM = "__main__.py"


class Named(Protocol):
    """What test code names (`named_makers.NamedMakers`)."""

    def tests_holding(self, class_id: str) -> Holders:
        """The tests that can hold an object of a class made only from a name given at run time."""

    def tests_of_module(self, entity_id: str) -> Holders:
        """The tests that can hold what a test module (or a class body in it) makes as it is imported."""


@dataclass(frozen=True)
class Narrowed:
    kept: dict[str, TestReach]
    left: dict[str, TestReach]  # tests reaching the start only through overrides of classes they never make


def narrowed(
    index: RelationIndex,
    directory: EntityDirectory,
    starts: Sequence[str],
    walk: CallerWalk,
    tests: dict[str, TestReach],
    tests_of: TestsOf,
    named: Named,
) -> Narrowed:
    """The tests that reach the start through overrides only of classes they make (`kept`), and the others. A test
    whose chain in `walk` enters no other class by dispatch alone is kept as it is; the others are walked again."""
    linked = Linked(index)
    entered = sorted(c for c in _entered_by_dispatch(index, walk) if not _runner_made(index, linked, directory, c))
    makers = {c: found for c in entered if (found := _makers(index, directory, c, tests_of, named)) is not None}
    classes = sorted(makers)
    if not classes or not tests:
        return Narrowed(tests, {})
    groups: dict[frozenset[int], list[str]] = {}
    kept: dict[str, TestReach] = {}
    for test_id, how in sorted(tests.items()):
        made = frozenset(c for c in classes if test_id in makers[c])
        if set(_dispatched_on_chain(index, walk, how.via)) & makers.keys() <= made:
            kept[test_id] = how
        else:
            groups.setdefault(made, []).append(test_id)
    for made, members in sorted(groups.items(), key=lambda g: sorted(g[0])):
        reached = tests_of(starts, frozenset(classes) - made)[1]
        kept.update((t, reached[t]) for t in members if t in reached)
    return Narrowed(dict(sorted(kept.items())), {t: how for t, how in sorted(tests.items()) if t not in kept})


def _makers(index: RelationIndex, directory: EntityDirectory, cls: int, tests_of: TestsOf, named: Named) -> Holders:
    """The tests that construct `cls` or a class deriving from it, or hand one on; None (any test may hold one) where
    one is made as a module is imported (a class body's `hair_colors = fields.List(...)`, a module-level instance),
    where one is decorated (registered, as parso's `@ErrorFinder.register_rule(...)` rules are, for a table to make);
    where one is made by a function no call reaches or by no test's call (found by a name given at run time: a
    plugin's `makeExtension`), the tests whose code names its module too (`named_makers`), or None where that is not
    told. The same for every walk over the relation index, so read once per class (kept with the index)."""
    known = cast(dict[int, Holders], index.memo.setdefault("test makers", {}))
    if cls not in known:
        known[cls] = None  # (while it is read: a class made only on the way to making itself is any test's)
        known[cls] = _read_makers(index, directory, cls, tests_of, named)
    return known[cls]


def _read_makers(
    index: RelationIndex, directory: EntityDirectory, cls: int, tests_of: TestsOf, named: Named
) -> Holders:
    linked = Linked(index)
    classes = [index.entity_ids[b] for b in sorted(ReceiverContext.of(index).below(cls))]
    if linked.ends(classes, RelationType.DECORATED_BY, outgoing=True):
        return None
    starts = sorted({*classes, *_may_make(index, linked, classes[0])})
    walk, tests = tests_of(starts, frozenset())
    made = _made_on_import(directory, linked, walk, named)
    if made is None:
        return None
    if not tests or _made_by_uncalled(index, directory, walk):  # made from a name given at run time
        holders = named.tests_holding(index.entity_ids[cls])
        return None if holders is None else frozenset(tests) | holders | made
    # made only where another override runs (a plugin's `extendMarkdown` makes its processors): by the tests that
    # make that one's class
    return frozenset(narrowed(index, directory, starts, walk, tests, tests_of, named).kept) | made


def _may_make(index: RelationIndex, linked: Linked, cls: str) -> set[str]:
    """The callers constructing a base of `cls` through a value that may hold a class deriving from it
    (`self.signer(...)` with `signer: type[Signer]`, a subclass's `default_signer = TimestampSigner`): a call not
    bound exactly, as a class written at the call is."""
    found: set[str] = set()
    for base in linked.ancestors([cls]):
        calls = index.touching(base, (RelationType.CALLS.value,), outgoing=False)
        loose = calls[index.resolution_rank[calls] > Resolution.EXACT.rank]
        found.update(index.entity_ids[s] for s in index.source[loose].tolist())
    return found


def _made_on_import(directory: EntityDirectory, linked: Linked, walk: CallerWalk, named: Named) -> Holders:
    """The tests that can hold what code an import runs makes, where a walk back from classes reached some: what a
    test module's top level or one of its class bodies makes is held by its tests and those of the test files
    importing from it; None (any test) for a library module's or class body's, or a `conftest.py`'s. A package's
    `__main__.py` runs as a program, not on import."""
    found: set[str] = set()
    for entity_id in import_makers(directory, linked, walk):
        held = named.tests_of_module(entity_id)
        if held is None:
            return None
        found |= held
    return frozenset(found)


def import_makers(directory: EntityDirectory, linked: Linked, walk: CallerWalk) -> list[str]:
    """The modules and class bodies a walk back from classes reached that make an object as they are imported (a
    package's `__main__.py` runs as a program, not on import)."""
    found = []
    for entity_id, reach in walk.reached.items():
        entity = directory.by_id.get(entity_id)
        if entity is None or not reach.hops or entity.type not in ("Class", "Module"):
            continue
        if reach.via not in linked.ends([entity_id], RelationType.CALLS, outgoing=True):
            continue  # (a class body holding a class, `Cache = LRUCache`, makes no instance of it)
        if posixpath.basename(entity.path or "") != PROGRAM:
            found.append(entity_id)
    return found


def _made_by_uncalled(index: RelationIndex, directory: EntityDirectory, walk: CallerWalk) -> bool:
    """Whether a walk back from classes reached a function of library code nothing calls (found by a name given at
    run time: a plugin's `makeExtension`)."""
    for entity_id, reach in walk.reached.items():
        entity = directory.by_id.get(entity_id)
        node = index.position.get(entity_id)
        library = entity is not None and entity.type in CALLABLES and not is_test_path(entity.path or "")
        if reach.hops and library and node is not None and not calls_into(index, node):
            return True
    return False


def _dispatched_on_chain(index: RelationIndex, walk: CallerWalk, via: str) -> list[int]:
    """The classes whose methods the chain from `via` to the walk's start enters by dispatch alone (no surer call
    between the same two), by relation-index position."""
    context, path, found = ReceiverContext.of(index), chain(walk, via), []
    for caller, callee in itertools.pairwise(path):
        relations = index.touching(caller, WALKED, outgoing=True)
        ranks = index.resolution_rank[relations[index.target[relations] == index.position.get(callee, -1)]]
        dispatched = len(ranks) > 0 and int(ranks.min()) == Resolution.DISPATCH.rank
        if dispatched and (owner := context.class_of(index.position[callee])) != NONE:
            found.append(owner)
    return found


def _entered_by_dispatch(index: RelationIndex, walk: CallerWalk) -> set[int]:
    """The classes (relation-index positions) of the methods the walk reached that a reached caller dispatches to."""
    context, found = ReceiverContext.of(index), set()
    for entity_id in walk.reached:
        node = index.position.get(entity_id)
        owner = context.class_of(node) if node is not None else NONE
        if owner == NONE or owner in found:
            continue
        into = index.touching(entity_id, WALKED, outgoing=False)
        dispatched = index.source[into[index.resolution_rank[into] == Resolution.DISPATCH.rank]].tolist()
        if any(index.entity_ids[s] in walk.reached for s in dispatched):
            found.add(owner)
    return found


def _runner_made(index: RelationIndex, linked: Linked, directory: EntityDirectory, cls: int) -> bool:
    """Whether a class is one the test runner makes: test code's class holding tests, itself or through a base
    (`MRUDecoratorTest(DecoratorTestMixin, TestCase)`, whose mixin's tests call `self.decorator`)."""
    class_id = index.entity_ids[cls]
    entity = directory.by_id.get(class_id)
    if entity is None or not is_test_path(entity.path or ""):
        return False
    members = linked.ends([class_id, *linked.ancestors([class_id])], RelationType.CONTAINS, outgoing=True)
    return any(is_test(m) for i in members if (m := directory.by_id.get(i)) is not None)
