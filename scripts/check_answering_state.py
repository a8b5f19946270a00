"""The answering side (`tools/`, `retrieval/`) keeps no state in its modules: what it remembers between requests and
the threads its work runs in belong to a reader (`retrieval/answer_state.AnswerState`, owned by `GenerationViews`).

Fails on, in any module of those packages:
- a module-level name bound to an empty container (`_cache = {}`, `[]`) or to a made one: a lock, a condition, an
  event, a thread pool, a weak dictionary, a file-version memory, a queue;
- a module-level function memoised for the process (`@lru_cache`, `@cache`);
- a thread or a pool of threads started anywhere but in `retrieval/answer_state.py`, the one pool.

Tables of constants (`_UNITS = {"ms": 0.001, ...}`) and compiled patterns are fine: nothing writes to them.

    python scripts/check_answering_state.py
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tools", "retrieval")
THE_POOL = Path("retrieval/answer_state.py")
MADE = frozenset(
    {
        "dict",
        "set",
        "list",
        "defaultdict",
        "OrderedDict",
        "Counter",
        "deque",
        "Lock",
        "RLock",
        "Condition",
        "Event",
        "Semaphore",
        "BoundedSemaphore",
        "Queue",
        "SimpleQueue",
        "WeakKeyDictionary",
        "WeakValueDictionary",
        "WeakSet",
        "PerFileVersion",
        "ThreadPoolExecutor",
        "ProcessPoolExecutor",
    }
)
THREADS = frozenset({"Thread", "Timer", "ThreadPoolExecutor", "ProcessPoolExecutor"})
MEMOS = frozenset({"lru_cache", "cache"})


def _called(node: ast.expr) -> str:
    """The last name of what a call expression calls (`threading.Lock()` -> "Lock"); "" when not a call."""
    if not isinstance(node, ast.Call):
        return ""
    function = node.func
    if isinstance(function, ast.Attribute):
        return function.attr
    return function.id if isinstance(function, ast.Name) else ""


def _empty_container(node: ast.expr | None) -> bool:
    return isinstance(node, (ast.Dict, ast.List, ast.Set)) and not (
        node.keys if isinstance(node, ast.Dict) else node.elts
    )


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def problems(path: Path, tree: ast.Module) -> Iterator[str]:
    for statement in tree.body:
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        if value is not None and (_empty_container(value) or _called(value) in MADE):
            yield f"{path}:{statement.lineno}: module-level state ({ast.unparse(statement)[:80]})"
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in statement.decorator_list:
                if _decorator_name(decorator) in MEMOS:
                    yield f"{path}:{decorator.lineno}: a process-wide memo (@{_decorator_name(decorator)})"
    if path == THE_POOL:
        return
    for node in ast.walk(tree):
        if _called(node) in THREADS:  # type: ignore[arg-type]
            yield f"{path}:{node.lineno}: a thread started outside the reader's pool ({_called(node)})"  # type: ignore[attr-defined]


def main() -> int:
    found = []
    for package in PACKAGES:
        for file in sorted((ROOT / package).rglob("*.py")):
            relative = file.relative_to(ROOT)
            found += list(problems(relative, ast.parse(file.read_text(encoding="utf-8"), str(relative))))
    for problem in found:
        print(problem, file=sys.stderr)
    if found:
        print(
            f"{len(found)} piece(s) of state in the answering side's modules: keep them in the reader "
            "(retrieval/answer_state.py), passed in through GenerationViews",
            file=sys.stderr,
        )
        return 1
    print(f"answering side: no module-level state or thread in {', '.join(PACKAGES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
