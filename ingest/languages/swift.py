"""Swift: classes, structs, enums, actors and protocols; functions, methods, initialisers; an extension's methods
are its type's (`extension Shop { func extra() }` defines `Shop.extra`); `///` comments as descriptions; `import`
as imports; superclass and protocols as bases.

A module's types and functions are seen by every file of it without an import, by their own names, so calls are
bound as a linker would (`scope_rules`): `self.m()`, `super.m()`; a receiver whose declared type the file states (a
property, a parameter, a local, `let a = Auditor()`) names the project's one type of that name, `inferred`; a bare
call is the enclosing type's member (through its bases), else the project's one function or type of that name
(`Auditor()` constructs it); the rest by name, labelled `name`."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import ScopeRules, within

TYPES = frozenset({"class_declaration", "protocol_declaration"})  # (class, struct, enum, actor and extension)
FUNCTIONS = frozenset({"function_declaration"})
METHODS = frozenset({"init_declaration", "protocol_function_declaration", "deinit_declaration"})
BODIES = FUNCTIONS | METHODS | {"lambda_literal"}
_TYPE_WRAPPERS = frozenset({"optional_type", "implicitly_unwrapped_type"})


def _grammar() -> object:
    import tree_sitter_swift

    return tree_sitter_swift.language()


def _is_extension(node: ts.Node) -> bool:
    kind = node.child_by_field_name("declaration_kind")
    return node.type == "class_declaration" and kind is not None and node_text(kind) == "extension"


def _defined_type(node: ts.Node) -> bool:
    return not _is_extension(node)


def read_name(node: ts.Node) -> str:
    """What a declaration defines: a type's or function's name, `init` for an initialiser, `deinit`; an extension
    defines no type ("")."""
    if node.type == "deinit_declaration":
        return "deinit"
    if _is_extension(node):
        return ""
    return node_text(node.child_by_field_name("name"))


def extended(node: ts.Node) -> str:
    """The type a method's extension extends, as written (`extension Shop { func f() }` -> Shop; "" outside one)."""
    body = node.parent
    holder = body.parent if body is not None else None
    return type_written(holder.child_by_field_name("name")) if holder is not None and _is_extension(holder) else ""


def type_written(node: ts.Node | None) -> str:
    """A type as written, dotted: `Shop?` -> Shop, `Outer.Inner` as it is, `[Shop]` -> ""; a receiver that is a
    value (`gateway`, `self.gateway`) -> "" (Swift's types are capitalised)."""
    while node is not None and node.type in _TYPE_WRAPPERS and node.named_child_count:
        node = node.named_children[0]
    if node is None:
        return ""
    if node.type == "user_type":
        parts = [node_text(c) for c in node.named_children if c.type == "type_identifier"]
    elif node.type == "simple_identifier":
        parts = [node_text(node)]
    elif node.type == "navigation_expression":
        parts = [type_written(node.child_by_field_name("target")), _suffix(node)]
    else:
        return ""
    written = ".".join(parts) if parts and all(parts) else ""
    return written if written[:1].isupper() else ""


def _suffix(node: ts.Node) -> str:
    """`a.b` -> b."""
    suffix = node.child_by_field_name("suffix")
    name = suffix.child_by_field_name("suffix") if suffix is not None else None
    return node_text(name) if name is not None and name.type == "simple_identifier" else ""


def _receiver(node: ts.Node | None) -> ts.Node | None:
    """`x!` -> x (the value the unwrapping is of)."""
    if node is not None and node.type == "postfix_expression" and node.named_child_count:
        return node.named_children[0]
    return node


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`notify(r)` -> (None, notify); `self.notify(r)`, `gateway?.charge(o)` -> (the receiver, the member)."""
    if callee.type == "simple_identifier":
        return None, node_text(callee)
    if callee.type != "navigation_expression" or not (member := _suffix(callee)):
        return None
    return _receiver(callee.child_by_field_name("target")), member


def _read_callee(node: ts.Node, self_type: str) -> str:
    if node.type == "navigation_expression":
        return _suffix(node)
    return node_text(node) if node.type == "simple_identifier" else ""


def declared(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """The receivers a type or function types: a type's stored properties (as `gateway` and `self.gateway`); a
    function's parameters and locals (`let s: Shop`, `let a = Auditor()`)."""
    if node.type in TYPES:
        body = node.child_by_field_name("body")
        members = [m for m in body.named_children if m.type == "property_declaration"] if body is not None else []
        for name, kind in (found for member in members for found in _property(member)):
            yield from ((name, kind), (f"self.{name}", kind))
        return
    for at in within(node, BODIES | TYPES):
        if at.type in ("parameter", "lambda_parameter"):
            named = at.child_by_field_name("name")
            stated = next((c for c in at.named_children if c.type != "simple_identifier"), None)
            if named is not None:
                yield node_text(named), stated if stated is not None else named
        elif at.type == "property_declaration" and at is not node:
            yield from _property(at)


def _property(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """(name, its type node) of `let s: Shop`, `var a = Auditor()` (the name itself when nothing states a type)."""
    pattern = node.child_by_field_name("name")
    name = pattern.child_by_field_name("bound_identifier") if pattern is not None else None
    if name is None:
        return
    annotation = next((c for c in node.named_children if c.type == "type_annotation"), None)
    kind = annotation.child_by_field_name("name") if annotation is not None else None
    value = node.child_by_field_name("value")
    if kind is None and value is not None and value.type == "call_expression" and value.named_child_count:
        kind = value.named_children[0]  # `Auditor()`: what the call constructs, if it names a type
    yield node_text(name), kind if kind is not None else name


RULES = ScopeRules(
    types=TYPES,
    functions=FUNCTIONS | METHODS,
    split=_split,
    self_receivers=frozenset({"self"}),
    base_receivers=frozenset({"super"}),
    written=type_written,
    bodies=BODIES,
    blocks=frozenset({"statements"}),
    declared=declared,
    short_types=True,
    constant_receivers=True,
    name=read_name,
    linked=True,
    owner=extended,
)


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`import Foundation`, `import struct Acme.Money` -> the module (and the declaration) named."""
    named = next((c for c in node.named_children if c.type == "identifier"), None)
    return [".".join(node_text(c) for c in named.named_children)] if named is not None else []


def read_bases(node: ts.Node) -> list[str]:
    """`class Shop: Base, Gateway` -> Base, Gateway (the superclass and the protocols)."""
    found = []
    for specifier in (c for c in node.named_children if c.type == "inheritance_specifier"):
        found.append(type_written(specifier.child_by_field_name("inherits_from")))
    return [n for n in dict.fromkeys(found) if n]


SPECS = {
    "swift": LanguageSpec(
        name="swift",
        grammar=_grammar,
        classes=TYPES,
        functions=FUNCTIONS,
        methods=METHODS,
        containers={"class_declaration": "name"},
        impls=frozenset({"class_declaration"}),
        calls={"call_expression": ""},
        imports=frozenset({"import_declaration"}),
        comments=frozenset({"comment", "multiline_comment"}),
        accepts_class=_defined_type,
        read_imports=read_imports,
        read_bases=read_bases,
        read_callee=_read_callee,
        read_name=read_name,
        bind=rules_binder(RULES),
    )
}
