"""Kotlin: classes, interfaces, objects (a companion object's functions are its class's), functions and methods;
KDoc as descriptions; `import` as imports; the superclass and interfaces as bases; the package as the namespace a
definition is written by (`com.acme.billing.Shop`).

Calls are bound by what the file proves (`scope_rules`): `this.m()` and `super.m()`; a receiver whose declared type
the file can name (a constructor parameter or property, a parameter, a local, `val a = Auditor()`); `Foo(...)`
constructs Foo, and `Registry.register()` is a member of that object or class, named through the imports and the
package; a bare call is the enclosing class's member (through its bases), else an imported function, else the
package's one top-level function of that name (`inferred`); the rest by name, labelled `name`."""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import ScopeRules, TypeNames, capitalised, dotted_name, within

TYPES = frozenset({"class_declaration", "object_declaration"})
BODIES = frozenset({"function_declaration", "secondary_constructor", "anonymous_function"})
_SCOPES = BODIES | TYPES  # a local of a nested function or type is not the enclosing one's (a lambda's is)
_LEAVES = frozenset({"identifier"})
_PATHS = frozenset({"navigation_expression", "qualified_identifier", "user_type"})


def _grammar() -> object:
    import tree_sitter_kotlin

    return tree_sitter_kotlin.language()


def type_written(node: ts.Node) -> str:
    """A type, object or class as code writes it: `Shop?` -> Shop, `Outer.Inner`, `.com.acme.Shop` (`capitalised`);
    "" for a variable (`gateway`, `this.audit`)."""
    while node.type in ("nullable_type", "parenthesized_type") and node.named_child_count:
        node = node.named_children[0]
    return capitalised(dotted_name(node, _LEAVES, _PATHS))


def _unwrapped(node: ts.Node) -> ts.Node:
    """`x!!` -> x (the receiver the assertion is made of)."""
    argument = node.child_by_field_name("argument") if node.type == "unary_expression" else None
    return argument if argument is not None and node_text(node).endswith("!!") else node


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`notify(r)` -> (None, notify); `this.notify(r)`, `gateway?.charge(o)` -> (the receiver, the member)."""
    if callee.type == "identifier":
        return None, node_text(callee)
    if callee.type != "navigation_expression" or callee.named_child_count != 2:
        return None
    receiver, member = callee.named_children
    return (_unwrapped(receiver), node_text(member)) if member.type == "identifier" else None


def _constructed(node: ts.Node, callee: ts.Node) -> str:
    """`Receipt(r)`, `Outer.Inner(r)`, `com.acme.Receipt(r)` -> the class written (Kotlin names classes with a
    capital and has no `new`)."""
    written = type_written(callee)
    return written if written.rpartition(".")[2][:1].isupper() else ""


def _read_callee(node: ts.Node, self_type: str) -> str:
    if node.type == "navigation_expression" and node.named_child_count == 2:
        node = node.named_children[1]
    return node_text(node) if node.type == "identifier" else ""


def declared(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """The receivers a type or function types: a class's constructor parameters and properties (as `gateway` and
    `this.gateway`); a function's parameters and locals (`val s: Shop`, `val a = Auditor()`)."""
    if node.type in TYPES:
        constructor = next((c for c in node.named_children if c.type == "primary_constructor"), None)
        parameters = (
            next((c for c in constructor.named_children if c.type == "class_parameters"), None)
            if (constructor is not None)
            else None
        )
        body = next((c for c in node.named_children if c.type == "class_body"), None)
        members = [*(parameters.named_children if parameters is not None else [])]
        members += [m for m in body.named_children if m.type == "property_declaration"] if body is not None else []
        for name, kind in (found for member in members for found in _typed(member)):
            yield from ((name, kind), (f"this.{name}", kind))
        return
    parameters = next((c for c in node.named_children if c.type == "function_value_parameters"), None)
    for parameter in parameters.named_children if parameters is not None else []:
        yield from _typed(parameter)
    for at in within(next((c for c in node.named_children if c.type in ("function_body", "block")), None), _SCOPES):
        if at.type == "property_declaration":
            yield from _typed(at)
        elif at.type == "lambda_parameters":  # `{ item -> ... }`: a value, whatever it holds
            yield from ((node_text(v), v) for v in at.named_children if v.type == "variable_declaration")


def _typed(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """(name, its type node) of a parameter (`gateway: Gateway`) or property (`val s: Shop`, `val a = Auditor()`;
    the name alone, with itself as the type node, when nothing states one)."""
    if node.type in ("parameter", "class_parameter"):
        names = [c for c in node.named_children if c.type == "identifier"]
        kind = next((c for c in node.named_children if c.type not in ("identifier", "modifiers")), None)
        if names:
            yield node_text(names[0]), kind if kind is not None else names[0]
        return
    variable = next((c for c in node.named_children if c.type == "variable_declaration"), None)
    if variable is None:
        return
    name = next((c for c in variable.named_children if c.type == "identifier"), None)
    kind = next((c for c in variable.named_children if c.type != "identifier"), None)
    value = next((c for c in node.named_children if c.type == "call_expression"), None)
    if kind is None and value is not None and value.named_child_count and _constructed(value, value.named_children[0]):
        kind = value.named_children[0]
    if name is not None:
        yield node_text(name), kind if kind is not None else name


def names(root: ts.Node, module: str) -> TypeNames:
    """`import com.acme.log.Logger` (or `... as Log`) and the file's package name other files' definitions."""
    imported: dict[str, str] = {}
    package = ""
    for node in root.named_children:
        path = next((c for c in node.named_children if c.type == "qualified_identifier"), None)
        if node.type == "package_header":
            package = node_text(path)
        elif node.type == "import" and path is not None and not node_text(node).rstrip().endswith("*"):
            alias = next((c for c in node.named_children if c.type == "identifier"), None)
            written = node_text(path)
            imported[node_text(alias) if alias is not None else written.rpartition(".")[2]] = written
    return TypeNames(imported, package)


RULES = ScopeRules(
    types=TYPES,
    functions=frozenset({"function_declaration"}),
    split=_split,
    constructed=_constructed,
    self_receivers=frozenset({"this"}),
    base_receivers=frozenset({"super"}),
    names=names,
    written=type_written,
    bodies=BODIES,
    blocks=frozenset({"block"}),
    declared=declared,
    linked=True,
)


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`import com.acme.Foo` -> com.acme.Foo; `import com.acme.*` -> com.acme."""
    target = next((c for c in node.named_children if c.type == "qualified_identifier"), None)
    return [node_text(target)] if target is not None else []


def read_bases(node: ts.Node) -> list[str]:
    """`class A : Base(x), Closeable, Log by impl` -> Base, Closeable, Log (the superclass and the interfaces)."""
    listed = next((c for c in node.named_children if c.type == "delegation_specifiers"), None)
    found = []
    for specifier in listed.named_children if listed is not None else []:
        inner = specifier.named_children[0] if specifier.named_child_count else None
        if inner is not None and inner.type in ("constructor_invocation", "explicit_delegation"):
            inner = inner.named_children[0] if inner.named_child_count else None
        found.append(type_written(inner) if inner is not None else "")
    return [n for n in dict.fromkeys(found) if n]


# The space before a `}` that closes a body on the line its last declaration is on (`class C { val v = 1 }`): the
# grammar (tree-sitter-kotlin 1.1) takes such a body for an error unless a newline or `;` ends that declaration.
_BODY_END_ON_ITS_LINE = re.compile(rb"(?<=[^\s{;])[ \t](?=[ \t]*\})")


def one_line_bodies(source: bytes) -> list[bytes]:
    """The file with a `;` ending the last declaration of each body closed on its own line (`{ fun s() {} }` ->
    `{ fun s() {};}`), in the space before the `}`: the same rows and columns, read where the file as written does not
    parse (`ingest.code._parsed`)."""
    ended = _BODY_END_ON_ITS_LINE.sub(b";", source)
    return [ended] if ended != source else []


SPECS = {
    "kotlin": LanguageSpec(
        name="kotlin",
        grammar=_grammar,
        classes=TYPES,
        functions=frozenset({"function_declaration"}),
        calls={"call_expression": ""},
        imports=frozenset({"import"}),
        comments=frozenset({"line_comment", "block_comment"}),
        namespaces=frozenset({"package_header"}),
        read_imports=read_imports,
        read_bases=read_bases,
        read_callee=_read_callee,
        readings=one_line_bodies,
        bind=rules_binder(RULES),
    )
}
