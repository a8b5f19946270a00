"""Formatting and the number builtins run the methods of the values they are given: `"%s: %r" % (a, b)`,
`"{!r}".format(x)`, `int(x)`, `float(x)`, `round(x, 2)` — each bound where the value's class is stated, to the method
the class (or a base) defines, or the one Python falls back to (`__repr__` for `__str__`, `__index__` for `__int__`)."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

UNITS = {
    "units/__init__.py": "",
    "units/tag.py": (
        "class Tag:\n"
        "    def __repr__(self):\n"
        "        return 'Tag()'\n\n"
        "    def __str__(self):\n"
        "        return 'tag'\n\n"
        "    def __round__(self, digits=None):\n"
        "        return self\n\n\n"
        "class Number:\n"
        "    def __index__(self):\n"
        "        return 1\n\n"
        "    def __float__(self):\n"
        "        return 1.0\n\n\n"
        "class Plain:\n"
        "    def __repr__(self):\n"
        "        return 'Plain()'\n"
    ),
    "units/show.py": (
        "from .tag import Number, Plain, Tag\n\n\n"
        "def percent(tag: Tag, other: Tag):\n"
        "    return '%s is not %r' % (tag, other)\n\n\n"
        "def keyed(tag: Tag):\n"
        "    return '%(name)r' % {'name': tag}\n\n\n"
        "def method(tag: Tag, plain: Plain):\n"
        "    return '{} / {!r} / {p}'.format(tag, tag, p=plain)\n\n\n"
        "def numbers(number: Number, tag: Tag):\n"
        "    return int(number) + float(number) + '%d' % number, round(tag, 2)\n\n\n"
        "def starred(tag: Tag):\n"
        "    return '%*s' % (4, tag)\n\n\n"
        "def specified(tag: Tag):\n"
        "    return '{:>10}'.format(tag) + b'%s' % tag\n\n\n"
        "def built(tag: Tag, form: str):\n"
        "    return form % tag\n"
    ),
}


def test_formatting_and_number_builtins_run_the_methods_of_the_values_they_are_given(tmp_path: Path) -> None:
    calls = project_calls(tmp_path, "units", UNITS)
    tag, number, plain = "units.tag.Tag", "units.tag.Number", "units.tag.Plain"

    def callees(caller: str) -> set[str]:
        return {callee for (source, callee) in calls if source == f"units.show.{caller}"}

    assert callees("percent") == {f"{tag}.__str__", f"{tag}.__repr__"}
    assert callees("keyed") == {f"{tag}.__repr__"}
    # `{p}` on a class defining only `__repr__`: `str()` falls back to it
    assert callees("method") == {f"{tag}.__str__", f"{tag}.__repr__", f"{plain}.__repr__"}
    # `int()` and `%d` on a class with `__index__` and no `__int__` run `__index__`; `round(x, 2)` runs `__round__`
    assert callees("numbers") == {f"{number}.__index__", f"{number}.__float__", f"{tag}.__round__"}
    assert calls[("units.show.percent", f"{tag}.__repr__")] == "inferred"
    # a width taken from the values, a format spec, a bytes format, a format not written out: nothing is read
    assert callees("starred") == callees("specified") == callees("built") == set()


def test_formatting_an_attribute_a_union_types_runs_each_member_class_s_method(tmp_path: Path) -> None:
    # cssselect's `Attrib.__init__(self, selector: Tree, ...)`, `Tree` a union of the parser's node classes, then
    # `f"{self.selector!r}"` in `__repr__`: the `__repr__` of whichever node it holds; a class stating one runs its own
    files = {
        "sel/__init__.py": "",
        "sel/parser.py": (
            "from typing import Union\n\n\n"
            "class Element:\n"
            "    def __repr__(self):\n"
            "        return 'Element'\n\n"
            "    def __eq__(self, other):\n"
            "        return True\n\n\n"
            "class Hash:\n"
            "    def __init__(self, selector: 'Tree'):\n"
            "        self.selector = selector\n\n"
            "    def __repr__(self):\n"
            "        return f'Hash[{self.selector!r}]'\n\n"
            "    def same(self, other):\n"
            "        return self.selector == other\n\n\n"
            "class Single:\n"
            "    def __init__(self, selector: Element):\n"
            "        self.selector = selector\n\n"
            "    def __repr__(self):\n"
            "        return f'Single[{self.selector!r}]'\n\n\n"
            "Tree = Union[Element, Hash]\n"
        ),
    }
    calls = project_calls(tmp_path, "sel", files)
    element, hashed, single = "sel.parser.Element", "sel.parser.Hash", "sel.parser.Single"

    def callees(caller: str) -> set[str]:
        return {callee for (source, callee) in calls if source == caller}

    assert callees(f"{hashed}.__repr__") == {f"{element}.__repr__", f"{hashed}.__repr__"}
    assert calls[(f"{hashed}.__repr__", f"{element}.__repr__")] == "inferred"
    assert callees(f"{hashed}.same") == {f"{element}.__eq__"}  # (Hash states none: object's)
    assert callees(f"{single}.__repr__") == {f"{element}.__repr__"}


def test_formatting_a_list_runs_its_elements_repr(tmp_path: Path) -> None:
    # cssselect's `f"Invalid series: '{function.arguments!r}'"` with `arguments: list[Token]`: a list's `repr()` and
    # `str()` alike run each element's `__repr__`; a list whose elements nothing states runs nothing known
    files = {
        "toks/__init__.py": "",
        "toks/m.py": (
            "class Token:\n"
            "    def __repr__(self):\n"
            "        return 'Token'\n\n\n"
            "class Function:\n"
            "    def __init__(self, arguments: list[Token], extra: list):\n"
            "        self.arguments = arguments\n"
            "        self.extra = extra\n\n"
            "    def shown(self):\n"
            "        return f'{self.arguments!r}'\n\n"
            "    def said(self, tokens: list[Token]):\n"
            "        return str(tokens) + '%s' % self.extra\n"
        ),
    }
    calls = project_calls(tmp_path, "toks", files)
    repr_of = "toks.m.Token.__repr__"
    assert calls[("toks.m.Function.shown", repr_of)] == "inferred"
    assert {callee for (source, callee) in calls if source == "toks.m.Function.said"} == {repr_of}
