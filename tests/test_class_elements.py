"""A loop over a sequence of classes (`extensions: Sequence[type[Extension]]`): its variable holds a class, so calling
it constructs that class or one deriving from it, and a member read off it is the class's (a classmethod), never an
instance's `__call__`."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

PLUGINS = {
    "plug/__init__.py": "",
    "plug/base.py": (
        "class Extension:\n"
        "    def __init__(self, env):\n"
        "        self.env = env\n\n"
        "    def __call__(self, text):\n"
        "        return text\n\n"
        "    @classmethod\n"
        "    def describe(cls):\n"
        "        return cls.__name__\n"
    ),
    "plug/ext.py": (
        "from .base import Extension\n\n\n"
        "class Do(Extension):\n"
        "    def __init__(self, env):\n"
        "        super().__init__(env)\n"
    ),
    "plug/env.py": (
        "from collections.abc import Sequence\n\n"
        "from .base import Extension\n\n\n"
        "def load(env, extensions: Sequence[type[Extension]]):\n"
        "    made = []\n"
        "    for extension in extensions:\n"
        "        extension.describe()\n"
        "        made.append(extension(env))\n"
        "    return made\n"
    ),
}


def test_a_loop_over_classes_constructs_each_and_reads_the_class_members(tmp_path: Path) -> None:
    calls = project_calls(tmp_path, "plug", PLUGINS)
    loaded = {callee: resolution for (caller, callee), resolution in calls.items() if caller == "plug.env.load"}
    assert loaded["plug.base.Extension"] == "inferred"  # the class, constructed
    assert loaded["plug.ext.Do"] == "dispatch"  # or any class deriving from it
    assert loaded["plug.base.Extension.describe"] == "inferred"
    assert "plug.base.Extension.__call__" not in loaded  # an element is a class, not an instance to call
