"""An attribute given a module-level instance (`self.cparser = _c_parser` in a test's `setUp`, after `_c_parser =
c_parser.CParser(...)` at the module's top level: a real C parser's suite) is of that instance's class, for every
method of the class, those written before the one assigning it included. A module-level name some function rebinds
(`global`), or a local of the method shadowing it, says nothing of the attribute. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

SUITE = {
    "cparse/__init__.py": "",
    "cparse/parser.py": "class CParser:\n    def parse(self, text):\n        return text\n",
    "tests/__init__.py": "",
    "tests/test_parser.py": (
        "import unittest\n\n"
        "from cparse import parser\n\n"
        "_c_parser = parser.CParser()\n"
        "_swapped = parser.CParser()\n\n\n"
        "def swap():\n"
        "    global _swapped\n"
        "    _swapped = None\n\n\n"
        "class ParserCase(unittest.TestCase):\n"
        "    def parse(self, txt):\n"
        "        return self.cparser.parse(txt)\n\n"
        "    def parse_swapped(self, txt):\n"
        "        return self.swapped.parse(txt)\n\n"
        "    def parse_shadowed(self, txt):\n"
        "        return self.shadowed.parse(txt)\n\n"
        "    def setUp(self):\n"
        "        self.cparser = _c_parser\n"
        "        self.swapped = _swapped\n\n"
        "    def shadow(self, _c_parser):\n"
        "        self.shadowed = _c_parser\n"
    ),
}


def test_an_attribute_given_a_module_level_instance_is_of_its_class(tmp_path: Path) -> None:
    calls = project_calls(tmp_path, "cparse", SUITE)
    assert calls[("tests.test_parser.ParserCase.parse", "cparse.parser.CParser.parse")] == "inferred"
    # rebound by a function, or a parameter of the method assigning it: no class is known
    for method in ("parse_swapped", "parse_shadowed"):
        assert calls.get((f"tests.test_parser.ParserCase.{method}", "cparse.parser.CParser.parse"), "name") == "name"
