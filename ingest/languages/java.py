"""Java: classes, interfaces, enums and records; methods and constructors; Javadoc as descriptions; calls and
bases bound by scope and stated type, by the rules below over the shared resolver (`rules_binder`):

- `m()` in a class: member `m` of the innermost enclosing class that declares it, else of the one `import static`
  names, else of the nearest one that extends something the project may define (the index walks its bases), else
  of the one class a static wildcard import names. `this.m()` is the enclosing class's, `super.m()` its bases'
  (exact); `Foo.m()` on a type in scope is Foo's (exact).
- a receiver whose type the code states: a typed or `var x = new Foo()` local, a parameter, a field (`pool.get()`,
  `this.pool.get()`), a cast, `new Foo().m()`, a method of this file with a declared return type: member of that
  type (inferred); a method of another file's class, what that method states it returns (for the indexer).
- `new Foo()` and a base type: Foo's qualified name (exact): a class of this file (`{module}.Outer.Inner`), an
  import (`com.acme.Foo`), else a class of the same package (`{package}.Foo`).
- anything else (an untyped receiver): the bare name, a guess.

Types of the JDK (java.lang, explicit `java.*` imports, common types under a `java.*` wildcard import),
primitives, arrays, anonymous and local classes bind to nothing: no indexed entity is one of their methods; nor do
the JDK's common method names on a receiver of a type the file does not state.
"""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.java_syntax import (
    CLASSES,
    FIELDS,
    JAVA_LANG,
    JDK_METHODS,
    JDK_PREFIXES,
    JDK_TYPES,
    METHODS,
    OBJECT_FINAL_METHODS,
    declarations,
    is_anonymous_body,
    is_type_name,
    read_import,
    supertypes,
    type_parameters,
    written_type,
)
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import OUTSIDE, ScopeRules, TypeNames

FUNCTIONS = frozenset({"method_declaration", "constructor_declaration", "compact_constructor_declaration"})
# What declares variables of its own: a class's members (a field's initializer may hold a lambda)
BODIES = FUNCTIONS | FIELDS | {"static_initializer"}
_GENERIC = frozenset({"method_declaration", "constructor_declaration", *CLASSES})
_READS = frozenset({"identifier", "field_access", "scoped_identifier"})


def _grammar() -> object:
    import tree_sitter_java

    return tree_sitter_java.language()


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`import com.acme.Foo;` -> com.acme.Foo; `import static com.acme.Util.helper;` -> com.acme.Util."""
    name = next((c for c in node.named_children if c.type in ("scoped_identifier", "identifier")), None)
    target = node_text(name)
    is_static = any(c.type == "static" for c in node.children)
    has_wildcard = any(c.type == "asterisk" for c in node.named_children)
    if is_static and not has_wildcard and "." in target:
        target = target.rsplit(".", 1)[0]
    return [target] if target else []


def read_bases(node: ts.Node) -> list[str]:
    """`extends Base<T> implements A, B` on a class, `extends A, B` on an interface."""
    holders = [node.child_by_field_name("superclass"), node.child_by_field_name("interfaces")]
    holders += [c for c in node.named_children if c.type == "extends_interfaces"]
    names: list[str] = []
    for holder in holders:
        for child in holder.named_children if holder is not None else []:
            targets = child.named_children if child.type == "type_list" else [child]
            names.extend(terminal_name(t) for t in targets)
    return [n for n in dict.fromkeys(names) if n]


def written(node: ts.Node) -> str:
    """A type or a receiver as code writes it: `List<Foo>` -> List, `Outer.Inner` as it is, `com.acme.Foo` from the
    root (`.com.acme.Foo`), a primitive or array OUTSIDE; an enum constant, its enum; "" for a variable or constant
    (`pool`, `MAX_SIZE`, `a.b`)."""
    if node.type == "enum_constant":
        declaration = node.parent.parent if node.parent is not None else None
        return node_text(declaration.child_by_field_name("name")) if declaration is not None else ""
    if node.type in _READS:
        text = node_text(node)
        return _rooted(text) if is_type_name(text.rpartition(".")[2]) else ""
    return _rooted(written_type(node))


def _rooted(written: str) -> str:
    """`com.acme.Foo` -> `.com.acme.Foo` (a package first: written from the root); `Outer.Inner` as it is."""
    head, dot, _ = written.partition(".")
    return f".{written}" if dot and not is_type_name(head) else written


def _names(root: ts.Node, module: str) -> TypeNames:
    """The file's imports (the JDK's as OUTSIDE), static imports, and its package (else its folder)."""
    imported: dict[str, str] = {}
    members: dict[str, str] = {}
    wildcards: list[str] = []
    package, jdk_wildcard = "", False
    for node in root.named_children:
        if node.type == "package_declaration":
            package = node_text(next((c for c in node.named_children if "identifier" in c.type), None))
        elif node.type == "import_declaration":
            text, static, wildcard = read_import(node)
            jdk = text.startswith(JDK_PREFIXES)
            if wildcard and static and not jdk:
                wildcards.append(text)
            elif wildcard and not static:
                jdk_wildcard = jdk_wildcard or jdk
            elif text and not wildcard:
                owner, _, member = text.rpartition(".")
                if static:
                    members[member] = OUTSIDE if jdk else owner
                if not static or is_type_name(member):
                    imported[member] = OUTSIDE if jdk else text
    return TypeNames(
        imported,
        package or module.rpartition(".")[0],
        outside=JAVA_LANG | JDK_TYPES if jdk_wildcard else JAVA_LANG,
        outside_prefixes=JDK_PREFIXES,
        members=members,
        member_wildcards=tuple(wildcards),
        is_type=is_type_name,
        default_package=True,
    )


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`m(x)` -> (None, m); `a.m(x)`, `this.m()`, `super.m()`, `Iface.super.m()` -> (the receiver, m)."""
    if node.type != "method_invocation":
        return None
    return node.child_by_field_name("object"), node_text(callee)


def _constructed(node: ts.Node, callee: ts.Node) -> str:
    return written(callee) if node.type == "object_creation_expression" else ""


def _fields(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """A class's fields, record components and enum constants (the constant's node: a value of its enum)."""
    if node.type not in CLASSES:
        return
    components = node.child_by_field_name("parameters")  # a record's
    for component in components.named_children if components is not None else []:
        if (kind := component.child_by_field_name("type")) is not None:
            yield node_text(component.child_by_field_name("name")), kind
    yield from _members(node.child_by_field_name("body"))


def _members(body: ts.Node | None) -> Iterator[tuple[str, ts.Node]]:
    for member in body.named_children if body is not None else []:
        if member.type in FIELDS and (kind := member.child_by_field_name("type")) is not None:
            for declarator in member.children_by_field_name("declarator"):
                yield node_text(declarator.child_by_field_name("name")), kind
        elif member.type == "enum_constant":
            yield node_text(member.child_by_field_name("name")), member
            yield from _members(member.child_by_field_name("body"))
        elif member.type == "enum_body_declarations":
            yield from _members(member)


def _declared(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """A class's fields, the first declaration of each name (a function's variables are `_locals`)."""
    seen: set[str] = set()
    for name, kind in _fields(node):
        if name and name not in seen:
            seen.add(name)
            yield name, kind


def _bases(node: ts.Node) -> list[ts.Node]:
    """What a class extends and implements; what an anonymous class creates."""
    if is_anonymous_body(node):
        created = node.parent.child_by_field_name("type") if node.parent is not None else None
        return [created] if created is not None else []
    return supertypes(node) if node.type in CLASSES else []


def _type_parameters(node: ts.Node) -> dict[str, ts.Node | None]:
    return type_parameters(node) if node.type in _GENERIC else {}


def _returned(node: ts.Node) -> ts.Node | None:
    return node.child_by_field_name("type") if node.type in METHODS else None


def _callee(node: ts.Node) -> ts.Node | None:
    return node.child_by_field_name("name") if node.type == "method_invocation" else None


def _access(node: ts.Node) -> tuple[ts.Node, str] | None:
    """`this.pool`, `Outer.this`, `Foo.INSTANCE`, `com.acme.Util` -> (what it is read of, the field)."""
    if node.type != "field_access":
        return None
    held, field = node.child_by_field_name("object"), node.child_by_field_name("field")
    return (held, node_text(field)) if held is not None and field is not None else None


def _made(node: ts.Node) -> ts.Node | None:
    """`new Foo()`, `(Foo) x` -> the node of Foo."""
    return node.child_by_field_name("type") if node.type in ("object_creation_expression", "cast_expression") else None


def _unwrap(node: ts.Node) -> ts.Node | None:
    return node.named_children[0] if node.type == "parenthesized_expression" and node.named_child_count == 1 else None


def _literal(node: ts.Node) -> bool:
    return node.type.endswith("_literal") or node.type in ("true", "false", "array_creation_expression")


RULES = ScopeRules(
    types=CLASSES,
    functions=FUNCTIONS,
    methods=METHODS,
    split=_split,
    constructed=_constructed,
    self_receivers=frozenset({"this"}),
    base_receivers=frozenset({"super"}),
    names=_names,
    written=written,
    bodies=BODIES,
    declared=_declared,
    locals=declarations,
    closed_types=True,
    bases=_bases,
    type_parameters=_type_parameters,
    anonymous=is_anonymous_body,
    returned=_returned,
    callee=_callee,
    access=_access,
    made=_made,
    unwrap=_unwrap,
    literal=_literal,
    library_methods=JDK_METHODS,
    final_methods=OBJECT_FINAL_METHODS,
)


SPECS = {
    "java": LanguageSpec(
        name="java",
        grammar=_grammar,
        classes=frozenset(
            {
                "class_declaration",
                "interface_declaration",
                "enum_declaration",
                "record_declaration",
                "annotation_type_declaration",
            }
        ),
        methods=frozenset({"method_declaration", "constructor_declaration", "compact_constructor_declaration"}),
        calls={"method_invocation": "name", "object_creation_expression": "type"},
        imports=frozenset({"import_declaration"}),
        comments=frozenset({"line_comment", "block_comment"}),
        read_imports=read_imports,
        read_bases=read_bases,
        bind=rules_binder(RULES),
    )
}
