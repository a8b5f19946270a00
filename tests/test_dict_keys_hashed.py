"""A dict written out hashes each of its keys: `{univ.Integer.tagSet: IntegerDecoder()}` (pyasn1's codec tables, at
a module's top level) runs the `__hash__` of the class the key is, here what a class attribute of another module's
class holds; `tagmap.TagMap({self.tagSet: self})` in a method, the same through the receiver. Indexed with the real
engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

CODEC = {
    "asn/__init__.py": "",
    "asn/tag.py": (
        "class TagSet:\n"
        "    def __init__(self, *tags):\n"
        "        self.tags = tags\n\n"
        "    def __hash__(self):\n"
        "        return hash(self.tags)\n\n\n"
        "def init_tag_set(tag):\n"
        "    return TagSet(tag)\n"
    ),
    "asn/univ.py": (
        "from asn import tag\n\n\n"
        "class Asn1Type:\n"
        "    tagSet = tag.TagSet()\n\n"
        "    def tag_map(self):\n"
        "        return {self.tagSet: self}\n\n\n"
        "class Integer(Asn1Type):\n"
        "    tagSet = tag.TagSet(2)\n\n\n"
        "class Plain:\n"
        "    name = 'plain'\n"
    ),
    "asn/decoder.py": (
        "from asn import univ\n\n\n"
        "class IntegerDecoder:\n"
        "    pass\n\n\n"
        "TAG_MAP = {\n"
        "    univ.Integer.tagSet: IntegerDecoder(),\n"
        "    univ.Plain.name: IntegerDecoder(),\n"
        "}\n"
    ),
}


def test_a_dict_written_out_runs_the_hash_of_each_keys_class(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "asn", CODEC)
    assert calls.get(("asn.decoder", "asn.tag.TagSet.__hash__")) == "inferred"
    assert calls.get(("asn.univ.Asn1Type.tag_map", "asn.tag.TagSet.__hash__")) == "inferred"
    # a key of a builtin type (`Plain.name`, a str) runs none of the project's methods
    assert {callee for caller, callee in calls if caller == "asn.decoder"} == {
        "asn.decoder.IntegerDecoder",
        "asn.tag.TagSet.__hash__",
    }


GRAMMAR = {  # lark's `Rule.__init__`: `self._hash = hash((self.origin, tuple(self.expansion)))`
    "lk/__init__.py": "",
    "lk/grammar.py": (
        "from typing import Sequence\n\n\n"
        "class Symbol:\n"
        "    def __hash__(self):\n"
        "        return 1\n\n"
        "    def __repr__(self):\n"
        "        return 'S'\n\n\n"
        "class NonTerminal(Symbol):\n"
        "    def __hash__(self):\n"
        "        return 2\n\n\n"
        "class Rule:\n"
        "    def __init__(self, origin: NonTerminal, expansion: Sequence[Symbol]):\n"
        "        self.origin = origin\n"
        "        self.expansion = expansion\n"
        "        self._hash = hash((self.origin, tuple(self.expansion)))\n\n"
        "    def __repr__(self):\n"
        "        return repr((self.origin, 3))\n"
    ),
}


def test_hashing_or_formatting_a_tuple_runs_the_method_of_each_item(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "lk", GRAMMAR)
    assert calls.get(("lk.grammar.Rule.__init__", "lk.grammar.NonTerminal.__hash__")) == "inferred"
    assert calls.get(("lk.grammar.Rule.__init__", "lk.grammar.Symbol.__hash__")) == "inferred"  # each element's
    assert calls.get(("lk.grammar.Rule.__repr__", "lk.grammar.Symbol.__repr__")) == "inferred"  # inherited
