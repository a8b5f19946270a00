"""Per-language tree-sitter specs as data: which nodes define, call, import and inherit.

Each language module (``python``, ``javascript``, ``go``, ``rust``, ``java``, ``csharp``, ``php``, ``ruby``,
``c``, ``cpp``, ``bash``, ``lua``, ``kotlin``, ``swift``, ``scala``) exports ``SPECS``; they are imported on first
use, so a run over Go code never loads the Java grammar. The few things that no table of node types can say (how an
import names a module, which types a class extends, a Go method's receiver) are small functions the spec carries.
"""

from __future__ import annotations

import importlib
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache

import tree_sitter as ts

from trident.ingest.languages.binding import FileBinder

__all__ = [
    "SUPPORTED_LANGUAGES",
    "LanguageSpec",
    "field_name",
    "node_text",
    "parser_for",
    "spec_for",
    "terminal_name",
]

# language -> the module under trident.ingest.languages whose SPECS describe it
_MODULES: Mapping[str, str] = {
    "python": "python",
    "javascript": "javascript",
    "typescript": "javascript",
    "tsx": "javascript",
    "go": "go",
    "rust": "rust",
    "java": "java",
    "csharp": "csharp",
    "php": "php",
    "ruby": "ruby",
    "c": "c",
    "cpp": "cpp",
    "bash": "bash",
    "lua": "lua",
    "kotlin": "kotlin",
    "swift": "swift",
    "scala": "scala",
}
SUPPORTED_LANGUAGES = frozenset(_MODULES)
_PARSERS = threading.local()  # each thread's parser of each language

# (import node, file path, file's module name) -> modules it names, relative ones made absolute
ImportReader = Callable[[ts.Node, str, str], list[str]]
# class-like node -> the type names it extends or implements, as written (last identifier)
BaseReader = Callable[[ts.Node], list[str]]
# method declared outside its type (Go receivers) -> that type's name, "" for a plain function
OwnerReader = Callable[[ts.Node], str]
# (callee node, enclosing type name) -> the name a call is made by
CalleeReader = Callable[[ts.Node, str], str]
# definition node -> the name it defines, as written ("" for none)
NameReader = Callable[[ts.Node], str]


def node_text(node: ts.Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text is not None else ""


_IDENTIFIER = re.compile(r"[A-Za-z_$#][\w$]*")
# Fields that hold the member actually named: `a.b.charge` -> charge, `pkg.Type` -> Type.
_MEMBER_FIELDS = ("name", "attribute", "property", "field")
# Wrappers whose first named child is the name: `Foo<T>`, `New[int]`, `*Adapter`, `Base[T]`, `(f)`.
_UNWRAP = frozenset(
    {
        "generic_type",
        "generic_function",
        "index_expression",
        "subscript",
        "pointer_type",
        "parenthesized_expression",
        "non_null_expression",
        "type_instantiation_expression",
        "instantiation_expression",
        "reference_type",
    }
)
# Paths whose last named child is the name, in grammars that give them no field (Java `a.b.Foo`).
_PATHS = frozenset({"scoped_type_identifier", "scoped_identifier", "qualified_type", "nested_identifier", "user_type"})


def terminal_name(node: ts.Node | None) -> str:
    """The last identifier of a name as written: `self.gateway.charge` -> `charge`, `Foo<T>` -> `Foo`.

    Anything that is not a name (a call's result, a literal, a lambda) gives "", so callers can skip it.
    """
    while node is not None:
        if node.named_child_count == 0:
            text = node_text(node)
            return text if _IDENTIFIER.fullmatch(text) else ""
        member = next((m for f in _MEMBER_FIELDS if (m := node.child_by_field_name(f)) is not None), None)
        if member is not None:
            node = member
        elif node.type in _UNWRAP:
            node = node.named_children[0]
        elif node.type in _PATHS:  # (Swift's `Outer.Inner<T>`: Inner)
            node = [c for c in node.named_children if c.type != "type_arguments"][-1]
        else:
            return ""
    return ""


def field_name(node: ts.Node) -> str:
    """The name a definition's `name` field (a JavaScript field's `property`) holds."""
    return node_text(node.child_by_field_name("name") or node.child_by_field_name("property"))


def _no_imports(node: ts.Node, path: str, module: str) -> list[str]:
    return []


def _no_bases(node: ts.Node) -> list[str]:
    return []


def _callee(node: ts.Node, self_type: str) -> str:
    return terminal_name(node)


def _any_class(node: ts.Node) -> bool:
    return True


@dataclass(frozen=True)
class LanguageSpec:
    """How one grammar spells definitions, calls and imports.

    `functions` define a function at the top level and a method inside a class; `methods` only count inside
    a class (JS `method_definition` also appears in object literals). `containers` are blocks that are one
    chunk but no entity: a Rust `impl` (its field names the type whose methods it holds) or inline `mod`.
    `assignments` are declarations like `const f = () => ...` whose value may be a function or a class.
    Calls and bases are bound by scope and type by `bind` (the whole file at once, given what the outline found in
    it); a language without one names them as written.
    """

    name: str
    grammar: Callable[[], object]
    classes: frozenset[str]
    functions: frozenset[str] = frozenset()
    methods: frozenset[str] = frozenset()
    wrappers: frozenset[str] = frozenset()
    containers: Mapping[str, str] = field(default_factory=dict)
    impls: frozenset[str] = frozenset()
    assignments: frozenset[str] = frozenset()
    function_values: frozenset[str] = frozenset()
    class_values: frozenset[str] = frozenset()
    calls: Mapping[str, str] = field(default_factory=dict)
    imports: frozenset[str] = frozenset()
    comments: frozenset[str] = frozenset({"comment"})
    namespaces: frozenset[str] = frozenset()  # nodes naming the namespace of what they hold or what follows them
    attributes: frozenset[str] = frozenset()
    skip_calls: frozenset[str] = frozenset()
    docstrings: bool = False
    accepts_class: Callable[[ts.Node], bool] = _any_class
    read_imports: ImportReader = _no_imports
    read_bases: BaseReader = _no_bases
    read_owner: OwnerReader | None = None
    # A function -> the type it extends, by its short name (C#'s `static uint Read(this IReader r)`): it also answers
    # to `IReader.Read`, as a member of that type
    read_extended: Callable[[ts.Node], str] | None = None
    read_callee: CalleeReader = _callee
    read_name: NameReader = field_name  # C's functions are named inside their declarator
    # A definition whose body the grammar leaves as text (a C macro's) -> that body parsed, on the rows it is on
    read_body: Callable[[ts.Node], ts.Node | None] | None = None
    # The text to parse, of the same length (C++: an export macro between `class` and its name blanked)
    plain_text: Callable[[bytes], bytes] | None = None
    # Other texts of a file with the same rows, read instead when one parses with fewer errors (C: one configuration;
    # C++: also its annotation macros blanked)
    readings: Callable[[bytes], list[bytes]] | None = None
    # Other languages a header of this one may be written in (C's `.h`: a C++ header), read as one of them when it has
    # that language's `marks` and parses with fewer errors
    alternatives: tuple[str, ...] = ()
    marks: re.Pattern[bytes] | None = None  # text only this language writes (C++'s `class`, `namespace`, `public:`)
    bind: FileBinder | None = None


def spec_for(language: str) -> LanguageSpec:
    """The spec for a language name as the walker reports it.

    Raises:
        ValueError: the language has no grammar here; the message lists the ones that do.
    """
    module = _MODULES.get(language)
    if module is None:
        raise ValueError(f"no grammar for language {language!r}; supported: {', '.join(sorted(_MODULES))}")
    return _load_specs(module)[language]


@cache
def _load_specs(module: str) -> Mapping[str, LanguageSpec]:
    specs: Mapping[str, LanguageSpec] = importlib.import_module(f"{__name__}.{module}").SPECS
    return specs


@cache
def language_for(language: str) -> ts.Language:
    """The tree-sitter grammar of a language, for queries over its trees."""
    return ts.Language(spec_for(language).grammar())


def parser_for(language: str) -> ts.Parser:
    """The parser of a language, built once per thread that parses (a parser is not shared between threads that
    parse at once) over its grammar, which is loaded once (`language_for`)."""
    parsers: dict[str, ts.Parser] = _PARSERS.__dict__.setdefault("by_language", {})
    parser = parsers.get(language)
    if parser is None:
        parser = parsers[language] = ts.Parser(language_for(language))
    return parser
