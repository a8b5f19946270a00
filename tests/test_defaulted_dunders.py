"""A dunder a class and its bases leave to `object`, whose default runs another (`str(x)` runs `__repr__`): what runs
is that other one, and where classes deriving from it define the dunder itself, theirs — parsimonious's mix-in
`StrAndRepr.__repr__` returns `self.__str__()`, which runs `Expression.__str__` and `ParseError.__str__`. Indexed with
the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

GRAMMAR = {
    "pg/__init__.py": "",
    "pg/utils.py": (
        "class StrAndRepr(object):\n"
        "    def __repr__(self):\n"
        "        return self.__str__()\n\n\n"
        "class Plain(object):\n"
        "    def __repr__(self):\n"
        "        return 'plain'\n\n"
        "    def show(self):\n"
        "        return str(self)\n"
    ),
    "pg/expressions.py": (
        "from pg.utils import StrAndRepr\n\n\n"
        "class Expression(StrAndRepr):\n"
        "    def __str__(self):\n"
        "        return self.as_rule()\n\n"
        "    def as_rule(self):\n"
        "        return 'rule'\n\n\n"
        "class ParseError(StrAndRepr, Exception):\n"
        "    def __str__(self):\n"
        "        return 'error'\n"
    ),
}


def test_a_dunder_left_to_object_runs_its_default_and_what_derived_classes_define_of_it(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "pg", GRAMMAR)
    mixin = "pg.utils.StrAndRepr.__repr__"
    assert calls.get((mixin, "pg.expressions.Expression.__str__")) == "dispatch"
    assert calls.get((mixin, "pg.expressions.ParseError.__str__")) == "dispatch"
    # nothing derives from Plain: `str(self)` runs its `__repr__`, as surely as before
    assert calls.get(("pg.utils.Plain.show", "pg.utils.Plain.__repr__")) == "exact"
