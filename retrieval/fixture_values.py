"""Tests that use a pytest fixture's value: `def test_x(runner): runner.invoke(...)` where the fixture `runner`
returns `CliRunner()`. No single file states the value's type — the fixture makes it, the test names it — so the
binder leaves `runner.invoke` unbound; the class the fixture constructs is the type (inferred), and the test
reaches what that class's method reaches."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from trident.retrieval.callers import CallerWalk, Reach
from trident.retrieval.definitions import ChunkReader
from trident.retrieval.relation_index import RelationIndex
from trident.retrieval.test_reach import Linked, fixture_text, is_test, parameters
from trident.store.names.code_paths import is_test_path
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Chunk, Entity, RelationType, Resolution

_MADE = re.compile(r"^\s*(?:return|yield)\s+([A-Za-z_][\w.]*)\(", re.MULTILINE)


def with_fixture_values(
    index: RelationIndex, directory: EntityDirectory, read: ChunkReader, walk: CallerWalk, projects: Sequence[str]
) -> CallerWalk:
    """`walk` and the tests calling a reached method on a fixture's value of the class that method belongs to."""
    wanted = set(projects)
    code = sorted(
        (e for e in directory.by_id.values() if e.project in wanted and e.type == "Function" and e.chunk_id),
        key=lambda e: e.id,
    )
    code = [e for e in code if is_test_path(e.path or "")]
    chunks = read(sorted({e.chunk_id for e in code if e.chunk_id}))
    made = _fixture_classes(directory, code, chunks)
    if not made:
        return walk
    linked, reached = Linked(index), dict(walk.reached)
    for test in (e for e in code if is_test(e) and _guessed(reached, e.id)):
        chunk = chunks.get(test.chunk_id or "")
        text = chunk.text if chunk is not None else ""
        for parameter in parameters(text, test.name):
            cls = made.get((test.project, parameter), "")
            for called in re.findall(rf"\b{re.escape(parameter)}\.(\w+)\s*\(", text) if cls else []:
                method = _member(linked, cls, called)
                if method in walk.reached and _guessed(reached, test.id):
                    reach = walk.reached[method]
                    how = max(reach.resolution, Resolution.INFERRED, key=lambda r: r.rank)
                    reached[test.id] = Reach(reach.hops + 1, how, method, test.chunk_id or "")
    return replace(walk, reached=reached)


def _guessed(reached: dict[str, Reach], entity_id: str) -> bool:
    """Not reached yet, or only through a name guess (a fixture's class says more)."""
    known = reached.get(entity_id)
    return known is None or known.resolution is Resolution.NAME


def _fixture_classes(
    directory: EntityDirectory, code: Sequence[Entity], chunks: dict[str, Chunk]
) -> dict[tuple[str, str], str]:
    """(project, fixture name) -> the class its value is made of, where the fixture returns or yields `Cls(...)`
    of a class one entity of the project (else of the index) is."""
    made: dict[tuple[str, str], str] = {}
    for fixture in code:
        chunk = chunks.get(fixture.chunk_id or "")
        if chunk is None or not fixture_text(chunk.text, fixture.name):
            continue
        found = _MADE.search(chunk.text.split(f"def {fixture.name}", 1)[-1])
        if found is None:
            continue
        name = found.group(1).rsplit(".", 1)[-1]
        classes = [e for e in directory.named(name) if e.type == "Class" and e.name == name]
        mine = [e for e in classes if e.project == fixture.project]
        if len(mine or classes) == 1:
            made[(fixture.project, fixture.name)] = (mine or classes)[0].id
    return made


def _member(linked: Linked, cls: str, name: str) -> str:
    """The method `name` of `cls`, its own or the nearest base's ("" when none)."""
    queue, seen = [cls], {cls}
    while queue:
        current = queue.pop(0)
        for member in linked.ends([current], RelationType.CONTAINS, outgoing=True):
            if member.rsplit(".", 1)[-1] == name:
                return member
        for base in linked.ends([current], RelationType.INHERITS, outgoing=True):
            if base not in seen:
                seen.add(base)
                queue.append(base)
    return ""
