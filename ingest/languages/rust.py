"""Rust: structs, enums and traits; methods from `impl` blocks hung on their type; `use` and `mod` as imports."""

from __future__ import annotations

import posixpath

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.binding import SiteBinder
from trident.ingest.languages.rust_macros import expression_macros

# Variant constructors read as calls but name nothing in the project.
_CONSTRUCTORS = frozenset({"Some", "Ok", "Err"})
# Files that are the module of their folder rather than a module of their own.
_FOLDER_MODULES = frozenset({"lib", "main", "mod"})
_TARGET_FOLDERS = frozenset({"tests", "benches", "examples"})  # Cargo's folders of crates beside `src`


def _grammar() -> object:
    import tree_sitter_rust

    return tree_sitter_rust.language()


def module_parts(path: str) -> list[str]:
    """The module a file is, as folder parts: src/billing/orders.rs -> src.billing.orders, src/lib.rs -> src."""
    folder = [p for p in posixpath.dirname(path).split("/") if p]
    stem = posixpath.splitext(posixpath.basename(path))[0]
    return folder if stem in _FOLDER_MODULES else [*folder, stem]


def crate_root(path: str) -> list[str]:
    """`crate::` means the innermost `src` folder above the file; in a crate's `tests`, `benches` or `examples`
    folder (each file there a crate of its own, whose modules are beside it), that folder; else the project root."""
    folder = [p for p in posixpath.dirname(path).split("/") if p]
    if "src" in folder:
        return folder[: len(folder) - folder[::-1].index("src")]
    targets = [at for at, name in enumerate(folder) if name in _TARGET_FOLDERS]
    return folder[: targets[-1] + 1] if targets else []


def _segments(node: ts.Node | None) -> list[str]:
    return [s.strip() for s in node_text(node).split("::") if s.strip()]


def _use_paths(node: ts.Node, prefix: list[str]) -> list[list[str]]:
    """Every path a `use` tree names: `a::{b, c::D}` -> a::b, a::c::D."""
    if node.type == "use_as_clause":
        path = node.child_by_field_name("path")
        return _use_paths(path, prefix) if path is not None else []
    if node.type == "scoped_use_list":
        base = [*prefix, *_segments(node.child_by_field_name("path"))]
        items = node.child_by_field_name("list")
        return [p for item in (items.named_children if items else []) for p in _use_paths(item, base)]
    if node.type == "use_list":
        return [p for item in node.named_children for p in _use_paths(item, prefix)]
    if node.type == "use_wildcard":
        inner = node.named_children[0] if node.named_child_count else None
        return [[*prefix, *_segments(inner)]]
    return [[*prefix, *_segments(node)]]


def _module_of(segments: list[str], path: str) -> str:
    """The module a use path lives in, made absolute: items (CamelCase), `self` and `*` are dropped."""
    while segments and (segments[-1] in ("self", "*") or segments[-1][:1].isupper()):
        segments = segments[:-1]
    if not segments:
        return ""
    head, rest = segments[0], segments[1:]
    if head == "crate":
        return ".".join([*crate_root(path), *rest])
    if head not in ("super", "self"):
        return ".".join(segments)
    base, rest = module_parts(path), segments
    while rest and rest[0] in ("super", "self"):
        base = base[:-1] if rest[0] == "super" else base
        rest = rest[1:]
    return ".".join([*base, *rest])


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`use crate::gateway::Gateway` in src/... -> src.gateway; `mod gateway;` in src/lib.rs -> src.gateway."""
    if node.type == "mod_item":
        name = node_text(node.child_by_field_name("name"))
        has_body = node.child_by_field_name("body") is not None
        return [] if has_body or not name else [".".join([*module_parts(path), name])]
    argument = node.child_by_field_name("argument")
    paths = _use_paths(argument, []) if argument is not None else []
    return [m for m in dict.fromkeys(_module_of(p, path) for p in paths) if m]


def read_bases(node: ts.Node) -> list[str]:
    """Supertraits: `trait Processor: Base + Send` -> Base, Send."""
    bounds = node.child_by_field_name("bounds")
    names = [terminal_name(b) for b in bounds.named_children] if bounds is not None else []
    return [n for n in dict.fromkeys(names) if n]


def read_callee(node: ts.Node, self_type: str) -> str:
    """`Gateway::new()` -> Gateway.new (the method's alias), `Self::f()` -> Type.f, `x.charge()` -> charge."""
    if node.type == "generic_function":
        node = node.child_by_field_name("function") or node
    name = terminal_name(node)
    if node.type == "scoped_identifier" and name:
        owner = terminal_name(node.child_by_field_name("path"))
        owner = self_type if owner == "Self" else owner
        if owner[:1].isupper():
            return f"{owner}.{name}"
    return name


def _binder(root: ts.Node, path: str, module: str) -> SiteBinder:
    """The scope-aware binder (`rust_scope`), imported on first use: it builds on this module's path helpers."""
    from trident.ingest.languages.rust_scope import bind_rust

    return bind_rust(root, path, module)


SPECS = {
    "rust": LanguageSpec(
        name="rust",
        grammar=_grammar,
        classes=frozenset({"struct_item", "enum_item", "trait_item", "union_item"}),
        functions=frozenset({"function_item"}),
        methods=frozenset({"function_signature_item"}),
        containers={"impl_item": "type", "mod_item": "name"},
        impls=frozenset({"impl_item"}),
        calls={"call_expression": "function", "struct_expression": "name"},  # `T { .. }` constructs a T
        imports=frozenset({"use_declaration", "mod_item"}),
        comments=frozenset({"line_comment", "block_comment"}),
        attributes=frozenset({"attribute_item"}),
        skip_calls=_CONSTRUCTORS,
        plain_text=expression_macros,
        read_imports=read_imports,
        read_bases=read_bases,
        read_callee=read_callee,
        binder=_binder,
    )
}
