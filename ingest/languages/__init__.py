"""Per-language tree-sitter specs as data: which nodes define, call, import and inherit."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import tree_sitter as ts


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    grammar: Callable[[], Any]
    classes: frozenset[str]
    functions: frozenset[str]
    wrappers: frozenset[str] = frozenset()
    impls: frozenset[str] = frozenset()
    calls: dict[str, str] = field(default_factory=dict)
    imports: frozenset[str] = frozenset()
    comments: frozenset[str] = frozenset({"comment"})
    skip_calls: frozenset[str] = frozenset()
    variable_functions: frozenset[str] = frozenset()


def _grammar(module: str, function: str = "language") -> Callable[[], Any]:
    """A loader that imports the grammar package only when its language is first parsed."""

    def load() -> Any:
        return getattr(importlib.import_module(module), function)()

    return load


_py = _grammar("tree_sitter_python")
_js = _grammar("tree_sitter_javascript")
_ts = _grammar("tree_sitter_typescript", "language_typescript")
_tsx = _grammar("tree_sitter_typescript", "language_tsx")
_go = _grammar("tree_sitter_go")
_rust = _grammar("tree_sitter_rust")
_java = _grammar("tree_sitter_java")


PYTHON_BUILTINS = frozenset(
    [
        "print",
        "len",
        "isinstance",
        "issubclass",
        "str",
        "int",
        "float",
        "bool",
        "dict",
        "list",
        "set",
        "tuple",
        "range",
        "super",
        "type",
        "getattr",
        "setattr",
        "hasattr",
        "enumerate",
        "zip",
        "map",
        "filter",
        "sorted",
        "reversed",
        "min",
        "max",
        "sum",
        "abs",
        "any",
        "all",
        "repr",
        "open",
        "iter",
        "next",
        "id",
        "hash",
        "round",
        "format",
        "vars",
        "object",
        "staticmethod",
        "classmethod",
        "property",
        "ValueError",
        "TypeError",
        "KeyError",
        "RuntimeError",
        "Exception",
    ]
)

_JS_CLASSES = frozenset({"class_declaration", "class", "abstract_class_declaration", "interface_declaration"})
_JS_CALLS = {"call_expression": "function", "new_expression": "constructor"}

SPECS: dict[str, LanguageSpec] = {
    "python": LanguageSpec(
        "python",
        _py,
        frozenset({"class_definition"}),
        frozenset({"function_definition"}),
        wrappers=frozenset({"decorated_definition"}),
        calls={"call": "function"},
        imports=frozenset({"import_statement", "import_from_statement"}),
        skip_calls=PYTHON_BUILTINS,
    ),
    "javascript": LanguageSpec(
        "javascript",
        _js,
        _JS_CLASSES,
        frozenset({"function_declaration", "method_definition", "generator_function_declaration"}),
        wrappers=frozenset({"export_statement"}),
        calls=_JS_CALLS,
        imports=frozenset({"import_statement"}),
        variable_functions=frozenset({"lexical_declaration", "variable_declaration"}),
    ),
    "typescript": LanguageSpec(
        "typescript",
        _ts,
        _JS_CLASSES,
        frozenset({"function_declaration", "method_definition", "generator_function_declaration"}),
        wrappers=frozenset({"export_statement"}),
        calls=_JS_CALLS,
        imports=frozenset({"import_statement"}),
        variable_functions=frozenset({"lexical_declaration", "variable_declaration"}),
    ),
    "go": LanguageSpec(
        "go",
        _go,
        frozenset({"type_spec"}),
        frozenset({"function_declaration", "method_declaration"}),
        wrappers=frozenset({"type_declaration"}),
        calls={"call_expression": "function"},
        imports=frozenset({"import_spec"}),
    ),
    "rust": LanguageSpec(
        "rust",
        _rust,
        frozenset({"struct_item", "enum_item", "trait_item"}),
        frozenset({"function_item"}),
        impls=frozenset({"impl_item"}),
        calls={"call_expression": "function"},
        imports=frozenset({"use_declaration"}),
        comments=frozenset({"line_comment", "block_comment"}),
    ),
    "java": LanguageSpec(
        "java",
        _java,
        frozenset({"class_declaration", "interface_declaration", "enum_declaration", "record_declaration"}),
        frozenset({"method_declaration", "constructor_declaration"}),
        calls={"method_invocation": "name", "object_creation_expression": "type"},
        imports=frozenset({"import_declaration"}),
        comments=frozenset({"line_comment", "block_comment"}),
    ),
}
SPECS["tsx"] = LanguageSpec(**{**SPECS["typescript"].__dict__, "name": "tsx", "grammar": _tsx})

SUPPORTED_LANGUAGES = frozenset(SPECS)


@cache
def parser_for(language: str) -> ts.Parser:
    """A parser per language, built once (tree-sitter parsers are cheap to reuse, costly to build)."""
    return ts.Parser(ts.Language(SPECS[language].grammar()))
