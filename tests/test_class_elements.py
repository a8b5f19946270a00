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


VERSIONS = {
    "ver/__init__.py": "",
    "ver/version.py": (
        "class Version:\n"
        "    def __init__(self, major, minor=0):\n"
        "        self.major, self.minor = major, minor\n\n"
        "    def bump_major(self):\n"
        "        cls = type(self)\n"
        "        return cls(self.major + 1)\n\n"
        "    def bump_minor(self):\n"
        "        kind = self.__class__\n"
        "        return kind(self.major, self.minor + 1)\n\n\n"
        "class Tagged(Version):\n"
        "    pass\n"
    ),
}


def test_a_variable_given_the_class_of_a_value_constructs_it_or_a_class_deriving_from_it(tmp_path: Path) -> None:
    calls = project_calls(tmp_path, "ver", VERSIONS)
    for method in ("bump_major", "bump_minor"):
        made = {callee: resolution for (caller, callee), resolution in calls.items() if caller.endswith(method)}
        assert made["ver.version.Version"] == "inferred", method  # `cls = type(self)`, then `cls(...)`
        assert made["ver.version.Tagged"] == "dispatch", method  # (self may be a Tagged)
