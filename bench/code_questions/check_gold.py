"""Check every gold answer of questions.jsonl against the sources of the projects in projects.json.

The sdists are downloaded with pip (once, cached under --cache) and extracted. For each question the script checks
the record's shape, that each gold path exists in the extracted sdist, and that lines start..end hold the gold:

- code (`symbol` set): a `def`/`class` line for the symbol's last part lies within the first few lines of the
  range, and Python's `ast` has a definition with that qualified name spanning exactly start..end (decorators
  included, end = end_lineno);
- doc section (`symbol` ""): line `start` opens a Markdown or reStructuredText heading and `end` is the section's
  last non-blank line before the next heading of the same or a higher level.

It also re-draws the heldout split (seed 50, 30% of each project x kind cell) and checks it matches.

    .venv/bin/python bench/code_questions/check_gold.py [--cache /tmp/code_questions_sdists]
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import re
import subprocess
import sys
import tarfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
KINDS = ("where", "handles", "misspelt", "doc")
SPLITS = ("dev", "heldout")
FIELDS = {"id", "project", "kind", "question", "gold", "split"}
HEAD_LINES = 8  # the def/class line must be this close to the range start (room for decorators)
SEED = 50
HELDOUT_SHARE = 0.3
RST_ADORNMENT = re.compile(r"^([=\-~^*+#\"'`])\1{2,}\s*$")
MD_HEADING = re.compile(r"^(#{1,6})\s+\S")
RST_TARGET = re.compile(r"^\.\. _[^:]*:\s*$")

Heading = tuple[int, int, tuple[str, str, bool]]  # (title line, first line, style), 1-based


# ---- sdists ----


def sdist_name(spec: str) -> str:
    name, _, version = spec.partition("==")
    return f"{re.sub(r'[-_.]+', '_', name).lower()}-{version}.tar.gz"


def download(spec: str, cache: Path) -> Path:
    folder = cache / "sdists"
    archive = folder / sdist_name(spec)
    if not archive.exists():
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-q", "-d"]
        subprocess.run([*command, str(folder), spec], check=True)
    if not archive.exists():
        raise SystemExit(f"pip did not leave {archive}")
    return archive


def extract(archive: Path, cache: Path) -> Path:
    target = cache / "src" / archive.name.removesuffix(".tar.gz")
    if not target.is_dir():
        with tarfile.open(archive) as tar:
            tar.extractall(target, filter="data")
    (top,) = [d for d in target.iterdir() if d.is_dir()]
    return top


def fetch(projects: dict[str, str], cache: Path) -> dict[str, Path]:
    return {project: extract(download(spec, cache), cache) for project, spec in sorted(projects.items())}


# ---- code gold ----


def definitions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int, int]]:
    """(qualified name, first line incl. decorators, end line) of every class/def not inside a function."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = prefix + node.name
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            yield name, start, node.end_lineno or node.lineno
            if isinstance(node, ast.ClassDef):
                yield from definitions(node, name + ".")


def check_code(lines: list[str], source: str, gold: dict[str, Any]) -> str | None:
    symbol, start, end = gold["symbol"], gold["start"], gold["end"]
    last = re.escape(symbol.rsplit(".", 1)[-1])
    head = lines[start - 1 : min(end, start - 1 + HEAD_LINES)]
    if not any(re.match(rf"\s*(async\s+def|def|class)\s+{last}\b", line) for line in head):
        return f"no def/class line for {symbol} in the first lines of {start}-{end}"
    spans = [(s, e) for name, s, e in definitions(ast.parse(source)) if name == symbol]
    if not spans:
        return f"no definition {symbol}"
    if (start, end) not in spans:
        return f"{symbol} spans {spans}, not {start}-{end}"
    return None


# ---- doc gold ----


def skip_block(lines: list[str], i: int) -> int:
    """Index after a fenced code block or an HTML comment opening at line i, or i when none opens there."""
    text = lines[i].strip()
    if text.startswith(("```", "~~~")):
        fence = text[:3]
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            i += 1
        return i + 1
    if text.startswith("<!--") and "-->" not in text:
        while i < len(lines) and "-->" not in lines[i]:
            i += 1
        return i + 1
    return i


def heading_at(lines: list[str], i: int) -> tuple[Heading, int] | None:
    """The heading opening at line index i and the index after it, if one does."""
    line = lines[i]
    if MD_HEADING.match(line):
        return (i + 1, i + 1, ("md", str(len(line) - len(line.lstrip("#"))), False)), i + 1
    below = lines[i + 1] if i + 1 < len(lines) else ""
    under = lines[i + 2] if i + 2 < len(lines) else ""
    if RST_ADORNMENT.match(line) and below.strip() and RST_ADORNMENT.match(under) and under[0] == line[0]:
        return (i + 2, i + 1, ("rst", line[0], True)), i + 3
    title = line.strip() and not line.startswith(" ") and not RST_ADORNMENT.match(line)
    if title and RST_ADORNMENT.match(below) and len(below.rstrip()) >= len(line.rstrip()):
        return (i + 1, i + 1, ("rst", below[0], False)), i + 2
    return None


def headings(lines: list[str]) -> list[Heading]:
    found: list[Heading] = []
    i = 0
    while i < len(lines):
        after = skip_block(lines, i)
        if after != i:
            i = after
            continue
        heading = heading_at(lines, i)
        if heading:
            found.append(heading[0])
        i = heading[1] if heading else i + 1
    return found


def levels(found: list[Heading]) -> dict[tuple[str, str, bool], int]:
    """Markdown level = number of #; reStructuredText level = order in which the adornment style first appears."""
    ranks: dict[tuple[str, str, bool], int] = {}
    for _, _, style in found:
        if style not in ranks:
            rst_seen = sum(1 for s in ranks if s[0] == "rst")
            ranks[style] = int(style[1]) if style[0] == "md" else rst_seen + 1
    return ranks


def section_end(lines: list[str], found: list[Heading], index: int) -> int:
    ranks = levels(found)
    title, _, style = found[index]
    end = len(lines)
    for _, first, other in found[index + 1 :]:
        if ranks[other] <= ranks[style]:
            end = first - 1
            break
    while end > title and (not lines[end - 1].strip() or RST_TARGET.match(lines[end - 1])):
        end -= 1
    return end


def check_doc(lines: list[str], gold: dict[str, Any]) -> str | None:
    found = headings(lines)
    opening = [k for k, (_, first, _) in enumerate(found) if first == gold["start"]]
    if not opening:
        return f"line {gold['start']} opens no heading"
    end = section_end(lines, found, opening[0])
    if end != gold["end"]:
        return f"section at {gold['start']} ends at {end}, not {gold['end']}"
    return None


# ---- records ----


def check_gold(root: Path, gold: dict[str, Any]) -> str | None:
    if set(gold) != {"path", "symbol", "start", "end"}:
        return f"gold fields {sorted(gold)}"
    path = root / gold["path"]
    if not path.is_file():
        return f"no file {gold['path']}"
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    if not 1 <= gold["start"] <= gold["end"] <= len(lines):
        return f"lines {gold['start']}-{gold['end']} outside {gold['path']} ({len(lines)} lines)"
    problem = check_code(lines, source, gold) if gold["symbol"] else check_doc(lines, gold)
    return f"{gold['path']}: {problem}" if problem else None


def check_shape(row: dict[str, Any], projects: dict[str, str]) -> str | None:
    if set(row) != FIELDS:
        return f"fields {sorted(row)}"
    if row["project"] not in projects or row["kind"] not in KINDS or row["split"] not in SPLITS:
        return f"project/kind/split {row['project']}/{row['kind']}/{row['split']}"
    if not re.fullmatch(rf"{row['project']}-{row['kind']}-\d\d", row["id"]):
        return "id does not match project and kind"
    if not row["question"].strip() or not 1 <= len(row["gold"]) <= 3:
        return "empty question or not 1-3 golds"
    return None


def seeded_heldout(rows: list[dict[str, Any]]) -> set[str]:
    """The heldout ids: a seeded draw of round(30%) of each project x kind cell, cells and rows in id order."""
    cells: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in sorted(rows, key=lambda r: r["id"]):
        cells.setdefault((row["project"], row["kind"]), []).append(row)
    rng = random.Random(SEED)
    drawn = set()
    for key in sorted(cells):
        drawn |= {r["id"] for r in rng.sample(cells[key], round(len(cells[key]) * HELDOUT_SHARE))}
    return drawn


def check_all(rows: list[dict[str, Any]], projects: dict[str, str], roots: dict[str, Path]) -> list[str]:
    ids = [r.get("id") for r in rows]
    failures = [] if ids == sorted(set(ids), key=str) else ["ids are not unique and sorted"]
    for row in rows:
        problem = check_shape(row, projects)
        problems = [problem] if problem else [check_gold(roots[row["project"]], g) for g in row["gold"]]
        failures += [f"{row.get('id')}: {p}" for p in problems if p]
    if seeded_heldout(rows) != {r["id"] for r in rows if r["split"] == "heldout"}:
        failures.append("heldout split differs from the seeded draw")
    return failures


def summary(rows: list[dict[str, Any]]) -> str:
    out = [f"{len(rows)} questions"]
    for field in ("project", "kind", "split"):
        counts = Counter(r[field] for r in rows)
        out.append(f"  {field}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/code_questions_sdists"))
    parser.add_argument("--questions", type=Path, default=HERE / "questions.jsonl")
    args = parser.parse_args()
    projects = json.loads((HERE / "projects.json").read_text())
    rows = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    failures = check_all(rows, projects, fetch(projects, args.cache))
    print(summary(rows))
    for failure in failures:
        print("FAIL", failure)
    print(f"{'FAILED' if failures else 'OK'}: {len(failures)} problem(s) in {len(rows)} questions")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
