"""A method with no return annotation that gives back its receiver (`return self`) or a copy of it
(`self.__class__(...)`, `type(self)(...)`, `copy.copy(self)`, another such method's value) returns an instance of its
class, as `-> Self` would say: a chained call on what it gives is a call of that class's method, in this file and in
another file's. The shapes are those of a real parser-combinator library (`Word(nums).set_name("int").parse(s)`,
`expr.copy()`), written small and indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

ELEMENTS = {
    "combinators/__init__.py": "from .core import Element, Word\n",
    "combinators/core.py": (
        "import copy\n\n\n"
        "class Element:\n"
        "    def __init__(self):\n"
        "        self.name = ''\n\n"
        "    def set_name(self, name):\n"
        "        self.name = name\n"
        "        return self\n\n"
        "    def copy(self):\n"
        "        return copy.copy(self)\n\n"
        "    def fresh(self):\n"
        "        return self.__class__()\n\n"
        "    def again(self):\n"
        "        return type(self)()\n\n"
        "    def renamed(self, name):\n"
        "        return self.copy().set_name(name)\n\n"
        "    def __eq__(self, other):\n"
        "        if not isinstance(other, Element):\n"
        "            return NotImplemented\n"
        "        return self\n\n"
        "    def either(self, other):\n"
        "        if other:\n"
        "            return other\n"
        "        return self\n\n"
        "    @classmethod\n"
        "    def itself(cls):\n"
        "        return cls\n\n"
        "    def parse(self, text):\n"
        "        return text\n\n\n"
        "class Word(Element):\n"
        "    def __init__(self, chars):\n"
        "        super().__init__()\n"
        "        self.chars = chars\n\n\n"
        "def named():\n"
        "    return Word('0123').set_name('int').parse('1')\n\n\n"
        "def copied(w: Word):\n"
        "    return w.copy().parse('1')\n\n\n"
        "def made_again(w: Word):\n"
        "    w.fresh().parse('1')\n"
        "    w.again().parse('2')\n"
        "    return w.renamed('x').parse('3')\n\n\n"
        "def compared(w: Word, other: Word):\n"
        "    return w.__eq__(other).parse('1')\n\n\n"
        "def ambiguous(w: Word, other):\n"
        "    return w.either(other).parse('1')\n\n\n"
        "def the_class():\n"
        "    return Element.itself().parse('1')\n"
    ),
}


def test_a_method_giving_back_its_receiver_types_the_chained_call(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "combinators", ELEMENTS)
    core = "combinators.core"
    for caller in ("named", "copied", "made_again", "compared"):
        assert calls.get((f"{core}.{caller}", f"{core}.Element.parse")) == "inferred", caller
    assert (f"{core}.Element.renamed", f"{core}.Element.set_name") in calls  # (`self.copy()` gives an Element)


def test_a_method_that_may_give_something_else_types_nothing(tmp_path: Path) -> None:
    """`return other` on one branch: what the call gives may be of any class; `return cls` in a classmethod is the
    class itself, no instance of it."""
    calls = project_calls(tmp_path / "home", "combinators", ELEMENTS)
    core = "combinators.core"
    for caller in ("ambiguous", "the_class"):
        assert calls.get((f"{core}.{caller}", f"{core}.Element.parse")) in (None, "name"), caller


def test_the_chained_call_is_typed_in_another_file(tmp_path: Path) -> None:
    """What the method returns is told to the indexer, so a caller in another file binds through it."""
    files = {
        **ELEMENTS,
        "combinators/grammar.py": (
            "from .core import Word\n\n\ndef number():\n    return Word('0123').set_name('number').copy().parse('7')\n"
        ),
    }
    calls = project_calls(tmp_path / "home", "combinators", files)
    assert calls.get(("combinators.grammar.number", "combinators.core.Element.parse")) == "inferred"
    assert calls.get(("combinators.grammar.number", "combinators.core.Element.copy")) in ("exact", "inferred")
