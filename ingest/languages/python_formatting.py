"""The methods formatting runs on the values it formats: `"%s: %r" % (a, b)` runs `a.__str__` and `b.__repr__`,
`"%d" % n` runs `n.__int__`, `"%(name)s" % {"name": x}` runs `x.__str__`, and `"{} {!r}".format(a, b)` runs
`a.__str__` and `b.__repr__` as an f-string's `{a} {b!r}` does.

Only a format written as a string literal is read (a format built at run time says nothing of which conversion runs
on which value); a conversion whose width or precision is taken from the values (`%*d`), a field reading an
attribute or an item of its value (`{0.name}`, `{a[0]}`) or one given a format spec (`{x:>10}`, which runs the
value's `__format__`) is left out, as is a bytes format (`b"%s" % x` runs `__bytes__`, or `__buffer__`)."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.python_syntax import call_arguments, written

# A `%` conversion: an optional mapping key, flags, width, precision, length modifier, and its type.
_PERCENT = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?[#0\- +]*(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d+))?[hlL]?(?P<type>[a-zA-Z%])"
)
# A conversion type -> the method it runs on a value that is not already of the builtin type it formats
PERCENT_RUNS = {
    "s": "__str__",
    "r": "__repr__",
    "a": "__repr__",
    "d": "__int__",
    "i": "__int__",
    "u": "__int__",
    "x": "__index__",
    "X": "__index__",
    "o": "__index__",
    "e": "__float__",
    "E": "__float__",
    "f": "__float__",
    "F": "__float__",
    "g": "__float__",
    "G": "__float__",
}
FIELD_RUNS = {None: "__str__", "s": "__str__", "r": "__repr__", "a": "__repr__"}  # `{x}`, `{x!s}`, `{x!r}`


def percent_runs(left: ts.Node, right: ts.Node) -> Iterator[tuple[ts.Node, str]]:
    """`"%s and %r" % (a, b)`: each value the format gives a conversion, with the method that conversion runs;
    nothing where the format is not a string literal or the values do not match its conversions as written."""
    text = literal_text(left)
    if text is None:
        return
    wanted = [m for m in _PERCENT.finditer(text) if m["type"] != "%"]
    if any("*" in (m["width"] or "", m["precision"] or "") for m in wanted):
        return
    keyed = [m for m in wanted if m["key"] is not None]
    if keyed:
        given = dict(_keyed_values(right)) if len(keyed) == len(wanted) else {}
        pairs = [(given.get(m["key"]), m["type"]) for m in keyed]
    else:
        values = _positional(right, len(wanted))
        pairs = list(zip(values, (m["type"] for m in wanted), strict=False)) if values else []
    for value, kind in pairs:
        if value is not None and kind in PERCENT_RUNS:
            yield value, PERCENT_RUNS[kind]


def format_runs(call: ts.Node) -> Iterator[tuple[ts.Node, str]]:
    """`"{} {!r}".format(a, b)`, `"{name}".format(name=x)`: each value a replacement field formats, with the method
    it runs; nothing for a format not written as a string literal, or when the arguments are unpacked."""
    function = call.child_by_field_name("function")
    if function is None or function.type != "attribute":
        return
    owner, method = function.child_by_field_name("object"), function.child_by_field_name("attribute")
    text = literal_text(owner) if owner is not None and method is not None and node_text(method) == "format" else None
    given = call_arguments(call)
    if text is None or any(a.type in ("list_splat", "dictionary_splat") for a in given):
        return
    positional = [a for a in given if a.type != "keyword_argument"]
    named = dict(_keywords(given))
    try:
        fields = [(name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(text)]
    except ValueError:  # (an unbalanced brace: the call raises)
        return
    automatic = 0
    for name, spec, conversion in fields:
        if name is None:
            continue
        if name == "":
            name, automatic = str(automatic), automatic + 1
        value = positional[int(name)] if name.isdigit() and int(name) < len(positional) else named.get(name)
        if value is not None and not spec and conversion in FIELD_RUNS:
            yield value, FIELD_RUNS[conversion]


def literal_text(node: ts.Node | None) -> str | None:
    """The text of a string literal (the parts of an implicitly concatenated one joined), escapes as written; None
    for anything else, an f-string or a bytes literal."""
    if node is None:
        return None
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        return literal_text(node.named_children[0])
    if node.type == "concatenated_string":
        parts = [literal_text(part) for part in node.named_children]
        return None if any(p is None for p in parts) else "".join(p or "" for p in parts)
    if node.type != "string" or any(c.type == "interpolation" for c in node.named_children):
        return None
    start = next((c for c in node.children if c.type == "string_start"), None)
    if start is None or "b" in node_text(start).lower():
        return None
    return "".join(node_text(c) for c in node.named_children if c.type in ("string_content", "escape_sequence"))


def _positional(right: ts.Node, count: int) -> list[ts.Node]:
    """The values a `%` format with `count` positional conversions is given: a tuple written out with that many
    items, or one value for one conversion (a name may hold a tuple: only a value the binder types is bound)."""
    if right.type == "parenthesized_expression" and right.named_child_count == 1:
        inner = right.named_children[0]
        if inner.type != "tuple":
            return [inner] if count == 1 else []
        right = inner
    if right.type == "tuple":
        items = written(right)
        return items if len(items) == count and all(c.type != "list_splat" for c in items) else []
    return [right] if count == 1 and right.type not in ("dictionary", "list", "list_comprehension") else []


def _keyed_values(right: ts.Node) -> Iterator[tuple[str, ts.Node]]:
    """The values of a dict literal with string keys, by key (`{"name": x}`); `dict(name=x)` too."""
    if right.type == "dictionary":
        for pair in written(right):
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            text = literal_text(key) if pair.type == "pair" else None
            if text is not None and value is not None:
                yield text, value
    elif right.type == "call" and node_text(right.child_by_field_name("function") or right) == "dict":
        yield from _keywords(call_arguments(right))


def _keywords(arguments: list[ts.Node]) -> Iterator[tuple[str, ts.Node]]:
    for argument in arguments:
        name, value = argument.child_by_field_name("name"), argument.child_by_field_name("value")
        if argument.type == "keyword_argument" and name is not None and value is not None:
            yield node_text(name), value
