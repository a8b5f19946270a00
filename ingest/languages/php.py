"""PHP: classes, interfaces, traits and enums; methods and top-level functions; `/** ... */` comments as
descriptions; `use` declarations as imports (namespaces written with dots); `extends`, `implements` and the traits
a class uses as bases. Calls and bases are bound by what the file proves (`scope_rules`): `$this->m()`, `self::m()`,
`static::m()` are members of the enclosing type, `parent::m()` of its bases, the file's own types and functions are
themselves; the rest by name, labelled `name`. A bare call is a function, never a method (PHP has no implicit
`$this`)."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import ScopeRules, TypeNames, within

TYPES = frozenset({"class_declaration", "interface_declaration", "trait_declaration", "enum_declaration"})
FUNCTIONS = frozenset({"function_definition"})
BODIES = frozenset({"function_definition", "method_declaration", "anonymous_function", "arrow_function"})
_SCOPES = BODIES | TYPES  # a local of a nested function or class is not the enclosing function's
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
    return dotted(callee) if node.type == "object_creation_expression" and callee.type in _NAMES else ""


def dotted(node: ts.Node) -> str:
    """A class as written, with dots: `Money` -> Money, `Util\\Money` -> Util.Money, `\\App\\Money` -> .App.Money (from
    the root); "" for a class of the global namespace (`\\Exception`) and anything but a name (`$class`)."""
    if node.type not in _NAMES:
        return ""
    text = node_text(node)
    if text.startswith("namespace\\"):  # `namespace\\Foo`: the file's own namespace
        text = text.removeprefix("namespace\\")
    if text.startswith("\\") and "\\" not in text[1:]:
        return ""  # `\\DateTimeImmutable`, `\\Exception`: the global namespace, PHP's own classes
    return text.replace("\\", ".")


def type_written(node: ts.Node) -> str:
    """A declared type as written, with dots: `?Foo`, `Foo` -> Foo; "" for a primitive or a union."""
    while node.type in ("optional_type", "named_type") and node.named_child_count:
        node = node.named_children[0]
    return dotted(node)


def declared(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """The receivers a class or function types: `private Pay $gw;` and a promoted constructor parameter as
    `$this->gw`; a typed parameter `Baz $b` as `$b`; a local made by `$r = new Receipt()` as `$r`."""
    if node.type in TYPES:
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            kind = member.child_by_field_name("type")
            if member.type == "property_declaration" and kind is not None:
                for element in (c for c in member.named_children if c.type == "property_element"):
                    yield f"$this->{node_text(element.child_by_field_name('name')).lstrip('$')}", kind
            elif member.type == "method_declaration" and node_text(member.child_by_field_name("name")) == "__construct":
                for name, kind in _parameters(member, "property_promotion_parameter"):
                    yield f"$this->{name.lstrip('$')}", kind
        return
    yield from _parameters(node, "simple_parameter", "property_promotion_parameter")
    for at in within(node.child_by_field_name("body"), _SCOPES):
        made = at.child_by_field_name("right") if at.type == "assignment_expression" else None
        if made is not None and made.type == "object_creation_expression" and made.named_child_count:
            yield node_text(at.child_by_field_name("left")), made.named_children[0]


def _parameters(function: ts.Node, *kinds: str) -> Iterator[tuple[str, ts.Node]]:
    """(`$name`, its type node) of the function's parameters of these kinds that state a type."""
    parameters = function.child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters is not None else []:
        kind = parameter.child_by_field_name("type")
        if parameter.type in kinds and kind is not None:
            yield node_text(parameter.child_by_field_name("name")), kind


def type_names(root: ts.Node, module: str) -> TypeNames:
    """The classes a file's `use` declarations import (by the name or alias it uses them by) and its namespace."""
    imported: dict[str, str] = {}
    namespace = ""
    for node in root.named_children:
        if node.type == "namespace_definition":
            namespace = node_text(node.child_by_field_name("name")).replace("\\", ".")
        elif node.type == "namespace_use_declaration" and not any(
            c.type in ("function", "const") for c in node.children
        ):
            imported.update(_used(node))
    return TypeNames(imported, namespace)


def _used(node: ts.Node) -> dict[str, str]:
    """`use App\\Util\\{Money, Clock as C};` -> {Money: App.Util.Money, C: App.Util.Clock}."""
    group = next((c for c in node.named_children if c.type == "namespace_use_group"), None)
    prefix = next((node_text(c) for c in node.named_children if c.type == "namespace_name"), "") if group else ""
    found = {}
    for clause in (c for c in (group or node).named_children if c.type == "namespace_use_clause"):
        names = [c for c in clause.named_children if c.type in _NAMES]
        if not names:
            continue
        full = node_text(names[0]).lstrip("\\")
        full = f"{prefix}\\{full}" if prefix else full
        alias = node_text(names[1]) if len(names) > 1 else full.rpartition("\\")[2]
        found[alias] = full.replace("\\", ".")
    return found


RULES = ScopeRules(
    types=TYPES,
    functions=FUNCTIONS,
    split=_split,
    constructed=_constructed,
    self_receivers=frozenset({"$this", "self", "static"}),
    base_receivers=frozenset({"parent"}),
    names=type_names,
    written=type_written,
    bodies=BODIES,
    declared=declared,
)


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`use App\\Gateways\\PaymentGateway;`, `use App\\Util\\{Money, Clock as C};`, `use function App\\helper;` ->
    the names used, namespaces written with dots (`App.Gateways.PaymentGateway`)."""
    return list(_used(node).values())


def read_bases(node: ts.Node) -> list[str]:
    """`class A extends Base implements I1, \\App\\I2 { use Logs; }` -> Base, Logs, I1, .App.I2: the parent class, then
    the traits (their methods are the class's own, before an interface's declaration of them), then the
    interfaces."""
    body = node.child_by_field_name("body")
    holders = [c for c in node.named_children if c.type == "base_clause"]
    holders += [c for c in body.named_children if c.type == "use_declaration"] if body is not None else []
    holders += [c for c in node.named_children if c.type == "class_interface_clause"]
    names = [dotted(n) for holder in holders for n in holder.named_children]
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
        namespaces=frozenset({"namespace_definition"}),
        attributes=frozenset({"attribute_list"}),
        read_imports=read_imports,
        read_bases=read_bases,
        read_callee=read_callee,
        bind=rules_binder(RULES),
    )
}
