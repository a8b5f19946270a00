"""The Rust tree as the binder reads it: a file's module and crate root, path segments, what a `use` binds, the
variables a function declares and where each is seen, type parameters' bounds, and the standard-library names that no
project defines."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from functools import cache

import tree_sitter as ts

from trident.ingest.languages import language_for, node_text
from trident.ingest.languages.scope_rules import Local

# Items with names of their own: a function's `use`s and bounds, an impl's or trait's `Self`, a module's names.
ANCHORS = frozenset({"function_item", "impl_item", "trait_item", "mod_item", "source_file"})
# Items a module's name can stand for.
DEFINITIONS = frozenset(
    {"struct_item", "enum_item", "union_item", "trait_item", "type_item", "function_item", "const_item"}
    | {"static_item", "mod_item", "macro_definition"}
)
# Crates whose items no indexed project defines: a path into them binds to nothing.
STD_CRATES = frozenset({"std", "core", "alloc"})
# Types and traits every module sees without a `use` (the prelude and the primitives), and common std types that
# code names through a `use` the binder resolves to std anyway.
PRELUDE_TYPES = frozenset(
    {
        *("bool", "char", "str", "f32", "f64", "u8", "u16", "u32", "u64", "u128", "usize"),
        *("i8", "i16", "i32", "i64", "i128", "isize"),
        *("String", "Vec", "Option", "Result", "Box", "Some", "None", "Ok", "Err"),
        *("Clone", "Copy", "Send", "Sync", "Sized", "Unpin", "Drop", "Fn", "FnMut", "FnOnce"),
        *("Default", "From", "Into", "TryFrom", "TryInto", "AsRef", "AsMut", "Iterator", "IntoIterator"),
        *("Extend", "FromIterator", "ToString", "ToOwned", "PartialEq", "Eq", "PartialOrd", "Ord"),
        *("DoubleEndedIterator", "ExactSizeIterator"),
    }
)
# Free functions and constructors of the prelude: `drop(x)`, `Some(x)`.
PRELUDE_FUNCTIONS = frozenset({"drop", "Some", "Ok", "Err", "Box", "String", "Vec", "identity"})
# Smart pointers a method call sees through (auto-deref): `pool: Arc<Pool>` calls Pool's methods.
SMART_POINTERS = frozenset({"Box", "Arc", "Rc"})
# `Result<T, E>` / `Option<T>` returns: `f()?` and `f().unwrap()` give a T.
WRAPPERS = frozenset({"Result", "Option"})
UNWRAPS = frozenset({"unwrap", "expect", "unwrap_or_default"})
# Associated functions that by convention construct their type (`Foo::new`, `Foo::with_capacity`, `Foo::from`).
CONSTRUCTOR_NAMES = frozenset({"new", "default", "open", "create", "build", "connect"})
CONSTRUCTOR_PREFIXES = ("new_", "with_", "from")
# Methods of std types (Option, Result, Vec, String, iterators, maps, smart pointers, locks): on a receiver whose
# type the file does not state, `x.clone()` is far more often a std method than a project's.
BUILTIN_METHODS = frozenset(
    {
        *("clone", "cloned", "copied", "to_owned", "to_string", "to_vec", "into", "try_into", "as_ref", "as_mut"),
        *("unwrap", "expect", "unwrap_or", "unwrap_or_else", "unwrap_or_default", "unwrap_err", "expect_err"),
        *("ok", "err", "ok_or", "ok_or_else", "map_err", "and_then", "or_else", "map_or", "map_or_else"),
        *("is_some", "is_none", "is_ok", "is_err", "as_deref", "as_deref_mut", "take", "replace", "filter"),
        *("iter", "iter_mut", "into_iter", "map", "filter_map", "flat_map", "flatten", "collect", "fold"),
        *("for_each", "any", "all", "find", "find_map", "position", "enumerate", "zip", "chain", "rev", "skip"),
        *("step_by", "peekable", "next", "last", "nth", "count", "sum", "product", "max", "min", "max_by_key"),
        *("min_by_key", "max_by", "min_by", "take_while", "skip_while", "inspect", "windows", "chunks"),
        *("len", "is_empty", "push", "push_str", "pop", "insert", "remove", "get", "get_mut", "contains"),
        *("contains_key", "extend", "append", "truncate", "clear", "drain", "retain", "dedup", "sort", "sort_by"),
        *("sort_by_key", "sort_unstable", "binary_search", "first", "last_mut", "first_mut", "split_at"),
        *("keys", "values", "values_mut", "entry", "or_insert", "or_insert_with", "or_default", "get_or_insert"),
        *("join", "concat", "split", "splitn", "rsplit", "split_whitespace", "trim", "trim_start", "trim_end"),
        *("starts_with", "ends_with", "strip_prefix", "strip_suffix", "chars", "bytes", "lines", "as_str"),
        *("as_bytes", "as_slice", "to_lowercase", "to_uppercase", "parse", "repeat", "format", "fmt"),
        *("lock", "borrow", "borrow_mut", "as_ptr", "capacity", "reserve", "with_capacity", "resize", "swap"),
        *("eq", "ne", "cmp", "partial_cmp", "hash", "deref", "deref_mut", "to_path_buf", "display", "exists"),
        *("file_name", "extension", "parent", "is_dir", "is_file", "abs", "pow", "saturating_sub", "wrapping_add"),
        *("checked_add", "checked_sub", "min_value", "max_value", "into_boxed_slice", "into_inner", "get_ref"),
    }
)
# Files that are the module of their folder rather than a module of their own.
_FOLDER_MODULES = frozenset({"lib", "main", "mod"})
_TARGET_FOLDERS = frozenset({"tests", "benches", "examples"})  # Cargo's folders of crates beside `src`
_PATHS = frozenset({"scoped_identifier", "scoped_type_identifier"})
# Parts of a pattern that name something other than a new variable: `Some(x)`'s Some, a guard `if ok(y)`.
_NOT_BOUND = frozenset({"type", "name", "path", "condition"})
_SEGMENT_NODES = frozenset({"identifier", "type_identifier", "crate", "self", "super", "metavariable"})


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


def segments(node: ts.Node | None) -> list[str] | None:
    """`crate::a::Foo` -> [crate, a, Foo]; `Vec::<u8>` and `<Foo as Tr>` -> their type's path; None for anything
    that is not a path."""
    if node is None:
        return None
    if node.type in _SEGMENT_NODES:
        return [node_text(node)]
    if node.type in ("scoped_identifier", "scoped_type_identifier"):
        path = node.child_by_field_name("path")
        head = segments(path) if path is not None else []
        name = node_text(node.child_by_field_name("name"))
        return [*head, name] if head is not None and name else None
    if node.type in ("generic_type", "generic_type_with_turbofish"):
        return segments(node.child_by_field_name("type"))
    if node.type == "bracketed_type" and node.named_child_count == 1:
        inner = node.named_children[0]
        return segments(inner.child_by_field_name("type") if inner.type == "qualified_type" else inner)
    return None


def use_bindings(node: ts.Node | None, prefix: list[str]) -> Iterator[tuple[str, list[str]]]:
    """(local name, path) for each name a `use` tree binds; a glob yields ("*", its module's path).

    `use a::{self, b as c, d::E}` binds a, c and E; `use x as _` binds nothing.
    """
    if node is None:
        return
    if node.type == "use_as_clause":
        path = segments(node.child_by_field_name("path"))
        alias = node_text(node.child_by_field_name("alias"))
        if path and alias != "_":
            yield alias, [*prefix, *path]
    elif node.type == "scoped_use_list":
        written = node.child_by_field_name("path")
        base = [*prefix, *(segments(written) or [])] if written is not None else prefix
        yield from use_bindings(node.child_by_field_name("list"), base)
    elif node.type == "use_list":
        for item in node.named_children:
            if item.type == "self" and prefix:
                yield prefix[-1], prefix
            else:
                yield from use_bindings(item, prefix)
    elif node.type == "use_wildcard":
        inner = segments(node.named_children[0]) if node.named_child_count else []
        yield "*", [*prefix, *(inner or [])]
    else:
        path = segments(node)
        if path and path[-1] not in ("self", "super", "crate"):
            yield path[-1], [*prefix, *path]
        elif path and path[-1] == "self" and len(path) > 1:
            yield path[-2], [*prefix, *path[:-1]]


def pattern_names(pattern: ts.Node | None) -> Iterator[ts.Node]:
    """The variables a pattern binds: `(a, Some(b))` -> a, b; `Foo { x, y: z }` -> x, z (not the type names)."""
    stack = [pattern] if pattern is not None else []
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "shorthand_field_identifier"):
            yield node
            continue
        for index, child in enumerate(node.children):
            if child.type == "shorthand_field_identifier":
                yield child
            elif child.is_named and child.type not in _PATHS and node.field_name_for_child(index) not in _NOT_BOUND:
                stack.append(child)


def is_type_name(name: str) -> bool:
    """Rust's naming convention, which its compiler lints: types, traits and variants are CamelCase."""
    return name[:1].isupper()


def is_constructor(name: str) -> bool:
    return name in CONSTRUCTOR_NAMES or name.startswith(CONSTRUCTOR_PREFIXES)


# Where a function binds names: one query, run by tree-sitter, rather than a walk over every node in Python.
_BINDING_SITES = """[
  (let_declaration) (closure_expression) (for_expression) (match_arm) (let_condition) (use_declaration)
  (function_item) (struct_item) (enum_item) (union_item) (trait_item) (impl_item) (mod_item) (const_item)
  (static_item) (type_item) (macro_definition)
] @site"""


@cache
def _binding_query() -> ts.Query:
    return ts.Query(language_for("rust"), _BINDING_SITES)


def _binding_sites(body: ts.Node) -> list[ts.Node]:
    """The nodes under `body` that bind names (lets, closures, patterns, `use`s, nested items), in source order."""
    found = ts.QueryCursor(_binding_query()).captures(body).get("site", [])
    return sorted(found, key=lambda n: (n.start_byte, -n.end_byte))


def _own_sites(function: ts.Node) -> list[ts.Node]:
    """The binding sites of a function's body that are its own: a nested item's inside is a scope of its own."""
    body = function.child_by_field_name("body")
    found: list[ts.Node] = []
    nested_end = -1
    for node in _binding_sites(body) if body is not None else []:
        if node.start_byte < nested_end:
            continue
        if node.type.endswith("_item"):
            nested_end = node.end_byte
        found.append(node)
    return found


def nested_names(function: ts.Node) -> list[ts.Node]:
    """The `use`s and the nested items of a function (no entity's: a call of one names nothing), in source order."""
    return [n for n in _own_sites(function) if n.type == "use_declaration" or n.type.endswith("_item")]


def declarations(function: ts.Node) -> list[Local]:
    """Every variable a function declares (parameters, lets, closure parameters, the bindings of a `for`, a match arm,
    an `if let` / `while let`), each with where it is seen and its stated type, or (a `let x = ...` stating none) the
    value it is given."""
    if function.type != "function_item":
        return []
    whole = (function.start_byte, function.end_byte)
    found = [_typed(pattern, kind, whole, pattern.start_byte) for pattern, kind in parameters(function)]
    for node in _own_sites(function):
        if node.type == "let_declaration":
            pattern, kind = node.child_by_field_name("pattern"), node.child_by_field_name("type")
            block = node.parent or node
            value = node.child_by_field_name("value") if kind is None else None
            found.append(_typed(pattern, kind, (block.start_byte, block.end_byte + 1), node.end_byte, value))
        elif node.type == "closure_expression":
            scope = (node.start_byte, node.end_byte)
            found.extend(_typed(pattern, kind, scope, node.start_byte) for pattern, kind in parameters(node))
        elif node.type in ("for_expression", "match_arm", "let_condition"):
            scope = (node.start_byte, pattern_scope_end(node) + 1)
            found.append(_typed(node.child_by_field_name("pattern"), None, scope, node.start_byte))
    return [local for group in found for local in group]


def _typed(
    pattern: ts.Node | None,
    kind: ts.Node | None,
    scope: tuple[int, int],
    visible: int,
    value: ts.Node | None = None,
) -> list[Local]:
    """The names a pattern binds: a name alone is of the stated type (or the value's); one inside a pattern is of a
    type nothing states."""
    if pattern is not None and pattern.type == "identifier":
        return [Local(node_text(pattern), scope, visible, kind, value)]
    return [Local(node_text(name), scope, visible, None) for name in pattern_names(pattern)]


def parameters(node: ts.Node) -> Iterator[tuple[ts.Node, ts.Node | None]]:
    """(pattern, stated type) of a function's or closure's parameters (`self` is not one of them)."""
    holder = node.child_by_field_name("parameters")
    for parameter in holder.named_children if holder is not None else []:
        if parameter.type == "parameter":
            pattern = parameter.child_by_field_name("pattern")
            if pattern is not None:
                yield pattern, parameter.child_by_field_name("type")
        elif node.type == "closure_expression":
            yield parameter, None


def pattern_scope_end(node: ts.Node) -> int:
    """Where the variables of a `for`, a match arm or an `if let` / `while let` go out of scope."""
    scope = node.parent if node.type == "let_condition" else node
    while scope is not None and scope.type in ("let_chain", "let_condition"):
        scope = scope.parent
    return (scope or node).end_byte


def field_types(body: ts.Node | None) -> Iterator[tuple[str, ts.Node | None]]:
    """(field, stated type) of a struct body; a tuple struct's fields are "0", "1", ..."""
    if body is not None and body.type == "ordered_field_declaration_list":
        yield from ((str(i), typed) for i, typed in enumerate(body.children_by_field_name("type")))
    for declared in body.named_children if body is not None and body.type == "field_declaration_list" else []:
        yield node_text(declared.child_by_field_name("name")), declared.child_by_field_name("type")


def type_bounds(node: ts.Node) -> Iterator[tuple[str, list[ts.Node]]]:
    """(type parameter, its bounds) from `<T: A + B>` and `where T: A`."""
    for holder in node.named_children:
        named = {"type_parameters": "name", "where_clause": "left"}.get(holder.type)
        for item in holder.named_children if named else []:
            name, bounds = item.child_by_field_name(named or ""), item.child_by_field_name("bounds")
            if name is not None and name.type == "type_identifier" and bounds is not None:
                yield node_text(name), bounds.named_children


def names_type(path: list[str], callee: ts.Node) -> bool:
    """Whether `path::name` is on a type (`Foo::new`, `Vec::<u8>::new`, `<T as Tr>::m`) rather than a module."""
    written = callee.child_by_field_name("path")
    return is_type_name(path[-1]) or (written is not None and written.type in ("generic_type", "bracketed_type"))


def named_type(node: ts.Node | None) -> ts.Node | None:
    """The type whose methods a value of this stated type has: through `&`, `&mut`, `dyn`, `impl` and the smart
    pointers a method call sees through (`Arc<Pool>` -> Pool)."""
    while node is not None:
        if node.type in ("reference_type", "dynamic_type", "abstract_type"):
            node = node.child_by_field_name("trait" if node.type != "reference_type" else "type")
            continue
        path = segments(node) if node.type == "generic_type" else None
        arguments = node.child_by_field_name("type_arguments") if path else None
        if not (path and path[-1] in SMART_POINTERS and arguments is not None and arguments.named_child_count):
            return node
        node = arguments.named_children[0]
    return None


def called(function: ts.Node | None) -> ts.Node | None:
    """The function a call names, without its turbofish: `parse::<u8>` -> parse."""
    while function is not None and function.type == "generic_function":
        function = function.child_by_field_name("function")
    return function
