"""Which tests run a function: the test functions among its callers of callers, and the tests that reach it without
calling it by name — through a pytest fixture they ask for (and the fixtures those ask for), or through the
`setUp` of their test class or of a base test class."""

from __future__ import annotations

import posixpath
import re
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from trident.retrieval.callers import CallerWalk
from trident.retrieval.definitions import ChunkReader
from trident.retrieval.relation_index import RelationIndex
from trident.store.names.code_paths import is_test_path
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Entity, RelationType, Resolution

# Far enough for a test to reach code many calls below the entry point it calls: a CLI test runs
# `runner.invoke -> main -> make_context -> parse_args -> handle_parse_result -> process_value -> type_cast_value ->
# convert`, and every layer deeper. Measured on click's own suite (bench/executed_calls.py): the tests that ran a
# function, found by the walk, 85% at 8 calls, 97.6% at 12, 97.9% at 20; the walk ends anyway when no caller is new.
TEST_HOPS = 24
SETUP_NAMES = frozenset(
    {"setUp", "setUpClass", "asyncSetUp", "setup_method", "setup_class", "setup", "setup_module", "setup_function"}
)
CALLABLES = frozenset({"Function", "Method"})
_FIXTURE = re.compile(r"@(?:pytest\.)?fixture\b")
FIXTURE, AUTOUSE = "fixture", "autouse"  # what `_fixture_of` reads a definition as
_AUTOUSE = re.compile(r"@(?:pytest\.)?fixture\s*\((?:[^()]|\([^()]*\))*\bautouse\s*=\s*True")
_NAMED = re.compile(r"@(?:pytest\.)?fixture\s*\((?:[^()]|\([^()]*\))*\bname\s*=\s*[\"'](\w+)[\"']")
_PARAMETERS = re.compile(r"\bdef\s+(\w+)\s*\((.*?)\)\s*(?:->[^:]*)?:", re.DOTALL)


@dataclass(frozen=True)
class TestReach:
    """A test that runs the walk's start: in `hops` calls, `resolution` the least sure of them, and `through`
    what (calls; the fixture it asks for; the setUp of its class)."""

    __test__ = False  # not a pytest class

    hops: int
    resolution: Resolution
    through: str
    via: str  # the caller of the walk it reaches the start through: itself, the fixture or the setUp


def is_test(entity: Entity) -> bool:
    """A test function or method: named test… (test_x, TestX, testX) in test code."""
    return entity.type in CALLABLES and entity.name.lower().startswith("test") and is_test_path(entity.path or "")


def tests_reaching(
    index: RelationIndex, directory: EntityDirectory, read: ChunkReader, walk: CallerWalk
) -> dict[str, TestReach]:
    """The tests among the walk's callers, and those reaching them through fixtures or a class's setUp."""
    found: dict[str, TestReach] = {}
    for entity_id, reach in walk.reached.items():
        entity = directory.by_id.get(entity_id)
        if entity is not None and is_test(entity):
            found[entity_id] = TestReach(reach.hops, reach.resolution, "calls", entity_id)
    helpers = [
        e
        for i in walk.reached
        if (e := directory.by_id.get(i)) is not None and not is_test(e) and is_test_path(e.path or "")
    ]
    for test_id, how in _through_fixtures(index, directory, read, helpers, walk).items():
        found.setdefault(test_id, how)
    for test_id, how in _through_setup(index, directory, helpers, walk).items():
        found.setdefault(test_id, how)
    return found


def _through_fixtures(
    index: RelationIndex, directory: EntityDirectory, read: ChunkReader, helpers: Sequence[Entity], walk: CallerWalk
) -> dict[str, TestReach]:
    """Tests asking (by parameter name) for a reached fixture, or for a fixture asking for one, in its project; a
    fixture a test class defines (`TestSigner.signer`) only in that class and the classes deriving from it."""
    # fixture id -> (kind, the name tests ask for it by), each definition's chunk read once
    kinds = {e.id: fixture_of for e in helpers if e.type in CALLABLES and (fixture_of := _fixture_of(read, e))}
    fixtures = [e for e in helpers if e.id in kinds]
    autouse = {i for i, (kind, _) in kinds.items() if kind == AUTOUSE}
    if not fixtures:
        return {}
    projects = {e.project for e in fixtures}
    users = _parameter_users(directory, read, projects)
    linked = Linked(index)
    found: dict[str, TestReach] = {}
    queue = deque((f, walk.reached[f.id].hops, walk.reached[f.id].resolution, f.id) for f in fixtures)
    seen = {f.id for f in fixtures}
    tests: list[Entity] = []  # every test of those projects, read once, when an autouse fixture is reached
    while queue:
        fixture, hops, how, via = queue.popleft()
        within = _class_members(linked, fixture) if fixture.type == "Method" else None
        if fixture.id in autouse:  # every test in its scope gets it, asked for or not
            tests = tests or _tests_of(directory, projects)
            for test in _in_scope(tests, fixture, within):
                found.setdefault(test.id, TestReach(hops + 1, how, f"autouse fixture {fixture.name}", via))
        for user in users.get((fixture.project, kinds[fixture.id][1]), []):
            if user.id in seen or (within is not None and user.id not in within):
                continue
            seen.add(user.id)
            if is_test(user):
                found[user.id] = TestReach(hops + 1, how, f"fixture {fixture.name}", via)
            elif fixture_of := _fixture_of(read, user):
                kinds[user.id] = fixture_of
                if fixture_of[0] == AUTOUSE:
                    autouse.add(user.id)
                queue.append((user, hops + 1, how, via))
    return found


def _class_members(linked: Linked, method: Entity) -> set[str]:
    """The members of a method's class and of every class deriving from it that does not define its own of the
    name, with the methods each inherits (a base test class's test runs as each class deriving from it, with that
    class's fixtures): where a fixture the class defines is what a parameter of that name gets."""
    own = linked.ends([method.id], RelationType.CONTAINS, outgoing=False)
    members: set[str] = set()
    for cls in linked.derived(own):
        found = linked.ends([cls], RelationType.CONTAINS, outgoing=True)
        if cls in own or not any(m.rpartition(".")[2] == method.name for m in found):
            names = {m.rpartition(".")[2] for m in found}
            inherited = linked.ends(linked.ancestors([cls]), RelationType.CONTAINS, outgoing=True)
            members.update(found, (m for m in inherited if m.rpartition(".")[2] not in names))
    return members


def _in_scope(tests: Sequence[Entity], fixture: Entity, within: set[str] | None) -> list[Entity]:
    """The tests an autouse fixture runs for: those of its class (and the classes deriving from it), of its module,
    or, in a `conftest.py`, of every module in its folder and below."""
    folder = posixpath.dirname(fixture.path or "")
    below = f"{folder}/" if folder else ""
    conftest = posixpath.basename(fixture.path or "") == "conftest.py"
    return [
        e
        for e in tests
        if e.project == fixture.project
        and (within is None or e.id in within)
        and ((e.path or "").startswith(below) if conftest else e.path == fixture.path)
    ]


def _fixture_of(read: ChunkReader, entity: Entity) -> tuple[str, str] | None:
    """(FIXTURE, or AUTOUSE where pytest gives it every test in its scope: `@pytest.fixture(autouse=True)`; the name
    tests ask for it by: the `name=` its decorator gives, `@pytest.fixture(name="proxy")` over `def _proxy()`, else
    its own) where `def entity` is decorated as a pytest fixture; None otherwise."""
    chunk = read([entity.chunk_id]).get(entity.chunk_id) if entity.chunk_id else None
    if chunk is None or not fixture_text(chunk.text, entity.name):
        return None
    head = chunk.text.split(f"def {entity.name}", 1)[0]
    own = re.split(r"\bdef\s", head)[-1]  # its own decorators: none of a definition before it
    named = _NAMED.search(own)
    return (AUTOUSE if _AUTOUSE.search(head) else FIXTURE), named.group(1) if named is not None else entity.name


def fixture_text(text: str, function: str) -> bool:
    """Whether `def function` in a chunk's text is decorated as a pytest fixture."""
    return bool(_FIXTURE.search(text.split(f"def {function}", 1)[0]))


def _tests_of(directory: EntityDirectory, projects: set[str]) -> list[Entity]:
    """Every test function or method of the projects, by id."""
    return sorted((e for e in directory.by_id.values() if e.project in projects and is_test(e)), key=lambda e: e.id)


def _parameter_users(
    directory: EntityDirectory, read: ChunkReader, projects: Iterable[str]
) -> dict[tuple[str, str], list[Entity]]:
    """(project, parameter name) -> the test-code functions of those projects taking a parameter of that name."""
    wanted = set(projects)
    candidates = sorted(
        (
            e
            for e in directory.by_id.values()
            if e.project in wanted and e.type in CALLABLES and e.chunk_id and is_test_path(e.path or "")
        ),
        key=lambda e: e.id,
    )
    chunks = read(sorted({e.chunk_id for e in candidates if e.chunk_id}))
    users: dict[tuple[str, str], list[Entity]] = {}
    for entity in candidates:
        chunk = chunks.get(entity.chunk_id or "")
        for name in parameters(chunk.text, entity.name) if chunk is not None else []:
            users.setdefault((entity.project, name), []).append(entity)
    return users


def parameters(text: str, function: str) -> list[str]:
    """The parameter names of `def function(...)` in a chunk's text."""
    for match in _PARAMETERS.finditer(text):
        if match.group(1) == function:
            names = (p.strip().lstrip("*").split(":")[0].split("=")[0].strip() for p in match.group(2).split(","))
            return [n for n in names if n.isidentifier() and n not in ("self", "cls")]
    return []


def _through_setup(
    index: RelationIndex, directory: EntityDirectory, helpers: Sequence[Entity], walk: CallerWalk
) -> dict[str, TestReach]:
    """Test methods of the class whose setUp is reached, and of every class deriving from it."""
    found: dict[str, TestReach] = {}
    linked = Linked(index)
    for setup in (e for e in helpers if e.type == "Method" and e.name in SETUP_NAMES):
        reach = walk.reached[setup.id]
        classes = linked.derived(linked.ends([setup.id], RelationType.CONTAINS, outgoing=False))
        for cls in classes:
            for member in linked.ends([cls], RelationType.CONTAINS, outgoing=True):
                entity = directory.by_id.get(member)
                if entity is not None and is_test(entity) and member not in found:
                    found[member] = TestReach(reach.hops + 1, reach.resolution, f"setUp {setup.name}", setup.id)
    return found


class Linked:
    """The ends of one relation type around some entities, from the in-memory index."""

    def __init__(self, index: RelationIndex) -> None:
        self._index = index

    def ends(self, ids: Iterable[str], rtype: RelationType, *, outgoing: bool = False) -> list[str]:
        """The entities `ids` point to over `rtype` (outgoing), or that point at them."""
        index, found = self._index, set[str]()
        for entity_id in ids:
            numbers = index.touching(entity_id, (rtype.value,), outgoing=outgoing)
            ends = index.target[numbers] if outgoing else index.source[numbers]
            found.update(index.entity_ids[e] for e in ends.tolist())
        return sorted(found)

    def ancestors(self, ids: Iterable[str]) -> list[str]:
        """The classes `ids` derive from, transitively (not `ids` themselves)."""
        seen: set[str] = set()
        queue = deque(sorted(set(ids)))
        while queue:
            for base in self.ends([queue.popleft()], RelationType.INHERITS, outgoing=True):
                if base not in seen:
                    seen.add(base)
                    queue.append(base)
        return sorted(seen)

    def derived(self, ids: Iterable[str]) -> list[str]:
        """`ids` and every class deriving from them, transitively."""
        seen = set(ids)
        queue = deque(sorted(seen))
        while queue:
            for child in self.ends([queue.popleft()], RelationType.INHERITS):
                if child not in seen:
                    seen.add(child)
                    queue.append(child)
        return sorted(seen)
