"""Which parameter each argument of a call fills: a function's signature as a call sees it, and the arguments of a
call matched to it by position and by keyword (`f(a, cb=g)`), the way Python binds them."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.python_syntax import callable_only, star_name
from trident.ingest.model import passed_slot

MAX_PASSED = 4  # a parameter given more values than this is not one thing a call can be bound to
INSTANCE, HELD = "instance", "held"  # what a call passes: a value of a class, or a class or function itself
GENERATOR = "generator"  # ... or what a call of a generator function gives (its body runs where it is consumed)
DECORATED = "decorated"  # ... or the function a decorator is applied to (a function itself, as HELD)
OWN_CODE = "own code"  # ... or a lambda or nested `def` written in a function: that function's code (as HELD here)
MAX_WRAPPED = 64  # a decorator applied to more than MAX_PASSED functions: its wrapper calls any of at most this many
# function -> parameter -> what the file's calls pass it, each (INSTANCE or HELD, qualified name)
Passed = dict[str, dict[str, frozenset[tuple[str, str]]]]
_NAMED_PARAMETERS = frozenset({"typed_parameter", "typed_default_parameter", "default_parameter"})
_POSITIONAL_ENDS = frozenset({"list_splat_pattern", "keyword_separator", "dictionary_splat_pattern"})


@dataclass(frozen=True)
class Signature:
    """The parameters a call can fill: those filled by position, in order, then those only a keyword fills."""

    positional: tuple[str, ...]
    keyword_only: frozenset[str]
    bound_first: bool  # a method's first parameter (`self`, a classmethod's `cls`) is filled by the call's receiver
    untyped: frozenset[str]  # parameters no annotation types as a class (`Callable[...]` too: see the binder)

    def filled(self, call: ts.Node, receiver_given: bool) -> list[tuple[str, ts.Node]]:
        """(parameter, argument) for each argument of `call` this signature places; `receiver_given` when the call
        fills the first parameter with its receiver (`obj.m(x)`, `Class(x)` for `__init__`). Nothing is placed after
        an unpacked argument (`*xs`), whose length the code does not state."""
        arguments = call.child_by_field_name("arguments")
        if arguments is None or arguments.type != "argument_list":
            return []
        positional = self.positional[1:] if receiver_given and self.bound_first else self.positional
        placed: list[tuple[str, ts.Node]] = []
        index = 0
        for argument in arguments.named_children:
            if argument.type == "keyword_argument":
                name = node_text(argument.child_by_field_name("name"))
                value = argument.child_by_field_name("value")
                if value is not None and (name in positional or name in self.keyword_only):
                    placed.append((name, value))
            elif argument.type in ("list_splat", "dictionary_splat"):
                index = len(positional)
            elif argument.type != "comment" and index < len(positional):
                placed.append((positional[index], argument))
                index += 1
        return placed


def signature(function: ts.Node, method: bool) -> Signature:
    """The signature of a `def` node; `method` when it is defined in a class body and is not a staticmethod."""
    holder = function.child_by_field_name("parameters")
    positional: list[str] = []
    keyword_only: set[str] = set()
    untyped: set[str] = set()
    ended = False
    for parameter in holder.named_children if holder is not None else []:
        if parameter.type in _POSITIONAL_ENDS or star_name(parameter):  # (`*fns: ParseAction` too)
            ended = True
            continue
        name = _parameter_name(parameter)
        if name and ended:
            keyword_only.add(name)
        elif name:
            positional.append(name)
        if name and (
            parameter.child_by_field_name("type") is None or callable_only(parameter.child_by_field_name("type"))
        ):
            untyped.add(name)
    return Signature(tuple(positional), frozenset(keyword_only), method and bool(positional), frozenset(untyped))


def call_slots(call: ts.Node, *, receiver_first: bool = False) -> list[tuple[str, ts.Node]]:
    """(slot, argument) for each argument of a call as the indexer places it in the called function's parameters:
    by place after any receiver (`(>0)`), up to an unpacked argument (`*xs`, whose length the code does not state),
    and by keyword (`(>cache)`); `receiver_first` when the first argument fills the receiver (`Base.__init__(self,
    x)`: x is at place 0)."""
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.type != "argument_list":
        return []
    found: list[tuple[str, ts.Node]] = []
    place: int | None = -1 if receiver_first else 0
    for argument in arguments.named_children:
        if argument.type == "keyword_argument":
            name, value = argument.child_by_field_name("name"), argument.child_by_field_name("value")
            if name is not None and value is not None:
                found.append((passed_slot(node_text(name)), value))
        elif argument.type in ("list_splat", "dictionary_splat"):
            place = None
        elif argument.type != "comment" and place is not None:
            if place >= 0:
                found.append((passed_slot(place), argument))
            place += 1
    return found


def _parameter_name(parameter: ts.Node) -> str:
    if parameter.type == "identifier":
        return node_text(parameter)
    if parameter.type not in _NAMED_PARAMETERS:
        return ""
    name = parameter.child_by_field_name("name") or next(
        (c for c in parameter.named_children if c.type == "identifier"), None
    )
    return node_text(name) if name is not None and name.type == "identifier" else ""


def passed_as(values: frozenset[tuple[str, str]], kind: str) -> list[str]:
    """The qualified names a parameter is passed when every value passed is of one kind, sorted; [] otherwise (a
    function a decorator is applied to is passed HELD)."""
    kinds = {HELD if k in (DECORATED, OWN_CODE) else k for k, _ in values}
    if not values or len(values) > MAX_PASSED or kinds != {kind}:
        return []
    return sorted({name for _, name in values})


def wrapped_by(values: frozenset[tuple[str, str]]) -> list[str]:
    """The functions a decorator applied more widely than MAX_PASSED is applied to, when nothing else is passed its
    parameter: what its wrapper's call of the parameter may run, one function per wrapper made; [] otherwise."""
    if len(values) <= MAX_PASSED or len(values) > MAX_WRAPPED or any(k != DECORATED for k, _ in values):
        return []
    return sorted(name for _, name in values)
