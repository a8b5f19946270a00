"""Two readings a real module showed wrong (pyparsing's `core.py`, which imports every name of `.actions` and
`.exceptions`): a method called on an untyped value (`e.ignore(...)`) or a local called (`for helper in handlers:
helper()`) is no function a star import gives, only a bare name the function does not bind is; and a container
attribute whose annotation states its elements (`self.exprs: list[ParserElement]`) holds those, whatever lists its
branches assign (`[self._literalStringClass(s)]`, `[exprs]`), so `for e in self.exprs: e.ignore(...)` is a call of
the declared class's method, and of its overrides by dispatch. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_edges

CORE = {
    "pp/__init__.py": "",
    "pp/actions.py": (
        "def ignore(expr):\n    return expr\n\n\ndef helper():\n    return 1\n\n\ndef replace_with(s):\n    return s\n"
    ),
    "pp/core.py": (
        "from .actions import *\n\n\n"
        "class ParserElement:\n"
        "    def ignore(self, other):\n"
        "        return self\n\n\n"
        "class Literal(ParserElement):\n"
        "    def __init__(self, s):\n"
        "        self.s = s\n\n\n"
        "class Combine(ParserElement):\n"
        "    def ignore(self, other):\n"
        "        return self\n\n\n"
        "class ParseExpression(ParserElement):\n"
        "    def __init__(self, exprs):\n"
        "        self.exprs: list[ParserElement]\n"
        "        if isinstance(exprs, str):\n"
        "            self.exprs = [Literal(exprs)]\n"
        "        else:\n"
        "            self.exprs = list(exprs)\n\n"
        "    def ignore(self, other, handlers=()):\n"
        "        for e in self.exprs:\n"
        "            e.ignore(other)\n"
        "        for helper in handlers:\n"
        "            helper()\n"
        "        return replace_with(self)\n"
    ),
}
CALLER = "method:pp:pp.core.ParseExpression.ignore"


def test_members_and_locals_are_no_star_names_and_a_declared_element_type_governs(tmp_path: Path) -> None:
    calls = project_edges(tmp_path, "pp", CORE, [CALLER], relation_types=["CALLS"])[CALLER]
    assert calls.get(("CALLS", "pp.actions.ignore"), "name") == "name"  # `e.ignore(...)`: a method of e
    assert calls.get(("CALLS", "pp.actions.helper"), "name") == "name"  # `helper` is the loop's variable here
    assert calls.get(("CALLS", "pp.actions.replace_with")) == "exact"  # a bare name the star import gives
    assert calls.get(("CALLS", "pp.core.ParserElement.ignore")) == "inferred"  # `self.exprs: list[ParserElement]`
    assert calls.get(("CALLS", "pp.core.Combine.ignore")) == "dispatch"
