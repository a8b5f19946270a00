"""C: functions (their name read inside the declarator: `static int *make(void)`), structs, unions and enums with a
body; the comment above a definition as its description; `#include` as imports (a quoted path from the including
file's folder and as written, an angle-bracketed one as written).

Calls are bound by what C states (`scope_rules`): a function the file defines is that definition (`exact`); any
other bare call is the project's one function of that name at a file's top level, the one the linker binds
(`inferred`; a name two files define is left out). A call of a parameter or local (`cb(x)`) or through a struct
field (`ops->write(b)`) is a call of a function pointer's value: no edge."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, field_name, node_text, parser_for
from trident.ingest.languages.c_conditionals import first_branches
from trident.ingest.languages.rules_binder import rules_binder
from trident.ingest.languages.scope_rules import ScopeRules, within
from trident.store.names.code_paths import module_name

TYPES = frozenset({"struct_specifier", "union_specifier", "enum_specifier"})
FUNCTIONS = frozenset({"function_definition", "preproc_function_def"})  # a function-like macro is called as one
MACRO_FUNCTION = "__trident_macro"  # the function a macro's body is parsed as
# Declarators that wrap the name they declare: `*make(void)`, `(*handler)(int)`, `table[4]`, `x = 1`.
_WRAPPERS = frozenset(
    {
        "function_declarator",
        "pointer_declarator",
        "parenthesized_declarator",
        "array_declarator",
        "init_declarator",
        "attributed_declarator",
        "reference_declarator",  # C++'s `Foo& f`
    }
)
_DECLARED = frozenset({"identifier", "field_identifier"})


def _grammar() -> object:
    import tree_sitter_c

    return tree_sitter_c.language()


def one_configuration(source: bytes) -> list[bytes]:
    """A C file that does not parse is also read with each unbalanced conditional kept at its first branch."""
    return [first_branches(source)]


def declared_name(declarator: ts.Node | None) -> str:
    """The identifier a declarator declares: `*make(void)` -> make, `(*on_read)(int)` -> on_read."""
    while declarator is not None and declarator.type in _WRAPPERS:
        inner = declarator.child_by_field_name("declarator")
        declarator = inner if inner is not None else next(iter(declarator.named_children), None)
    return node_text(declarator) if declarator is not None and declarator.type in _DECLARED else ""


def read_name(node: ts.Node) -> str:
    """A function's name from its declarator; a struct's, union's or enum's from its name."""
    if node.type == "function_definition":
        return declared_name(node.child_by_field_name("declarator"))
    return field_name(node)


def macro_body_of(language: str) -> Callable[[ts.Node], ts.Node | None]:
    """What reads a function-like macro's body as code of `language` (`#define PUSH(s, v) (extend(s) ? ... : 0)`):
    parsed as the body of a function of the macro's parameters, each line on the row it is written on."""

    def macro_body(node: ts.Node) -> ts.Node | None:
        body = node.child_by_field_name("value")
        if node.type != "preproc_function_def" or body is None:
            return None
        parameters = node_text(node.child_by_field_name("parameters")) or "()"
        code = node_text(body).replace("\\\n", " \n")
        text = "\n" * body.start_point.row + f"void {MACRO_FUNCTION}{parameters} {{ {code};\n}}"
        return parser_for(language).parse(text.encode("utf-8")).root_node

    return macro_body


def has_body(node: ts.Node) -> bool:
    """A definition, not a use: `struct buf { ... }`, not `struct buf *b`."""
    return node.child_by_field_name("body") is not None


def _split(node: ts.Node, callee: ts.Node) -> tuple[ts.Node | None, str] | None:
    """`helper(x)` -> (None, helper); a call through a pointer (`ops->write(b)`, `(*fp)(x)`) names no function."""
    return (None, node_text(callee)) if callee.type == "identifier" else None


def declared(node: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """A function's parameters and locals: (name, the type node it is declared with; an old-style parameter's own
    name until its declaration below the parameter list states its type)."""
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    parameters = declarator.child_by_field_name("parameters") if declarator is not None else None
    listed = parameters.named_children if parameters is not None else []
    yield from ((node_text(p), p) for p in listed if p.type == "identifier")  # `f(a, b) int a; char *b; {`
    found = [
        *listed,
        *(d for d in node.named_children if d.type == "declaration"),
        *(d for d in within(node.child_by_field_name("body"), FUNCTIONS) if d.type == "declaration"),
    ]
    for declaration in found:
        kind = declaration.child_by_field_name("type")
        for written in declaration.children_by_field_name("declarator"):
            if kind is not None and (name := declared_name(written)):
                yield name, kind


RULES = ScopeRules(
    types=TYPES,
    functions=FUNCTIONS,
    split=_split,
    bodies=FUNCTIONS,
    blocks=frozenset({"compound_statement"}),
    declared=declared,
    name=read_name,
    linked=True,
)


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`#include "util/buf.h"` in `src/a.c` -> src.util.buf.h (beside the file) and util.buf.h (from an include
    folder); `#include <zlib.h>` -> zlib.h."""
    target = node.child_by_field_name("path")
    if target is None:
        return []
    if target.type == "system_lib_string":
        return [module_name(node_text(target).strip("<>"))]
    written = "".join(node_text(c) for c in target.named_children if c.type == "string_content")
    if not written:
        return []
    beside = posixpath.normpath(posixpath.join(posixpath.dirname(path), written))
    return list(dict.fromkeys(module_name(p) for p in (beside, written) if not p.startswith("../")))


SPECS = {
    "c": LanguageSpec(
        name="c",
        grammar=_grammar,
        classes=TYPES,
        functions=FUNCTIONS,
        calls={"call_expression": "function"},
        imports=frozenset({"preproc_include"}),
        accepts_class=has_body,
        read_imports=read_imports,
        read_name=read_name,
        bind=rules_binder(RULES),
        readings=one_configuration,
        read_body=macro_body_of("c"),
        alternatives=("cpp",),
    )
}
