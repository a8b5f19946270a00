"""Methods that give back their receiver or a copy of it, with no annotation saying so: `return self` (a builder's
`set_name`), `return self.__class__(...)`, `type(self)(...)`, `copy.copy(self)`. Such a method returns an instance of
its class, as `-> Self` says, so `w.set_name("x").parse()` calls the class's `parse`."""

from __future__ import annotations

from collections.abc import Callable

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.python_syntax import call_arguments

COPIES = frozenset({"copy.copy", "copy.deepcopy"})  # a shallow or deep copy of the object they are given
NEUTRAL = frozenset({"none", "NotImplemented"})  # returns that give no instance (`return NotImplemented` in `__eq__`)


def gives_receiver(
    returned: list[ts.Node], receiver: str, qualified: Callable[[str], str], own: Callable[[str], bool]
) -> bool:
    """Whether every value a method's `return`s give, past None and NotImplemented, is its receiver or a new instance
    of the receiver's class, and at least one is. `qualified` names what a name of the file is bound to (`copy.copy`);
    `own` tells whether a method of the class, by name, is itself one of these (`return self.copy()`)."""
    values = [v for v in returned if v.type not in NEUTRAL and node_text(v) not in NEUTRAL]
    return bool(values) and all(_is_receiver(v, receiver, qualified, own) for v in values)


def _is_receiver(value: ts.Node, receiver: str, qualified: Callable[[str], str], own: Callable[[str], bool]) -> bool:
    while value.type == "parenthesized_expression" and value.named_child_count == 1:
        value = value.named_children[0]
    if value.type == "identifier":
        return node_text(value) == receiver
    function = value.child_by_field_name("function") if value.type == "call" else None
    if function is None:
        return False
    owner = function.child_by_field_name("object") if function.type == "attribute" else None
    if owner is not None and owner.type == "identifier" and node_text(owner) == receiver:
        name = node_text(function.child_by_field_name("attribute"))
        return name == "__class__" or own(name)  # `self.__class__(...)`, `self.copy()`
    if function.type == "call":  # `type(self)(...)`
        inner = function.child_by_field_name("function")
        return inner is not None and node_text(inner) == "type" and _names(call_arguments(function), receiver)
    return qualified(node_text(function)) in COPIES and _names(call_arguments(value), receiver)  # `copy.copy(self)`


def _names(given: list[ts.Node], receiver: str) -> bool:
    """Whether a call's only argument is the receiver (`copy(self)`, `type(self)`)."""
    return len(given) == 1 and given[0].type == "identifier" and node_text(given[0]) == receiver
