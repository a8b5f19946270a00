"""C#: classes, structs, interfaces, enums and records; methods, constructors, destructors and properties; `using`
directives as imports; base classes and interfaces as bases; `///` comments as descriptions. Calls and bases are
bound by what the file proves (`scope_rules`): the enclosing type's members (a bare call is one) and the file's own
types; the rest by name, labelled `name`."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import ScopeRules, within

# Names written with a path or type arguments: the name is the last part, without its arguments.
_QUALIFIED = frozenset({"qualified_name", "member_access_expression", "alias_qualified_name"})
_NAMES = frozenset({"identifier", "qualified_name", "generic_name", "alias_qualified_name"})
TYPES = frozenset(
    {
        "class_declaration",
        "struct_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "record_struct_declaration",
    }
)


def _grammar() -> object:
    import tree_sitter_c_sharp

    return tree_sitter_c_sharp.language()


def written_name(node: ts.Node | None) -> str:
    """The name a type or call is written by: `Acme.Widget<int>` -> Widget, `x.Run` -> Run, `Helper` -> Helper."""
    while node is not None:
        if node.type == "generic_name":
            node = node.named_children[0] if node.named_child_count else None
        elif node.type in _QUALIFIED and node.child_by_field_name("name") is not None:
            node = node.child_by_field_name("name")
        else:
            return terminal_name(node)
    return ""


def read_callee(node: ts.Node, self_type: str) -> str:
    return written_name(node)


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`Notify(x)` -> (None, Notify); `this.Notify(x)`, `Limits.Max<T>()` -> (the receiver, the member)."""
    if callee.type == "generic_name" and callee.named_child_count:
        callee = callee.named_children[0]
    if callee.type == "identifier":
        return None, node_text(callee)
    if callee.type == "member_access_expression":
        return callee.child_by_field_name("expression"), written_name(callee)
    return None


BODIES = frozenset(
    {
        "method_declaration",
        "constructor_declaration",
        "destructor_declaration",
        "operator_declaration",
        "local_function_statement",
    }
)
_SCOPES = BODIES | TYPES | {"lambda_expression"}  # a local of a nested function or type is not the enclosing one's


def type_written(node: ts.Node) -> str:
    """A type or receiver as written: `Foo?`, `Foo<T>` -> Foo; `Acme.Foo` and `this._gw` as they are."""
    while node.type == "nullable_type" and node.child_by_field_name("type") is not None:
        node = node.child_by_field_name("type") or node
    if node.type == "generic_name" and node.named_child_count:
        node = node.named_children[0]
    return node_text(node)


def declared(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """The receivers a type or function types: a field or property as `_gw` and `this._gw`; a parameter; a local
    (`IPay gw = ...`, `var r = new Receipt()`)."""
    if node.type in TYPES:
        body = node.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            if member.type == "property_declaration" and (kind := member.child_by_field_name("type")) is not None:
                name = node_text(member.child_by_field_name("name"))
                yield from ((name, kind), (f"this.{name}", kind))
            fields = member.named_children if member.type == "field_declaration" else []
            for name, kind in (found for declaration in fields for found in _variables(declaration)):
                yield from ((name, kind), (f"this.{name}", kind))
        return
    parameters = next((c for c in node.named_children if c.type == "parameter_list"), None)
    for parameter in parameters.named_children if parameters is not None else []:
        if (kind := parameter.child_by_field_name("type")) is not None:
            yield node_text(parameter.child_by_field_name("name")), kind
    for at in within(node.child_by_field_name("body"), _SCOPES):
        yield from _variables(at)


def _variables(declaration: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """`IPay a, b` -> (a, IPay), (b, IPay); `var r = new Receipt()` -> (r, Receipt)."""
    if declaration.type != "variable_declaration" or (kind := declaration.child_by_field_name("type")) is None:
        return
    for declarator in (c for c in declaration.named_children if c.type == "variable_declarator"):
        name = node_text(declarator.child_by_field_name("name"))
        made = next((c for c in declarator.named_children if c.type == "object_creation_expression"), None)
        if kind.type != "implicit_type":
            yield name, kind
        elif made is not None and (made_kind := made.child_by_field_name("type")) is not None:
            yield name, made_kind


def _assigned(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """`var reader = resources.ResourceReader;` -> (reader, its initializer): a local whose type is its value's."""
    if node.type in TYPES:
        return
    for declaration in within(node.child_by_field_name("body"), _SCOPES):
        kind = declaration.child_by_field_name("type") if declaration.type == "variable_declaration" else None
        for declarator in (c for c in declaration.named_children if c.type == "variable_declarator"):
            value = declarator.named_children[-1] if declarator.named_child_count > 1 else None
            if kind is not None and kind.type == "implicit_type" and value is not None:
                yield node_text(declarator.child_by_field_name("name")), value


def read_extended(node: ts.Node) -> str:
    """`static uint ReadCompressed(this IBinaryReader reader)` -> IBinaryReader: what an extension method extends."""
    parameters = node.child_by_field_name("parameters") if node.type == "method_declaration" else None
    first = parameters.named_children[0] if parameters is not None and parameters.named_child_count else None
    if (
        first is None
        or first.type != "parameter"
        or not any(c.type == "modifier" and c.text == b"this" for c in first.children)
    ):
        return ""
    kind = first.child_by_field_name("type")
    return written_name(kind) if kind is not None else ""


def _constructed(node: ts.Node, callee: ts.Node) -> str:
    return written_name(callee) if node.type == "object_creation_expression" else ""


def _returned(node: ts.Node) -> ts.Node | None:
    """`Element NewElement(string name)` -> the node of `Element`."""
    return (
        node.child_by_field_name("returns") if node.type in ("method_declaration", "local_function_statement") else None
    )


def _callee(node: ts.Node) -> ts.Node | None:
    return node.child_by_field_name("function") if node.type == "invocation_expression" else None


def _access(node: ts.Node) -> tuple[ts.Node, str] | None:
    """`module.Tables` (not called) -> (module, Tables)."""
    if node.type != "member_access_expression" or (inner := node.child_by_field_name("expression")) is None:
        return None
    name = written_name(node.child_by_field_name("name"))
    return (inner, name) if name else None


RULES = ScopeRules(
    types=TYPES,
    functions=frozenset(),
    split=_split,
    constructed=_constructed,
    self_receivers=frozenset({"this"}),
    base_receivers=frozenset({"base"}),
    implicit_self=True,
    written=type_written,
    bodies=BODIES,
    declared=declared,
    short_types=True,
    fields_elsewhere=True,  # a base class's fields and properties, a partial class's other files
    returned=_returned,
    callee=_callee,
    access=_access,
    assigned=_assigned,
)


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`using Acme.Billing;`, `using static Acme.Util.Helpers;`, `using Alias = Acme.Billing.Gateway;` -> the
    namespace or type named, as written."""
    names = [c for c in node.named_children if c.type in _NAMES]
    target = node_text(names[-1]) if names else ""
    return [target] if target else []


def read_bases(node: ts.Node) -> list[str]:
    """`class A : Base<T>, IFoo, Acme.IBar` -> Base, IFoo, IBar (the base class and the interfaces)."""
    listed = next((c for c in node.named_children if c.type == "base_list"), None)
    names = [written_name(c) for c in listed.named_children] if listed is not None else []
    return [n for n in dict.fromkeys(names) if n]


SPECS = {
    "csharp": LanguageSpec(
        name="csharp",
        grammar=_grammar,
        classes=TYPES,
        methods=frozenset(
            {"method_declaration", "constructor_declaration", "destructor_declaration", "property_declaration"}
        ),
        calls={"invocation_expression": "function", "object_creation_expression": "type"},
        imports=frozenset({"using_directive"}),
        namespaces=frozenset({"namespace_declaration", "file_scoped_namespace_declaration"}),
        attributes=frozenset({"attribute_list"}),
        read_imports=read_imports,
        read_bases=read_bases,
        read_extended=read_extended,
        read_callee=read_callee,
        bind=rules_binder(RULES),
    )
}
