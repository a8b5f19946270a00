"""What an attribute holds, stated in one file and used in another: `r.connection.send()` where `Response` (another
file) declares `connection: HTTPAdapter` (requests' shape), an attribute a base class of another file types, a
property's stated return type, chains of them, and a project indexed before the one that states the type. Indexed
with the real engines; the facts are kept in the graph (`HOLDS`), so a run that rewrites only the calling file, or
only the stating one, binds as a fresh index would."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.projects import call_edges, indexed_projects, write_files
from trident.ingest.pipeline import index_folder
from trident.store.catalog import Catalog
from trident.store.schema import Resolution

CLIENT: dict[str, str] = {
    "client/__init__.py": "",
    "client/adapters.py": (
        "class BaseAdapter:\n"
        "    def send(self, request):\n"
        "        raise NotImplementedError\n\n\n"
        "class HTTPAdapter(BaseAdapter):\n"
        "    def send(self, request):\n"
        "        return request\n\n"
        "    def close(self):\n"
        "        return None\n\n\n"
        "class Mailer:\n"
        "    def send(self, letter):\n"
        "        return letter\n\n"
        "    @classmethod\n"
        "    def configured(cls):\n"
        "        return cls()\n"
    ),
    "client/body.py": "class Body:\n    def length(self):\n        return 0\n",
    "client/models.py": (
        "from typing import Self\n\n"
        "from client.adapters import HTTPAdapter\n"
        "from client.body import Body\n\n\n"
        "class Response:\n"
        "    connection: HTTPAdapter\n\n"
        "    def __init__(self):\n"
        "        self.raw = None\n\n"
        "    def with_raw(self, raw) -> Self:\n"
        "        self.raw = raw\n"
        "        return self\n\n"
        "    @property\n"
        "    def body(self) -> Body:\n"
        "        return Body()\n"
    ),
    "client/segment.py": (
        "import typing as t\n\n"
        "from client.body import Body\n\n\n"
        "class Segment(t.NamedTuple):\n"
        "    text: str\n"
        "    body: t.Optional[Body] = None\n\n"
        "    @classmethod\n"
        "    def split(cls, text: str) -> t.Iterable['Segment']:\n"
        "        return [cls(text)]\n"
    ),
    "client/render.py": (
        "from client.segment import Segment\n\n\n"
        "def render(text):\n"
        "    for word, body in Segment.split(text):\n"
        "        body.length()\n\n\n"
        "def first(segment: Segment):\n"
        "    word, body = segment\n"
        "    return body.length()\n"
    ),
    "client/registry.py": (
        "from client.adapters import HTTPAdapter\n\n\n"
        "KINDS: dict = {}\n\n\n"
        "def adapter_class(kind='http') -> type[HTTPAdapter]:\n"
        "    return KINDS.get(kind, HTTPAdapter)\n\n\n"
        "class Registry:\n"
        "    adapters: dict[str, HTTPAdapter]\n"
        "    pending: list[HTTPAdapter]\n\n"
        "    def shut(self, name):\n"
        "        return self.adapters[name].close()\n\n"
        "    def shut_one(self, name):\n"
        "        adapter = self.adapters.get(name)\n"
        "        return adapter.close()\n\n"
        "    def shut_each(self):\n"
        "        for name, adapter in self.adapters.items():\n"
        "            adapter.close()\n\n"
        "    def shut_sorted(self):\n"
        "        return [adapter.close() for adapter in sorted(self.adapters.values())]\n\n"
        "    def drain(self):\n"
        "        for index, adapter in enumerate(reversed(self.pending)):\n"
        "            adapter.send(index)\n\n"
        "    def shut_all(self):\n"
        "        registry = self\n"
        "        return registry.shut('all')\n\n\n"
        "def fresh():\n"
        "    made = adapter_class()\n"
        "    return made().close()\n\n\n"
        "class Chain:\n"
        "    def __init__(self, adapters: list[HTTPAdapter]):\n"
        "        self.links = list(reversed(adapters))\n\n"
        "    def close_all(self):\n"
        "        for link in self.links:\n"
        "            link.close()\n\n\n"
        "def shut_named(adapters: dict[str, HTTPAdapter], name):\n"
        "    adapters[name].close()\n"
        "    for adapter in adapters.values():\n"
        "        adapter.send(name)\n"
    ),
    "client/session.py": (
        "from client.adapters import BaseAdapter, HTTPAdapter\n\n\n"
        "class BaseSession:\n"
        "    def __init__(self):\n"
        "        self.adapter = HTTPAdapter()\n\n\n"
        "def default_adapter() -> HTTPAdapter:\n"
        "    return HTTPAdapter()\n\n\n"
        "class Client:\n"
        "    def __init__(self, adapter: BaseAdapter | None = None):\n"
        "        self.adapter = (\n"
        "            adapter if adapter is not None else default_adapter()\n"
        "        )\n\n"
        "    def go(self):\n"
        "        return self.adapter.send(self)\n"
    ),
    "client/factory.py": (
        "from client.adapters import HTTPAdapter, Mailer\n"
        "from client.body import Body\n\n\n"
        "def make_body():\n"
        "    return Body()\n\n\n"
        "class Settings:\n"
        "    adapter_class: type[HTTPAdapter] = HTTPAdapter\n"
        "    mailer_class = Mailer\n\n"
        "    def __init__(self):\n"
        "        self.make = make_body\n"
    ),
    "client/wiring.py": (
        "from client.factory import Settings\n\n\n"
        "def connect(settings: Settings):\n"
        "    adapter = settings.adapter_class()\n"
        "    return adapter.send(settings)\n\n\n"
        "def notify(settings: Settings, letter):\n"
        "    return settings.mailer_class().send(letter)\n\n\n"
        "def body_of(settings: Settings):\n"
        "    return settings.make().length()\n\n\n"
        "def configure(settings: Settings):\n"
        "    return settings.mailer_class.configured()\n"
    ),
    "client/streaming.py": (
        "import contextlib\n"
        "import typing as t\n\n"
        "from client.body import Body\n"
        "from client.models import Response\n\n\n"
        "class Streamer:\n"
        "    @contextlib.contextmanager\n"
        "    def stream(self) -> t.Iterator[Response]:\n"
        "        yield Response()\n\n\n"
        "@contextlib.contextmanager\n"
        "def opened() -> t.Iterator[Body]:\n"
        "    yield Body()\n\n\n"
        "def size_of():\n"
        "    with opened() as body:\n"
        "        return body.length()\n"
    ),
    "client/cli.py": (
        "from client.models import Response\n"
        "from client.streaming import Streamer\n\n\n"
        "def main(streamer: Streamer):\n"
        "    with streamer.stream() as response:\n"
        "        return response.body.length()\n\n\n"
        "def refreshed(r: Response):\n"
        "    return r.with_raw(None).body.length()\n"
    ),
    "client/renderers.py": (
        "class Plain:\n"
        "    def render(self):\n"
        "        return ''\n\n\n"
        "class Marked:\n"
        "    def render(self):\n"
        "        return ''\n\n\n"
        "class Unlisted:\n"
        "    def render(self):\n"
        "        return ''\n\n\n"
        "RENDERERS = {'plain': Plain, 'marked': Marked}\n"
    ),
    "client/show.py": (
        "from client.renderers import RENDERERS, Plain\n\n\n"
        "def show(kind):\n"
        "    return RENDERERS[kind]()\n\n\n"
        "def show_later(kind):\n"
        "    renderer_class = RENDERERS.get(kind)\n"
        "    return renderer_class()\n\n\n"
        "def show_default(kind):\n"
        "    picked = RENDERERS.get(kind)\n"
        "    return picked() if picked else Plain()\n"
    ),
    "client/pool.py": (
        "from client.models import Response\n\n\n"
        "class Pool:\n"
        "    def __init__(self, response: Response):\n"
        "        self.response = response\n"
    ),
    "client/auth.py": (
        "from client.models import Response\n"
        "from client.pool import Pool\n"
        "from client.session import BaseSession\n\n\n"
        "def retry(r: Response):\n"
        "    return r.connection.send(r)\n\n\n"
        "def size(r: Response):\n"
        "    return r.body.length()\n\n\n"
        "def unknown(r: Response):\n"
        "    return r.raw.send(r)\n\n\n"
        "def latest(r: Response, history):\n"
        "    conn = r.connection\n"
        "    if history:\n"
        "        conn = history.pop()\n"
        "        conn.close()\n"
        "    return conn.send(r)\n\n\n"
        "def via_pool(pool: Pool):\n"
        "    return pool.response.connection.send(pool)\n\n\n"
        "class MySession(BaseSession):\n"
        "    def done(self):\n"
        "        return self.adapter.close()\n"
    ),
}
APP: dict[str, str] = {
    "app/__init__.py": "",
    "app/fetch.py": (
        "from client.models import Response\n\n\n"
        "def fetch(response: Response):\n"
        "    return response.connection.send(response)\n"
    ),
    "app/gateway.py": ("from client.adapters import HTTPAdapter\n\n\nclass Gateway:\n    adapter: HTTPAdapter\n"),
    "app/shut.py": (
        "from app.gateway import Gateway\n\n\ndef shut(gateway: Gateway):\n    return gateway.adapter.close()\n"
    ),
}


def _named(catalog: Catalog) -> dict[tuple[str, str], Resolution]:
    """(caller, callee) by qualified names -> resolution of every call edge."""
    return {
        (source.rsplit(":", 1)[-1], target.rsplit(":", 1)[-1]): Resolution(r.resolution)
        for (source, target), r in call_edges(catalog).items()
    }


def _named_in(
    root: Path, projects: dict[str, dict[str, str]], order: tuple[str, str]
) -> dict[tuple[str, str], Resolution]:
    """The projects indexed under `root` in `order`: (caller, callee) by qualified names -> resolution."""
    catalog = indexed_projects(root, projects, order)
    try:
        return _named(catalog)
    finally:
        catalog.close()


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    # the app first: its call waits for the class that states `connection`, and binds when that project arrives
    cat = indexed_projects(tmp_path_factory.mktemp("attributes"), {"client": CLIENT, "app": APP}, ("app", "client"))
    yield cat
    cat.close()


def test_a_member_of_an_attribute_another_file_declares_is_bound_to_the_declared_class(catalog: Catalog) -> None:
    calls = _named(catalog)
    assert calls[("client.auth.retry", "client.adapters.HTTPAdapter.send")] is Resolution.INFERRED
    assert ("client.auth.retry", "client.adapters.Mailer.send") not in calls


def test_a_property_of_another_file_types_what_it_returns(catalog: Catalog) -> None:
    assert _named(catalog)[("client.auth.size", "client.body.Body.length")] is Resolution.INFERRED


def test_an_attribute_a_base_class_of_another_file_assigns_types_the_subclass_s_calls(catalog: Catalog) -> None:
    assert _named(catalog)[("client.auth.MySession.done", "client.adapters.HTTPAdapter.close")] is Resolution.INFERRED


def test_attributes_of_attributes_chain_across_files(catalog: Catalog) -> None:
    assert _named(catalog)[("client.auth.via_pool", "client.adapters.HTTPAdapter.send")] is Resolution.INFERRED


def test_an_attribute_no_class_types_binds_nothing_by_a_shared_name(catalog: Catalog) -> None:
    """`r.raw` is set to None only: its `send` is none of the three `send` methods of the project."""
    assert not [callee for caller, callee in _named(catalog) if caller == "client.auth.unknown"]


def test_a_named_tuple_of_another_file_unpacked_types_each_name_by_its_field(catalog: Catalog) -> None:
    """`for word, body in Segment.split(text)` (`-> Iterable[Segment]`) and `word, body = segment`: body is the
    Body the second field declares."""
    calls = _named(catalog)
    assert calls[("client.render.render", "client.body.Body.length")] is Resolution.INFERRED
    assert calls[("client.render.first", "client.body.Body.length")] is Resolution.INFERRED


def test_an_attribute_given_either_of_two_types_calls_the_methods_of_both(catalog: Catalog) -> None:
    """`self.adapter = (adapter if adapter is not None else default_adapter())`: a `BaseAdapter` or the
    `HTTPAdapter` the function says it returns."""
    calls = _named(catalog)
    assert calls[("client.session.Client.go", "client.adapters.BaseAdapter.send")] is Resolution.INFERRED
    assert calls[("client.session.Client.go", "client.adapters.HTTPAdapter.send")] is Resolution.INFERRED
    assert ("client.session.Client.go", "client.adapters.Mailer.send") not in calls


def test_a_subscript_of_a_mapping_a_class_declares_gives_its_values(catalog: Catalog) -> None:
    """`adapters: dict[str, HTTPAdapter]`, then `self.adapters[name].close()`."""
    assert (
        _named(catalog)[("client.registry.Registry.shut", "client.adapters.HTTPAdapter.close")] is Resolution.INFERRED
    )


def test_what_a_declared_mapping_or_list_gives_through_get_items_values_enumerate_and_sorted(catalog: Catalog) -> None:
    """`adapters: dict[str, HTTPAdapter]`, `pending: list[HTTPAdapter]`: `self.adapters.get(name)`, `for name, adapter
    in self.adapters.items()`, `sorted(self.adapters.values())` and `enumerate(reversed(self.pending))` give
    adapters; so do `adapters[name]` and `adapters.values()` of a parameter `adapters: dict[str, HTTPAdapter]`."""
    calls = _named(catalog)
    for method in ("shut_one", "shut_each", "shut_sorted"):
        assert calls[(f"client.registry.Registry.{method}", "client.adapters.HTTPAdapter.close")] is Resolution.INFERRED
    assert calls[("client.registry.Registry.drain", "client.adapters.HTTPAdapter.send")] is Resolution.INFERRED
    # an attribute given a list parameter's elements: `self.links = list(reversed(adapters))`
    assert calls[("client.registry.Chain.close_all", "client.adapters.HTTPAdapter.close")] is Resolution.INFERRED
    # a parameter annotated so: `adapters[name]`, `adapters.values()`
    assert calls[("client.registry.shut_named", "client.adapters.HTTPAdapter.close")] is Resolution.INFERRED
    assert calls[("client.registry.shut_named", "client.adapters.HTTPAdapter.send")] is Resolution.INFERRED
    assert ("client.registry.Registry.drain", "client.adapters.Mailer.send") not in calls


def test_a_with_statement_over_a_context_manager_generator_gives_what_it_yields(catalog: Catalog) -> None:
    """`with streamer.stream() as response:` where another file's `@contextmanager def stream() ->
    Iterator[Response]`, and `with opened() as body:` over this file's: the name is what the generator yields."""
    calls = _named(catalog)
    assert calls[("client.cli.main", "client.body.Body.length")] is Resolution.INFERRED
    assert calls[("client.streaming.size_of", "client.body.Body.length")] is Resolution.INFERRED


def test_a_method_said_to_return_self_gives_its_class(catalog: Catalog) -> None:
    """`def with_raw(self, raw) -> Self:` in another file: `r.with_raw(None).body` is the Response's body."""
    assert _named(catalog)[("client.cli.refreshed", "client.body.Body.length")] is Resolution.INFERRED


def test_an_item_of_another_file_s_table_of_classes_called_constructs_any_of_them(catalog: Catalog) -> None:
    """`RENDERERS = {'plain': Plain, 'marked': Marked}` in one file, `RENDERERS[kind]()` in another: a dispatch to
    each class the table holds, none to a class it does not."""
    calls = _named(catalog)
    assert calls[("client.show.show", "client.renderers.Plain")] is Resolution.DISPATCH
    assert calls[("client.show.show", "client.renderers.Marked")] is Resolution.DISPATCH
    assert ("client.show.show", "client.renderers.Unlisted") not in calls
    # an item taken into a variable first (`renderer_class = RENDERERS.get(kind)`, then `renderer_class()`)
    assert calls[("client.show.show_later", "client.renderers.Plain")] is Resolution.DISPATCH
    assert calls[("client.show.show_later", "client.renderers.Marked")] is Resolution.DISPATCH
    assert ("client.show.show_later", "client.renderers.Unlisted") not in calls
    # a direct call and a dispatch to one class from the same chunk: the surer one stands
    assert calls[("client.show.show_default", "client.renderers.Plain")] is Resolution.EXACT
    assert calls[("client.show.show_default", "client.renderers.Marked")] is Resolution.DISPATCH


def test_a_local_given_self_is_of_the_class_and_a_returned_class_constructs(catalog: Catalog) -> None:
    """`registry = self; registry.shut(...)`, and `made = adapter_class()` (`-> type[HTTPAdapter]`), `made()`."""
    calls = _named(catalog)
    assert calls[("client.registry.Registry.shut_all", "client.registry.Registry.shut")] is Resolution.INFERRED
    assert calls[("client.registry.fresh", "client.adapters.HTTPAdapter")] is Resolution.INFERRED
    assert calls[("client.registry.fresh", "client.adapters.HTTPAdapter.close")] is Resolution.INFERRED


def test_an_attribute_of_another_file_holding_a_class_or_function_is_what_a_call_of_it_runs(catalog: Catalog) -> None:
    """`adapter_class: type[HTTPAdapter] = HTTPAdapter`, `mailer_class = Mailer` and `self.make = make_body` in
    another file's class: `settings.adapter_class()` constructs an HTTPAdapter (whose `send` the result calls, not
    Mailer's), `settings.mailer_class().send()` is Mailer's and `settings.mailer_class.configured()` the class's own,
    `settings.make()` calls the function (and its result is what the function returns)."""
    calls = _named(catalog)
    assert calls[("client.wiring.connect", "client.adapters.HTTPAdapter")] is Resolution.INFERRED
    assert calls[("client.wiring.connect", "client.adapters.HTTPAdapter.send")] is Resolution.INFERRED
    assert calls[("client.wiring.notify", "client.adapters.Mailer")] is Resolution.INFERRED
    assert calls[("client.wiring.notify", "client.adapters.Mailer.send")] is Resolution.INFERRED
    assert calls[("client.wiring.body_of", "client.factory.make_body")] is Resolution.INFERRED
    assert calls[("client.wiring.body_of", "client.body.Body.length")] is Resolution.INFERRED
    assert calls[("client.wiring.configure", "client.adapters.Mailer.configured")] is Resolution.INFERRED
    wrong = {
        ("client.wiring.connect", "client.adapters.Mailer.send"),
        ("client.wiring.notify", "client.adapters.HTTPAdapter.send"),
    }
    assert not wrong & set(calls)


def test_a_type_flows_past_a_branch_that_may_not_run_and_not_into_it(catalog: Catalog) -> None:
    """`conn = r.connection`, then `if history: conn = history.pop()` (untyped): after the `if`, conn may still
    hold the adapter (its `send` is inferred); in the branch it holds what `pop` gave (its `close` only a guess)."""
    calls = _named(catalog)
    assert calls[("client.auth.latest", "client.adapters.HTTPAdapter.send")] is Resolution.INFERRED
    assert calls[("client.auth.latest", "client.adapters.HTTPAdapter.close")] is Resolution.NAME


def test_a_project_indexed_before_the_one_stating_the_type_binds_when_it_arrives(catalog: Catalog) -> None:
    calls = _named(catalog)
    assert calls[("app.fetch.fetch", "client.adapters.HTTPAdapter.send")] is Resolution.INFERRED
    # a class of the app states `adapter: HTTPAdapter` before the client is indexed: the fact waits, and so does the
    # call on it in another file of the app, until the class it names arrives
    assert calls[("app.shut.shut", "client.adapters.HTTPAdapter.close")] is Resolution.INFERRED


def test_a_run_that_rewrites_one_side_binds_as_a_fresh_index_would(tmp_path: Path) -> None:
    catalog = indexed_projects(tmp_path, {"client": CLIENT}, ("client",))
    try:
        root = tmp_path / "client"
        # only the calling file changes: the stated type is read from the graph
        write_files(
            root,
            {
                "client/auth.py": CLIENT["client/auth.py"] + "\n\ndef again(r: Response):\n"
                "    return r.connection.send(r)\n"
            },
        )
        with catalog.writer() as writer:
            index_folder(writer, root, "client", max_file_bytes=1_000_000)
        assert _named(catalog)[("client.auth.again", "client.adapters.HTTPAdapter.send")] is Resolution.INFERRED
        # only the stating file changes: the calls that read it are bound again to the new type
        models = CLIENT["client/models.py"].replace("import HTTPAdapter", "import Mailer")
        write_files(root, {"client/models.py": models.replace("connection: HTTPAdapter", "connection: Mailer")})
        with catalog.writer() as writer:
            index_folder(writer, root, "client", max_file_bytes=1_000_000)
        calls = _named(catalog)
        assert calls[("client.auth.retry", "client.adapters.Mailer.send")] is Resolution.INFERRED
        assert ("client.auth.retry", "client.adapters.HTTPAdapter.send") not in calls
        assert (
            catalog.graph.holds(catalog.tenant).count(
                ("class:client:client.models.Response", "connection", "class:client:client.adapters.Mailer")
            )
            == 1
        )
    finally:
        catalog.close()


TREE: dict[str, str] = {
    "tree/__init__.py": "",
    "tree/nodes.py": (
        "import typing as t\n\n\n"
        "class Expr:\n"
        "    def as_const(self):\n"
        "        return None\n\n\n"
        "class Const(Expr):\n"
        "    def as_const(self):\n"
        "        return 1\n\n\n"
        "class Keyword:\n"
        "    value: Expr\n\n"
        "    def key(self):\n"
        "        return ''\n\n\n"
        "class Modifier:\n"
        "    options: t.List[Keyword]\n"
        "    names: t.List[str]\n\n\n"
        "class Base:\n"
        "    def __init__(self) -> None:\n"
        "        self.kids: list[Keyword] = []\n\n\n"
        "class Other:\n"
        "    def key(self):\n"
        "        return ''\n\n\n"
        "class Pair:\n"
        "    def __init__(self, left: Keyword, right: Keyword) -> None:\n"
        "        self.left = left\n"
        "        self.right = right\n"
    ),
    "tree/walk.py": (
        "from .nodes import Base\n\n\n"
        "class Derived(Base):\n"
        "    def keys(self):\n"
        "        return [k.key() for k in self.kids]\n"
    ),
}
GENERATE: dict[str, str] = {
    "gen/__init__.py": "",
    "gen/compiler.py": (
        "from tree import nodes\n\n\n"
        "def visit_modifier(node: nodes.Modifier):\n"
        "    for keyword in node.options:\n"
        "        keyword.key()\n"
        "        keyword.value.as_const()\n\n\n"
        "def names(node: nodes.Modifier):\n"
        "    return [n.key() for n in node.names]\n\n\n"
        "def lefts(pair: nodes.Pair):\n"
        "    return pair.left.key()\n\n\n"
        "def rights(pair: nodes.Pair):\n"
        "    return pair.right.key()\n"
    ),
}


def test_what_a_class_of_another_project_states_of_its_attributes_elements_types_a_loop_over_it(
    tmp_path: Path,
) -> None:
    # jinja2's compiler: `for keyword in node.options: ... keyword.value.as_const(...)`, with `options:
    # t.List[Keyword]` and Keyword's `value: Expr` stated in nodes.py; a base class's `self.kids: list[Keyword]` read
    # by a subclass of another file; two attributes of one class holding the same class (`left`, `right`) are two
    # facts; the generating project indexed first, so its calls wait for the project that states the types
    calls = _named_in(tmp_path, {"tree": TREE, "gen": GENERATE}, ("gen", "tree"))
    assert calls[("gen.compiler.visit_modifier", "tree.nodes.Keyword.key")] is Resolution.INFERRED
    assert calls[("gen.compiler.visit_modifier", "tree.nodes.Expr.as_const")] is Resolution.INFERRED
    assert calls[("tree.walk.Derived.keys", "tree.nodes.Keyword.key")] is Resolution.INFERRED
    assert calls[("gen.compiler.lefts", "tree.nodes.Keyword.key")] is Resolution.INFERRED
    assert calls[("gen.compiler.rights", "tree.nodes.Keyword.key")] is Resolution.INFERRED
    assert ("gen.compiler.visit_modifier", "tree.nodes.Other.key") not in calls
    assert not [callee for caller, callee in calls if caller == "gen.compiler.names"]  # strings: no project's `key`


LIBRARY: dict[str, str] = {
    "lib/__init__.py": "",
    "lib/nodes.py": (
        "class Keyword:\n"
        "    def key(self):\n"
        "        return ''\n\n\n"
        "class Base:\n"
        "    def __init__(self) -> None:\n"
        "        self.kid: Keyword = Keyword()\n"
        "        self.kids: list[Keyword] = []\n"
    ),
}
SUBCLASSING: dict[str, str] = {
    "app/__init__.py": "",
    "app/walk.py": (
        "from lib.nodes import Base\n\n\n"
        "class Derived(Base):\n"
        "    def one(self):\n"
        "        return self.kid.key()\n\n"
        "    def keys(self):\n"
        "        return [k.key() for k in self.kids]\n"
    ),
}


@pytest.mark.parametrize("order", [("app", "lib"), ("lib", "app")])
def test_an_attribute_a_base_of_a_project_indexed_later_states_binds_when_that_project_arrives(
    tmp_path: Path, order: tuple[str, str]
) -> None:
    # `class Derived(lib.Base)` indexed before `lib`: what `self.kid` holds is not stated by any indexed class yet,
    # and may be by the base the later project brings; the call waits for it instead of being given up
    calls = _named_in(tmp_path, {"lib": LIBRARY, "app": SUBCLASSING}, order)
    assert calls[("app.walk.Derived.one", "lib.nodes.Keyword.key")] is Resolution.INFERRED
    assert calls[("app.walk.Derived.keys", "lib.nodes.Keyword.key")] is Resolution.INFERRED
