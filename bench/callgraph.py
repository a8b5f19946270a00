"""Call-graph accuracy: how many of Trident's CALLS edges a type-aware reference (jedi) confirms, and how many of the
reference's calls Trident finds, on real third-party Python packages.

Usage:
    python bench/callgraph.py                                      # httpx+httpcore in one index, click in another
    python bench/callgraph.py --packages click==8.5.1              # one package, to iterate fast
    python bench/callgraph.py --packages httpx==0.28.1+httpcore==1.0.9 --json
Each --packages argument is one index; `+` joins packages indexed together, so the calls between them count. Sdists
are fetched with pip into ~/.cache/trident/bench/callgraph/ (TRIDENT_BENCH_CACHE moves it) and each extracted root is
indexed as one project named after its package, with the model TRIDENT_MODEL names. Needs jedi (the `bench` extra).
Prints a table and example errors, writes ~/.cache/trident/bench/results/callgraph.json (`--json` prints it instead).

The reference: every call in a package's own code (Python's `ast`), resolved with jedi's `goto` (`infer` where goto
stops at an assignment), kept when it lands on a function, method or class Trident has an entity for. Its source is the
innermost enclosing definition Trident has an entity for (a module-level call's source is the module), so a pair is
(source entity id, target entity id). Precision: Trident's pairs the reference has (`decided`: of those where jedi
resolved some call of the target's name from the source, as a call jedi leaves unresolved neither confirms nor
refutes an edge); recall: the reference's pairs Trident has. Both are split by a relation's `resolution` where
Relation has one.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path

import jedi
from jedi.api.classes import Name

from trident.embedding.embedder import Embedder, open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.store.names.code_paths import module_name
from trident.store.schema import Entity, Relation
from trident.tools.status import status

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import bench_home

DEFAULT_INDEXES = ("httpx==0.28.1+httpcore==1.0.9", "click==8.5.1")
MAX_FILE_BYTES = 1_000_000
CALL_KINDS = frozenset({"Function", "Method", "Class"})  # what a call can land on (a class: its constructor)
CODE_KINDS = CALL_KINDS | {"Module"}  # what a call can be made from
ALL = "all"  # the resolution bucket holding every edge; the only one while Relation has no `resolution`
SHOWN = 5  # examples printed per package and kind: enough to see a pattern, short enough to read
KEPT = 50  # examples kept in the JSON, for a closer look without a megabyte file
DESCRIPTORS = frozenset({"builtins.classmethod", "builtins.staticmethod"})  # what jedi may stop at, see _class_members
_NEWLINE = re.compile(r"\r\n|\r|\n")  # the line breaks `ast` counts (str.splitlines also breaks on \f and \v)

Pair = tuple[str, str]  # (source entity id, target entity id)


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    root: Path  # the extracted sdist, indexed as one project
    import_dir: str  # project-relative folder of the importable package: "httpx", or "src/click" in a src layout

    @property
    def project(self) -> str:
        return self.name

    @property
    def import_root(self) -> Path:
        """The folder `import <name>` is found in: what jedi's sys.path needs."""
        return self.root / posixpath.dirname(self.import_dir)

    def __str__(self) -> str:
        return f"{self.name}=={self.version}"


# --- sources -------------------------------------------------------------------------------------------------------


def fetch(spec: str, cache: Path) -> Package:
    """The sdist of `NAME==VERSION`, downloaded and extracted once into the cache."""
    name, _, version = spec.partition("==")
    if not name or not version:
        raise SystemExit(f"--packages takes NAME==VERSION (joined by '+'), got {spec!r}")
    unpacked = cache / "src" / f"{name}-{version}"
    if not unpacked.is_dir():
        _extract(_download(name, version, cache / "sdists" / f"{name}-{version}"), unpacked)
    roots = sorted(d for d in unpacked.iterdir() if d.is_dir())
    if len(roots) != 1:
        raise SystemExit(f"{unpacked} should hold one sdist folder, found {[r.name for r in roots]}; delete it")
    return Package(name, version, roots[0].resolve(), _import_dir(roots[0], name))


def _download(name: str, version: str, folder: Path) -> Path:
    archives = sorted(folder.glob("*.tar.gz"))
    if not archives:
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:"]
        subprocess.run([*pip, f"{name}=={version}", "-d", str(folder)], check=True)
        archives = sorted(folder.glob("*.tar.gz"))
    if not archives:
        raise SystemExit(f"pip found no .tar.gz sdist of {name}=={version} (in {folder})")
    return archives[0]


def _extract(archive: Path, into: Path) -> None:
    """Extract next to `into` and rename, so an interrupted run leaves no half-extracted tree to trust."""
    into.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=into.parent, prefix=".extracting-"))
    try:
        with tarfile.open(archive) as tar:
            tar.extractall(staging, filter="data")
        staging.rename(into)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _import_dir(root: Path, name: str) -> str:
    package = name.lower().replace("-", "_")
    for candidate in (package, f"src/{package}"):
        if (root / candidate / "__init__.py").is_file():
            return candidate
    raise SystemExit(f"no {package}/__init__.py (nor src/{package}/) in {root}")


# --- Trident's graph -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Indexed:
    seconds: float
    chunks: int

    @property
    def seconds_per_1k_chunks(self) -> float | None:
        return round(self.seconds * 1000 / self.chunks, 1) if self.chunks else None


def index_packages(catalog: Catalog, packages: list[Package]) -> dict[str, Indexed]:
    """Index each package as a project, as a user indexing the checkouts would; timed per project."""
    seconds: dict[str, float] = {}
    with catalog.writer() as writer:
        for package in packages:
            _log(f"indexing {package} ...")
            started = time.perf_counter()
            index_folder(writer, package.root, package.project, max_file_bytes=MAX_FILE_BYTES)
            seconds[package.project] = time.perf_counter() - started
    chunks = {p.name: p.chunks for p in status(Reader.open(catalog)).projects}
    return {name: Indexed(round(s, 1), chunks.get(name, 0)) for name, s in seconds.items()}


class Entities:
    """Trident's code entities, found the ways the reference needs: by id, by file and local name, by line."""

    def __init__(self, entities: Iterable[Entity], spans: dict[str, tuple[int, int]]) -> None:
        self.by_id: dict[str, Entity] = {}
        self._by_local: dict[tuple[str, str, str], Entity] = {}
        self._by_name: dict[tuple[str, str, str], list[Entity]] = defaultdict(list)
        self._spans = spans  # entity id -> lines of the chunk that defines it
        for e in sorted(entities, key=lambda e: e.id):
            if e.type not in CODE_KINDS or not e.path:
                continue
            self.by_id[e.id] = e
            self._by_local.setdefault((e.project, e.path, _local_name(e)), e)
            self._by_name[(e.project, e.path, e.name)].append(e)
        self.fallbacks = 0  # definitions found by name and line because their qualified name matched nothing

    def local(self, project: str, path: str, local: str) -> Entity | None:
        """The entity `local` ("Client.send", "" for the module) names in a file."""
        return self._by_local.get((project, path, local))

    def enclosing(self, project: str, path: str, scope: tuple[str, ...]) -> Entity | None:
        """The innermost of the enclosing definitions that is an entity; the module's at the top level."""
        for depth in range(len(scope), -1, -1):
            found = self.local(project, path, ".".join(scope[:depth]))
            if found is not None:
                return found
        return None

    def at_line(self, project: str, path: str, name: str, line: int) -> Entity | None:
        """The entity named `name` whose defining chunk shows `line`."""
        for e in self._by_name.get((project, path, name), []):
            start, end = self._spans.get(e.id, (0, -1))
            if start <= line <= end:
                self.fallbacks += 1
                return e
        return None

    def label(self, entity_id: str) -> str:
        entity = self.by_id.get(entity_id)
        return entity.qualified_name if entity else entity_id


def _local_name(entity: Entity) -> str:
    """`httpx._client.Client.send` in httpx/_client.py -> `Client.send`; a module's is ""."""
    module = module_name(entity.path or "")
    if entity.qualified_name == module:
        return ""
    return entity.qualified_name.removeprefix(module + ".")


def read_entities(catalog: Catalog) -> Entities:
    entities = [e for e in catalog.entities() if e.type in CODE_KINDS]
    chunks = catalog.graph.get_chunks(sorted({e.chunk_id for e in entities if e.chunk_id}))
    spans = {
        e.id: (chunks[e.chunk_id].start_line, chunks[e.chunk_id].end_line)
        for e in entities
        if e.chunk_id and e.chunk_id in chunks
    }
    return Entities(entities, spans)


def trident_edges(relations: list[Relation], entities: Entities, package: Package) -> dict[str, set[Pair]]:
    """Unique CALLS pairs made from the package's own code, by resolution; ALL holds every pair."""
    edges: dict[str, set[Pair]] = defaultdict(set)
    prefix = package.import_dir + "/"
    for r in relations:
        source = entities.by_id.get(r.source)
        if r.type != "CALLS" or source is None or source.project != package.project:
            continue
        if not (source.path or "").startswith(prefix):
            continue
        edges[ALL].add((r.source, r.target))
        edges[str(getattr(r, "resolution", ALL))].add((r.source, r.target))
    return edges


# --- the reference -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallSite:
    line: int  # 1-based, as jedi counts
    column: int  # 0-based, in characters (ast counts UTF-8 bytes)
    name: str  # the callee's last name: `send` in `self._client.send(...)`
    scope: tuple[str, ...]  # the enclosing classes and functions, outermost first
    receiver: tuple[int, int] | None = None  # where the last name of `self._client` in `self._client.send()` is


def call_sites(source: str) -> tuple[list[CallSite], int]:
    """Calls whose callee ends in a name, and how many calls there are in all (`f()()` and `x[0]()` name none).

    A definition's decorators, defaults and bases are in its scope: Trident credits their calls to it too.

    Raises:
        SyntaxError: the file does not parse.
    """
    lines = _NEWLINE.split(source)
    sites: list[CallSite] = []
    calls = 0
    stack: list[tuple[ast.AST, tuple[str, ...]]] = [(ast.parse(source), ())]
    while stack:
        node, scope = stack.pop()
        if isinstance(node, ast.Call):
            calls += 1
            site = _callee(node.func, scope, lines)
            if site is not None:
                sites.append(site)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            scope = (*scope, node.name)
        stack.extend((child, scope) for child in ast.iter_child_nodes(node))
    return sorted(sites, key=lambda s: (s.line, s.column)), calls


def _callee(func: ast.expr, scope: tuple[str, ...], lines: list[str]) -> CallSite | None:
    callee = _last_name(func, lines)
    if callee is None:
        return None
    receiver = _last_name(func.value, lines) if isinstance(func, ast.Attribute) else None
    return CallSite(*callee, scope, receiver[:2] if receiver else None)


def _last_name(node: ast.expr, lines: list[str]) -> tuple[int, int, str] | None:
    """Line, character column and text of the name `node` ends with: `b` in `a.b`; None for other expressions."""
    if isinstance(node, ast.Name):
        line, byte_column, name = node.lineno, node.col_offset, node.id
    elif isinstance(node, ast.Attribute) and node.end_lineno is not None and node.end_col_offset is not None:
        # ast gives no position for the attribute's name; it ends the node.
        line, name = node.end_lineno, node.attr
        byte_column = node.end_col_offset - len(name.encode())
    else:
        return None
    text = lines[line - 1]
    return line, byte_column if text.isascii() else len(text.encode()[:byte_column].decode()), name


class Outcome(StrEnum):
    """What jedi resolved a call to, most telling first."""

    ENTITY = "an entity"  # for a pair Trident lacks: another entity than its target
    NO_ENTITY = "in the index, no entity"  # a nested function, a lambda bound to a name: Trident has no entity
    OUTSIDE = "outside the index"  # the standard library, a third-party package, a builtin
    UNRESOLVED = "unresolved"
    ERROR = "raised"


@dataclass
class Reference:
    """What jedi makes of one package's calls."""

    files: int = 0
    unparsed_files: int = 0
    calls: int = 0  # call expressions in the package's own code
    named_calls: int = 0  # ... whose callee ends in a name jedi can be asked about
    unindexed_calls: int = 0  # ... in a file Trident has no module entity for
    jedi_errors: int = 0
    resolved_in_project: int = 0  # ... that jedi resolved into a file of an indexed project
    resolved_to_entity: int = 0  # ... onto a function, method or class Trident has an entity for
    seconds: float = 0.0
    pairs: set[Pair] = field(default_factory=set)
    # (source id, callee name) -> what jedi resolved those calls to: entity ids, or the names of other definitions
    said: dict[tuple[str, str], set[tuple[Outcome, str]]] = field(default_factory=lambda: defaultdict(set))

    def counts(self) -> dict[str, object]:
        counts = {k: v for k, v in vars(self).items() if k not in ("pairs", "said")}
        return counts | {"pairs": len(self.pairs)}


def build_reference(package: Package, group: list[Package], entities: Entities) -> Reference:
    """Resolve every call in the package's own files with jedi."""
    _log(f"jedi: resolving the calls of {package} ...")
    ref = Reference()
    started = time.perf_counter()
    # jedi appends `added_sys_path` after the environment's site-packages, where this venv has its own httpx,
    # httpcore and click; an explicit sys_path puts the extracted sources first.
    sys_path = [str(p.import_root) for p in group] + [p for p in sys.path if p]
    project = jedi.Project(path=package.root, sys_path=sys_path, smart_sys_path=False)
    for file in sorted((package.root / package.import_dir).rglob("*.py")):
        _resolve_file(file, package, group, entities, project, ref)
    ref.seconds = round(time.perf_counter() - started, 1)
    return ref


def _resolve_file(
    file: Path, package: Package, group: list[Package], entities: Entities, project: jedi.Project, ref: Reference
) -> None:
    ref.files += 1
    path = file.relative_to(package.root).as_posix()
    source = file.read_text(encoding="utf-8", errors="replace")
    try:
        sites, calls = call_sites(source)
    except SyntaxError:
        ref.unparsed_files += 1
        return
    ref.calls += calls
    ref.named_calls += len(sites)
    if entities.local(package.project, path, "") is None:
        ref.unindexed_calls += len(sites)
        return
    script = jedi.Script(code=source, path=file, project=project)
    for site in sites:
        caller = entities.enclosing(package.project, path, site.scope)
        assert caller is not None  # the module entity encloses everything
        said = ref.said[(caller.id, site.name)]
        found = _definitions(script, site)
        if found is None:
            ref.jedi_errors += 1
            said.add((Outcome.ERROR, ""))
            continue
        located = [(d, _locate(d, group)) for d in found]
        targets = sorted({t.id for d, place in located if (t := _entity_of(d, place, entities)) is not None})
        ref.resolved_in_project += any(place is not None for _, place in located)
        ref.resolved_to_entity += bool(targets)
        ref.pairs.update((caller.id, t) for t in targets)
        if targets:
            said.update((Outcome.ENTITY, t) for t in targets)
        else:
            said.update((Outcome.NO_ENTITY if p else Outcome.OUTSIDE, d.full_name or d.name) for d, p in located)
        if not found:
            said.add((Outcome.UNRESOLVED, ""))


def _definitions(script: jedi.Script, site: CallSite) -> list[Name] | None:
    """What the callee is; None when jedi raised. A name bound by assignment (`handler = self._pick(); handler()`)
    is inferred to the value it holds, as `goto` stops at the assignment."""
    found = _ask_jedi(lambda: script.goto(site.line, site.column, follow_imports=True))
    if found is None or all(d.type in ("function", "class") for d in found):
        return found
    if any(d.full_name in DESCRIPTORS for d in found) and site.receiver is not None:
        return _class_members(script, site.receiver, site.name) or found
    inferred = _ask_jedi(lambda: script.infer(site.line, site.column))
    kept = [d for d in found if d.type in ("function", "class")]
    return kept + (inferred or [d for d in found if d not in kept])


def _class_members(script: jedi.Script, receiver: tuple[int, int], name: str) -> list[Name]:
    """The methods `name` of the class the receiver is. jedi resolves a classmethod called on some classes (httpx's
    IntEnum `codes`) to `builtins.classmethod` itself; the class it infers for the receiver still lists the method."""
    owners = _ask_jedi(lambda: script.infer(*receiver)) or []
    members = [m for owner in owners if owner.type == "class" for m in _ask_jedi(owner.defined_names) or []]
    return [m for m in members if m.name == name]


def _ask_jedi(call: Callable[[], list[Name]]) -> list[Name] | None:
    try:
        return call()
    except Exception:  # jedi raises on some odd code; the call then counts as unresolved
        return None


def _locate(definition: Name, group: list[Package]) -> tuple[Package, str] | None:
    """The indexed project and project-relative path of a definition's file; None outside them."""
    path = definition.module_path
    if path is None or path.suffix != ".py":
        return None
    path = path.resolve()
    for package in group:
        if path.is_relative_to(package.root):
            return package, path.relative_to(package.root).as_posix()
    return None


def _entity_of(definition: Name, place: tuple[Package, str] | None, entities: Entities) -> Entity | None:
    """The function, method or class entity a definition is: by qualified name, else by name and line."""
    if place is None or definition.type not in ("function", "class"):
        return None
    package, path = place
    full, module = definition.full_name or "", definition.module_name
    found = None
    if module and full.startswith(module + "."):  # (jedi names no module for some definitions it infers)
        found = entities.local(package.project, path, full.removeprefix(module + "."))
    if found is None and definition.line is not None:
        found = entities.at_line(package.project, path, definition.name, definition.line)
    return found if found is not None and found.type in CALL_KINDS else None


# --- figures -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    edges: int  # Trident's unique (source, target) CALLS pairs from the package's code
    confirmed: int  # ... that the reference has too
    reference_pairs: int
    undecided: int = 0  # ... that it lacks where jedi resolved none of the source's calls of the target's name

    @property
    def precision(self) -> float | None:
        return round(self.confirmed / self.edges, 4) if self.edges else None

    @property
    def decided_precision(self) -> float | None:
        """Precision over the edges jedi decides: a call jedi leaves unresolved neither confirms nor refutes one."""
        decided = self.edges - self.undecided
        return round(self.confirmed / decided, 4) if decided else None

    @property
    def recall(self) -> float | None:
        return round(self.confirmed / self.reference_pairs, 4) if self.reference_pairs else None

    def to_json(self) -> dict[str, object]:
        return asdict(self) | {
            "precision": self.precision,
            "decided_precision": self.decided_precision,
            "recall": self.recall,
        }


@dataclass(frozen=True)
class Example:
    source: str
    target: str
    why: str  # what the other side makes of this source's calls of that name
    resolution: str = ""  # how Trident says it bound a wrong edge ("exact", "name"...); "" for a missed pair


@dataclass(frozen=True)
class PackageResult:
    package: Package
    indexed: Indexed
    reference: Reference
    scores: dict[str, Score]  # by resolution
    implicit: int  # edges of calls the source makes without writing one (properties, with/for dunders, decorators)
    cross_project: Score  # only the reference pairs whose target lies in another project
    wrong_by_reason: dict[str, int]
    missed_by_reason: dict[str, int]
    wrong_edges: list[Example]
    missed_pairs: list[Example]

    def to_json(self) -> dict[str, object]:
        return {
            "package": self.package.name,
            "version": self.package.version,
            "import_dir": self.package.import_dir,
            "index": asdict(self.indexed) | {"seconds_per_1k_chunks": self.indexed.seconds_per_1k_chunks},
            "reference": self.reference.counts(),
            "by_resolution": {res: score.to_json() for res, score in self.scores.items()},
            "implicit_edges": self.implicit,
            "cross_project": self.cross_project.to_json(),
            "wrong_by_reason": self.wrong_by_reason,
            "missed_by_reason": self.missed_by_reason,
            "wrong_edges": [asdict(e) for e in self.wrong_edges],
            "missed_pairs": [asdict(e) for e in self.missed_pairs],
        }


def score(edges: set[Pair], reference: set[Pair], undecided: frozenset[Pair] = frozenset()) -> Score:
    return Score(len(edges), len(edges & reference), len(reference), len((edges - reference) & undecided))


def package_result(
    package: Package,
    group: list[Package],
    indexed: Indexed,
    edges: dict[str, set[Pair]],
    ref: Reference,
    entities: Entities,
) -> PackageResult:
    """Every figure of one package, with the reasons for wrong edges and missed pairs, and examples of each."""
    explain = _Explainer(edges.get(ALL, set()), ref, entities, {p.project: p.import_dir + "/" for p in group})
    # An edge where the source writes no call of the target's name is a call the code makes without writing one (a
    # property read, `with x:` running `__enter__`, a decorator applied): outside what a call-site reference sees,
    # so neither confirmed nor refuted here (bench/executed_calls.py checks those against what runs).
    implicit = {pair for pair in edges.get(ALL, set()) if not explain.said(pair) and pair not in ref.pairs}
    everything = edges.get(ALL, set()) - implicit
    wrong, missed = everything - ref.pairs, ref.pairs - everything
    undecided = frozenset(p for p in wrong if {o for o, _ in explain.said(p)} == {Outcome.UNRESOLVED})
    cross = {pair for pair in ref.pairs if pair[1].split(":", 2)[1] != package.project}
    return PackageResult(
        package=package,
        indexed=indexed,
        reference=ref,
        implicit=len(implicit),
        scores={
            res: score(pairs - implicit, ref.pairs, undecided) for res, pairs in sorted((edges or {ALL: set()}).items())
        },
        cross_project=score(everything & cross, cross),
        wrong_by_reason=_tally(f"{_resolutions(p, edges)}: {explain.why_wrong(p)}" for p in wrong),
        missed_by_reason=_tally(explain.why_missed(p) for p in missed),
        wrong_edges=[Example(*explain.labels(p), explain.jedi_said(p), _resolutions(p, edges)) for p in _spread(wrong)],
        missed_pairs=[Example(*explain.labels(p), explain.trident_has(p)) for p in _spread(missed)],
    )


class _Explainer:
    """Why one side lacks a pair, from what the other side links that source's calls of the target's name to."""

    def __init__(self, edges: set[Pair], ref: Reference, entities: Entities, code_dirs: dict[str, str]) -> None:
        self.ref, self.entities, self.code_dirs = ref, entities, code_dirs
        self.by_source: dict[str, set[str]] = defaultdict(set)
        for source, target in edges:
            self.by_source[source].add(target)

    def labels(self, pair: Pair) -> tuple[str, str]:
        return self.entities.label(pair[0]), self.entities.label(pair[1])

    def name(self, entity_id: str) -> str:
        entity = self.entities.by_id.get(entity_id)
        return entity.name if entity else entity_id.rsplit(".", 1)[-1]

    def said(self, pair: Pair) -> set[tuple[Outcome, str]]:
        return self.ref.said.get((pair[0], self.name(pair[1])), set())

    def same_name(self, pair: Pair) -> list[str]:
        """Trident's targets of the source named like the pair's target."""
        return sorted(t for t in self.by_source.get(pair[0], ()) if self.name(t) == self.name(pair[1]))

    def why_wrong(self, pair: Pair) -> str:
        target = self.entities.by_id.get(pair[1])
        code_dir = self.code_dirs.get(target.project, "") if target else ""
        if target is None or not (target.path or "").startswith(code_dir):
            return "target outside package code (tests, docs)"
        outcomes = {outcome for outcome, _ in self.said(pair)}
        first = next((o for o in Outcome if o in outcomes), None)
        return f"jedi: {first}" if first else "no call of that name in the source"

    def why_missed(self, pair: Pair) -> str:
        source, target = pair
        if source == target:
            return "recursion"
        if source.split(":", 2)[1] != target.split(":", 2)[1]:
            return "cross-project"
        name = self.name(target)
        if name.startswith("__") and name.endswith("__"):
            return "dunder call"
        return "name linked elsewhere" if self.same_name(pair) else "no edge for the name"

    def jedi_said(self, pair: Pair) -> str:
        said = sorted(
            self.entities.label(x) if o is Outcome.ENTITY else f"{x} ({o})".lstrip() for o, x in self.said(pair)
        )
        return "jedi: " + (", ".join(said) if said else f"no call named {self.name(pair[1])!r} here")

    def trident_has(self, pair: Pair) -> str:
        same = [self.entities.label(t) for t in self.same_name(pair)]
        return "trident: " + (", ".join(same) or f"no edge for {self.name(pair[1])!r}")


def _resolutions(pair: Pair, edges: dict[str, set[Pair]]) -> str:
    return ",".join(res for res, pairs in sorted(edges.items()) if res != ALL and pair in pairs) or ALL


def _tally(reasons: Iterable[str]) -> dict[str, int]:
    """Counts, most common first (ties by name, for a stable order)."""
    return dict(sorted(Counter(reasons).items(), key=lambda kv: (-kv[1], kv[0])))


def _spread(pairs: set[Pair], limit: int = KEPT) -> list[Pair]:
    """Up to `limit` pairs spread evenly over the sorted list (the first few would all come from one module)."""
    ordered = sorted(pairs)
    count = min(limit, len(ordered))
    return [ordered[i * len(ordered) // count] for i in range(count)]


# --- running -------------------------------------------------------------------------------------------------------


def run_index(specs: list[str], cache: Path, embedder: Embedder) -> list[PackageResult]:
    """Index the packages together into a temporary index and score each against its reference."""
    group = [fetch(spec, cache) for spec in specs]
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Catalog(Path(tmp) / "index", "default", embedder)
        try:
            indexed = index_packages(catalog, group)
            entities = read_entities(catalog)
            relations = [r for r in catalog.graph.relations(catalog.tenant) if r.type == "CALLS"]
        finally:
            catalog.close()
    results = []
    for package in group:
        ref = build_reference(package, group, entities)
        edges = trident_edges(relations, entities, package)
        results.append(package_result(package, group, indexed[package.project], edges, ref, entities))
    _log(f"definitions matched by name and line, not by qualified name: {entities.fallbacks}")
    return results


def print_table(results: list[PackageResult]) -> None:
    print(
        f"{'package':<20} {'resolution':<10} {'edges':>6} {'precision':>9} {'decided':>8} {'ref pairs':>9} "
        f"{'recall':>7} {'calls':>6} {'in proj':>8} {'jedi s':>7} {'index s':>8} {'chunks':>7} {'s/1k chunks':>11}"
    )
    for r in results:
        ref, index = r.reference, r.indexed
        for res, fig in r.scores.items():
            print(
                f"{r.package!s:<20} {res:<10} {fig.edges:>6} {_percent(fig.precision):>9} "
                f"{_percent(fig.decided_precision):>8} {fig.reference_pairs:>9} {_percent(fig.recall):>7} "
                f"{ref.named_calls:>6} {ref.resolved_in_project:>8} {ref.seconds:>7} {index.seconds:>8} "
                f"{index.chunks:>7} {index.seconds_per_1k_chunks or '-':>11}"
            )
    for r in results:
        cross = r.cross_project
        print(f"\n{r.package}: reference pairs into another project: {cross.reference_pairs}, found {cross.confirmed}")
        print(f"  implicit calls (no call written at the source; not scored here): {r.implicit}")
        for title, shown, reasons in (
            ("wrong edges", r.wrong_edges, r.wrong_by_reason),
            ("missed pairs", r.missed_pairs, r.missed_by_reason),
        ):
            print(f"  {title}: " + ", ".join(f"{reason} {n}" for reason, n in reasons.items()))
            for e in shown[:: max(1, len(shown) // SHOWN)][:SHOWN]:
                print(f"    {f'({e.resolution}) ' if e.resolution else ''}{e.source} -> {e.target}   [{e.why}]")


def _percent(value: object) -> str:
    return f"{value:.1%}" if isinstance(value, float) else "-"


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--packages",
        nargs="+",
        default=list(DEFAULT_INDEXES),
        metavar="NAME==VER[+NAME==VER]",
        help="one index per argument; '+' joins packages into one index (default: %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print the JSON result instead of the table")
    args = parser.parse_args(argv)
    settings = ModelSettings()
    embedder = open_embedder(settings)
    cache = bench_home() / "callgraph"
    results = [r for spec in args.packages for r in run_index(spec.split("+"), cache, embedder)]
    document = {
        "model": settings.model,
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "packages": [r.to_json() for r in results],
    }
    out = bench_home() / "results" / "callgraph.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=2) + "\n")
    if args.json:
        print(json.dumps(document, indent=2))
    else:
        print_table(results)
        print(f"\nwritten: {out}")


if __name__ == "__main__":
    main()
