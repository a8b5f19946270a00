"""Python calls and bases bound by scope and stated type, across projects: a `CALLS` edge an agent can rely on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import call_edges, indexed_projects
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.store.schema import Resolution
from trident.tools.explain import explain_path
from trident.tools.trace import Direction, trace_relationships

# A transport library and the client that calls into it, as two projects (the shape of httpx over httpcore).
PROJECTS: dict[str, dict[str, str]] = {
    "pool": {
        "pool/__init__.py": "from ._sync import ConnectionPool\n\n__all__ = ['ConnectionPool']\n",
        "pool/_sync.py": (
            "class ConnectionPool:\n"
            "    def handle_request(self, request):\n"
            "        return self._assign(request)\n\n"
            "    def _assign(self, request):\n"
            "        return request\n"
        ),
        "pool/_connection.py": (
            "from typing import Optional\n\n\n"
            "class HTTP11Connection:\n"
            "    def is_idle(self):\n"
            "        return True\n\n\n"
            "class HTTP2Connection:\n"
            "    def is_idle(self):\n"
            "        return False\n\n\n"
            "class Connection:\n"
            "    def __init__(self, http2: bool):\n"
            "        if http2:\n"
            "            self._inner = HTTP2Connection()\n"
            "        else:\n"
            "            self._inner = HTTP11Connection()\n\n"
            "    def is_idle(self):\n"
            "        return self._inner.is_idle()\n\n\n"
            "class Pool:\n"
            "    def __init__(self):\n"
            "        self._connections: list[Connection] = []\n\n"
            "    def idle(self):\n"
            "        for connection in self._connections:\n"
            "            connection.is_idle()\n\n"
            "    def _first(self) -> Connection:\n"
            "        return self._connections[0]\n\n"
            "    def first_idle(self):\n"
            "        connection = self._first()\n"
            "        return connection.is_idle() or open_connection().is_idle()\n\n\n"
            "def open_connection() -> 'Connection':\n"
            "    return Connection(False)\n\n\n"
            "class Tunnel:\n"
            "    def __init__(self, hops: list[Connection]):\n"
            "        self._inner: HTTP11Connection = HTTP2Connection()  # declared: the type the class promises\n"
            "        self._hops = hops\n\n"
            "    def is_idle(self):\n"
            "        return self._inner.is_idle()\n\n"
            "    async def idle_hops(self, check):\n"
            "        for hop in self._hops:\n"
            "            hop.is_idle()\n"
            "        if check:\n"
            "            fresh = await self._fresh()\n"
            "            return fresh.is_idle()\n\n"
            "    async def _fresh(self) -> HTTP2Connection:\n"
            "        return HTTP2Connection()\n\n\n"
            "class Slot:\n"
            "    def __init__(self):\n"
            "        self._inner: Optional[Connection] = None\n\n"
            "    def connect(self, http2):\n"
            "        if http2:\n"
            "            self._inner = HTTP2Connection()\n"
            "        else:\n"
            "            self._inner = HTTP11Connection()\n"
            "        return self._inner.is_idle()\n\n"
            "    def is_idle(self):\n"
            "        return self._inner.is_idle()\n"
        ),
        "pool/base.py": (
            "class BaseTransport:\n"
            "    def handle_request(self, request):\n"
            "        raise NotImplementedError\n\n"
            "    def close(self):\n"
            "        return None\n"
        ),
    },
    "client": {
        "client/__init__.py": "from ._client import AsyncClient, Client\n",
        "client/_transports.py": (
            "import pool\n"
            "from pool.base import BaseTransport\n\n\n"
            "class HTTPTransport(BaseTransport):\n"
            "    def __init__(self):\n"
            "        self._pool = pool.ConnectionPool()\n\n"
            "    def handle_request(self, request):\n"
            "        super().close()\n"
            "        return self._pool.handle_request(request)\n"
        ),
        "client/_client.py": (
            "from ._transports import HTTPTransport\n\n\n"
            "class Client:\n"
            "    def __init__(self, transport: HTTPTransport | None = None):\n"
            "        self._transport = transport or HTTPTransport()\n\n"
            "    def send(self, request):\n"
            "        return self._send_single(request)\n\n"
            "    def _send_single(self, request):\n"
            "        return self._transport.handle_request(request)\n\n\n"
            "class AsyncClient:\n"
            "    async def send(self, request):\n"
            "        return await self._send_single(request)\n\n"
            "    async def _send_single(self, request):\n"
            "        return request\n"
        ),
        "client/helpers.py": (
            "def flush(stream):\n"
            "    stream.drain()\n"
            "    stream.close()\n"
            "    stream.rewind()\n"
            "    return stream.join([])\n\n\n"
            "def open_pool():\n"
            "    import pool\n\n"
            "    return pool.ConnectionPool().handle_request(None)\n\n\n"
            "class Buffer:\n"
            "    def drain(self):\n"
            "        return None\n\n"
            "    def join(self, parts):\n"
            "        return parts\n"
        ),
        "tests/test_helpers.py": "def rewind():\n    return None\n",
        "CHANGELOG.md": (
            "# Changelog\n\n## 0.2 (2025-01-10)\n\n"
            "- `Client.send` no longer retries; `HTTPTransport.handle_request` closes the pool first.\n"
        ),
    },
}

SEND = "method:client:client._client.Client.send"
SEND_SINGLE = "method:client:client._client.Client._send_single"
ASYNC_SEND = "method:client:client._client.AsyncClient.send"
ASYNC_SEND_SINGLE = "method:client:client._client.AsyncClient._send_single"
TRANSPORT_HANDLE = "method:client:client._transports.HTTPTransport.handle_request"
POOL_HANDLE = "method:pool:pool._sync.ConnectionPool.handle_request"
BASE_CLOSE = "method:pool:pool.base.BaseTransport.close"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    # the client first: its calls into the pool resolve when the pool arrives
    cat = indexed_projects(tmp_path_factory.mktemp("resolution"), PROJECTS, ("client", "pool"))
    yield cat
    cat.close()


def test_a_self_call_in_the_async_twin_never_links_to_the_sync_class(catalog: Catalog) -> None:
    callers = trace_relationships(
        Reader.open(catalog), SEND_SINGLE, direction=Direction.IN, relation_types=["CALLS"], max_hops=1
    )
    assert [(e.source, e.resolution) for e in callers.edges] == [(SEND, Resolution.EXACT)]
    assert call_edges(catalog)[(ASYNC_SEND, ASYNC_SEND_SINGLE)].resolution == Resolution.EXACT


def test_super_reaches_a_base_class_in_another_project(catalog: Catalog) -> None:
    edge = call_edges(catalog)[(TRANSPORT_HANDLE, BASE_CLOSE)]
    assert edge.resolution == Resolution.EXACT
    bases = {(r.source, r.target) for r in catalog.graph.relations(catalog.tenant) if r.type == "INHERITS"}
    assert ("class:client:client._transports.HTTPTransport", "class:pool:pool.base.BaseTransport") in bases


def test_a_constructor_typed_attribute_through_a_reexport_gives_a_calls_path_across_projects(catalog: Catalog) -> None:
    calls = call_edges(catalog)
    assert (
        calls[(TRANSPORT_HANDLE, POOL_HANDLE)].resolution == Resolution.INFERRED
    )  # self._pool = pool.ConnectionPool()
    assert calls[(SEND_SINGLE, TRANSPORT_HANDLE)].resolution == Resolution.INFERRED  # transport: HTTPTransport | None
    result = explain_path(
        Reader.open(catalog),
        SEND,
        POOL_HANDLE,
        relation_types=["CALLS"],
        max_hops=4,
        min_resolution=Resolution.INFERRED,
    )
    assert result.paths, result.message
    hops = result.paths[0].hops
    assert [h.target for h in hops] == [SEND_SINGLE, TRANSPORT_HANDLE, POOL_HANDLE]
    assert all(h.forward and h.evidence for h in hops)
    assert [h.resolution for h in hops] == [Resolution.EXACT, Resolution.INFERRED, Resolution.INFERRED]


def test_an_untyped_receiver_gives_a_name_edge_that_the_default_min_resolution_hides(catalog: Catalog) -> None:
    flush = "function:client:client.helpers.flush"
    drain = "method:client:client.helpers.Buffer.drain"
    edge = call_edges(catalog)[(flush, drain)]  # `stream.drain()`: one entity of the project is named drain
    assert edge.resolution == Resolution.NAME
    # Not guessed: close (no entity of the client project), rewind (only test code has one), join (a str method).
    assert [target for source, target in call_edges(catalog) if source == flush] == [drain]
    reader = Reader.open(catalog)
    shown = trace_relationships(
        reader, flush, direction=Direction.OUT, relation_types=["CALLS"], min_resolution=Resolution.NAME
    )
    hidden = trace_relationships(reader, flush, direction=Direction.OUT, relation_types=["CALLS"])
    assert [e.target for e in shown.edges] == [drain]
    assert hidden.edges == [] and hidden.hidden_guesses == 1  # said, so "no callees" is not read as none
    assert hidden.message is not None and "min_resolution='name'" in hidden.message
    assert shown.hidden_guesses == 0 and shown.message is None


def test_an_import_inside_a_function_binds_its_calls_into_the_other_project(catalog: Catalog) -> None:
    open_pool = "function:client:client.helpers.open_pool"
    calls = call_edges(catalog)
    assert calls[(open_pool, "class:pool:pool._sync.ConnectionPool")].resolution == Resolution.EXACT
    assert calls[(open_pool, POOL_HANDLE)].resolution == Resolution.INFERRED


def test_a_path_over_the_code_ranks_before_a_shorter_one_through_the_changelog(catalog: Catalog) -> None:
    result = explain_path(Reader.open(catalog), SEND, TRANSPORT_HANDLE, max_paths=5)
    assert result.paths, result.message
    first, *others = result.paths
    assert [h.target for h in first.hops] == [SEND_SINGLE, TRANSPORT_HANDLE]
    assert first.code_only and first.relation_types == ["CALLS"]
    prose = [p for p in others if "MENTIONS" in p.relation_types]
    assert prose and not any(p.code_only for p in prose)  # the changelog path is there, after the code


def test_an_attribute_given_two_classes_calls_both_and_a_loop_over_a_typed_list_calls_the_element_type(
    catalog: Catalog,
) -> None:
    calls = call_edges(catalog)
    inner = "method:pool:pool._connection.Connection.is_idle"
    called = {t: r.resolution for (s, t), r in calls.items() if s == inner}
    assert called == {
        "method:pool:pool._connection.HTTP11Connection.is_idle": Resolution.INFERRED,
        "method:pool:pool._connection.HTTP2Connection.is_idle": Resolution.INFERRED,
    }
    assert calls[("method:pool:pool._connection.Pool.idle", inner)].resolution == Resolution.INFERRED


def test_a_value_returned_by_a_function_that_states_its_return_type_binds_the_calls_on_it(catalog: Catalog) -> None:
    calls = call_edges(catalog)
    first_idle = "method:pool:pool._connection.Pool.first_idle"
    called = {t: r.resolution for (s, t), r in calls.items() if s == first_idle}
    assert called == {
        "method:pool:pool._connection.Pool._first": Resolution.EXACT,
        "function:pool:pool._connection.open_connection": Resolution.EXACT,
        "method:pool:pool._connection.Connection.is_idle": Resolution.INFERRED,  # self._first() -> Connection
    }


def test_a_declared_attribute_type_governs_and_locals_in_nested_blocks_and_awaited_results_are_typed(
    catalog: Catalog,
) -> None:
    calls = call_edges(catalog)
    tunnel = "method:pool:pool._connection.Tunnel"
    called = {t for (s, t) in calls if s == f"{tunnel}.is_idle"}
    assert called == {"method:pool:pool._connection.HTTP11Connection.is_idle"}  # not the HTTP2 it happens to hold
    hops = {t: r.resolution for (s, t), r in calls.items() if s == f"{tunnel}.idle_hops"}
    assert hops == {
        "method:pool:pool._connection.Connection.is_idle": Resolution.INFERRED,  # hops: list[Connection]
        f"{tunnel}._fresh": Resolution.EXACT,
        "method:pool:pool._connection.HTTP2Connection.is_idle": Resolution.INFERRED,  # inside `if`, awaited
    }


def test_an_attribute_set_in_the_function_binds_the_calls_after_it_and_an_optional_slot_what_fills_it(
    catalog: Catalog,
) -> None:
    calls = call_edges(catalog)
    slot, module = "method:pool:pool._connection.Slot", "pool:pool._connection"
    http = {f"method:{module}.HTTP11Connection.is_idle", f"method:{module}.HTTP2Connection.is_idle"}
    assert {t for (s, t) in calls if s == f"{slot}.connect" and t.startswith("method:")} == http
    assert {t for (s, t) in calls if s == f"{slot}.is_idle"} == {f"method:{module}.Connection.is_idle", *http}
