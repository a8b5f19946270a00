"""`impact` on a method nothing calls by name (a parser's `p_` rule, a dunder the language runs): when no call chain
from a test reaches the change, the tests that make an object of the method's class are the ones that can run it,
given as guesses."""

from __future__ import annotations

from pathlib import Path

from tests.test_impact import _committed, _impact, _index
from trident.store.schema import Resolution

# PLY's shape: the parser runs each `p_` rule by its name; a rule builds an AST node. One test module makes its
# parser as it is imported, another makes one in its test.
GRAMMAR = {
    "gram/__init__.py": "",
    "gram/rules.py": (
        "class Node:\n"
        "    def __init__(self, value):\n"
        "        self.value = value\n\n"
        "    def __iter__(self):\n"
        "        return iter([self.value])\n\n"
        "    def __rsub__(self, other):\n"
        "        return other\n\n\n"
        "class Grammar:\n"
        "    def p_expr(self, p):\n"
        "        p[0] = Node(self.fold(p[1]))\n\n"
        "    def fold(self, value):\n"
        "        return value\n\n"
        "    def parse(self, text):\n"
        "        return self.fold(text)\n"
    ),
    "tests/__init__.py": "",
    "tests/test_rules.py": (
        "from gram.rules import Grammar\n\nPARSER = Grammar()\n\n\ndef test_parse():\n    assert PARSER.parse('x')\n"
    ),
    "tests/test_other.py": (
        "from gram.rules import Grammar\n\n\n"
        "def test_made():\n"
        "    assert Grammar().parse('y')\n\n\n"
        "def test_unrelated():\n"
        "    assert True\n"
    ),
}
MADE = "function:gram:tests.test_other.test_made"
PARSE = "function:gram:tests.test_rules.test_parse"


def test_a_method_nothing_calls_is_run_by_the_tests_making_its_class_or_a_module_holding_one(tmp_path: Path) -> None:
    catalog = _index(tmp_path / "index", {"gram": _committed(tmp_path / "gram", GRAMMAR)})
    rule = _impact(catalog, entities=["gram.rules.Grammar.p_expr"])
    assert {t.id: t.through for t in rule.tests} == {MADE: "class Grammar", PARSE: "class Grammar"}
    assert {t.resolution for t in rule.tests} == {Resolution.NAME}
    assert rule.verdict.status == "lower_bound"
    [guesses] = [r for r in rule.verdict.reasons if r.kind == "guesses_on_the_way"]
    assert guesses.count == 2 and "class <name>" in guesses.detail
    assert "method:gram:gram.rules.Grammar.p_expr" not in rule.untested
    # a class only an uncalled rule makes: its node's constructor is run by the tests making the grammar
    node = _impact(catalog, entities=["gram.rules.Node.__init__"])
    assert {t.id for t in node.tests} == {MADE, PARSE}
    assert all(t.reaches == "method:gram:gram.rules.Node.__init__" for t in node.tests)
    # iterating a node is what whatever holds one may do: the node's class, made only by a rule, then the rule's
    iterated = _impact(catalog, entities=["gram.rules.Node.__iter__"])
    assert {t.id: t.through for t in iterated.tests} == {MADE: "class Grammar", PARSE: "class Grammar"}


def test_calls_reaching_a_test_keep_their_own_tests_and_a_rare_special_method_is_not_guessed(tmp_path: Path) -> None:
    catalog = _index(tmp_path / "index", {"gram": _committed(tmp_path / "gram", GRAMMAR)})
    fold = _impact(catalog, entities=["gram.rules.Grammar.fold"])
    assert {t.id: t.through for t in fold.tests} == {MADE: "calls", PARSE: "calls"}
    assert Resolution.NAME not in {t.resolution for t in fold.tests}
    # `1 - node` runs `__rsub__` only where the code writes it (and `int` cannot subtract a node): the tests making a
    # node are no guess of who does
    reflected = _impact(catalog, entities=["gram.rules.Node.__rsub__"])
    assert reflected.tests == [] and reflected.verdict.status == "lower_bound"


# voluptuous' shape: a schema compiles what it is given into a function it keeps and calls; `Maybe` hands a validator
# on, which states a reference to the validator's `__call__` (the value passed, run where it is handed), the only
# reference into it written, and one the walk back ends at.
SCHEMAS = {
    "vol/__init__.py": "",
    "vol/schema.py": (
        "class Schema:\n"
        "    def __init__(self, schema):\n"
        "        self._compiled = self._compile(schema)\n\n"
        "    def _compile(self, schema):\n"
        "        return schema\n\n"
        "    def __call__(self, data):\n"
        "        return self._compiled(data)\n"
    ),
    "vol/validators.py": (
        "from vol.schema import Schema\n\n\n"
        "class Any:\n"
        "    def __init__(self, *validators):\n"
        "        self.validators = validators\n\n\n"
        "def Maybe(validator: Schema):\n"
        "    return Any(None, validator)\n\n\n"
        "class Range:\n"
        "    def __init__(self, low):\n"
        "        self.low = low\n\n"
        "    def __call__(self, value):\n"
        "        return value >= self.low\n"
    ),
    "tests/__init__.py": "",
    "tests/test_validators.py": (
        "from vol.schema import Schema\n"
        "from vol.validators import Maybe, Range\n\n\n"
        "def test_maybe():\n"
        "    assert Maybe(Range(1))\n\n\n"
        "def test_range():\n"
        "    assert Schema(Range(1))(5)\n\n\n"
        "def test_plain():\n"
        "    assert Schema(int)(5)\n"
    ),
}


def test_a_method_only_handed_on_as_a_value_is_run_by_the_tests_making_its_class(
    tmp_path: Path,
) -> None:
    catalog = _index(tmp_path / "index", {"vol": _committed(tmp_path / "vol", SCHEMAS)})
    called = _impact(catalog, entities=["vol.validators.Range.__call__"])
    through = {t.id.rsplit(".", 1)[-1]: t.through for t in called.tests}
    # the stated references (`Maybe`'s, the schema's) end where the value is handed on: the tests making a Range
    # are the ones that can run it, the one validating with `int` is not
    assert through == {"test_maybe": "class Range", "test_range": "class Range"}
    assert {t.resolution for t in called.tests} == {Resolution.NAME} and called.verdict.status == "lower_bound"
