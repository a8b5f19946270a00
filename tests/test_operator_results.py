"""What an operator gives is what the left operand's method for it says it returns (pyparsing's `(Literal("a") +
"::" + Literal("b")).set_name("addr")`, `__add__` stating `-> ParserElement`): a call on the result, or on a variable
given it, binds to that class's method, through the operand class's base, in the file defining it or another. A
class whose operator states no return gives nothing known. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_edges

GRAMMAR = {
    "pp/__init__.py": "",
    "pp/core.py": (
        "from __future__ import annotations\n\n\n"
        "class ParserElement:\n"
        "    def __add__(self, other) -> ParserElement:\n"
        "        return And([self, other])\n\n"
        "    def set_name(self, name) -> ParserElement:\n"
        "        return self\n\n"
        "    def add_condition(self, fn) -> ParserElement:\n"
        "        return self\n\n\n"
        "class And(ParserElement):\n"
        "    def __init__(self, exprs):\n"
        "        self.exprs = exprs\n\n\n"
        "class Literal(ParserElement):\n"
        "    def __init__(self, s):\n"
        "        self.s = s\n\n\n"
        "class Vague:\n"
        "    def __add__(self, other):\n"
        "        return other\n\n"
        "    def set_name(self, name):\n"
        "        return self\n\n\n"
        "def address():\n"
        "    addr = (Literal('a') + '::' + Literal('b')).set_name('addr')\n"
        "    addr.add_condition(len)\n"
        "    return addr\n\n\n"
        "def vague():\n"
        "    return (Vague() + 1).set_name('v')\n"
    ),
    "pp/common.py": (
        "from pp.core import Literal\n\n\n"
        "def fraction():\n"
        "    ratio = Literal('1') + '/' + Literal('2')\n"
        "    return ratio.add_condition(bool)\n"
    ),
}
CORE = "pp.core.ParserElement"


def test_an_operators_result_is_what_its_method_says_it_returns(tmp_path: Path) -> None:
    callers = ["function:pp:pp.core.address", "function:pp:pp.common.fraction", "function:pp:pp.core.vague"]
    found = project_edges(tmp_path, "pp", GRAMMAR, callers, relation_types=["CALLS"])
    address, fraction, vague = (found[c] for c in callers)
    assert address.get(("CALLS", f"{CORE}.set_name")) == "inferred"  # `(a + "::" + b).set_name(...)`
    assert address.get(("CALLS", f"{CORE}.add_condition")) == "inferred"  # on the variable given it
    assert fraction.get(("CALLS", f"{CORE}.add_condition")) == "inferred"  # the class of another file
    assert vague.get(("CALLS", "pp.core.Vague.set_name"), "name") == "name"  # `__add__` says nothing it returns


SETS = {
    "ms/__init__.py": "",
    "ms/schema.py": (
        "import typing\n"
        "from collections.abc import MutableSet\n\n\n"
        "class OrderedSet(MutableSet):\n"
        "    def __init__(self, items=()):\n"
        "        self.items = list(items)\n\n"
        "    def __iter__(self):\n"
        "        return iter(self.items)\n\n\n"
        "def names(only, exclude):\n"
        "    field_names: typing.AbstractSet[str] = OrderedSet(only)\n"
        "    if exclude:\n"
        "        field_names = field_names - exclude\n"
        "    found = []\n"
        "    for name in field_names:\n"
        "        found.append(name)\n"
        "    return found\n"
    ),
}


def test_an_operator_only_the_standard_librarys_base_defines_leaves_the_value_as_it_was(tmp_path: Path) -> None:
    found = project_edges(tmp_path, "ms", SETS, ["function:ms:ms.schema.names"], relation_types=["CALLS"])
    # `OrderedSet - exclude` runs `MutableSet.__sub__`, which states nothing it gives: past the branch the loop
    # iterates what the variable held (marshmallow's `Schema._init_fields`)
    assert found["function:ms:ms.schema.names"].get(("CALLS", "ms.schema.OrderedSet.__iter__")) == "inferred"
