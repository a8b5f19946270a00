"""A parameter nothing types and nothing telling is called on is of the one class of its project stating every
attribute its function reads on it, where two or more are stated: a real Markdown library's plugins (`def abbr(md)`)
only read `md.block`, `md.inline` and `md.renderer`, which only its `Markdown` states, so `md.block.register(name,
parse_abbr)` binds to the block parser's `register` (`dispatch`: a reading of uses, not a stated type), and what it
passes there is what `register` calls back. An attribute of a parameter holds, on the class another file's calls pass
it, what that class states (`app.block` for `install(Markdown())`). Reads two classes fit, one read alone, or a method
called that the class lacks type nothing. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

MARKUP = {
    "markup/__init__.py": "",
    "markup/core.py": (
        "class BlockParser:\n"
        "    def __init__(self):\n"
        "        self.rules = {}\n\n"
        "    def register(self, name, func):\n"
        "        self.rules[name] = lambda text: func(self, text)\n\n\n"
        "class InlineParser(BlockParser):\n"
        "    pass\n\n\n"
        "class BaseRenderer:\n"
        "    def __init__(self):\n"
        "        self.methods = {}\n\n"
        "    def register(self, name, method):\n"
        "        self.methods[name] = lambda *args: method(self, *args)\n\n\n"
        "class HTMLRenderer(BaseRenderer):\n"
        "    pass\n"
    ),
    "markup/markdown.py": (
        "from markup.core import BlockParser, HTMLRenderer, InlineParser\n\n\n"
        "class Markdown:\n"
        "    def __init__(self, renderer=None, plugins=()):\n"
        "        self.block = BlockParser()\n"
        "        self.inline = InlineParser()\n"
        "        self.renderer = renderer\n"
        "        self.hooks = []\n"
        "        for plugin in plugins:\n"
        "            plugin(self)\n\n\n"
        "def create(plugins):\n"
        "    return Markdown(renderer=HTMLRenderer(), plugins=plugins)\n"
    ),
    "markup/editor.py": (
        "from markup.core import BlockParser, InlineParser\n\n\n"
        "class Editor:\n"
        "    def __init__(self):\n"
        "        self.block = BlockParser()\n"
        "        self.inline = InlineParser()\n"
        "        self.cursor = 0\n"
    ),
    "markup/plugins.py": (
        "def parse_strike(parser, text):\n"
        "    return text\n\n\n"
        "def render_strike(renderer, text):\n"
        "    return text\n\n\n"
        "def strike(md):\n"
        "    md.block.register('strike', parse_strike)\n"
        "    md.inline.register('strike', parse_strike)\n"
        "    md.hooks.append(strike)\n"
        "    if md.renderer:\n"
        "        md.renderer.register('strike', render_strike)\n\n\n"
        "def both(target):\n"
        "    target.block.register('strike', parse_strike)\n"
        "    return target.inline\n\n\n"
        "def alone(md):\n"
        "    md.renderer.register('strike', render_strike)\n\n\n"
        "def lacking(md):\n"
        "    md.block.register('strike', parse_strike)\n"
        "    md.renderer.register('strike', render_strike)\n"
        "    return md.convert('text')\n\n\n"
        "def install(app):\n"
        "    app.block.register('strike', parse_strike)\n"
    ),
    "markup/app.py": (
        "from markup.markdown import Markdown\n"
        "from markup.plugins import install\n\n\n"
        "def setup():\n"
        "    install(Markdown())\n"
    ),
}


def test_a_parameter_is_of_the_one_class_stating_the_attributes_read_on_it(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "markup", MARKUP)
    strike = "markup.plugins.strike"
    assert calls.get((strike, "markup.core.BlockParser.register")) == "dispatch"  # `md.block`: Markdown's
    # `md.renderer` holds what calls pass `Markdown(renderer=...)`; `md.hooks` (a list) says nothing either way
    assert calls.get((strike, "markup.core.BaseRenderer.register")) == "dispatch"


def test_an_attribute_of_a_parameter_holds_what_it_holds_on_the_class_other_files_pass(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "markup", MARKUP)
    assert calls.get(("markup.plugins.install", "markup.core.BlockParser.register")) == "inferred"


def test_what_a_call_on_such_an_attribute_passes_is_what_the_method_calls_back(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "markup", MARKUP)
    assert calls.get(("markup.core.BlockParser.register", "markup.plugins.parse_strike")) == "inferred"
    assert calls.get(("markup.core.BaseRenderer.register", "markup.plugins.render_strike")) == "inferred"


def test_reads_two_classes_fit_one_read_or_a_method_the_class_lacks_type_nothing(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "markup", MARKUP)
    bound = ("exact", "inferred", "dispatch")
    # Markdown and Editor both state `block` and `inline`
    assert calls.get(("markup.plugins.both", "markup.core.BlockParser.register")) not in bound
    # one attribute read says too little
    assert calls.get(("markup.plugins.alone", "markup.core.BaseRenderer.register")) not in bound
    # Markdown has no `convert`: `md` is of some other class
    assert calls.get(("markup.plugins.lacking", "markup.core.BlockParser.register")) not in bound
