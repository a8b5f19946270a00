"""JavaScript, TypeScript and TSX: one family of node types, three grammars. Calls and bases bound by scope and stated
type, by the rules of `javascript_rules` over the shared resolver's values variant (`rules_values`), with what each
name holds read by `javascript_names`:

- `this.m()` in a class's method, field or static block (arrow functions inside them included): member `m` of that
  class, looked up through its bases (exact); `super.m()`: the same lookup, starting after the class (exact); in a
  `function` (which rebinds `this`), a guess.
- a name the file binds: a definition of the module (`const f = () => ...` included), `import {a as b}`, `const {a} =
  require(...)` (exact), a default import as `{module}.{local name}` (inferred: the name it is exported by is not in
  this file); `ns.f()` through `import * as ns` or `const ns = require(...)` as `{module}.f`; `new Foo()` as Foo's
  name; `f.call(this, x)` as f.
- a receiver whose type the code states: a typed parameter, local or field (`x: Foo`, `private pool: Pool`,
  `constructor(private pool: Pool)`), `const x = new Foo()`, `this.pool = new Pool()` or `this.pool = pool` in a
  method, `(x as Foo)`, an item of a `Foo[]` in `for ... of`, a callback's untyped parameter as the function it is
  passed to states it (`F@0:1`, finished by the indexer from what F `held`): member `m` of that type (inferred).
  `Foo.m()` on a class of the file: its member (exact).
- an untyped receiver: the bare name, a guess the indexer keeps only when one entity of the project has it.
  Nothing at all for what only the runtime defines: `console.*`, `JSON.*`, `Object.keys(...)...`, a builtin
  method (`push`, `map`, `then`) on an untyped receiver, what a package's call gives (`z.string().min(1)`), a call
  of a local variable or parameter.
Specifiers become module names as files do: relative ones against the file's folder without the extension
(`./gateway.js` in `src/billing/orders.ts` -> `src.billing.gateway`), packages as written (`@nestjs/core` ->
`nestjs.core`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.binding import Bindings, Found
from trident.ingest.languages.rules_values import ValuesBinder

# Extensions an import may spell out; module entities are keyed by the path without one.
SCRIPT_EXTENSIONS = frozenset({".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"})
_LOADERS = frozenset({"require", "import"})


def _javascript() -> object:
    import tree_sitter_javascript

    return tree_sitter_javascript.language()


def _typescript() -> object:
    import tree_sitter_typescript

    return tree_sitter_typescript.language_typescript()


def _tsx() -> object:
    import tree_sitter_typescript

    return tree_sitter_typescript.language_tsx()


def resolve_specifier(specifier: str, path: str) -> str:
    """`./gateway.js` imported by billing/orders.ts -> billing/gateway; a package name stays as written."""
    if not specifier.startswith(("./", "../")) and specifier not in (".", ".."):
        return specifier
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), specifier))
    root, ext = posixpath.splitext(resolved)
    return root if ext in SCRIPT_EXTENSIONS else resolved


def _string(node: ts.Node | None) -> str:
    if node is None or node.type not in ("string", "template_string") or node.named_child_count > 1:
        return ""
    return node_text(node).strip("'\"`")


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """ES imports, re-exports (`export * from`), `import x = require(...)`, `require(...)` and `import(...)`."""
    if node.type == "call_expression":
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or node_text(function) not in _LOADERS or arguments is None:
            return []
        source = arguments.named_children[0] if arguments.named_child_count == 1 else None
    else:
        source = node.child_by_field_name("source")
        clause = next((c for c in node.named_children if c.type == "import_require_clause"), None)
        if source is None and clause is not None:
            source = clause.child_by_field_name("source")
    specifier = _string(source)
    return [resolve_specifier(specifier, path)] if specifier else []


def read_bases(node: ts.Node) -> list[str]:
    """`class A extends Base implements I, J` -> Base, I, J; `interface X extends A, B` -> A, B."""
    names: list[str] = []
    for child in node.named_children:
        if child.type == "class_heritage":
            clauses = [c for c in child.named_children if c.type in ("extends_clause", "implements_clause")]
            targets = [t for c in clauses for t in c.named_children] if clauses else child.named_children
        elif child.type == "extends_type_clause":
            targets = child.named_children
        else:
            continue
        names.extend(terminal_name(t) for t in targets if t.type != "type_arguments")
    return [n for n in dict.fromkeys(names) if n]


CLASSES = frozenset({"class_declaration", "abstract_class_declaration", "interface_declaration", "enum_declaration"})
FUNCTIONS = frozenset({"function_declaration", "generator_function_declaration", "function_signature"})
METHODS = frozenset({"method_definition", "method_signature", "abstract_method_signature"})
_ASSIGNMENTS = frozenset(
    {
        "lexical_declaration",
        "variable_declaration",
        "variable_declarator",
        "field_definition",
        "public_field_definition",
    }
)
FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})


def _bind(root: ts.Node, path: str, module: str, found: Sequence[Found]) -> Bindings:
    """The file bound by the values binder by JS/TS's rules, imported on first use: they read this module's node
    types."""
    from trident.ingest.languages.javascript_rules import RULES

    return ValuesBinder(RULES, root, module, path).bind(found)


def _spec(name: str, grammar: Callable[[], object]) -> LanguageSpec:
    return LanguageSpec(
        name=name,
        grammar=grammar,
        classes=CLASSES,
        functions=FUNCTIONS,
        methods=METHODS,
        wrappers=frozenset({"export_statement"}),
        assignments=_ASSIGNMENTS,
        function_values=FUNCTION_VALUES,
        class_values=frozenset({"class"}),
        calls={"call_expression": "function", "new_expression": "constructor"},
        imports=frozenset({"import_statement", "export_statement", "call_expression"}),
        skip_calls=frozenset({"require", "import", "super"}),
        read_imports=read_imports,
        read_bases=read_bases,
        bind=_bind,
    )


SPECS = {
    "javascript": _spec("javascript", _javascript),
    "typescript": _spec("typescript", _typescript),
    "tsx": _spec("tsx", _tsx),
}
