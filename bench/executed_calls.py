"""Trident's call graph against what really runs: real packages' own test suites run under a tracer, and every call
from one of the package's functions to another that executed is looked up in Trident's index of the package.

Usage:
    python bench/executed_calls.py                                      # click, jinja2 and more-itertools
    python bench/executed_calls.py --packages itsdangerous==2.2.0       # one package, to iterate fast
    python bench/executed_calls.py --retrace --json                     # run the suites again; print the JSON
    python bench/executed_calls.py --python ~/.pyenv/versions/3.12.1/bin/python3
Sdists are fetched with pip into ~/.cache/trident/bench/executed-calls/ (TRIDENT_BENCH_CACHE moves it), as
bench/callgraph.py fetches them. Each suite runs in a copy of the sdist (its build and cache files stay out of the
index), in a throwaway venv there holding pytest, the suite's few test dependencies (TEST_DEPS) and the package
installed editable from that copy, so the tests run the code at that path. The suite runs under bench/exec_tracer.py
(a pytest plugin: `sys.monitoring` on Python 3.12+, which the venv gets when such an interpreter is on the machine,
else a slower `sys.setprofile` fallback with the same trace). The trace is kept in the cache and reused; `--retrace`
runs the suites again. Each pristine sdist is indexed as one project with the model TRIDENT_MODEL names.

What is measured, per package:
  executed pairs   each distinct caller -> callee of two code objects in the package's own code (not its tests),
                   mapped to Trident entities by file and qualified name (code nested in a function, a lambda or a
                   generator expression maps to the innermost enclosing entity Trident has; `Foo()` runs
                   `Foo.__init__`, so that pair's callee is the method)
  recall           of the mapped pairs, the share Trident has as a CALLS relation (source=caller, target=callee),
                   each pair under its surest resolution (the values of `Resolution`, read at run time); `bound`
                   is any resolution but `name`. Relations are read as a server reads them, through
                   `RelationIndex.from_table`, so relations derived at query time count
  misses by cause  what the source shows about a pair Trident lacks (first that applies, in CAUSES order)
  chains           seeded real call chains of 3-6 calls (runs of calls one traced stack holds, each the shortest
                   route between its ends in the executed-pair graph): whether
                   `explain_path`'s first path walks exactly those entities forward over CALLS (`exact`), and
                   whether every call of it ran in the suite (`ran`: a chain of calls the trace holds, maybe another)
  impact           when `trident.tools.impact` exists: for seeded executed functions, the tests its answer names
                   against the tests that ran the function (a parametrised test function counts once); a
                   function counts as run by a test when the test's code (its function, fixtures, the helpers
                   beside it) is under the call, not when pytest itself called it around the test — pluggy's hooks
                   run every pytest hook of every test (`suite.run_by_pytest` counts what was set apart)
Prints a table and examples, writes ~/.cache/trident/bench/results/executed_calls.json (`--json` prints it instead).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from collections.abc import Collection, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from trident.embedding.embedder import Embedder, open_embedder
from trident.embedding.hash_embedder import HashEmbedder
from trident.embedding.model_settings import ModelSettings
from trident.retrieval.call_chains import CALL_TYPES as EXECUTION_KINDS
from trident.retrieval.entities import EntityNotFoundError
from trident.retrieval.reader import Reader
from trident.retrieval.relation_index import RelationIndex
from trident.store.catalog import Catalog
from trident.store.names.code_paths import is_test_path
from trident.store.schema import Entity, Resolution
from trident.tools.explain import Hop, explain_path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from callgraph import Entities, Indexed, Package, _log, _percent, _tally, fetch, index_packages, read_entities
from corpus import bench_home

DEFAULT_PACKAGES = ("click==8.5.1", "jinja2==3.1.6", "more-itertools==11.2.1")
# What each suite needs beside pytest and the package's own dependencies (its requirements/tests file, trimmed).
TEST_DEPS: dict[str, tuple[str, ...]] = {
    "click": (),
    "jinja2": ("trio",),
    "itsdangerous": ("freezegun",),
    "marshmallow": ("simplejson",),
    "more-itertools": (),
    "packaging": ("pretend",),
    "tomlkit": ("pyyaml",),
    "markdown": ("pyyaml",),
    "cssselect": ("lxml",),
    "soupsieve": ("beautifulsoup4", "lxml", "html5lib"),
    "natsort": ("hypothesis", "pytest-mock"),
    "structlog": ("pretend", "freezegun", "pytest-asyncio"),
    "tenacity": ("tornado",),
    "hpack": ("hypothesis",),
    "asttokens": ("astroid",),
}
PYTEST = "pytest>=8"  # the tracer's hook wrappers are pytest 8's
NO_TORCH = "torch<0\n"  # a constraint no release meets: a dependency asking for torch fails the install, loudly
TRACER = Path(__file__).with_name("exec_tracer.py")
TRACE_VERSION = 4  # `exec_tracer.VERSION`: the traces this bench reads
SUITE_TIMEOUT = 3600  # seconds: a hung suite stops the bench instead of holding it forever
USAGE_ERROR = 4  # pytest's exit code for options it does not know
SEED = 49  # issue #49
CHAINS = 24  # chains sampled per package
CHAIN_CALLS = (3, 6)  # calls per chain, fewest and most (explain_path walks at most 6 hops)
CHAINS_PER_START = 2  # so the sample is not one hub's fan-out
IMPACT_FUNCTIONS = 30
SHOWN = 3  # examples printed per cause
KEPT = 20  # examples kept in the JSON per cause
CONSTRUCTORS = frozenset({"__init__", "__new__", "__post_init__"})
# What a class statement runs itself (its metaclass, its bases' hooks): no expression of the code calls them.
CLASS_CREATION = frozenset(
    {"__prepare__", "__new__", "__init__", "__init_subclass__", "__set_name__", "__mro_entries__"}
)
PROPERTY_DECORATORS = frozenset({"property", "cached_property", "getter", "setter", "deleter"})

Pair = tuple[str, str]  # (caller entity id, callee entity id)
CREDITED = "kept, caller credited to the definition whose defaults or bases hold the call"


class Cause:
    """Why Trident lacks an executed pair, as the source shows it; the first that applies, in this order."""

    RECURSION = "recursion"
    CONSTRUCTOR_CLASS = "constructor (Trident calls the class)"
    CONSTRUCTOR = "constructor"
    DUNDER = "implicit dunder"
    PROPERTY = "property"
    GENERATOR = "generator/coroutine body"
    OVERRIDE = "override (virtual dispatch)"
    WRAPPER = "via decorator/wrapper"
    NESTED = "callee nested (no entity of its own)"
    GETATTR = "getattr"
    DECORATOR = "decorator applied (a call in the decorators of a definition in the caller)"
    UNBOUND_NAMED = "unbound call (name at the call site)"
    UNBOUND_VALUE = "unbound call (callee held in a variable)"


# --- running the suites ------------------------------------------------------------------------------------------


def find_python(requested: str | None) -> Path:
    """The interpreter the suites run on: the one asked for, else the newest 3.12+ on the machine (sys.monitoring),
    else this one (the tracer then falls back to sys.setprofile)."""
    if requested:
        if _version(requested) is None:
            raise SystemExit(f"--python {requested} does not run")
        return Path(requested)
    pyenv = sorted(Path.home().glob(".pyenv/versions/3.1[2-9]*/bin/python3"), key=lambda p: _version(str(p)) or ())
    candidates = [shutil.which("python3.13"), shutil.which("python3.12"), *map(str, reversed(pyenv))]
    for candidate in candidates:
        version = _version(candidate) if candidate else None
        if version is not None and version >= (3, 12):
            return Path(candidate or "")
    return Path(sys.executable)


def _version(python: str) -> tuple[int, ...] | None:
    try:
        done = subprocess.run(
            [python, "-c", "import sys; print(*sys.version_info[:3])"], capture_output=True, text=True, timeout=60
        )
    except OSError:
        return None
    return tuple(int(p) for p in done.stdout.split()) if done.returncode == 0 else None


@dataclass(frozen=True)
class Suite:
    package: Package
    run_root: Path  # a copy of the sdist the suite runs in
    python: Path  # the throwaway venv's interpreter
    trace: Path
    log: Path


def prepare_suite(package: Package, cache: Path, python: Path) -> Suite:
    """A copy of the sdist and a venv that runs its tests, each made once."""
    name = f"{package.name}-{package.version}"
    run_root = cache / "run" / name
    if not run_root.is_dir():
        staging = cache / "run" / f".copying-{name}"
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(package.root, staging)
        staging.rename(run_root)
    version = ".".join(map(str, (_version(str(python)) or (0, 0))[:2]))
    venv = _venv(package, run_root, python, cache / "venvs" / f"{name}-py{version}")
    traces = cache / "traces"
    traces.mkdir(parents=True, exist_ok=True)
    return Suite(package, run_root, venv, traces / f"{name}-py{version}.json", traces / f"{name}-py{version}.log")


def _venv(package: Package, run_root: Path, python: Path, folder: Path) -> Path:
    exe = folder / "bin" / "python"
    wanted = [PYTEST, *TEST_DEPS.get(package.name, ()), "-e", str(run_root)]
    marker = folder / "installed.json"
    if marker.is_file() and json.loads(marker.read_text()) == wanted:
        return exe
    _log(f"venv for {package}: {python} + {' '.join(wanted)}")
    shutil.rmtree(folder, ignore_errors=True)
    subprocess.run([str(python), "-m", "venv", str(folder)], check=True)
    constraints = folder / "constraints.txt"
    constraints.write_text(NO_TORCH)
    pip = [str(exe), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", str(constraints)]
    subprocess.run([*pip, *wanted], check=True)
    marker.write_text(json.dumps(wanted))
    return exe


def run_suite(suite: Suite, cache: Path, retrace: bool) -> dict[str, Any]:
    """The suite's trace: read from the cache, or the suite run under the tracer to make it.

    Raises:
        SystemExit: the suite wrote no trace (it could not start, or was killed).
    """
    if suite.trace.is_file() and not retrace:
        kept: dict[str, Any] = json.loads(suite.trace.read_text())
        # (a trace an earlier tracer wrote, which held no stacks or counted what pytest itself ran around a test as
        # the test's: the suite runs again)
        if kept.get("version") == TRACE_VERSION:
            return _said_full(kept, suite)
    plugins = cache / "plugin"
    plugins.mkdir(parents=True, exist_ok=True)
    shutil.copy(TRACER, plugins / TRACER.name)
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    environment |= {
        "PYTHONPATH": str(plugins),
        "EXEC_TRACER_ROOT": str(suite.run_root),
        "EXEC_TRACER_SOURCE": str(suite.run_root / suite.package.import_dir),
        "EXEC_TRACER_OUT": str(suite.trace),
    }
    tests = next((d for d in ("tests", "test") if (suite.run_root / d).is_dir()), ".")
    command = [str(suite.python), "-m", "pytest", "-p", TRACER.stem, "-p", "no:cacheprovider", "-q"]
    # a test module whose optional dependency is missing is left out; the rest of the suite still runs
    command += ["--continue-on-collection-errors", tests]
    suite.trace.unlink(missing_ok=True)
    _log(f"running the tests of {suite.package} under the tracer (log: {suite.log}) ...")
    done = _pytest(command, suite, environment)
    if done.returncode == USAGE_ERROR and not suite.trace.is_file():
        # the package's configuration asks for a plugin the suite's venv lacks (`--cov=...` in its addopts): its
        # options are left out, and the suite runs again
        done = _pytest([*command[:-1], "-o", "addopts=", command[-1]], suite, environment)
    if not suite.trace.is_file():
        raise SystemExit(
            f"the tests of {suite.package} wrote no trace (pytest exit {done.returncode}); see {suite.log}"
        )
    return _said_full(json.loads(suite.trace.read_text()), suite)


def _pytest(command: list[str], suite: Suite, environment: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    with suite.log.open("w") as log:
        return subprocess.run(
            command,
            cwd=suite.run_root,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            timeout=SUITE_TIMEOUT,
        )


def _said_full(trace: dict[str, Any], suite: Suite) -> dict[str, Any]:
    """The trace, saying on stderr when the tracer kept its most stacks and dropped the later ones (chains are
    sampled from those it kept)."""
    if trace.get("stacks_full"):
        _log(f"{suite.package}: the tracer kept its first {len(trace['stacks'])} stacks; later ones were not recorded")
    return trace


# --- the trace -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Code:
    """One traced code object: where it is defined."""

    path: str  # relative to the package root
    qualname: str  # co_qualname: `Foo.bar`, `outer.<locals>.inner`, `<module>`
    line: int  # co_firstlineno (a decorated function's first decorator)

    @property
    def name(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]

    @property
    def nested(self) -> bool:
        """Defined inside a function, or a lambda or comprehension: Trident has no entity for it."""
        return "<" in self.qualname and self.qualname != "<module>"

    @property
    def nested_function(self) -> bool:
        """A `def` inside a function (a decorator's wrapper, a local helper)."""
        return "<locals>" in self.qualname and not self.name.startswith("<")

    def __str__(self) -> str:
        return f"{self.path}:{self.line} {self.qualname}"


@dataclass(frozen=True)
class RawPair:
    caller: Code
    callee: Code
    lines: tuple[int, ...]  # the caller's lines where it made the call (a few)


@dataclass(frozen=True)
class Trace:
    python: str
    mode: str
    seconds: float
    outcomes: dict[str, int]
    functions: list[Code]
    pairs: list[RawPair]
    ran: dict[str, list[Code]]  # test node id ("" for imports and collection) -> package code it ran
    tests: dict[str, Code | None]  # test node id -> the test function
    stacks: list[tuple[Code, ...]]  # the package frames each traced call started under, outermost first
    run_by_pytest: dict[str, list[Code]]  # test node id -> package code pytest itself ran around it (not in `ran`)

    @classmethod
    def of(cls, document: dict[str, Any]) -> Trace:
        functions = [Code(*f) for f in document["functions"]]
        return cls(
            python=document["python"],
            mode=document["mode"],
            seconds=document["seconds"],
            outcomes=document["outcomes"],
            functions=functions,
            pairs=[RawPair(functions[a], functions[b], tuple(lines)) for a, b, lines in document["pairs"]],
            ran={test: [functions[i] for i in ran] for test, ran in document["ran"].items()},
            tests={test: Code(*where) if where else None for test, where in document["tests"].items()},
            stacks=[tuple(functions[i] for i in stack) for stack in document["stacks"]],
            run_by_pytest={test: [functions[i] for i in ran] for test, ran in document["run_by_pytest"].items()},
        )


# --- mapping to Trident --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Located:
    entity: Entity
    own: bool  # the code's own entity, not an enclosing one's


class Locator:
    """Traced code -> Trident's entity for it, or the innermost enclosing one's."""

    def __init__(self, entities: Entities, project: str) -> None:
        self.entities, self.project = entities, project
        self._seen: dict[Code, Located | None] = {}

    def __call__(self, code: Code) -> Located | None:
        if code not in self._seen:
            self._seen[code] = self._locate(code)
        return self._seen[code]

    def _locate(self, code: Code) -> Located | None:
        scope, whole = _scope(code.qualname)
        own = self.entities.local(self.project, code.path, ".".join(scope)) if whole else None
        if own is not None:
            return Located(own, True)
        enclosing = self.entities.enclosing(self.project, code.path, scope)
        return Located(enclosing, False) if enclosing is not None else None


def _scope(qualname: str) -> tuple[tuple[str, ...], bool]:
    """The definitions a qualified name runs through, and whether they name the code itself: `f.<locals>.g` ->
    ((f, g), True), `f.<locals>.<lambda>` -> ((f,), False), `<module>` -> ((), True)."""
    scope: list[str] = []
    for part in qualname.split("."):
        if part == "<locals>":
            continue
        if part.startswith("<"):
            return tuple(scope), part == "<module>" and not scope
        scope.append(part)
    return tuple(scope), True


def executed_pairs(
    trace: Trace, locate: Locator, facts: SourceFacts
) -> tuple[dict[Pair, list[RawPair]], dict[str, int]]:
    """The traced pairs by (caller entity, callee entity), and how many raw pairs were left out (or credited to the
    definition whose defaults or bases make the call, as Trident credits it), by reason."""
    pairs: dict[Pair, list[RawPair]] = defaultdict(list)
    skipped: Counter[str] = Counter()
    credited = [(part, part != traced) for traced in trace.pairs for part in facts.credited(traced)]
    skipped[CREDITED] = sum(moved for _, moved in credited)  # a count only: those pairs are scored below
    for raw, _ in credited:
        caller, callee = locate(raw.caller), locate(raw.callee)
        if caller is None or callee is None:
            skipped["an end has no entity"] += 1
        elif is_test_path(caller.entity.path or "") or is_test_path(callee.entity.path or ""):
            skipped["an end is test code (tests kept inside the package)"] += 1
        elif facts.class_creation(raw):
            skipped["a class statement's metaclass or __init_subclass__"] += 1
        elif callee.entity.type == "Module":
            skipped["callee is a module body (an import)"] += 1
        elif callee.entity.type == "Class" and callee.own:
            skipped["callee is a class body (a class statement)"] += 1
        elif caller.entity.id == callee.entity.id and raw.caller != raw.callee:
            skipped["nested code of the caller (one entity)"] += 1
        else:
            pairs[(caller.entity.id, callee.entity.id)].append(raw)
    return {pair: sorted(raws, key=lambda r: (r.caller, r.callee)) for pair, raws in pairs.items()}, _tally(+skipped)


def mapping_counts(trace: Trace, locate: Locator) -> dict[str, int]:
    """How the traced package functions map: to their own entity, an enclosing one, none."""
    located = [locate(code) for code in trace.functions]
    return {
        "traced": len(located),
        "own entity": sum(1 for found in located if found is not None and found.own),
        "enclosing entity": sum(1 for found in located if found is not None and not found.own),
        "unmapped": sum(1 for found in located if found is None),
    }


def trident_calls(index: RelationIndex) -> dict[Pair, set[str]]:
    """Every pair the relation index walks as how control reaches a function, with the resolutions of its relations:
    calls, and references (a property read runs its getter; a callback passed on is run by what it is given to):
    the bound kinds issue #49's executed-pair target counts."""
    calls: dict[Pair, set[str]] = defaultdict(set)
    for relation in index.all():
        if relation.type in EXECUTION_KINDS:
            calls[(relation.source, relation.target)].add(str(relation.resolution))
    return calls


def resolutions() -> list[str]:
    """Resolution's values, surest first, read when the bench runs: a value added to the enum is a column."""
    return [r.value for r in sorted(Resolution, key=lambda r: r.rank)]


def surest(found: set[str], order: list[str]) -> str | None:
    return min(found, key=lambda r: order.index(r) if r in order else len(order)) if found else None


# --- what the source shows -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Definition:
    decorators: tuple[str, ...]  # each decorator's last name: `property`, `setter`, `wraps`
    generator: bool  # yields, or is `async def`
    getattr_names: frozenset[str]  # names its own body binds to a value built with getattr()


@dataclass(frozen=True)
class ClassFacts:
    bases: tuple[str, ...]  # each base's last name
    methods: frozenset[str]


@dataclass
class SourceFacts:
    """The package's definitions by (path, qualified name as Python spells it), from `ast`."""

    root: Path
    functions: dict[tuple[str, str], Definition] = field(default_factory=dict)
    classes: dict[tuple[str, str], ClassFacts] = field(default_factory=dict)
    by_name: dict[str, list[ClassFacts]] = field(default_factory=lambda: defaultdict(list))
    lines: dict[str, list[str]] = field(default_factory=dict)
    # path -> (first line, last line, qualified name, first line of its code) of each definition's signature or bases
    headers: dict[str, list[tuple[int, int, str, int]]] = field(default_factory=lambda: defaultdict(list))
    # path -> (first line, last line, qualified name, first line of its code, name called) of each decorator: a call
    # of the enclosing scope, the calls in its arguments the definition's
    decorators: dict[str, list[tuple[int, int, str, int, str]]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, root: Path, import_dir: str) -> SourceFacts:
        facts = cls(root)
        for file in sorted((root / import_dir).rglob("*.py")):
            path = file.relative_to(root).as_posix()
            source = file.read_text(encoding="utf-8", errors="replace")
            facts.lines[path] = source.splitlines()
            try:
                facts._add(path, ast.parse(source))
            except SyntaxError:
                continue
        return facts

    def _add(self, path: str, tree: ast.Module) -> None:
        self.functions[(path, "<module>")] = Definition((), False, _getattr_names(tree))
        stack: list[tuple[ast.AST, str]] = [(tree, "")]
        while stack:
            node, prefix = stack.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    line = min([child.lineno, *(d.lineno for d in child.decorator_list)])  # co_firstlineno
                    self.headers[path].append((*_header(child), prefix + child.name, line))
                    for d in child.decorator_list:
                        span = (d.lineno, d.end_lineno or d.lineno)
                        self.decorators[path].append((*span, prefix + child.name, line, _last_name(d)))
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    self.functions.setdefault((path, prefix + child.name), _definition(child))
                    stack.append((child, f"{prefix}{child.name}.<locals>."))
                elif isinstance(child, ast.ClassDef):
                    found = _class_facts(child)
                    self.classes.setdefault((path, prefix + child.name), found)
                    self.by_name[child.name].append(found)
                    stack.append((child, f"{prefix}{child.name}."))
                else:
                    stack.append((child, prefix))

    def definition(self, code: Code) -> Definition | None:
        return self.functions.get((code.path, code.qualname))

    def overrides(self, code: Code) -> bool:
        """A method whose class has a base in the package (by name) that defines a method of the same name."""
        owner, _, name = code.qualname.rpartition(".")
        start = self.classes.get((code.path, owner))
        queue, seen = deque(start.bases if start else ()), set()
        while queue:
            base = queue.popleft()
            if base in seen:
                continue
            seen.add(base)
            for cls in self.by_name.get(base, []):
                if name in cls.methods:
                    return True
                queue.extend(cls.bases)
        return False

    def credited(self, raw: RawPair) -> list[RawPair]:
        """The pair as Trident credits its calls: a call in a module or class body to the definition whose
        defaults, bases or decorators' arguments hold it (`def f(x=default())` is f's call; the call of the
        decorator, and of the decorator it returns, are the body's), so a body's pair splits by call-site line; any
        other pair as it is."""
        caller = raw.caller
        if caller.qualname != "<module>" and (caller.path, caller.qualname) not in self.classes:
            return [raw]
        inside = caller.qualname + "." if caller.qualname != "<module>" else ""

        def own(name: str) -> bool:
            return name.startswith(inside) and "." not in name.removeprefix(inside)

        spans = [(first, last, name, at) for first, last, name, at in self.headers.get(caller.path, []) if own(name)]
        spans += [
            (first, last, name, at)
            for first, last, name, at, called in self.decorators.get(caller.path, [])
            if own(name) and called not in raw.callee.qualname.split(".")  # not the decorator, nor what it made
        ]
        by_caller: dict[Code, list[int]] = defaultdict(list)
        for line in raw.lines:
            holders = [(at, name) for first, last, name, at in spans if first <= line <= last]
            by_caller[Code(caller.path, max(holders)[1], max(holders)[0]) if holders else caller].append(line)
        return [RawPair(code, raw.callee, tuple(lines)) for code, lines in sorted(by_caller.items())]

    def in_header(self, raw: RawPair) -> bool:
        """Whether every call site is in the caller's own signature or bases."""
        spans = [
            (first, last)
            for first, last, name, _ in self.headers.get(raw.caller.path, [])
            if name == raw.caller.qualname
        ]
        return any(all(first <= line <= last for line in raw.lines) for first, last in spans)

    def in_decorators(self, raw: RawPair) -> bool:
        """Whether every call site is in the decorators of a definition the caller's body holds."""
        spans = self.decorators.get(raw.caller.path, [])
        return all(any(first <= line <= last for first, last, *_ in spans) for line in raw.lines)

    def class_creation(self, raw: RawPair) -> bool:
        """A class statement's own work (`NodeType.__new__` for `class Break(Stmt):`), made from its header."""
        return (
            raw.callee.name in CLASS_CREATION
            and (raw.caller.path, raw.caller.qualname) in self.classes
            and self.in_header(raw)
        )

    def via_getattr(self, raw: RawPair) -> bool:
        """Whether a line the caller called from calls getattr() or a name the caller bound to what getattr gave."""
        definition = self.functions.get((raw.caller.path, raw.caller.qualname))
        names = definition.getattr_names if definition else frozenset()
        pattern = re.compile(r"\bgetattr\(" + "".join(rf"|\b{re.escape(n)}\s*\(" for n in sorted(names)))
        lines = self.lines.get(raw.caller.path, [])
        return any(0 < n <= len(lines) and pattern.search(lines[n - 1]) for n in raw.lines)

    def named_at(self, raw: RawPair) -> bool:
        """Whether the callee's name is written on a line the caller called it from."""
        lines = self.lines.get(raw.caller.path, [])
        pattern = re.compile(rf"\b{re.escape(raw.callee.name)}\b")
        return any(0 < n <= len(lines) and pattern.search(lines[n - 1]) for n in raw.lines)


def _definition(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Definition:
    decorators = tuple(_last_name(d) for d in function.decorator_list)
    generator = isinstance(function, ast.AsyncFunctionDef) or _yields(function)
    return Definition(decorators, generator, _getattr_names(function))


def _header(definition: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> tuple[int, int]:
    """The lines of a definition's signature (or bases): its `def` or `class` line up to the line before its body."""
    return definition.lineno, max(definition.lineno, definition.body[0].lineno - 1)


def _class_facts(cls: ast.ClassDef) -> ClassFacts:
    methods = frozenset(n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))
    return ClassFacts(tuple(_last_name(b) for b in cls.bases), methods)


def _last_name(node: ast.expr) -> str:
    if isinstance(node, ast.Subscript):  # Generic[T]
        return _last_name(node.value)
    if isinstance(node, ast.Call):
        return _last_name(node.func)
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _own_nodes(definition: ast.AST) -> Iterable[ast.AST]:
    """The nodes of a definition's own body, not of the functions, lambdas and classes inside it."""
    stack = list(ast.iter_child_nodes(definition))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))


def _yields(definition: ast.AST) -> bool:
    return any(isinstance(n, ast.Yield | ast.YieldFrom) for n in _own_nodes(definition))


def _getattr_names(definition: ast.AST) -> frozenset[str]:
    """The names a definition's own body assigns a value holding a getattr() call: `f = getattr(self, name)`."""
    names = set()
    for node in _own_nodes(definition):
        if not isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr) or node.value is None:
            continue
        if any(_is_getattr(n) for n in ast.walk(node.value)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return frozenset(names)


def _is_getattr(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"


# --- scoring the pairs ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Miss:
    caller: str  # entity ids
    callee: str
    cause: str
    where: str  # the traced caller and callee, with the call-site lines

    @classmethod
    def of(cls, pair: Pair, raw: RawPair, cause: str) -> Miss:
        lines = ",".join(map(str, raw.lines[:4])) + (",..." if len(raw.lines) > 4 else "")
        callee = raw.callee.qualname if raw.callee.path == raw.caller.path else str(raw.callee)
        return cls(pair[0], pair[1], cause, f"{raw.caller} -> {callee} (call at line {lines})")


class Classifier:
    """Why Trident lacks an executed pair: the first cause of `Cause` the source shows."""

    def __init__(self, facts: SourceFacts, calls: dict[Pair, set[str]], entities: Entities, project: str) -> None:
        self.facts, self.calls, self.entities, self.project = facts, calls, entities, project

    def __call__(self, pair: Pair, raw: RawPair) -> str:
        callee, definition = raw.callee, self.facts.definition(raw.callee)
        named = self.facts.named_at(raw)
        if raw.caller == callee:
            return Cause.RECURSION
        if callee.name in CONSTRUCTORS:
            return Cause.CONSTRUCTOR_CLASS if self._class_called(pair[0], callee) else Cause.CONSTRUCTOR
        if callee.name.startswith("__") and callee.name.endswith("__"):
            return Cause.DUNDER
        if definition is not None and PROPERTY_DECORATORS.intersection(definition.decorators):
            return Cause.PROPERTY
        if callee.name == "<genexpr>" or (definition is not None and definition.generator):
            return Cause.GENERATOR
        if self.facts.overrides(callee):
            return Cause.OVERRIDE
        if raw.caller.nested_function and not named:
            return Cause.WRAPPER
        if callee.nested:
            return Cause.NESTED
        if not named and self.facts.via_getattr(raw):
            return Cause.GETATTR
        if self.facts.in_decorators(raw):
            return Cause.DECORATOR
        return Cause.UNBOUND_NAMED if named else Cause.UNBOUND_VALUE

    def _class_called(self, caller: str, constructor: Code) -> bool:
        scope, _ = _scope(constructor.qualname.rpartition(".")[0])
        owner = self.entities.local(self.project, constructor.path, ".".join(scope))
        return owner is not None and (caller, owner.id) in self.calls


@dataclass(frozen=True)
class PairScore:
    pairs: int  # mapped executed pairs
    by_resolution: dict[str, int]  # pairs whose surest CALLS relation has this resolution
    misses_by_cause: dict[str, int]
    examples: dict[str, list[Miss]]  # by cause

    @property
    def found(self) -> int:
        return sum(self.by_resolution.values())

    @property
    def bound(self) -> int:
        return sum(n for res, n in self.by_resolution.items() if res != Resolution.NAME.value)

    def recall(self, count: int) -> float | None:
        return round(count / self.pairs, 4) if self.pairs else None

    def to_json(self) -> dict[str, object]:
        return {
            "pairs": self.pairs,
            "recall_by_resolution": {res: self.recall(n) for res, n in self.by_resolution.items()},
            "found_by_resolution": self.by_resolution,
            "recall_bound": self.recall(self.bound),
            "recall_any": self.recall(self.found),
            "misses_by_cause": self.misses_by_cause,
            "examples": {cause: [asdict(m) for m in misses] for cause, misses in self.examples.items()},
        }


def score_pairs(executed: dict[Pair, list[RawPair]], calls: dict[Pair, set[str]], classify: Classifier) -> PairScore:
    order = resolutions()
    found: Counter[str] = Counter({res: 0 for res in order})
    misses: dict[str, list[Miss]] = defaultdict(list)
    for pair, raws in sorted(executed.items()):
        resolution = surest(calls.get(pair, set()), order)
        if resolution is not None:
            found[resolution] += 1
            continue
        miss = Miss.of(pair, raws[0], classify(pair, raws[0]))
        misses[miss.cause].append(miss)
    counts = _tally({cause: len(found) for cause, found in misses.items()})
    rng = random.Random(SEED)
    examples = {cause: sorted(rng.sample(misses[cause], min(KEPT, len(misses[cause]))), key=str) for cause in counts}
    return PairScore(len(executed), dict(found), counts, examples)


# --- call chains ---------------------------------------------------------------------------------------------------


def sample_chains(
    stacks: list[tuple[Code, ...]],
    locate: Locator,
    executed: dict[Pair, list[RawPair]],
    own: set[str],
    special: set[str],
) -> list[list[str]]:
    """Seeded real chains of CHAIN_CALLS calls: runs of calls one traced stack holds (each call in it an executed
    pair, its entities distinct functions of the traced code's own), each the most direct executed route between its
    ends (no shorter path in the graph of executed pairs: the answer an agent wants to "how does A reach B"), about a
    third through a constructor or an override when the stacks have such chains."""
    graph: dict[str, list[str]] = defaultdict(list)
    for caller, callee in sorted(executed):
        if caller != callee and caller in own and callee in own:
            graph[caller].append(callee)
    distances: dict[str, dict[str, int]] = {}
    by_start: dict[str, list[list[str]]] = defaultdict(list)
    for chain in real_chains(stacks, locate):
        if not all(e in own for e in chain) or not all(pair in executed for pair in itertools.pairwise(chain)):
            continue
        if chain[0] not in distances:
            distances[chain[0]] = {e: len(p) - 1 for e, p in _shortest_paths(graph, chain[0], CHAIN_CALLS[1]).items()}
        if distances[chain[0]].get(chain[-1]) == len(chain) - 1:
            by_start[chain[0]].append(chain)
    rng = random.Random(SEED)
    starts = sorted(by_start)
    rng.shuffle(starts)
    through, plain = [], []
    for start in starts:
        chains = sorted(by_start[start])
        rng.shuffle(chains)
        chains.sort(key=lambda chain: not special.intersection(chain[1:-1]))  # stable: shuffled within each kind
        for chain in chains[:CHAINS_PER_START]:
            (through if special.intersection(chain[1:-1]) else plain).append(chain)
        if len(through) >= CHAINS and len(plain) >= CHAINS:
            break
    chosen = through[: CHAINS // 3]
    return chosen + plain[: CHAINS - len(chosen)]


def real_chains(stacks: list[tuple[Code, ...]], locate: Locator) -> list[list[str]]:
    """Every distinct run of CHAIN_CALLS calls within a traced stack, as entity ids (code nested in a function is
    the function's: a generator expression's frame is one with its function's), each entity once."""
    found: dict[tuple[str, ...], None] = {}
    for stack in stacks:
        entities: list[str | None] = []
        for code in stack:
            located = locate(code)
            entity = located.entity.id if located is not None else None
            if not entities or entity is None or entities[-1] != entity:
                entities.append(entity)
        for size in range(CHAIN_CALLS[0] + 1, CHAIN_CALLS[1] + 2):
            for first in range(len(entities) - size + 1):
                window = entities[first : first + size]
                if None not in window and len(set(window)) == size:
                    found.setdefault(tuple(e for e in window if e is not None), None)
    return [list(chain) for chain in found]


def _shortest_paths(graph: dict[str, list[str]], start: str, most: int) -> dict[str, list[str]]:
    """Breadth first: one shortest path (of at most `most` edges) to each entity reached from `start`."""
    parent: dict[str, str | None] = {start: None}
    frontier, depth = [start], 0
    while frontier and depth < most:
        depth += 1
        reached = []
        for node in frontier:
            for nxt in graph.get(node, []):
                if nxt not in parent:
                    parent[nxt] = node
                    reached.append(nxt)
        frontier = reached
    paths = {}
    for end in parent:
        path, at = [], end
        while at is not None:
            path.append(at)
            at = parent[at]
        paths[end] = path[::-1]
    return paths


@dataclass(frozen=True)
class ChainOutcome:
    chain: list[str]
    outcome: str  # one of ChainScore's kinds
    in_trident: str  # the surest resolution of each executed call in the chain, "-" where Trident lacks it
    first_path: list[str]  # the entities explain_path's first path passes, in order
    first_relations: str  # its hops' relation types, `<` after one walked backwards
    first_forward: bool  # the first path is a chain of CALLS walked forward (these entities or others)
    first_ran: bool = False  # ... and each call of it ran in the suite (another chain the trace holds)


EXACT, LATER, FORWARD, OTHER, NO_PATH, NOT_FOUND = (
    "first path exact",
    "a later path exact",
    "first path forward CALLS, other entities",
    "first path not a forward CALLS chain",
    "no path",
    "endpoint not found",
)


def score_chain(
    reader: Reader,
    chain: list[str],
    calls: dict[Pair, set[str]],
    ran: Collection[Pair] = (),
) -> ChainOutcome:
    """How explain_path's first path between a chain's ends compares with the chain, and whether each call of that
    path ran in the suite (`ran`: the executed pairs): a path of calls that all ran is a chain the trace holds too,
    when it is not the one sampled (one ran, another one did too; the trace does not say they ran in one sequence)."""
    order = resolutions()
    held = " ".join(surest(calls.get(pair, set()), order) or "-" for pair in itertools.pairwise(chain))
    try:
        result = explain_path(reader, chain[0], chain[-1], max_hops=6)
    except EntityNotFoundError:
        return ChainOutcome(chain, NOT_FOUND, held, [], "", False)
    if not result.paths:
        return ChainOutcome(chain, NO_PATH, held, [], "", False)
    walks = [_walk(chain[0], path.hops) for path in result.paths]
    forward = walks[0] is not None
    if walks[0] == chain:
        outcome = EXACT
    elif chain in walks:
        outcome = LATER
    else:
        outcome = FORWARD if forward else OTHER
    hops = result.paths[0].hops
    first = [chain[0], *(h.target if h.forward else h.source for h in hops)]
    relations = " ".join(h.type + ("" if h.forward else "<") for h in hops)
    first_ran = forward and all(pair in ran for pair in itertools.pairwise(walks[0] or []))
    return ChainOutcome(chain, outcome, held, first, relations, forward, first_ran)


def _walk(start: str, hops: list[Hop]) -> list[str] | None:
    """The entities a path passes from `start`, when every hop is a call (or a reference: a property read, a
    callback) walked forward; else None."""
    walked = [start]
    for hop in hops:
        if not hop.forward or hop.type not in EXECUTION_KINDS or hop.source != walked[-1]:
            return None
        walked.append(hop.target)
    return walked


# --- test impact ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImpactScore:
    functions: int  # executed package functions asked about
    ran: int  # (function, test function) pairs the trace shows
    answered: int  # (function, test) pairs the answers name
    hits: int
    false_complete: int  # answers that say `complete` while missing a test that ran the function
    complete: int
    errors: int
    unmapped_tests: int  # test node ids whose test function has no entity
    examples: list[dict[str, object]]
    # the weakest resolution on each answered test's path -> [answered, right]
    by_resolution: dict[str, list[int]] = field(default_factory=dict)

    @property
    def recall(self) -> float | None:
        return round(self.hits / self.ran, 4) if self.ran else None

    @property
    def precision(self) -> float | None:
        return round(self.hits / self.answered, 4) if self.answered else None

    def to_json(self) -> dict[str, object]:
        return asdict(self) | {"recall": self.recall, "precision": self.precision}


def tests_that_ran(trace: Trace, locate: Locator) -> tuple[dict[str, set[str]], int]:
    """Package function entity -> the entities of the test functions that ran it (parametrised node ids of one
    function are one test), and how many test node ids have no test-function entity."""
    ran: dict[str, set[str]] = defaultdict(set)
    unmapped = 0
    for test, codes in trace.ran.items():
        where = trace.tests.get(test)
        found = locate(where) if where is not None else None
        if found is None or not found.own:
            unmapped += bool(test)  # "" is the imports and collection, no test
            continue
        for code in codes:
            function = locate(code)
            if function is None or is_test_path(function.entity.path or ""):
                continue  # (a test helper, where the tests are kept inside the package)
            if function.own and function.entity.type in ("Function", "Method"):
                ran[function.entity.id].add(found.entity.id)
    return ran, unmapped


def measure_impact(reader: Reader, ran: dict[str, set[str]], unmapped: int) -> ImpactScore | None:
    """The impact tool's tests for seeded executed functions against the tests that ran them; None without the tool.

    Raises:
        ImportError: the tool's module exists but does not import.
    """
    if importlib.util.find_spec("trident.tools.impact") is None:
        return None
    tool = importlib.import_module("trident.tools.impact")
    sample = sorted(random.Random(SEED).sample(sorted(ran), min(IMPACT_FUNCTIONS, len(ran))))
    totals: Counter[str] = Counter()
    examples: list[dict[str, object]] = []
    by_resolution: dict[str, list[int]] = {}
    for function in sample:
        try:
            result, tests = _every_test(tool, reader, function)
        except (LookupError, ValueError) as error:
            totals["errors"] += 1
            examples.append({"function": function, "error": str(error)})
            continue
        answered, truth = {t.id for t in tests}, ran[function]
        for t in tests:
            tally = by_resolution.setdefault(t.resolution.value, [0, 0])
            tally[0], tally[1] = tally[0] + 1, tally[1] + (t.id in truth)
        complete = result.verdict.status == "complete"
        totals.update(ran=len(truth), answered=len(answered), hits=len(answered & truth), complete=complete)
        totals["false_complete"] += complete and bool(truth - answered)
        if truth - answered and len(examples) < KEPT:
            missing = sorted(truth - answered)
            examples.append({"function": function, "status": result.verdict.status, "missed": missing[:5]})
    return ImpactScore(
        functions=len(sample),
        ran=totals["ran"],
        answered=totals["answered"],
        hits=totals["hits"],
        false_complete=totals["false_complete"],
        complete=totals["complete"],
        errors=totals["errors"],
        unmapped_tests=unmapped,
        examples=examples,
        by_resolution=dict(sorted(by_resolution.items())),
    )


def _every_test(tool: Any, reader: Reader, function: str) -> tuple[Any, list[Any]]:
    """The first page of `impact` for one function, and its tests over every page."""
    ask = {"entities": [function], "limit": tool.MAX_LIMIT}
    first = page = tool.impact(reader, **ask)
    tests, offset = list(page.tests), 0
    while page.next_call is not None:
        offset += tool.MAX_LIMIT
        page = tool.impact(reader, offset=offset, **ask)
        tests += page.tests
    return first, tests


# --- one package ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PackageResult:
    package: Package
    indexed: Indexed
    trace: Trace
    mapping: dict[str, int]
    skipped: dict[str, int]
    pairs: PairScore
    chains: list[ChainOutcome]
    impact: ImpactScore | str | None  # a string says why the tool could not be asked
    seconds: float  # mapping and scoring, after indexing

    @property
    def chain_outcomes(self) -> dict[str, int]:
        counts = Counter(c.outcome for c in self.chains)
        return {kind: counts[kind] for kind in (EXACT, LATER, FORWARD, OTHER, NO_PATH, NOT_FOUND) if counts[kind]}

    def to_json(self) -> dict[str, object]:
        trace = self.trace
        return {
            "package": self.package.name,
            "version": self.package.version,
            "import_dir": self.package.import_dir,
            "suite": {"python": trace.python, "mode": trace.mode, "seconds": trace.seconds}
            | trace.outcomes
            | {"run_by_pytest": sum(map(len, trace.run_by_pytest.values()))},
            "index": asdict(self.indexed),
            "functions": self.mapping,
            "raw_pairs": len(trace.pairs),
            "skipped_pairs": self.skipped,
            "executed_pairs": self.pairs.to_json(),
            "chains": {
                "outcomes": self.chain_outcomes,
                "first_path_exact": sum(c.outcome == EXACT for c in self.chains),
                "first_path_forward_calls": sum(c.first_forward for c in self.chains),
                "first_path_ran": sum(c.first_ran for c in self.chains),
                "no_path": sum(c.outcome == NO_PATH for c in self.chains),
                "sampled": [asdict(c) for c in self.chains],
            },
            "impact": self.impact.to_json() if isinstance(self.impact, ImpactScore) else "not available",
            "impact_note": self.impact if isinstance(self.impact, str) else None,
            "scoring_seconds": self.seconds,
        }


def measure(package: Package, trace: Trace, catalog: Catalog, indexed: Indexed) -> PackageResult:
    """Every figure of one package, from its trace and its open index."""
    started = time.perf_counter()
    entities = read_entities(catalog)
    reader = Reader.open(catalog)
    index = reader.relations()
    locate = Locator(entities, package.project)
    facts = SourceFacts.of(package.root, package.import_dir)
    executed, skipped = executed_pairs(trace, locate, facts)
    calls = trident_calls(index)
    pairs = score_pairs(executed, calls, Classifier(facts, calls, entities, package.project))
    own = {
        found.entity.id
        for code in trace.functions
        if (found := locate(code)) is not None and found.own and found.entity.type in ("Function", "Method")
    }
    special = {
        found.entity.id
        for raw in trace.pairs
        if (raw.callee.name in CONSTRUCTORS or facts.overrides(raw.callee))
        and (found := locate(raw.callee)) is not None
    }
    _log(f"{package}: explain_path over sampled chains ...")
    ran = set(executed)
    sampled = sample_chains(trace.stacks, locate, executed, own, special)
    chains = [score_chain(reader, c, calls, ran) for c in sampled]
    ran, unmapped = tests_that_ran(trace, locate)
    try:
        impact: ImpactScore | str | None = measure_impact(reader, ran, unmapped)
    except ImportError as error:  # the tool is being written beside this bench: say so, measure the rest
        impact = f"trident.tools.impact does not import: {error}"
    seconds = round(time.perf_counter() - started, 1)
    mapping = mapping_counts(trace, locate)
    return PackageResult(package, indexed, trace, mapping, skipped, pairs, chains, impact, seconds)


def run_package(spec: str, cache: Path, python: Path, embedder: Embedder, retrace: bool) -> PackageResult:
    """Trace the package's suite (or read the trace), index the package, and measure."""
    package = fetch(spec, cache)
    suite = prepare_suite(package, cache, python)
    trace = Trace.of(run_suite(suite, cache, retrace))
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Catalog(Path(tmp) / "index", "default", embedder)
        try:
            indexed = index_packages(catalog, [package])[package.project]
            return measure(package, trace, catalog, indexed)
        finally:
            catalog.close()


# --- output --------------------------------------------------------------------------------------------------------


def print_summary(results: list[PackageResult]) -> None:
    order = resolutions()
    print(
        f"{'package':<22} {'pairs':>6} "
        + " ".join(f"{res:>9}" for res in order)
        + f" {'bound':>7} {'any':>7} {'chains':>7} {'exact':>7} {'ran':>7} {'impact R/P':>11} {'false cmpl':>10}"
    )
    for r in results:
        score, chains = r.pairs, r.chain_outcomes
        impact = r.impact if isinstance(r.impact, ImpactScore) else None
        print(
            f"{r.package!s:<22} {score.pairs:>6} "
            + " ".join(f"{_percent(score.recall(score.by_resolution.get(res, 0))):>9}" for res in order)
            + f" {_percent(score.recall(score.bound)):>7} {_percent(score.recall(score.found)):>7}"
            + f" {len(r.chains):>7} {_percent(chains.get(EXACT, 0) / len(r.chains) if r.chains else None):>7}"
            + f" {_percent(sum(c.first_ran for c in r.chains) / len(r.chains) if r.chains else None):>7}"
            + (
                f" {_percent(impact.recall)}/{_percent(impact.precision):<5} {impact.false_complete:>10}"
                if impact
                else f" {'-':>11} {'-':>10}"
            )
        )


def print_package(r: PackageResult) -> None:
    trace, score = r.trace, r.pairs
    outcomes = ", ".join(f"{n} {kind}" for kind, n in sorted(trace.outcomes.items()))
    print(f"\n{r.package}  suite: {outcomes} in {trace.seconds} s (Python {trace.python}, {trace.mode})")
    if by_pytest := sum(map(len, trace.run_by_pytest.values())):
        print(f"  functions pytest itself ran around a test (not the test's): {by_pytest} (test, function) pairs")
    print(f"  index: {r.indexed.chunks} chunks in {r.indexed.seconds} s; scoring {r.seconds} s")
    print("  functions traced: " + ", ".join(f"{k} {v}" for k, v in r.mapping.items()))
    print(f"  executed pairs: {len(trace.pairs)} traced, {score.pairs} mapped to two entities")
    if r.skipped:
        print("    left out: " + ", ".join(f"{reason} {n}" for reason, n in r.skipped.items()))
    found = ", ".join(f"{res} {_percent(score.recall(n))} ({n})" for res, n in score.by_resolution.items())
    print(f"  recall: {found}; bound {_percent(score.recall(score.bound))}, any {_percent(score.recall(score.found))}")
    print(f"  misses {score.pairs - score.found} by cause:")
    for cause, n in score.misses_by_cause.items():
        print(f"    {n:>5}  {cause}")
        for miss in score.examples[cause][:SHOWN]:
            print(f"             {miss.where}")
    if r.chains:
        forward = sum(c.first_forward for c in r.chains)
        kinds = ", ".join(f"{kind} {n}" for kind, n in r.chain_outcomes.items())
        ran = sum(c.first_ran for c in r.chains)
        print(
            f"  chains {len(r.chains)}: {kinds}; first path forward CALLS (any entities) {forward}, all of it ran {ran}"
        )
        for chain in [c for c in r.chains if c.outcome != EXACT][:SHOWN]:
            print(f"    [{chain.outcome}; Trident has: {chain.in_trident}] " + " -> ".join(map(_short, chain.chain)))
            if chain.first_path:
                print(f"      first path ({chain.first_relations}): " + " -> ".join(map(_short, chain.first_path)))
    else:
        print("  chains: none of 3-6 calls in the executed pairs")
    if not isinstance(r.impact, ImpactScore):
        print(f"  impact: not available ({r.impact or 'no trident.tools.impact'})")
    else:
        i = r.impact
        print(
            f"  impact over {i.functions} functions: recall {_percent(i.recall)} ({i.hits}/{i.ran}), precision "
            f"{_percent(i.precision)} ({i.hits}/{i.answered}), complete {i.complete}, complete while missing a test "
            f"{i.false_complete}, errors {i.errors}; test node ids without a test-function entity {i.unmapped_tests}"
        )
        paths = ", ".join(f"{how} {right}/{answered}" for how, (answered, right) in i.by_resolution.items())
        print(f"    answered tests right, by the weakest resolution on the path: {paths}")


def _short(entity_id: str) -> str:
    """An entity id shown by its qualified name, without a src layout's `src.`."""
    return entity_id.rsplit(":", 1)[-1].removeprefix("src.")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--packages", nargs="+", default=list(DEFAULT_PACKAGES), metavar="NAME==VER")
    parser.add_argument("--python", help="the interpreter the suites' venvs are made with (default: newest 3.12+)")
    parser.add_argument("--retrace", action="store_true", help="run the suites again instead of reading their traces")
    parser.add_argument("--json", action="store_true", help="print the JSON result instead of the table")
    parser.add_argument(
        "--hash-embedder",
        action="store_true",
        help="index with the stand-in embedder: every figure here is of the graph, which no embedding changes; "
        "indexing takes a tenth of the time",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    settings = ModelSettings()
    embedder: Embedder = HashEmbedder() if args.hash_embedder else open_embedder(settings)
    cache = bench_home() / "executed-calls"
    python = find_python(args.python)
    _log(f"suites run on {python}")
    results: list[PackageResult] = []
    skipped: dict[str, str] = {}  # a package whose suite cannot be traced here says why, and the others go on
    for spec in args.packages:
        try:
            results.append(run_package(spec, cache, python, embedder, args.retrace))
        except (SystemExit, subprocess.CalledProcessError) as error:
            skipped[spec] = str(error)
            _log(f"{spec} skipped: {error}")
    document = {
        "model": embedder.model_name,
        "resolutions": resolutions(),
        "seed": SEED,
        "cpus": os.cpu_count(),
        "seconds": round(time.perf_counter() - started, 1),
        "packages": [r.to_json() for r in results],
        "skipped": skipped,
    }
    out = bench_home() / "results" / "executed_calls.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(document, indent=2) + "\n")
    if args.json:
        print(json.dumps(document, indent=2))
        return
    print_summary(results)
    for result in results:
        print_package(result)
    for spec, why in skipped.items():
        print(f"\nskipped {spec}: {why}")
    print(f"\nwritten: {out} ({document['seconds']} s in all)")


if __name__ == "__main__":
    main()
