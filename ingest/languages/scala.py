"""Scala: classes, case classes, traits, objects and enums (a companion object's definitions answer to its class's
name, as code calls them: `OrderService.apply`); methods and functions; Scaladoc as descriptions; `import` as imports
(selectors and renames too); the superclass and traits as bases; the package as the namespace code writes a
definition by (`com.acme.billing.Shop`).

Calls are bound by what the file proves (`scope_rules`), as in Kotlin: `this.m()` and `super.m()`; a receiver whose
declared type the file can name (a class parameter, a `val`, a parameter, `val a = new Auditor()`); `new Foo(...)`
and `Foo(...)` construct Foo, and `Helpers.format()` is a member of that object, named through the imports and the
package; a bare call is the enclosing type's member (through its bases), else an imported name, else the package's
one function of that name (`inferred`); the rest by name, labelled `name`."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import ScopeRules, TypeNames, capitalised, dotted_name, within

TYPES = frozenset({"class_definition", "object_definition", "trait_definition", "enum_definition"})
FUNCTIONS = frozenset({"function_definition", "function_declaration"})
BODIES = FUNCTIONS | {"lambda_expression"}
_LEAVES = frozenset({"identifier", "type_identifier"})
_PATHS = frozenset({"stable_identifier", "stable_type_identifier", "field_expression", "generic_type"})
_VALUES = frozenset({"val_definition", "var_definition", "val_declaration", "var_declaration"})


def _grammar() -> object:
    import tree_sitter_scala

    return tree_sitter_scala.language()


def type_written(node: ts.Node) -> str:
    """A type, object or class as code writes it: `Shop`, `Option[Shop]` -> Option, `Outer.Inner`, `.com.acme.Shop`
    (`capitalised`); "" for a value (`gateway`, `this.audit`)."""
    return capitalised(dotted_name(node, _LEAVES, _PATHS))


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`notify(r)` -> (None, notify); `this.notify(r)`, `gateway.charge(o)` -> (the receiver, the member)."""
    if callee.type == "generic_function":
        callee = callee.child_by_field_name("function") or callee
    if callee.type == "identifier":
        return None, node_text(callee)
    if callee.type != "field_expression":
        return None
    member = callee.child_by_field_name("field")
    return callee.child_by_field_name("value"), node_text(member)


def _constructed(node: ts.Node, callee: ts.Node) -> str:
    """`new Receipt(r)`, `Receipt(r)` (a case class's or companion's `apply`) -> the class written."""
    if node.type == "instance_expression":
        return type_written(callee)
    written = type_written(callee) if callee.type in ("identifier", "field_expression") else ""
    return written if written.rpartition(".")[2][:1].isupper() else ""


def _read_callee(node: ts.Node, self_type: str) -> str:
    if node.type == "generic_function":
        node = node.child_by_field_name("function") or node
    if node.type == "field_expression":
        node = node.child_by_field_name("field") or node
    return node_text(node) if node.type in ("identifier", "type_identifier") else ""


def declared(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """The receivers a type or function types: a class's parameters and `val`s (as `gateway` and `this.gateway`); a
    function's parameters and locals (`val s: Shop`, `val a = new Auditor()`)."""
    if node.type in TYPES:
        parameters = node.child_by_field_name("class_parameters")
        body = node.child_by_field_name("body")
        members = [*(parameters.named_children if parameters is not None else [])]
        members += [m for m in body.named_children if m.type in _VALUES] if body is not None else []
        for name, kind in (found for member in members for found in _typed(member)):
            yield from ((name, kind), (f"this.{name}", kind))
        return
    for at in within(node, BODIES | TYPES):
        if at.type in ("parameter", "class_parameter") or (at.type in _VALUES and at is not node):
            yield from _typed(at)
        elif at.type == "lambda_expression" and at is node:  # `s => s.go()`: a value, whatever it holds
            parameters = node.child_by_field_name("parameters")
            names = [parameters] if parameters is not None and parameters.type == "identifier" else []
            names += [c for c in parameters.named_children if c.type == "identifier"] if parameters else []
            yield from ((node_text(n), n) for n in names)


def _typed(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """(name, its type node) of `gateway: Gateway`, `val s: Shop`, `val a = new Auditor()` (the name itself when
    nothing states a type)."""
    name = node.child_by_field_name("name") or node.child_by_field_name("pattern")
    if name is None or name.type != "identifier":
        return
    kind = node.child_by_field_name("type")
    value = node.child_by_field_name("value")
    if kind is None and value is not None and value.type in ("instance_expression", "call_expression"):
        callee = (
            value.named_children[0] if value.type == "instance_expression" else value.child_by_field_name("function")
        )
        kind = callee if callee is not None and _constructed(value, callee) else None
    yield node_text(name), kind if kind is not None else name


def names(root: ts.Node, module: str) -> TypeNames:
    """`import com.acme.log.Logger`, `import com.acme.util.{Helpers, Strings => S}` and the file's package name
    other files' definitions."""
    imported: dict[str, str] = {}
    package = ""
    for node in root.named_children:
        if node.type == "package_clause" and node.child_by_field_name("body") is None:
            package = node_text(node.child_by_field_name("name"))
        elif node.type == "import_declaration":
            imported.update(_imported(node))
    return TypeNames(imported, package)


def _imported(node: ts.Node) -> Iterator[tuple[str, str]]:
    """(name as the file writes it, the full name) of each name an import brings in (none for a `_` wildcard)."""
    path = ".".join(node_text(c) for c in node.named_children if c.type == "identifier")
    selectors = next((c for c in node.named_children if c.type == "namespace_selectors"), None)
    if selectors is None:
        if path and not any(c.type == "namespace_wildcard" for c in node.named_children):
            yield path.rpartition(".")[2], path
        return
    for selector in selectors.named_children:
        if selector.type == "identifier":
            yield node_text(selector), f"{path}.{node_text(selector)}"
        elif selector.type == "arrow_renamed_identifier":
            alias, name = selector.child_by_field_name("alias"), selector.child_by_field_name("name")
            if node_text(alias) != "_":
                yield node_text(alias), f"{path}.{node_text(name)}"


RULES = ScopeRules(
    types=TYPES,
    functions=FUNCTIONS,
    split=_split,
    constructed=_constructed,
    self_receivers=frozenset({"this"}),
    base_receivers=frozenset({"super"}),
    names=names,
    written=type_written,
    bodies=BODIES,
    declared=declared,
    linked=True,
)


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`import com.acme.Foo` -> com.acme.Foo; `import com.acme.{A, B => C}` -> com.acme.A, com.acme.B;
    `import com.acme._` -> com.acme."""
    found = [full for _, full in _imported(node)]
    if not found:
        found = [".".join(node_text(c) for c in node.named_children if c.type == "identifier")]
    return [n for n in dict.fromkeys(found) if n]


def read_bases(node: ts.Node) -> list[str]:
    """`class A extends Base(x) with Log with b.Other` -> Base, Log, Other (the superclass and the traits)."""
    listed = node.child_by_field_name("extend")
    found = [type_written(c) for c in listed.named_children if c.type != "arguments"] if listed is not None else []
    return [n for n in dict.fromkeys(found) if n]


SPECS = {
    "scala": LanguageSpec(
        name="scala",
        grammar=_grammar,
        classes=TYPES,
        functions=FUNCTIONS,
        calls={"call_expression": "function", "instance_expression": ""},
        imports=frozenset({"import_declaration"}),
        comments=frozenset({"comment", "block_comment"}),
        namespaces=frozenset({"package_clause"}),
        read_imports=read_imports,
        read_bases=read_bases,
        read_callee=_read_callee,
        bind=rules_binder(RULES),
    )
}
