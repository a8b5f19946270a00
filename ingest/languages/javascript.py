"""JavaScript, TypeScript and TSX: one family of node types, three grammars."""

from __future__ import annotations

import posixpath
from collections.abc import Callable

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.binding import SiteBinder

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


def _bind(root: ts.Node, path: str, module: str) -> SiteBinder:
    """The scope binder, imported on first use: it reads this module's node types."""
    from trident.ingest.languages.javascript_scope import bind_javascript

    return bind_javascript(root, path, module)


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
        binder=_bind,
    )


SPECS = {
    "javascript": _spec("javascript", _javascript),
    "typescript": _spec("typescript", _typescript),
    "tsx": _spec("tsx", _tsx),
}
