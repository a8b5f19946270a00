"""Rust: structs, enums and traits; methods from `impl` blocks hung on their type; `use` and `mod` as imports. Calls
and trait impls bound by `use`, module and stated type, by the rules below over the shared resolver (`rules_binder`,
its paths variant `rules_paths`), with what a path means read by `rust_paths`:

- `self.m()` / `Self::m()` in an `impl Foo` (or `impl Tr for Foo`): member `m` of Foo (exact) — the method this file's
  impls of Foo define, hung on `{module}.Foo` as the outline hangs it, else Foo's own, found through its bases (the
  traits it implements); in a trait's default method, a member of the trait.
- `Foo::m()` on a type the file names (a definition, a `use`, `Self`, a type parameter's one bound): member `m` of Foo
  (exact); on one it does not name (a glob import), `Foo.m`, which the indexer matches by its tail (a guess).
- a path the file binds (`helper()`, `util::parse()`, `crate::a::f()`, `super::f()`, `Foo { .. }`, `Foo(x)`): that
  qualified name (exact); a bare name it does not bind, in a module with one glob import of another file's module
  (`use crate::util::*;`), that module's function of the name (inferred).
- a receiver whose type the code states (a parameter `x: &Foo`, `let x: Foo`, `let x = Foo::new()`, `Foo { .. }`, a
  field `self.pool` of a struct declared in the file (of another file's, `Foo@pool` for the indexer), a static, a
  function or method of the file declared to return Foo, or `Result<Foo, _>` / `Option<Foo>` once `?` or `unwrap`
  takes it out; through `&`, `Box`, `Arc`, `Rc`, `dyn` and `impl`): member of that type (inferred).
- anything else: the bare name, a guess the indexer keeps only when one entity of the project has it; None for what
  only the standard library defines (`Vec::new()`, `x.unwrap()` on an untyped x, `Some(..)`, `drop(x)`), a closure
  or function held in a variable, and an item declared inside a function (no entity).
Names take the import form: `src/lib.rs` is `src`, `src/a/mod.rs` is `src.a`, `crate::` is the innermost `src`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.binding import Bindings, Found
from trident.ingest.languages.rules_paths import PathsBinder
from trident.ingest.languages.rust_macros import expression_macros
from trident.ingest.languages.rust_paths import RustPaths
from trident.ingest.languages.rust_syntax import (
    BUILTIN_METHODS,
    UNWRAPS,
    WRAPPERS,
    called,
    crate_root,
    declarations,
    field_types,
    is_constructor,
    is_type_name,
    module_parts,
    named_type,
    names_type,
    segments,
)
from trident.ingest.languages.scope_rules import ScopeRules

# Variant constructors read as calls but name nothing in the project.
_CONSTRUCTORS = frozenset({"Some", "Ok", "Err"})
TYPES = frozenset({"struct_item", "enum_item", "union_item", "trait_item"})
_SCOPED = frozenset({"scoped_identifier", "scoped_type_identifier"})
# Nodes that are types, whatever they are in (an expression's identifier is a value unless its place makes it a path)
_TYPE_NODES = frozenset(
    {
        *("type_identifier", "scoped_type_identifier", "generic_type", "generic_type_with_turbofish"),
        *("reference_type", "dynamic_type", "abstract_type", "bracketed_type", "primitive_type"),
    }
)


def _grammar() -> object:
    import tree_sitter_rust

    return tree_sitter_rust.language()


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


def _module_of(parts: list[str], path: str) -> str:
    """The module a use path lives in, made absolute: items (CamelCase), `self` and `*` are dropped."""
    while parts and (parts[-1] in ("self", "*") or parts[-1][:1].isupper()):
        parts = parts[:-1]
    if not parts:
        return ""
    head, rest = parts[0], parts[1:]
    if head == "crate":
        return ".".join([*crate_root(path), *rest])
    if head not in ("super", "self"):
        return ".".join(parts)
    base, rest = module_parts(path), parts
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


# --- the binder's rules: what Rust's tree says, for the shared resolver ---


def written(node: ts.Node) -> str:
    """A type, or the path of a type a call or a struct names, dotted: `crate::a::Foo<T>` -> crate.a.Foo, `&Arc<Pool>`
    -> Pool (a method call sees through references and smart pointers), `<T as Tr>` -> T; "" for a value (a
    variable, a static, a call) and for what is no path (a tuple, a primitive)."""
    if node.type not in _TYPE_NODES and not _names_type(node):
        return ""
    path = segments(named_type(node))
    return ".".join(path) if path else ""


def _names_type(node: ts.Node) -> bool:
    """Whether an expression's node is a path by its place: the type or module of `Foo::m` or `E::V { .. }`, a tuple
    struct or variant called (`Foo(x)`)."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in _SCOPED:
        return _is(parent.child_by_field_name("path"), node)
    if parent.type == "call_expression" and _is(parent.child_by_field_name("function"), node):
        return is_type_name(terminal_name(node))
    return False


def _is(node: ts.Node | None, other: ts.Node) -> bool:
    return node is not None and node.id == other.id


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`f(x)` -> (None, f); `a::f()` (a module's) -> (None, a.f); `Foo::m()`, `Self::m()`, `x.m()` -> (the type or
    value, m); a variant (`E::V(x)`) and anything else no call of a function."""
    function = called(callee) if node.type == "call_expression" else None
    if function is None:
        return None
    if function.type == "identifier":
        return None, node_text(function)
    if function.type == "field_expression":
        value, name = function.child_by_field_name("value"), node_text(function.child_by_field_name("field"))
        return (value, name) if value is not None and name else None
    if function.type != "scoped_identifier":
        return None
    held, name = function.child_by_field_name("path"), node_text(function.child_by_field_name("name"))
    path = segments(held)
    if held is None or not path or not name:
        return None
    if not names_type(path, function):
        return None, ".".join([*path, name])
    return None if is_type_name(name) else (held, name)


def _built(name: ts.Node | None) -> ts.Node | None:
    """The type a struct literal builds: `Foo { .. }` a Foo, an enum's variant `E::V { .. }` an E."""
    path = segments(name) or []
    held = name.child_by_field_name("path") if name is not None and len(path) > 1 else None
    return held if held is not None and is_type_name(path[-1]) and is_type_name(path[-2]) else name


def _constructed(node: ts.Node, callee: ts.Node) -> str:
    built = _built(callee) if node.type == "struct_expression" else None
    return written(built) if built is not None else ""


def _made(node: ts.Node) -> ts.Node | None:
    """`Foo { .. }`, `Foo(x)` (a tuple struct), `E::V(x)` (a variant) -> the node of the type it makes."""
    if node.type == "struct_expression":
        return _built(node.child_by_field_name("name"))
    function = called(node.child_by_field_name("function")) if node.type == "call_expression" else None
    if function is None or not is_type_name(terminal_name(function)):
        return None
    if function.type == "identifier":
        return function
    held = function.child_by_field_name("path") if function.type == "scoped_identifier" else None
    path = segments(held) or []
    return held if held is not None and path and names_type(path, function) else None


def _unwrap(node: ts.Node) -> ts.Node | None:
    """`&x`, `(x)`, `x.clone()` -> x: a value of its type."""
    if node.type in ("reference_expression", "parenthesized_expression") and node.named_children:
        return node.child_by_field_name("value") or node.named_children[-1]
    return _method_receiver(node, frozenset({"clone"}))


def _unwrapping(node: ts.Node) -> ts.Node | None:
    """`x?`, `x.unwrap()`, `x.expect(..)` -> x: the value a `Result` or `Option` holds."""
    if node.type == "try_expression" and node.named_children:
        return node.named_children[-1]
    return _method_receiver(node, UNWRAPS)


def _method_receiver(node: ts.Node, names: frozenset[str]) -> ts.Node | None:
    function = called(node.child_by_field_name("function")) if node.type == "call_expression" else None
    if function is None or function.type != "field_expression":
        return None
    return function.child_by_field_name("value") if node_text(function.child_by_field_name("field")) in names else None


def _wrapped(kind: ts.Node) -> ts.Node | None:
    """`Result<Foo, E>`, `Option<Foo>` -> Foo."""
    path = segments(kind.child_by_field_name("type")) if kind.type == "generic_type" else None
    arguments = kind.child_by_field_name("type_arguments") if path and path[-1] in WRAPPERS else None
    return arguments.named_children[0] if arguments is not None and arguments.named_child_count else None


def _returned(node: ts.Node) -> ts.Node | None:
    """What a function states it returns; the type of a static or const (what reading it gives)."""
    if node.type == "function_item":
        return node.child_by_field_name("return_type")
    return node.child_by_field_name("type") if node.type in ("static_item", "const_item") else None


def _callee(node: ts.Node) -> ts.Node | None:
    return called(node.child_by_field_name("function")) if node.type == "call_expression" else None


def _access(node: ts.Node) -> tuple[ts.Node, str] | None:
    """`self.pool`, `pair.0` -> (what it is read of, the field)."""
    if node.type != "field_expression":
        return None
    held, field = node.child_by_field_name("value"), node.child_by_field_name("field")
    return (held, node_text(field)) if held is not None and field is not None else None


def _fields(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """A struct's or union's fields with their stated types (a tuple struct's are "0", "1", ...)."""
    if node.type in ("struct_item", "union_item"):
        for name, kind in field_types(node.child_by_field_name("body")):
            if name and kind is not None:
                yield name, kind


def _bases(node: ts.Node) -> list[ts.Node]:
    """The trait an impl implements; the supertraits a trait names."""
    if node.type == "impl_item":
        trait = node.child_by_field_name("trait")
        return [trait] if trait is not None else []
    bounds = node.child_by_field_name("bounds") if node.type == "trait_item" else None
    return bounds.named_children if bounds is not None else []


def _impl_type(node: ts.Node) -> str:
    """An `impl` block, or a function of one -> the type the block is of, as written: its path (`Foo<T>` -> Foo), a
    primitive's name (`str`); "" for a reference (`&'a Foo`), whose methods the block does not define."""
    holder = node.parent if node.type != "impl_item" else None
    impl = holder.parent if holder is not None and holder.type == "declaration_list" else node
    kind = impl.child_by_field_name("type") if impl is not None and impl.type == "impl_item" else None
    return ".".join(segments(kind) or []) or terminal_name(kind)


RULES = ScopeRules(
    library_calls=_CONSTRUCTORS,
    types=TYPES,
    functions=frozenset({"function_item", "impl_item"}),  # (an impl block's consts: its type is `Self` there too)
    methods=frozenset({"function_item", "function_signature_item"}),
    split=_split,
    constructed=_constructed,
    self_receivers=frozenset({"self", "Self"}),
    written=written,
    bodies=frozenset({"function_item"}),
    declared=_fields,
    locals=declarations,
    owner=_impl_type,
    fields_elsewhere=True,
    returned=_returned,
    callee=_callee,
    access=_access,
    bases=_bases,
    made=_made,
    unwrap=_unwrap,
    library_methods=BUILTIN_METHODS,
    paths=RustPaths,
    namespaces=frozenset({"mod_item"}),
    library_extended=True,
    apart=True,
    wrapped=_wrapped,
    unwrapping=_unwrapping,
    constructs=is_constructor,
    private_returns=True,
)


def _bind(root: ts.Node, path: str, module: str, found: Sequence[Found]) -> Bindings:
    """The file bound by the paths binder, its definitions named in import form (`src/lib.rs` is `src`)."""
    return PathsBinder(RULES, root, ".".join(module_parts(path)) or module, path).bind(found)


SPECS = {
    "rust": LanguageSpec(
        name="rust",
        grammar=_grammar,
        classes=TYPES,
        functions=frozenset({"function_item", "impl_item"}),  # (an impl block's consts: its type is `Self` there too)
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
        bind=_bind,
    )
}
