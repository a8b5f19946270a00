"""A parameter nothing types is of the one class of its project with every member its function uses on it: a real
C parser's `_token_coord(self, p, i)` calls `p.lexpos(i)` and `p.lineno(i)`, which only the parser generator's
production class has, so those calls and `p[0] = ...` bind to it (`dispatch`: a reading of uses, not a stated type).
A parser generator's rules (`p_rule(self, p)`) are one family: a rule that only writes `p[0] = p[1]` is of the class
its family's others are of. A method called that a class lacks rules it out, unless a base from a library not indexed
may have it. A member only read says nothing (a real parser's `node.type` is a property of one node class and a plain
attribute of the rest), but a property read on a parameter so typed runs its getter.
Uses two classes fit, methods no one class has, a file's methods (`seek`, `tell`: pyasn1's streams are mostly the
standard library's) or one telling name alone (a name guess, as before) type nothing.
Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

PARSER = {
    "cparse/__init__.py": "",
    "cparse/yacc.py": (
        "class Production:\n"
        "    def __getitem__(self, n):\n"
        "        return n\n\n"
        "    def __setitem__(self, n, v):\n"
        "        pass\n\n"
        "    def __len__(self):\n"
        "        return 0\n\n"
        "    def lineno(self, n):\n"
        "        return n\n\n"
        "    def set_lineno(self, n, line):\n"
        "        pass\n\n"
        "    def lexpos(self, n):\n"
        "        return n\n\n"
        "    @property\n"
        "    def position(self):\n"
        "        return 0\n\n\n"
        "class Keyword:\n"
        "    @property\n"
        "    def kind(self):\n"
        "        return 1\n\n"
        "    def names(self):\n"
        "        return []\n\n\n"
        "class CachingWrapper:\n"
        "    def seek(self, n):\n"
        "        return n\n\n"
        "    def tell(self):\n"
        "        return 0\n\n\n"
        "class Stream:\n"
        "    def read(self, n):\n"
        "        return n\n\n"
        "    def peek(self, n):\n"
        "        return n\n\n\n"
        "class Buffer:\n"
        "    def read(self, n):\n"
        "        return n\n\n"
        "    def peek(self, n):\n"
        "        return n\n"
    ),
    "cparse/events.py": (
        "from eventlib import Emitter\n\n\n"
        "class Bus(Emitter):\n"
        "    def publish(self, event):\n"
        "        return event\n\n"
        "    def drain(self):\n"
        "        return 0\n"
    ),
    "cparse/parser.py": (
        "class Parser:\n"
        "    def _coord(self, p, i):\n"
        "        return p.lexpos(i), p.lineno(i)\n\n"
        "    def p_unit(self, p):\n"
        "        p[0] = p[1]\n\n"
        "    def p_unit_list(self, p):\n"
        "        p[0] = p[1] if len(p) == 2 else p[1] + [p[2]]\n\n"
        "    def p_brace(self, p):\n"
        "        p[0] = p[1]\n"
        "        p.set_lineno(0, p.lineno(1))\n\n\n"
        "def sniff(stream):\n"
        "    return stream.peek(1), stream.read(2)\n\n\n"
        "def unknown(thing):\n"
        "    return thing.lineno(1), thing.peek(1)\n\n\n"
        "def closing(token):\n"
        "    return token.lexpos(1), token.lineno(1), token.close()\n\n\n"
        "def announce(bus):\n"
        "    bus.publish(1)\n"
        "    bus.subscribe(2)\n"
        "    return bus.drain()\n\n\n"
        "def visit(node):\n"
        "    kind = node.kind\n"
        "    return kind, node.names()\n\n\n"
        "def where(p):\n"
        "    p.set_lineno(0, p.lineno(1))\n"
        "    return p.position\n\n\n"
        "def rewind(substrate):\n"
        "    substrate.seek(0)\n"
        "    return substrate.tell()\n\n\n"
        "def lone(thing):\n"
        "    return thing.lexpos(1)\n"
    ),
}
PRODUCTION = "cparse.yacc.Production"


def test_a_parameter_is_of_the_one_class_with_the_members_used_on_it(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "cparse", PARSER)
    coord = "cparse.parser.Parser._coord"
    assert calls.get((coord, f"{PRODUCTION}.lexpos")) == "dispatch"
    assert calls.get((coord, f"{PRODUCTION}.lineno")) == "dispatch"
    brace = "cparse.parser.Parser.p_brace"
    for member in ("__setitem__", "__getitem__", "set_lineno", "lineno"):
        assert calls.get((brace, f"{PRODUCTION}.{member}")) == "dispatch", member


def test_a_method_the_class_lacks_rules_it_out_unless_a_library_base_may_have_it(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "cparse", PARSER)
    assert calls.get(("cparse.parser.closing", f"{PRODUCTION}.lexpos")) == "name"  # Production has no `close`
    # Bus has no `subscribe`, but its base (a library not indexed) may
    assert calls.get(("cparse.parser.announce", "cparse.events.Bus.publish")) == "dispatch"
    assert calls.get(("cparse.parser.announce", "cparse.events.Bus.drain")) == "dispatch"


def test_a_rule_that_only_indexes_its_parameter_is_of_its_familys_class(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "cparse", PARSER)
    assert calls.get(("cparse.parser.Parser.p_unit", f"{PRODUCTION}.__setitem__")) == "dispatch"
    assert calls.get(("cparse.parser.Parser.p_unit", f"{PRODUCTION}.__getitem__")) == "dispatch"
    assert calls.get(("cparse.parser.Parser.p_unit_list", f"{PRODUCTION}.__len__")) == "dispatch"


def test_uses_two_classes_fit_or_no_class_has_type_nothing(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "cparse", PARSER)
    sniffed = {callee for caller, callee in calls if caller == "cparse.parser.sniff"}
    assert not sniffed & {"cparse.yacc.Stream.read", "cparse.yacc.Buffer.read", "cparse.yacc.Stream.peek"}
    # no class has both `lineno` and `peek`: `lineno` stays a guess from the name alone
    assert calls.get(("cparse.parser.unknown", f"{PRODUCTION}.lineno")) == "name"
    assert calls.get(("cparse.parser.lone", f"{PRODUCTION}.lexpos")) == "name"  # one name tells too little
    # a file's methods tell nothing: a parameter used so is most often a file of the standard library
    assert {how for (caller, _), how in calls.items() if caller == "cparse.parser.rewind"} == {"name"}


def test_a_member_only_read_types_nothing_and_a_property_read_runs_its_getter(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "cparse", PARSER)
    # one call (`names`) tells too little to type `node`: the read stays the guess any untyped read of the project's
    # one property of that name is
    assert calls.get(("cparse.parser.visit", "cparse.yacc.Keyword.kind")) == "name"
    assert calls.get(("cparse.parser.where", f"{PRODUCTION}.position")) == "dispatch"
