"""Python: classes, functions and methods, decorators kept with their definition, docstrings as descriptions."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

import tree_sitter as ts

from trident.ingest.languages import LanguageSpec, node_text, terminal_name
from trident.ingest.languages.binding import Bindings, Found

# Calls to these name no project symbol; keeping them would only add edges the indexer must drop.
BUILTINS = frozenset(
    {
        "abs",
        "all",
        "any",
        "bool",
        "bytes",
        "callable",
        "chr",
        "classmethod",
        "delattr",
        "dict",
        "dir",
        "divmod",
        "enumerate",
        "filter",
        "float",
        "format",
        "frozenset",
        "getattr",
        "globals",
        "hasattr",
        "hash",
        "hex",
        "id",
        "input",
        "int",
        "isinstance",
        "issubclass",
        "iter",
        "len",
        "list",
        "locals",
        "map",
        "max",
        "min",
        "next",
        "object",
        "open",
        "ord",
        "pow",
        "print",
        "property",
        "range",
        "repr",
        "reversed",
        "round",
        "set",
        "setattr",
        "slice",
        "sorted",
        "staticmethod",
        "str",
        "sum",
        "super",
        "tuple",
        "type",
        "vars",
        "zip",
        "__init__",
        "__new__",
        "__post_init__",
        "__init_subclass__",
        "Exception",
        "BaseException",
        "ValueError",
        "TypeError",
        "KeyError",
        "IndexError",
        "RuntimeError",
        "AttributeError",
        "NotImplementedError",
        "StopIteration",
        "OSError",
        "",
    }
)


def _grammar() -> object:
    import tree_sitter_python

    return tree_sitter_python.language()


def _dotted(node: ts.Node) -> str:
    """`a.b` from `a.b` or from `a.b as c`."""
    if node.type == "aliased_import":
        return node_text(node.child_by_field_name("name"))
    return node_text(node)


def relative_package(path: str, dots: int) -> list[str] | None:
    """The package `from .` (one dot per level) names in this file, or None when it climbs past the root.

    A file's package is its folder, for `billing/__init__.py` as much as for `billing/orders.py`.
    """
    parts = [p for p in posixpath.dirname(path).split("/") if p]
    up = dots - 1
    if up > len(parts):
        return None
    return parts[: len(parts) - up]


def read_imports(node: ts.Node, path: str, module: str) -> list[str]:
    """`import a.b as c` -> a.b; `from .gateway import X` in billing/orders.py -> billing.gateway.

    `from . import gateway` names the package and, since what it imports is usually a submodule, also
    `billing.gateway`; the indexer drops whichever names no module.
    """
    names = [_dotted(n) for n in node.children_by_field_name("name")]
    if node.type == "import_statement":
        return [n for n in names if n]
    source = node.child_by_field_name("module_name")
    if source is None:
        return []
    if source.type != "relative_import":
        return [node_text(source)]
    prefix = next((c for c in source.named_children if c.type == "import_prefix"), None)
    rest = next((node_text(c) for c in source.named_children if c.type == "dotted_name"), "")
    package = relative_package(path, len(node_text(prefix).strip()))
    if package is None:
        return [node_text(source)]
    if rest:
        return [".".join([*package, rest])]
    targets = [".".join(package)] if package else []
    return targets + [".".join([*package, n]) for n in names if n]


def read_bases(node: ts.Node) -> list[str]:
    """`class A(Base, mixins.Loggable, Generic[T], metaclass=M)` -> Base, Loggable, Generic."""
    holder = node.child_by_field_name("superclasses")
    if holder is None:
        return []
    names = (terminal_name(c) for c in holder.named_children if c.type != "keyword_argument")
    return [n for n in names if n and n != "object"]


def bind(root: ts.Node, path: str, module: str, found: Sequence[Found]) -> Bindings:
    """The file bound by Python's binder, which walks its scopes itself: a Python file's types are mostly inferred from
    how values flow (what a call passes, what a branch assigns, what a decorator wraps), not read at a site."""
    from trident.ingest.languages.python_scope import bind_python  # it reads this module's tables

    return bind_python(root, path, module)


SPECS = {
    "python": LanguageSpec(
        name="python",
        grammar=_grammar,
        classes=frozenset({"class_definition"}),
        functions=frozenset({"function_definition"}),
        wrappers=frozenset({"decorated_definition"}),
        calls={"call": "function"},
        imports=frozenset({"import_statement", "import_from_statement"}),
        skip_calls=BUILTINS,
        docstrings=True,
        read_imports=read_imports,
        read_bases=read_bases,
        bind=bind,
    )
}
