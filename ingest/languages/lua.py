"""Lua: functions (`function f()`, `local function f()`, a module table's `function M.f()` and `function M:m()`), the
comment above one as its description, `require("a.b")` (or `require "a.b"`) as imports.

A module table's function answers to the module's name too (`shop/util.lua`'s `function M.sum` is `shop.util.sum`,
as `local util = require("shop.util")` then `util.sum(x)` calls it). Calls are bound by what the file states
(`scope_rules`): a function of the file (`helper(x)`, `M.round(t)`, `self:total()` in a function of `M`) is `exact`,
a function of a required module by the name the `require` gives it (`util.sum`, `exact`); the rest by name,
labelled `name`."""

from __future__ import annotations

import posixpath

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import ScopeRules, TypeNames

FUNCTIONS = frozenset({"function_declaration"})
_INDEXES = frozenset({"dot_index_expression", "method_index_expression"})


def _grammar() -> object:
    import tree_sitter_lua

    return tree_sitter_lua.language()


def _member(node: ts.Node) -> ts.Node | None:
    return node.child_by_field_name("field") or node.child_by_field_name("method")


def read_name(node: ts.Node) -> str:
    """`function M.total()` -> total; `function M:show()` -> show; `local function helper()` -> helper."""
    name = node.child_by_field_name("name")
    if name is not None and name.type in _INDEXES:
        name = _member(name)
    return node_text(name) if name is not None and name.type == "identifier" else ""


def read_owner(node: ts.Node) -> str:
    """The table a function is defined in, as written: `function M.total()` -> M, `function a.b.c()` -> a.b."""
    name = node.child_by_field_name("name") if node.type in FUNCTIONS else None
    table = name.child_by_field_name("table") if name is not None and name.type in _INDEXES else None
    return node_text(table).replace(":", ".") if table is not None else ""


def local_name(node: ts.Node) -> str:
    """A function's name within its file: `M.total`, `helper`."""
    owner, name = read_owner(node), read_name(node)
    return f"{owner}.{name}" if owner and name else name


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`helper(x)` -> helper; `M.round(t)`, `util.sum(xs)` -> M.round, util.sum (a table's function, one name);
    `self:total()` in a function of `M` -> M.total; `obj:m()` -> (obj, m)."""
    if callee.type == "identifier":
        return None, node_text(callee)
    if callee.type not in _INDEXES:
        return None
    table, member = callee.child_by_field_name("table"), _member(callee)
    if table is None or member is None or member.type != "identifier":
        return None
    if node_text(table) == "self" and (owner := _owner_of(node)):
        return None, f"{owner}.{node_text(member)}"
    if table.type == "identifier" and callee.type == "dot_index_expression":
        return None, f"{node_text(table)}.{node_text(member)}"
    return table, node_text(member)


def _owner_of(node: ts.Node) -> str:
    at = node.parent
    while at is not None and at.type not in FUNCTIONS:
        at = at.parent
    return read_owner(at) if at is not None else ""


def _required(root: ts.Node, module: str) -> TypeNames:
    """`local util = require("shop.util")` -> util names shop.util."""
    imported: dict[str, str] = {}
    for statement in root.named_children:
        assignment = next((c for c in statement.named_children if c.type == "assignment_statement"), None)
        if statement.type != "variable_declaration" or assignment is None:
            continue
        names = [n for n in assignment.named_children if n.type == "variable_list"]
        values = [v for v in assignment.named_children if v.type == "expression_list"]
        single = names and values and names[0].named_child_count == 1 and values[0].named_child_count == 1
        if single and (required := _require_target(values[0].named_children[0])):
            imported[node_text(names[0].named_children[0])] = required
    return TypeNames(imported)


def _require_target(node: ts.Node) -> str:
    """`require("a.b")`, `require "a.b"` -> a.b; "" for any other expression."""
    if node.type != "function_call" or node_text(node.child_by_field_name("name")) != "require":
        return ""
    arguments = node.child_by_field_name("arguments")
    string = next((c for c in arguments.named_children if c.type == "string"), None) if arguments else None
    if arguments is not None and arguments.type == "string":
        string = arguments
    content = next((c for c in string.named_children if c.type == "string_content"), None) if string else None
    return node_text(content).replace("/", ".") if content is not None else ""


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`require("shop.util")` in `src/shop/orders.lua` -> src.shop.util: from the folder its first part names on
    the file's path (Lua's search root), else from the project's root."""
    required = _require_target(node)
    if not required:
        return []
    folders = posixpath.dirname(path).split("/")
    head = required.split(".")[0]
    root = folders[: folders.index(head)] if head in folders else []
    return [".".join([*root, required])]


RULES = ScopeRules(
    types=frozenset(),
    functions=FUNCTIONS,
    split=_split,
    names=_required,
    name=local_name,
)

SPECS = {
    "lua": LanguageSpec(
        name="lua",
        grammar=_grammar,
        classes=frozenset(),
        functions=FUNCTIONS,
        calls={"function_call": "name"},
        imports=frozenset({"function_call"}),
        read_imports=read_imports,
        read_owner=read_owner,
        read_name=read_name,
        bind=rules_binder(RULES),
    )
}
