"""Every call rustc resolves to a function or method a Rust crate defines: the reference `language_calls.py` measures
Trident's Rust call edges against.

rustc (the machine's toolchain; `RUSTC_BOOTSTRAP=1` lets a stable compiler print its mid-level IR) compiles the crate
with its unit tests (`--test`), and each integration test file against the built library, printing the MIR of every
function with full paths and the source span of each statement. A MIR call names what the compiler resolved:
`shapes::Circle::new` (an inherent method), `<shapes::Circle as shapes::Shape>::area` (a trait's method for a known
type: the impl's method, else the trait's provided one), `<dyn Shape as Shape>::area` or `<Self as Shape>::area` (not
known until run time: the trait's declaration, as Trident links it), `helper` (a function). A function's body is
printed as `fn <path>(...)`, an impl's method as `fn <module>::<impl at FILE:LINE:COL: ...>::name`, whose type is
read from the impl's line; a closure's calls are its function's. Calls into other crates (std, core, alloc) are left
out, and so are a trait's methods no call writes (an operator's `add` or `index`, a deref, a `for` loop's `next`, a
`?`'s `from`: the method's name is not on the line), as the C++ reference leaves operators out; a call of a type
parameter's trait method (`<A as Array>::size`) is the trait's declaration, as Trident links it.

    python bench/rust_reference.py CRATE_ROOT OUT.json   (the JSON `language_calls._program_reference` reads)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

Function = tuple[str, str]  # (path in the crate, name: `Type.method`, `Trait.method` or `function`)
EXTERNAL = ("std", "core", "alloc", "proc_macro", "test")
TERMINATORS = frozenset({"drop", "assert", "yield", "switchInt", "goto", "falseEdge", "falseUnwind", "resume"})
_HEADER = re.compile(r"^fn (.+?)\(")
_CALL = re.compile(r"^\s+(?:_\d+ = )?(\S.*)\) -> (?:\[return|unwind)")
_SPAN = re.compile(r"// scope \d+ at ([^:]+):(\d+):\d+: (\d+):\d+$")
_IMPL_AT = re.compile(r"<impl at ([^:]+):(\d+):\d+: \d+:\d+>")
_IMPL_LINE = re.compile(
    r"\bimpl\s*(?:<(?:[^<>]|<[^<>]*>)*>)?\s*(?:(?P<trait>[\w:]+)\s*(?:<(?:[^<>]|<[^<>]*>)*>)?\s+for\s+)?"
    r"&?\s*(?:mut\s+|dyn\s+)?(?P<type>[\w:]+)"
)


@dataclass
class Crate:
    root: Path
    name: str
    edition: str
    lib: Path
    features: list[str]
    modules: dict[str, Path] = field(default_factory=dict)  # "a::b" -> its file ("" the crate root)


def read_crate(root: Path) -> Crate:
    manifest = tomllib.loads((root / "Cargo.toml").read_text())
    package, lib = manifest.get("package", {}), manifest.get("lib", {})
    name = (lib.get("name") or package.get("name", "crate")).replace("-", "_")
    features = [f for f in manifest.get("features", {}).get("default", []) if "/" not in f and ":" not in f]
    crate = Crate(root, name, str(package.get("edition", "2015")), root / lib.get("path", "src/lib.rs"), features)
    crate.modules[""] = crate.lib
    return crate


def module_file(crate: Crate, module: str) -> Path | None:
    """The file of a module of the crate (`a::b` -> src/a/b.rs or src/a/b/mod.rs), None for an inline one or none."""
    if module in crate.modules:
        return crate.modules[module]
    parent, _, last = module.rpartition("::")
    above = module_file(crate, parent)
    if above is None:
        return None
    folder = (
        above.parent if above.name in ("lib.rs", "main.rs", "mod.rs") or above == crate.lib else above.with_suffix("")
    )
    for candidate in (folder / f"{last}.rs", folder / last / "mod.rs"):
        if candidate.is_file():
            crate.modules[module] = candidate
            return candidate
    return None


def rustc_mir(crate: Crate, source: Path, extern: Path | None, folder: Path) -> str:
    """The MIR rustc prints for `source` compiled as a test harness ("" when it does not compile here)."""
    command = [
        "rustc",
        "--test",
        "--edition",
        crate.edition,
        "--crate-name",
        crate.name if extern is None else f"{source.stem}_test".replace("-", "_"),
        "--cap-lints",
        "allow",
        "-Zunpretty=mir",
        "-Zmir-include-spans=on",
        "-Ztrim-diagnostic-paths=false",
        "-o",
        "-",
        *(arg for f in crate.features for arg in ("--cfg", f'feature="{f}"')),
        *(["--extern", f"{crate.name}={extern}"] if extern is not None else []),
        source.relative_to(crate.root).as_posix(),
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=crate.root, env={**os.environ, "RUSTC_BOOTSTRAP": "1"}
    )
    if done.returncode != 0:
        print(f"rustc could not compile {source}: {done.stderr[-400:]}", file=sys.stderr)
        return ""
    return done.stdout


def build_library(crate: Crate, folder: Path) -> Path | None:
    command = ["rustc", "--crate-type", "lib", "--edition", crate.edition, "--crate-name", crate.name]
    command += ["--cap-lints", "allow", "--out-dir", str(folder), crate.lib.relative_to(crate.root).as_posix()]
    command += [arg for f in crate.features for arg in ("--cfg", f'feature="{f}"')]
    done = subprocess.run(command, capture_output=True, text=True, cwd=crate.root)
    built = folder / f"lib{crate.name}.rlib"
    return built if done.returncode == 0 and built.is_file() else None


def _callee_text(call: str) -> str:
    """`SmallVec::<[(); 0]>::new(move _2` -> `SmallVec::<[(); 0]>::new`: up to the first `(` outside brackets."""
    depth = 0
    for at, char in enumerate(call):
        if char == "(" and depth == 0:
            return call[:at].strip()
        depth += {"<": 1, "[": 1, "{": 1, ">": -1, "]": -1, "}": -1}.get(char, 0)
    return ""


def strip_generics(path: str) -> str:
    """`a::B::<T>::new::<u8>` -> `a::B::new`; a qualified self (`<X as T>::m`) and `<impl at ...>` are kept."""
    out, depth, at = [], 0, 0
    while at < len(path):
        if path.startswith("::<", at) and not path.startswith("::<impl at ", at):
            depth, at = 1, at + 3
            while at < len(path) and depth:
                depth += {"<": 1, ">": -1}.get(path[at], 0)
                at += 1
            continue
        out.append(path[at])
        at += 1
    return "".join(out)


def without_arguments(path: str) -> str:
    """`core::iter::Extend<<A as Array>::Item>` -> `core::iter::Extend`: every `<...>` left out."""
    out, depth = [], 0
    for char in path:
        depth += char == "<"
        if depth == 0:
            out.append(char)
        depth -= char == ">" and depth > 0
    return "".join(out)


def split_qualified(path: str) -> tuple[str, str, str] | None:
    """`<X as a::T>::m` -> (X, a::T, m); None for a path without a qualified self."""
    if not path.startswith("<"):
        return None
    depth = 0
    for at, char in enumerate(path):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if depth == 0:
            inner, rest = path[1:at], path[at + 1 :]
            break
    else:
        return None
    self_type, _, trait = _split_as(inner)
    return self_type, trait, strip_generics(rest).removeprefix("::").split("::")[0]


def _split_as(inner: str) -> tuple[str, str, str]:
    depth = 0
    for at in range(len(inner)):
        depth += {"<": 1, ">": -1}.get(inner[at], 0)
        if depth == 0 and inner.startswith(" as ", at):
            return inner[:at], " as ", inner[at + 4 :]
    return inner, "", ""


def type_name(written: str) -> str:
    """`&mut a::Version<'_>` -> Version; "" for what no crate type is (`dyn T`, `Self`, `[T]`, a tuple)."""
    written = re.sub(r"^(?:&\s*(?:'\w+\s+)?(?:mut\s+)?)+", "", written.strip())
    if written.startswith(("dyn ", "impl ", "[", "(", "*", "fn", "{")) or written == "Self":
        return ""
    base = strip_generics(written).split("<")[0]
    return base.rsplit("::", 1)[-1]


class Mir:
    """What the MIR of a crate says: each function's calls, and what each impl holds."""

    def __init__(self, crate: Crate) -> None:
        self.crate = crate
        self.inherent: dict[tuple[str, str], set[Function]] = defaultdict(set)  # (Type, method) -> definitions
        self.implemented: dict[tuple[str, str, str], Function] = {}  # (Type, Trait, method) -> its definition
        self.provided: dict[tuple[str, str], Function] = {}  # (Trait, method) -> a trait's provided method
        self.traits: dict[str, set[str]] = defaultdict(set)  # trait name -> files defining it
        self.declared: set[Function] = set()  # trait methods without a body a call names
        self._types: set[str] = set()
        # (caller, callee as MIR writes it, path, line, the crate it is written in)
        self.calls: list[tuple[Function, str, str, int, Crate]] = []
        self.spans: dict[Function, tuple[int, int]] = {}
        self.resolved: set[tuple[str, int]] = set()
        self._lines: dict[Path, list[str]] = {}

    def read(self, mir: str, context: Crate) -> None:
        """The bodies of one compilation: the crate's own (`context` is the crate), or an integration test's."""
        caller: Function | None = None
        for line in mir.splitlines():
            if header := _HEADER.match(line):
                caller = self.definition(header.group(1), context)
                continue
            span = _SPAN.search(line)
            if caller is None or span is None:
                continue
            path, first, last = span.group(1), int(span.group(2)), int(span.group(3))
            low, high = self.spans.get(caller, (first, last))
            self.spans[caller] = (min(low, first), max(high, last))
            call = _CALL.match(line)
            callee = _callee_text(call.group(1)) if call is not None else ""
            if callee and callee not in TERMINATORS:
                self.resolved.add((path, first))
                self.calls.append((caller, callee, path, first, context))

    def definition(self, written: str, context: Crate) -> Function | None:
        """The function a MIR body header names (a closure's and a nested function's: the function around it)."""
        record = context is self.crate
        written = strip_generics(written)
        if (
            "{constant" in written
            or "{shim" in written
            or (written.startswith("<") and "<impl at " not in written[:10])
        ):
            return None
        written = re.sub(r"::\{closure#\d+\}.*$", "", written)
        if impl := _IMPL_AT.search(written):
            path, row = impl.group(1), int(impl.group(2))
            method = written[impl.end() :].removeprefix("::").split("::")[0]
            kind, trait = self._impl(path, row)
            if not kind or not method:
                return None
            found = (path, f"{kind}.{method}")
            if record and trait:
                self.implemented[(kind, trait, method)] = found
            elif record:
                self.inherent[(kind, method)].add(found)
            return found
        return self._path(written.removeprefix("crate::"), context, record)

    def _path(self, written: str, crate: Crate, record: bool, body: bool = True) -> Function | None:
        parts = written.split("::")
        module, at = "", 0
        while at < len(parts) - 1:
            nested = f"{module}::{parts[at]}" if module else parts[at]
            if module_file(crate, nested) is None and not self._inline(crate, module, parts[at]):
                break
            module, at = nested, at + 1
        rest = parts[at:]
        file = module_file(crate, module) or self._file_of_inline(crate, module)
        if file is None or not rest or not re.fullmatch(r"[A-Za-z_]\w*", rest[0]):
            return None
        path = file.relative_to(self.crate.root).as_posix()
        if len(rest) >= 2 and self._declares(file, "trait", rest[0]):
            found = (path, f"{rest[0]}.{rest[1]}")
            if record:
                self.provided[(rest[0], rest[1])] = found
            return found
        if len(rest) >= 2 and not body:  # `Type::method` no impl of the crate defines: not a function's name
            return None
        return (path, rest[0])  # (a function nested in another is its function's)

    def _inline(self, crate: Crate, module: str, name: str) -> bool:
        file = module_file(crate, module) or self._file_of_inline(crate, module)
        return file is not None and self._declares(file, "mod", name)

    @staticmethod
    def _file_of_inline(crate: Crate, module: str) -> Path | None:
        while module:
            module = module.rpartition("::")[0]
            if (file := module_file(crate, module)) is not None:
                return file
        return None

    def _declares(self, file: Path, keyword: str, name: str) -> bool:
        text = "\n".join(self._source(file))
        return re.search(rf"\b{keyword}\s+{re.escape(name)}\b", text) is not None

    def _impl(self, path: str, row: int) -> tuple[str, str]:
        """(the type, the trait's name or "") an impl starting on this line is of."""
        lines = self._source(self.crate.root / path)
        text = " ".join(lines[row - 1 : row + 2]) if row <= len(lines) else ""
        found = _IMPL_LINE.search(text)
        if found is None:
            return "", ""
        trait = (found.group("trait") or "").rsplit("::", 1)[-1]
        return found.group("type").rsplit("::", 1)[-1], trait

    def _source(self, file: Path) -> list[str]:
        if file not in self._lines:
            self._lines[file] = file.read_text(errors="replace").splitlines() if file.is_file() else []
        return self._lines[file]

    def callee(self, written: str, context: Crate) -> Function | None:
        """The crate's function a MIR call names, None for another crate's or one no source defines; a path without
        the crate's name in an integration test is the test's own."""
        if written.startswith(f"{self.crate.name}::"):
            written, context = written.removeprefix(f"{self.crate.name}::"), self.crate
        written = written.removeprefix("crate::")
        if qualified := split_qualified(written):
            self_type, trait_path, method = qualified
            trait = without_arguments(trait_path).rsplit("::", 1)[-1]
            kind = type_name(self_type)
            kind = kind if kind in self.types() else ""  # a type parameter (`<A as Array>::size`): the trait's
            if kind and (kind, trait, method) in self.implemented:
                return self.implemented[(kind, trait, method)]
            if (trait, method) in self.provided:
                return self.provided[(trait, method)]
            files = self._trait_files(trait)
            if len(files) != 1 or kind:
                return None
            self.declared.add((files[0], f"{trait}.{method}"))  # a required method: its declaration
            return (files[0], f"{trait}.{method}")
        path = strip_generics(written)
        if path.split("::")[0] in EXTERNAL or "<impl" in path:
            return None
        parts = path.split("::")
        if len(parts) >= 2 and (found := self.inherent.get((parts[-2], parts[-1]))):
            return next(iter(found)) if len(found) == 1 else None
        return self._path(path, context, record=False, body=False)

    def types(self) -> set[str]:
        """The names of the types the crate declares (a struct, enum, union or trait)."""
        if not self._types:
            for file in self.crate.root.rglob("*.rs"):
                text = "\n".join(self._source(file))
                self._types.update(re.findall(r"\b(?:struct|enum|union|trait|type)\s+([A-Za-z_]\w*)", text))
        return self._types

    def _trait_files(self, trait: str) -> list[str]:
        if trait not in self.traits:
            for file in self.crate.root.rglob("*.rs"):
                if self._declares(file, "trait", trait):
                    self.traits[trait].add(file.relative_to(self.crate.root).as_posix())
        return sorted(self.traits[trait])


def reference(root: Path) -> dict[str, list[list[object]]]:
    crate = read_crate(root)
    mir = Mir(crate)
    with tempfile.TemporaryDirectory() as folder:
        mir.read(rustc_mir(crate, crate.lib, None, Path(folder)), crate)
        library = build_library(crate, Path(folder))
        for test in sorted((root / "tests").glob("*.rs")) if library is not None else []:
            context = Crate(root, test.stem, crate.edition, test, crate.features, {"": test})
            mir.read(rustc_mir(crate, test, library, Path(folder)), context)
    pairs = []
    for caller, written, path, line, context in mir.calls:
        callee = mir.callee(written, context)
        if callee is None or not (root / callee[0]).is_file() or _harness(caller, callee, root / path, line):
            continue
        if written.startswith("<") and not _written_at(callee[1].rpartition(".")[2], root / path, line):
            continue  # an operator, a deref, a `for` loop's `next`, a `?`'s `from`: no call writes it
        pairs.append([*caller, *callee, path, line])
    spans = {**{declared: (0, 0) for declared in mir.declared}, **mir.spans}
    defined = [[path, name, first, last] for (path, name), (first, last) in sorted(spans.items())]
    return {"defined": defined, "pairs": pairs, "resolved": sorted([list(r) for r in mir.resolved])}


def _written_at(name: str, source: Path, line: int) -> bool:
    lines = source.read_text(errors="replace").splitlines() if source.is_file() else []
    return 0 < line <= len(lines) and re.search(rf"\b{re.escape(name)}\b", lines[line - 1]) is not None


def _harness(caller: Function, callee: Function, source: Path, line: int) -> bool:
    """Whether a call is the test harness running a `#[test]` function (a call of itself, at its own `fn` line)."""
    if caller != callee:
        return False
    lines = source.read_text(errors="replace").splitlines() if source.is_file() else []
    return 0 < line <= len(lines) and f"fn {callee[1]}" in lines[line - 1]


def main() -> None:
    root, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
    try:
        out.write_text(json.dumps(reference(root)))
    except FileNotFoundError as missing:
        raise SystemExit(f"{missing.filename} is not on PATH: install Rust (`apt-get install rustc`)") from None


if __name__ == "__main__":
    main()
