"""The node a visitor's method is named for: `visit_FuncDef(self, n)` (a compiler's code generator), `visitDefTag(self,
node)` (a template engine's), `depart_Section`. A visitor dispatches on the node's class name (`getattr(self, "visit_"
+ node.__class__.__name__)`), so the method's first parameter, where nothing else types it, is an instance of that
class: a class the file binds by that name, or one of that name in a module it imports (`from . import c_ast`, then
`c_ast.FuncDef`), which the indexer keeps only where the module defines it."""

from __future__ import annotations

import re
import sys

VISITOR_METHOD = re.compile(r"(?:visit|depart|leave)_?([A-Z][A-Za-z0-9_]*)")
STANDARD_VISITORS = frozenset({"ast", "_ast"})  # a subclass of `ast.NodeVisitor` visits the standard library's nodes
STDLIB = sys.stdlib_module_names
MAX_MODULES = 8  # the modules a visited class may be of, past which the file imports too much to say


def visited_class(method: str) -> str:
    """The class name a visitor's method is named for (`visit_FuncDef` -> `FuncDef`), "" for any other method."""
    found = VISITOR_METHOD.fullmatch(method)
    return found.group(1) if found else ""


def visited_candidates(visited: str, names: dict[str, str], module: str, bases: list[str]) -> list[str]:
    """The qualified names the class `visited` may have, sorted: the file's own name for it (a class it defines or
    imports), else that name in each module it imports by a lower-case name (PEP 8 names modules so); [] for a
    visitor of the standard library's nodes (`class V(ast.NodeVisitor)`) and where the modules are too many."""
    if any(base.split(".", 1)[0] in STANDARD_VISITORS for base in bases):
        return []
    if visited in names:
        return [names[visited]]
    modules = {
        qualified
        for name, qualified in names.items()
        if name.islower() and not qualified.startswith(f"{module}.") and qualified.split(".", 1)[0] not in STDLIB
    }
    return sorted(f"{m}.{visited}" for m in modules) if 0 < len(modules) <= MAX_MODULES else []
