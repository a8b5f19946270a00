"""C++: classes, structs, unions and enums with their methods (defined in the class or outside it, `void
Circle::area() {}`), free functions, function templates, function-like macros, namespaces; the comment above a
definition as its description; `#include` as imports (as C reads them); base classes as bases.

A definition answers to its namespace-qualified name as code writes it (`geo::Circle` is `geo.Circle`, a class of the
global namespace `Circle`), which is also how a method defined outside its class meets the class its header declares.
Calls are bound by what the file states (`scope_rules`): `this->m()`, a bare call in a method (its class's member,
through its bases, else the project's one function of that name), a qualified call (`Base::m()`, `geo::round()`),
`new Foo` and `Foo(...)` of a class, members of the declared type of a field, parameter or local (`Logger* log_;`
then `log_->write()`; `auto p = new Printer();`), of a field the class declares in its header (`_document->New()`
in a method the `.cpp` defines), and of what a call states it returns (`FirstChild()->Name()`), `inferred`; a call
through a function pointer links nothing; the rest by name, labelled `name`. A file that does not parse is read
again with its annotation macros blanked (`cpp_macros`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, field_name, node_text
from trident.ingest.languages.c import declared_name, has_body, macro_body_of, read_imports
from trident.ingest.languages.cpp_macros import readings
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import ScopeRules, TypeNames, within

TYPES = frozenset({"class_specifier", "struct_specifier", "union_specifier", "enum_specifier"})
FUNCTIONS = frozenset({"function_definition", "preproc_function_def"})
_NAMES = frozenset({"type_identifier", "namespace_identifier", "qualified_identifier"})  # not a variable's
_FIELDS = frozenset({"field_declaration"})
_LOCALS = frozenset({"declaration", "parameter_declaration", "optional_parameter_declaration"})
# `class LEVELDB_EXPORT DB :`, `struct TINYXML2_LIB Entity {`: (the keyword and space, the macro), before a name
_EXPORT = re.compile(rb"\b((?:class|struct|union)\s+)([A-Z][A-Z0-9_]*[A-Z0-9])(?=\s+[A-Za-z_]\w*\s*(?:[:{;]|final\b))")


def _grammar() -> object:
    import tree_sitter_cpp

    return tree_sitter_cpp.language()


def dotted(node: ts.Node | None) -> str:
    """A name as written, dotted: `geo::Circle` -> geo.Circle, `Circle` -> Circle; "" for anything that is no name
    (a template's instance, `auto`, a built-in type, an expression)."""
    if node is None or node.type not in _NAMES or "<" in (text := node_text(node)):
        return ""
    return text.replace("::", ".").replace(" ", "")


def _declarator_name(node: ts.Node) -> ts.Node | None:
    """The name node inside a function's declarator: `area`, `Circle::area`, `~Circle`."""
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type not in ("function_declarator",):
        inner = declarator.child_by_field_name("declarator")
        declarator = inner if inner is not None else next(iter(declarator.named_children), None)
    return declarator.child_by_field_name("declarator") if declarator is not None else None


def read_name(node: ts.Node) -> str:
    """A function's own name (`Circle::area` -> area, `~Circle` -> ~Circle); a pure virtual method's (`virtual int
    Compare(...) const = 0;`, the one declaration an abstract method has); a type's or macro's from its name."""
    if node.type == "field_declaration":
        declarator = node.child_by_field_name("declarator")
        pure = node_text(node.child_by_field_name("default_value")) == "0"
        if declarator is None or declarator.type != "function_declarator" or not pure:
            return ""
        return node_text(declarator.child_by_field_name("declarator"))
    if node.type != "function_definition":
        return field_name(node)
    name = _declarator_name(node)
    while name is not None and name.type == "qualified_identifier":
        name = name.child_by_field_name("name")
    if name is not None and name.type == "destructor_name":
        return f"~{node_text(name.named_children[0])}" if name.named_child_count else ""
    return node_text(name) if name is not None and name.type in ("identifier", "field_identifier") else ""


def read_owner(node: ts.Node) -> str:
    """The class a method defined outside it belongs to, dotted: `void geo::Circle::area()` -> geo.Circle."""
    name = _declarator_name(node) if node.type == "function_definition" else None
    if name is None or name.type != "qualified_identifier":
        return ""
    scopes = []
    while name is not None and name.type == "qualified_identifier":
        scopes.append(node_text(name.child_by_field_name("scope")))
        name = name.child_by_field_name("name")
    return ".".join(scopes)


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`f(x)` -> (None, f); `a.f()`, `a->f()` -> (a, f); `geo::round()`, `Base::m()` -> (None, geo.round),
    (None, Base.m): a qualified name is one name; a call of what an expression gives names nothing."""
    if callee.type == "template_function":
        callee = callee.child_by_field_name("name") or callee
    if callee.type == "identifier":
        return None, node_text(callee)
    if callee.type == "qualified_identifier":
        return None, dotted(callee)
    if callee.type == "field_expression":
        member = callee.child_by_field_name("field")
        if member is not None and member.type == "template_method":
            member = member.child_by_field_name("name")
        name = node_text(member) if member is not None and member.type == "field_identifier" else ""
        return (callee.child_by_field_name("argument"), name) if name else None
    return None


def _constructed(node: ts.Node, callee: ts.Node) -> str:
    """`new Foo(...)`, `new geo::Foo` -> the class constructed."""
    return dotted(node.child_by_field_name("type")) if node.type == "new_expression" else ""


def _returned(node: ts.Node) -> ts.Node | None:
    """`const XMLElement* XMLNode::FirstChildElement() const` -> the node of `XMLElement`."""
    return node.child_by_field_name("type") if node.type in ("function_definition", "field_declaration") else None


def _callee(node: ts.Node) -> ts.Node | None:
    return node.child_by_field_name("function") if node.type == "call_expression" else None


def _access(node: ts.Node) -> tuple[ts.Node, str] | None:
    """`a->doc`, `a.doc` (not called) -> (a, doc)."""
    if node.type != "field_expression":
        return None
    inner, field = node.child_by_field_name("argument"), node.child_by_field_name("field")
    if inner is None or field is None or field.type != "field_identifier":
        return None
    return inner, node_text(field)


def declared(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """What a class's fields (`Logger* log_;`, also as `this->log_`) or a function's parameters and locals (`Logger
    l;`, `auto p = new Printer();`) are declared as: (the name as code writes it, the node of its type)."""
    in_class = node.type in TYPES
    kinds = _FIELDS if in_class else _LOCALS
    scope = node.child_by_field_name("body") if in_class else node
    for declaration in within(scope, TYPES | FUNCTIONS if in_class else TYPES):
        if declaration.type not in kinds or (declaration is not node and declaration.type in FUNCTIONS):
            continue
        kind = declaration.child_by_field_name("type")
        for written in declaration.children_by_field_name("declarator"):
            name = "" if _declares_function(written) else declared_name(written)
            value = written.child_by_field_name("value") if written.type == "init_declarator" else None
            made = value.child_by_field_name("type") if value is not None and value.type == "new_expression" else None
            stated = made if made is not None and not dotted(kind) else kind
            if name and stated is not None:
                yield name, stated
                if in_class:
                    yield f"this->{name}", stated


def _declares_function(declarator: ts.Node) -> bool:
    """Whether a declarator declares a function (`Value& currentValue();`, a pointer to one): no value to call on."""
    at: ts.Node | None = declarator
    while at is not None and at.type != "function_declarator":
        at = at.child_by_field_name("declarator")
    return at is not None


def without_export_macros(source: bytes) -> bytes:
    """`class LEVELDB_EXPORT DB {` read as `class DB {`: an all-capitals word between `class` (`struct`, `union`)
    and the name is a macro (an export or visibility attribute) the grammar takes for the name; blanked, the text
    keeping its length."""
    return _EXPORT.sub(lambda m: m.group(1) + b" " * len(m.group(2)), source)


def _names(root: ts.Node, module: str) -> TypeNames:
    return TypeNames({}, written_whole=True)


def read_bases(node: ts.Node) -> list[str]:
    """`class Circle : public Shape, private geo::Named` -> Shape, geo.Named."""
    clause = next((c for c in node.named_children if c.type == "base_class_clause"), None)
    return [n for c in clause.named_children if (n := dotted(c))] if clause is not None else []


RULES = ScopeRules(
    types=TYPES,
    functions=FUNCTIONS,
    split=_split,
    constructed=_constructed,
    self_receivers=frozenset({"this"}),
    names=_names,
    written=dotted,
    bodies=FUNCTIONS,
    blocks=frozenset({"compound_statement"}),
    declared=declared,
    name=read_name,
    linked=True,
    owner=read_owner,
    fields_elsewhere=True,
    returned=_returned,
    callee=_callee,
    access=_access,
)

SPECS = {
    "cpp": LanguageSpec(
        name="cpp",
        grammar=_grammar,
        classes=TYPES,
        functions=FUNCTIONS,
        methods=frozenset({"field_declaration"}),  # a pure virtual method's declaration
        wrappers=frozenset({"template_declaration"}),
        calls={"call_expression": "function", "new_expression": "type"},
        imports=frozenset({"preproc_include"}),
        namespaces=frozenset({"namespace_definition"}),
        accepts_class=has_body,
        read_imports=read_imports,
        read_bases=read_bases,
        read_owner=read_owner,
        read_name=read_name,
        bind=rules_binder(RULES),
        readings=readings,
        plain_text=without_export_macros,
        read_body=macro_body_of("cpp"),
        marks=re.compile(rb"^\s*(?:class|namespace|template)\b|^\s*(?:public|private|protected)\s*:", re.MULTILINE),
    )
}
