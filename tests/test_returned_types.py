"""What a call gives is typed by what the called function says it returns, across files and projects; and the methods
Python runs without a call naming them (`next(x)`, `x[k]`, `a != b`, `while x:`, `f"{x}"`) are calls of the value's
class. The shapes are those of a real template engine (a parser keeping the token stream its environment's
`_tokenize` returns, then `next(self.stream)`, `while self.stream:`, `self.stream.expect(...)`; a context read with
`self[key]`), written small, in two projects indexed with the real engines, the caller first."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.projects import edges_named, indexed_projects, project_calls, write_files
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.impact import impact

LEXING: dict[str, str] = {
    "lexing/__init__.py": "from .stream import Counted, TokenStream\n",
    "lexing/stream.py": (
        "class TokenStream:\n"
        "    def __init__(self, tokens):\n"
        "        self.tokens = list(tokens)\n\n"
        "    def __iter__(self):\n"
        "        return self\n\n"
        "    def __next__(self):\n"
        "        return self.tokens.pop(0)\n\n"
        "    def __bool__(self):\n"
        "        return bool(self.tokens)\n\n"
        "    def expect(self, kind):\n"
        "        return next(self)\n\n\n"
        "class Counted:\n"
        "    def __len__(self):\n"
        "        return 0\n\n"
        "    def expect(self, kind):\n"
        "        return kind\n"
    ),
}
ENGINE: dict[str, str] = {
    "engine/__init__.py": "",
    "engine/environment.py": (
        "from lexing import TokenStream\n\n\n"
        "class Environment:\n"
        "    def _tokenize(self, source) -> TokenStream:\n"
        "        return TokenStream(source.split())\n\n"
        "    def size(self) -> int:\n"
        "        return 0\n"
    ),
    "engine/parser.py": (
        "from .environment import Environment\n\n\n"
        "class Parser:\n"
        "    def __init__(self, environment: Environment, source):\n"
        "        self.stream = environment._tokenize(source)\n\n"
        "    def parse(self):\n"
        "        while self.stream:\n"
        "            self.stream.expect('name')\n"
        "        return next(self.stream)\n\n\n"
        "class Other:\n"
        "    def expect(self, kind):\n"
        "        return kind\n"
    ),
    "engine/context.py": (
        "from lexing import Counted\n\n\n"
        "class Context:\n"
        "    def __init__(self, parent):\n"
        "        self.parent = parent\n\n"
        "    def __getitem__(self, key):\n"
        "        return self.parent[key]\n\n"
        "    def __eq__(self, other):\n"
        "        return self.parent == other.parent\n\n"
        "    def __repr__(self):\n"
        "        return 'Context'\n\n"
        "    def get(self, key):\n"
        "        if key in self:\n"
        "            return self[key]\n"
        "        return None\n\n"
        "    def differs(self, other: 'Context'):\n"
        "        return self != other\n\n"
        "    def show(self):\n"
        "        return f'{self}'\n\n\n"
        "def empty(counted: Counted):\n"
        "    return not counted\n"
    ),
    "engine/nodes.py": (
        "class Node:\n"
        "    def describe(self):\n"
        "        return 'node'\n\n\n"
        "class Expr(Node):\n"
        "    def as_const(self):\n"
        "        return None\n\n"
        "    def describe(self):\n"
        "        return 'expr'\n\n\n"
        "class Const(Expr):\n"
        "    def as_const(self):\n"
        "        return 1\n\n"
        "    @classmethod\n"
        "    def make(cls):\n"
        "        return cls()\n\n\n"
        "class List(Expr):\n"
        "    items: list[Expr]\n\n"
        "    def as_const(self):\n"
        "        return [x.as_const() for x in self.items]\n\n\n"
        "def first(values: list[Const], of: List):\n"
        "    for value in values:\n"
        "        return value.as_const()\n"
        "    return [item.describe() for item in of.items]\n\n\n"
        "def fold(node: Node):\n"
        "    if isinstance(node, Expr):\n"
        "        node.as_const()\n"
        "    return node.describe()\n\n\n"
        "def pair() -> tuple[Const, list[List]]:\n"
        "    return Const(), []\n\n\n"
        "def gathered(of: List, count):\n"
        "    consts = [Const() for _ in range(count)]\n"
        "    for const in consts:\n"
        "        const.as_const()\n"
        "    exprs = sorted(of.items)\n"
        "    exprs[0].describe()\n"
        "    one, lists = pair()\n"
        "    one.describe()\n"
        "    return [item.as_const() for item in lists]\n\n\n"
        "class Bag:\n"
        "    def __init__(self, loaded):\n"
        "        self.consts = []\n"
        "        self.others = list(loaded)\n"
        "        self.listed = list(listed())\n"
        "        self.mixed = [Const()]\n\n"
        "    def remix(self):\n"
        "        self.mixed = [List()]\n\n"
        "    def fold_listed(self):\n"
        "        return [c.as_const() for c in self.listed]\n\n"
        "    def fold_mixed(self):\n"
        "        return [c.as_const() for c in self.mixed]\n\n"
        "    def add(self):\n"
        "        self.consts.append(Const())\n"
        "        self.others.append(Const())\n\n"
        "    def fold(self):\n"
        "        return [c.as_const() for c in self.consts]\n\n"
        "    def fold_others(self):\n"
        "        return [c.as_const() for c in self.others]\n\n\n"
        "def either(kind) -> tuple[Const | List, int]:\n"
        "    return Const(), kind\n\n\n"
        "def unioned(node: Const | List, kind):\n"
        "    node.as_const()\n"
        "    one, _ = either(kind)\n"
        "    return one.describe()\n\n\n"
        "def listed() -> list[Const]:\n"
        "    return [Const()]\n\n\n"
        "def indexed():\n"
        "    consts = listed()\n"
        "    return consts[0].as_const()\n\n\n"
        "def copied(of: List):\n"
        "    import copy\n\n"
        "    again = copy.copy(of)\n"
        "    return again.as_const()\n\n\n"
        "def peeked(of: List):\n"
        "    first = next(iter(of.items))\n"
        "    return first.describe()\n\n\n"
        "def filled(count):\n"
        "    made = []\n"
        "    for _ in range(count):\n"
        "        made.append(Const.make())\n"
        "    for const in made:\n"
        "        const.as_const()\n\n\n"
        "def mixed():\n"
        "    made = []\n"
        "    made.append(Const())\n"
        "    made.append(List())\n"
        "    for one in made:\n"
        "        one.as_const()\n\n\n"
        "def rebound(loaded):\n"
        "    consts = [Const()]\n"
        "    consts = loaded.values()\n"
        "    for const in consts:\n"
        "        const.as_const()\n"
    ),
    "engine/compiler.py": (
        "from typing import cast\n\n\n"
        "class Symbols:\n"
        "    def dump_stores(self):\n"
        "        return {}\n\n\n"
        "class Frame:\n"
        "    def __init__(self):\n"
        "        self.symbols = Symbols()\n\n\n"
        "class Other:\n"
        "    def dump_stores(self):\n"
        "        return None\n\n\n"
        "def dump(frame: Frame):\n"
        "    return frame.symbols.dump_stores()\n\n\n"
        "def dumped(value):\n"
        "    frame = cast(Frame, value)\n"
        "    return frame.symbols.dump_stores()\n"
    ),
    "tests/test_parser.py": (
        "from engine.environment import Environment\n"
        "from engine.parser import Parser\n\n\n"
        "def test_parse():\n"
        "    assert Parser(Environment(), 'a b').parse() == 'b'\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("returned")
    cat = indexed_projects(root, {"engine": ENGINE, "lexing": LEXING}, ("engine", "lexing"))
    yield cat
    cat.close()


def test_a_function_says_what_it_returns_across_projects(catalog: Catalog, views: GenerationViews) -> None:
    tokenize = "method:engine:engine.environment.Environment._tokenize"
    returned = edges_named(catalog, views, tokenize, relation_types=["RETURNS"])
    assert returned == {("RETURNS", "lexing.stream.TokenStream"): "exact"}
    # `-> int` names no class of any project
    assert not edges_named(
        catalog, views, "method:engine:engine.environment.Environment.size", relation_types=["RETURNS"]
    )


def test_calls_on_what_a_method_of_another_file_returned_bind_to_the_returned_class(
    catalog: Catalog, views: GenerationViews
) -> None:
    # `self.stream = environment._tokenize(source)` in __init__, then `self.stream.expect(...)`, `next(self.stream)`
    # and `while self.stream:` in parse: the stream the annotation says `_tokenize` returns
    parsed = edges_named(catalog, views, "method:engine:engine.parser.Parser.parse", relation_types=["CALLS"])
    assert parsed == {
        ("CALLS", "lexing.stream.TokenStream.expect"): "inferred",
        ("CALLS", "lexing.stream.TokenStream.__next__"): "inferred",
        ("CALLS", "lexing.stream.TokenStream.__bool__"): "inferred",
    }  # not `Other.expect` nor `Counted.expect`, which only share the name


def test_operators_and_builtins_run_the_methods_the_class_defines(catalog: Catalog, views: GenerationViews) -> None:
    got = edges_named(catalog, views, "method:engine:engine.context.Context.get", relation_types=["CALLS"])
    assert got == {("CALLS", "engine.context.Context.__getitem__"): "exact"}  # no `__contains__` to run for `in`
    # `!=` runs `__eq__` when the class defines no `__ne__`; an f-string runs `__repr__` when it defines no `__str__`
    assert edges_named(catalog, views, "method:engine:engine.context.Context.differs", relation_types=["CALLS"]) == {
        ("CALLS", "engine.context.Context.__eq__"): "exact"
    }
    assert edges_named(catalog, views, "method:engine:engine.context.Context.show", relation_types=["CALLS"]) == {
        ("CALLS", "engine.context.Context.__repr__"): "exact"
    }
    # `not counted` runs `__len__` when the class defines no `__bool__`
    assert edges_named(catalog, views, "function:engine:engine.context.empty", relation_types=["CALLS"]) == {
        ("CALLS", "lexing.stream.Counted.__len__"): "inferred"
    }


def test_impact_of_a_method_reached_only_through_a_returned_type_finds_its_test(catalog: Catalog) -> None:
    answer = impact(Reader.open(catalog), entities=["TokenStream.__bool__"])
    assert [t.name for t in answer.tests] == ["test_parse"]
    assert "method:engine:engine.parser.Parser.parse" in {c.id for c in answer.callers}


def test_a_changed_return_type_binds_the_calls_on_it_again(tmp_path: Path) -> None:
    catalog = indexed_projects(tmp_path, {"engine": ENGINE, "lexing": LEXING}, ("lexing", "engine"))
    views = GenerationViews(RetrievalSettings())
    try:
        changed = ENGINE["engine/environment.py"].replace("TokenStream", "Counted")
        write_files(tmp_path / "engine", {"engine/environment.py": changed})
        with catalog.writer() as writer:
            index_folder(writer, tmp_path / "engine", "engine", max_file_bytes=1_000_000)
        # parser.py did not change, but what it calls `expect` on did: its calls are bound again
        parsed = edges_named(catalog, views, "method:engine:engine.parser.Parser.parse", relation_types=["CALLS"])
        assert parsed == {
            ("CALLS", "lexing.stream.Counted.expect"): "inferred",
            ("CALLS", "lexing.stream.Counted.__len__"): "inferred",
        }  # Counted has no `__next__`: `next(self.stream)` binds nothing
    finally:
        catalog.close()


def test_an_isinstance_test_types_the_value_in_its_branch_only(catalog: Catalog, views: GenerationViews) -> None:
    folded = edges_named(catalog, views, "function:engine:engine.nodes.fold", relation_types=["CALLS"])
    assert folded == {
        ("CALLS", "engine.nodes.Expr.as_const"): "inferred",  # `node: Node`, an Expr in the branch
        ("CALLS", "engine.nodes.Const.as_const"): "dispatch",
        ("CALLS", "engine.nodes.List.as_const"): "dispatch",
        ("CALLS", "engine.nodes.Node.describe"): "inferred",  # a Node again after it
        ("CALLS", "engine.nodes.Expr.describe"): "dispatch",
    }


def test_a_loop_or_comprehension_variable_is_typed_by_the_elements_a_container_states(
    catalog: Catalog, views: GenerationViews
) -> None:
    # `[x.as_const() for x in self.items]` with `items: list[Expr]` in the class
    listed = edges_named(catalog, views, "method:engine:engine.nodes.List.as_const", relation_types=["CALLS"])
    assert listed[("CALLS", "engine.nodes.Expr.as_const")] == "inferred"
    assert listed[("CALLS", "engine.nodes.Const.as_const")] == "dispatch"
    # `for value in values` with `values: list[Const]`; a comprehension over another typed value's `items`
    assert edges_named(catalog, views, "function:engine:engine.nodes.first", relation_types=["CALLS"]) == {
        ("CALLS", "engine.nodes.Const.as_const"): "inferred",
        ("CALLS", "engine.nodes.Expr.describe"): "inferred",
    }


def test_a_local_list_is_typed_by_the_elements_its_value_states(catalog: Catalog, views: GenerationViews) -> None:
    # a comprehension of constructions, `sorted()` of a declared list (and a subscript of it), and the items of the
    # tuple a function of the file says it returns (`one, lists = pair()` with `-> tuple[Const, list[List]]`)
    gathered = edges_named(catalog, views, "function:engine:engine.nodes.gathered", relation_types=["CALLS"])
    assert {edge: how for edge, how in gathered.items() if how == "inferred"} == {
        ("CALLS", "engine.nodes.Const.as_const"): "inferred",
        ("CALLS", "engine.nodes.Expr.describe"): "inferred",
        ("CALLS", "engine.nodes.List.as_const"): "inferred",
    }
    # a list made empty, then given what a classmethod's `cls()` makes; one given two types says neither
    filled = edges_named(catalog, views, "function:engine:engine.nodes.filled", relation_types=["CALLS"])
    assert filled[("CALLS", "engine.nodes.Const.as_const")] == "inferred"
    mixed = edges_named(catalog, views, "function:engine:engine.nodes.mixed", relation_types=["CALLS"])
    assert "inferred" not in {how for (_, target), how in mixed.items() if target.endswith(".as_const")}
    # an attribute made an empty list and given only Consts by the class's methods; one made of other values is not
    fold = edges_named(catalog, views, "method:engine:engine.nodes.Bag.fold", relation_types=["CALLS"])
    assert fold[("CALLS", "engine.nodes.Const.as_const")] == "inferred"
    others = edges_named(catalog, views, "method:engine:engine.nodes.Bag.fold_others", relation_types=["CALLS"])
    assert "inferred" not in {how for (_, target), how in others.items() if target.endswith(".as_const")}
    # a parameter annotated with a union of classes, and a union item of a returned tuple: either class's method
    unioned = edges_named(catalog, views, "function:engine:engine.nodes.unioned", relation_types=["CALLS"])
    assert {edge for edge, how in unioned.items() if how == "inferred"} == {
        ("CALLS", "engine.nodes.Const.as_const"),
        ("CALLS", "engine.nodes.List.as_const"),
        ("CALLS", "engine.nodes.Expr.describe"),
    }
    # a subscript of what a function of the file says it returns (`-> list[Const]`)
    indexed = edges_named(catalog, views, "function:engine:engine.nodes.indexed", relation_types=["CALLS"])
    assert indexed[("CALLS", "engine.nodes.Const.as_const")] == "inferred"
    # a copy is of the type of what it copies
    copied = edges_named(catalog, views, "function:engine:engine.nodes.copied", relation_types=["CALLS"])
    assert copied == {("CALLS", "engine.nodes.List.as_const"): "inferred"}
    # `next(...)` gives an element of what it is given
    peeked = edges_named(catalog, views, "function:engine:engine.nodes.peeked", relation_types=["CALLS"])
    assert peeked == {("CALLS", "engine.nodes.Expr.describe"): "inferred"}
    # an attribute given a list a function states (`list(listed())`); one given lists of two types states neither
    listed = edges_named(catalog, views, "method:engine:engine.nodes.Bag.fold_listed", relation_types=["CALLS"])
    assert listed[("CALLS", "engine.nodes.Const.as_const")] == "inferred"
    mixed = edges_named(catalog, views, "method:engine:engine.nodes.Bag.fold_mixed", relation_types=["CALLS"])
    assert "inferred" not in {how for (_, target), how in mixed.items() if target.endswith(".as_const")}
    # a local given another value after its list: its elements are no longer known
    rebound = edges_named(catalog, views, "function:engine:engine.nodes.rebound", relation_types=["CALLS"])
    assert rebound.get(("CALLS", "engine.nodes.Const.as_const")) != "inferred"


def test_an_attribute_of_a_typed_or_cast_value_is_typed_by_what_its_class_states(
    catalog: Catalog, views: GenerationViews
) -> None:
    # `frame: Frame`, and Frame's `__init__` sets `self.symbols = Symbols()`
    dumped = edges_named(catalog, views, "function:engine:engine.compiler.dump", relation_types=["CALLS"])
    assert dumped == {("CALLS", "engine.compiler.Symbols.dump_stores"): "inferred"}  # not Other's
    # `frame = cast(Frame, value)`: what typing's cast says the value is
    cast = edges_named(catalog, views, "function:engine:engine.compiler.dumped", relation_types=["CALLS"])
    assert cast == {("CALLS", "engine.compiler.Symbols.dump_stores"): "inferred"}


HOOKED = {
    "src/kit/__init__.py": (
        "from .text import shout\n"
        "from .rows import Row\n\n\n"
        "def __getattr__(name):\n"
        "    from .text import legacy\n"
        "    return legacy\n"
    ),
    "src/kit/text.py": (
        "def shout(s):\n"
        "    return s.upper()\n\n\n"
        "def __getattr__(name):\n"
        "    if name == 'legacy':\n"
        "        return shout\n"
        "    raise AttributeError(name)\n"
    ),
    "src/kit/rows.py": "class Row:\n    pass\n",
    "src/kit/cli.py": "from kit import shout\nfrom . import text\nfrom .rows import Row\n",
}


def test_a_from_import_runs_the_module_getattr_a_module_defines(tmp_path: Path) -> None:
    # `from .text import shout` asks `text` for its `__path__`, which its `__getattr__` answers (PEP 562): the
    # importing module (or function) calls it; `rows` defines none, and a package (`from kit import ...`, `from .
    # import text`) has a `__path__` of its own
    calls = project_calls(tmp_path, "kit", HOOKED)
    callers = {(caller, how) for (caller, callee), how in calls.items() if callee == "src.kit.text.__getattr__"}
    assert callers == {("src.kit", "exact"), ("src.kit.__getattr__", "exact")}


LOADERS = {
    "loading/loaders.py": (
        "import typing as t\n\n\n"
        "class BaseLoader:\n"
        "    def get_source(self, name: str) -> str:\n"
        "        raise NotImplementedError\n\n\n"
        "class Unrelated:\n"
        "    def get_source(self, name: str) -> str:\n"
        "        return name\n\n\n"
        "class PrefixLoader(BaseLoader):\n"
        "    def __init__(self, mapping: t.Mapping[str, BaseLoader]) -> None:\n"
        "        self.mapping = mapping\n\n"
        "    def get_loader(self, template: str) -> t.Tuple[BaseLoader, str]:\n"
        "        return self.mapping[template], template\n\n"
        "    def get_source(self, template: str) -> str:\n"
        "        loader, name = self.get_loader(template)\n"
        "        return loader.get_source(name)\n\n"
        "    def first(self, template: str) -> str:\n"
        "        return self.mapping[template].get_source(template)\n"
    ),
}


def test_a_typing_tuple_return_and_a_mapping_attribute_from_a_parameter_type_what_they_give(tmp_path: Path) -> None:
    # `-> t.Tuple[BaseLoader, str]` (typing as `t`) types what unpacking the call gives, as `tuple[...]` does; an
    # attribute given a parameter `mapping: t.Mapping[str, BaseLoader]` gives a BaseLoader when subscripted
    calls = project_calls(tmp_path, "loading", LOADERS)
    edges = {(caller.rsplit(".", 1)[-1], callee, how) for (caller, callee), how in calls.items()}
    base = "loading.loaders.BaseLoader.get_source"
    assert ("get_source", base, "inferred") in edges
    assert ("first", base, "inferred") in edges
    assert not {e for e in edges if e[1] == "loading.loaders.Unrelated.get_source"}


CACHED = {
    "cache/store.py": (
        "class LRUCache:\n"
        "    def lookup(self, key):\n"
        "        return None\n\n"
        "    def __setitem__(self, key, value):\n"
        "        pass\n\n\n"
        "class Ledger:\n"
        "    def lookup(self, key):\n"
        "        return None\n\n"
        "    def group(self):\n"
        "        return None\n"
    ),
    "cache/lexer.py": (
        "import re\n"
        "import typing as t\n\n"
        "from .store import LRUCache\n\n"
        "_lexer_cache: t.MutableMapping[str, str] = LRUCache()\n"
        "_word = re.compile('[a-z]+')\n"
        "_rebound = LRUCache()\n\n\n"
        "def on_add(x):\n"
        "    return x\n\n\n"
        "def on_sub(x):\n"
        "    return x\n\n\n"
        "_math = {'add': on_add, 'sub': on_sub}\n\n\n"
        "def get_lexer(key, kind):\n"
        "    lexer = _lexer_cache.lookup(key)\n"
        "    _lexer_cache[key] = lexer\n"
        "    _word.match(key).group()\n"
        "    return _math[kind](lexer)\n\n\n"
        "def shadowed(_lexer_cache):\n"
        "    return _lexer_cache.lookup(1)\n\n\n"
        "def rebinds():\n"
        "    global _rebound\n"
        "    _rebound = None\n\n\n"
        "def reads():\n"
        "    return _rebound.lookup(1)\n\n\n"
        "class Holder:\n"
        "    def __init__(self) -> None:\n"
        "        self.cache: t.MutableMapping[str, str] = LRUCache()\n\n"
        "    def find(self, key):\n"
        "        return self.cache.lookup(key)\n"
    ),
}


def test_a_module_level_instance_is_of_its_class_in_the_functions_of_the_file(tmp_path: Path) -> None:
    # `_lexer_cache = LRUCache()` once at the top level: a function reading it calls LRUCache's methods (a project's
    # class made where the annotation names the standard library's is what the value is); a parameter of the name
    # shadows it, a `global` rebinding makes it unknown, a table keeps its items, and a compiled pattern's match is
    # the standard library's (no guess at a project's `group`)
    calls = project_calls(tmp_path, "cache", CACHED)
    edges = {(caller.rsplit(".", 1)[-1], callee): how for (caller, callee), how in calls.items()}
    assert edges[("get_lexer", "cache.store.LRUCache.lookup")] == "inferred"
    assert edges[("get_lexer", "cache.store.LRUCache.__setitem__")] == "inferred"
    assert edges[("find", "cache.store.LRUCache.lookup")] == "inferred"  # an attribute annotated so, likewise
    assert {("get_lexer", "cache.lexer.on_add"), ("get_lexer", "cache.lexer.on_sub")} <= edges.keys()
    assert not {e for e in edges if e[0] in ("shadowed", "reads") or e[1] == "cache.store.Ledger.group"}


BODY = {
    "doc/__init__.py": "",
    "doc/items.py": (
        "from __future__ import annotations\n\n\n"
        "class Key:\n"
        "    def as_string(self):\n"
        "        return ''\n\n\n"
        "class Item:\n"
        "    def as_string(self):\n"
        "        return ''\n\n\n"
        "class Container:\n"
        "    def __init__(self) -> None:\n"
        "        self._body: list[tuple[Key | None, Item]] = []\n\n"
        "    def render(self):\n"
        "        for key, item in self._body:\n"
        "            item.as_string()\n"
        "            self._one(key, item)\n\n"
        "    def _one(self, key, item):\n"
        "        return item.as_string()\n\n"
        "    def keys(self, body: list[tuple[Key, Item]]):\n"
        "        return [k.as_string() for k, _ in body]\n"
    ),
}


def test_what_each_place_of_a_containers_tuples_holds_types_the_names_it_is_unpacked_into(tmp_path: Path) -> None:
    # tomlkit's `self._body: list[tuple[Key | None, Item]]`, then `for k, v in self._body: ... self._render(k, v)`
    calls = project_calls(tmp_path, "doc", BODY)
    items = "doc.items"
    assert calls[(f"{items}.Container.render", f"{items}.Item.as_string")] == "inferred"
    assert calls[(f"{items}.Container._one", f"{items}.Item.as_string")] == "inferred"  # what render passes it
    assert calls[(f"{items}.Container.keys", f"{items}.Key.as_string")] == "inferred"
    assert (f"{items}.Container.keys", f"{items}.Item.as_string") not in calls


def test_a_loop_over_enumerate_of_zip_types_each_unpacked_name(tmp_path: Path) -> None:
    # marshmallow's `Tuple._deserialize`: `for idx, (field, each) in enumerate(zip(self.tuple_fields, value))`, the
    # fields made by another module's function that says it returns a `Field`
    files = {
        "fm/__init__.py": "",
        "fm/utils.py": "def resolve(kind) -> 'Field':\n    return kind()\n\n\nfrom fm.fields import Field\n",
        "fm/fields.py": (
            "from fm import utils\n\n\n"
            "class Field:\n"
            "    def deserialize(self, value):\n"
            "        return value\n\n\n"
            "class Tuple:\n"
            "    def __init__(self, kinds):\n"
            "        self.fields = [utils.resolve(kind) for kind in kinds]\n\n"
            "    def load(self, values):\n"
            "        for index, (field, each) in enumerate(zip(self.fields, values)):\n"
            "            field.deserialize(each)\n\n"
            "    def swapped(self, values):\n"
            "        for index, (each, field) in enumerate(zip(values, self.fields)):\n"
            "            each.deserialize(field)\n"
        ),
    }
    calls = project_calls(tmp_path, "fm", files)
    assert calls[("fm.fields.Tuple.load", "fm.fields.Field.deserialize")] == "inferred"
    assert calls.get(("fm.fields.Tuple.swapped", "fm.fields.Field.deserialize")) in (None, "name")


ASYNC = {
    "flow/__init__.py": "",
    "flow/utils.py": (
        "import typing as t\n"
        "from collections import deque\n\n\n"
        "class _Adapter:\n"
        "    def __init__(self, iterator):\n"
        "        self._iterator = iterator\n\n"
        "    def __aiter__(self):\n"
        "        return self\n\n"
        "    async def __anext__(self):\n"
        "        return next(self._iterator)\n\n\n"
        "class LRUCache:\n"
        "    def get(self, key):\n"
        "        return None\n\n"
        "    def __setitem__(self, key, value):\n"
        "        pass\n\n\n"
        "class Other:\n"
        "    def get(self, key):\n"
        "        return None\n\n\n"
        "class Stack:\n"
        "    def pop(self):\n"
        "        return Other()\n\n\n"
        "def auto_aiter(iterable) -> 't.AsyncIterator[int]':\n"
        "    if hasattr(iterable, '__aiter__'):\n"
        "        return iterable.__aiter__()\n"
        "    return _Adapter(iter(iterable))\n\n\n"
        "def create_cache(size: int) -> t.Optional[t.MutableMapping[str, int]]:\n"
        "    if size == 0:\n"
        "        return None\n"
        "    if size < 0:\n"
        "        return {}\n"
        "    return LRUCache()\n\n\n"
        "def either(flag):\n"
        "    if flag:\n"
        "        return LRUCache()\n"
        "    return Other()\n\n\n"
        "async def to_list(value):\n"
        "    return [x async for x in auto_aiter(value)]\n\n\n"
        "async def first(seq):\n"
        "    return await auto_aiter(seq).__anext__()\n\n\n"
        "class Environment:\n"
        "    def __init__(self, size):\n"
        "        self.cache = create_cache(size)\n\n"
        "    def load(self, name):\n"
        "        found = self.cache.get(name)\n"
        "        self.cache[name] = 1\n"
        "        return found\n\n"
        "    def pick(self, flag):\n"
        "        return either(flag).get(1)\n\n\n"
        "class Node:\n"
        "    def children(self):\n"
        "        yield self\n\n"
        "    def set_ctx(self):\n"
        "        todo = deque([self])\n"
        "        while todo:\n"
        "            node = todo.popleft()\n"
        "            todo.extend(node.children())\n\n"
        "    def last(self):\n"
        "        stack = Stack()\n"
        "        items = [self]\n"
        "        return stack.pop().get(0), items.pop(0).children()\n"
    ),
}


def test_what_a_body_constructs_types_a_result_the_annotation_leaves_to_the_standard_library(tmp_path: Path) -> None:
    # jinja2's `auto_aiter(...) -> t.AsyncIterator[V]` returning `_IteratorToAsyncIterator(...)` in one branch, and
    # `create_cache(...) -> t.Optional[t.MutableMapping[...]]` returning None, `{}` or `LRUCache(size)`: what the body
    # makes is what a call may give; two classes made are neither. A deque made of `[self]` gives a Node when popped
    # (`popleft()`, a list's `pop(0)`); a project class's own `pop` gives what it says
    calls = project_calls(tmp_path, "flow", ASYNC)
    utils = "flow.utils"
    assert calls[(f"{utils}.to_list", f"{utils}._Adapter.__aiter__")] == "inferred"
    assert calls[(f"{utils}.to_list", f"{utils}._Adapter.__anext__")] == "inferred"
    assert calls[(f"{utils}.first", f"{utils}._Adapter.__anext__")] == "inferred"
    assert calls[(f"{utils}.Environment.load", f"{utils}.LRUCache.get")] == "inferred"
    assert calls[(f"{utils}.Environment.load", f"{utils}.LRUCache.__setitem__")] == "inferred"
    assert calls[(f"{utils}.Node.set_ctx", f"{utils}.Node.children")] == "inferred"
    assert calls[(f"{utils}.Node.last", f"{utils}.Other.get")] == "inferred"  # what Stack.pop says it returns
    assert calls[(f"{utils}.Node.last", f"{utils}.Node.children")] == "inferred"
    assert (f"{utils}.Node.last", f"{utils}.LRUCache.get") not in calls
    picked = {callee for caller, callee in calls if caller == f"{utils}.Environment.pick"}
    assert picked == {f"{utils}.either"}


GENERATORS = {
    "pkg/__init__.py": "",
    "pkg/lex.py": (
        "import typing as t\n"
        "\n"
        "\n"
        "class TokenStream:\n"
        "    def __init__(self, generator: t.Iterable[str], name):\n"
        "        self._iter = iter(generator)\n"
        "        self.name = name\n"
        "\n"
        "    def __next__(self):\n"
        "        return next(self._iter)\n"
        "\n"
        "    def close(self):\n"
        "        self._iter = iter(())\n"
        "\n"
        "\n"
        "class Lexer:\n"
        "    def tokeniter(self, source):\n"
        "        for part in source.split():\n"
        "            yield part\n"
        "\n"
        "    def wrap(self, stream: t.Iterable[str], name):\n"
        "        for value in stream:\n"
        "            yield value.upper()\n"
        "\n"
        "    def tokenize(self, source, name=None):\n"
        "        stream = self.tokeniter(source)\n"
        "        return TokenStream(self.wrap(stream, name), name)\n"
        "\n"
        "    def plain(self, source):\n"
        "        return list(self.tokeniter(source))\n"
        "\n"
        "\n"
        "def _helper(it):\n"
        "    yield from it\n"
        "\n"
        "\n"
        "class Sliced:\n"
        "    def __init__(self, iterable):\n"
        "        self._iterator = _helper(iterable)\n"
        "\n"
        "    def __next__(self):\n"
        "        return next(self._iterator)\n"
        "\n"
        "\n"
        "def consume(values):\n"
        "    for v in values:\n"
        "        print(v)\n"
        "\n"
        "\n"
        "def run(source):\n"
        "    consume([1, 2])\n"
        "    consume(source)\n"
    ),
}


def test_a_generators_body_runs_where_it_is_consumed(tmp_path: Path) -> None:
    # jinja2's lexer: `stream = self.tokeniter(...)`, `TokenStream(self.wrap(stream, ...))`, `self._iter =
    # iter(generator)`, `next(self._iter)`; more-itertools' `self._iterator = _islice_helper(...)`, then
    # `next(self._iterator)`: the generator's body runs in the function that consumes it (`iter(g)` alone runs
    # nothing); a parameter passed a list or an unknown value runs no generator
    calls = project_calls(tmp_path, "pkg", GENERATORS)
    lex = "pkg.lex"
    assert calls[(f"{lex}.Lexer.wrap", f"{lex}.Lexer.tokeniter")] == "inferred"
    assert calls[(f"{lex}.TokenStream.__next__", f"{lex}.Lexer.wrap")] == "inferred"
    assert calls[(f"{lex}.Sliced.__next__", f"{lex}._helper")] == "inferred"
    assert (f"{lex}.TokenStream.__init__", f"{lex}.Lexer.wrap") not in calls
    assert not [callee for caller, callee in calls if caller == f"{lex}.consume"]
    assert calls[(f"{lex}.Lexer.plain", f"{lex}.Lexer.tokeniter")] == "exact"


EXTENSIONS = {
    "pkg/__init__.py": "",
    "pkg/ext.py": (
        "import typing as t\n"
        "\n"
        "\n"
        "class Extension:\n"
        '    identifier = "x"\n'
        "\n"
        "    def __init__(self, environment):\n"
        "        self.environment = environment\n"
        "\n"
        "    def __call__(self, name):\n"
        "        return name\n"
        "\n"
        "\n"
        "class I18n(Extension):\n"
        "    def __init__(self, environment):\n"
        "        super().__init__(environment)\n"
        "\n"
        "\n"
        "def import_string(name):\n"
        "    return name\n"
        "\n"
        "\n"
        'def load_extensions(environment, extensions: t.Sequence[t.Union[str, t.Type["Extension"]]]):\n'
        "    result = {}\n"
        "    for extension in extensions:\n"
        "        if isinstance(extension, str):\n"
        '            extension = t.cast(t.Type["Extension"], import_string(extension))\n'
        "        result[extension.identifier] = extension(environment)\n"
        "    return result\n"
        "\n"
        "\n"
        "def one(kind: t.Type[Extension]):\n"
        "    return kind(None)\n"
    ),
}


def test_a_value_cast_to_a_class_constructs_that_class_or_one_deriving_from_it(tmp_path: Path) -> None:
    # jinja2's `load_extensions`: `extension = t.cast(t.Type["Extension"], import_string(extension))`, then
    # `extension(environment)` constructs an Extension or a subclass (never calls an instance's `__call__`)
    calls = project_calls(tmp_path, "pkg", EXTENSIONS)
    ext = "pkg.ext"
    assert calls[(f"{ext}.load_extensions", f"{ext}.Extension")] == "inferred"
    assert calls[(f"{ext}.load_extensions", f"{ext}.I18n")] == "dispatch"
    assert (f"{ext}.load_extensions", f"{ext}.Extension.__call__") not in calls


UNION_OWNERS = {
    "pkg/__init__.py": "",
    "pkg/nodes.py": (
        "import typing as t\n"
        "\n"
        "\n"
        "class Keyword:\n"
        "    def as_const(self):\n"
        "        return 1\n"
        "\n"
        "\n"
        "class Expr:\n"
        "    def as_const(self):\n"
        "        return 0\n"
        "\n"
        "\n"
        "class Filter:\n"
        "    args: t.List[Expr]\n"
        "    kwargs: t.List[Keyword]\n"
        "\n"
        "\n"
        "class Call:\n"
        "    args: t.List[Expr]\n"
        "    kwargs: t.List[Keyword]\n"
        "\n"
        "\n"
        "class Other:\n"
        "    kwargs: t.List[Expr]\n"
        "\n"
        "\n"
        'def args_as_const(node: t.Union["Filter", "Call"]):\n'
        "    args = [x.as_const() for x in node.args]\n"
        "    kwargs = dict(x.as_const() for x in node.kwargs)\n"
        "    return args, kwargs\n"
        "\n"
        "\n"
        'def mixed(node: t.Union["Filter", "Other"]):\n'
        "    return [x.as_const() for x in node.kwargs]\n"
    ),
}


def test_a_loop_over_an_attribute_of_a_union_is_typed_by_what_each_class_states_of_its_elements(
    tmp_path: Path,
) -> None:
    # jinja2's `args_as_const(node: t.Union["_FilterTestCommon", "Call"])`: `x.as_const()` for `x in node.kwargs`,
    # both stating `kwargs: t.List[Keyword]`; a union whose classes state different elements runs either's
    calls = project_calls(tmp_path, "pkg", UNION_OWNERS)
    nodes = "pkg.nodes"
    assert calls[(f"{nodes}.args_as_const", f"{nodes}.Keyword.as_const")] == "inferred"
    assert calls[(f"{nodes}.args_as_const", f"{nodes}.Expr.as_const")] == "inferred"
    mixed = {callee: how for (caller, callee), how in calls.items() if caller == f"{nodes}.mixed"}
    assert mixed == {f"{nodes}.Keyword.as_const": "inferred", f"{nodes}.Expr.as_const": "inferred"}
