"""Parameters no annotation types, typed by what the file's own calls pass them, in the shapes of real libraries: a
public function handing its lexer and formatter down to helpers (pygments' `highlight -> lex / format`), a
collaborator passed to a constructor and kept on `self` (rich's renderables), a callback passed by name and called
through the parameter, a parameter passed two classes (each one's method called), a `Callable[...]` parameter passed
two functions (click's stream helpers), a decorator's wrapper calling the functions it is applied to. Indexed with the
real engines, read as a server reads them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_named, indexed_projects
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog

FILES: dict[str, str] = {
    "hl/__init__.py": "",
    "hl/api.py": (
        "class Lexer:\n"
        "    def get_tokens(self, text):\n"
        "        return []\n\n\n"
        "class PythonLexer(Lexer):\n"
        "    def get_tokens(self, text):\n"
        "        return [text]\n\n\n"
        "class JsonLexer(Lexer):\n"
        "    def get_tokens(self, text):\n"
        "        return [text, text]\n\n\n"
        "class Formatter:\n"
        "    def format(self, tokens, out):\n"
        "        return None\n\n\n"
        "class Unrelated:\n"
        "    def format(self, tokens, out):\n"
        "        return None\n\n\n"
        "def lex(code, lexer):\n"
        "    return lexer.get_tokens(code)\n\n\n"
        "def format(tokens, formatter, outfile=None):\n"
        "    return formatter.format(tokens, outfile)\n\n\n"
        "def highlight(code, lexer, formatter, outfile=None):\n"
        "    return format(lex(code, lexer), formatter=formatter, outfile=outfile)\n\n\n"
        "def demo():\n"
        "    return highlight('x = 1', PythonLexer(), Formatter())\n\n\n"
        "def tokens_of(source, lexer):\n"
        "    return lexer.get_tokens(source)\n\n\n"
        "def both(source):\n"
        "    return tokens_of(source, PythonLexer()) + tokens_of(source, JsonLexer())\n"
    ),
    "hl/console.py": (
        "import typing as t\n\n\n"
        "class Console:\n"
        "    def print(self, text):\n"
        "        return None\n\n\n"
        "class Panel:\n"
        "    def __init__(self, console, on_close):\n"
        "        self.console = console\n"
        "        self.on_close = on_close\n\n"
        "    def show(self):\n"
        "        self.console.print('panel')\n"
        "        self.on_close()\n\n\n"
        "def closed():\n"
        "    return None\n\n\n"
        "def retry(action, times):\n"
        "    for _ in range(times):\n"
        "        action()\n\n\n"
        "def find_reader(stream):\n"
        "    return stream\n\n\n"
        "def find_writer(stream):\n"
        "    return stream\n\n\n"
        "def correct(stream, find: t.Callable[[object], object]):\n"
        "    return find(stream)\n\n\n"
        "def reader(stream):\n"
        "    return correct(stream, find_reader)\n\n\n"
        "def writer(stream):\n"
        "    return correct(stream, find=find_writer)\n\n\n"
        "def main():\n"
        "    panel = Panel(Console(), closed)\n"
        "    retry(panel.show, 2)\n"
    ),
    "hl/wrap.py": (
        "import functools\n\n\n"
        "def logged(func):\n"
        "    @functools.wraps(func)\n"
        "    def wrapper(*args, **kwargs):\n"
        "        return func(*args, **kwargs)\n\n"
        "    return wrapper\n\n\n"
        "def timed(func):\n"
        "    def wrapper(*args):\n"
        "        return func(*args)\n\n"
        "    return wrapper\n\n\n"
        "@logged\n"
        "def fetch(url):\n"
        "    return url\n\n\n"
        "@timed\n"
        "@logged\n"
        "def store(item):\n"
        "    return item\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("passed"), {"hl": FILES}, ("hl",))
    yield cat
    cat.close()


def test_a_parameter_is_typed_by_what_the_files_calls_pass_it_down_two_calls(
    catalog: Catalog, views: GenerationViews
) -> None:
    lexed = edges_named(catalog, views, "function:hl:hl.api.lex", relation_types=["CALLS"])
    # demo -> highlight(lexer=PythonLexer()) -> lex(lexer): the subclass's method, never the base's or JSON's
    assert lexed == {("CALLS", "hl.api.PythonLexer.get_tokens"): "inferred"}
    formatted = edges_named(catalog, views, "function:hl:hl.api.format", relation_types=["CALLS"])
    # passed by keyword; `Unrelated.format` shares the name and is never a target
    assert formatted == {("CALLS", "hl.api.Formatter.format"): "inferred"}


def test_a_parameter_passed_two_classes_calls_each_ones_method(catalog: Catalog, views: GenerationViews) -> None:
    called = edges_named(catalog, views, "function:hl:hl.api.tokens_of", relation_types=["CALLS"])
    assert called == {
        ("CALLS", "hl.api.PythonLexer.get_tokens"): "inferred",
        ("CALLS", "hl.api.JsonLexer.get_tokens"): "inferred",
    }


def test_what_a_constructor_is_passed_types_the_attributes_it_fills(catalog: Catalog, views: GenerationViews) -> None:
    called = edges_named(catalog, views, "method:hl:hl.console.Panel.show", relation_types=["CALLS"])
    assert called == {("CALLS", "hl.console.Console.print"): "inferred", ("CALLS", "hl.console.closed"): "inferred"}


def test_a_function_passed_by_name_is_called_through_the_parameter(catalog: Catalog, views: GenerationViews) -> None:
    called = edges_named(catalog, views, "function:hl:hl.console.retry", relation_types=["CALLS"])
    assert called == {("CALLS", "hl.console.Panel.show"): "inferred"}


def test_a_callable_parameter_passed_several_functions_calls_each(catalog: Catalog, views: GenerationViews) -> None:
    # click's `_force_correct_text_stream(..., is_binary: t.Callable[...], ...)`, given a reader's and a writer's
    called = edges_named(catalog, views, "function:hl:hl.console.correct", relation_types=["CALLS"])
    assert called == {("CALLS", "hl.console.find_reader"): "inferred", ("CALLS", "hl.console.find_writer"): "inferred"}


def test_a_decorators_wrapper_calls_the_functions_it_is_applied_to(catalog: Catalog, views: GenerationViews) -> None:
    called = edges_named(catalog, views, "function:hl:hl.wrap.logged", relation_types=["CALLS"])
    assert {k: v for k, v in called.items() if k[1].startswith("hl.")} == {
        ("CALLS", "hl.wrap.fetch"): "inferred",
        ("CALLS", "hl.wrap.store"): "inferred",
    }
    # stacked: `timed` is given what `logged` made of store, not store itself
    called = edges_named(catalog, views, "function:hl:hl.wrap.timed", relation_types=["CALLS"])
    assert {k: v for k, v in called.items() if k[1].startswith("hl.")} == {}
