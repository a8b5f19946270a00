"""What runs when a call runs: a call bound to a base method reaches the overrides (dispatch), a call of a class its
constructor, a function calling itself is an edge, and `explain_path` between two callables gives the chain of calls
before any path that climbs to a container, across two projects and through a real MCP session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.projects import (
    call_edges,
    edges_named,
    edges_out,
    indexed_projects,
    project_calls,
    project_edges,
    write_files,
)
from trident.ingest.code import bindings
from trident.ingest.pipeline import index_folder
from trident.retrieval.callers import walk_callers
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import Resolution
from trident.tools.explain import explain_path
from trident.tools.trace import Direction, trace_relationships

# A client library over a transport library (the shape of httpx over httpcore): the client binds its transport to
# the abstract base from a declared return type; the override that runs hands the request to the other project.
PROJECTS: dict[str, dict[str, str]] = {
    "wire": {
        "wire/__init__.py": "from ._pool import Pool\n\n__all__ = ['Pool']\n",
        "wire/_pool.py": (
            "class Pool:\n"
            "    def __init__(self, size: int = 4):\n"
            "        self._size = size\n\n"
            "    def handle_request(self, request):\n"
            "        return self._send(request)\n\n"
            "    def _send(self, request):\n"
            "        return request\n"
        ),
        "wire/_batch.py": (
            "class Lock:\n"
            "    def __enter__(self):\n"
            "        return self\n\n"
            "    def __exit__(self, *exc):\n"
            "        return False\n\n\n"
            "class Batch:\n"
            "    def __init__(self):\n"
            "        self.items = []\n\n"
            "    def __iter__(self):\n"
            "        return iter(self.items)\n\n"
            "    @classmethod\n"
            "    def empty(cls):\n"
            "        return cls()\n\n"
            "    @property\n"
            "    def size(self):\n"
            "        return len(self.items)\n\n"
            "    def is_empty(self):\n"
            "        return self.size == 0\n\n\n"
            "def drain():\n"
            "    batch = Batch()\n"
            "    with Lock():\n"
            "        for item in batch:\n"
            "            print(item)\n"
            "    return batch.size\n"
        ),
    },
    "web": {
        "web/__init__.py": "",
        "web/_transports.py": (
            "class BaseTransport:\n"
            "    def handle_request(self, request):\n"
            "        raise NotImplementedError\n\n\n"
            "class HTTPTransport(BaseTransport):\n"
            "    def __init__(self):\n"
            "        import wire\n\n"
            "        self._pool = wire.Pool(8)\n\n"
            "    def handle_request(self, request):\n"
            "        return self._pool.handle_request(request)\n\n\n"
            "class MockTransport(BaseTransport):\n"
            "    def handle_request(self, request):\n"
            "        return request\n"
        ),
        "web/_client.py": (
            "from ._transports import BaseTransport, HTTPTransport\n\n\n"
            "class Client:\n"
            "    def __init__(self, transport=None):\n"
            "        self._transport = transport or HTTPTransport()\n\n"
            "    def send(self, request):\n"
            "        return self._send_handling_redirects(request)\n\n"
            "    def _send_handling_redirects(self, request, hops: int = 0):\n"
            "        if hops:\n"
            "            return self._send_handling_redirects(request, hops - 1)\n"
            "        return self._send_single(request)\n\n"
            "    def _send_single(self, request):\n"
            "        return self._transport_for().handle_request(request)\n\n"
            "    def _transport_for(self) -> BaseTransport:\n"
            "        return self._transport\n\n\n"
            "def walk(tree):\n"
            "    for child in tree:\n"
            "        walk(child)\n\n\n"
            'if __name__ == "__main__":\n'
            '    Client().send("ping")\n'
        ),
        "web/_callbacks.py": (
            "from ._client import Client\n\n\n"
            "def traced(function):\n"
            "    return function\n\n\n"
            "@traced\n"
            "def log_reply(reply):\n"
            "    return reply\n\n\n"
            "def send_all(requests, executor):\n"
            "    client = Client()\n"
            "    sent = [executor.submit(client.send, request) for request in requests]\n"
            "    return sent + list(map(log_reply, requests))\n\n\n"
            "def timed(function):\n"
            "    def wrapper(*args):\n"
            "        return function(*args)\n\n"
            "    return wrapper\n\n\n"
            "@timed\n"
            "def log_error(error):\n"
            "    return error\n\n\n"
            "def report(errors):\n"
            "    return [log_error(error) for error in errors]\n\n\n"
            "def quiet(errors):\n"
            "    @timed\n"
            "    def log_error(error):\n"
            "        return None\n\n"
            "    return [log_error(error) for error in errors]\n"
        ),
    },
}
SEND = "method:web:web._client.Client.send"
REDIRECTS = "method:web:web._client.Client._send_handling_redirects"
SINGLE = "method:web:web._client.Client._send_single"
BASE_HANDLE = "method:web:web._transports.BaseTransport.handle_request"
HTTP_HANDLE = "method:web:web._transports.HTTPTransport.handle_request"
MOCK_HANDLE = "method:web:web._transports.MockTransport.handle_request"
POOL_HANDLE = "method:wire:wire._pool.Pool.handle_request"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("execution"), PROJECTS, ("web", "wire"))
    yield cat
    cat.close()


_out = edges_out


def test_a_call_of_the_base_method_dispatches_to_every_override_and_overrides_are_edges(
    catalog: Catalog, views: GenerationViews
) -> None:
    calls = _out(catalog, views, SINGLE, relation_types=["CALLS"])
    assert calls[("CALLS", BASE_HANDLE)] == "inferred"  # the declared target stays, surer than what it dispatches to
    assert calls[("CALLS", HTTP_HANDLE)] == calls[("CALLS", MOCK_HANDLE)] == "dispatch"
    assert _out(catalog, views, HTTP_HANDLE, relation_types=["OVERRIDES"]) == {("OVERRIDES", BASE_HANDLE): "exact"}
    # the pool's own method is not an override of anything: no dispatch edge leads into it from the base
    assert ("CALLS", POOL_HANDLE) not in calls


def test_the_callers_of_an_override_include_the_calls_it_dispatches_from(
    catalog: Catalog, views: GenerationViews
) -> None:
    callers = trace_relationships(Reader(catalog, views), HTTP_HANDLE, direction=Direction.IN, max_hops=1)
    assert [(e.source, e.resolution) for e in callers.edges if e.type == "CALLS"] == [(SINGLE, Resolution.DISPATCH)]
    surer = trace_relationships(
        Reader(catalog, views),
        HTTP_HANDLE,
        direction=Direction.IN,
        max_hops=1,
        min_resolution=Resolution.INFERRED,
        relation_types=["CALLS"],
    )
    assert surer.edges == [] and surer.message is not None and "min_resolution='dispatch'" in surer.message


def test_a_class_call_runs_its_constructor_and_a_function_calling_itself_is_an_edge(
    catalog: Catalog, views: GenerationViews
) -> None:
    init = _out(catalog, views, "method:web:web._transports.HTTPTransport.__init__", relation_types=["CALLS"])
    assert init[("CALLS", "class:wire:wire._pool.Pool")] == "exact"  # the edge to the class stays
    assert init[("CALLS", "method:wire:wire._pool.Pool.__init__")] == "exact"
    assert _out(catalog, views, "function:web:web._client.walk", relation_types=["CALLS"]) == {
        ("CALLS", "function:web:web._client.walk"): "exact"
    }
    assert _out(catalog, views, REDIRECTS, relation_types=["CALLS"])[("CALLS", REDIRECTS)] == "exact"


@pytest.mark.parametrize("relation_types", [None, ["CALLS"]])
def test_the_first_path_between_two_callables_is_the_call_chain_through_the_override(
    catalog: Catalog, views: GenerationViews, relation_types: list[str] | None
) -> None:
    result = explain_path(Reader(catalog, views), SEND, POOL_HANDLE, max_hops=6, relation_types=relation_types)
    first = result.paths[0]
    assert first.call_chain and all(h.forward and h.type == "CALLS" for h in first.hops)
    assert [h.target for h in first.hops] == [REDIRECTS, SINGLE, HTTP_HANDLE, POOL_HANDLE]
    assert [h.resolution.value for h in first.hops] == ["exact", "exact", "dispatch", "inferred"]
    assert "`Client.send` calls `Client._send_handling_redirects` (web/web/_client.py:L9)" in first.sentence
    # each call cited by the line that writes it (the override's call by the base method's call)
    assert [h.call_site for h in first.hops] == [
        "web/web/_client.py:L9",
        "web/web/_client.py:L14",
        "web/web/_client.py:L17",
        "web/web/_transports.py:L13",
    ]
    # no path through the module's `__main__` block or a "class contains method" hop comes before it
    assert all(h.type == "CALLS" for h in first.hops) and result.message is None
    backwards = explain_path(Reader(catalog, views), POOL_HANDLE, SEND, max_hops=6)
    assert backwards.paths[0].call_chain and not any(h.forward for h in backwards.paths[0].hops)


def test_without_a_call_chain_the_answer_says_so_and_gives_the_structural_connection(
    catalog: Catalog, views: GenerationViews
) -> None:
    result = explain_path(Reader(catalog, views), MOCK_HANDLE, POOL_HANDLE, max_hops=6)
    assert result.paths and not any(p.call_chain for p in result.paths)
    assert result.message is not None and result.message.startswith("no call chain of at most max_hops=6 calls")


@pytest.mark.anyio
async def test_a_served_explain_path_gives_the_call_chain_across_the_two_projects(client: Any) -> None:
    result = await client.call_tool(
        "explain_path", {"source": "Client.send", "target": "wire._pool.Pool.handle_request", "max_hops": 6}
    )
    assert not result.is_error, result.content
    first = result.structured_content["paths"][0]
    assert first["call_chain"] is True
    assert [h["target"] for h in first["hops"]] == [REDIRECTS, SINGLE, HTTP_HANDLE, POOL_HANDLE]
    assert [h["resolution"] for h in first["hops"]][2] == "dispatch"


@pytest.mark.anyio
async def test_a_served_impact_of_a_decorator_names_what_it_decorates_and_their_callers(client: Any) -> None:
    result = await client.call_tool("impact", {"entities": ["web._callbacks.timed"], "max_hops": 2})
    assert not result.is_error, result.content
    callers = {c["id"]: c["hops"] for c in result.structured_content["callers"]}
    # what it decorates (calling it runs the wrapper), their callers, and the module applying it
    assert callers["function:web:web._callbacks.log_error"] == 1
    assert callers["function:web:web._callbacks.report"] == 1  # through the wrapper the call runs
    assert "function:web:web._callbacks.log_reply" not in callers  # decorated by `traced`, which hands it back


def test_a_function_passed_as_a_value_is_referenced_and_a_chain_runs_through_it(
    catalog: Catalog, views: GenerationViews
) -> None:
    send_all = "function:web:web._callbacks.send_all"
    passed = _out(catalog, views, send_all, relation_types=["REFERENCES"])
    # a typed receiver's method and a module-level function; the bare parameters passed along are data, not callbacks
    assert passed == {
        ("REFERENCES", SEND): "inferred",
        ("REFERENCES", "function:web:web._callbacks.log_reply"): "exact",
    }
    chain = explain_path(Reader(catalog, views), send_all, SINGLE, max_hops=4)
    first = chain.paths[0]
    assert first.call_chain and [h.type for h in first.hops] == ["REFERENCES", "CALLS", "CALLS"]
    assert "`send_all` passes on `Client.send`" in first.sentence


def test_reading_a_property_runs_its_getter(catalog: Catalog, views: GenerationViews) -> None:
    size = "method:wire:wire._batch.Batch.size"
    assert _out(catalog, views, "method:wire:wire._batch.Batch.is_empty", relation_types=["CALLS"]) == {
        ("CALLS", size): "exact"
    }
    assert (
        _out(catalog, views, "function:wire:wire._batch.drain", relation_types=["CALLS"])[("CALLS", size)] == "inferred"
    )
    # a plain attribute read (`self.items`) is no call
    assert _out(catalog, views, size, relation_types=["CALLS"]) == {}


def test_a_with_and_a_for_run_the_dunders_of_a_stated_type_and_cls_calls_the_class(
    catalog: Catalog, views: GenerationViews
) -> None:
    drained = _out(catalog, views, "function:wire:wire._batch.drain", relation_types=["CALLS"])
    for method in ("Lock.__enter__", "Lock.__exit__", "Batch.__iter__"):
        assert drained[("CALLS", f"method:wire:wire._batch.{method}")] == "inferred", method
    empty = _out(catalog, views, "method:wire:wire._batch.Batch.empty", relation_types=["CALLS"])
    assert empty == {
        ("CALLS", "class:wire:wire._batch.Batch"): "exact",
        ("CALLS", "method:wire:wire._batch.Batch.__init__"): "exact",
    }


def test_a_decorator_is_called_where_the_definition_is_and_its_wrapper_runs_when_the_definition_is_called(
    catalog: Catalog, views: GenerationViews
) -> None:
    module, report = "module:web:web._callbacks", "function:web:web._callbacks.report"
    traced, timed = "function:web:web._callbacks.traced", "function:web:web._callbacks.timed"
    log_reply, log_error = "function:web:web._callbacks.log_reply", "function:web:web._callbacks.log_error"
    # `@traced` runs once, where `def log_reply` is: the module calls it, and log_reply is what it made
    assert {("CALLS", traced), ("CALLS", timed)} <= _out(catalog, views, module, relation_types=["CALLS"]).keys()
    assert _out(catalog, views, log_reply, relation_types=["CALLS", "DECORATED_BY"]) == {
        ("DECORATED_BY", traced): "exact"
    }
    # `traced` hands the function back: calling log_reply runs no code of it; `timed`'s wrapper calls what it is
    # given, so calling log_error runs the wrapper first (as surely as the wrapper's call of log_error is bound)
    assert _out(catalog, views, timed, relation_types=["CALLS"]) == {("CALLS", log_error): "inferred"}
    assert _out(catalog, views, report, relation_types=["CALLS"]) == {
        ("CALLS", log_error): "exact",
        ("CALLS", timed): "inferred",
    }
    # a function's own nested `def` of the same name is what its calls call, not the module's
    quiet = "function:web:web._callbacks.quiet"
    assert _out(catalog, views, quiet, relation_types=["CALLS"]) == {("CALLS", timed): "exact"}
    # what changing the decorator affects: the definitions it decorates, and their callers
    walk = walk_callers(views.relations(catalog), [timed], 2, Resolution.INFERRED)
    assert {log_error, report, module} <= walk.reached.keys() and log_reply not in walk.reached
    assert walk.reached[report].hops == 1  # the wrapper runs in the call
    callers = trace_relationships(
        Reader(catalog, views), timed, direction=Direction.IN, max_hops=1, relation_types=["CALLS", "DECORATED_BY"]
    )
    assert {(e.source, e.type) for e in callers.edges} == {
        (module, "CALLS"),
        (report, "CALLS"),
        (quiet, "CALLS"),
        (log_error, "DECORATED_BY"),
    }
    # a builtin decorator (@property, @classmethod) is the language's own: no edge
    assert _out(catalog, views, "method:wire:wire._batch.Batch.empty", relation_types=["CALLS"]).keys() == {
        ("CALLS", "class:wire:wire._batch.Batch"),
        ("CALLS", "method:wire:wire._batch.Batch.__init__"),
    }


LABELS = (("function", ".first"), ("class", ".Box"), ("method", ".Box.size"), ("module", ""))
MADE = {
    "shapes/__init__.py": "",
    "shapes/make.py": (
        "def variant(normal):\n"
        "    def decorator(f):\n"
        "        return f\n"
        "    return decorator\n\n\n"
        "def fallback():\n"
        "    return 0\n\n\n"
        "def base_of(kind):\n"
        "    return kind\n\n\n"
        "class Plain:\n"
        "    pass\n"
    ),
    "shapes/use.py": (
        "from .make import Plain, base_of, fallback, variant\n\n\n"
        "@variant(fallback)\n"
        "def first(x=fallback()):\n"
        "    return x\n\n\n"
        "class Box(base_of(Plain)):\n"
        "    @variant(base_of(first))\n"
        "    def size(self, n=fallback()):\n"
        "        return n\n"
    ),
}


def test_the_calls_in_a_definitions_defaults_and_bases_are_the_definitions_and_its_decorators_the_enclosing_scopes(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # defaults, bases and the values given to a decorator run once, where the definition is, and make it what it is
    # (what changing `fallback` affects is `first` and its callers); a decorator is called by the scope the
    # definition is in, and the definition is what the decorator made of it (`DECORATED_BY`)
    ids = {label: f"{kind}:shapes:shapes.use{label}" for kind, label in LABELS}
    found = project_edges(
        tmp_path_factory.mktemp("made"),
        "shapes",
        MADE,
        list(ids.values()),
        _out,
        relation_types=["CALLS", "DECORATED_BY"],
    )
    made = {label: set(found[entity]) for label, entity in ids.items()}
    variant, fallback = "function:shapes:shapes.make.variant", "function:shapes:shapes.make.fallback"
    assert made[".first"] == {("DECORATED_BY", variant), ("CALLS", fallback)}
    base_of = "function:shapes:shapes.make.base_of"
    assert made[".Box.size"] == {("DECORATED_BY", variant), ("CALLS", fallback), ("CALLS", base_of)}
    assert made[".Box"] == {("CALLS", base_of), ("CALLS", variant)}
    assert made[""] == {("CALLS", variant)}


def test_new_of_a_typescript_class_runs_its_constructor_and_a_call_of_the_base_dispatches(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    files = {
        "src/pool.ts": (
            "export class Base {\n"
            "  handle(request: string): string {\n"
            "    return request;\n"
            "  }\n"
            "}\n\n"
            "export class Pool extends Base {\n"
            "  constructor() {\n"
            "    super();\n"
            "  }\n\n"
            "  handle(request: string): string {\n"
            "    return request.trim();\n"
            "  }\n"
            "}\n\n"
            "export function send(base: Base): string {\n"
            "  const pool = new Pool();\n"
            "  return base.handle('x') + String(pool);\n"
            "}\n"
        ),
    }
    catalog = indexed_projects(tmp_path_factory.mktemp("ts-execution"), {"ts": files}, ("ts",))
    try:
        views = GenerationViews(RetrievalSettings())
        calls = _out(catalog, views, "function:ts:src.pool.send", relation_types=["CALLS"])
        assert calls[("CALLS", "method:ts:src.pool.Pool.constructor")] == "exact"
        assert calls[("CALLS", "method:ts:src.pool.Base.handle")] == "inferred"
        assert calls[("CALLS", "method:ts:src.pool.Pool.handle")] == "dispatch"  # the override the base call may run
    finally:
        catalog.close()


CONSUMED = {
    "bag/__init__.py": "",
    "bag/store.py": (
        "class Cache:\n"
        "    def __iter__(self):\n"
        "        return iter([])\n\n"
        "    def __len__(self):\n"
        "        return 0\n\n"
        "    def keys(self):\n"
        "        return list(self)\n\n"
        "    def ordered(self, key=None):\n"
        "        return sorted(self, key=key)\n\n"
        "    def pairs(self, other: 'Cache'):\n"
        "        return [a for a, b in zip(self, other)]\n\n"
        "    def flat(self):\n"
        "        yield from self\n\n"
        "    def biggest(self):\n"
        "        return max(self)\n\n"
        "    def bigger(self, other):\n"
        "        return max(self, other)\n\n\n"
        "class Stream:\n"
        "    def __aiter__(self):\n"
        "        return self\n\n"
        "    async def __anext__(self):\n"
        "        raise StopAsyncIteration\n\n"
        "    async def __aenter__(self):\n"
        "        return self\n\n"
        "    async def __aexit__(self, *exc):\n"
        "        return False\n\n"
        "    def __iter__(self):\n"
        "        return iter([])\n\n\n"
        "async def drain(stream: Stream):\n"
        "    async with stream:\n"
        "        return [x async for x in stream]\n\n\n"
        "def split(cache: Cache):\n"
        "    first, second = cache\n"
        "    return [*cache], first, second\n"
    ),
}


def test_what_consumes_an_iterable_runs_its_iteration(tmp_path: Path) -> None:
    # `list(x)` asks x's length, then iterates it; `sorted`, `zip`, `max(x)`, a comprehension, `yield from`,
    # unpacking and `*x` iterate it; `async with`/`async for` run the async methods (never `__iter__`)
    calls = project_calls(tmp_path, "bag", CONSUMED)
    cache, stream = "bag.store.Cache", "bag.store.Stream"
    assert calls[(f"{cache}.keys", f"{cache}.__iter__")] == "exact"
    assert calls[(f"{cache}.keys", f"{cache}.__len__")] == "exact"
    for caller in ("ordered", "pairs", "flat", "biggest"):
        assert calls[(f"{cache}.{caller}", f"{cache}.__iter__")] == "exact", caller
    assert (f"{cache}.bigger", f"{cache}.__iter__") not in calls  # `max(a, b)` compares, iterates nothing
    assert calls[("bag.store.split", f"{cache}.__iter__")] == "inferred"
    assert (f"{cache}.ordered", f"{cache}.__len__") in calls and (f"{cache}.pairs", f"{cache}.__len__") not in calls
    drained = {callee for caller, callee in calls if caller == "bag.store.drain"}
    assert drained == {f"{stream}.{m}" for m in ("__aenter__", "__aexit__", "__aiter__", "__anext__")}


READ_ELSEWHERE = {
    "kit/__init__.py": "",
    "kit/items.py": (
        "class Item:\n"
        "    @property\n"
        "    def value(self):\n"
        "        return self\n\n"
        "    def render(self):\n"
        "        return ''\n\n\n"
        "class Bool(Item):\n"
        "    @property\n"
        "    def value(self):\n"
        "        return True\n\n"
        "    def render(self):\n"
        "        return 'true'\n"
    ),
    "kit/container.py": (
        "from .items import Item\n\n\n"
        "def read(item: Item):\n"
        "    return item.value\n\n\n"
        "def later(item: Item, run):\n"
        "    return run(item.render)\n"
    ),
}


def test_a_property_read_or_a_bound_method_handed_on_reaches_the_overrides(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # tomlkit's `item.value` in container.py, with `value` a property each Item subclass overrides: the read runs
    # the getter (a call: items.py states its getters), the receiver's own; a bound method handed on is a reference
    ids = ["function:kit:kit.container.read", "function:kit:kit.container.later"]
    found = project_edges(tmp_path_factory.mktemp("elsewhere"), "kit", READ_ELSEWHERE, ids, _out)
    read, later = found[ids[0]], found[ids[1]]
    assert read[("CALLS", "method:kit:kit.items.Item.value")] == "inferred"
    assert read[("CALLS", "method:kit:kit.items.Bool.value")] == "dispatch"
    assert later[("REFERENCES", "method:kit:kit.items.Bool.render")] == "dispatch"
    assert ("CALLS", "method:kit:kit.items.Bool.render") not in later  # a method handed on is not a call here


KEYED = {
    "toml/__init__.py": "",
    "toml/items.py": (
        "from __future__ import annotations\n\n\n"
        "class Key:\n"
        "    def __hash__(self):\n"
        "        return 0\n\n"
        "    def __eq__(self, other):\n"
        "        return True\n\n\n"
        "class Container:\n"
        "    def __init__(self) -> None:\n"
        "        self._map: dict[Key, int] = {}\n"
        "        self._seen: set[Key] = set()\n"
        "        self._names: dict[str, int] = {}\n\n"
        "    def has(self, key):\n"
        "        return key in self._map\n\n"
        "    def put(self, key, value):\n"
        "        self._map[key] = value\n"
        "        self._seen.add(key)\n\n"
        "    def named(self, name):\n"
        "        return self._names.get(name)\n\n\n"
        "def count(keys: dict[Key, int], key):\n"
        "    return keys.get(key, 0)\n"
    ),
}


def test_a_lookup_in_a_mapping_or_set_of_a_stated_key_class_runs_its_hash_and_eq(tmp_path: Path) -> None:
    # tomlkit's `self._map: dict[SingleKey, int]`, then `key in self._map`, `self._map[key] = ...`: the key's class
    # hashes it and compares it; a mapping keyed by `str` runs nothing of a project's
    calls = project_calls(tmp_path, "toml", KEYED)
    key = "toml.items.Key"
    for caller in ("toml.items.Container.has", "toml.items.Container.put", "toml.items.count"):
        assert calls[(caller, f"{key}.__hash__")] == calls[(caller, f"{key}.__eq__")] == "inferred", caller
    assert not [t for s, t in calls if s == "toml.items.Container.named"]


HASHED = {
    "specs/__init__.py": "",
    "specs/spec.py": (
        "class Spec:\n"
        "    def __init__(self, text):\n"
        "        self.text = text\n\n"
        "    def __hash__(self):\n"
        "        return hash(self.text)\n\n"
        "    def __eq__(self, other):\n"
        "        return self.text == other.text\n\n\n"
        "class SpecSet:\n"
        "    def __init__(self, texts):\n"
        "        self._specs = frozenset(map(Spec, texts))\n\n"
        "    def pair(self, a: Spec, b: Spec):\n"
        "        return {a, b}\n\n"
        "    def words(self, texts):\n"
        "        return set(texts)\n\n\n"
        "def set(values):\n"
        "    return list(values)\n\n\n"
        "def rebound(a: Spec):\n"
        "    return set([a])\n"
    ),
    "specs/use.py": (
        "from .spec import Spec\n\n\n"
        "def same(a, b):\n"
        "    return hash(Spec(a)) == hash(Spec(b))\n\n\n"
        "def equal(a, b):\n"
        "    return Spec(a) == Spec(b)\n\n\n"
        "def specs(lines):\n"
        "    return list(map(Spec, lines))\n\n\n"
        "def lengths(lines):\n"
        "    return hash(len(lines))\n"
    ),
}


def test_a_set_built_of_values_of_a_stated_class_or_a_constructed_value_hashed_runs_its_hash(tmp_path: Path) -> None:
    # packaging's `self._specs = frozenset(map(Specifier, specs))`: building the set hashes every Specifier
    calls = project_calls(tmp_path, "specs", HASHED)
    for caller in ("specs.spec.SpecSet.__init__", "specs.spec.SpecSet.pair"):
        assert calls[(caller, "specs.spec.Spec.__hash__")] == "inferred", caller
    assert not [t for s, t in calls if s == "specs.spec.SpecSet.words" and t.endswith("__hash__")]
    assert ("specs.spec.rebound", "specs.spec.Spec.__hash__") not in calls  # `set` is the module's own function
    # a value made by constructing a class is of that class: hashing or comparing it runs the class's methods
    assert calls[("specs.use.same", "specs.spec.Spec.__hash__")] == "inferred"
    assert calls[("specs.use.equal", "specs.spec.Spec.__eq__")] == "inferred"
    assert calls[("specs.use.specs", "specs.spec.Spec")] == "inferred"  # `map` calls the class
    assert not [t for s, t in calls if s == "specs.use.lengths" and t.startswith("specs.")]


ORDERED = {
    "oset/__init__.py": "",
    "oset/ordered.py": (
        "from collections.abc import MutableSet\n\n\n"
        "class OrderedSet(MutableSet):\n"
        "    def __init__(self, iterable=None):\n"
        "        self.map = {}\n"
        "        if iterable is not None:\n"
        "            self |= iterable\n\n"
        "    def __len__(self):\n"
        "        return len(self.map)\n\n"
        "    def __contains__(self, key):\n"
        "        return key in self.map\n\n"
        "    def __iter__(self):\n"
        "        return iter(self.map)\n\n"
        "    def add(self, key):\n"
        "        self.map[key] = 1\n\n"
        "    def discard(self, key):\n"
        "        self.map.pop(key, None)\n\n\n"
        "class Money:\n"
        "    def __add__(self, other):\n"
        "        return self\n\n"
        "    def __iadd__(self, other):\n"
        "        return self\n\n\n"
        "class Count:\n"
        "    def __add__(self, other):\n"
        "        return self\n\n\n"
        "def narrowed(names, gone):\n"
        "    found = OrderedSet(names)\n"
        "    found -= gone\n"
        "    return found\n\n\n"
        "def total(m: Money, c: Count, n: int):\n"
        "    m += Money()\n"
        "    c += Count()\n"
        "    n += 1\n"
    ),
}


def test_an_augmented_assignment_runs_the_in_place_method_or_the_operators_and_a_set_base_gives_them(
    tmp_path: Path,
) -> None:
    # marshmallow's `OrderedSet(MutableSet)`: `self |= iterable` in its `__init__` runs MutableSet's `__ior__`, which
    # adds each element with the class's own `add`; `-=` discards with its `discard`
    calls = project_calls(tmp_path, "oset", ORDERED)
    assert calls[("oset.ordered.OrderedSet.__init__", "oset.ordered.OrderedSet.add")] == "inferred"
    assert calls[("oset.ordered.narrowed", "oset.ordered.OrderedSet.discard")] == "inferred"
    assert calls[("oset.ordered.total", "oset.ordered.Money.__iadd__")] == "inferred"
    assert ("oset.ordered.total", "oset.ordered.Money.__add__") not in calls  # the in-place method runs instead
    assert calls[("oset.ordered.total", "oset.ordered.Count.__add__")] == "inferred"  # no `__iadd__`: `+` runs


BUILT = {
    "errs/__init__.py": "",
    "errs/exceptions.py": (
        "class ParseError(Exception):\n"
        "    def __init__(self, line):\n"
        "        self.line = line\n\n\n"
        "class EmptyKeyError(ParseError):\n"
        "    def __init__(self, line):\n"
        "        super().__init__(line)\n\n\n"
        "class Plain(Exception):\n"
        "    def __init__(self, line):\n"
        "        self.line = line\n"
    ),
    "errs/source.py": (
        "from .exceptions import ParseError, Plain\n\n\n"
        "class Source:\n"
        "    def parse_error(self, exception: type[ParseError] = ParseError):\n"
        "        return exception(1)\n\n"
        "    def plain(self):\n"
        "        kind = Plain\n"
        "        return kind(2)\n\n"
        "    @classmethod\n"
        "    def make(cls):\n"
        "        return cls()\n\n\n"
        "class Child(Source):\n"
        "    def __init__(self):\n"
        "        pass\n"
    ),
}


def test_a_class_value_that_may_be_a_subclass_constructs_any_class_deriving_from_it(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # tomlkit's `parse_error(self, exception: type[ParseError] = ParseError)`, then `exception(...)` with the
    # subclass a caller passes; `cls()` in a classmethod; a local given one class is that class alone
    error, source = "method:errs:errs.exceptions", "method:errs:errs.source"
    ids = [f"{source}.Source.parse_error", f"{source}.Source.make", f"{source}.Source.plain"]
    found = project_edges(tmp_path_factory.mktemp("built"), "errs", BUILT, ids, _out, relation_types=["CALLS"])
    parse, make, plain = (found[i] for i in ids)
    assert parse[("CALLS", f"{error}.ParseError.__init__")] == "inferred"
    assert parse[("CALLS", f"{error}.EmptyKeyError.__init__")] == "dispatch"
    assert make[("CALLS", f"{source}.Child.__init__")] == "dispatch"
    assert not [t for _, t in plain if "ParseError" in t or "EmptyKey" in t]


LOCAL_CLASSES = {
    "forms/__init__.py": "from .schema import Schema\n",
    "forms/schema.py": (
        "class SchemaMeta(type):\n"
        "    def __new__(mcs, name, bases, attrs):\n"
        "        return super().__new__(mcs, name, bases, attrs)\n\n\n"
        "class Base:\n"
        "    def __init_subclass__(cls, **options):\n"
        "        super().__init_subclass__(**options)\n\n\n"
        "class Schema(Base, metaclass=SchemaMeta):\n"
        "    def __init__(self, strict=False):\n"
        "        self.strict = strict\n\n"
        "    def load(self, data):\n"
        "        return self.dump(data)\n\n"
        "    def dump(self, data):\n"
        "        return data\n\n"
        "    @classmethod\n"
        "    def named(cls):\n"
        "        return cls.__name__\n\n\n"
        "class StrictSchema(Schema):\n"
        "    def load(self, data):\n"
        "        return data\n\n\n"
        "def post_load(fn):\n"
        "    return fn\n"
    ),
    "tests/test_forms.py": (
        "from forms import Schema\n"
        "from forms.schema import post_load\n\n\n"
        "def test_load():\n"
        "    class PersonSchema(Schema):\n"
        "        def dump(self, data):\n"
        "            return {}\n\n"
        "        @post_load\n"
        "        def make(self, data):\n"
        "            return data\n\n"
        "    schema = PersonSchema(strict=True)\n"
        "    assert schema.load({}) == {}\n"
        "    assert schema.dump({}) == {}\n"
        "    assert PersonSchema().load({}) == {}\n"
        "    assert PersonSchema.named() == 'PersonSchema'\n"
    ),
}


def test_a_class_a_function_defines_is_constructed_through_its_base_and_its_own_methods_are_the_functions_code(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # marshmallow's tests define their schemas inside the test (`class RequireSchema(Schema)`), then `.load()`: the
    # class is the test's own code, so its construction and the base's methods it inherits are the test's calls;
    # the instance is exactly that class (no other subclass's override runs), and a method it defines is its own;
    # the class statement runs the metaclass Schema states, the `__init_subclass__` its bases' lookup finds and the
    # decorators of its methods
    test = "function:forms:tests.test_forms.test_load"
    found = project_edges(
        tmp_path_factory.mktemp("local"), "forms", LOCAL_CLASSES, [test], _out, relation_types=["CALLS"]
    )
    calls = {target.rsplit(":", 1)[-1]: how for (_, target), how in found[test].items()}
    schema = "forms.schema.Schema"
    assert calls[f"{schema}.__init__"] == "inferred"
    assert calls[f"{schema}.load"] == "inferred"
    assert calls[f"{schema}.named"] == "inferred"
    assert f"{schema}.dump" not in calls  # PersonSchema's own dump runs
    assert "forms.schema.StrictSchema.load" not in calls  # no override of another subclass
    assert calls["forms.schema.SchemaMeta.__new__"] == "inferred"
    assert calls["forms.schema.Base.__init_subclass__"] == "inferred"
    assert calls["forms.schema.post_load"] == "exact"


CASES = {
    "checks/__init__.py": "",
    "checks/validate.py": (
        "class Length:\n"
        "    def __init__(self, low=0):\n"
        "        self.low = low\n\n"
        "    def __call__(self, value):\n"
        "        return value\n\n\n"
        "class Range(Length):\n"
        "    def __call__(self, value):\n"
        "        return value\n"
    ),
    "checks/schemas.py": (
        "class UserSchema:\n"
        "    def dump(self, obj):\n"
        "        return obj\n\n\n"
        "class AdminSchema:\n"
        "    def dump(self, obj):\n"
        "        return obj\n"
    ),
    "tests/__init__.py": "",
    "tests/conftest.py": (
        "import pytest\n\nfrom checks.schemas import AdminSchema\n\n\n"
        "@pytest.fixture\n"
        "def schema():\n"
        "    return AdminSchema()\n"
    ),
    "tests/test_checks.py": (
        "import pytest\n\n"
        "from checks.schemas import AdminSchema, UserSchema\n"
        "from checks.validate import Length\n\n\n"
        "def test_length():\n"
        "    assert Length(3)('abc') == 'abc'\n\n\n"
        "@pytest.mark.parametrize('SchemaClass', [UserSchema, AdminSchema])\n"
        "def test_dump(SchemaClass):\n"
        "    assert SchemaClass().dump(1) == 1\n\n\n"
        "@pytest.mark.parametrize(\n"
        "    ('label', 'schema'), [('a', UserSchema()), pytest.param('b', UserSchema(), id='b')]\n"
        ")\n"
        "def test_label(label, schema):\n"
        "    assert schema.dump(label)\n"
    ),
}


def test_an_instance_called_runs_its_call_and_a_parametrized_parameter_is_what_its_cases_give(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # marshmallow's `validate.Length(3, 5)("foo")` runs `Length.__call__`; `@pytest.mark.parametrize("SchemaClass",
    # [UserSchema, UserMetaSchema])` gives the test each class (not a fixture of that name), and a parameter whose
    # cases each construct a class is an instance of it, whatever fixture shares its name
    module = "tests.test_checks"
    ids = [f"function:checks:{module}.{name}" for name in ("test_length", "test_dump", "test_label")]
    found = project_edges(tmp_path_factory.mktemp("cases"), "checks", CASES, ids, _out, relation_types=["CALLS"])
    length, dump, label = ({t.rsplit(":", 1)[-1]: how for (_, t), how in found[i].items()} for i in ids)
    assert length["checks.validate.Length.__call__"] == "inferred"
    assert "checks.validate.Range.__call__" not in length  # exactly a Length
    assert dump["checks.schemas.UserSchema.dump"] == dump["checks.schemas.AdminSchema.dump"] == "inferred"
    assert label["checks.schemas.UserSchema.dump"] == "inferred"
    assert "checks.schemas.AdminSchema.dump" not in label  # not the conftest fixture `schema`


MIXINS = {
    "store/__init__.py": "from .caches import FIFO, LRU\n",
    "store/caches.py": (
        "class Base:\n"
        "    def __init__(self, size):\n"
        "        self.size = size\n\n"
        "    def __setitem__(self, key, value):\n"
        "        pass\n\n\n"
        "class LRU(Base):\n"
        "    def __setitem__(self, key, value):\n"
        "        pass\n\n\n"
        "class FIFO(Base):\n"
        "    pass\n"
    ),
    "tests/__init__.py": (
        "class CacheTests:\n"
        "    Cache = None\n\n"
        "    def test_insert(self):\n"
        "        cache = self.Cache(2)\n"
        "        cache[1] = 1\n\n"
        "    def test_helper(self):\n"
        "        self._check(self.Cache(2))\n\n"
        "    def _check(self, cache):\n"
        "        cache[2] = 2\n"
    ),
    "tests/test_lru.py": (
        "import unittest\n\nfrom store import LRU\n\nfrom . import CacheTests\n\n\n"
        "class LRUTest(unittest.TestCase, CacheTests):\n"
        "    Cache = LRU\n"
    ),
    "tests/test_fifo.py": (
        "import unittest\n\nfrom store import FIFO\n\nfrom . import CacheTests\n\n\n"
        "class FIFOTest(unittest.TestCase, CacheTests):\n"
        "    Cache = FIFO\n"
    ),
}


def test_a_value_made_by_a_class_attribute_the_subclasses_give_is_of_each_class_they_give(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # cachetools' `CacheTestMixin` leaves `Cache = None` to each test class deriving from it (`Cache = FIFOCache`),
    # then `cache = self.Cache(maxsize=2)` and `cache[1] = 1`: the mixin's test runs each class's `__setitem__`, as
    # does the helper it hands the value to (`self._test_getsizeof(self.Cache(maxsize=3))`)
    test, helper = "method:store:tests.CacheTests.test_insert", "method:store:tests.CacheTests._check"
    found = project_edges(
        tmp_path_factory.mktemp("mixins"), "store", MIXINS, [test, helper], _out, relation_types=["CALLS"]
    )
    calls, checks = ({t.rsplit(":", 1)[-1]: how for (_, t), how in found[e].items()} for e in (test, helper))
    caches = "store.caches"
    assert calls[f"{caches}.LRU.__setitem__"] == calls[f"{caches}.Base.__setitem__"] == "dispatch"
    assert calls[f"{caches}.Base.__init__"] == "dispatch"
    assert checks[f"{caches}.LRU.__setitem__"] == checks[f"{caches}.Base.__setitem__"] == "dispatch"


MAPPINGS = {
    "kv/__init__.py": "",
    "kv/headers.py": (
        "from collections.abc import MutableMapping\n\n\n"
        "class Headers(MutableMapping):\n"
        "    def __init__(self):\n"
        "        self._store = {}\n\n"
        "    def __getitem__(self, key):\n"
        "        return self._store[key.lower()]\n\n"
        "    def __setitem__(self, key, value):\n"
        "        self._store[key.lower()] = value\n\n"
        "    def __delitem__(self, key):\n"
        "        del self._store[key.lower()]\n\n"
        "    def __iter__(self):\n"
        "        return iter(self._store)\n\n"
        "    def __len__(self):\n"
        "        return len(self._store)\n\n"
        "    def trim(self):\n"
        "        return self.popitem()\n\n\n"
        "class Bounded(Headers):\n"
        "    def popitem(self):\n"
        "        return None\n\n\n"
        "class Plain:\n"
        "    def __setitem__(self, key, value):\n"
        "        pass\n"
    ),
    "kv/client.py": (
        "from .headers import Headers, Plain\n\n\n"
        "def merge(extra: dict) -> Headers:\n"
        "    headers = Headers()\n"
        "    headers.update(extra)\n"
        "    if 'host' in headers:\n"
        "        headers.get('host')\n"
        "    return headers\n\n\n"
        "def plain(extra: dict) -> Plain:\n"
        "    value = Plain()\n"
        "    value.update(extra)\n"
        "    return value\n"
    ),
}


def test_a_method_a_library_container_base_gives_runs_the_classs_own_dunder(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # requests' `CaseInsensitiveDict(MutableMapping)` and cachetools' `Cache(collections.abc.MutableMapping)`:
    # `headers.update(extra)` runs the class's `__setitem__` (the base's `update` sets each item), `in` and `.get`
    # its `__getitem__`; a class with no such base gets nothing for a method it does not have;
    merge, plain, trim = (
        "function:kv:kv.client.merge",
        "function:kv:kv.client.plain",
        "method:kv:kv.headers.Headers.trim",
    )
    ids = [merge, plain, trim]
    found = project_edges(tmp_path_factory.mktemp("kv"), "kv", MAPPINGS, ids, _out, relation_types=["CALLS"])
    calls, others, trims = ({t.rsplit(":", 1)[-1]: how for (_, t), how in found[e].items()} for e in ids)
    assert calls["kv.headers.Headers.__setitem__"] == calls["kv.headers.Headers.__getitem__"] == "inferred"
    assert "kv.headers.Plain.__setitem__" not in others
    assert "kv.headers.Headers.__delitem__" not in calls  # nothing here pops
    # `self.popitem()`: a subclass's override, or the library's, which deletes through the class's own `__delitem__`
    assert trims["kv.headers.Bounded.popitem"] == trims["kv.headers.Headers.__delitem__"] == "dispatch"


VISITORS = {
    "tpl/__init__.py": "",
    "tpl/visitor.py": (
        "class NodeVisitor:\n"
        "    def visit(self, node):\n"
        "        return self.generic_visit(node)\n\n"
        "    def generic_visit(self, node):\n"
        "        return node\n\n\n"
        "class NodeTransformer(NodeVisitor):\n"
        "    def generic_visit(self, node):\n"
        "        return [node]\n"
    ),
    "tpl/optimizer.py": (
        "from .visitor import NodeTransformer\n\n\n"
        "class Optimizer(NodeTransformer):\n"
        "    def generic_visit(self, node):\n"
        "        return super().generic_visit(node)\n"
    ),
    "tpl/symbols.py": (
        "from .visitor import NodeVisitor\n\n\n"
        "class FrameSymbolVisitor(NodeVisitor):\n"
        "    def visit_import(self, node):\n"
        "        return self.generic_visit(node)\n\n"
        "    def visit_both(self, node, other: NodeVisitor):\n"
        "        return self.generic_visit(node), other.generic_visit(node)\n\n\n"
        "class RootVisitor(NodeVisitor):\n"
        "    def visit_block(self, node):\n"
        "        return NodeVisitor.generic_visit(self, node)\n\n\n"
        "def walk(visitor: NodeVisitor, node):\n"
        "    return visitor.generic_visit(node)\n\n\n"
        "class Holder:\n"
        "    def __init__(self):\n"
        "        self.visitor = FrameSymbolVisitor()\n\n"
        "    def run(self, node):\n"
        "        return self.visitor.generic_visit(node)\n\n\n"
        "def made_here(node):\n"
        "    visitor = RootVisitor()\n"
        "    return visitor.generic_visit(node)\n\n\n"
        "def rebound(node, visitor):\n"
        "    visitor = RootVisitor()\n"
        "    return visitor.generic_visit(node)\n\n\n"
        "def make():\n"
        "    return RootVisitor()\n\n\n"
        "def from_factory(node):\n"
        "    visitor = make()\n"
        "    return visitor.generic_visit(node)\n\n\n"
        "class Picky(NodeVisitor):\n"
        "    def __new__(cls, *args):\n"
        "        return object.__new__(cls)\n\n\n"
        "def made_picky(node):\n"
        "    visitor = Picky()\n"
        "    return visitor.generic_visit(node)\n"
    ),
    "tpl/cached.py": (
        "from .symbols import FrameSymbolVisitor\n"
        "from .visitor import NodeVisitor\n\n\n"
        "class Caching(NodeVisitor):\n"
        "    def generic_visit(self, node):\n"
        "        return node\n\n\n"
        "class CachedSymbols(Caching, FrameSymbolVisitor):\n"
        "    pass\n"
    ),
}


def test_a_call_on_a_class_dispatches_only_under_that_class_and_a_named_method_runs_itself(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # jinja2's `FrameSymbolVisitor.visit_Import` calls `self.generic_visit(node)`, which its base NodeVisitor
    # defines: an Optimizer's override never runs there (Optimizer does not derive from FrameSymbolVisitor);
    # (one that puts a mixin before it may run the mixin's); `super().generic_visit()` and pygments'
    # `RegexLexer.get_tokens_unprocessed(self, text)` run the method they name
    base = "method:tpl:tpl.visitor.NodeVisitor.generic_visit"
    transformer = "method:tpl:tpl.visitor.NodeTransformer.generic_visit"
    optimizer = "method:tpl:tpl.optimizer.Optimizer.generic_visit"
    ids = [
        "method:tpl:tpl.symbols.FrameSymbolVisitor.visit_import",
        "method:tpl:tpl.symbols.RootVisitor.visit_block",
        optimizer,
        "function:tpl:tpl.symbols.walk",
        "method:tpl:tpl.visitor.NodeVisitor.visit",
        "method:tpl:tpl.symbols.FrameSymbolVisitor.visit_both",
        "method:tpl:tpl.symbols.Holder.run",
        "function:tpl:tpl.symbols.made_here",
        "function:tpl:tpl.symbols.rebound",
        "function:tpl:tpl.symbols.from_factory",
        "function:tpl:tpl.symbols.made_picky",
    ]
    found = project_edges(tmp_path_factory.mktemp("receivers"), "tpl", VISITORS, ids, _out, relation_types=["CALLS"])
    on_self, named, from_super, typed, in_base, both, held, made, rebound, factory, picky = (found[i] for i in ids)
    # no sibling's override, but a mixin's that a class deriving from it puts first (`CachedSymbols(Caching, ...)`)
    assert on_self == {("CALLS", base): "exact", ("CALLS", "method:tpl:tpl.cached.Caching.generic_visit"): "dispatch"}
    assert named == {("CALLS", base): "exact"}
    assert from_super == {("CALLS", transformer): "exact"}  # not the override it is called from
    # a value typed by the base, `self` in the base itself, either of them in one line, or an attribute the class
    # assigns one class (which other code may assign another: httpx's `response.stream`), may be any of them
    # pygments' `sql = SqlLexer(**self.options)`, then `sql.get_tokens_unprocessed(...)`: a local only ever made by
    # constructing the class is of exactly it; a parameter rebound so, what a factory returns, or what a class with
    # a `__new__` of its own makes, may be of a subclass
    assert made == {("CALLS", base): "inferred", ("CALLS", "class:tpl:tpl.symbols.RootVisitor"): "exact"}
    for calls in (typed, in_base, both, held, rebound, factory, picky):
        assert calls[("CALLS", transformer)] == calls[("CALLS", optimizer)] == "dispatch"


def test_a_call_chain_through_the_librarys_own_override_comes_before_one_through_an_examples(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # jinja2's `Parser.parse_statement` dispatches `ext.parse(self)` to every `Extension.parse`, its docs' example
    # extension's too; the example's name sorts first, but a library's path is its own code's
    files = {
        "lib/__init__.py": "",
        "lib/ext.py": (
            "def set_lineno(node):\n"
            "    return node\n\n\n"
            "class Extension:\n"
            "    def parse(self, parser):\n"
            "        raise NotImplementedError\n\n\n"
            "class I18n(Extension):\n"
            "    def parse(self, parser):\n"
            "        return set_lineno(parser)\n"
        ),
        "lib/parser.py": (
            "from .ext import Extension\n\n\n"
            "def parse_statement(ext: Extension, parser):\n"
            "    return ext.parse(parser)\n"
        ),
        "docs/examples/cache.py": (
            "from lib.ext import Extension, set_lineno\n\n\n"
            "class Cache(Extension):\n"
            "    def parse(self, parser):\n"
            "        return set_lineno(parser)\n"
        ),
    }
    catalog = indexed_projects(tmp_path_factory.mktemp("examples"), {"lib": files}, ["lib"])
    try:
        views = GenerationViews(RetrievalSettings())
        source, target = "function:lib:lib.parser.parse_statement", "function:lib:lib.ext.set_lineno"
        found = explain_path(Reader(catalog, views), source, target, max_hops=3)
        walked = [[h.target for h in path.hops] for path in found.paths]
        assert walked[0] == ["method:lib:lib.ext.I18n.parse", target]
        assert ["method:lib:docs.examples.cache.Cache.parse", target] in walked[1:]  # still there, after
    finally:
        catalog.close()


def test_a_call_chain_follows_its_receiver_through_the_calls_on_itself(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # itsdangerous' shape: `TimedSerializer.loads_unsafe` runs the base's `_loads_unsafe_impl`, whose `self.loads()`
    # runs TimedSerializer's own `loads` on that receiver, never the base's it overrides
    files = {
        "sig/__init__.py": "",
        "sig/serializer.py": (
            "def unsign(value):\n"
            "    return value\n\n\n"
            "class Serializer:\n"
            "    def loads_unsafe(self, s):\n"
            "        return self._impl(s)\n\n"
            "    def _impl(self, s):\n"
            "        return self.loads(s)\n\n"
            "    def loads(self, s):\n"
            "        return unsign(s)\n\n\n"
            "class Timed(Serializer):\n"
            "    def loads(self, s):\n"
            "        return unsign(s)\n\n"
            "    def timed_loads(self, s):\n"
            "        return self._impl(s)\n"
        ),
    }
    catalog = indexed_projects(tmp_path_factory.mktemp("receivers"), {"sig": files}, ["sig"])
    try:
        reader = Reader(catalog, GenerationViews(RetrievalSettings()))
        unsign, impl = "function:sig:sig.serializer.unsign", "method:sig:sig.serializer.Serializer._impl"
        timed = explain_path(reader, "method:sig:sig.serializer.Timed.timed_loads", unsign, max_hops=3)
        walked = [[h.target for h in path.hops] for path in timed.paths]
        assert walked[0] == [impl, "method:sig:sig.serializer.Timed.loads", unsign]
        assert [impl, "method:sig:sig.serializer.Serializer.loads", unsign] not in walked  # it never runs on a Timed
        base = explain_path(reader, "method:sig:sig.serializer.Serializer.loads_unsafe", unsign, max_hops=3)
        walked = [[h.target for h in path.hops] for path in base.paths]
        assert walked[0] == [impl, "method:sig:sig.serializer.Serializer.loads", unsign]  # on a Serializer
        assert [impl, "method:sig:sig.serializer.Timed.loads", unsign] in walked[1:]  # or on a Timed
    finally:
        catalog.close()


def test_a_call_chain_follows_its_receiver_into_a_generator_it_consumes(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # mistune's renderers: `BaseRenderer.render_tokens` is `"".join(self.iter_tokens(tokens, state))`, a generator
    # made on its own receiver and consumed there; under `RSTRenderer`, which overrides `iter_tokens`, the override
    # runs, never the base's
    files = {
        "md/__init__.py": "",
        "md/core.py": (
            "class BaseRenderer:\n"
            "    def iter_tokens(self, tokens):\n"
            "        for tok in tokens:\n"
            "            yield self.render_token(tok)\n\n"
            "    def render_tokens(self, tokens):\n"
            '        return "".join(self.iter_tokens(tokens))\n\n'
            "    def render_token(self, tok):\n"
            "        return tok\n\n"
            "    def tokens_of(self, node):\n"
            "        return self.iter_tokens(node)\n\n"
            "    def any_token(self, node):\n"
            "        return any(t for t in self.tokens_of(node))\n"
        ),
        "md/rst.py": (
            "from md.core import BaseRenderer\n\n\n"
            "class RSTRenderer(BaseRenderer):\n"
            "    def iter_tokens(self, tokens):\n"
            "        for tok in tokens:\n"
            "            yield self.render_token(tok)\n\n"
            "    def block_quote(self, tokens):\n"
            "        return self.render_tokens(tokens)\n"
        ),
    }
    catalog = indexed_projects(tmp_path_factory.mktemp("generators"), {"md": files}, ["md"])
    try:
        reader = Reader(catalog, GenerationViews(RetrievalSettings()))
        core, rst = "method:md:md.core.BaseRenderer", "method:md:md.rst.RSTRenderer"
        found = explain_path(reader, f"{rst}.block_quote", f"{core}.render_token", max_hops=3)
        walked = [[h.target for h in path.hops] for path in found.paths]
        assert walked[0] == [f"{core}.render_tokens", f"{rst}.iter_tokens", f"{core}.render_token"]
        assert [f"{core}.render_tokens", f"{core}.iter_tokens", f"{core}.render_token"] not in walked
        # a generator a method on the receiver returns, made by another (`return self.iter_tokens(node)`), runs here
        assert call_edges(catalog)[(f"{core}.any_token", f"{core}.iter_tokens")].resolution is Resolution.INFERRED
    finally:
        catalog.close()


def test_a_decorator_of_another_module_or_a_decorator_factorys_wrapper_runs_when_the_definition_is_called(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # sqlparse's `@recurse(sql.Identifier)` over its grouping functions: `recurse(*cls)` returns `wrap(f)`, whose
    # `wrapped_f` calls f; a plain decorator kept in a utilities module likewise; one that hands f back adds nothing
    files = {
        "sq/__init__.py": "",
        "sq/utils.py": (
            "import functools\n\n\n"
            "def recurse(*cls):\n"
            "    def wrap(f):\n"
            "        def wrapped_f(tlist):\n"
            "            for sgroup in tlist:\n"
            "                wrapped_f(sgroup)\n"
            "            f(tlist)\n"
            "        return wrapped_f\n"
            "    return wrap\n\n\n"
            "def traced(f):\n"
            "    @functools.wraps(f)\n"
            "    def wrapper(*args):\n"
            "        return f(*args)\n"
            "    return wrapper\n\n\n"
            "def register(name):\n"
            "    def keep(f):\n"
            "        return f\n"
            "    return keep\n"
        ),
        "sq/grouping.py": (
            "from sq.utils import recurse, register, traced\n\n\n"
            "@recurse(int)\n"
            "def group_identifier(tlist):\n"
            "    return tlist\n\n\n"
            "@traced\n"
            "def group_where(tlist):\n"
            "    return tlist\n\n\n"
            "@register('order')\n"
            "def group_order(tlist):\n"
            "    return tlist\n\n\n"
            "def group(stmt):\n"
            "    group_identifier(stmt)\n"
            "    group_where(stmt)\n"
            "    group_order(stmt)\n"
        ),
    }
    recurse, traced, group = "sq.utils.recurse", "sq.utils.traced", "sq.grouping.group"
    found = project_edges(
        tmp_path_factory.mktemp("decorated"),
        "sq",
        files,
        [f"function:sq:{recurse}", f"function:sq:{traced}", f"function:sq:{group}"],
        relation_types=["CALLS"],
    )
    assert found[f"function:sq:{recurse}"] == {("CALLS", "sq.grouping.group_identifier"): "inferred"}
    assert found[f"function:sq:{traced}"] == {("CALLS", "sq.grouping.group_where"): "inferred"}
    called = {target for _, target in found[f"function:sq:{group}"]}
    assert called == {
        "sq.grouping.group_identifier",
        "sq.grouping.group_where",
        "sq.grouping.group_order",
        recurse,
        traced,
    }


def test_a_lambda_or_a_function_defined_in_a_function_and_passed_on_runs_that_functions_code_where_called(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # sqlparse's `group_as` defines `match` and hands it to `_group`, which calls it: what runs there is group_as's
    # own code (a nested function has no entity of its own); a lambda likewise, in this file or another
    files = {
        "sq/__init__.py": "",
        "sq/engine.py": (
            "def _group(tlist, cls, match, valid):\n"
            "    if match(tlist):\n"
            "        return valid(tlist)\n\n\n"
            "def command():\n"
            "    def decorator(f):\n"
            "        return f\n\n"
            "    return decorator\n"
        ),
        "sq/grouping.py": (
            "from sq.engine import _group, command\n\n\n"
            "def group_as(tlist):\n"
            "    def match(token):\n"
            "        return token\n\n"
            "    return _group(tlist, int, match, match)\n\n\n"
            "def group_order(tlist):\n"
            "    return check(lambda token: token)\n\n\n"
            "def group_where(tlist):\n"
            "    matcher = lambda token: token\n"
            "    return check(matcher)\n\n\n"
            "def check(f):\n"
            "    return f(1)\n\n\n"
            "class Cmd:\n"
            "    def main(self):\n"
            "        return 1\n\n\n"
            "def run(cli):\n"
            "    return cli.main()\n\n\n"
            "def other():\n"
            "    return run(Cmd())\n\n\n"
            "def exit_code():\n"
            "    @command()\n"
            "    def cli():\n"
            "        return 0\n\n"
            "    return run(cli)\n"
        ),
    }
    ids = ["function:sq:sq.engine._group", "function:sq:sq.grouping.check", "function:sq:sq.grouping.run"]
    found = project_edges(tmp_path_factory.mktemp("own_code"), "sq", files, ids, relation_types=["CALLS"])
    assert found[ids[0]] == {("CALLS", "sq.grouping.group_as"): "inferred"}
    assert found[ids[1]] == {("CALLS", f"sq.grouping.{f}"): "inferred" for f in ("group_order", "group_where")}
    assert found[ids[2]] == {("CALLS", "sq.grouping.Cmd.main"): "inferred"}
    # a decorated definition's name holds what its decorator returned (click's `@click.command()`), not its code
    passed = bindings("sq/grouping.py", files["sq/grouping.py"], "python").passes
    assert {p.value for p in passed if p.caller == "exit_code"} == set()
    # passed as code written in `group_as` (a call of it runs group_as's code, with none of its parameters filled)
    assert "sq.grouping.group_as<code>" in {p.value for p in passed if p.caller == "group_as"}


def test_an_attribute_given_a_function_or_a_default_one_holds_each_and_a_call_of_it_runs_either(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # requests' test server: `self.handler = handler or consume_socket_content`, and `text_response_server` passes
    # a handler it defines; `self.handler(sock)` runs the one passed, or the default where none is
    files = {
        "srv/__init__.py": "",
        "srv/server.py": (
            "def consume_socket_content(sock):\n"
            "    return sock\n\n\n"
            "class Server:\n"
            "    def __init__(self, handler=None):\n"
            "        self.handler = handler or consume_socket_content\n\n"
            "    def _handle(self, sock):\n"
            "        return self.handler(sock)\n\n"
            "    @classmethod\n"
            "    def text_server(cls, text):\n"
            "        def text_handler(sock):\n"
            "            return text\n\n"
            "        return Server(text_handler)\n"
        ),
    }
    handle = "method:srv:srv.server.Server._handle"
    found = project_edges(tmp_path_factory.mktemp("either"), "srv", files, [handle], relation_types=["CALLS"])
    assert found[handle] == {
        ("CALLS", "srv.server.consume_socket_content"): "inferred",
        ("CALLS", "srv.server.Server.text_server"): "inferred",
    }


def test_a_loop_over_a_project_generic_of_one_class_takes_elements_of_that_class(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # markdown's block parser: `self.blockprocessors: util.Registry[BlockProcessor]`, a `Generic[_T]` whose `__iter__`
    # gives its items, and `for processor in self.blockprocessors: processor.run()` runs each processor's `run`
    files = {
        "md/__init__.py": "",
        "md/util.py": (
            "from typing import Generic, Iterator, TypeVar\n\n"
            "_T = TypeVar('_T')\n\n\n"
            "class Registry(Generic[_T]):\n"
            "    def __iter__(self) -> Iterator[_T]:\n"
            "        return iter([])\n"
        ),
        "md/blocks.py": (
            "class BlockProcessor:\n"
            "    def run(self, block):\n"
            "        return block\n\n\n"
            "class QuoteProcessor(BlockProcessor):\n"
            "    def run(self, block):\n"
            "        return block\n\n\n"
            "class Lexer:\n"
            "    def run(self, block):\n"
            "        return block\n"
        ),
        "md/parser.py": (
            "from md import util\n"
            "from md.blocks import BlockProcessor\n\n\n"
            "class BlockParser:\n"
            "    def __init__(self):\n"
            "        self.processors: util.Registry[BlockProcessor] = util.Registry()\n\n"
            "    def parse(self, block):\n"
            "        for processor in self.processors:\n"
            "            processor.run(block)\n"
        ),
    }
    parse = "method:md:md.parser.BlockParser.parse"
    found = project_edges(tmp_path_factory.mktemp("generic"), "md", files, [parse], relation_types=["CALLS"])
    assert found[parse] == {
        ("CALLS", "md.util.Registry.__iter__"): "inferred",
        ("CALLS", "md.blocks.BlockProcessor.run"): "inferred",
        ("CALLS", "md.blocks.QuoteProcessor.run"): "dispatch",
    }


def test_a_name_a_module_takes_from_a_star_import_is_bound_to_the_module_defining_it(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # pyparsing's common.py: `from .core import *`, then `Regex(r"...")` in a class body and `convert(...)` in a
    # function; the class's constructor runs, and an unrelated class of the name elsewhere is never a target
    files = {
        "pp/__init__.py": "",
        "pp/core.py": (
            "class Regex:\n"
            "    def __init__(self, pattern):\n"
            "        self.pattern = pattern\n\n\n"
            "def convert(tokens):\n"
            "    return tokens\n"
        ),
        "pp/util.py": "def helper():\n    return 1\n",
        "pp/common.py": (
            "from .core import *\n"
            "from .util import *\n\n\n"
            "def integer(text, cb):\n"
            "    cb(text)\n"
            "    return Regex(text), convert(len(text)), helper()\n"
        ),
        "other/regex.py": "class Regex:\n    def __init__(self, pattern):\n        self.pattern = pattern\n",
    }
    integer = "function:pp:pp.common.integer"
    found = project_edges(tmp_path_factory.mktemp("star"), "pp", files, [integer], relation_types=["CALLS"])
    assert found[integer] == {
        ("CALLS", "pp.core.Regex"): "exact",
        ("CALLS", "pp.core.Regex.__init__"): "exact",
        ("CALLS", "pp.core.convert"): "exact",
        ("CALLS", "pp.util.helper"): "exact",
    }


def test_a_star_import_gives_the_names_the_module_imports_and_its_classes_type_what_they_make(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # pyparsing: `core.py` does `from .exceptions import *`, and `exceptions.py` imports (and calls) `col` from
    # `util.py`, so `col(loc, s)` in core runs `util.col`; `common.py` does `from .core import *` alone, so
    # `Word(nums).set_name(...)` runs the `set_name` a Word has (its base's); a module-level name of the file and a
    # local shadowing a star name are not the star module's
    files = {
        "pp/__init__.py": "",
        "pp/util.py": (
            "from functools import lru_cache\n\n\n@lru_cache(maxsize=128)\ndef col(loc, s):\n    return loc\n"
        ),
        "pp/exceptions.py": (
            "from .util import (\n    col,\n)\n\n\n"
            "class ParseException(Exception):\n"
            "    def column(self):\n"
            "        return col(0, '')\n"
        ),
        "pp/core.py": (
            "from .exceptions import *\n\n\n"
            "class ParserElement:\n"
            "    def set_name(self, name):\n"
            "        return self\n\n\n"
            "class Word(ParserElement):\n"
            "    def __init__(self, chars):\n"
            "        self.chars = chars\n\n\n"
            "def at_start(loc, s):\n"
            "    if col(loc, s) != 1:\n"
            "        raise ParseException()\n"
        ),
        "pp/common.py": (
            "from .core import *\n\n"
            "nums = '0123456789'\n"
            "Digits = Word\n\n\n"
            "class Common:\n"
            "    integer = Word(nums).set_name('integer')\n\n\n"
            "def local(Word):\n"
            "    return Word(nums).set_name('x')\n"
        ),
        "other/names.py": "class Word:\n    def set_name(self, name):\n        return self\n",
    }
    at_start, common = "function:pp:pp.core.at_start", "class:pp:pp.common.Common"
    local = "function:pp:pp.common.local"
    found = project_edges(
        tmp_path_factory.mktemp("stars"), "pp", files, [at_start, common, local], relation_types=["CALLS"]
    )
    assert ("CALLS", "pp.util.col") in found[at_start]
    assert {k: v for k, v in found[common].items() if "set_name" in k[1] or "Word" in k[1]} == {
        ("CALLS", "pp.core.Word"): "exact",
        ("CALLS", "pp.core.Word.__init__"): "exact",
        ("CALLS", "pp.core.ParserElement.set_name"): "inferred",
    }
    assert not [k for k in found[local] if k[1].startswith("pp.core")]  # the parameter Word is no class of core


def test_a_name_a_star_import_gives_is_followed_through_the_star_imports_of_that_module(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # pyparsing's `helpers.py` does `from .core import *` and raises `ParseException` and calls `col`, which `core.py`
    # has only from its own `from .exceptions import *` (exceptions imports `col` from util); of two star imports
    # giving a name, the later is what the name is, as Python binds it; a name no module gives stays unbound
    files = {
        "pp/__init__.py": "",
        "pp/util.py": "def col(loc, s):\n    return loc\n\n\ndef pick():\n    return 1\n",
        "pp/actions.py": "def pick():\n    return 2\n",
        "pp/exceptions.py": (
            "from .util import col\n\n\n"
            "class ParseException(Exception):\n"
            "    def __init__(self, s, loc):\n"
            "        self.loc = col(loc, s)\n"
        ),
        "pp/core.py": "from .exceptions import *\nfrom .util import *\nfrom .actions import *\n\nVERSION = 1\n",
        "pp/helpers.py": (
            "from .core import *\n\n\n"
            "def indented(s, loc):\n"
            "    if col(loc, s) > 4:\n"
            "        raise ParseException(s, loc)\n"
            "    return pick(), nowhere()\n"
        ),
    }
    indented = "function:pp:pp.helpers.indented"
    found = project_edges(tmp_path_factory.mktemp("chains"), "pp", files, [indented], relation_types=["CALLS"])
    assert found[indented] == {
        ("CALLS", "pp.util.col"): "exact",
        ("CALLS", "pp.exceptions.ParseException"): "exact",
        ("CALLS", "pp.exceptions.ParseException.__init__"): "exact",
        ("CALLS", "pp.actions.pick"): "exact",
    }


def test_an_attribute_a_class_does_not_define_is_what_its_getattr_says_it_returns(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # pluggy's `HookRelay` declares `def __getattr__(self, name) -> HookCaller` (under TYPE_CHECKING): the tests'
    # `pm.hook.myhook(arg=1)` runs `HookCaller.__call__`, `pm.hook.myhook.get_hookimpls()` its method; an attribute
    # the class states (`self.other: Other`) is what it states
    files = {
        "pl/__init__.py": "",
        "pl/hooks.py": (
            "from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\n\n"
            "class HookCaller:\n"
            "    def __call__(self, **kwargs):\n"
            "        return kwargs\n\n"
            "    def get_hookimpls(self):\n"
            "        return []\n\n\n"
            "class Other:\n"
            "    def __call__(self):\n"
            "        return 0\n\n\n"
            "class HookRelay:\n"
            "    def __init__(self) -> None:\n"
            "        self.other: Other = Other()\n\n"
            "    if TYPE_CHECKING:\n\n"
            "        def __getattr__(self, name: str) -> HookCaller: ...\n\n\n"
            "class Manager:\n"
            "    def __init__(self) -> None:\n"
            "        self.hook = HookRelay()\n"
        ),
        "tests/test_hooks.py": (
            "from pl.hooks import Manager\n\n\n"
            "def test_call() -> None:\n"
            "    pm = Manager()\n"
            "    pm.hook.myhook(arg=1)\n"
            "    pm.hook.myhook.get_hookimpls()\n\n\n"
            "def test_other() -> None:\n"
            "    Manager().hook.other()\n"
        ),
    }
    test, other = "function:pl:tests.test_hooks.test_call", "function:pl:tests.test_hooks.test_other"
    found = project_edges(tmp_path_factory.mktemp("getattr"), "pl", files, [test, other], relation_types=["CALLS"])
    assert {k: v for k, v in found[test].items() if "Manager" not in k[1]} == {
        ("CALLS", "pl.hooks.HookCaller.__call__"): "inferred",
        ("CALLS", "pl.hooks.HookCaller.get_hookimpls"): "inferred",
    }
    assert not [k for k in found[other] if "HookCaller" in k[1]]


def test_calling_the_receiver_runs_its_classs_call(tmp_path_factory: pytest.TempPathFactory) -> None:
    # h11's `ChunkedReader.__call__` ends with `return self(buf)`: the instance's own `__call__` (recursion), and in
    # a base, an override's by dispatch; an unrelated class's `__call__` never, nor passing the receiver on
    files = {
        "hh/__init__.py": "",
        "hh/readers.py": (
            "class Reader:\n"
            "    def __call__(self, buf):\n"
            "        return buf\n\n"
            "    def again(self, buf):\n"
            "        return self(buf)\n\n"
            "    def give(self):\n"
            "        return hand(self)\n\n\n"
            "def hand(reader):\n"
            "    return reader\n\n\n"
            "class Chunked(Reader):\n"
            "    def __call__(self, buf):\n"
            "        return self(buf[1:]) if buf else buf\n\n\n"
            "class Other:\n"
            "    def __call__(self, buf):\n"
            "        return buf\n"
        ),
    }
    again, chunked = "method:hh:hh.readers.Reader.again", "method:hh:hh.readers.Chunked.__call__"
    give = "method:hh:hh.readers.Reader.give"
    found = project_edges(tmp_path_factory.mktemp("self_call"), "hh", files, [again, chunked, give])
    calls = {f: {k: v for k, v in found[f].items() if k[0] == "CALLS"} for f in (again, chunked)}
    assert calls[again] == {
        ("CALLS", "hh.readers.Reader.__call__"): "exact",
        ("CALLS", "hh.readers.Chunked.__call__"): "dispatch",
    }
    assert calls[chunked] == {("CALLS", "hh.readers.Chunked.__call__"): "exact"}
    assert not [k for k in found[give] if "__call__" in k[1]]


def test_a_decorator_returning_a_partial_of_itself_is_passed_what_it_decorates(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # semver's `deprecated(func=None, *, version=None)` returns `partial(deprecated, version=version)` when called
    # with options only: `@deprecated(version="3.0")` over `def bump` passes bump to `func`, so its wrapper calls bump
    # and a call of bump runs the wrapper; a factory returning a partial of another function passes nothing to it
    files = {
        "sv/__init__.py": "",
        "sv/deco.py": (
            "from functools import partial, wraps\n\n\n"
            "def deprecated(func=None, *, version=None):\n"
            "    if func is None:\n"
            "        return partial(deprecated, version=version)\n\n"
            "    @wraps(func)\n"
            "    def wrapper(*args, **kwargs):\n"
            "        return func(*args, **kwargs)\n\n"
            "    return wrapper\n\n\n"
            "def logged(func):\n"
            "    return func\n\n\n"
            "def options(level=0):\n"
            "    return partial(logged)\n"
        ),
        "sv/api.py": (
            "from .deco import deprecated, options\n\n\n"
            '@deprecated(version="3.0")\n'
            "def bump(v):\n"
            "    return v\n\n\n"
            "@options(level=1)\n"
            "def quiet(v):\n"
            "    return v\n\n\n"
            "def use():\n"
            "    return bump(1), quiet(2)\n"
        ),
    }
    deprecated, use = "function:sv:sv.deco.deprecated", "function:sv:sv.api.use"
    found = project_edges(
        tmp_path_factory.mktemp("repartial"), "sv", files, [deprecated, use], relation_types=["CALLS"]
    )
    assert ("CALLS", "sv.api.bump") in found[deprecated]
    assert ("CALLS", "sv.deco.deprecated") in found[use]  # the wrapper bump's call runs
    assert not [k for k in found[deprecated] if "quiet" in k[1]]


def test_a_class_attribute_annotated_as_a_class_holds_the_class_it_is_given(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # lark's `ContextualLexer.BasicLexer: Type[AbstractBasicLexer] = BasicLexer`, then `self.BasicLexer(conf)`:
    # a BasicLexer is made (the annotation says what a subclass may give it); given no class, what it declares
    files = {
        "lx/__init__.py": "",
        "lx/lexer.py": (
            "from typing import Optional, Type\n\n\n"
            "class AbstractBasicLexer:\n"
            "    def __init__(self, conf):\n"
            "        self.conf = conf\n\n\n"
            "class BasicLexer(AbstractBasicLexer):\n"
            "    def __init__(self, conf):\n"
            "        self.conf = conf\n\n\n"
            "class ContextualLexer:\n"
            "    BasicLexer: Type[AbstractBasicLexer] = BasicLexer\n"
            "    Fallback: Type[AbstractBasicLexer] = None\n\n"
            "    def __init__(self, conf):\n"
            "        self.root = self.BasicLexer(conf)\n\n"
            "    def fallback(self, conf):\n"
            "        return self.Fallback(conf)\n"
        ),
    }
    init, fallback = "method:lx:lx.lexer.ContextualLexer.__init__", "method:lx:lx.lexer.ContextualLexer.fallback"
    found = project_edges(
        tmp_path_factory.mktemp("held_class"), "lx", files, [init, fallback], relation_types=["CALLS"]
    )
    assert set(found[init]) == {("CALLS", "lx.lexer.BasicLexer"), ("CALLS", "lx.lexer.BasicLexer.__init__")}
    assert ("CALLS", "lx.lexer.AbstractBasicLexer") in found[fallback]


def test_a_name_imported_from_a_module_that_reexports_it_is_the_definition_it_reexports(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # pluggy's `_hooks.py`, kept for compatibility: `from ._caller import HookCaller`, listed in `__all__` (or
    # imported and used nowhere), and `_manager.py` does `from ._hooks import HookCaller`; a name the module imports
    # and uses itself is not taken for one it re-exports
    files = {
        "pl/__init__.py": "",
        "pl/_caller.py": (
            "class HookCaller:\n"
            "    def __init__(self, name):\n"
            "        self.name = name\n\n\n"
            "def varnames(func):\n"
            "    return func\n"
        ),
        "pl/_hooks.py": (
            'from ._caller import HookCaller\nfrom ._caller import varnames\n\n__all__ = ["HookCaller"]\n'
        ),
        "pl/_manager.py": (
            "from ._hooks import HookCaller, varnames\n\n\n"
            "def register(name):\n"
            "    varnames(name)\n"
            "    return HookCaller(name)\n"
        ),
    }
    register = "function:pl:pl._manager.register"
    found = project_edges(tmp_path_factory.mktemp("shim"), "pl", files, [register], relation_types=["CALLS"])
    assert found[register] == {
        ("CALLS", "pl._caller.HookCaller"): "exact",
        ("CALLS", "pl._caller.HookCaller.__init__"): "exact",
        ("CALLS", "pl._caller.varnames"): "exact",
    }


def test_a_value_annotated_with_a_union_alias_or_kept_from_a_union_parameter_runs_each_classs_method(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # cssselect's parse tree: `Tree: TypeAlias = Union["Element", "Hash", ...]`, then `self.selector = selector` with
    # `selector: Tree`, and `self.selector.canonical()` runs whichever class the tree holds there, even where the
    # file's own call passes one of them (`Hash(Element(), "x")` in `parse`)
    files = {
        "cs/__init__.py": "",
        "cs/parser.py": (
            "from __future__ import annotations\n\nfrom typing import TypeAlias, Union\n\n"
            'Tree: TypeAlias = Union["Element", "Hash", "Class"]\n\n\n'
            "class Element:\n"
            "    def canonical(self):\n"
            "        return '*'\n\n\n"
            "class Hash:\n"
            "    def __init__(self, selector: Tree, id: str):\n"
            "        self.selector = selector\n"
            "        self.id = id\n\n"
            "    def canonical(self):\n"
            "        return self.selector.canonical() + self.id\n\n\n"
            "class Class:\n"
            "    def __init__(self, selector: Element | Hash):\n"
            "        self.selector = selector\n\n"
            "    def canonical(self):\n"
            "        return self.selector.canonical()\n\n"
            "    def specificity(self, tree: Tree):\n"
            "        return tree.canonical()\n\n\n"
            "class Token:\n"
            "    def canonical(self):\n"
            "        return ''\n\n\n"
            "def parse():\n"
            "    return Hash(Element(), 'x')\n"
        ),
    }
    ids = [f"method:cs:cs.parser.{m}" for m in ("Hash.canonical", "Class.canonical", "Class.specificity")]
    found = project_edges(tmp_path_factory.mktemp("unions"), "cs", files, ids, relation_types=["CALLS"])
    every = {("CALLS", f"cs.parser.{c}.canonical"): "inferred" for c in ("Element", "Hash", "Class")}
    assert found[ids[0]] == every
    assert found[ids[1]] == {k: v for k, v in every.items() if "Class" not in k[1]}
    assert found[ids[2]] == every  # never the unrelated Token's


def test_the_elements_of_an_attribute_several_classes_state_differently_are_each_ones(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # jinja2's `args_as_const(node: Union["_FilterTestCommon", "Call"], ...)`: `for x in node.kwargs` is a Pair where
    # node is a filter, a Keyword where it is a Call; where one class states nothing, nothing is said
    files = {
        "jj/__init__.py": "",
        "jj/nodes.py": (
            "import typing as t\n\n\n"
            "class Pair:\n"
            "    def as_const(self):\n"
            "        return 1\n\n\n"
            "class Keyword:\n"
            "    def as_const(self):\n"
            "        return 2\n\n\n"
            "class Unrelated:\n"
            "    def as_const(self):\n"
            "        return 3\n\n\n"
            "class Filter:\n"
            "    kwargs: t.List[Pair]\n\n\n"
            "class Call:\n"
            "    kwargs: t.List[Keyword]\n\n\n"
            "class Bare:\n"
            "    kwargs: list\n\n\n"
            "def args_as_const(node: t.Union['Filter', 'Call']):\n"
            "    return [x.as_const() for x in node.kwargs]\n\n\n"
            "def looped(node: t.Union['Filter', 'Call']):\n"
            "    for x in node.kwargs:\n"
            "        x.as_const()\n\n\n"
            "def unknown(node: t.Union['Filter', 'Bare']):\n"
            "    return [x.as_const() for x in node.kwargs]\n"
        ),
    }
    ids = [f"function:jj:jj.nodes.{f}" for f in ("args_as_const", "looped", "unknown")]
    found = project_edges(tmp_path_factory.mktemp("elements"), "jj", files, ids, relation_types=["CALLS"])
    each = {("CALLS", f"jj.nodes.{c}.as_const"): "inferred" for c in ("Pair", "Keyword")}
    assert found[ids[0]] == each
    assert found[ids[1]] == each
    assert not [k for k, v in found[ids[2]].items() if v != "name"]


def test_a_mixins_call_of_what_it_lacks_runs_the_method_the_classes_mixing_it_in_have_from_another_base(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # sqlparse's shape: `NameAliasMixin.get_alias` calls `self.token_next_by()`, which neither it nor a base of it
    # defines; `Identifier(NameAliasMixin, TokenList)` has it from TokenList, and TokenList's `self.get_alias()` is
    # the mixin's on every class deriving from both; a method of that name on an unrelated class is never a target
    files = {
        "sq/__init__.py": "",
        "sq/sql.py": (
            "class NameAliasMixin:\n"
            "    def get_alias(self):\n"
            "        return self.token_next_by(1)\n\n\n"
            "class TokenList:\n"
            "    def token_next_by(self, i):\n"
            "        return i\n\n"
            "    def get_name(self):\n"
            "        return self.get_alias()\n\n\n"
            "class Identifier(NameAliasMixin, TokenList):\n"
            "    pass\n\n\n"
            "class Function(NameAliasMixin, TokenList):\n"
            "    pass\n\n\n"
            "class Lexer:\n"
            "    def token_next_by(self, i):\n"
            "        return i\n"
        ),
    }
    mixin, tokens = "sq.sql.NameAliasMixin.get_alias", "sq.sql.TokenList.get_name"
    found = project_edges(tmp_path_factory.mktemp("mixed"), "sq", files, [f"method:sq:{mixin}", f"method:sq:{tokens}"])
    assert found[f"method:sq:{mixin}"] == {("CALLS", "sq.sql.TokenList.token_next_by"): "dispatch"}
    assert found[f"method:sq:{tokens}"] == {("CALLS", mixin): "dispatch"}


def test_a_chain_through_the_function_a_callable_is_handed_to_comes_before_the_reference(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # toolz' shape: `has_varargs(func)` hands `_has_varargs` to `_check_sigspec`, which calls it; what ran is
    # has_varargs -> _check_sigspec -> _has_varargs -> check_varargs, the reference a shortcut of its first two calls
    files = {
        "sig/__init__.py": "",
        "sig/checks.py": (
            "def check_varargs(sigspec):\n"
            "    return bool(sigspec)\n\n\n"
            "def _has_varargs(func, sigspec):\n"
            "    return check_varargs(sigspec)\n\n\n"
            "def _check_sigspec(sigspec, func, builtin_func, *builtin_args):\n"
            "    return builtin_func(*builtin_args, sigspec)\n\n\n"
            "def has_varargs(func, sigspec=None):\n"
            "    return _check_sigspec(sigspec, func, _has_varargs, func)\n"
        ),
    }
    catalog = indexed_projects(tmp_path_factory.mktemp("handed"), {"sig": files}, ["sig"])
    try:
        reader = Reader(catalog, GenerationViews(RetrievalSettings()))
        source, target = "function:sig:sig.checks.has_varargs", "function:sig:sig.checks.check_varargs"
        found = explain_path(reader, source, target, max_hops=4)
        walked = [[(h.type, h.target) for h in path.hops] for path in found.paths]
        handed, checked = "function:sig:sig.checks._has_varargs", "function:sig:sig.checks._check_sigspec"
        assert walked[0] == [("CALLS", checked), ("CALLS", handed), ("CALLS", target)]
        assert [("REFERENCES", handed), ("CALLS", target)] in walked[1:]  # still an answer, after
    finally:
        catalog.close()


def test_reading_an_attribute_a_class_body_gives_a_descriptor_runs_its_get_and_cls_makes_the_class(
    tmp_path: Path,
) -> None:
    # packaging's `Metadata`: `version: _Validator[str] = _Validator(added="1.0")` in the class body, then
    # `meta.version` runs `_Validator.__get__`; a class-body value whose class defines no `__get__` runs nothing
    files = {
        "meta/__init__.py": "",
        "meta/fields.py": (
            "class _Validator:\n"
            "    def __init__(self, added='1.0'):\n"
            "        self.added = added\n\n"
            "    def __get__(self, instance, owner):\n"
            "        return instance.raw\n\n\n"
            "class Plain:\n"
            "    def __init__(self, n=1):\n"
            "        self.n = n\n\n\n"
            "class Metadata:\n"
            "    version = _Validator(added='1.0')\n"
            "    plain = Plain()\n\n"
            "    def __init__(self):\n"
            "        self.raw = {}\n\n"
            "    def show(self):\n"
            "        return self.version\n\n"
            "    @classmethod\n"
            "    def from_raw(cls, raw):\n"
            "        ins = cls()\n"
            "        ins.raw = raw\n"
            "        return ins.version, ins.show()\n\n\n"
            "def read():\n"
            "    meta = Metadata()\n"
            "    return meta.version, meta.plain\n"
        ),
    }
    calls = project_calls(tmp_path, "meta", files)
    for caller in ("meta.fields.Metadata.show", "meta.fields.read", "meta.fields.Metadata.from_raw"):
        assert calls[(caller, "meta.fields._Validator.__get__")] == "inferred", caller
    # `ins = cls()` in a classmethod is an instance of the class (or of a subclass): its methods are the class's
    assert calls[("meta.fields.Metadata.from_raw", "meta.fields.Metadata.show")] == "inferred"
    assert not [t for s, t in calls if s == "meta.fields.read" and t.startswith("meta.fields.Plain.")]


def test_a_method_returning_a_local_its_receiver_looked_up_by_a_built_name_reaches_the_methods_so_named(
    tmp_path: Path,
) -> None:
    # packaging's `Specifier._get_operator`: `operator_callable: CallableOperator = getattr(self, f"_compare_{...}")`,
    # `return operator_callable`; then `self._get_operator(">=")(prospective, spec)` runs one of the `_compare_*`
    files = {
        "spec/__init__.py": "",
        "spec/specifiers.py": (
            "class Spec:\n"
            "    _operators = {'==': 'equal', '>=': 'greater'}\n\n"
            "    def _get_operator(self, op):\n"
            "        operator_callable = getattr(self, f'_compare_{self._operators[op]}')\n"
            "        return operator_callable\n\n"
            "    def _get_other(self, op):\n"
            "        found = getattr(self, f'_compare_{op}')\n"
            "        found = None\n"
            "        return found\n\n"
            "    def _compare_equal(self, a, b):\n"
            "        return a == b\n\n"
            "    def _compare_greater(self, a, b):\n"
            "        return a >= b\n\n"
            "    def contains(self, a, b):\n"
            "        return self._get_operator('>=')(a, b)\n\n"
            "    def other(self, a, b):\n"
            "        return self._get_other('>=')(a, b)\n"
        ),
    }
    calls = project_calls(tmp_path, "spec", files)
    for method in ("_compare_equal", "_compare_greater"):
        assert calls[("spec.specifiers.Spec.contains", f"spec.specifiers.Spec.{method}")] == "dispatch"
        assert ("spec.specifiers.Spec.other", f"spec.specifiers.Spec.{method}") not in calls  # given twice


def test_what_an_unannotated_property_returns_is_entered_and_called_and_calling_self_runs_its_call(
    tmp_path: Path,
) -> None:
    # tomlkit's parser: `with self._state:` where `_state` is a property returning `self._src.state` (a handler
    # whose `__enter__` makes `state = self()` and enters it); cachetools' `self.timer()`, a property's `_Timer`
    files = {
        "toml/__init__.py": "",
        "toml/source.py": (
            "class _State:\n"
            "    def __enter__(self):\n"
            "        return self\n\n"
            "    def __exit__(self, *exc):\n"
            "        return False\n\n\n"
            "class _Handler:\n"
            "    def __call__(self):\n"
            "        return _State()\n\n"
            "    def __enter__(self):\n"
            "        state = self()\n"
            "        return state.__enter__()\n\n"
            "    def __exit__(self, *exc):\n"
            "        return False\n\n\n"
            "class Source:\n"
            "    def __init__(self):\n"
            "        self._handler = _Handler()\n\n"
            "    @property\n"
            "    def state(self):\n"
            "        return self._handler\n\n"
            "    def peek(self):\n"
            "        with self.state:\n"
            "            return 1\n\n"
            "    def again(self):\n"
            "        return self.state()\n"
        ),
    }
    calls = project_calls(tmp_path, "toml", files)
    assert calls[("toml.source._Handler.__enter__", "toml.source._State.__enter__")] == "inferred"
    assert calls[("toml.source.Source.peek", "toml.source._Handler.__enter__")] == "inferred"
    assert calls[("toml.source.Source.again", "toml.source._Handler.__call__")] == "inferred"
    assert ("toml.source.Source.again", "toml.source._Handler.__enter__") not in calls


def test_a_callable_a_method_gives_an_attribute_in_place_of_what_is_passed_is_called_through_it(
    tmp_path: Path,
) -> None:
    # itsdangerous's `Signer`: `default_digest_method: t.Any = staticmethod(_lazy_sha1)` in the class body;
    # `__init__(self, digest_method: t.Any = None)` gives `digest_method = self.default_digest_method` when none is
    # passed and keeps it in `self.digest_method`; `derive_key` calls `self.digest_method(key)`, which runs
    # `_lazy_sha1`. A parameter given two different callables holds neither.
    files = {
        "sign/__init__.py": "",
        "sign/signer.py": (
            "import typing as t\n\n\n"
            "def _lazy_sha1(string=b''):\n"
            "    return string\n\n\n"
            "def _other(string=b''):\n"
            "    return string\n\n\n"
            "class Signer:\n"
            "    default_digest_method: t.Any = staticmethod(_lazy_sha1)\n"
            "    default_fallback = _other\n\n"
            "    def __init__(self, digest_method: t.Any | None = None, fallback=None, either=None):\n"
            "        if digest_method is None:\n"
            "            digest_method = self.default_digest_method\n"
            "        self.digest_method: t.Any = digest_method\n"
            "        self.fallback = fallback or self.default_fallback\n"
            "        if either is None:\n"
            "            either = _lazy_sha1\n"
            "        else:\n"
            "            either = _other\n"
            "        self.either = either\n\n"
            "    def derive_key(self, key):\n"
            "        return self.digest_method(key)\n\n"
            "    def direct(self, key):\n"
            "        return self.default_digest_method(key)\n\n"
            "    def fall(self, key):\n"
            "        return self.fallback(key)\n\n"
            "    def pick(self, key):\n"
            "        return self.either(key)\n"
        ),
    }
    calls = project_calls(tmp_path, "sign", files)
    for caller in ("derive_key", "direct"):
        assert calls[(f"sign.signer.Signer.{caller}", "sign.signer._lazy_sha1")] == "inferred", caller
    assert calls[("sign.signer.Signer.fall", "sign.signer._other")] == "inferred"
    assert not [t for s, t in calls if s == "sign.signer.Signer.pick" and t.startswith("sign.signer._")]


def test_consuming_what_a_function_returns_from_a_generator_function_runs_that_generators_body(
    tmp_path: Path,
) -> None:
    # packaging's tags: `platform_tags()` returns `_linux_platforms()` on one branch and `_generic_platforms()` on
    # another (both generator functions); `compatible_tags` runs their bodies with `list(platforms or
    # platform_tags())`. A function returning a list built from a generator returns no generator.
    files = {
        "tags/__init__.py": "",
        "tags/tags.py": (
            "import platform\n\n\n"
            "def _linux_platforms():\n"
            "    yield 'linux'\n\n\n"
            "def _generic_platforms():\n"
            "    yield 'any'\n\n\n"
            "def platform_tags():\n"
            "    if platform.system() == 'Linux':\n"
            "        return _linux_platforms()\n"
            "    return _generic_platforms()\n\n\n"
            "def listed_tags():\n"
            "    return list(_linux_platforms())\n\n\n"
            "def compatible_tags(platforms=None):\n"
            "    platforms = list(platforms or platform_tags())\n"
            "    return platforms\n\n\n"
            "def counted():\n"
            "    return len(listed_tags())\n"
        ),
    }
    calls = project_calls(tmp_path, "tags", files)
    for generator in ("_linux_platforms", "_generic_platforms"):
        assert calls[("tags.tags.compatible_tags", f"tags.tags.{generator}")] == "inferred", generator
    assert calls[("tags.tags.listed_tags", "tags.tags._linux_platforms")] == "exact"  # its own call
    assert not [t for s, t in calls if s == "tags.tags.counted" and t.endswith("_platforms")]


def test_a_comprehensions_condition_tests_its_variable_for_truth(tmp_path: Path) -> None:
    # tomlkit's `Array._group_values`: `groups.append(this_group)` with `this_group = _ArrayItemGroup(...)`, then
    # `return [group for group in groups if group]` runs `_ArrayItemGroup.__bool__`; a condition on a call's
    # result (`if g.run()`) tests what the call gives, not the element
    files = {
        "arr/__init__.py": "",
        "arr/items.py": (
            "class Group:\n"
            "    def __bool__(self):\n"
            "        return True\n\n"
            "    def run(self):\n"
            "        return 1\n\n\n"
            "def group(values):\n"
            "    groups = []\n"
            "    this = Group()\n"
            "    for value in values:\n"
            "        groups.append(this)\n"
            "        this = Group()\n"
            "    groups.append(this)\n"
            "    return [g for g in groups if g]\n\n\n"
            "def ran(values):\n"
            "    groups = []\n"
            "    groups.append(Group())\n"
            "    return [g for g in groups if g.run()]\n"
        ),
    }
    calls = project_calls(tmp_path, "arr", files)
    assert calls[("arr.items.group", "arr.items.Group.__bool__")] == "inferred"
    assert calls[("arr.items.ran", "arr.items.Group.run")] == "inferred"
    assert ("arr.items.ran", "arr.items.Group.__bool__") not in calls


def test_a_table_a_class_body_gives_is_looked_up_with_those_its_subclasses_give_in_its_place(tmp_path: Path) -> None:
    # marshmallow's `DateTime._deserialize`: `func = self.DESERIALIZATION_FUNCS.get(data_format)`, then `func(value)`;
    # `DESERIALIZATION_FUNCS = {"iso": utils.from_iso_datetime, ...}` in the class body, and `Date` and `Time` give
    # their own tables, which the method reads when `self` is one of them. A table of an unrelated class is not read.
    files = {
        "dt/__init__.py": "",
        "dt/utils.py": (
            "def from_iso_datetime(value):\n    return value\n\n\n"
            "def from_iso_date(value):\n    return value\n\n\n"
            "def from_rfc(value):\n    return value\n\n\n"
            "def unrelated(value):\n    return value\n"
        ),
        "dt/fields.py": (
            "from dt import utils\n\n\n"
            "class DateTime:\n"
            "    DESERIALIZATION_FUNCS = {'iso': utils.from_iso_datetime, 'rfc': utils.from_rfc}\n\n"
            "    def _deserialize(self, value, data_format):\n"
            "        func = self.DESERIALIZATION_FUNCS.get(data_format)\n"
            "        return func(value) if func else None\n\n\n"
            "class Date(DateTime):\n"
            "    DESERIALIZATION_FUNCS = {'iso': utils.from_iso_date}\n\n\n"
            "class Time(DateTime):\n"
            "    def parse(self, value, data_format):\n"
            "        return self.DESERIALIZATION_FUNCS[data_format](value)\n\n\n"
            "class Other:\n"
            "    DESERIALIZATION_FUNCS = {'iso': utils.unrelated}\n"
        ),
    }
    calls = project_calls(tmp_path, "dt", files)
    for function in ("from_iso_datetime", "from_rfc", "from_iso_date"):
        assert calls[("dt.fields.DateTime._deserialize", f"dt.utils.{function}")] == "dispatch", function
    assert {t for s, t in calls if s == "dt.fields.Time.parse"} == {"dt.utils.from_iso_datetime", "dt.utils.from_rfc"}
    assert not [s for s, t in calls if t == "dt.utils.unrelated"]


def test_a_class_value_tested_by_issubclass_constructs_any_class_deriving_from_the_base(tmp_path: Path) -> None:
    # marshmallow's `resolve_field_instance`: `if not issubclass(cls_or_instance, FieldABC): raise ...`, then
    # `return cls_or_instance()` makes any field; inside `if issubclass(kind, Field):` too, but not after that branch
    files = {
        "fm/__init__.py": "",
        "fm/fields.py": (
            "class FieldABC:\n"
            "    pass\n\n\n"
            "class Field(FieldABC):\n"
            "    def __init__(self, x=1):\n"
            "        self.x = x\n\n\n"
            "class Integer(Field):\n"
            "    def __init__(self, x=2):\n"
            "        super().__init__(x)\n\n\n"
            "class Other:\n"
            "    def __init__(self):\n"
            "        self.y = 0\n\n\n"
            "def resolve_field_instance(cls_or_instance):\n"
            "    if isinstance(cls_or_instance, type):\n"
            "        if not issubclass(cls_or_instance, FieldABC):\n"
            "            raise TypeError('not a field')\n"
            "        return cls_or_instance()\n"
            "    return cls_or_instance\n\n\n"
            "def inside(kind):\n"
            "    if issubclass(kind, Field):\n"
            "        return kind()\n"
            "    return kind()\n"
        ),
    }
    calls = project_calls(tmp_path, "fm", files)  # (the stored calls of the classes: each runs its `__init__`)
    assert calls[("fm.fields.resolve_field_instance", "fm.fields.FieldABC")] == "inferred"
    assert calls[("fm.fields.inside", "fm.fields.Field")] == "inferred"
    for caller in ("resolve_field_instance", "inside"):
        assert calls[(f"fm.fields.{caller}", "fm.fields.Integer")] == "dispatch", caller
        assert (f"fm.fields.{caller}", "fm.fields.Other") not in calls
    inside = {t for s, t in calls if s == "fm.fields.inside"}
    assert inside == {"fm.fields.Field", "fm.fields.Integer"}  # after the branch, `kind()` is no known class's


def test_a_parameters_default_taken_off_a_class_is_called_exactly_and_a_bases_property_value_is_called(
    tmp_path: Path,
) -> None:
    # cachetools: `def __setitem__(self, key, value, cache_setitem=Cache.__setitem__): cache_setitem(self, key,
    # value)` runs exactly `Cache.__setitem__`, no override of it; `TLRUCache.__contains__` calls `self.timer()`,
    # where `timer` is a property of its base `_TimedCache` returning a `_Timer`: its `__call__` runs
    files = {
        "cache/__init__.py": (
            "import time\n\n\n"
            "class Cache:\n"
            "    def __setitem__(self, key, value):\n"
            "        self.last = value\n\n\n"
            "class _TimedCache(Cache):\n"
            "    class _Timer:\n"
            "        def __init__(self, timer):\n"
            "            self.__timer = timer\n\n"
            "        def __call__(self):\n"
            "            return self.__timer()\n\n"
            "    def __init__(self, timer=time.monotonic):\n"
            "        self.__timer = _TimedCache._Timer(timer)\n\n"
            "    @property\n"
            "    def timer(self):\n"
            "        return self.__timer\n\n\n"
            "class TLRUCache(_TimedCache):\n"
            "    def __contains__(self, key):\n"
            "        return self.timer() < 3\n\n"
            "    def __setitem__(self, key, value, cache_setitem=Cache.__setitem__):\n"
            "        cache_setitem(self, key, value)\n"
        ),
    }
    edges = project_edges(tmp_path, "cache", files, ["cache.TLRUCache.__setitem__", "cache.TLRUCache.__contains__"])
    assert edges["cache.TLRUCache.__setitem__"][("CALLS", "cache.Cache.__setitem__")] == "inferred"
    assert ("CALLS", "cache.TLRUCache.__setitem__") not in edges["cache.TLRUCache.__setitem__"]  # no dispatch
    assert edges["cache.TLRUCache.__contains__"][("CALLS", "cache._TimedCache._Timer.__call__")] == "inferred"


BODIES = {
    "kit/__init__.py": "",
    "kit/items.py": (
        "from __future__ import annotations\n\n"
        "from typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n"
        "    from kit import container\n\n\n"
        "class Trivia:\n"
        "    indent = ''\n\n\n"
        "class Item:\n"
        "    @property\n"
        "    def trivia(self) -> Trivia:\n"
        "        return Trivia()\n\n"
        "    def as_string(self) -> str:\n"
        "        return ''\n\n\n"
        "class Key:\n"
        "    def as_string(self) -> str:\n"
        "        return ''\n\n\n"
        "class Table(Item):\n"
        "    def __init__(self, value: container.Container) -> None:\n"
        "        self._value = value\n\n"
        "    def render(self) -> str:\n"
        "        out = ''\n"
        "        for i, (k, v) in enumerate(self._value.body):\n"
        "            out += k.as_string() + v.as_string()\n"
        "        return out\n\n"
        "    def indent(self) -> None:\n"
        "        for _, item in self._value.body:\n"
        "            item.trivia.indent = ''\n"
    ),
    "kit/container.py": (
        "from __future__ import annotations\n\n"
        "from kit.items import Item, Key, Table\n\n\n"
        "class Container:\n"
        "    def __init__(self) -> None:\n"
        "        self._body: list[tuple[Key | None, Item]] = []\n\n"
        "    @property\n"
        "    def body(self) -> list[tuple[Key | None, Item]]:\n"
        "        return self._body\n\n"
        "    def as_string(self) -> str:\n"
        "        out = ''\n"
        "        for k, v in self._body:\n"
        "            out += self._render(k, v)\n"
        "        return out\n\n"
        "    def _render_table(self, table: Table) -> str:\n"
        "        return ''.join(self._render(k, v) for k, v in table._value.body)\n\n"
        "    def _render(self, key, item):\n"
        "        return f'{item.trivia.indent}{key}'\n\n\n"
        "def render(doc: Container) -> str:\n"
        "    return ''.join(v.as_string() for _, v in doc.body)\n"
    ),
}


def test_the_tuples_a_property_or_another_files_attribute_holds_type_a_loops_names(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # tomlkit's `InlineTable.as_string`: `for i, (k, v) in enumerate(self._value.body)`, `_value: container.Container`
    # of another file, whose property `body -> list[tuple[Key | None, Item]]`; `Container._render_simple_item(key,
    # item)` is passed an `Item` from one loop and what another file's attribute holds from another, then reads
    # `item.trivia`
    ids = ["method:kit:kit.items.Table.render", "method:kit:kit.items.Table.indent"]
    ids += ["method:kit:kit.container.Container._render", "function:kit:kit.container.render"]
    found = project_edges(tmp_path_factory.mktemp("bodies"), "kit", BODIES, ids, _out)
    render, indent, rendered, module_render = (found[i] for i in ids)
    assert render[("CALLS", "method:kit:kit.items.Item.as_string")] == "inferred"
    assert render[("CALLS", "method:kit:kit.items.Key.as_string")] == "inferred"
    assert indent[("CALLS", "method:kit:kit.items.Item.trivia")] == "inferred"  # (a property: its getter runs)
    assert rendered[("CALLS", "method:kit:kit.items.Item.trivia")] == "inferred"
    assert module_render[("CALLS", "method:kit:kit.items.Item.as_string")] == "inferred"
    assert ("CALLS", "method:kit:kit.items.Key.as_string") not in module_render  # the key's place is not the item's


REGISTRY = {
    "reg/__init__.py": "",
    "reg/fields.py": (
        "from __future__ import annotations\n\n"
        "import typing\n\n"
        "if typing.TYPE_CHECKING:\n"
        "    from reg.schema import Schema\n\n\n"
        "class Field:\n"
        "    def __init__(self) -> None:\n"
        "        self.root: Schema | None = None\n\n\n"
        "class String(Field):\n"
        "    def __init__(self) -> None:\n"
        "        super().__init__()\n\n\n"
        "class Integer(Field):\n"
        "    def __init__(self) -> None:\n"
        "        super().__init__()\n\n\n"
        "class Unrelated:\n"
        "    def __init__(self) -> None:\n"
        "        pass\n\n\n"
        "class Inferred(Field):\n"
        "    def pick(self, value):\n"
        "        field_cls = self.root.TYPE_MAPPING.get(type(value))\n"
        "        return field_cls()\n"
    ),
    "reg/schema.py": (
        "import datetime as dt\n\n"
        "from reg import fields as ma_fields\n\n\n"
        "class Schema:\n"
        "    TYPE_MAPPING: dict[type, type[ma_fields.Field]] = {\n"
        "        str: ma_fields.String,\n"
        "        dt.date: ma_fields.Integer,\n"
        "    }\n"
    ),
}


def test_a_table_a_class_body_gives_is_looked_up_from_another_file_through_a_typed_receiver(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # marshmallow's `Inferred._serialize`: `field_cls = self.root.TYPE_MAPPING.get(type(value))`, then `field_cls()`,
    # where `root: Schema` of another file whose class body gives `TYPE_MAPPING = {str: ma_fields.String, ...}` (keys
    # that are names): any class the table holds is constructed; a class it does not hold is not
    ids = ["method:reg:reg.fields.Inferred.pick"]
    found = project_edges(tmp_path_factory.mktemp("registry"), "reg", REGISTRY, ids, _out, relation_types=["CALLS"])
    pick = found[ids[0]]
    assert pick[("CALLS", "method:reg:reg.fields.String.__init__")] == "dispatch"
    assert pick[("CALLS", "method:reg:reg.fields.Integer.__init__")] == "dispatch"
    assert not [t for _, t in pick if "Unrelated" in t]


def test_a_run_that_rewrites_a_class_bodys_table_binds_its_readers_again(tmp_path: Path) -> None:
    catalog = indexed_projects(tmp_path, {"reg": REGISTRY}, ("reg",))
    try:
        schema = REGISTRY["reg/schema.py"].replace("ma_fields.Integer", "ma_fields.Unrelated")
        write_files(tmp_path / "reg", {"reg/schema.py": schema})
        with catalog.writer() as writer:
            index_folder(writer, tmp_path / "reg", "reg", max_file_bytes=1_000_000)
        calls = {(s.rsplit(".", 1)[-1], t.rsplit(":", 1)[-1]) for s, t in call_edges(catalog)}
    finally:
        catalog.close()
    # (only the table's file changed; each class called is stored, what its construction runs is derived when read)
    assert ("pick", "reg.fields.Unrelated") in calls
    assert ("pick", "reg.fields.String") in calls
    assert ("pick", "reg.fields.Integer") not in calls


def test_a_decorator_applied_widely_has_its_wrapper_call_any_function_it_is_applied_to(tmp_path: Path) -> None:
    # jinja2's `optimizeconst(f)`: `def new_func(self, node, frame): ... return f(self, node, frame)`, applied to ten
    # `CodeGenerator.visit_*` methods: each wrapper made calls the method it wraps (one of them: `dispatch`)
    methods = "".join(f"    @optimize\n    def visit_{n}(self, node):\n        return node\n\n" for n in "ABCDEF")
    files = {
        "gen/__init__.py": "",
        "gen/compiler.py": (
            "def optimize(f):\n"
            "    def new_func(self, node):\n"
            "        return f(self, node)\n\n"
            "    return new_func\n\n\n"
            f"class Generator:\n{methods}"
            "    def visit_Plain(self, node):\n"
            "        return node\n"
        ),
    }
    calls = project_calls(tmp_path, "gen", files)
    assert {t: r for (s, t), r in calls.items() if s == "gen.compiler.optimize"} == {
        f"gen.compiler.Generator.visit_{n}": "dispatch" for n in "ABCDEF"
    }


SUPER_READS = {
    "ver/__init__.py": "",
    "ver/version.py": (
        "class Version:\n"
        "    @property\n"
        "    def release(self) -> tuple[int, ...]:\n"
        "        return (1, 0)\n\n\n"
        "class Trimmed(Version):\n"
        "    @property\n"
        "    def release(self) -> tuple[int, ...]:\n"
        "        rel = super().release\n"
        "        return rel[:1]\n"
    ),
    "ver/other.py": (
        "from ver.version import Version\n\n\n"
        "class Loose(Version):\n"
        "    @property\n"
        "    def release(self) -> tuple[int, ...]:\n"
        "        return super().release\n"
    ),
}


def test_a_propertys_override_reading_super_runs_the_bases_getter(tmp_path_factory: pytest.TempPathFactory) -> None:
    # packaging's `_TrimmedRelease.release`: `rel = super().release` reads `Version.release`, a property: its getter
    # runs (exactly that one: the lookup starts past the class), here and from a class of another file
    ids = ["method:ver:ver.version.Trimmed.release", "method:ver:ver.other.Loose.release"]
    found = project_edges(tmp_path_factory.mktemp("super"), "ver", SUPER_READS, ids, _out)
    trimmed, loose = (found[i] for i in ids)
    assert trimmed[("CALLS", "method:ver:ver.version.Version.release")] == "exact"
    assert loose[("CALLS", "method:ver:ver.version.Version.release")] == "exact"
    assert not [t for _, t in {**trimmed, **loose} if t.endswith(("Trimmed.release", "Loose.release"))]


def test_a_value_past_a_negated_isinstance_guard_is_of_the_class_and_new_makes_an_instance(tmp_path: Path) -> None:
    # packaging's `Requirement.__eq__`: `if not isinstance(other, Requirement): return NotImplemented`, then
    # `self.marker == other.marker`, `marker: Marker | None` given `Marker.__new__(Marker)`; a guard that does not
    # leave its block, or has an `else`, narrows nothing after it
    files = {
        "req/__init__.py": "",
        "req/model.py": (
            "from typing import Any\n\n\n"
            "class Marker:\n"
            "    def __eq__(self, other: Any) -> bool:\n"
            "        return True\n\n"
            "    def evaluate(self) -> bool:\n"
            "        return True\n\n\n"
            "class Requirement:\n"
            "    def __init__(self, text: str) -> None:\n"
            "        self.marker: Marker | None = None\n"
            "        if text:\n"
            "            self.marker = Marker.__new__(Marker)\n\n"
            "    def __eq__(self, other: Any) -> bool:\n"
            "        if not isinstance(other, Requirement):\n"
            "            return NotImplemented\n"
            "        return self.marker == other.marker\n\n"
            "    def check(self, other):\n"
            "        if not isinstance(other, Marker):\n"
            "            raise TypeError(other)\n"
            "        return other.evaluate()\n\n"
            "    def loose(self, other):\n"
            "        if not isinstance(other, Marker):\n"
            "            print(other)\n"
            "        return other.evaluate()\n"
        ),
    }
    calls = project_calls(tmp_path, "req", files)
    assert calls[("req.model.Requirement.__eq__", "req.model.Marker.__eq__")] == "inferred"
    assert calls[("req.model.Requirement.check", "req.model.Marker.evaluate")] == "inferred"
    assert calls.get(("req.model.Requirement.loose", "req.model.Marker.evaluate")) != "inferred"


def test_a_mapping_attribute_filled_with_one_class_gives_that_class_when_looked_up(tmp_path: Path) -> None:
    # cachetools' `TTLCache`: `self.__links = collections.OrderedDict()`, `self.__links[key] = link =
    # TTLCache._Link(key)`, then `link = self.__links.pop(key); link.unlink()`; a mapping also given another value
    # says nothing of its items
    files = {
        "ttl/__init__.py": "",
        "ttl/cache.py": (
            "import collections\n\n\n"
            "class TTLCache:\n"
            "    class _Link:\n"
            "        def unlink(self):\n"
            "            return None\n\n"
            "    def __init__(self, other):\n"
            "        self.__links = collections.OrderedDict()\n"
            "        self.__other = {}\n"
            "        self.__other = other\n\n"
            "    def __setitem__(self, key, value):\n"
            "        self.__links[key] = link = TTLCache._Link()\n"
            "        self.__other[key] = TTLCache._Link()\n\n"
            "    def __delitem__(self, key):\n"
            "        link = self.__links.pop(key)\n"
            "        link.unlink()\n\n"
            "    def drop(self, key):\n"
            "        self.__other[key].unlink()\n"
        ),
    }
    calls = project_calls(tmp_path, "ttl", files)
    assert calls[("ttl.cache.TTLCache.__delitem__", "ttl.cache.TTLCache._Link.unlink")] == "inferred"
    assert calls.get(("ttl.cache.TTLCache.drop", "ttl.cache.TTLCache._Link.unlink")) != "inferred"


def test_comparing_containers_whose_elements_are_stated_runs_the_elements_eq(tmp_path: Path) -> None:
    # packaging's `SpecifierSet.__eq__`: `self._specs == other._specs`, `_specs = frozenset(map(Specifier, specs))`;
    # containers of values whose class the code does not state compare nothing of a project's
    files = {
        "spec/__init__.py": "",
        "spec/sets.py": (
            "class Specifier:\n"
            "    def __eq__(self, other):\n"
            "        return True\n\n"
            "    def __hash__(self):\n"
            "        return 0\n\n\n"
            "class SpecifierSet:\n"
            "    def __init__(self, specs):\n"
            "        self._specs = frozenset(map(Specifier, specs))\n"
            "        self._raw = list(specs)\n\n"
            "    def __eq__(self, other):\n"
            "        if not isinstance(other, SpecifierSet):\n"
            "            return NotImplemented\n"
            "        return self._specs == other._specs\n\n"
            "    def same_raw(self, other):\n"
            "        return self._raw != other._raw\n"
        ),
    }
    calls = project_calls(tmp_path, "spec", files)
    assert calls[("spec.sets.SpecifierSet.__eq__", "spec.sets.Specifier.__eq__")] == "inferred"
    assert ("spec.sets.SpecifierSet.same_raw", "spec.sets.Specifier.__eq__") not in calls


def test_an_isinstance_test_of_one_project_class_among_builtins_narrows_to_that_class(tmp_path: Path) -> None:
    # packaging's `SpecifierSet.__eq__`: `if isinstance(other, (str, Specifier)): other = SpecifierSet(str(other))`
    # runs `Specifier.__str__` when other is one; two project classes in the tuple (sqlparse's `isinstance(token,
    # (Identifier, Function))`, then `token.get_real_name()`) make the value one of them in the branch, and only there
    files = {
        "tup/__init__.py": "",
        "tup/spec.py": (
            "class Specifier:\n"
            "    def __str__(self):\n"
            "        return ''\n\n"
            "    def render(self):\n"
            "        return ''\n\n\n"
            "class Other:\n"
            "    def __str__(self):\n"
            "        return ''\n\n"
            "    def render(self):\n"
            "        return ''\n\n\n"
            "def one(value):\n"
            "    if isinstance(value, (str, Specifier)):\n"
            "        return str(value)\n"
            "    return ''\n\n\n"
            "def two(value):\n"
            "    if isinstance(value, (Other, Specifier)):\n"
            "        return value.render()\n"
            "    return ''\n\n\n"
            "def past_the_branch(value):\n"
            "    if isinstance(value, (Other, Specifier)):\n"
            "        print(value)\n"
            "    return value.render()\n\n\n"
            "def invoke(callback: Specifier | Other, fallback):\n"
            "    if isinstance(callback, Specifier):\n"
            "        callback = fallback\n"
            "    return callback.render()\n"
        ),
    }
    calls = project_calls(tmp_path, "tup", files)
    assert calls[("tup.spec.one", "tup.spec.Specifier.__str__")] == "inferred"
    assert calls[("tup.spec.two", "tup.spec.Specifier.render")] == "inferred"
    assert calls[("tup.spec.two", "tup.spec.Other.render")] == "inferred"
    assert {r for (s, _), r in calls.items() if s == "tup.spec.past_the_branch"} <= {"name"}
    # click's `Context.invoke`: `callback: Command | Callable`, given another value where it is a Command: past the
    # branch, it is no Command (the union's other class only)
    assert calls.get(("tup.spec.invoke", "tup.spec.Specifier.render")) in (None, "name")


def test_a_library_method_runs_the_dunder_only_where_no_class_overrides_it_and_a_method_taken_off_a_class_runs_itself(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # cachetools' shape: `Cache(MutableMapping).__setitem__` calls `self.popitem()`, which every cache but one
    # overrides; the library's `popitem` (deleting through `__delitem__`) runs only on a class that does not, so
    # `FIFOCache.__delitem__` is reached through FIFOCache's own `popitem`, never straight from `__setitem__`.
    # `TTLCache.expire`'s `cache_delitem = Cache.__delitem__; cache_delitem(self, key)` runs exactly that method.
    files = {
        "lru/__init__.py": (
            "import collections.abc\n\n\n"
            "class Cache(collections.abc.MutableMapping):\n"
            "    def __init__(self):\n"
            "        self.data = {}\n\n"
            "    def __getitem__(self, key):\n"
            "        return self.data[key]\n\n"
            "    def __setitem__(self, key, value):\n"
            "        while len(self.data) > 2:\n"
            "            self.popitem()\n"
            "        self.data[key] = value\n\n"
            "    def __delitem__(self, key):\n"
            "        del self.data[key]\n\n"
            "    def __iter__(self):\n"
            "        return iter(self.data)\n\n"
            "    def __len__(self):\n"
            "        return len(self.data)\n\n\n"
            "class FIFOCache(Cache):\n"
            "    def __setitem__(self, key, value, cache_setitem=Cache.__setitem__):\n"
            "        cache_setitem(self, key, value)\n\n"
            "    def __delitem__(self, key, cache_delitem=Cache.__delitem__):\n"
            "        cache_delitem(self, key)\n\n"
            "    def popitem(self):\n"
            "        key = next(iter(self))\n"
            "        return (key, self.pop(key))\n\n\n"
            "class Plain(Cache):\n"
            "    def __delitem__(self, key):\n"
            "        Cache.__delitem__(self, key)\n\n\n"
            "class LRUCache(Cache):\n"
            "    def popitem(self):\n"
            "        return evict(self.data)\n\n\n"
            "def evict(data):\n"
            "    return data.popitem()\n\n\n"
            "class TTLCache(Cache):\n"
            "    def expire(self):\n"
            "        cache_delitem = Cache.__delitem__\n"
            "        for key in list(self.data):\n"
            "            cache_delitem(self, key)\n"
        ),
    }
    catalog = indexed_projects(tmp_path_factory.mktemp("lru"), {"lru": files}, ["lru"])
    try:
        views = GenerationViews(RetrievalSettings())
        setitem, fifo_setitem, fifo_popitem, expire = (
            f"method:lru:lru.{name}"
            for name in ("Cache.__setitem__", "FIFOCache.__setitem__", "FIFOCache.popitem", "TTLCache.expire")
        )
        sets, pops, expires = (
            {t.rsplit(":", 1)[-1]: how for (kind, t), how in edges_out(catalog, views, e).items() if kind == "CALLS"}
            for e in (setitem, fifo_popitem, expire)
        )
        assert sets["lru.FIFOCache.popitem"] == "dispatch"
        assert sets["lru.Cache.__delitem__"] == sets["lru.Plain.__delitem__"] == "dispatch"  # the library's popitem
        assert "lru.FIFOCache.__delitem__" not in sets
        assert pops["lru.FIFOCache.__delitem__"] == "inferred"  # the library's `pop`, on FIFOCache's own dunder
        assert "lru.Plain.__delitem__" not in pops and "lru.Cache.__delitem__" not in pops
        assert expires["lru.Cache.__delitem__"] == "inferred"
        assert "lru.FIFOCache.__delitem__" not in expires and "lru.Plain.__delitem__" not in expires
        fifo_delitem = "method:lru:lru.FIFOCache.__delitem__"
        chain = explain_path(Reader(catalog, views), fifo_setitem, fifo_delitem, max_hops=4)
        assert [h.target for h in chain.paths[0].hops] == [setitem, fifo_popitem, fifo_delitem]
        lru = ["method:lru:lru.LRUCache.popitem", "function:lru:lru.evict"]
        assert lru in [[h.target for h in p.hops] for p in explain_path(Reader(catalog, views), setitem, lru[-1]).paths]
        evicting = explain_path(Reader(catalog, views), fifo_setitem, lru[-1], max_hops=4)  # a FIFOCache's never
        assert [setitem, *lru] not in [[h.target for h in p.hops] for p in evicting.paths]
        # walked back: `Cache.__setitem__` runs LRUCache's `popitem` on an LRUCache, and FIFOCache's `__setitem__`
        # calls it (`cache_setitem(self, ...)`) on a FIFOCache, which is none
        walk = walk_callers(views.relations(catalog), ["method:lru:lru.LRUCache.popitem"], 2, Resolution.DISPATCH)
        assert setitem in walk.reached and fifo_setitem not in walk.reached
    finally:
        catalog.close()


SINGLETONS = {
    "inf/__init__.py": "from inf.structures import InfinityType as InfinityType\n",
    "inf/structures.py": (
        "class InfinityType:\n"
        "    def __hash__(self):\n"
        "        return 1\n\n"
        "    def __lt__(self, other):\n"
        "        return False\n\n"
        "    def grow(self):\n"
        "        return self\n\n"
        "    def __neg__(self):\n"
        "        return self\n\n"
        "    def __call__(self, value):\n"
        "        return value\n\n\n"
        "class Other:\n"
        "    def __hash__(self):\n"
        "        return 2\n\n"
        "    def grow(self):\n"
        "        return self\n\n"
        "    def __call__(self, value):\n"
        "        return value\n\n\n"
        "Infinity = InfinityType()\n"
    ),
    "inf/user.py": (
        "from inf import InfinityType, structures\n"
        "from inf.structures import Infinity\n\n\n"
        "def use(left):\n"
        "    return hash(Infinity), Infinity < left, Infinity.grow(), -Infinity\n\n\n"
        "def of_the_class():\n"
        "    return hash(InfinityType)\n\n\n"
        "def called():\n"
        "    return Infinity(1), structures.Infinity(2)\n"
    ),
}


def test_a_module_level_instance_another_file_imports_runs_its_classs_methods_and_dunders(tmp_path: Path) -> None:
    # packaging's `Infinity = InfinityType()` in `_structures`, imported by `version` and the tests: `hash(Infinity)`,
    # `Infinity < x`, `Infinity.grow()` and `-Infinity` elsewhere run InfinityType's methods; hashing the class
    # itself runs none of its own; calling the instance (pyasn1's `decode = Decoder()`, then `decoder.decode(...)`)
    # runs its class's `__call__`; a run that rewrites only the module binds the importing file again
    catalog = indexed_projects(tmp_path, {"inf": SINGLETONS}, ("inf",))
    try:
        calls = {
            (s.rsplit(".", 1)[-1], t.rsplit(":", 1)[-1]): str(r.resolution) for (s, t), r in call_edges(catalog).items()
        }
        with catalog.writer() as writer:  # what an indexed module's name gives nothing is settled, not kept waiting
            waiting = [r.owner for d in writer.manifest.documents.values() for r in d.unresolved if "@" in r.owner]
        structures = SINGLETONS["inf/structures.py"].replace("Infinity = InfinityType()", "Infinity = Other()")
        write_files(tmp_path / "inf", {"inf/structures.py": structures})
        with catalog.writer() as writer:
            index_folder(writer, tmp_path / "inf", "inf", max_file_bytes=1_000_000)
        again = {(s.rsplit(".", 1)[-1], t.rsplit(":", 1)[-1]) for s, t in call_edges(catalog)}
    finally:
        catalog.close()
    for method in ("__hash__", "__lt__", "grow", "__neg__"):
        assert calls[("use", f"inf.structures.InfinityType.{method}")] == "inferred"
    assert not [t for s, t in calls if s == "of_the_class"]
    assert calls[("called", "inf.structures.InfinityType.__call__")] == "inferred"
    assert [t for s, t in calls if s == "called"] == ["inf.structures.InfinityType.__call__"]
    assert waiting == []
    assert {("use", "inf.structures.Other.__hash__"), ("use", "inf.structures.Other.grow")} <= again
    assert ("called", "inf.structures.Other.__call__") in again
    assert not [t for s, t in again if s == "use" and "InfinityType" in t]


def test_an_imported_instance_of_a_class_another_project_brings_binds_when_that_project_arrives(tmp_path: Path) -> None:
    # `shape = Circle()` with Circle from a project indexed after this one: `hash(shape)` in another file waits for
    # it, then runs `Circle.__hash__`
    projects = {
        "app": {
            "app/__init__.py": "",
            "app/main.py": "from shapes.circle import Circle\n\nshape = Circle()\n",
            "app/use.py": "from app.main import shape\n\n\ndef area():\n    return hash(shape)\n",
        },
        "shapes": {
            "shapes/__init__.py": "",
            "shapes/circle.py": "class Circle:\n    def __hash__(self):\n        return 1\n",
        },
    }
    catalog = indexed_projects(tmp_path, projects, ("app", "shapes"))
    try:
        calls = {(s.rsplit(".", 1)[-1], t.rsplit(":", 1)[-1]) for s, t in call_edges(catalog)}
    finally:
        catalog.close()
    assert ("area", "shapes.circle.Circle.__hash__") in calls


MIXIN_LOCAL_CLASS = {
    "lc/__init__.py": (
        "class Base:\n"
        "    def __init__(self, maxsize):\n"
        "        self.maxsize = maxsize\n\n"
        "    def size(self):\n"
        "        return 1\n\n"
        "    def __getitem__(self, key):\n"
        "        return self.__missing__(key)\n\n"
        "    def __missing__(self, key):\n"
        "        raise KeyError(key)\n\n\n"
        "class Other(Base):\n"
        "    def __init__(self, maxsize):\n"
        "        super().__init__(maxsize)\n\n"
        "    def size(self):\n"
        "        return 2\n"
    ),
    "tests/__init__.py": (
        "class CacheTestMixin:\n"
        "    Cache = None\n\n"
        "    def test_missing(self):\n"
        "        class DefaultCache(self.Cache):\n"
        "            def __missing__(self, key):\n"
        "                return key\n\n"
        "        cache = DefaultCache(maxsize=2)\n"
        "        cache.size()\n"
        "        cache.__missing__(1)\n"
        "        return cache[1]\n"
    ),
    "tests/test_base.py": (
        "from lc import Base\n\nfrom tests import CacheTestMixin\n\n\n"
        "class BaseTest(CacheTestMixin):\n    Cache = Base\n"
    ),
    "tests/test_other.py": (
        "from lc import Other\n\nfrom tests import CacheTestMixin\n\n\n"
        "class OtherTest(CacheTestMixin):\n    Cache = Other\n"
    ),
}


def test_a_class_a_test_defines_on_its_mixins_class_attribute_is_each_class_the_subclasses_give_it(
    tmp_path: Path,
) -> None:
    # cachetools' tests: `class DefaultCache(self.Cache)` in a mixin's test, each test class setting `Cache`: calling
    # it constructs each of those classes, its instance's methods are theirs, but the method it defines is its own
    catalog = indexed_projects(tmp_path, {"lc": MIXIN_LOCAL_CLASS}, ("lc",))
    try:
        calls = {t.rsplit(":", 1)[-1] for s, t in call_edges(catalog) if s.endswith(".test_missing")}
        with catalog.writer() as writer:
            waiting = [r for d in writer.manifest.documents.values() for r in d.unresolved]
    finally:
        catalog.close()
    for called in ("Base", "Other", "Base.size", "Other.size", "Base.__getitem__"):  # (`__init__`: at query time)
        assert f"lc.{called}" in calls, called
    assert "lc.Base.__missing__" not in calls
    assert waiting == []


def test_a_mapping_written_out_with_instances_of_one_class_gives_that_class(tmp_path: Path) -> None:
    # h11's test helper: `self.conn = {CLIENT: Connection(CLIENT), SERVER: Connection(SERVER)}`, then
    # `self.conn[role].send(...)`; a local mapping, its `.values()` and a comprehension the same; a mapping of two
    # unrelated classes, or with another mapping spread in, says nothing of its values
    files = {
        "hh/__init__.py": "",
        "hh/conn.py": (
            "class Connection:\n"
            "    def send(self, data):\n"
            "        return data\n\n\n"
            "class Other:\n"
            "    def send(self, data):\n"
            "        return data\n\n\n"
            "class Pair:\n"
            "    def __init__(self, base):\n"
            "        self.conn = {1: Connection(), 2: Connection()}\n"
            "        self.mixed = {1: Connection(), 2: Other()}\n"
            "        self.spread = {**base, 1: Connection()}\n\n"
            "    def send(self, role, data):\n"
            "        return self.conn[role].send(data)\n\n"
            "    def send_mixed(self, role, data):\n"
            "        self.mixed[role].send(data)\n"
            "        return self.spread[role].send(data)\n\n\n"
            "def each(names, data):\n"
            "    conns = {name: Connection() for name in names}\n"
            "    for conn in conns.values():\n"
            "        conn.send(data)\n\n\n"
            "def one(data):\n"
            "    conns = {'a': Other()}\n"
            "    return conns.get('a').send(data)\n"
        ),
    }
    calls = project_calls(tmp_path, "hh", files)
    assert calls[("hh.conn.Pair.send", "hh.conn.Connection.send")] == "inferred"
    assert calls[("hh.conn.each", "hh.conn.Connection.send")] == "inferred"
    assert calls[("hh.conn.one", "hh.conn.Other.send")] == "inferred"
    for wrong in ("Connection", "Other"):
        assert calls.get(("hh.conn.Pair.send_mixed", f"hh.conn.{wrong}.send")) in (None, "name"), wrong


def test_an_instance_passed_to_a_parameter_the_callee_calls_runs_its_classs_call(tmp_path: Path) -> None:
    # tenacity: `wrap_to_async_func(self.retry)` with `self.retry: retry_base`, whose nested `inner` calls
    # `call(*args)`: that runs `retry_base.__call__` (and, by dispatch, an override's); a function passed runs itself;
    # structlog's tests: `additional_frame(functools.partial(renderer, None, None, {}))`, which does `callable()`
    files = {
        "rt/__init__.py": "",
        "rt/retry.py": (
            "import abc\n\n\n"
            "class retry_base(abc.ABC):\n"
            "    @abc.abstractmethod\n"
            "    def __call__(self, state):\n"
            "        pass\n\n\n"
            "class retry_if_result(retry_base):\n"
            "    def __call__(self, state):\n"
            "        return True\n\n\n"
            "class plain:\n"
            "    def run(self):\n"
            "        return 1\n"
        ),
        "rt/utils.py": (
            "def wrap(call):\n"
            "    def inner(*args):\n"
            "        return call(*args)\n\n"
            "    return inner\n\n\n"
            "def log(state):\n"
            "    return state\n\n\n"
            "def frame(callable):\n"
            "    return callable()\n"
        ),
        "rt/core.py": (
            "from rt import utils\nfrom rt.retry import plain, retry_base, retry_if_result\n\n\n"
            "class Retrying:\n"
            "    def __init__(self, retry: retry_base = retry_if_result()):\n"
            "        self.retry = retry\n\n"
            "    def run(self, state):\n"
            "        utils.wrap(utils.log)(state)\n"
            "        utils.wrap(plain())(state)\n"
            "        return utils.wrap(self.retry)(state)\n\n"
            "    def later(self, state):\n"
            "        bound = functools.partial(retry_if_result(), state)\n"
            "        bound()\n"
            "        return utils.frame(functools.partial(retry_if_result(), state))\n"
        ),
    }
    files["rt/core.py"] = f"import functools\n{files['rt/core.py']}"
    calls = project_calls(tmp_path, "rt", files)
    assert calls[("rt.utils.wrap", "rt.retry.retry_base.__call__")] == "inferred"
    assert calls[("rt.utils.wrap", "rt.utils.log")] == "inferred"
    assert not any(s == "rt.utils.wrap" and t.startswith("rt.retry.plain") for s, t in calls)
    # a partial of an instance calls the instance; a parameter named as a builtin (`callable`) is the parameter
    assert calls[("rt.core.Retrying.later", "rt.retry.retry_if_result.__call__")] == "inferred"
    assert calls[("rt.utils.frame", "rt.retry.retry_if_result.__call__")] == "inferred"


def test_a_call_giving_a_function_handed_on_references_that_function(tmp_path: Path) -> None:
    # natsort: `sorted(seq, key=natsort_keygen(key, alg))`, where `natsort_keygen` returns `partial(natsort_key,
    # ...)`: sorted calls natsort_key; a call giving data hands nothing on
    files = {
        "ns/__init__.py": "",
        "ns/keys.py": (
            "from functools import partial\n\n\n"
            "def natsort_key(value, alg=0):\n"
            "    return value\n\n\n"
            "def natsort_keygen(alg=0):\n"
            "    return partial(\n        natsort_key,\n        alg=alg,\n    )\n\n\n"
            "def count(seq):\n"
            "    return len(seq)\n\n\n"
            "def natsorted(seq, alg=0):\n"
            "    return sorted(seq, key=natsort_keygen(alg))\n\n\n"
            "def parsed(seq):\n"
            "    return list(map(partial(natsort_key, alg=1), seq)) + [max(seq, key=count(seq))]\n"
        ),
    }
    out = project_edges(
        tmp_path, "ns", files, ["function:ns:ns.keys.natsorted", "function:ns:ns.keys.parsed"], read=edges_named
    )
    assert out["function:ns:ns.keys.natsorted"][("REFERENCES", "ns.keys.natsort_key")] == "inferred"
    assert ("REFERENCES", "ns.keys.natsort_key") in out["function:ns:ns.keys.parsed"]  # (exact: partial's argument)
    assert ("REFERENCES", "ns.keys.count") not in out["function:ns:ns.keys.parsed"]


def test_a_type_alias_another_module_states_for_one_class_types_what_it_annotates(tmp_path: Path) -> None:
    # tenacity: `RetryBaseT = Union[retry_base, Callable[[RetryCallState], bool]]` in `retry.py`; `__init__.py` imports
    # it under `TYPE_CHECKING` and annotates `retry: "RetryBaseT"`, then `self.retry(state)` and
    # `wrap_to_async_func(self.retry)`: each runs `retry_base.__call__`; an alias of two classes names neither
    files = {
        "tc/__init__.py": "def retry(*dargs):\n    return dargs\n",  # (a function named as the module)
        "tc/retry.py": (
            "import typing\n\n\n"
            "class retry_base:\n"
            "    def __call__(self, state):\n"
            "        return True\n\n"
            "    def reset(self):\n"
            "        return None\n\n\n"
            "class stop_base:\n"
            "    def reset(self):\n"
            "        return None\n\n\n"
            "RetryBaseT = typing.Union[retry_base, typing.Callable[[int], bool]]\n"
            "EitherT = typing.Union[retry_base, stop_base]\n"
        ),
        "tc/utils.py": "def wrap(call):\n    def inner(*args):\n        return call(*args)\n\n    return inner\n",
        "tc/core.py": (
            "import typing\n\nfrom tc import utils\n\n"
            "if typing.TYPE_CHECKING:\n    from tc.retry import EitherT, RetryBaseT\n\n\n"
            "class Retrying:\n"
            '    def __init__(self, retry: "RetryBaseT", either: "EitherT"):\n'
            "        self.retry = retry\n"
            "        self.either = either\n\n"
            "    def run(self, state):\n"
            "        self.either.reset()\n"
            "        return self.retry(state)\n\n"
            "    async def arun(self, state):\n"
            "        return await utils.wrap(self.either)(state)\n"
        ),
        "tc/aio.py": (  # a subclass in another module: what its base states the attribute holds
            "from tc import utils\nfrom tc.core import Retrying\n\n\n"
            "class AsyncRetrying(Retrying):\n"
            "    def run_stop(self, state):\n"
            "        return utils.wrap(self.retry)(state)\n"
        ),
    }
    calls = project_calls(tmp_path, "tc", files)
    assert calls[("tc.core.Retrying.run", "tc.retry.retry_base.__call__")] == "inferred"
    assert calls[("tc.utils.wrap", "tc.retry.retry_base.__call__")] == "inferred"
    assert calls.get(("tc.core.Retrying.run", "tc.retry.retry_base.reset")) in (None, "name")


def test_a_parameter_given_a_default_in_a_branch_still_holds_what_callers_pass(tmp_path: Path) -> None:
    # asttokens: `visit_tree(node, previsit, postvisit)` starts with `if not postvisit: postvisit = lambda ...: None`,
    # then calls `postvisit(...)`, which runs the bound method `MarkTokens` passes from another file
    files = {
        "at/__init__.py": "",
        "at/util.py": (
            "from typing import Callable, Optional\n\n\n"
            "def visit_tree(node, previsit: Callable[[int], int], postvisit: Optional[Callable[[int], None]]):\n"
            "    if not postvisit:\n"
            "        postvisit = lambda node: None\n"
            "    previsit(node)\n"
            "    return postvisit(node)\n\n\n"
            "def replaced(node, postvisit):\n"
            "    postvisit = print\n"
            "    return postvisit(node)\n"
        ),
        "at/marks.py": (
            "from at import util\n\n\n"
            "class MarkTokens:\n"
            "    def visit_tree(self, node):\n"
            "        util.visit_tree(node, self._before, self._after)\n"
            "        util.replaced(node, self._after)\n\n"
            "    def _before(self, node):\n"
            "        return node\n\n"
            "    def _after(self, node):\n"
            "        return node\n"
        ),
    }
    calls = project_calls(tmp_path, "at", files)
    assert calls[("at.util.visit_tree", "at.marks.MarkTokens._after")] == "inferred"
    assert calls[("at.util.visit_tree", "at.marks.MarkTokens._before")] == "inferred"
    assert ("at.util.replaced", "at.marks.MarkTokens._after") not in calls  # given another value on every path


def test_an_attribute_keeping_what_another_files_caller_passes_runs_it_for_every_caller(tmp_path: Path) -> None:
    # pluggy: `HookCaller(name, self._hookexec)` in _manager.py; `HookCaller.__init__` keeps `hook_execute` (annotated
    # by a Callable alias) as `self._hookexec`, and `__call__` calls it; the tests reach `_hookexec` through `__call__`
    files = {
        "pl/__init__.py": "",
        "pl/caller.py": (
            "from typing import Callable, Final, TypeAlias\n\n"
            "_HookExec: TypeAlias = Callable[[str, dict], object]\n\n\n"
            "class HookCaller:\n"
            "    def __init__(self, name, hook_execute: _HookExec, tracer):\n"
            "        self.name = name\n"
            "        self._hookexec: Final = hook_execute\n"
            "        self._tracer = tracer\n\n"
            "    def __call__(self, **kwargs):\n"
            "        self._tracer()\n"
            "        return self._hookexec(self.name, kwargs)\n\n\n"
            "def func():\n"
            "    return None\n\n\n"
            "class Keeper:\n"
            "    def __init__(self, func):\n"
            "        self._func = func\n\n"
            "    def run(self):\n"
            "        return self._func()\n"
        ),
        "pl/manager.py": (
            "from pl.caller import HookCaller\n\n\n"
            "def trace():\n"
            "    return None\n\n\n"
            "class PluginManager:\n"
            "    def add_hookspecs(self):\n"
            "        self.hook = HookCaller('h', self._hookexec, trace)\n\n"
            "    def _hookexec(self, name, kwargs):\n"
            "        return name\n\n\n"
            "def fire(hook: HookCaller):\n"
            "    return hook(x=1)\n"
        ),
    }
    catalog = indexed_projects(tmp_path, {"pl": files}, ("pl",))
    try:
        found = {
            (s.rsplit(":", 1)[-1], t.rsplit(":", 1)[-1]): str(r.resolution) for (s, t), r in call_edges(catalog).items()
        }
        assert found[("pl.caller.HookCaller.__call__", "pl.manager.PluginManager._hookexec")] == "inferred"
        assert found[("pl.caller.HookCaller.__call__", "pl.manager.trace")] == "inferred"
        assert ("pl.caller.Keeper.run", "pl.caller.func") not in found  # nothing passed: no guess by its name
        # what a change of `_hookexec` affects: `__call__`, and who passed it (a caller of `__call__` holds a caller
        # made by one of them: reached through them, not through every call of `__call__`)
        views = GenerationViews(RetrievalSettings())
        walk = walk_callers(
            views.relations(catalog), ["method:pl:pl.manager.PluginManager._hookexec"], 2, Resolution.INFERRED
        )
        assert "method:pl:pl.caller.HookCaller.__call__" in walk.reached
        assert "method:pl:pl.manager.PluginManager.add_hookspecs" in walk.reached
        assert "function:pl:pl.manager.fire" not in walk.reached
    finally:
        catalog.close()


def test_a_table_module_statements_fill_and_a_mapping_a_module_annotates_give_their_items(tmp_path: Path) -> None:
    # lark: `_parser_creators = {}` then `_parser_creators['lalr'] = create_lalr_parser` at module level, and
    # `_parser_creators.get(kind)(...)`; parso: `_loaded_grammars: Dict[str, 'Grammar'] = {}` and `load_grammar()`
    # returning `_loaded_grammars[path]` or `_loaded_grammars.setdefault(path, grammar)`, then `grammar.parse(code)`
    files = {
        "lk/__init__.py": "",
        "lk/front.py": (
            "from typing import Any, Callable, Dict\n\n"
            "_creators: 'Dict[str, Callable[[Any], Any]]' = {}\n\n\n"
            "class LALR:\n"
            "    def parse(self, text):\n"
            "        return text\n\n\n"
            "class Front:\n"
            "    def __init__(self, kind, conf, parser=None):\n"
            "        if parser:\n"
            "            self.parser = parser\n"
            "        else:\n"
            "            create = _creators.get(kind)\n"
            "            self.parser = create(conf)\n\n"
            "    def parse(self, text):\n"
            "        return self.parser.parse(text)\n\n\n"
            "def create_lalr(conf) -> LALR:\n"
            "    return LALR()\n\n\n"
            "class Cyk:\n"
            "    def __init__(self, conf):\n"
            "        self.conf = conf\n\n"
            "    def parse(self, text):\n"
            "        return text\n\n\n"
            "_creators['lalr'] = create_lalr\n"
            "_creators['cyk'] = Cyk\n"
        ),
        "lk/grammar.py": (
            "from typing import Dict\n\n\n"
            "class Grammar:\n"
            "    def parse(self, code):\n"
            "        return code\n\n\n"
            "class PythonGrammar(Grammar):\n"
            "    pass\n\n\n"
            "_loaded: Dict[str, 'Grammar'] = {}\n"
            "_names: Dict[str, str] = {}\n\n\n"
            "def load_grammar(path):\n"
            "    try:\n"
            "        return _loaded[path]\n"
            "    except KeyError:\n"
            "        grammar = PythonGrammar()\n"
            "        return _loaded.setdefault(path, grammar)\n\n\n"
            "def first(path):\n"
            "    return _loaded[path].parse(path)\n"
        ),
        "lk/api.py": (
            "from lk.grammar import load_grammar\n\n\n"
            "def parse(code, **kwargs):\n"
            "    grammar = load_grammar(kwargs.pop('version', None))\n"
            "    return grammar.parse(code)\n"
        ),
    }
    calls = project_calls(tmp_path, "lk", files)
    assert calls[("lk.front.Front.__init__", "lk.front.create_lalr")] == "dispatch"
    assert calls[("lk.front.Front.__init__", "lk.front.Cyk")] == "dispatch"
    # `self.parser = create(conf)`: an instance of what any item makes (lark's ParsingFrontend.parse)
    assert calls[("lk.front.Front.parse", "lk.front.LALR.parse")] == "inferred"
    assert calls[("lk.front.Front.parse", "lk.front.Cyk.parse")] == "inferred"
    assert calls[("lk.api.parse", "lk.grammar.Grammar.parse")] == "inferred"
    assert calls[("lk.grammar.first", "lk.grammar.Grammar.parse")] == "inferred"


def test_a_function_returning_a_local_it_constructed_returns_that_class(tmp_path: Path) -> None:
    # pycparser: `self.cparser = yacc.yacc(...)`, where `yacc()` ends `parser = LRParser(lr, ...); return parser`
    # (and returns it early on another path), then `self.cparser.parse(...)` in CParser.parse
    files = {
        "yc/__init__.py": "",
        "yc/yacc.py": (
            "class LRParser:\n"
            "    def parse(self, text):\n"
            "        return text\n\n\n"
            "def yacc(optimize=False):\n"
            "    if optimize:\n"
            "        parser = LRParser()\n"
            "        return parser\n"
            "    parser = LRParser()\n"
            "    return parser\n\n\n"
            "def unsure(flag):\n"
            "    made = LRParser()\n"
            "    if flag:\n"
            "        made = dict()\n"
            "    return made\n"
        ),
        "yc/cparser.py": (
            "from yc import yacc\n\n\n"
            "class CParser:\n"
            "    def __init__(self):\n"
            "        self.cparser = yacc.yacc(optimize=True)\n\n"
            "    def parse(self, text):\n"
            "        return self.cparser.parse(text)\n\n"
            "    def other(self, text):\n"
            "        return yacc.unsure(True).parse(text)\n"
        ),
    }
    calls = project_calls(tmp_path, "yc", files)
    assert calls[("yc.cparser.CParser.parse", "yc.yacc.LRParser.parse")] == "inferred"
    assert calls.get(("yc.cparser.CParser.other", "yc.yacc.LRParser.parse"), "name") == "name"  # made may be a dict


def test_a_mapping_an_attribute_is_built_from_a_module_list_or_a_parameters_default_gives_its_items(
    tmp_path: Path,
) -> None:
    # docstring_parser: `DEFAULT_SECTIONS = [Section(...), DeprecationSection(...)]`; `NumpydocParser.__init__` does
    # `sections = sections or DEFAULT_SECTIONS` then `self.sections = {s.title: s for s in sections}`, and `parse`
    # calls `self.sections[title].parse(...)`: a Section's (or an override's)
    files = {
        "dp/__init__.py": "",
        "dp/numpydoc.py": (
            "import typing as T\n\n\n"
            "class Section:\n"
            "    def __init__(self, title):\n"
            "        self.title = title\n\n"
            "    def parse(self, text):\n"
            "        return [text]\n\n\n"
            "class DeprecationSection(Section):\n"
            "    def parse(self, text):\n"
            "        yield text\n\n\n"
            "DEFAULT_SECTIONS = [Section('a'), DeprecationSection('b')]\n\n\n"
            "class NumpydocParser:\n"
            "    def __init__(self, sections: T.Optional[T.Dict[str, Section]] = None):\n"
            "        sections = sections or DEFAULT_SECTIONS\n"
            "        self.sections = {s.title: s for s in sections}\n\n"
            "    def parse(self, title):\n"
            "        factory = self.sections[title]\n"
            "        return factory.parse(title)\n\n\n"
            "class Defaults:\n"
            "    def __init__(self):\n"
            "        self.sections = {s.title: s for s in DEFAULT_SECTIONS}\n\n"
            "    def parse(self, title):\n"
            "        return self.sections[title].parse(title)\n"
        ),
    }
    calls = project_calls(tmp_path, "dp", files)
    assert calls[("dp.numpydoc.NumpydocParser.parse", "dp.numpydoc.Section.parse")] == "inferred"
    assert calls[("dp.numpydoc.Defaults.parse", "dp.numpydoc.Section.parse")] == "inferred"


def test_an_instance_an_attribute_keeps_from_a_parameter_is_called_for_every_caller(tmp_path: Path) -> None:
    # mistune: `Markdown.__init__` keeps `renderer` (an HTMLRenderer other files make) as `self.renderer`;
    # `render_state` calls `self.renderer(data, state)`, which runs `BaseRenderer.__call__`, and so do the callers of
    # `render_state` (what a renderer's `__call__` does reaches every test rendering markdown)
    files = {
        "mi/__init__.py": "",
        "mi/core.py": (
            "class BaseRenderer:\n"
            "    def __call__(self, tokens, state):\n"
            "        return list(tokens)\n\n\n"
            "class HTMLRenderer(BaseRenderer):\n"
            "    pass\n"
        ),
        "mi/markdown.py": (
            "class Markdown:\n"
            "    def __init__(self, renderer=None):\n"
            "        self.renderer = renderer\n\n"
            "    def render_state(self, state):\n"
            "        if self.renderer:\n"
            "            return self.renderer([state], state)\n"
            "        return None\n\n"
            "    def parse(self, text):\n"
            "        return self.render_state(text)\n"
        ),
        "mi/api.py": (
            "from mi.core import HTMLRenderer\nfrom mi.markdown import Markdown\n\n\n"
            "def create_markdown():\n"
            "    return Markdown(renderer=HTMLRenderer())\n\n\n"
            "def html(md: Markdown, text):\n"
            "    return md.parse(text)\n"
        ),
    }
    catalog = indexed_projects(tmp_path, {"mi": files}, ("mi",))
    try:
        calls = {(s.rsplit(":", 1)[-1], t.rsplit(":", 1)[-1]) for s, t in call_edges(catalog)}
        assert ("mi.markdown.Markdown.render_state", "mi.core.BaseRenderer.__call__") in calls
        walk = walk_callers(
            GenerationViews(RetrievalSettings()).relations(catalog),
            ["method:mi:mi.core.BaseRenderer.__call__"],
            3,
            Resolution.INFERRED,
        )
        assert "function:mi:mi.api.html" in walk.reached
    finally:
        catalog.close()


def test_a_module_name_assigned_several_instances_holds_their_shared_base(tmp_path: Path) -> None:
    # parsimonious: `rule_grammar = BootstrappingGrammar(rule_syntax)`, then `rule_grammar = Grammar(rule_syntax)` at
    # module level; `Grammar._expressions_from_rules` calls `rule_grammar.parse(rules)` (it runs between the two)
    files = {
        "pm/__init__.py": "",
        "pm/grammar.py": (
            "class Grammar:\n"
            "    def parse(self, text):\n"
            "        return text\n\n"
            "    def _expressions_from_rules(self, rules):\n"
            "        return rule_grammar.parse(rules)\n\n\n"
            "class BootstrappingGrammar(Grammar):\n"
            "    pass\n\n\n"
            "class Other:\n"
            "    def parse(self, text):\n"
            "        return text\n\n\n"
            "rule_grammar = BootstrappingGrammar()\n"
            "rule_grammar = Grammar()\n"
            "mixed = Grammar()\n"
            "mixed = Other()\n\n\n"
            "def use():\n"
            "    return mixed.parse('q')\n"
        ),
    }
    calls = project_calls(tmp_path, "pm", files)
    assert calls[("pm.grammar.Grammar._expressions_from_rules", "pm.grammar.Grammar.parse")] == "inferred"
    assert calls.get(("pm.grammar.use", "pm.grammar.Grammar.parse"), "name") == "name"  # two unrelated classes


def test_a_name_a_class_body_gives_one_of_its_methods_runs_that_method(tmp_path: Path) -> None:
    # jinja2's RootVisitor: `visit_Template = _simple_visit` (and nine more), reached by NodeVisitor.visit's
    # `getattr(self, f"visit_{type(node).__name__}")`; pyparsing-style operator aliases (`__radd__ = __add__`)
    files = {
        "vi/__init__.py": "",
        "vi/visitor.py": (
            "class NodeVisitor:\n"
            "    def visit(self, node):\n"
            "        f = getattr(self, f'visit_{type(node).__name__}', None)\n"
            "        return f(node) if f is not None else None\n\n\n"
            "class RootVisitor(NodeVisitor):\n"
            "    def _simple_visit(self, node):\n"
            "        return node\n\n"
            "    visit_Template = _simple_visit\n\n"
            "    def visit_For(self, node):\n"
            "        return self.visit_Template(node)\n\n\n"
            "class Num:\n"
            "    def __add__(self, other):\n"
            "        return self\n\n"
            "    __radd__ = __add__\n\n\n"
            "def total(n: Num):\n"
            "    return n.__radd__(1)\n"
        ),
    }
    calls = project_calls(tmp_path, "vi", files)
    assert calls[("vi.visitor.NodeVisitor.visit", "vi.visitor.RootVisitor._simple_visit")] == "dispatch"
    assert calls[("vi.visitor.RootVisitor.visit_For", "vi.visitor.RootVisitor._simple_visit")] == "inferred"
    assert calls[("vi.visitor.total", "vi.visitor.Num.__add__")] == "inferred"


def test_a_variable_given_either_of_two_classes_constructs_each_and_its_instance_runs_either(tmp_path: Path) -> None:
    # tomlkit's `item()`: `table_constructor = InlineTable if isinstance(_parent, ...) else Table`, then
    # `val = table_constructor(...)` and `val[k] = item(v)`, which runs `AbstractTable.__setitem__`
    files = {
        "tk/__init__.py": "",
        "tk/items.py": (
            "class AbstractTable:\n"
            "    def __setitem__(self, key, value):\n"
            "        pass\n\n"
            "    def add(self, key):\n"
            "        pass\n\n\n"
            "class Table(AbstractTable):\n"
            "    pass\n\n\n"
            "class InlineTable(AbstractTable):\n"
            "    pass\n\n\n"
            "def item(value, parent=None):\n"
            "    table_constructor = InlineTable if isinstance(parent, list) else Table\n"
            "    val = table_constructor()\n"
            "    val['k'] = value\n"
            "    val.add('x')\n"
            "    return val\n\n\n"
            "def plain(value):\n"
            "    number = int if value else float\n"
            "    made = number(value)\n"
            "    made['k'] = 1\n"
        ),
    }
    calls = project_calls(tmp_path, "tk", files)
    assert calls[("tk.items.item", "tk.items.InlineTable")] == "inferred"
    assert calls[("tk.items.item", "tk.items.Table")] == "inferred"
    assert calls[("tk.items.item", "tk.items.AbstractTable.__setitem__")] == "inferred"
    assert calls[("tk.items.item", "tk.items.AbstractTable.add")] == "inferred"
    assert not any(source == "tk.items.plain" for source, _ in calls)  # builtins: no project's


def test_a_variable_given_what_a_method_returning_one_of_several_classes_returns_constructs_each(
    tmp_path: Path,
) -> None:
    # pycparser's `CParser`: `_select_struct_union_class(token)` returns `c_ast.Struct` or `c_ast.Union`, then
    # `klass = self._select_struct_union_class(p[1])` and `p[0] = klass(name=None, ...)`; a method that may return
    # something else (a parameter) gives nothing to call
    files = {
        "cp/__init__.py": "",
        "cp/c_ast.py": (
            "class Struct:\n"
            "    def show(self):\n"
            "        return 1\n\n\n"
            "class Union:\n"
            "    def show(self):\n"
            "        return 2\n"
        ),
        "cp/parser.py": (
            "from . import c_ast\n\n\n"
            "class Parser:\n"
            "    def _select(self, token):\n"
            "        if token == 'struct':\n"
            "            return c_ast.Struct\n"
            "        return c_ast.Union\n\n"
            "    def _or_given(self, token, default):\n"
            "        if token == 'struct':\n"
            "            return c_ast.Struct\n"
            "        return default\n\n"
            "    def p_spec(self, p):\n"
            "        klass = self._select(p[1])\n"
            "        return klass().show()\n\n"
            "    def p_other(self, p):\n"
            "        klass = self._or_given(p[1], p[2])\n"
            "        return klass().show()\n"
        ),
    }
    calls = project_calls(tmp_path, "cp", files)
    for made in ("cp.c_ast.Struct", "cp.c_ast.Union", "cp.c_ast.Struct.show", "cp.c_ast.Union.show"):
        assert calls[("cp.parser.Parser.p_spec", made)] == "inferred"
    assert not [t for (s, t), r in calls.items() if s == "cp.parser.Parser.p_other" and r != "name" and "c_ast" in t]


def test_a_class_attribute_given_a_class_at_the_modules_top_level_constructs_it(tmp_path: Path) -> None:
    # pyparsing's `ParserElement._literalStringClass: type = None` in the class body, then `ParserElement.
    # _literalStringClass = Literal` after `Literal` is defined: `self._literalStringClass(other)` in `__add__`, and
    # the same read on the class in another module, make a Literal; an attribute of a name no class is gives nothing
    files = {
        "pp/__init__.py": "",
        "pp/core.py": (
            "class ParserElement:\n"
            "    _literalStringClass: type = None\n\n"
            "    def __add__(self, other):\n"
            "        return [self, self._literalStringClass(other)]\n\n"
            "    def other(self, text):\n"
            "        return self._other(text)\n\n\n"
            "class Literal(ParserElement):\n"
            "    def __init__(self, text):\n"
            "        self.text = text\n\n\n"
            "settings = object()\n"
            "ParserElement._literalStringClass = Literal\n"
            "settings._other = Literal\n"
        ),
        "pp/helpers.py": (
            "from pp.core import ParserElement\n\n\ndef op(text):\n    return ParserElement._literalStringClass(text)\n"
        ),
    }
    calls = project_calls(tmp_path, "pp", files)
    assert calls[("pp.core.ParserElement.__add__", "pp.core.Literal")] == "inferred"
    assert calls[("pp.helpers.op", "pp.core.Literal")] in ("exact", "inferred")
    assert ("pp.core.ParserElement.other", "pp.core.Literal") not in calls


def test_a_function_returning_what_it_keeps_on_itself_returns_that_class(tmp_path: Path) -> None:
    # lark's `_get_parser()`: `try: return _get_parser.cache` / `except AttributeError: _get_parser.cache =
    # ParsingFrontend(...); return _get_parser.cache`, then `_get_parser().parse(text)` in `_parse_grammar`
    files = {
        "lg/__init__.py": "",
        "lg/frontends.py": "class ParsingFrontend:\n    def parse(self, text):\n        return text\n",
        "lg/load_grammar.py": (
            "from lg.frontends import ParsingFrontend\n\n\n"
            "def _get_parser():\n"
            "    try:\n"
            "        return _get_parser.cache\n"
            "    except AttributeError:\n"
            "        _get_parser.cache = ParsingFrontend()\n"
            "        return _get_parser.cache\n\n\n"
            "def _parse_grammar(text):\n"
            "    return _get_parser().parse(text)\n"
        ),
    }
    calls = project_calls(tmp_path, "lg", files)
    assert calls[("lg.load_grammar._parse_grammar", "lg.frontends.ParsingFrontend.parse")] == "inferred"


def test_an_attribute_given_a_parameter_of_tuples_holds_its_places(tmp_path_factory: pytest.TempPathFactory) -> None:
    # cssselect's `Relation.__init__(self, selector, arguments: Sequence[tuple[Token, Selector]])` keeps
    # `self.arguments = arguments`; `for combinator, sub in self.arguments` (a loop or a comprehension) gives a Selector
    files = {
        "rel/__init__.py": "",
        "rel/m.py": (
            "from typing import Sequence\n\n\n"
            "class Token:\n"
            "    def canonical(self):\n"
            "        return 't'\n\n\n"
            "class Selector:\n"
            "    def canonical(self):\n"
            "        return 's'\n\n\n"
            "class Relation:\n"
            "    def __init__(self, arguments: Sequence[tuple[Token, Selector]]):\n"
            "        self.arguments = arguments\n\n"
            "    def loop(self):\n"
            "        for combinator, sub in self.arguments:\n"
            "            sub.canonical()\n\n"
            "    def comprehension(self):\n"
            "        return [sub.canonical() for _, sub in self.arguments]\n"
        ),
    }
    loop, comprehension = "method:rel:rel.m.Relation.loop", "method:rel:rel.m.Relation.comprehension"
    found = project_edges(
        tmp_path_factory.mktemp("places"), "rel", files, [loop, comprehension], relation_types=["CALLS"]
    )
    for caller in (loop, comprehension):
        assert set(found[caller]) == {("CALLS", "rel.m.Selector.canonical")}
        assert found[caller][("CALLS", "rel.m.Selector.canonical")] == "inferred"


def test_a_decorator_factory_s_argument_is_what_its_wrapper_calls(tmp_path_factory: pytest.TempPathFactory) -> None:
    # jinja2's `@async_variant(sync_do_first)` over `async def do_first`: the wrapper the factory's decorator returns
    # calls `normal_func`, the function the factory was given in another file, as a plain call of it would pass it
    files = {
        "av/__init__.py": "",
        "av/utils.py": (
            "from functools import wraps\n\n\n"
            "def async_variant(normal_func):\n"
            "    def decorator(async_func):\n"
            "        @wraps(async_func)\n"
            "        def wrapper(*args, **kwargs):\n"
            "            if args:\n"
            "                return async_func(*args, **kwargs)\n"
            "            return normal_func(*args, **kwargs)\n\n"
            "        return wrapper\n\n"
            "    return decorator\n"
        ),
        "av/filters.py": (
            "from .utils import async_variant\n\n\n"
            "def sync_do_first(x):\n"
            "    return x\n\n\n"
            "@async_variant(sync_do_first)\n"
            "async def do_first(x):\n"
            "    return x\n"
        ),
    }
    factory = "function:av:av.utils.async_variant"
    found = project_edges(tmp_path_factory.mktemp("factory"), "av", files, [factory], relation_types=["CALLS"])
    assert set(found[factory]) == {("CALLS", "av.filters.sync_do_first"), ("CALLS", "av.filters.do_first")}


def test_a_unittest_assertion_runs_the_operator_it_applies_to_its_arguments(tmp_path: Path) -> None:
    # pathspec's suite: `self.assertEqual(first_spec, second_spec)` runs `PathSpec.__eq__` inside unittest, as
    # `assert first == second` would; an assertion on another object than the test's own is not unittest's
    files = {
        "spec/__init__.py": "",
        "spec/paths.py": (
            "class PathSpec:\n"
            "    def __init__(self, patterns):\n"
            "        self.patterns = patterns\n\n"
            "    def __eq__(self, other):\n"
            "        return self.patterns == other.patterns\n\n"
            "    def __contains__(self, item):\n"
            "        return item in self.patterns\n\n"
            "    def __bool__(self):\n"
            "        return bool(self.patterns)\n\n"
            "    def __lt__(self, other):\n"
            "        return len(self.patterns) < len(other.patterns)\n"
        ),
        "tests/test_paths.py": (
            "import unittest\n\nfrom spec.paths import PathSpec\n\n\n"
            "class PathSpecTest(unittest.TestCase):\n"
            "    def test_eq(self):\n"
            "        first = PathSpec(['a'])\n"
            "        self.assertEqual(first, PathSpec(['a']))\n\n"
            "    def test_in(self):\n"
            "        spec = PathSpec(['a'])\n"
            "        self.assertIn('a', spec)\n"
            "        self.assertTrue(spec)\n"
            "        self.assertLess(spec, PathSpec(['a', 'b']))\n\n"
            "    def test_other(self, checker):\n"
            "        checker.assertEqual(PathSpec(['a']), 1)\n"
        ),
    }
    calls = project_calls(tmp_path, "spec", files)
    test = "tests.test_paths.PathSpecTest"
    assert calls[(f"{test}.test_eq", "spec.paths.PathSpec.__eq__")] == "inferred"
    for method in ("__contains__", "__bool__", "__lt__"):
        assert calls[(f"{test}.test_in", f"spec.paths.PathSpec.{method}")] == "inferred"
    assert (f"{test}.test_other", "spec.paths.PathSpec.__eq__") not in calls


def test_a_chain_through_the_callees_a_class_is_handed_to_comes_before_the_reference(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # sqlparse's shape: `group_comparison` hands `sql.Comparison` to `_group`, which hands it to `group_tokens`,
    # which makes it; what ran is group_comparison -> _group -> group_tokens -> Comparison's __init__
    files = {
        "sq/__init__.py": "",
        "sq/sql.py": (
            "class TokenList:\n"
            "    def __init__(self, tokens=None):\n"
            "        self.tokens = tokens or []\n\n"
            "    def group_tokens(self, grp_cls, start, end):\n"
            "        return grp_cls(self.tokens[start:end])\n\n\n"
            "class Comparison(TokenList):\n"
            "    pass\n"
        ),
        "sq/grouping.py": (
            "from sq import sql\n\n\n"
            "def _group(tlist, cls, start):\n"
            "    return tlist.group_tokens(cls, start, start + 2)\n\n\n"
            "def group_comparison(tlist: sql.TokenList):\n"
            "    return _group(tlist, sql.Comparison, 0)\n"
        ),
    }
    catalog = indexed_projects(tmp_path_factory.mktemp("handed_class"), {"sq": files}, ["sq"])
    try:
        reader = Reader(catalog, GenerationViews(RetrievalSettings()))
        source, target = "function:sq:sq.grouping.group_comparison", "method:sq:sq.sql.TokenList.__init__"
        found = explain_path(reader, source, target, max_hops=4)
        walked = [[(h.type, h.target) for h in path.hops] for path in found.paths]
        group, tokens = "function:sq:sq.grouping._group", "method:sq:sq.sql.TokenList.group_tokens"
        assert walked[0] == [("CALLS", group), ("CALLS", tokens), ("CALLS", target)]
        assert [("REFERENCES", target)] in walked[1:]  # the class handed on: still an answer, after
    finally:
        catalog.close()


def test_a_class_decorator_handing_the_class_on_puts_no_wrapper_around_it(tmp_path: Path) -> None:
    # attrs' shape: `@attrs(...)` hands the class to `_ClassBuilder(cls, ...)` and returns the class it builds; a
    # later `_NumberValidator(...)` does not run `attrs`, as a call of a function a wrapper decorates runs the wrapper
    files = {
        "reg/__init__.py": "",
        "reg/plugins.py": (
            "class Builder:\n"
            "    def __init__(self, cls):\n"
            "        self.cls = cls\n\n\n"
            "def register(cls):\n"
            "    Builder(cls)\n"
            "    return cls\n\n\n"
            "def traced(func):\n"
            "    def wrapper(*args):\n"
            "        return func(*args)\n"
            "    return wrapper\n\n\n"
            "@register\n"
            "class Plugin:\n"
            "    def __init__(self):\n"
            "        self.x = 1\n\n\n"
            "@traced\n"
            "def work():\n"
            "    return 1\n\n\n"
            "def make():\n"
            "    work()\n"
            "    return Plugin()\n"
        ),
    }
    catalog = indexed_projects(tmp_path, {"reg": files}, ["reg"])
    try:
        views = GenerationViews(RetrievalSettings())
        made = edges_named(catalog, views, "function:reg:reg.plugins.make")
        registered = edges_named(catalog, views, "function:reg:reg.plugins.register")
    finally:
        catalog.close()
    assert made[("CALLS", "reg.plugins.traced")] == "inferred"  # the wrapper around `work`
    assert ("CALLS", "reg.plugins.register") not in made
    assert made[("CALLS", "reg.plugins.Plugin.__init__")] == "exact"
    # the classes its parameter holds, handed on, are references; only a class named where it is handed on is one
    # to be made there
    assert registered[("REFERENCES", "reg.plugins.Plugin")] == "inferred"
    assert ("REFERENCES", "reg.plugins.Plugin.__init__") not in registered
