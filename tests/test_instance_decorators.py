"""An instance used as a decorator (`hookimpl = HookimplMarker("example")`, then `@hookimpl` over a function or a
method) is called with what it decorates: its class's `__call__` runs where the definition is — in a module, and in a
test function whose local class's methods it decorates (pluggy's own tests do both). Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls, project_edges

PLUGINS = {
    "plug/__init__.py": "from .markers import HookimplMarker, plain\n",
    "plug/markers.py": (
        "class HookimplMarker:\n"
        "    def __init__(self, project_name):\n"
        "        self.project_name = project_name\n\n"
        "    def __call__(self, function=None, tryfirst=False):\n"
        "        return function\n\n\n"
        "def plain(function):\n"
        "    return function\n"
    ),
    "tests/__init__.py": "",
    "tests/test_hooks.py": (
        "from plug import HookimplMarker, plain\n\n"
        "hookimpl = HookimplMarker('example')\n\n\n"
        "@hookimpl\n"
        "def module_hook():\n"
        "    pass\n\n\n"
        "@plain\n"
        "def plain_hook():\n"
        "    pass\n\n\n"
        "def test_repr():\n"
        "    class Plugin:\n"
        "        @hookimpl\n"
        "        def myhook(self):\n"
        "            pass\n"
        "    return Plugin()\n\n\n"
        "def test_nothing_decorated():\n"
        "    return hookimpl.project_name\n"
    ),
}


def test_an_instance_applied_as_a_decorator_runs_its_classs_call(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "plug", PLUGINS)
    call = "plug.markers.HookimplMarker.__call__"
    assert calls.get(("tests.test_hooks", call)) == "inferred"  # `@hookimpl` over `module_hook`
    assert calls.get(("tests.test_hooks.test_repr", call)) == "inferred"  # over a method of the test's own class
    assert ("tests.test_hooks.test_nothing_decorated", call) not in calls  # reading an attribute calls nothing
    assert calls.get(("tests.test_hooks", "plug.markers.plain")) == "exact"  # a function decorator as before


def test_the_definition_an_instance_decorates_is_decorated_by_its_call(tmp_path: Path) -> None:
    hook = "tests.test_hooks.module_hook"
    edges = project_edges(tmp_path / "home", "plug", PLUGINS, [hook], relation_types=["DECORATED_BY"])[hook]
    assert edges == {("DECORATED_BY", "plug.markers.HookimplMarker.__call__"): "inferred"}
