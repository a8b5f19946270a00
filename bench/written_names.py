"""Written names: how often a dotted name, written the way people write Python names, resolves on the first try to
the entity it means, through `resolve_entity` (retrieval/entities.py, retrieval/written_names.py).

Usage:
    python bench/written_names.py                                   # click, jinja2, httpx, more-itertools
    python bench/written_names.py --packages click==8.5.1 httpx==0.28.1 --limit-per-form 200
    python bench/written_names.py --fresh                           # install, walk and index again
Sdists are fetched with pip into ~/.cache/trident/bench/written-names/ (TRIDENT_BENCH_CACHE moves it), as
bench/callgraph.py fetches them. All packages are indexed into ONE index, each as a project named after its package
(their names collide, which is the point), with the fake HashEmbedder (resolving names reads no vectors); the index
is kept in the cache and reused until `--fresh`.

The reference is the interpreter, not Trident: each sdist is installed with `pip install --no-deps --target` into the
cache, and a subprocess with that folder on PYTHONPATH imports the package and walks every public module (tests and
`__main__` left out; a module path may have `_` parts, `httpx._client`), each public class and function defined in it
and each public method, static method, class method or property defined on those classes. It writes what people
write for each, by form:
  import    the module and qualified name: `httpx._client.Client.send`, `click.core.Command.invoke`
  reexport  what the top-level package exposes (`__all__`, else its public names) from its modules, and a class's
            methods through it: `httpx.Client`, `httpx.Client.send`, `click.Command.invoke`
  tail      `Class.method`, and `module.function` with the module's last part: `Client.send`, `utils.echo`
Each is mapped to the entity defined in that file whose qualified name ends with `.` + the object's qualified name
(none: `unmapped`, left out). Outcomes: right (resolved to that entity), wrong (to another), ambiguous (several:
EntityNotFoundError listing ids), not found (EntityNotFoundError suggesting names); for the last two, whether the
right entity (its id, qualified name or import name) is among the suggestions, and whether it is the first.
Prints a table per package and form, examples of each failure per form, and an overall line.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import json
import os
import pkgutil
import posixpath
import random
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trident.embedding.hash_embedder import HashEmbedder
from trident.retrieval.entities import EntityNotFoundError, resolve_entity
from trident.retrieval.written_names import WrittenNames
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Entity

sys.path.insert(0, str(Path(__file__).resolve().parent))
from callgraph import CALL_KINDS, Package, _log, _percent, fetch, index_packages
from corpus import bench_home

DEFAULT_PACKAGES = ("click==8.5.1", "jinja2==3.1.6", "httpx==0.28.1", "more-itertools==11.2.1")
FORMS = ("import", "reexport", "tail")
OUTCOMES = ("right", "wrong", "ambiguous", "not found")
SEED = 20240607
SHOWN = 8  # examples per form and failure
TEST_PARTS = frozenset({"test", "tests", "testing", "conftest", "__main__"})


# --- the reference: runs in a subprocess with the installed package on PYTHONPATH (stdlib only) -----------------


Home = tuple[str, str]  # (module, source file) where a class or function is defined


def walk(package: str, target: str) -> None:
    """Print a JSON line per name written for the package's classes, functions and methods (see the docstring)."""
    root = importlib.import_module(package)
    if not str(root.__file__).startswith(target):
        raise SystemExit(f"{package} was imported from {root.__file__}, not from {target}")
    found = pkgutil.walk_packages(root.__path__, package + ".", onerror=lambda name: None)
    homes: dict[int, Home] = {}  # id of each class and function -> where it is defined
    for name in sorted({package, *(m.name for m in found)}):
        if any(part in TEST_PARTS or part.startswith("test_") for part in name.split(".")):
            continue
        try:
            module = importlib.import_module(name)
        except Exception as error:  # an optional dependency missing: say so, walk the rest
            print(json.dumps({"skipped": name, "error": repr(error)}))
            continue
        for record in _module_records(module, homes):
            print(json.dumps(record))
    for record in _reexports(root, homes):
        print(json.dumps(record))


def _module_records(module: Any, homes: dict[int, Home]) -> Iterator[dict[str, str]]:
    """import and tail records of the public classes and functions a module's source defines, and their methods.
    Where an object is defined is read from the source, not from `__module__` (httpx sets it to `httpx`)."""
    home = (module.__name__, inspect.getsourcefile(module) or "")
    last = module.__name__.rsplit(".", 1)[-1]
    for name in sorted(_top_level_defs(home[1])):
        obj = vars(module).get(name)
        if name.startswith("_") or not _defined(obj, name, home[1]):
            continue
        homes.setdefault(id(obj), home)
        yield _record(f"{module.__name__}.{name}", home, obj, "import")
        if inspect.isfunction(obj) and "." in module.__name__:
            yield _record(f"{last}.{name}", home, obj, "tail")
        for method in _methods(obj, home[1]):
            yield _record(f"{module.__name__}.{method.__qualname__}", home, method, "import")
            yield _record(method.__qualname__, home, method, "tail")


def _top_level_defs(file: str) -> set[str]:
    """The names a module's source defines with `def` or `class` outside any other (under `if` or `try` too)."""
    if not file.endswith(".py"):
        return set()
    with open(file, encoding="utf-8") as source:
        stack: list[ast.AST] = [ast.parse(source.read())]
    names = set()
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return names


def _reexports(root: Any, homes: dict[int, Home]) -> Iterator[dict[str, str]]:
    """reexport records: what the package's `__init__` exposes from its modules, and the methods of its classes."""
    names = getattr(root, "__all__", None) or [n for n in dir(root) if not n.startswith("_")]
    for name in sorted(set(names)):
        obj = getattr(root, name, None)
        home = homes.get(id(obj))
        if home is None or home[0] == root.__name__:
            continue
        yield _record(f"{root.__name__}.{name}", home, obj, "reexport")
        for method in _methods(obj, home[1]):
            yield _record(f"{root.__name__}.{name}.{method.__name__}", home, method, "reexport")


def _defined(obj: object, name: str, file: str) -> bool:
    """Whether `obj` is the class or function the module's `def name`/`class name` made (not one imported)."""
    if not (inspect.isclass(obj) or inspect.isfunction(obj)) or obj.__qualname__ != name:
        return False
    return inspect.isclass(obj) or _file_of(obj) == file


def _methods(cls: object, file: str) -> Iterator[Any]:
    """The public functions a class defines in its body (also as static/class methods and properties)."""
    if not inspect.isclass(cls):
        return
    for name, value in sorted(vars(cls).items()):
        func = getattr(value, "__func__", None) or getattr(value, "fget", None) or getattr(value, "func", value)
        if name.startswith("_") or not inspect.isfunction(func) or _file_of(func) != file:
            continue
        if func.__qualname__ == f"{cls.__qualname__}.{name}":  # not a function defined elsewhere, assigned here
            yield func


def _file_of(func: Any) -> str:
    code = getattr(inspect.unwrap(func), "__code__", None)
    return code.co_filename if code is not None else ""


def _record(written: str, home: Home, obj: Any, form: str) -> dict[str, str]:
    return {"written": written, "module": home[0], "qualname": obj.__qualname__, "form": form, "file": home[1]}


def _walker_program() -> str:
    """The reference's walker as a program of its own: these functions' source, then a call of `walk`."""
    functions = (walk, _module_records, _top_level_defs, _reexports, _defined, _methods, _file_of, _record)
    head = (
        "from __future__ import annotations\nimport ast, importlib, inspect, json, pkgutil, sys\n"
        "from collections.abc import Iterator\nfrom typing import Any\n"
        f"TEST_PARTS = {set(TEST_PARTS)!r}\nHome = tuple[str, str]\n"
    )
    return head + "\n\n".join(inspect.getsource(f) for f in functions) + "\nwalk(sys.argv[1], sys.argv[2])\n"


# --- the reference: installing and walking -----------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    written: str
    module: str
    qualname: str
    form: str
    path: str  # the defining file, project-relative (`src/click/core.py`)


def reference(package: Package, cache: Path, fresh: bool) -> tuple[list[Record], list[str]]:
    """The package's records and the modules that did not import, walked once and kept in the cache."""
    out = cache / "reference" / f"{package.name}-{package.version}.jsonl"
    if fresh or not out.is_file():
        target = _install(package, cache)
        _log(f"walking {package} as the interpreter imports it ...")
        program = _walker_program()
        name = posixpath.basename(package.import_dir)
        env = os.environ | {"PYTHONPATH": str(target)}
        done = subprocess.run(
            [sys.executable, "-c", program, name, str(target)], env=env, cwd=target, capture_output=True, text=True
        )
        if done.returncode:
            raise SystemExit(f"walking {package} failed:\n{done.stderr}")
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join(_relative(line, target) for line in lines) + "\n")
    rows = [json.loads(line) for line in out.read_text().splitlines() if line]
    skipped = sorted(row["skipped"] for row in rows if "skipped" in row)
    prefix = posixpath.dirname(package.import_dir)
    records = {
        Record(r["written"], r["module"], r["qualname"], r["form"], posixpath.join(prefix, r["file"]))
        for r in rows
        if "written" in r and r["file"]
    }
    return sorted(records, key=lambda r: (r.form, r.written, r.path, r.qualname)), skipped


def _install(package: Package, cache: Path) -> Path:
    """The sdist installed (no dependencies) into a folder of its own, as pip installs it."""
    target = cache / "installed" / f"{package.name}-{package.version}"
    shutil.rmtree(target, ignore_errors=True)
    archives = sorted((cache / "sdists" / f"{package.name}-{package.version}").glob("*.tar.gz"))
    source = str(archives[0]) if archives else str(package.root)
    _log(f"pip install --no-deps --target {target} {source}")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile", "--target", str(target)]
    subprocess.run([*pip, source], check=True)
    return target.resolve()


def _relative(line: str, target: Path) -> str:
    """A walker's line with its file made relative to the install folder ("" for a file outside it)."""
    row = json.loads(line)
    if "file" in row:
        file = Path(row["file"]).resolve()
        row["file"] = file.relative_to(target).as_posix() if file.is_relative_to(target) else ""
    return json.dumps(row)


# --- Trident's index ---------------------------------------------------------------------------------------------


def open_index(packages: list[Package], cache: Path, fresh: bool) -> Catalog:
    """One index of every package (one project each), built once and kept; `fresh` builds it again."""
    slug = "+".join(str(p) for p in packages)
    folder = cache / "index" / slug
    done = folder / "COMPLETE"
    if fresh or not done.is_file():
        shutil.rmtree(folder, ignore_errors=True)
        catalog = Catalog(folder, "default", HashEmbedder())
        index_packages(catalog, packages)
        done.write_text("indexed\n")
        return catalog
    return Catalog(folder, "default", HashEmbedder())


class Expected:
    """The entity a record means: defined in its file, with a qualified name ending in `.` + its qualname."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        self._by_file: dict[tuple[str, str], list[Entity]] = defaultdict(list)
        for e in entities:
            if e.type in CALL_KINDS and e.path:
                self._by_file[(e.project, e.path)].append(e)

    def of(self, project: str, record: Record) -> list[Entity]:
        found = self._by_file.get((project, record.path), [])
        return [e for e in found if e.qualified_name.endswith("." + record.qualname)]


# --- resolving ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    package: str
    record: Record
    outcome: str
    got: str  # what came back: the entity resolved to, or the suggestions
    in_suggestions: bool = False
    first_suggestion: bool = False


def resolve(
    directory: EntityDirectory, written: WrittenNames, package: str, record: Record, expected: list[Entity]
) -> Result:
    """What `resolve_entity` makes of one written name, against the entities it should give."""
    try:
        entity = resolve_entity(directory, record.written)
    except EntityNotFoundError as error:
        outcome = "not found" if str(error).startswith("no entity named") else "ambiguous"
        names = {n for e in expected for n in (e.id, e.qualified_name, written.import_name(e))}
        first = bool(error.suggestions) and error.suggestions[0] in names
        shown = ", ".join(error.suggestions) or "no suggestions"
        return Result(package, record, outcome, shown, bool(names & set(error.suggestions)), first)
    right = entity.id in {e.id for e in expected}
    return Result(package, record, "right" if right else "wrong", f"{written.import_name(entity)} ({entity.id})")


def sample(records: list[Record], limit: int | None) -> list[Record]:
    """Every record, or a seeded sample of `limit` per form (in the records' order)."""
    if limit is None:
        return records
    by_form: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by_form[r.form].append(r)
    rng = random.Random(SEED)
    kept = {r for rs in by_form.values() for r in (rng.sample(rs, limit) if len(rs) > limit else rs)}
    return [r for r in records if r in kept]


@dataclass
class PackageRun:
    package: Package
    skipped_modules: list[str]
    unmapped: Counter[str]
    results: list[Result]


def run_package(package: Package, cache: Path, args: argparse.Namespace, directory: EntityDirectory) -> PackageRun:
    records, skipped = reference(package, cache, args.fresh)
    expected = Expected(directory.by_id.values())
    written = WrittenNames(directory)
    results: list[Result] = []
    unmapped: Counter[str] = Counter()
    for record in sample(records, args.limit_per_form):
        entities = expected.of(package.project, record)
        if not entities:
            unmapped[record.form] += 1
            continue
        results.append(resolve(directory, written, package.project, record, entities))
    return PackageRun(package, skipped, unmapped, results)


# --- output ------------------------------------------------------------------------------------------------------


def row(label: str, form: str, results: list[Result], unmapped: int) -> str:
    n = len(results)
    counts = Counter(r.outcome for r in results)
    failed = [r for r in results if r.outcome in ("ambiguous", "not found")]
    shares = [_share(counts[o], n) for o in OUTCOMES]
    suggested = [_share(sum(r.in_suggestions for r in failed), len(failed))]
    suggested.append(_share(sum(r.first_suggestion for r in failed), len(failed)))
    cells = " ".join(f"{s:>9}" for s in shares + suggested)
    return f"{label:<24} {form:<9} {n:>6} {unmapped:>8} {cells}"


def _share(part: int, whole: int) -> str:
    return _percent(part / whole) if whole else "-"


def print_table(runs: list[PackageRun]) -> None:
    heads = ("right", "wrong", "ambiguous", "not found", "in sugg", "1st sugg")
    print(f"{'package':<24} {'form':<9} {'n':>6} {'unmapped':>8} " + " ".join(f"{h:>9}" for h in heads))
    for run in runs:
        for form in FORMS:
            results = [r for r in run.results if r.record.form == form]
            print(row(str(run.package), form, results, run.unmapped[form]))
    everything = [r for run in runs for r in run.results]
    for form in FORMS:
        unmapped = sum(run.unmapped[form] for run in runs)
        print(row("all", form, [r for r in everything if r.record.form == form], unmapped))
    print(row("overall", "all", everything, sum(sum(run.unmapped.values()) for run in runs)))
    print("(in sugg / 1st sugg: of the ambiguous and not found, the right entity among / first of the suggestions)")


def print_examples(runs: list[PackageRun]) -> None:
    everything = [r for run in runs for r in run.results]
    for form in FORMS:
        for outcome in OUTCOMES[1:]:
            failed = [r for r in everything if r.record.form == form and r.outcome == outcome]
            if not failed:
                continue
            print(f"\n{form}, {outcome} ({len(failed)}):")
            for r in failed[:: max(1, len(failed) // SHOWN)][:SHOWN]:
                print(f"  [{r.package}] {r.record.written}  (is {r.record.path}:{r.record.qualname}) -> {r.got}")


def print_notes(runs: list[PackageRun]) -> None:
    for run in runs:
        if run.skipped_modules:
            print(f"{run.package}: modules that did not import, not walked: {', '.join(run.skipped_modules)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--packages", nargs="+", default=list(DEFAULT_PACKAGES), metavar="NAME==VER")
    parser.add_argument("--limit-per-form", type=int, help="a seeded sample of N names per package and form")
    parser.add_argument("--fresh", action="store_true", help="install, walk and index again")
    args = parser.parse_args(argv)
    cache = bench_home() / "written-names"
    packages = [fetch(spec, cache) for spec in args.packages]
    catalog = open_index(packages, cache, args.fresh)
    try:
        directory = EntityDirectory(catalog.entities())
    finally:
        catalog.close()
    runs = [run_package(package, cache, args, directory) for package in packages]
    print_table(runs)
    print_notes(runs)
    print_examples(runs)


if __name__ == "__main__":
    main()
