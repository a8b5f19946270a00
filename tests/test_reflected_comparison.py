"""`a == b` runs a's `__eq__` first; where a's class declines another class's value (a builtin value and a plain object
do), b's `__eq__` runs: lark's `_match(term, token)` compares `term == Terminal(token.type)` with `term` untyped, and
`Symbol.__eq__` runs on the Terminal. Where the code states a's class, its method is the edge. Indexed with the real
engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

MATCHER = {
    "lk/__init__.py": "",
    "lk/grammar.py": (
        "class Symbol:\n"
        "    def __init__(self, name):\n"
        "        self.name = name\n\n"
        "    def __eq__(self, other):\n"
        "        if not isinstance(other, Symbol):\n"
        "            return NotImplemented\n"
        "        return self.name == other.name\n\n"
        "    def __ne__(self, other):\n"
        "        return not self == other\n\n\n"
        "class Terminal(Symbol):\n"
        "    pass\n\n\n"
        "class Rule:\n"
        "    def __eq__(self, other):\n"
        "        return self is other\n"
    ),
    "lk/matcher.py": (
        "from lk.grammar import Rule, Terminal\n\n\n"
        "def match(term, kind):\n"
        "    return term == Terminal(kind)\n\n\n"
        "def differs(kind):\n"
        "    return 'NAME' != Terminal(kind)\n\n\n"
        "def known(rule: Rule, kind):\n"
        "    return rule == Terminal(kind)\n"
    ),
}


def test_an_equality_runs_the_right_operands_method_where_the_left_ones_class_is_not_known(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "lk", MATCHER)
    assert calls.get(("lk.matcher.match", "lk.grammar.Symbol.__eq__")) == "inferred"  # (Terminal's, inherited)
    assert calls.get(("lk.matcher.differs", "lk.grammar.Symbol.__ne__")) == "inferred"  # a str declines a Terminal
    assert calls.get(("lk.matcher.known", "lk.grammar.Rule.__eq__")) == "inferred"
    assert ("lk.matcher.known", "lk.grammar.Symbol.__eq__") not in calls  # Rule's answers
