"""A parameter an override leaves unannotated holds what the base method it overrides says (as pyright reads it):
Python-Markdown's `extendMarkdown(self, md)` in each extension, under `Extension.extendMarkdown(self, md: Markdown)`
in another file, calls `md.registerExtension(...)` on a `Markdown`. Indexed with the real engines, across files."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

MARKUP: dict[str, str] = {
    "markup/__init__.py": "",
    "markup/core.py": (
        "class Registry:\n"
        "    def register(self, item, name):\n"
        "        return name\n\n\n"
        "class Markdown:\n"
        "    def __init__(self):\n"
        "        self.inline = Registry()\n\n"
        "    def register_extension(self, ext):\n"
        "        return ext\n\n\n"
        "class Other:\n"
        "    def register_extension(self, ext):\n"
        "        return None\n"
    ),
    "markup/extensions/__init__.py": (
        "from ..core import Markdown\n\n\n"
        "class Extension:\n"
        "    def extend(self, md: Markdown, level=0):\n"
        "        pass\n\n"
        "    def setup(self, md: Markdown):\n"
        "        pass\n"
    ),
    "markup/extensions/abbr.py": (
        "from . import Extension\n\n\n"
        "class AbbrExtension(Extension):\n"
        "    def extend(self, md, level=0):\n"
        "        md.register_extension(self)\n"
        "        md.inline.register(self, 'abbr')\n\n"
        "    def setup(self, markdown):\n"
        "        markdown.register_extension(self)\n\n\n"
        "class Deeper(AbbrExtension):\n"
        "    def extend(self, md, level=1):\n"
        "        md.register_extension(self)\n\n\n"
        "class Plain:\n"
        "    def extend(self, md):\n"
        "        md.register_extension(self)\n"
    ),
}


def test_an_overrides_unannotated_parameter_holds_what_the_base_method_states(tmp_path: Path) -> None:
    calls = project_calls(tmp_path, "markup", MARKUP)
    core, abbr = "markup.core", "markup.extensions.abbr"
    assert calls[(f"{abbr}.AbbrExtension.extend", f"{core}.Markdown.register_extension")] == "inferred"
    # what the typed parameter's attribute holds, in a third file
    assert calls[(f"{abbr}.AbbrExtension.extend", f"{core}.Registry.register")] == "inferred"
    # through an override of an override
    assert calls[(f"{abbr}.Deeper.extend", f"{core}.Markdown.register_extension")] == "inferred"
    # a parameter named otherwise than the base's, and a class deriving from nothing, are not typed by it (the
    # name is not unique: no guess either)
    for caller in ("AbbrExtension.setup", "Plain.extend"):
        assert not {t for s, t in calls if s == f"{abbr}.{caller}" and t.endswith("register_extension")}, caller
