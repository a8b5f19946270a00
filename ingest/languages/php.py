"""PHP: classes, interfaces, traits and enums; methods and top-level functions; `/** ... */` comments as
descriptions; `use` declarations as imports (namespaces written with dots); `extends`, `implements` and the traits
a class uses as bases. Calls and bases are bound by what the file proves (`scope_rules`): `$this->m()`, `self::m()`,
`static::m()` are members of the enclosing type, `parent::m()` of its bases, the file's own types and functions are
themselves; the rest by name, labelled `name`. A bare call is a function, never a method (PHP has no implicit
`$this`)."""

from __future__ import annotations

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text
from trident.ingest.languages.scope_rules import ScopeRules, rules_binder

TYPES = frozenset({"class_declaration", "interface_declaration", "trait_declaration", "enum_declaration"})
FUNCTIONS = frozenset({"function_definition"})
_MEMBER_CALLS = frozenset({"member_call_expression", "nullsafe_member_call_expression"})
_NAMES = frozenset({"name", "qualified_name", "relative_name"})


def _grammar() -> object:
    import tree_sitter_php

    return tree_sitter_php.language_php()


def written_name(node: ts.Node | None) -> str:
    """The name a class or function is written by, without its namespace: `\\App\\Util\\Money` -> Money."""
    if node is not None and node.type in ("qualified_name", "relative_name"):
        node = next((c for c in reversed(node.named_children) if c.type == "name"), None)
    return node_text(node) if node is not None and node.type == "name" else ""


def read_callee(node: ts.Node, self_type: str) -> str:
    return written_name(node)


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`helper(1)` -> (None, helper); `$this->charge()`, `$o?->m()` -> ($this, charge); `self::log()`,
    `Helpers::format()` -> (the scope, the member)."""
    name = written_name(callee)
    if not name:
        return None
    if node.type == "function_call_expression":
        return None, name
    if node.type in _MEMBER_CALLS:
        return node.child_by_field_name("object"), name
    if node.type == "scoped_call_expression":
        return node.child_by_field_name("scope"), name
    return None


def _constructed(node: ts.Node, callee: ts.Node) -> str:
    return written_name(callee) if node.type == "object_creation_expression" else ""


RULES = ScopeRules(
    types=TYPES,
    functions=FUNCTIONS,
    split=_split,
    constructed=_constructed,
    self_receivers=frozenset({"$this", "self", "static"}),
    base_receivers=frozenset({"parent"}),
)


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`use App\\Gateways\\PaymentGateway;`, `use App\\Util\\{Money, Clock as C};`, `use function App\\helper;` ->
    the names used, namespaces written with dots (`App.Gateways.PaymentGateway`)."""
    group = next((c for c in node.named_children if c.type == "namespace_use_group"), None)
    prefix = next((node_text(c) for c in node.named_children if c.type == "namespace_name"), "") if group else ""
    clauses = (group or node).named_children
    found = []
    for clause in (c for c in clauses if c.type == "namespace_use_clause"):
        named = next((c for c in clause.named_children if c.type in _NAMES), None)
        written = node_text(named).lstrip("\\")
        if written:
            found.append(f"{prefix}\\{written}" if prefix else written)
    return [name.replace("\\", ".") for name in found]


def read_bases(node: ts.Node) -> list[str]:
    """`class A extends Base implements I1, \\App\\I2 { use Logs; }` -> Base, Logs, I1, I2: the parent class, then
    the traits (their methods are the class's own, before an interface's declaration of them), then the
    interfaces."""
    body = node.child_by_field_name("body")
    holders = [c for c in node.named_children if c.type == "base_clause"]
    holders += [c for c in body.named_children if c.type == "use_declaration"] if body is not None else []
    holders += [c for c in node.named_children if c.type == "class_interface_clause"]
    names = [written_name(n) for holder in holders for n in holder.named_children]
    return [n for n in dict.fromkeys(names) if n]


SPECS = {
    "php": LanguageSpec(
        name="php",
        grammar=_grammar,
        classes=TYPES,
        functions=FUNCTIONS,
        methods=frozenset({"method_declaration"}),
        calls={
            "function_call_expression": "function",
            "member_call_expression": "name",
            "nullsafe_member_call_expression": "name",
            "scoped_call_expression": "name",
            "object_creation_expression": "",  # the class is its first child, under no field
        },
        imports=frozenset({"namespace_use_declaration"}),
        attributes=frozenset({"attribute_list"}),
        read_imports=read_imports,
        read_bases=read_bases,
        read_callee=read_callee,
        binder=rules_binder(RULES),
    )
}
