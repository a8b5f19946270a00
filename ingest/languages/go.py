"""Go: struct and interface types, functions, methods hung on their receiver type, embedding as inheritance."""

from __future__ import annotations

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.binding import SiteBinder

# Predeclared functions: calls to them name no project symbol.
BUILTINS = frozenset(
    {
        "append",
        "cap",
        "clear",
        "close",
        "complex",
        "copy",
        "delete",
        "imag",
        "len",
        "make",
        "max",
        "min",
        "new",
        "panic",
        "print",
        "println",
        "real",
        "recover",
        "",
    }
)
CLASS_TYPES = frozenset({"struct_type", "interface_type"})


def _grammar() -> object:
    import tree_sitter_go

    return tree_sitter_go.language()


def is_class(node: ts.Node) -> bool:
    """`type X struct` and `type X interface` are class-like, and so is any other named type the file declares
    methods on (`type UUID [16]byte` with `func (u UUID) String()`); `type ID string` alone is not."""
    body = node.child_by_field_name("type")
    if body is None or node.type != "type_spec":
        return False
    if body.type in CLASS_TYPES:
        return True
    root = node
    while root.parent is not None:
        root = root.parent
    return node_text(node.child_by_field_name("name")) in method_receivers(root)


def method_receivers(root: ts.Node) -> set[str]:
    """The types a file declares methods on (read only for a named type that is neither a struct nor an
    interface: most are)."""
    return {read_owner(m) for m in root.named_children if m.type == "method_declaration"}


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    target = node_text(node.child_by_field_name("path")).strip('"`')
    return [target] if target else []


def read_owner(node: ts.Node) -> str:
    """`func (a *Adapter[T]) Process()` -> Adapter; a function without a receiver -> ""."""
    receiver = node.child_by_field_name("receiver")
    if receiver is None:
        return ""
    parameter = next((p for p in receiver.named_children if p.type == "parameter_declaration"), None)
    return terminal_name(parameter.child_by_field_name("type")) if parameter is not None else ""


def read_bases(node: ts.Node) -> list[str]:
    """Embedded types: a struct's unnamed fields and an interface's embedded interfaces."""
    body = node.child_by_field_name("type")
    if body is None:
        return []
    names: list[str] = []
    if body.type == "struct_type":
        fields = next((c for c in body.named_children if c.type == "field_declaration_list"), None)
        for declaration in fields.named_children if fields is not None else []:
            if declaration.type == "field_declaration" and declaration.child_by_field_name("name") is None:
                names.append(terminal_name(declaration.child_by_field_name("type")))
    elif body.type == "interface_type":
        for element in body.named_children:
            if element.type == "type_elem" and element.named_child_count == 1:
                names.append(terminal_name(element.named_children[0]))
    return [n for n in dict.fromkeys(names) if n]


def bind(root: ts.Node, path: str, module: str) -> SiteBinder:
    """The file's site binder; imported here on first use, as `go_scope` reads this module's BUILTINS."""
    from trident.ingest.languages.go_scope import bind_go

    return bind_go(root, path, module)


SPECS = {
    "go": LanguageSpec(
        name="go",
        grammar=_grammar,
        classes=frozenset({"type_spec"}),
        functions=frozenset({"function_declaration", "method_declaration"}),
        methods=frozenset({"method_elem"}),
        wrappers=frozenset({"type_declaration"}),
        # A conversion `T(x)` and a literal `T{...}` construct a T, as a constructor call would.
        calls={"call_expression": "function", "type_conversion_expression": "type", "composite_literal": "type"},
        imports=frozenset({"import_spec"}),
        skip_calls=BUILTINS,
        accepts_class=is_class,
        read_imports=read_imports,
        read_bases=read_bases,
        read_owner=read_owner,
        binder=bind,
    )
}
