"""An `isinstance` test narrows a variable inside the expression it guards, as it does in an `if` branch: pyasn1's
`isinstance(value, base.Asn1Item) and value.prettyPrint() or value` calls Asn1Item's `prettyPrint`, not the same-named
method of an unrelated class; so does the value of `x.m() if isinstance(x, Foo) else y`, and a tuple of classes
tested gives either. Outside the guarded part the variable is what it was. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_edges

ITEMS = {
    "asn/__init__.py": "",
    "asn/base.py": ("class Asn1Item:\n    def prettyPrint(self):\n        return ''\n"),
    "asn/debug.py": (
        "from asn import base\n\n\n"
        "class Printer:\n"
        "    def prettyPrint(self):\n"
        "        return 'p'\n\n\n"
        "class Scope:\n"
        "    def run(self):\n"
        "        return 1\n\n\n"
        "class Flags:\n"
        "    def run(self):\n"
        "        return 2\n\n\n"
        "def show(value):\n"
        "    return isinstance(value, base.Asn1Item) and value.prettyPrint() or value\n\n\n"
        "def pick(value):\n"
        "    return value.prettyPrint() if isinstance(value, base.Asn1Item) else value.prettyPrint()\n\n\n"
        "def either(value):\n"
        "    return isinstance(value, (Scope, Flags)) and value.run()\n"
    ),
}


def test_an_isinstance_test_narrows_the_part_of_an_expression_it_guards(tmp_path: Path) -> None:
    callers = [f"function:asn:asn.debug.{name}" for name in ("show", "pick", "either")]
    found = project_edges(tmp_path, "asn", ITEMS, callers, relation_types=["CALLS"])
    show, pick, either = (found[c] for c in callers)
    item, printer = ("CALLS", "asn.base.Asn1Item.prettyPrint"), ("CALLS", "asn.debug.Printer.prettyPrint")
    assert show.get(item) == "inferred" and printer not in show
    assert pick.get(item) == "inferred"  # the value the test guards (the other side is a guess, as before)
    assert pick.get(printer, "name") == "name"
    assert either.get(("CALLS", "asn.debug.Scope.run")) == "inferred"
    assert either.get(("CALLS", "asn.debug.Flags.run")) == "inferred"
