"""Go: struct and interface types, functions, methods hung on their receiver type, embedding as inheritance; calls,
conversions, composite literals and embedded types bound by package, import and stated type, by the rules below over
the shared resolver (`rules_binder`):

- A package is its folder: a type of the package is qualified by the folder (`pkg/server/handler.go` -> `pkg.server`,
  a file at the project's root by bare names), as the indexer knows every definition of the folder, for its methods
  may be declared in any file of it; a function of this very file is qualified by the file's module, exactly as its
  entity is, and one of another file of the package by the folder.
- `s.m()` in `func (s *Server) ...`: member `m` of the package's `Server` (exact); `Server.m(s)` too.
- `server.New()` through `import "github.com/o/r/pkg/server"` (or `srv "..."`): `github.com.o.r.pkg.server.New`
  (exact), which the indexer matches by its longest known tail; the standard library's packages give nothing.
- `helper()`, `Foo(x)`, `Foo{...}`, `&pkg.Foo{}`: the function or type of this package or an imported one (exact).
- `x.m()` where the code states x's type (a parameter, `var x *Foo`, `x := &Foo{}`, a package-level variable,
  `x := NewFoo()` with a result type this file states, else `pkg.NewFoo()` taken to make a `pkg.Foo`, a struct field
  `s.pool.Get()`, a type switch case, an element of a slice, map or channel, `new`/`make`): member `m` of that type
  (inferred); the several results of a call type the names they are given in order.
- `x.m()` where x is what a function or method of another file of the package gives (`r.Path("/g").Subrouter()`,
  `sub := build(p)`): member `m` of what that function's own file states it returns (`returned`), which the indexer
  looks up by the function's name (inferred).
- anything else (an untyped receiver, a package variable of another file): the bare name, which the indexer keeps
  only when one entity of the project has it. Builtins, predeclared types, type parameters, function values (a local,
  a package-level variable, a struct field holding a function) and the standard library give nothing, nor do the
  standard interfaces' methods (`Close`, `Error`) on a receiver whose type the file does not state.

Scoping is lexical, as Go's: a name declared in a block is seen from the end of its declaration to the end of the
block, shadowing the imports, the package and the blocks around it.
"""

from __future__ import annotations

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.go_syntax import (
    FUNCTIONS,
    INTERFACE_METHODS,
    PREDECLARED_TYPES,
    declarations,
    element_type,
    embedded_types,
    imports,
    is_constructor,
    is_standard,
    named_type,
    results,
    struct_fields,
    type_parameters,
)
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import OUTSIDE, ScopeRules, TypeNames

# Predeclared functions: calls to them name no project symbol.
BUILTINS = frozenset(
    {
        *("append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max", "min"),
        *("new", "panic", "print", "println", "real", "recover", ""),
    }
)
CLASS_TYPES = frozenset({"struct_type", "interface_type"})
TYPES = frozenset({"type_spec", "type_alias"})
# Types no project defines methods on: a function's, a literal struct or interface, a container (whose elements
# `element` reads)
_UNNAMED_TYPES = frozenset(
    {
        *("function_type", "interface_type", "struct_type", "slice_type", "array_type", "map_type", "channel_type"),
        *("implicit_length_array_type", "variadic_parameter_declaration"),
    }
)
_LITERALS = frozenset({"func_literal", "interpreted_string_literal", "raw_string_literal", "int_literal"})
_MADE = frozenset({"composite_literal", "type_conversion_expression", "type_assertion_expression"})


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
    names = [terminal_name(written) for written in _embedded(node)]
    return [n for n in dict.fromkeys(names) if n]


def _embedded(node: ts.Node) -> list[ts.Node]:
    """The types a type declaration embeds, but its own type parameters (a constraint's `interface{ *T }`)."""
    if node.type != "type_spec":
        return []
    parameters = type_parameters(node)
    embedded = embedded_types(node.child_by_field_name("type"))
    return [written for written in embedded if terminal_name(written) not in parameters]


def written(node: ts.Node) -> str:
    """A type or a receiver as code writes it: `*pkg.Foo[int]` -> pkg.Foo, `server`, `store.Default`; a function,
    literal struct or interface, or container type OUTSIDE; "" for anything else."""
    named = named_type(node)
    if named is None:
        return ""
    if named.type in ("type_identifier", "identifier"):
        return node_text(named)
    if named.type in ("qualified_type", "selector_expression"):
        package = named.child_by_field_name("package") or named.child_by_field_name("operand")
        name = named.child_by_field_name("name") or named.child_by_field_name("field")
        if package is None or package.type not in ("package_identifier", "identifier") or name is None:
            return ""
        return f"{node_text(package)}.{node_text(name)}"
    return OUTSIDE if named.type in _UNNAMED_TYPES else ""


def _names(root: ts.Node, package: str) -> TypeNames:
    """The file's imports (the standard library's as OUTSIDE), the package (its folder), the language's names."""
    imported, dot = imports(root)
    return TypeNames(
        {name: OUTSIDE if is_standard(path) else path.replace("/", ".") for name, path in imported.items()},
        package,
        outside=PREDECLARED_TYPES,
        is_type=_unexported if dot else _any_name,
        default_package=True,
        imports_qualify=True,
    )


def _unexported(name: str) -> bool:
    """Where a package is imported with `.`, an exported name the file does not declare may be that package's."""
    return not name[:1].isupper()


def _any_name(name: str) -> bool:
    return True


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`f(x)`, `(*Foo)(x)` -> (None, f); `a.m(x)` -> (a, m); a closure, a function held in a map, a call's result ->
    None."""
    if node.type != "call_expression":
        return None
    while True:
        if callee.type == "identifier":
            return None, node_text(callee)
        if callee.type == "selector_expression":
            operand, field = callee.child_by_field_name("operand"), callee.child_by_field_name("field")
            return (operand, node_text(field)) if operand is not None and field is not None else None
        inner = _inner(callee)
        if inner is None:
            return None
        callee = inner


def _inner(callee: ts.Node) -> ts.Node | None:
    """`(f)` -> f; `*Foo` of `(*Foo)(x)`, a conversion to a pointer type -> Foo."""
    if callee.type == "parenthesized_expression" and callee.named_child_count == 1:
        return callee.named_children[0]
    if callee.type == "unary_expression" and node_text(callee.child_by_field_name("operator")) == "*":
        return callee.child_by_field_name("operand")
    return None


def _constructed(node: ts.Node, callee: ts.Node) -> str:
    """A conversion `T(x)` and a literal `T{...}` construct a T."""
    return written(callee) if node.type in ("type_conversion_expression", "composite_literal") else ""


def _fields(node: ts.Node) -> list[tuple[str, ts.Node]]:
    """A struct type's fields (an embedded type's named after the type)."""
    body = node.child_by_field_name("type") if node.type == "type_spec" else None
    return list(struct_fields(body)) if body is not None and body.type == "struct_type" else []


def _owner(node: ts.Node) -> str:
    return read_owner(node) if node.type == "method_declaration" else ""


def _results(node: ts.Node) -> list[ts.Node | None] | None:
    """What a function, method or function type states it returns, in order."""
    if node.type not in ("function_declaration", "method_declaration", "function_type"):
        return None
    return list(results(node))


def _returned(node: ts.Node) -> ts.Node | None:
    if node.type not in ("function_declaration", "method_declaration"):
        return None
    return next(results(node), None)


def _callee(node: ts.Node) -> ts.Node | None:
    return node.child_by_field_name("function") if node.type == "call_expression" else None


def _access(node: ts.Node) -> tuple[ts.Node, str] | None:
    """`s.pool`, `store.Default` -> (what it is read of, the field)."""
    if node.type != "selector_expression":
        return None
    operand, field = node.child_by_field_name("operand"), node.child_by_field_name("field")
    return (operand, node_text(field)) if operand is not None and field is not None else None


def _made(node: ts.Node) -> ts.Node | None:
    """`Foo{}`, `T(x)`, `x.(T)`, `new(T)`, `make(T, n)` -> the node of the type."""
    if node.type in _MADE:
        return node.child_by_field_name("type")
    if node.type != "call_expression" or node_text(node.child_by_field_name("function")) not in ("new", "make"):
        return None
    arguments = node.child_by_field_name("arguments")
    return arguments.named_children[0] if arguments is not None and arguments.named_child_count else None


def _unwrap(node: ts.Node) -> ts.Node | None:
    """`(x)`, `&x`, `*x`, `x[a:b]`, `append(x, ...)` -> x, a value of x's type."""
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return node.named_children[0]
    if node.type == "call_expression" and node_text(node.child_by_field_name("function")) == "append":
        arguments = node.child_by_field_name("arguments")
        return arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
    if node.type == "unary_expression" and _operator(node) in ("&", "*"):
        return node.child_by_field_name("operand")
    return node.child_by_field_name("operand") if node.type == "slice_expression" else None


def _item(node: ts.Node) -> ts.Node | None:
    """`xs[i]`, `<-ch` -> the container one element of which it reads."""
    if node.type == "index_expression" or (node.type == "unary_expression" and _operator(node) == "<-"):
        return node.child_by_field_name("operand")
    return None


def _literal(node: ts.Node) -> bool:
    """A closure, a string or integer literal, an arithmetic or logical negation: a value of the language's types."""
    return node.type in _LITERALS or (node.type == "unary_expression" and _operator(node) not in ("&", "*", "<-"))


def _operator(node: ts.Node) -> str:
    return node_text(node.child_by_field_name("operator"))


def _element(node: ts.Node) -> tuple[ts.Node, int] | None:
    """`[]Job`, `[4]Job`, `map[string]Job`, `...Job` -> Job, the second variable of a `range` over it; `chan Job` ->
    Job, the first."""
    if node.type == "variadic_parameter_declaration":
        held = node.child_by_field_name("type")
        return (held, 1) if held is not None else None
    named = named_type(node)
    held = element_type(named) if named is not None else None
    if held is None or named is None:
        return None
    return held, 0 if named.type == "channel_type" else 1


def _aliased(node: ts.Node) -> ts.Node | None:
    return node.child_by_field_name("type") if node.type == "type_alias" else None


def _constructor(name: str) -> str:
    """`NewClient`: by Go convention a constructor of `Client`."""
    return name[3:] if is_constructor(name) else ""


RULES = ScopeRules(
    library_calls=BUILTINS,
    types=TYPES,
    functions=FUNCTIONS,
    methods=frozenset(),
    split=_split,
    constructed=_constructed,
    names=_names,
    written=written,
    bodies=FUNCTIONS,
    declared=_fields,
    owner=_owner,
    returned=_returned,
    callee=_callee,
    access=_access,
    locals=declarations,
    bases=_embedded,
    type_parameters=type_parameters,
    made=_made,
    unwrap=_unwrap,
    literal=_literal,
    library_methods=INTERFACE_METHODS,
    library_functions=BUILTINS,
    packages=True,
    field_calls=True,
    parameters_outside=True,
    globals=True,
    element=_element,
    item=_item,
    results=_results,
    constructor=_constructor,
    aliased=_aliased,
    is_entity=is_class,
)


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
        bind=rules_binder(RULES),
    )
}
