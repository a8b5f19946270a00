"""Calls through local aliases and calls of what only subclasses define, in the shapes of real libraries: a
formatter base whose `format` calls `self.format_unencoded`, which only its subclasses define (pygments); a
classmethod taking another as a local (`adjust = cls.adjust_line_length`) and a class held under another name
(`_Segment = Segment`) (rich); a variable reassigned from a call on itself inside an `isinstance` branch
(`regex = regex.get()`); elements of a container reached through a chain of declared attributes, filled in
`isinstance`-guarded branches and after an `assert isinstance(...)` (rich's markdown tables). Indexed with the real
engines, read as a server reads them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.projects import edges_named, indexed_projects, write_files
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.impact import impact

FILES: dict[str, str] = {
    "fmt/__init__.py": "",
    "fmt/formatter.py": (
        "class Formatter:\n"
        "    def format(self, tokens, out):\n"
        "        return self.format_unencoded(tokens, out)\n\n\n"
        "class Unrelated:\n"
        "    def format_unencoded(self, tokens, out):\n"
        "        return None\n"
    ),
    "fmt/html.py": (
        "from .formatter import Formatter\n\n\n"
        "class HtmlFormatter(Formatter):\n"
        "    def format_unencoded(self, tokens, out):\n"
        "        return self._lines(tokens)\n\n"
        "    def _lines(self, tokens):\n"
        "        return list(tokens)\n"
    ),
    "fmt/segment.py": (
        "class Segment:\n"
        "    @classmethod\n"
        "    def adjust(cls, line):\n"
        "        return line\n\n"
        "    @classmethod\n"
        "    def crop_lines(cls, lines):\n"
        "        adjust = cls.adjust\n"
        "        return [adjust(line) for line in lines]\n\n\n"
        "def render(lines):\n"
        "    _Segment = Segment\n"
        "    return _Segment.crop_lines(lines)\n"
    ),
    "fmt/rows.py": (
        "class Table:\n"
        "    tokenizer_class = None\n\n"
        "    def __init__(self, strict=False):\n"
        "        self.on_row = self.emit\n"
        "        self.tokenizer = self.tokenizer_class()\n"
        "        if strict:\n"
        "            self.check = self.check_strict\n"
        "        else:\n"
        "            self.check = self.check_loose\n\n"
        "    def row(self, cells):\n"
        "        self.on_row(cells)\n"
        "        self.check(cells)\n"
        "        return self.close()\n\n"
        "    def emit(self, cells):\n"
        "        return cells\n\n"
        "    def check_strict(self, cells):\n"
        "        return cells\n\n"
        "    def check_loose(self, cells):\n"
        "        return cells\n"
    ),
    "fmt/grid.py": (
        "from .rows import Table\n\n\n"
        "class Cells:\n"
        "    def split(self):\n"
        "        return []\n\n\n"
        "class Grid(Table):\n"
        "    tokenizer_class = Cells\n\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.close = self.done\n\n"
        "    def done(self):\n"
        "        return None\n"
    ),
    "fmt/future.py": (
        "class Future:\n"
        "    def get(self):\n"
        "        return None\n\n\n"
        "class Words(Future):\n"
        "    def get(self):\n"
        "        return 'w'\n\n\n"
        "def process(regex):\n"
        "    if isinstance(regex, Future):\n"
        "        regex = regex.get()\n"
        "    return regex\n"
    ),
    "fmt/table.py": (
        "class Text:\n"
        "    def copy(self):\n"
        "        return self\n\n\n"
        "class Element:\n"
        "    pass\n\n\n"
        "class Cell(Element):\n"
        "    def __init__(self):\n"
        "        self.content: Text = Text()\n\n\n"
        "class Row(Element):\n"
        "    def __init__(self):\n"
        "        self.cells: list[Cell] = []\n\n"
        "    def on_close(self, child: Element):\n"
        "        assert isinstance(child, Cell)\n"
        "        self.cells.append(child)\n"
        "        return child.content.copy()\n\n\n"
        "class Header(Element):\n"
        "    def __init__(self):\n"
        "        self.row: Row | None = None\n\n"
        "    def on_close(self, child: Element):\n"
        "        if isinstance(child, Row):\n"
        "            self.row = child\n\n\n"
        "class Table:\n"
        "    def __init__(self):\n"
        "        self.header: Header | None = None\n\n"
        "    def render(self):\n"
        "        if self.header is not None and self.header.row is not None:\n"
        "            for column in self.header.row.cells:\n"
        "                column.content.copy()\n\n"
        "    def close_header(self, child):\n"
        "        header = self.header\n"
        "        return header.on_close(child)\n"
    ),
    "fmt/highlight.py": (
        "from .table import Cell, Text\n\n\n"
        "class Highlighter:\n"
        "    def __call__(self, text):\n"
        "        return self.highlight(text)\n\n"
        "    def highlight(self, text):\n"
        "        return text\n\n\n"
        "class JSONHighlighter(Highlighter):\n"
        "    def highlight(self, text):\n"
        "        return '{' + text\n\n\n"
        "class NullHighlighter(Highlighter):\n"
        "    def highlight(self, text):\n"
        "        return ''\n\n"
        "    def reset(self):\n"
        "        return None\n\n\n"
        "class Plain:\n"
        "    def reset(self):\n"
        "        return None\n\n\n"
        "def narrowed(cell: Cell):\n"
        "    content = cell.content\n"
        "    if isinstance(content, Text):\n"
        "        return content.copy()\n"
        "    return None\n\n\n"
        "def copied(text: Text):\n"
        "    copy = text.copy\n"
        "    return copy()\n\n\n"
        "def show(text, highlight):\n"
        "    highlighter = JSONHighlighter() if highlight else NullHighlighter()\n"
        "    highlighter.highlight(text)\n"
        "    if isinstance(highlighter, NullHighlighter):\n"
        "        highlighter.reset()\n"
        "    return highlighter(text)\n\n\n"
        "if __name__ == '__main__':\n"
        "    demo = JSONHighlighter()\n"
        "    demo.highlight('x')\n"
    ),
    "fmt/nodes.py": (
        "import typing as t\n\n\n"
        "class Node:\n"
        "    def iter_child_nodes(self) -> t.Iterator['Node']:\n"
        "        yield self\n\n"
        "    def find_all(self):\n"
        "        return [child.visit() for child in self.iter_child_nodes()]\n\n"
        "    def visit(self):\n"
        "        return 1\n\n\n"
        "def walk(node: Node) -> t.Generator[Node, None, None]:\n"
        "    yield node\n\n\n"
        "def run(node: Node):\n"
        "    for each in walk(node):\n"
        "        each.visit()\n"
    ),
    "fmt/visit.py": (
        "from .nodes import Node, walk\n\n\n"
        "def visit_all(node: Node):\n"
        "    for child in node.iter_child_nodes():\n"
        "        child.visit()\n"
        "    return [each.visit() for each in walk(node)]\n"
    ),
    "tests/test_render.py": (
        "from fmt.segment import render\n\n\ndef test_render_crops():\n    assert render(['a']) == ['a']\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("aliases"), {"fmt": FILES}, ("fmt",))
    yield cat
    cat.close()


def test_a_call_of_what_only_subclasses_define_reaches_their_definitions(
    catalog: Catalog, views: GenerationViews
) -> None:
    called = edges_named(catalog, views, "method:fmt:fmt.formatter.Formatter.format", relation_types=["CALLS"])
    # not Unrelated.format_unencoded: that class does not derive from Formatter
    assert called == {("CALLS", "fmt.html.HtmlFormatter.format_unencoded"): "dispatch"}


def test_an_attribute_holding_a_method_or_class_is_called_through_it_here_and_in_subclasses(
    catalog: Catalog, views: GenerationViews
) -> None:
    # `self.on_row = self.emit` (a method defined after `__init__`); `self.check` given one of two methods by branches
    # (both); `self.close()` held only by a subclass of another file (`self.close = self.done`); a class attribute
    # only a subclass gives a class (`tokenizer_class = Cells`)
    row = edges_named(catalog, views, "method:fmt:fmt.rows.Table.row", relation_types=["CALLS"])
    assert row == {
        ("CALLS", "fmt.rows.Table.emit"): "inferred",
        ("CALLS", "fmt.rows.Table.check_strict"): "inferred",
        ("CALLS", "fmt.rows.Table.check_loose"): "inferred",
        ("CALLS", "fmt.grid.Grid.done"): "dispatch",
    }
    made = edges_named(catalog, views, "method:fmt:fmt.rows.Table.__init__", relation_types=["CALLS"])
    assert made == {("CALLS", "fmt.grid.Cells"): "dispatch"}


def test_a_method_taken_into_a_local_is_called_through_it(catalog: Catalog, views: GenerationViews) -> None:
    called = edges_named(catalog, views, "method:fmt:fmt.segment.Segment.crop_lines", relation_types=["CALLS"])
    assert called == {("CALLS", "fmt.segment.Segment.adjust"): "inferred"}


def test_a_class_held_under_another_name_has_its_methods_called(catalog: Catalog, views: GenerationViews) -> None:
    called = edges_named(catalog, views, "function:fmt:fmt.segment.render", relation_types=["CALLS"])
    assert called == {("CALLS", "fmt.segment.Segment.crop_lines"): "inferred"}
    answer = impact(Reader.open(catalog), entities=["Segment.adjust"])
    assert [(c.name, c.hops) for c in answer.callers] == [("crop_lines", 1), ("render", 2)]
    assert [t.name for t in answer.tests] == ["test_render_crops"]


def test_a_variable_reassigned_from_a_call_on_itself_calls_the_method_of_what_it_was(
    catalog: Catalog, views: GenerationViews
) -> None:
    called = edges_named(catalog, views, "function:fmt:fmt.future.process", relation_types=["CALLS"])
    assert called == {("CALLS", "fmt.future.Future.get"): "inferred", ("CALLS", "fmt.future.Words.get"): "dispatch"}


def test_narrowed_values_and_elements_through_a_chain_of_declared_attributes_type_their_calls(
    catalog: Catalog, views: GenerationViews
) -> None:
    # `assert isinstance(child, Cell)`, then `child.content.copy()`
    closed = edges_named(catalog, views, "method:fmt:fmt.table.Row.on_close", relation_types=["CALLS"])
    assert closed == {("CALLS", "fmt.table.Text.copy"): "inferred"}
    # `self.row = child` under `if isinstance(child, Row)` fills the slot with a Row, not an Element: the chain
    # `self.header.row.cells` has one type at each step, and its elements are Cells
    rendered = edges_named(catalog, views, "method:fmt:fmt.table.Table.render", relation_types=["CALLS"])
    assert rendered == {("CALLS", "fmt.table.Text.copy"): "inferred"}


def test_a_variable_given_one_of_two_classes_calls_the_methods_of_both(
    catalog: Catalog, views: GenerationViews
) -> None:
    shown = edges_named(catalog, views, "function:fmt:fmt.highlight.show", relation_types=["CALLS"])
    assert shown == {
        ("CALLS", "fmt.highlight.JSONHighlighter"): "exact",
        ("CALLS", "fmt.highlight.NullHighlighter"): "exact",
        ("CALLS", "fmt.highlight.JSONHighlighter.highlight"): "inferred",
        ("CALLS", "fmt.highlight.NullHighlighter.highlight"): "inferred",
        ("CALLS", "fmt.highlight.NullHighlighter.reset"): "inferred",  # narrowed: not Plain.reset, no guess
        ("CALLS", "fmt.highlight.Highlighter.__call__"): "inferred",  # the instance called
    }


def test_a_method_of_a_typed_value_taken_into_a_local_and_a_local_copying_a_typed_attribute(
    catalog: Catalog, views: GenerationViews
) -> None:
    # `copy = text.copy` (text: Text, a class of another file), then `copy()`
    copied = edges_named(catalog, views, "function:fmt:fmt.highlight.copied", relation_types=["CALLS"])
    assert copied == {("CALLS", "fmt.table.Text.copy"): "inferred"}
    # `content = cell.content` (an attribute of another file's class: a value, not a method), then narrowed
    narrowed = edges_named(catalog, views, "function:fmt:fmt.highlight.narrowed", relation_types=["CALLS"])
    assert narrowed == {("CALLS", "fmt.table.Text.copy"): "inferred"}
    # `header = self.header` (declared `Header | None`), then `header.on_close(child)`
    closed = edges_named(catalog, views, "method:fmt:fmt.table.Table.close_header", relation_types=["CALLS"])
    assert closed == {("CALLS", "fmt.table.Header.on_close"): "inferred"}


def test_a_value_made_at_module_level_types_the_calls_after_it(catalog: Catalog, views: GenerationViews) -> None:
    # a `__main__` demo block: `demo = JSONHighlighter()`, then `demo.highlight('x')`
    made = edges_named(catalog, views, "module:fmt:fmt.highlight", relation_types=["CALLS"])
    assert made[("CALLS", "fmt.highlight.JSONHighlighter.highlight")] == "inferred"
    assert ("CALLS", "fmt.highlight.NullHighlighter.highlight") not in made


def test_the_elements_a_function_of_the_file_says_it_returns_type_the_loop_over_them(
    catalog: Catalog, views: GenerationViews
) -> None:
    found = edges_named(catalog, views, "method:fmt:fmt.nodes.Node.find_all", relation_types=["CALLS"])
    assert found == {
        ("CALLS", "fmt.nodes.Node.iter_child_nodes"): "exact",
        ("CALLS", "fmt.nodes.Node.visit"): "inferred",
    }
    ran = edges_named(catalog, views, "function:fmt:fmt.nodes.run", relation_types=["CALLS"])
    assert ran == {("CALLS", "fmt.nodes.walk"): "exact", ("CALLS", "fmt.nodes.Node.visit"): "inferred"}


def test_the_elements_a_function_of_another_file_says_it_returns_type_the_loop_over_them(
    catalog: Catalog, views: GenerationViews
) -> None:
    stated = edges_named(catalog, views, "method:fmt:fmt.nodes.Node.iter_child_nodes", relation_types=["YIELDS"])
    assert stated == {("YIELDS", "fmt.nodes.Node"): "exact"}
    visited = edges_named(catalog, views, "function:fmt:fmt.visit.visit_all", relation_types=["CALLS"])
    assert visited == {
        ("CALLS", "fmt.nodes.Node.iter_child_nodes"): "inferred",
        ("CALLS", "fmt.nodes.walk"): "exact",
        ("CALLS", "fmt.nodes.Node.visit"): "inferred",  # for each element of both, not a guess
    }


def test_element_types_are_kept_for_the_calls_of_a_file_indexed_again_alone(tmp_path: Path) -> None:
    # two projects, the caller's first: its loop binds when the project stating the elements arrives, and again
    # when only the caller's file changes (the stated element type then comes from the graph)
    nodes = {"core/__init__.py": "", "core/nodes.py": FILES["fmt/nodes.py"]}
    visit = {"app/__init__.py": "", "app/visit.py": FILES["fmt/visit.py"].replace(".nodes", "core.nodes")}
    catalog = indexed_projects(tmp_path, {"app": visit, "core": nodes}, ("app", "core"))
    views = GenerationViews(RetrievalSettings())
    try:
        expected = ("CALLS", "core.nodes.Node.visit")
        assert edges_named(catalog, views, "function:app:app.visit.visit_all", relation_types=["CALLS"])[expected]
        write_files(tmp_path / "app", {"app/visit.py": "# edited\n" + visit["app/visit.py"]})
        with catalog.writer() as writer:
            index_folder(writer, tmp_path / "app", "app", max_file_bytes=1_000_000)
        again = edges_named(catalog, views, "function:app:app.visit.visit_all", relation_types=["CALLS"])
        assert again[expected] == "inferred"
    finally:
        catalog.close()
