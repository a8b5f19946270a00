"""The impact tool: what a change affects — the definitions it touches, every function that can reach them (callers
of callers), the tests that run them, the prose that names them — and whether that answer is complete or a lower
bound, with the reasons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic import BaseModel, Field

from trident.host.git_diff import WORKING_TREE, ChangeError, read_changes
from trident.retrieval.call_sites import definition_block
from trident.retrieval.callers import CallerWalk, chain, walk_callers
from trident.retrieval.change_map import Touched, map_file
from trident.retrieval.class_tests import through_classes
from trident.retrieval.definitions import ChunkReader
from trident.retrieval.entities import resolve_entity
from trident.retrieval.fixture_values import with_fixture_values
from trident.retrieval.impact_reasons import CODE_SUFFIXES, Finding, ReasonInputs, reasons
from trident.retrieval.named_makers import NamedMakers
from trident.retrieval.prose_mentions import prose_naming
from trident.retrieval.reader import Reader
from trident.retrieval.relation_index import RelationIndex
from trident.retrieval.test_makers import Narrowed, narrowed
from trident.retrieval.test_names import with_named_tests
from trident.retrieval.test_reach import TEST_HOPS, TestReach, is_test, tests_reaching
from trident.store.catalog import Catalog
from trident.store.errors import ArgumentError
from trident.store.manifest import SkippedFile
from trident.store.names.code_paths import is_test_path
from trident.store.names.directory import EntityDirectory
from trident.store.schema import RESOLUTION_HELP, Entity, RelationType, Resolution, document_id
from trident.tools.calls import check_range, suggest_call

MAX_HOPS = 6
# Tests are not looked for through a caller picking among more functions than this by a key the input gives (which
# runs depends on it: jinja2's table of filters picked by name); the verdict says how many calls were left.
WIDEST_DISPATCH = 16
MAX_LIMIT = 200
MAX_OFFSET = 100_000
DOCS_SHOWN = 20
CALLABLE = frozenset({"Function", "Method", "Class"})


class Changed(BaseModel):
    id: str
    name: str
    type: str
    project: str
    path: str | None
    lines: list[int] = Field(default_factory=list, description="Changed lines inside it, as the index numbers them")
    change: str = Field("body", description="body, signature, renamed, removed, added or named (asked by entity)")
    renamed_from: str | None = None
    renamed_to: str | None = None


class Caller(BaseModel):
    id: str
    name: str
    project: str
    path: str | None
    hops: int = Field(description="Calls between it and the changed code (1: it calls it)")
    resolution: Resolution = Field(description="The least sure binding on its best chain. " + RESOLUTION_HELP)
    tested: bool = Field(description="Some test found here runs it")
    chain: list[str] | None = Field(None, description="Its chain of calls to the changed entity (paths=true)")


class AffectedTest(BaseModel):
    id: str
    name: str
    path: str | None
    line: int | None = Field(None, description="First line of the test's definition")
    hops: int
    resolution: Resolution
    through: str = Field(
        description="calls, `fixture <name>`, `setUp <name>`, or `class <name>` (it makes an object of the class of "
        "a method nothing calls by name, which only such an object can run): how it reaches the change"
    )
    reaches: str = Field(description="The changed entity it reaches")


class DocMention(BaseModel):
    citation: str
    names: str = Field(description="The changed entity it names")
    stale_reference: str | None = Field(None, description="What the change makes wrong in it (rename, removal)")


class Reason(BaseModel):
    kind: str
    count: int
    detail: str


class Verdict(BaseModel):
    status: str = Field(description="complete: nothing below could hide a caller or test; else lower_bound")
    reasons: list[Reason] = Field(default_factory=list)


@dataclass(frozen=True)
class ImpactAsk:
    """One impact call's arguments, as given."""

    entities: list[str] | None
    changes: str | None
    projects: list[str] | None
    max_hops: int
    min_resolution: Resolution
    paths: bool
    offset: int
    limit: int

    def again(self, offset: int) -> str:
        """The same call from `offset` on."""
        return suggest_call(
            "impact",
            entities=self.entities,
            changes=self.changes,
            projects=self.projects,
            max_hops=self.max_hops,
            min_resolution=self.min_resolution,
            paths=self.paths or None,
            offset=offset,
            limit=self.limit,
        )


class ImpactResult(BaseModel):
    changed: list[Changed]
    callers: list[Caller] = Field(description="This page of the callers, riskiest first (untested, nearest, surest)")
    callers_total: int
    callers_by_project: dict[str, int]
    tests: list[AffectedTest] = Field(description="This page of the tests that reach the change, surest first")
    tests_total: int
    untested: list[str] = Field(description="Changed or affected functions (ids) no test found here reaches")
    docs: list[DocMention]
    verdict: Verdict
    next_call: str | None = Field(None, description="The call that gives the next page of callers and tests")


def impact(
    reader: Reader,
    *,
    entities: Sequence[str] | None = None,
    changes: str | None = None,
    projects: Sequence[str] | None = None,
    max_hops: int = 3,
    min_resolution: Resolution = Resolution.DISPATCH,
    paths: bool = False,
    offset: int = 0,
    limit: int = 50,
) -> ImpactResult:
    """What changing `entities` (names or ids), or the git change `changes` ("working-tree" or "BASE..HEAD"), affects.

    Raises:
        ArgumentError: neither or both of entities and changes, a bound out of range, an unknown project, a change
            git cannot read (not a work tree, an unknown commit).
        EntityNotFoundError: an entity is unknown or ambiguous (with suggestions).
    """
    check_range("max_hops", max_hops, 1, MAX_HOPS)
    check_range("limit", limit, 1, MAX_LIMIT)
    check_range("offset", offset, 0, MAX_OFFSET)
    if (entities is None) == (changes is None):
        raise ArgumentError("give exactly one of `entities` (names or ids) or `changes` ('working-tree' or 'A..B')")
    catalog, directory, index, read = reader.catalog, reader.directory(), reader.relations(), reader.chunks
    findings: list[Finding] = []
    if entities is not None:
        changed = [_named(resolve_entity(directory, e, list(projects) if projects else None)) for e in entities]
    else:
        changed, findings = _from_changes(catalog, directory, read, changes or WORKING_TREE, projects)
    starts = sorted({c.id for c in changed if c.change != "added" or c.id in directory.by_id})
    near = walk_callers(index, starts, max_hops, min_resolution)
    # Tests are found over every call, guesses included, and by the names test code writes: a test missed is a
    # change shipped untested, so each test says how it was found (its resolution, `through`).
    hops = max(TEST_HOPS, max_hops)
    deep, reaching = _tests_walk(reader, starts, hops)
    # a test reaching the change only through an override of a class it never makes cannot run it
    named = NamedMakers(catalog, directory, read, index)
    tests = narrowed(index, directory, starts, deep, reaching, lambda s, b: _tests_walk(reader, s, hops, b), named)
    deep, tests = _with_class_tests(reader, starts, deep, tests, hops, named)
    ask = ImpactAsk(
        list(entities) if entities is not None else None,
        changes,
        list(projects) if projects else None,
        max_hops,
        min_resolution,
        paths,
        offset,
        limit,
    )
    return _answer(catalog, directory, read, index, changed, near, deep, tests, findings, ask)


def _tests_walk(
    reader: Reader, starts: Sequence[str], hops: int, barred: frozenset[int] = frozenset()
) -> tuple[CallerWalk, dict[str, TestReach]]:
    catalog, directory, index, read = reader.catalog, reader.directory(), reader.relations(), reader.chunks
    deep = walk_callers(index, starts, hops, Resolution.NAME, WIDEST_DISPATCH, barred)
    projects_of = sorted({e.project for i in deep.reached if (e := directory.by_id.get(i)) is not None})
    deep = with_fixture_values(index, directory, read, deep, projects_of)
    deep = with_named_tests(catalog, directory, read, index, deep, projects_of)
    return deep, tests_reaching(index, directory, read, deep)


def _with_class_tests(
    reader: Reader, starts: Sequence[str], deep: CallerWalk, tests: Narrowed, hops: int, named: NamedMakers
) -> tuple[CallerWalk, Narrowed]:
    """For the starts no test reaches: the tests making the class of a method nothing calls on the way back to them
    (`class_tests`)."""
    reached = {chain(deep, how.via)[-1] for how in tests.kept.values()}
    untested = [s for s in starts if s not in reached]
    if not untested:
        return deep, tests
    index, directory = reader.relations(), reader.directory()
    found = through_classes(index, directory, deep, untested, lambda s: _tests_walk(reader, s, hops), named)
    return found.walk, replace(tests, kept=dict(sorted({**found.tests, **tests.kept}.items())))


def _answer(
    catalog: Catalog,
    directory: EntityDirectory,
    read: ChunkReader,
    index: RelationIndex,
    changed: list[Changed],
    near: CallerWalk,
    deep: CallerWalk,
    narrowed_tests: Narrowed,
    findings: list[Finding],
    ask: ImpactAsk,
) -> ImpactResult:
    tests = narrowed_tests.kept
    tested = _tested(deep, tests)
    found = (_caller(directory, near, i, tested, ask.paths) for i, r in near.reached.items() if r.hops)
    callers = [c for c in found if c is not None and c.id not in tests]
    # riskiest first: the library's own code before test helpers (fixtures, setUp), untested, nearest, surest
    callers.sort(key=lambda c: (is_test_path(c.path or ""), c.tested, c.hops, c.resolution.rank, c.project, c.id))
    by_project: dict[str, int] = {}
    for c in callers:
        by_project[c.project] = by_project.get(c.project, 0) + 1
    offset, limit = ask.offset, ask.limit
    page = callers[offset : offset + limit]
    affected = {c.id: directory.by_id[c.id] for c in changed if c.id in directory.by_id}
    affected |= {c.id: directory.by_id[c.id] for c in callers if not is_test(directory.by_id[c.id])}
    involved = sorted({e.project for e in affected.values()} | {c.project for c in changed})
    guessed_tests = sum(1 for how in tests.values() if how.resolution is Resolution.NAME)
    through = frozenset(i for i in deep.reached if i in directory.by_id and not is_test(directory.by_id[i]))
    inputs = ReasonInputs(
        near,
        index,
        ask.min_resolution,
        affected,
        involved,
        guessed_tests,
        through,
        deep.wide,
        WIDEST_DISPATCH,
        given=deep.given,
        left_out=sorted(directory.by_id[i].name for i in narrowed_tests.left if i in directory.by_id),
    )
    findings = [*findings, *reasons(catalog, directory, read, inputs)]
    verdict = Verdict(
        status="lower_bound" if findings else "complete",
        reasons=[Reason(kind=f.kind, count=f.count, detail=f.detail) for f in findings],
    )
    untested = sorted(i for i in affected if i not in tested and not is_test_path(affected[i].path or ""))
    more = offset + limit < max(len(callers), len(tests))
    return ImpactResult(
        changed=changed,
        callers=page,
        callers_total=len(callers),
        callers_by_project=dict(sorted(by_project.items())),
        tests=_tests(directory, read, deep, tests, offset, limit),
        tests_total=len(tests),
        untested=untested,
        docs=_docs(catalog, directory, read, index, changed),
        verdict=verdict,
        next_call=ask.again(offset + limit) if more else None,
    )


def _named(entity: Entity) -> Changed:
    return Changed(id=entity.id, name=entity.name, type=entity.type, project=entity.project, path=entity.path)


def _from_changes(
    catalog: Catalog,
    directory: EntityDirectory,
    read: ChunkReader,
    changes: str,
    projects: Sequence[str] | None,
) -> tuple[list[Changed], list[Finding]]:
    """The definitions a git change touches in each indexed project (every project by default) in a work tree."""
    manifest = catalog.manifest
    roots = manifest.roots
    wanted = list(projects) if projects else sorted(roots)
    unknown = [p for p in wanted if p not in roots]
    if unknown:
        raise ArgumentError(f"no indexed project {unknown[0]!r} with a folder; indexed: {sorted(roots)}")
    changed: list[Changed] = []
    findings: list[Finding] = []
    tried: list[str] = []
    for project in wanted:
        try:
            files = read_changes(Path(roots[project]), changes)
        except ChangeError as error:
            if projects or changes != WORKING_TREE or "work tree" not in str(error):
                raise ArgumentError(f"project {project!r}: {error}") from error
            continue  # every project asked by default: one outside git is not an error
        tried.append(project)
        for file in files:
            entry = manifest.documents.get(document_id(project, file.path))
            if entry is None:
                findings.extend(_unindexed(manifest.skipped.get(project, []), project, file.path))
                continue
            mapping = map_file(file, entry, Path(roots[project]), directory, read)
            changed.extend(_touched(t) for t in mapping.touched)
            changed.extend(
                Changed(id="", name=n, type="", project=project, path=file.path, change="added") for n in mapping.added
            )
    if not tried:
        raise ArgumentError("no indexed project is in a git work tree: pass `entities` instead of `changes`")
    return changed, _merged(findings)


def _touched(item: Touched) -> Changed:
    e = item.entity
    return Changed(
        id=e.id,
        name=e.name,
        type=e.type,
        project=e.project,
        path=e.path,
        lines=item.lines,
        change=item.change,
        renamed_from=item.renamed_from,
        renamed_to=item.renamed_to,
    )


def _unindexed(skipped: Sequence[SkippedFile], project: str, path: str) -> list[Finding]:
    reason = next((s.reason for s in skipped if s.path == path), None)
    if reason is not None:
        return [Finding("changed_file_skipped", 1, f"{project}/{path} was skipped at indexing ({reason})")]
    if Path(path).suffix.lower() in CODE_SUFFIXES:
        return [Finding("changed_file_not_indexed", 1, f"{project}/{path} is not in the index: index it first")]
    return []


def _merged(findings: list[Finding]) -> list[Finding]:
    """One finding per kind: the counts summed, the first detail kept (with how many more)."""
    kinds: dict[str, list[Finding]] = {}
    for f in findings:
        kinds.setdefault(f.kind, []).append(f)
    out = []
    for kind, found in kinds.items():
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        out.append(Finding(kind, sum(f.count for f in found), found[0].detail + more))
    return out


def _tested(deep: CallerWalk, tests: dict[str, TestReach]) -> set[str]:
    """Every entity on the chain from a test found to the changed code: a test runs it."""
    return {node for how in tests.values() for node in chain(deep, how.via)}


def _caller(
    directory: EntityDirectory, walk: CallerWalk, entity_id: str, tested: set[str], with_chain: bool
) -> Caller | None:
    entity = directory.by_id.get(entity_id)
    if entity is None:
        return None
    reach = walk.reached[entity_id]
    return Caller(
        id=entity_id,
        name=entity.name,
        project=entity.project,
        path=entity.path,
        hops=reach.hops,
        resolution=reach.resolution,
        tested=entity_id in tested,
        chain=chain(walk, entity_id) if with_chain else None,
    )


def _tests(
    directory: EntityDirectory,
    read: ChunkReader,
    deep: CallerWalk,
    tests: dict[str, TestReach],
    offset: int,
    limit: int,
) -> list[AffectedTest]:
    """One page of the tests: surest first (a test reached over bound calls only before one a name guess reaches),
    then the nearest."""
    ranked = sorted(tests.items(), key=lambda t: (t[1].resolution.rank, t[1].hops, t[0]))[offset : offset + limit]
    entities = {i: directory.by_id[i] for i, _ in ranked if i in directory.by_id}
    chunks = read(sorted({e.chunk_id for e in entities.values() if e.chunk_id}))
    out = []
    for test_id, how in ranked:
        entity = entities.get(test_id)
        if entity is None:
            continue
        chunk = chunks.get(entity.chunk_id or "")
        block = definition_block(chunk.text.splitlines(), entity.name) if chunk is not None else None
        reaches = chain(deep, how.via)[-1]
        out.append(
            AffectedTest(
                id=test_id,
                name=entity.name,
                path=entity.path,
                line=chunk.start_line + (block[0] if block else 0) if chunk is not None else None,
                hops=how.hops,
                resolution=how.resolution,
                through=how.through,
                reaches=reaches,
            )
        )
    return out


def _docs(
    catalog: Catalog, directory: EntityDirectory, read: ChunkReader, index: RelationIndex, changed: Sequence[Changed]
) -> list[DocMention]:
    """Prose naming a changed entity — its `MENTIONS`, and prose writing its name as code (`` `add` ``, `add()`,
    `ops.add`) — flagged where a rename, removal or new signature makes it wrong."""
    out: list[DocMention] = []
    for item in changed:
        entity = directory.by_id.get(item.id)
        if entity is None:
            continue
        mentions = [
            r.evidence for r in index.neighbours([item.id], index.tenant, 500)
            if r.type == RelationType.MENTIONS.value and r.target == item.id and r.evidence
        ]  # fmt: skip
        chunk_ids = sorted({*mentions, *prose_naming(catalog, read, entity)})
        citations = index.citations(chunk_ids)
        for citation in sorted(set(citations.values())):
            out.append(DocMention(citation=citation, names=item.id, stale_reference=_stale(item)))
    return out[:DOCS_SHOWN]


def _stale(item: Changed) -> str | None:
    if item.change == "renamed":
        return f"names {item.renamed_from or item.name}, which this change renames to {item.renamed_to}"
    if item.change == "removed":
        return f"names {item.name}, which this change removes"
    if item.change == "signature":
        return f"names {item.name}, whose signature this change alters: check the calls it shows"
    return None
