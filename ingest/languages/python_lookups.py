"""Methods looked up by a name built at run time: `getattr(self, f"visit_{kind}", None)`, `getattr(obj, "do_" + name)`,
and a method that returns such a lookup (a visitor's `get_visitor`). Only the syntax: which value is looked up and the
constant start of the name; the binder types the value and the indexer finds the methods so named."""

from __future__ import annotations

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.python_syntax import built_prefix, call_arguments, descendants
from trident.ingest.model import UPPER_CASE_MARK

QUOTES = ("'", '"')  # a plain string's opening: no prefix (f, b, r) and not triple-quoted


CASE_CHANGES = {"lower": str.lower, "upper": str.upper, "casefold": str.casefold}  # (`upper`: UPPER_CASE_MARK)
MAX_STEPS = 4  # locals and case changes followed back from a built name to where it is built


def built_lookup(call: ts.Node) -> tuple[ts.Node, str] | None:
    """`getattr(obj, <a name built from a constant start>, ...)`: (obj, the start); None for any other call. The name
    may be built in a local first and its case changed (`func_name = '_process_{cls}'.format(...)`, then
    `getattr(self, func_name.lower(), self._process_default)`)."""
    values = _getattr_arguments(call)
    prefix = _built_start(values[1], MAX_STEPS) if len(values) >= 2 else ""
    return (values[0], prefix) if prefix else None


def _built_start(value: ts.Node, steps: int) -> str:
    """The constant start of a built name, through a local the enclosing function gives it once and a change of case
    (`.lower()`); "" where it has none."""
    if steps and value.type == "identifier" and (function := _enclosing_function(value)) is not None:
        given = _only_value(function, value)
        return _built_start(given, steps - 1) if given is not value else ""
    function = value.child_by_field_name("function") if value.type == "call" else None
    attribute = function is not None and function.type == "attribute"
    method = function.child_by_field_name("attribute") if function is not None and attribute else None
    owner = function.child_by_field_name("object") if function is not None and attribute else None
    if steps and method is not None and owner is not None and node_text(method) in CASE_CHANGES:
        if call_arguments(value):
            return ""
        start = _built_start(owner, steps - 1)
        if node_text(method) == "upper":  # a name in capitals (pyflakes' `node_class.__name__.upper()`)
            return UPPER_CASE_MARK + start.removeprefix(UPPER_CASE_MARK).upper()
        return CASE_CHANGES[node_text(method)](start)
    return built_prefix(value)


def _enclosing_function(node: ts.Node) -> ts.Node | None:
    """The function definition a node is written in; None at a module's or class's top level."""
    parent = node.parent
    while parent is not None and parent.type not in ("function_definition", "class_definition", "module"):
        parent = parent.parent
    return parent if parent is not None and parent.type == "function_definition" else None


def named_lookup(call: ts.Node) -> tuple[ts.Node, str] | None:
    """`getattr(obj, "name")` or `getattr(obj, "name", default)`, a member read under another spelling: (obj, the
    name); None for any other call (a name built at run time included)."""
    values = _getattr_arguments(call)
    if len(values) < 2 or values[1].type != "string":
        return None
    parts = values[1].named_children
    if [p.type for p in parts] != ["string_start", "string_content", "string_end"] or node_text(parts[0]) not in QUOTES:
        return None
    name = node_text(parts[1])
    return (values[0], name) if name.isidentifier() else None


def _getattr_arguments(call: ts.Node) -> list[ts.Node]:
    """The arguments of a call of the builtin `getattr`, written in order; [] for any other call."""
    function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if call.type != "call" or function is None or node_text(function) != "getattr":
        return []
    return arguments.named_children if arguments is not None and arguments.type == "argument_list" else []


def returned_lookup(function: ts.Node, returned: list[ts.Node]) -> str:
    """The start of the names a method looks up on its own receiver and returns (`return getattr(self,
    f"visit_{kind}", None)`; `returned`: the values its `return`s give), "" when it returns no such lookup."""
    holder = function.child_by_field_name("parameters")
    first = holder.named_children[0] if holder is not None and holder.named_child_count else None
    if first is None or first.type != "identifier":
        return ""
    for value in returned:
        found = built_lookup(_only_value(function, value) if value.type == "identifier" else value)
        if found is not None and found[0].type == "identifier" and node_text(found[0]) == node_text(first):
            return found[1]
    return ""


def _only_value(function: ts.Node, name: ts.Node) -> ts.Node:
    """What the one assignment of a local in the function gives it (`found: Handler = getattr(self, ...)`, then
    `return found`); the name itself where it is assigned otherwise or more than once."""
    given = [
        right
        for node in descendants(function, "assignment")
        if (left := node.child_by_field_name("left")) is not None
        and left.type == "identifier"
        and node_text(left) == node_text(name)
        and (right := node.child_by_field_name("right")) is not None
    ]
    return given[0] if len(given) == 1 else name


def keyword_default(call: ts.Node, methods: frozenset[str]) -> ts.Node | None:
    """`kwargs.pop("spec", self.spec)`, `.get(...)`, `.setdefault(...)` on the `**` parameter of the function it is
    written in (`methods`: the lookups): the default, which says what the function takes the keyword's value to be
    (a caller passing that keyword passes one like it); None for any other call."""
    function = call.child_by_field_name("function")
    owner = function.child_by_field_name("object") if function is not None and function.type == "attribute" else None
    method = function.child_by_field_name("attribute") if owner is not None and function is not None else None
    given = call_arguments(call)
    if owner is None or method is None or node_text(method) not in methods or len(given) != 2:
        return None
    if owner.type != "identifier" or given[1].type == "keyword_argument":
        return None
    enclosing = _enclosing_function(call)
    return given[1] if enclosing is not None and node_text(owner) == _keywords_parameter(enclosing) else None


def _keywords_parameter(function: ts.Node) -> str:
    """The name of a function's `**` parameter; "" where it has none."""
    holder = function.child_by_field_name("parameters")
    for parameter in holder.named_children if holder is not None else []:
        splat = parameter.named_children[0] if parameter.type == "typed_parameter" else parameter
        if splat is not None and splat.type == "dictionary_splat_pattern" and splat.named_child_count:
            return node_text(splat.named_children[0])
    return ""
