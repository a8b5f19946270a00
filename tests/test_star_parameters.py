"""A `*args` parameter gathers what calls pass at its place and after: each element holds one of those values.
pyparsing's `add_parse_action(self, *fns)` wraps each action, `[_trim_arity(fn) for fn in fns]`, and the wrapper
`_trim_arity` returns calls it: the action a caller hands `add_parse_action` runs there. A loop over the parameter
(`for handler in handlers: handler()`) runs each too. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

PARSER = {
    "pp/__init__.py": "",
    "pp/core.py": (
        "from typing import Any, Callable, Union\n\n"
        "ParseAction = Union[Callable[[], Any], Callable[[str], Any]]\n\n\n"
        "def _trim_arity(func):\n"
        "    def wrapper(*args):\n"
        "        return func(*args)\n\n"
        "    return wrapper\n\n\n"
        "class ParserElement:\n"
        "    def __init__(self):\n"
        "        self.actions = []\n\n"
        "    def add_parse_action(self, *fns: ParseAction, **kwargs: Any):\n"
        "        self.actions += [_trim_arity(fn) for fn in fns]\n"
        "        return self\n\n\n"
        "def notify(event, *handlers):\n"
        "    for handler in handlers:\n"
        "        handler(event)\n"
    ),
    "pp/actions.py": (
        "from pp.core import ParserElement, notify\n\n\n"
        "def remove_quotes(text):\n"
        "    return text[1:-1]\n\n\n"
        "def upcase(text):\n"
        "    return text.upper()\n\n\n"
        "def log(event):\n"
        "    return event\n\n\n"
        "QUOTED = ParserElement().add_parse_action(remove_quotes, upcase)\n\n\n"
        "def announce():\n"
        "    notify('ready', log)\n"
    ),
}


def test_what_calls_pass_a_star_parameter_runs_where_each_element_is_called(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "pp", PARSER)
    assert calls.get(("pp.core._trim_arity", "pp.actions.remove_quotes")) == "inferred"
    assert calls.get(("pp.core._trim_arity", "pp.actions.upcase")) == "inferred"  # (a place after the first)
    assert calls.get(("pp.core.notify", "pp.actions.log")) == "inferred"  # `notify('ready', log)`: place 1
    assert ("pp.core.notify", "pp.actions.remove_quotes") not in calls


GATHERED = {
    "gt/__init__.py": "",
    "gt/fields.py": (
        "from typing import Callable\n\n\n"
        "class Field:\n"
        "    def get(self):\n"
        "        return 1\n\n\n"
        "def make(*fields: Callable, cache=None):\n"
        "    for field in fields:\n"
        "        field()\n"
        "    return cache.get()\n\n\n"
        "def build():\n"
        "    return make(Field())\n"
    ),
}


def test_what_a_call_passes_by_place_goes_to_the_star_parameter_not_a_keyword_one_after_it(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "gt", GATHERED)
    # `make(Field())` gives `fields` a Field: calling it runs `Field.__call__` (none); `cache` is keyword only
    assert ("gt.fields.make", "gt.fields.Field.get") not in calls
