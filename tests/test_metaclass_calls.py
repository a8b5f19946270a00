"""Calling a class whose metaclass defines `__call__` runs that method first, and `type.__call__(cls, ...)` (or
`super().__call__(...)`) in it makes one of the classes the metaclass makes: mako's `Tag(keyword, attributes)` runs
`_TagMeta.__call__`, which picks the `Tag` subclass its keyword names from a table its `__init__` fills, so a test
lexing a `<%page>` tag runs `PageTag.__init__`. Indexed with the real engines; `impact` walks back through it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import indexed_projects, project_calls, project_edges
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.tools.impact import impact

TEMPLATES = {
    "tpl/__init__.py": "",
    "tpl/tree.py": (
        "class _TagMeta(type):\n"
        "    _classmap = {}\n\n"
        "    def __init__(cls, name, bases, namespace):\n"
        "        if getattr(cls, '__keyword__', None) is not None:\n"
        "            cls._classmap[cls.__keyword__] = cls\n"
        "        super().__init__(name, bases, namespace)\n\n"
        "    def __call__(cls, keyword, attributes, **kwargs):\n"
        "        if ':' in keyword:\n"
        "            return type.__call__(CallTag, keyword, attributes, **kwargs)\n"
        "        cls = _TagMeta._classmap[keyword]\n"
        "        return type.__call__(cls, keyword, attributes, **kwargs)\n\n\n"
        "class Node:\n"
        "    def __init__(self, **kwargs):\n"
        "        self.source = kwargs\n\n\n"
        "class Tag(Node, metaclass=_TagMeta):\n"
        "    __keyword__ = None\n\n"
        "    def __init__(self, keyword, attributes, **kwargs):\n"
        "        super().__init__(**kwargs)\n"
        "        self.keyword = keyword\n\n\n"
        "class PageTag(Tag):\n"
        "    __keyword__ = 'page'\n\n"
        "    def __init__(self, keyword, attributes, **kwargs):\n"
        "        super().__init__(keyword, attributes, **kwargs)\n\n\n"
        "class CallTag(Tag):\n"
        "    def __init__(self, keyword, attributes, **kwargs):\n"
        "        super().__init__(keyword, attributes, **kwargs)\n\n\n"
        "class Text(Node):\n"
        "    pass\n"
    ),
    "tpl/lexer.py": (
        "from tpl import tree\n\n\n"
        "class Lexer:\n"
        "    def append_node(self, nodecls, *args, **kwargs):\n"
        "        return nodecls(*args, **kwargs)\n\n"
        "    def match_tag(self, keyword, attributes):\n"
        "        return self.append_node(tree.Tag, keyword, attributes)\n\n"
        "    def match_text(self, text):\n"
        "        return self.append_node(tree.Text, source=text)\n"
    ),
    "tests/__init__.py": "",
    "tests/test_lexer.py": (
        "from tpl.lexer import Lexer\n\n\n"
        "def test_page_tag():\n"
        "    assert Lexer().match_tag('page', {}).keyword == 'page'\n\n\n"
        "def test_text():\n"
        "    assert Lexer().match_text('x') is not None\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("meta"), {"tpl": TEMPLATES}, ("tpl",))
    yield cat
    cat.close()


def test_a_class_whose_metaclass_defines_call_runs_it_and_it_makes_the_classes_the_metaclass_makes(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    calls = project_calls(tmp_path_factory.mktemp("made"), "tpl", TEMPLATES)
    meta = "tpl.tree._TagMeta.__call__"
    assert calls.get(("tpl.lexer.Lexer.append_node", meta)) == "inferred"  # `nodecls(...)` holding `Tag`
    assert calls.get((meta, "tpl.tree.CallTag")) == "exact"  # the class the first argument names
    assert calls.get((meta, "tpl.tree.PageTag")) == "dispatch"  # any class the metaclass makes
    assert (meta, "tpl.tree.Text") not in calls  # a class another metaclass (`type`) makes
    assert (meta, meta) not in calls  # `type.__call__` does not run the metaclass's `__call__` again


def test_a_class_handed_on_to_be_made_reaches_its_metaclass_call(tmp_path_factory: pytest.TempPathFactory) -> None:
    tag = "tpl.lexer.Lexer.match_tag"
    edges = project_edges(tmp_path_factory.mktemp("handed"), "tpl", TEMPLATES, [tag], relation_types=["REFERENCES"])
    assert edges[tag].get(("REFERENCES", "tpl.tree._TagMeta.__call__")) == "exact"


def test_impact_finds_the_test_a_metaclass_makes_a_subclass_for(catalog: Catalog) -> None:
    answer = impact(Reader.open(catalog), entities=["PageTag.__init__"])
    assert "test_page_tag" in [t.name for t in answer.tests]
