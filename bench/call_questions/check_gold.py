"""Check every gold answer of questions.jsonl against the sources of the projects in projects.json, mechanically.

The sdists are the code-search set's (fetched once into the bench cache). For each question the script checks the
record's shape and that each gold definition exists: `symbol` is a qualified name Python's `ast` gives a function or
class of that file (`<module>`: code at the top level). Each cited line must lie inside its definition (at the top
level for `<module>`) and write the name of what it calls: the next function of a `path` chain, the asked-about
symbol for `callers` and `impact`, a caller it calls for `second` (a constructor: its class's name; `super()`
calls included), or the name its `written` says (an alias: `render_markup` for `markup.render`; an instance
called: `column(task)` for `__call__`).

    .venv/bin/python bench/call_questions/check_gold.py
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from code_search import fetch_projects  # noqa: E402
from corpus import bench_home  # noqa: E402

MODULE = "<module>"
KINDS = {"path": {"chains"}, "callers": {"symbol", "callers"}, "impact": {"symbol", "callers", "second"}}
COMMON = {"id", "project", "kind", "question"}
Spans = dict[str, tuple[int, int]]


def definitions(source: str) -> Spans:
    """Qualified name -> (first line, last line) of every function and class, decorators included."""
    spans: Spans = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                spans.setdefault(name, (first, child.end_lineno or child.lineno))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return spans


class Sources:
    def __init__(self, roots: dict[str, Path]) -> None:
        self.roots = roots
        self._spans: dict[tuple[str, str], Spans] = {}
        self._lines: dict[tuple[str, str], list[str]] = {}

    def lines(self, project: str, path: str) -> list[str]:
        key = (project, path)
        if key not in self._lines:
            text = (self.roots[project] / path).read_text(encoding="utf-8")
            self._lines[key], self._spans[key] = text.splitlines(), definitions(text)
        return self._lines[key]

    def span(self, project: str, path: str, symbol: str) -> tuple[int, int] | None:
        self.lines(project, path)
        return self._spans[(project, path)].get(symbol)

    def at_top_level(self, project: str, path: str, line: int) -> bool:
        self.lines(project, path)
        return not any(a <= line <= b for a, b in self._spans[(project, path)].values())


def called_names(symbol: str) -> list[str]:
    """The names a call of `symbol` may write: a method's or function's own name (or an alias ending in it:
    `_asdict`), a constructor's class name or `__init__`."""
    parts = symbol.split(".")
    return [parts[-2], "__init__"] if parts[-1] == "__init__" and len(parts) > 1 else [parts[-1]]


def check_site(sources: Sources, project: str, site: dict[str, Any], callees: list[str], where: str) -> list[str]:
    """Problems with one function of the gold and the lines where it calls one of `callees` (symbols)."""
    path, symbol = site.get("path", ""), site.get("symbol", "")
    if not (sources.roots[project] / path).is_file():
        return [f"{where}: no file {path}"]
    span = None if symbol == MODULE else sources.span(project, path, symbol)
    if symbol != MODULE and span is None:
        return [f"{where}: no definition {symbol} in {path}"]
    problems = []
    text = sources.lines(project, path)
    written = [site["written"]] if site.get("written") else []  # an alias, or an instance called (`__call__`)
    names = "|".join(re.escape(n) for n in written or [n for c in callees for n in called_names(c)])
    for line in site.get("lines", []):
        inside = sources.at_top_level(project, path, line) if span is None else span[0] <= line <= span[1]
        if not inside:
            problems.append(f"{where}: line {line} is outside {symbol}")
        elif names and not re.search(rf"({names})\b|\bsuper\(\)", "\n".join(text[line - 1 : line + 2])):
            problems.append(f"{where}: line {line} of {path} does not write {' or '.join(callees)}")
    if callees and not site.get("lines"):
        problems.append(f"{where}: no call line")
    return problems


def check_question(sources: Sources, q: dict[str, Any]) -> list[str]:
    kind, project, qid = q.get("kind"), q.get("project"), q.get("id")
    if kind not in KINDS or project not in sources.roots:
        return [f"{qid}: unknown kind {kind} or project {project}"]
    missing = (COMMON | KINDS[kind]) - q.keys()
    if missing:
        return [f"{qid}: missing {sorted(missing)}"]
    problems: list[str] = []
    if kind == "path":
        for chain in q["chains"]:
            for step, after in zip(chain, [*chain[1:], None], strict=True):
                problems += check_site(sources, project, step, [after["symbol"]] if after else [], qid)
        return problems
    asked = q["symbol"]
    problems += check_site(sources, project, {**asked, "lines": []}, [], qid)
    for caller in q["callers"]:
        problems += check_site(sources, project, caller, [asked["symbol"]], qid)
    direct = {c["symbol"] for c in q["callers"]}
    for caller in q.get("second", []):
        called = [c.strip() for c in caller.get("calls", "").split(",")]  # "A.f, B.g": it calls two direct callers
        if not set(called) <= direct:
            problems.append(f"{qid}: second caller {caller['symbol']} calls {caller.get('calls')}, no direct caller")
        problems += check_site(sources, project, caller, called, qid)
    for listed in (q["callers"], q.get("second", [])):  # a caller may also call a caller: in both lists
        named = Counter((c["path"], c["symbol"]) for c in listed)
        problems += [f"{qid}: {s} listed twice" for s, n in named.items() if n > 1]
    return problems


def main() -> None:
    spec = json.loads((HERE / "projects.json").read_text())
    cache = bench_home() / "code-search" / "+".join(sorted(spec["sdists"].values()))
    sources = Sources(fetch_projects(spec["sdists"], cache))
    questions = [json.loads(line) for line in (HERE / "questions.jsonl").read_text().splitlines() if line.strip()]
    problems = [p for q in questions for p in check_question(sources, q)]
    ids = Counter(q["id"] for q in questions)
    problems += [f"{i}: id used {n} times" for i, n in ids.items() if n > 1]
    print("\n".join(problems) or f"{len(questions)} questions, every gold checked")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
