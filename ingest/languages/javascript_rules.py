"""JavaScript/TypeScript's rules for the values binder (`rules_values`), as data: how a call names its receiver and
member, what a chain link is made on, which wrappers are the value they wrap, the words for the instance and its
bases, the runtime's methods; what each name holds is read by `javascript_names`."""

from __future__ import annotations

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.javascript import CLASSES, FUNCTIONS
from trident.ingest.languages.javascript_names import JavaScriptNames
from trident.ingest.languages.javascript_syntax import BUILTIN_METHODS, TRANSPARENT
from trident.ingest.languages.scope_rules import ScopeRules


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`f()` -> (None, f); `a.b.m()`, `new ns.Foo()` -> (a.b, m); None for any other callee (`a[i]()`, `f()()`)."""
    if callee.type == "identifier":
        return None, node_text(callee)
    return _access(callee)


def _constructed(node: ts.Node, callee: ts.Node) -> str:
    return node_text(callee) if node.type == "new_expression" else ""


def _access(node: ts.Node) -> tuple[ts.Node, str] | None:
    """`a.b` -> (a, b)."""
    receiver = node.child_by_field_name("object") if node.type == "member_expression" else None
    return (receiver, node_text(node.child_by_field_name("property"))) if receiver is not None else None


def _callee(node: ts.Node) -> ts.Node | None:
    return node.child_by_field_name("function") if node.type == "call_expression" else None


def _unwrap(node: ts.Node) -> ts.Node | None:
    """`(x)`, `x!`, `x satisfies T` -> x."""
    return node.named_children[0] if node.type in TRANSPARENT and node.named_child_count else None


def _awaited(node: ts.Node) -> ts.Node | None:
    """`await x` -> x: the value a promise settles to."""
    return node.named_children[0] if node.type == "await_expression" and node.named_child_count else None


RULES = ScopeRules(
    library_calls=frozenset({"require", "import", "super"}),
    types=frozenset({*CLASSES, "class"}),
    functions=FUNCTIONS,
    split=_split,
    constructed=_constructed,
    self_receivers=frozenset({"this"}),
    base_receivers=frozenset({"super"}),
    callee=_callee,
    access=_access,
    unwrap=_unwrap,
    unwrapping=_awaited,
    library_methods=BUILTIN_METHODS,
    values=JavaScriptNames,
)
