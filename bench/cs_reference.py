"""Every call a C# compiler resolved to a method the project defines: the reference `language_calls.py` measures
Trident's C# call edges against.

The project is built as its `.csproj` lists it (its `Compile` items, framework references and unsafe setting) with
Mono's C# compiler (`mcs -debug`, Debian's `mono-mcs`: C# 7; Roslyn is not installable here), and the assembly is read
back by `bench/CsReference.cs`: each `call`, `callvirt` and `newobj` names the method the compiler bound (for a
virtual call the declared one, an interface's or a base's, as Trident links it before `dispatch`), with its source
line from the symbol file; the override of that method in the receiver's type is as right (`also`: C# names the
original virtual method whatever the receiver's declared type; Trident names the declared type's). Left out as in
the Java and C++ references: constructors (Trident's edge for `new Foo()` is
to the class), and what no call writes — property and event accessors, operators. A lambda's or an iterator's calls
are the method they are written in; a property getter's or setter's calls are the property's.

    python bench/cs_reference.py PROJECT_ROOT PATH/TO/PROJECT.csproj OUT.json
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

Function = tuple[str, str]  # (path in the project, `Type.Method`)
SYMBOLS = "/usr/lib/mono/4.5/Mono.CompilerServices.SymbolWriter.dll"
UNWRITTEN = ("get_", "set_", "add_", "remove_", "op_")  # accessors and operators: no call names them
_COMPILE = re.compile(r'<Compile\s+Include="([^"]+)"')
_REFERENCE = re.compile(r'<Reference\s+Include="([^",]+)')


def build(root: Path, csproj: Path, folder: Path) -> Path:
    """The project's assembly with its symbol file, built by `mcs` from what the `.csproj` lists."""
    text = csproj.read_text(errors="replace")
    base = csproj.parent
    sources = [str((base / item.replace("\\", "/")).resolve()) for item in _COMPILE.findall(text)]
    sources = [s for s in sources if s.endswith(".cs") and Path(s).is_file()]
    references = sorted({r for r in _REFERENCE.findall(text) if r.startswith(("System", "Microsoft"))})
    out = folder / "project.dll"
    listed = folder / "sources.txt"
    listed.write_text("\n".join(sources))
    command = ["mcs", "-debug", "-target:library", "-nowarn:0108,0114,0162,0168,0169,0219,0414,0612,0618,0649,1591"]
    command += ["-unsafe"] if "<AllowUnsafeBlocks>true" in text else []
    command += [f"-r:{r}" for r in references] + [f"-out:{out}", f"@{listed}"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=root)
    if done.returncode != 0:
        raise SystemExit(f"mcs could not build {csproj}: {done.stdout[-1500:]}")
    return out


def read_assembly(assembly: Path, folder: Path) -> list[dict[str, list[object]]]:
    reader = folder / "CsReference.exe"
    source = Path(__file__).with_name("CsReference.cs")
    subprocess.run(["mcs", f"-r:{SYMBOLS}", str(source), f"-out:{reader}"], check=True, capture_output=True)
    out = folder / "calls.jsonl"
    subprocess.run(["mono", str(reader), str(assembly), str(out)], check=True, capture_output=True)
    return [json.loads(line) for line in out.read_text().splitlines() if line.strip()]


def _member(written: list[object]) -> str:
    """`get_Total` (a property's getter) -> Total: the property whose code it is."""
    name = str(written[1])
    return name[4:] if name.startswith(("get_", "set_")) else name


def reference(root: Path, csproj: Path) -> dict[str, list[list[object]]]:
    with tempfile.TemporaryDirectory() as work:
        records = read_assembly(build(root, csproj, Path(work)), Path(work))

    def relative(path: str) -> str:
        try:
            return Path(path).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            return ""

    files: dict[tuple[str, str], set[str]] = defaultdict(set)
    spans: dict[Function, tuple[int, int]] = {}
    for record in records:
        if "defined" in record:
            kind, method, path, first, last = record["defined"]
            name = f"{kind}.{_member([kind, method])}"
            if path := relative(str(path)):
                files[(str(kind), name)].add(path)
                low, high = spans.get((path, name), (int(first), int(last)))
                spans[(path, name)] = (min(low, int(first)), max(high, int(last)))
    declared = _type_files(root)
    pairs, also, resolved = [], [], set()
    for record in records:
        if "caller" not in record:
            continue
        site_path, line = relative(str(record["site"][0])), int(record["site"][1])
        if site_path:
            resolved.add((site_path, line))
        kind, method, raw = record["callee"]
        if raw in (".ctor", ".cctor") or str(raw).startswith(UNWRITTEN) or str(raw).startswith("<"):
            continue
        caller_name = f"{record['caller'][0]}.{_member(record['caller'])}"
        caller_files = files.get((str(record["caller"][0]), caller_name), set())
        callee_name = f"{kind}.{method}"
        callee_files = files.get((str(kind), callee_name)) or declared.get(str(kind), set())
        if len(caller_files) == 1 and len(callee_files) == 1 and site_path:
            (caller_path,), (callee_path,) = caller_files, callee_files
            pairs.append([caller_path, caller_name, callee_path, callee_name, site_path, line])
            for other_kind, other in record.get("overrides", []):
                other_name = f"{other_kind}.{_member([other_kind, other])}"
                if len(other_files := files.get((str(other_kind), other_name), set())) == 1:
                    (other_path,) = other_files
                    also.append([caller_path, caller_name, callee_path, callee_name, other_path, other_name])
    defined = [[path, name, first, last] for (path, name), (first, last) in sorted(spans.items())]
    return {"defined": defined, "pairs": pairs, "resolved": sorted([list(r) for r in resolved]), "also": also}


def _type_files(root: Path) -> dict[str, set[str]]:
    """Type name -> the files declaring it (an interface's or abstract method has no body to place it by)."""
    found: dict[str, set[str]] = defaultdict(set)
    pattern = re.compile(r"\b(?:class|interface|struct)\s+([A-Za-z_]\w*)")
    for file in root.rglob("*.cs"):
        for name in pattern.findall(file.read_text(errors="replace")):
            found[name].add(file.relative_to(root).as_posix())
    return found


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    try:
        Path(sys.argv[3]).write_text(json.dumps(reference(root, root / sys.argv[2])))
    except FileNotFoundError as missing:
        raise SystemExit(f"{missing.filename} is not on PATH: `apt-get install mono-mcs mono-devel`") from None


if __name__ == "__main__":
    main()
