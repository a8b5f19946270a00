"""Tenant isolation: two tenants index same-named projects with same-named entities, and neither ever sees the
other's chunks, entities, relations, paths, facts or jobs through any tool, per server or per HTTP token."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client import Client
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from tests.conftest import EXAMPLES, HashEmbedder
from trident.server.app import build_server
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store.catalog import Catalog
from trident.store.settings import StoreSettings

pytestmark = pytest.mark.anyio
Call = Callable[[str, dict[str, Any]], Awaitable[Any]]
STRATEGIES = ["auto", "lexical", "semantic", "hybrid", "graph", "ppr", "community"]


@dataclass(frozen=True)
class Tenant:
    name: str
    token: str

    @property
    def marker(self) -> str:
        """A word only this tenant's files contain."""
        return f"{self.name}secret"

    @property
    def only_class(self) -> str:
        return f"{self.name.title()}Ledger"

    @property
    def only_file(self) -> str:
        return f"billing/{self.name}_ledger.py"

    @property
    def leaks(self) -> tuple[str, ...]:
        """What must never reach the other tenant."""
        return (self.marker, self.only_class, self.only_file, f"{self.name}-export.csv")


ACME = Tenant("acme", "acme-token-0123456789abcdef")
GLOBEX = Tenant("globex", "globex-token-0123456789abcdef")


def make_project(roots: Path, tenant: Tenant) -> Path:
    """The billing sample, as each tenant has it: the same names, with the tenant's own words and one own class."""
    folder = roots / tenant.name / "billing"
    shutil.copytree(EXAMPLES / "billing", folder)
    gateway = folder / "billing" / "gateway.py"
    gateway.write_text(
        gateway.read_text().replace(
            "Charges and refunds cards through a card processor.",
            f"Charges and refunds cards through a card processor ({tenant.marker}).",
        )
    )
    (folder / tenant.only_file).write_text(
        "from billing.gateway import PaymentGateway\n\n\n"
        f"class {tenant.only_class}:\n"
        f'    """The {tenant.marker} ledger of settled charges."""\n\n'
        "    def record(self, gateway: PaymentGateway) -> str:\n"
        '        return gateway.charge("tok", 100, "EUR", "key")\n'
    )
    (folder / f"{tenant.name}-export.csv").write_text("id,amount\n1,100\n")
    return folder


def _echoes(arguments: dict[str, Any]) -> list[str]:
    values = [v for value in arguments.values() for v in (value if isinstance(value, list) else [value])]
    return sorted((str(v) for v in values), key=len, reverse=True)


def _clean(data: Any, other: Tenant, arguments: dict[str, Any] | None = None) -> None:
    """Nothing of `other` in the data, once the caller's own arguments echoed back are set aside."""
    text = json.dumps(data, ensure_ascii=False)
    for echo in _echoes(arguments or {}):
        text = text.replace(json.dumps(echo, ensure_ascii=False)[1:-1], "<arg>")
    for leak in other.leaks:
        assert leak not in text, f"{other.name}'s {leak!r} leaked: {text[:500]}"


async def _ok(call: Call, other: Tenant, tool: str, arguments: dict[str, Any]) -> Any:
    result = await call(tool, arguments)
    assert not result.is_error, f"{tool}({arguments}): {result.content[0].text}"
    _clean(result.structured_content, other, arguments)
    return result.structured_content


async def _refused(call: Call, other: Tenant, tool: str, arguments: dict[str, Any]) -> str:
    """The call fails; what the error adds beyond echoing the arguments names nothing of the other tenant."""
    try:
        result = await call(tool, arguments)
    except MCPError as exc:
        message = str(exc)
    else:
        assert result.is_error, f"{tool}({arguments}) answered: {result.structured_content}"
        message = result.content[0].text
    _clean(message, other, arguments)
    return message


async def index(call: Call, folder: Path) -> str:
    job = (await call("index_path", {"path": str(folder), "project": "billing", "wait_seconds": 50})).structured_content
    with anyio.fail_after(300):
        while job["state"] not in ("done", "failed"):
            await anyio.sleep(0.2)
            job = (await call("index_status", {"job_id": job["job_id"]})).structured_content["result"][0]
    assert job["state"] == "done", job
    fact = {"name": "Payments team", "type": "Team"}  # the same fact name in both tenants
    relation = {"source": "Payments team", "type": "OWNS", "target": "PaymentGateway", "note": "per the org chart"}
    added = await call("add_knowledge", {"entities": [fact], "relations": [relation], "author": "test"})
    assert not added.is_error, added.content[0].text
    return str(job["job_id"])


async def own_chunk_id(call: Call, me: Tenant) -> str:
    hits = (await call("search", {"query": me.marker, "strategy": "lexical"})).structured_content["hits"]
    return next(hit["id"] for hit in hits if hit["path"] == me.only_file)


async def assert_isolated(call: Call, me: Tenant, other: Tenant, other_job: str, other_chunk: str) -> None:
    """Every tool, answered from `me`'s index, shows nothing of `other`'s, and still finds `me`'s own things."""
    status = await _ok(call, other, "status", {})
    assert {p["name"] for p in status["projects"]} == {"billing", "knowledge"} and status["consistent"]
    billing = next(p for p in status["projects"] if p["name"] == "billing")
    assert f"{me.name}-export.csv" in {s["path"] for s in billing["skipped"]}

    for strategy in STRATEGIES:
        for query in (f"{other.marker} {other.only_class}", "PaymentGateway charge card processor"):
            await _ok(call, other, "search", {"query": query, "strategy": strategy, "top_k": 30})
    await _ok(call, other, "search", {"query": "ledger", "expansions": [other.marker], "projects": ["billing"]})
    mine = await _ok(call, other, "search", {"query": me.marker, "strategy": "lexical"})
    assert me.only_file in {hit["path"] for hit in mine["hits"]}

    gateway = await _ok(call, other, "get_entity", {"name_or_id": "PaymentGateway"})
    assert me.marker in gateway["description"]
    await _ok(call, other, "get_entity", {"name_or_id": me.only_class})
    await _refused(call, other, "get_entity", {"name_or_id": other.only_class})

    callers = await _ok(
        call, other, "trace_relationships", {"entity": "PaymentGateway.charge", "direction": "in", "max_hops": 2}
    )
    assert any(me.only_class in node["id"] for node in callers["nodes"]), callers["nodes"]
    await _ok(
        call,
        other,
        "trace_relationships",
        {"entity": "PaymentGateway", "max_hops": 4, "limit": 500, "max_tokens": 100_000},
    )
    owners = await _ok(call, other, "trace_relationships", {"entity": "PaymentGateway", "relation_types": ["OWNS"]})
    assert {node["name"] for node in owners["nodes"]} == {"Payments team"}
    await _refused(call, other, "trace_relationships", {"entity": other.only_class})

    path = await _ok(call, other, "explain_path", {"source": me.only_class, "target": "PaymentGateway"})
    assert path["paths"], path
    await _ok(call, other, "explain_path", {"source": "Payments team", "target": "OrderService", "max_hops": 6})
    await _refused(call, other, "explain_path", {"source": other.only_class, "target": "PaymentGateway"})

    await _ok(call, other, "find_similar", {"text": f"the {other.marker} ledger of settled charges", "top_k": 30})
    await _ok(call, other, "find_similar", {"entity": "PaymentGateway", "top_k": 30})
    await _refused(call, other, "find_similar", {"chunk_id": other_chunk})

    jobs = await _ok(call, other, "index_status", {})
    assert other_job not in {job["job_id"] for job in jobs["result"]}
    await _refused(call, other, "index_status", {"job_id": other_job})


def _opener(catalog: Catalog) -> Callable[[], Catalog]:
    return lambda: catalog


async def test_two_tenants_on_their_own_servers_see_only_their_own_index(tmp_path: Path) -> None:
    roots = tmp_path / "roots"
    folders = {t.name: make_project(roots, t) for t in (ACME, GLOBEX)}
    settings = TridentSettings.from_env(ServerSettings(allowed_roots=[roots]))
    catalogs = {
        t.name: Catalog(StoreSettings(home=tmp_path / "home", tenant=t.name).index_dir, t.name, HashEmbedder())
        for t in (ACME, GLOBEX)
    }
    try:
        async with AsyncExitStack() as stack:
            calls: dict[str, Call] = {}
            for t in (ACME, GLOBEX):
                server = build_server(settings, _opener(catalogs[t.name]), close_catalog=False)
                calls[t.name] = (await stack.enter_async_context(Client(server))).call_tool
            jobs = {t.name: await index(calls[t.name], folders[t.name]) for t in (ACME, GLOBEX)}
            chunks = {t.name: await own_chunk_id(calls[t.name], t) for t in (ACME, GLOBEX)}
            await assert_isolated(calls["acme"], ACME, GLOBEX, jobs["globex"], chunks["globex"])
            await assert_isolated(calls["globex"], GLOBEX, ACME, jobs["acme"], chunks["acme"])

            await _ok(calls["acme"], GLOBEX, "remove", {"project": "billing"})
            left = await _ok(calls["globex"], ACME, "status", {})
            assert {p["name"] for p in left["projects"]} == {"billing", "knowledge"}, "acme's remove reached globex"
    finally:
        for catalog in catalogs.values():
            catalog.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`trident serve` on loopback with the real model: TRIDENT_TOKEN for the default tenant, one token per tenant."""
    port = _free_port()
    roots = tmp_path / "roots"
    roots.mkdir()
    env = {
        **os.environ,
        "TRIDENT_HOME": str(tmp_path / "home"),
        "TRIDENT_TOKEN": "default-token-0123456789",
        "TRIDENT_TOKENS": json.dumps({ACME.token: ACME.name, GLOBEX.token: GLOBEX.name}),
        "TRIDENT_ALLOWED_ROOTS": str(roots),
    }
    command = [sys.executable, "-m", "trident.cli.main", "serve", "--transport", "streamable-http", "--port", str(port)]
    with subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as process:
        deadline = time.monotonic() + 120
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    raise RuntimeError(process.stderr.read().decode() if process.stderr else "no server") from None
                time.sleep(0.2)
        try:
            yield f"http://127.0.0.1:{port}/mcp", roots
        finally:
            process.terminate()
            process.wait(timeout=30)


@asynccontextmanager
async def _session(url: str, token: str) -> AsyncIterator[ClientSession]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def test_each_http_token_answers_from_its_own_tenant_through_every_tool_and_resource(
    http_server: tuple[str, Path],
) -> None:
    url, roots = http_server
    folders = {t.name: make_project(roots, t) for t in (ACME, GLOBEX)}
    async with (
        _session(url, ACME.token) as acme,
        _session(url, GLOBEX.token) as globex,
        _session(url, "default-token-0123456789") as default,
    ):
        calls: dict[str, Call] = {"acme": acme.call_tool, "globex": globex.call_tool}
        jobs = {t.name: await index(calls[t.name], folders[t.name]) for t in (ACME, GLOBEX)}
        chunks = {t.name: await own_chunk_id(calls[t.name], t) for t in (ACME, GLOBEX)}
        await assert_isolated(calls["acme"], ACME, GLOBEX, jobs["globex"], chunks["globex"])
        await assert_isolated(calls["globex"], GLOBEX, ACME, jobs["acme"], chunks["acme"])

        nothing = (await default.call_tool("status", {})).structured_content
        assert nothing["projects"] == [], "the server's own tenant holds neither tenant's projects"
        for t, other in ((ACME, GLOBEX), (GLOBEX, ACME)):
            session = acme if t is ACME else globex
            mine = await session.read_resource(
                f"trident://entities/class:billing:billing.{t.name}_ledger.{t.only_class}"
            )
            assert json.loads(mine.contents[0].text)["entity"]["name"] == t.only_class
            with pytest.raises(MCPError) as theirs:
                await session.read_resource(
                    f"trident://entities/class:billing:billing.{other.name}_ledger.{other.only_class}"
                )
            assert theirs.value.error.code == -32002 and theirs.value.error.data["suggestions"] == []
            project = await session.read_resource("trident://projects/billing")
            _clean(json.loads(project.contents[0].text), other)


def test_tenant_tokens_are_validated_and_their_values_never_printed() -> None:
    with pytest.raises(ValidationError) as bad_tenant:
        ServerSettings(tokens={"s3cret-token-value": "../other"})
    assert "TRIDENT_TOKENS" in str(bad_tenant.value) and "s3cret-token-value" not in str(bad_tenant.value)
    with pytest.raises(ValidationError, match="one tenant"):
        ServerSettings(token="shared-token-value", tokens={"shared-token-value": "acme"})
    settings = ServerSettings(transport="streamable-http", host="0.0.0.0", tokens={ACME.token: "acme"})
    assert settings.tenant_tokens() == {ACME.token: "acme"}, "tenant tokens alone guard a non-loopback bind"
    assert ACME.token not in repr(settings)
