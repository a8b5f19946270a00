"""The tests that may run a method nothing calls, where no call chain from a test reaches the change.

A method with no call, reference or decoration into it is run by a name built or looked up at run time (a parser
generator's `p_rule(self, p)`, a lexer's `t_TOKEN`), by the language itself (`__iter__`, `__hash__` on a value the
code does not type), or by a framework. Whatever runs it holds an object of its class, so when the walk back
from the changed code reaches such a method and no test, the tests that make an object of its class (or of a class
deriving from it) are the ones that can run it. Those tests are found by a walk back from the classes — their
constructions — and kept as guesses (resolution `name`, through `class <name>`); a class made only by another
uncalled method's code (a parser rule building an AST node) is followed to that method's class in turn."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from trident.retrieval.callers import CallerWalk, Reach, calls_into, chain
from trident.retrieval.relation_index import RelationIndex
from trident.retrieval.test_makers import Named, import_makers
from trident.retrieval.test_reach import Linked, TestReach
from trident.store.names.code_paths import is_test_path
from trident.store.names.directory import EntityDirectory
from trident.store.schema import GIVEN_RUN, RelationType, Resolution

# starts -> the walk back from them and the tests reaching them
TestsOf = Callable[[Sequence[str]], tuple[CallerWalk, dict[str, TestReach]]]
ROUNDS = 3  # classes made only by uncalled methods, followed to those methods' classes at most this many times
# The special methods the runtime runs on an object handed to it — made, called back, iterated, used as a key, entered
# — which any holder of it may do. The others run on an operation the code writes on the object (`a - b`, `a != b`,
# `if a:`, `len(a)`, `repr(a)`, `a.missing`, pickling it), which, where the graph cannot type the object, says nothing
# of who does: the tests making its class are no guess of who runs them (measured: 2% of such guesses ran).
HANDED_RUNS = frozenset(
    {"__init__", "__new__", "__post_init__", "__call__", "__iter__", "__next__", "__aiter__", "__anext__"}
    | {"__hash__", "__enter__", "__exit__", "__aenter__", "__aexit__"}
)


@dataclass(frozen=True)
class ClassTests:
    """The walk with the classes' walks joined to it (each class reached from its uncalled method), and the tests."""

    walk: CallerWalk
    tests: dict[str, TestReach]


def through_classes(
    index: RelationIndex,
    directory: EntityDirectory,
    walk: CallerWalk,
    untested: Sequence[str],
    tests_of: TestsOf,
    named: Named,
) -> ClassTests:
    """The tests making the class of an uncalled method the walk reached on its way back from one of `untested`
    (starts no test reaches), or holding one a test module makes as it is imported (`_parser = CParser()` at its top
    level: `named`); `walk` joined with the walks that found them."""
    linked, expanded, found = Linked(index), set[str](), dict[str, TestReach]()
    wanted = set(untested)
    for _ in range(ROUNDS):
        held = _uncalled_methods(index, directory, walk, wanted, expanded)
        classes = _classes_of(linked, directory, walk, held)
        if not classes:
            break
        expanded |= held
        made, reaching = tests_of(sorted(classes))
        reaching = {**_held_from_import(directory, linked, made, named), **reaching}
        walk = _joined(walk, made, classes)
        for test_id, how in reaching.items():
            start = chain(made, how.via)[-1]
            name = directory.by_id[start].name if start in directory.by_id else start
            hops = walk.reached[start].hops + how.hops
            found.setdefault(test_id, TestReach(hops, Resolution.NAME, f"class {name}", how.via))
        if found:
            break
        wanted = set(classes)
    return ClassTests(walk, dict(sorted(found.items())))


def _uncalled_methods(
    index: RelationIndex, directory: EntityDirectory, walk: CallerWalk, wanted: set[str], expanded: set[str]
) -> set[str]:
    """The library methods the walk reached on its way to one of `wanted` that no call, reference or decoration
    reaches but where a value is handed on to be run (`GIVEN_RUN`: `Any(None, validator)` in voluptuous' `Maybe`,
    where the walk back ends), but the special methods an operation on the object runs (`HANDED_RUNS`)."""
    found = set()
    for entity_id in walk.reached:
        entity, node = directory.by_id.get(entity_id), index.position.get(entity_id)
        if entity is None or node is None or entity.type != "Method" or entity_id in expanded:
            continue
        called = any(index.receiver(i) != GIVEN_RUN for i in calls_into(index, node))
        if is_test_path(entity.path or "") or _operation_run(entity.name) or called:
            continue
        if wanted & set(chain(walk, entity_id)):
            found.add(entity_id)
    return found


def _held_from_import(
    directory: EntityDirectory, linked: Linked, made: CallerWalk, named: Named
) -> dict[str, TestReach]:
    """The tests of a test module that makes an object of one of the classes as it is imported."""
    found: dict[str, TestReach] = {}
    for module in import_makers(directory, linked, made):
        for test_id in sorted(named.tests_of_module(module) or ()):
            found.setdefault(test_id, TestReach(made.reached[module].hops + 1, Resolution.NAME, "", module))
    return found


def _operation_run(name: str) -> bool:
    return name.startswith("__") and name.endswith("__") and name not in HANDED_RUNS


def _classes_of(
    linked: Linked, directory: EntityDirectory, walk: CallerWalk, methods: set[str]
) -> dict[str, tuple[str, int]]:
    """Each class holding one of `methods` (its own or inherited) -> the nearest such method and its hops."""
    found: dict[str, tuple[str, int]] = {}
    for method in sorted(methods, key=lambda m: (walk.reached[m].hops, m)):
        owners = [c for c in linked.ends([method], RelationType.CONTAINS) if _is_class(directory, c)]
        for cls in linked.derived(owners):
            if cls not in walk.reached:
                found.setdefault(cls, (method, walk.reached[method].hops))
    return found


def _is_class(directory: EntityDirectory, entity_id: str) -> bool:
    entity = directory.by_id.get(entity_id)
    return entity is not None and entity.type == "Class"


def _joined(walk: CallerWalk, made: CallerWalk, classes: dict[str, tuple[str, int]]) -> CallerWalk:
    """`walk` and what `made` reached back from the classes, each class reached from its method (one step, a guess),
    so a chain from a test found leads through the class and the method to the walk's start."""
    reached = dict(walk.reached)
    for cls, (method, hops) in classes.items():
        reached.setdefault(cls, Reach(hops + 1, Resolution.NAME, method, ""))
    for entity_id, reach in sorted(made.reached.items()):
        if entity_id in reached:
            continue
        start = chain(made, entity_id)[-1]
        base = reached[start].hops if start in reached else 0
        reached[entity_id] = Reach(base + reach.hops, Resolution.NAME, reach.via, reach.evidence)
    return replace(walk, reached=reached)
