"""A function a class body passes by its name is the class's own method there: pyparsing keeps its camelCase names as
`parseString = replaced_by_pep8("parseString", parse_string)`, whose wrapper calls what it was given, after
`fn = getattr(fn, "__func__", fn)` (what a `staticmethod` wraps, else fn itself), `fn` annotated by a type variable
bound to `Callable` (which says no more than "callable": what callers pass says what it is); any other attribute
taken so (`key = getattr(key, "key", key)`) may be another value. Indexed with the real
engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

PARSER = {
    "pp/__init__.py": "",
    "pp/util.py": (
        "from functools import wraps\n"
        "from typing import Any, Callable, TypeVar\n\n"
        'C = TypeVar("C", bound=Callable[..., Any])\n\n\n'
        "def replaced_by_pep8(compat_name: str, fn: C) -> C:\n"
        '    fn = getattr(fn, "__func__", fn)\n\n'
        "    @wraps(fn)\n"
        "    def _inner(*args, **kwargs):\n"
        "        return fn(*args, **kwargs)\n\n"
        "    _inner.__name__ = compat_name\n"
        "    return _inner\n\n\n"
        "def rebound(fn):\n"
        "    fn = fn.__wrapped__\n\n"
        "    def _inner(*args):\n"
        "        return fn(*args)\n\n"
        "    return _inner\n\n\n"
        "def shown(fn):\n"
        '    fn = getattr(fn, "label", fn)\n'
        "    return fn()\n"
    ),
    "pp/core.py": (
        "from pp.util import rebound, replaced_by_pep8, shown\n\n\n"
        "class ParserElement:\n"
        "    def parse_string(self, text):\n"
        "        return text\n\n"
        "    @staticmethod\n"
        "    def enable_packrat():\n"
        "        return None\n\n"
        "    @property\n"
        "    def name(self):\n"
        "        return 'element'\n\n"
        "    def scan_string(self, text):\n"
        "        return text\n\n"
        '    parseString = replaced_by_pep8("parseString", parse_string)\n'
        '    enablePackrat = staticmethod(replaced_by_pep8("enablePackrat", enable_packrat))\n'
        '    defaultName = replaced_by_pep8("defaultName", name)\n'
        "    scanString = rebound(scan_string)\n"
        "    label = shown(scan_string)\n"
    ),
}


def test_a_function_a_class_body_passes_by_name_is_its_own_method(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "pp", PARSER)
    element, pep8 = "pp.core.ParserElement", "pp.util.replaced_by_pep8"
    assert calls.get((pep8, f"{element}.parse_string")) == "inferred"
    assert calls.get((pep8, f"{element}.enable_packrat")) == "inferred"  # (`fn.__func__` of a staticmethod)
    assert (pep8, f"{element}.name") not in calls  # a property object, not the function as written
    assert ("pp.util.rebound", f"{element}.scan_string") not in calls  # `fn = fn.__wrapped__`: another value
    assert ("pp.util.shown", f"{element}.scan_string") not in calls  # `getattr(fn, "label", fn)`: may be another
