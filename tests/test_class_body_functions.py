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


# semver's `deprecated`: a decorator taking its function as `Optional[F]` (F a type variable bound to `Callable`), or
# its options alone, handing itself back through `partial` until it is given the function.
DEPRECATING = {
    "dep/__init__.py": "",
    "dep/marks.py": (
        "from functools import partial, wraps\n"
        "from typing import Callable, Optional, TypeVar, Union\n\n"
        'F = TypeVar("F", bound=Callable)\n\n\n'
        "def deprecated(func: Optional[F] = None, *, version: Optional[str] = None):\n"
        "    if func is None:\n"
        "        return partial(deprecated, version=version)\n\n"
        "    @wraps(func)\n"
        "    def wrapper(*args, **kwargs):\n"
        "        return func(*args, **kwargs)\n\n"
        "    return wrapper\n\n\n"
        "def labelled(func: Union[F, str, None] = None):\n"
        "    return func()\n\n\n"
        "class Version:\n"
        "    def __call__(self):\n"
        "        return self\n\n\n"
        "def made(func: Optional[Version] = None):\n"
        "    return func()\n\n\n"
        '@deprecated(version="2.10.0")\n'
        "def parse(text):\n"
        "    return text\n\n\n"
        "@deprecated\n"
        "def match(text):\n"
        "    return text\n\n\n"
        "labelled(match)\n"
        "made(parse)\n"
    ),
    # the type variable in a module of its own, as semver keeps it (`from ._types import F`)
    "dep/_types.py": 'from typing import Callable, TypeVar\n\nF = TypeVar("F", bound=Callable)\n',
    "dep/cli.py": (
        "from functools import partial, wraps\n"
        "from typing import Optional\n\n"
        "from ._types import F\n"
        "from .marks import Version\n\n\n"
        "def deprecated(func: Optional[F] = None, *, version: Optional[str] = None):\n"
        "    if func is None:\n"
        "        return partial(deprecated, version=version)\n\n"
        "    @wraps(func)\n"
        "    def wrapper(*args, **kwargs):\n"
        "        return func(*args, **kwargs)\n\n"
        "    return wrapper\n\n\n"
        "def checked(version: Version):\n"
        "    return version()\n\n\n"
        '@deprecated(version="3.0.0")\n'
        "def cmd_check(args):\n"
        "    return args\n\n\n"
        "@deprecated\n"
        "def cmd_bump(args):\n"
        "    return args\n\n\n"
        "checked(Version())\n"
    ),
}


def test_a_parameter_annotated_optional_of_a_type_variable_bound_to_callable_calls_what_it_is_given(
    tmp_path: Path,
) -> None:
    calls = project_calls(tmp_path / "home", "dep", DEPRECATING)
    deprecated = "dep.marks.deprecated"
    assert calls.get((deprecated, "dep.marks.parse")) == "inferred"  # given through `partial(deprecated, ...)`
    assert calls.get((deprecated, "dep.marks.match")) == "inferred"
    assert calls.get(("dep.marks.labelled", "dep.marks.match")) == "inferred"  # `Union[F, str, None]` says as much
    # `Optional[Version]` names a class: calling the value runs its `__call__`, whatever a caller passes
    assert ("dep.marks.made", "dep.marks.parse") not in calls
    assert calls.get(("dep.marks.made", "dep.marks.Version.__call__")) == "inferred"


def test_a_parameter_annotated_with_another_modules_type_variable_calls_what_it_is_given(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "dep", DEPRECATING)
    assert calls.get(("dep.cli.deprecated", "dep.cli.cmd_check")) == "inferred"  # through `partial`
    assert calls.get(("dep.cli.deprecated", "dep.cli.cmd_bump")) == "inferred"  # applied bare
    # another module's class still types its parameter: calling the instance passed runs its `__call__`, alone
    checked = {callee for caller, callee in calls if caller == "dep.cli.checked"}
    assert checked == {"dep.marks.Version.__call__"}


# markupsafe's shape: a callback protocol (a Protocol whose one member is `__call__`) annotates what a helper keeps
# and calls; what is passed is a bound classmethod here and a function there.
ESCAPING = {
    "esc/__init__.py": "",
    "esc/core.py": (
        "import typing as t\n\n\n"
        "class _TPEscape(t.Protocol):\n"
        '    def __call__(self, s: t.Any, /) -> "Markup": ...\n\n\n'
        "class _Sized(t.Protocol):\n"
        "    def __call__(self) -> int: ...\n\n"
        "    def size(self) -> int: ...\n\n\n"
        "def escape(s):\n"
        "    return Markup(s)\n\n\n"
        "class Markup(str):\n"
        "    @classmethod\n"
        "    def escape(cls, s):\n"
        "        return cls(s)\n\n"
        "    def __mod__(self, value):\n"
        "        return _MarkupEscapeHelper(value, self.escape)\n\n"
        "    def plain(self, value):\n"
        "        return _MarkupEscapeHelper(value, escape)\n\n\n"
        "class _MarkupEscapeHelper:\n"
        "    def __init__(self, obj: t.Any, escape: _TPEscape) -> None:\n"
        "        self.obj: t.Any = obj\n"
        "        self.escape: _TPEscape = escape\n\n"
        "    def __str__(self, /) -> str:\n"
        "        return str(self.escape(self.obj))\n\n\n"
        "def measured(sized: _Sized):\n"
        "    return sized()\n\n\n"
        "measured(escape)\n"
    ),
}


def test_a_callback_protocol_says_only_callable_so_what_is_passed_is_what_a_call_runs(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "esc", ESCAPING)
    helper = "esc.core._MarkupEscapeHelper.__str__"
    assert calls.get((helper, "esc.core.Markup.escape")) == "inferred"  # `self.escape` passed by `__mod__`
    assert calls.get((helper, "esc.core.escape")) == "inferred"  # the function passed by `plain`
    assert (helper, "esc.core._TPEscape.__call__") not in calls
    # a protocol with more members than `__call__` types its value as any class does
    assert calls.get(("esc.core.measured", "esc.core._Sized.__call__")) == "inferred"
    assert ("esc.core.measured", "esc.core.escape") not in calls
