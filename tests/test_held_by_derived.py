"""A class attribute holding a class the index does not have (lark's `SymbolNode.Set = set`), which a class deriving
from it replaces with one it has (`StableSymbolNode.Set = OrderedSet`): `self.Set()` in the base's code constructs the
replacement on such an object, a dispatch; a class holding an indexed class itself keeps the stated one. Indexed with
the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_edges

FOREST = {
    "lk/__init__.py": "",
    "lk/utils.py": ("class OrderedSet:\n    def __init__(self, items=()):\n        self.d = dict.fromkeys(items)\n"),
    "lk/forest.py": (
        "from typing import AbstractSet, Type\n\n"
        "from lk.utils import OrderedSet\n\n\n"
        "class Bag:\n"
        "    def __init__(self):\n"
        "        self.items = []\n\n\n"
        "class SymbolNode:\n"
        "    Set: Type[AbstractSet] = set\n\n"
        "    def __init__(self):\n"
        "        self._children = self.Set()\n\n\n"
        "class StableSymbolNode(SymbolNode):\n"
        "    Set = OrderedSet\n\n\n"
        "class PackedNode:\n"
        "    Set = Bag\n\n"
        "    def __init__(self):\n"
        "        self.paths = self.Set()\n\n\n"
        "class StablePackedNode(PackedNode):\n"
        "    Set = OrderedSet\n"
    ),
}


def test_a_class_attribute_replaced_below_constructs_the_replacement_by_dispatch(tmp_path: Path) -> None:
    symbol, packed = "method:lk:lk.forest.SymbolNode.__init__", "method:lk:lk.forest.PackedNode.__init__"
    found = project_edges(tmp_path, "lk", FOREST, [symbol, packed], relation_types=["CALLS"])
    assert found[symbol].get(("CALLS", "lk.utils.OrderedSet")) == "dispatch"
    assert found[symbol].get(("CALLS", "lk.utils.OrderedSet.__init__")) == "dispatch"
    assert found[packed].get(("CALLS", "lk.forest.Bag")) == "inferred"  # what the class itself holds, as before
