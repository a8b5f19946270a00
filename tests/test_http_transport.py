"""The streamable HTTP transport: a real server process on loopback, its refusals, and a real client session."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

TOKEN = "test-token-0123456789"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, "TRIDENT_HOME": str(tmp_path_factory.mktemp("http-home")), "TRIDENT_TOKEN": TOKEN}
    command = [sys.executable, "-m", "trident.cli.main", "serve", "--transport", "streamable-http", "--port", str(port)]
    # stdout stays empty (a stdio-safe server logs to stderr); the `with` closes the pipes once it has exited.
    with subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as process:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(process.stderr.read().decode() if process.stderr else "server exited") from None
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp"
        process.terminate()


def _initialize(url: str, headers: dict[str, str]) -> httpx.Response:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
    base = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    return httpx.post(url, json=body, headers={**base, **headers}, timeout=10)


def test_a_request_without_the_bearer_token_is_refused(server_url: str) -> None:
    assert _initialize(server_url, {}).status_code == 401
    assert _initialize(server_url, {"Authorization": "Bearer wrong"}).status_code == 401


def test_a_token_sent_any_other_way_is_refused(server_url: str) -> None:
    assert _initialize(server_url, {"Authorization": f"Basic {TOKEN}"}).status_code == 401
    assert _initialize(server_url, {"Authorization": f"Bearer {TOKEN}x"}).status_code == 401
    assert _initialize(server_url, {"Authorization": f"Bearer {TOKEN[:-1]}"}).status_code == 401
    assert _initialize(server_url, {"X-Token": TOKEN}).status_code == 401


def test_an_oversized_body_is_refused_before_it_is_read(server_url: str) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    headers["Accept"] = "application/json, text/event-stream"
    big = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "' + b"x" * 1_100_000 + b'"}}'
    assert httpx.post(server_url, content=big, headers=headers, timeout=30).status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit holds for a streamed body too
        yield big[:500_000]
        yield big[500_000:]

    assert httpx.post(server_url, content=chunks(), headers=headers, timeout=30).status_code == 413


def test_a_body_under_the_limit_is_served(server_url: str) -> None:
    response = _initialize(server_url, {"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200, response.text


def test_a_foreign_host_header_is_refused(server_url: str) -> None:
    response = _initialize(server_url, {"Authorization": f"Bearer {TOKEN}", "Host": "evil.example:80"})
    assert response.status_code in (400, 403, 421)


def test_a_foreign_origin_is_refused(server_url: str) -> None:
    response = _initialize(server_url, {"Authorization": f"Bearer {TOKEN}", "Origin": "http://evil.example"})
    assert response.status_code in (400, 403)


@pytest.mark.anyio
async def test_a_client_with_the_token_lists_the_tools(server_url: str) -> None:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}) as http,
        streamable_http_client(server_url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        names = {tool.name for tool in (await session.list_tools()).tools}
    assert {"search", "status", "trace_relationships"} <= names


def test_the_server_refuses_to_bind_off_loopback_without_a_token(tmp_path: Path) -> None:
    env = {**os.environ, "TRIDENT_HOME": str(tmp_path)}
    env.pop("TRIDENT_TOKEN", None)
    result = subprocess.run(
        [sys.executable, "-m", "trident.cli.main", "serve", "--transport", "streamable-http", "--host", "0.0.0.0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "TRIDENT_TOKEN" in result.stderr


def test_the_server_binds_to_loopback_by_default(server_url: str) -> None:
    port = int(server_url.rsplit(":", 1)[1].split("/")[0])
    listening = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, local_port = local.split(":")
            if state == "0A" and int(local_port, 16) == port:  # 0A: LISTEN
                listening.add(address)
    assert listening == {"0100007F"}, f"listening on {listening}, expected 127.0.0.1 only"


def test_the_sse_transport_serves_older_clients(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "TRIDENT_HOME": str(tmp_path)}
    env.pop("TRIDENT_TOKEN", None)
    command = [sys.executable, "-m", "trident.cli.main", "serve", "--transport", "sse", "--port", str(port)]
    with subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as process:
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    with httpx.stream("GET", f"http://127.0.0.1:{port}/sse", timeout=5) as response:
                        assert response.status_code == 200
                        first = next(response.iter_lines())
                        assert first.startswith("event: endpoint")
                    for foreign in ({"Host": "evil.example"}, {"Origin": "http://evil.example"}):
                        url = f"http://127.0.0.1:{port}/sse"
                        with httpx.stream("GET", url, headers=foreign, timeout=5) as refused:
                            assert refused.status_code in (400, 403, 421), foreign
                    return
                except httpx.TransportError:
                    time.sleep(0.3)
            raise AssertionError("the SSE server did not answer")
        finally:
            process.terminate()


AUTH = {"Authorization": f"Bearer {TOKEN}"}
JSON_AND_SSE = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _session(url: str) -> dict[str, str]:
    """Open a session speaking 2025-11-25 (the version that gets priming events); its headers for later requests."""
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
    response = httpx.post(url, json=body, headers={**JSON_AND_SSE, **AUTH}, timeout=30)
    headers = {**AUTH, "mcp-session-id": response.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert httpx.post(url, json=initialized, headers={**JSON_AND_SSE, **headers}, timeout=30).status_code == 202
    return headers


def _events(response: httpx.Response, until_id: int | None = None, seconds: float = 120) -> list[dict[str, str]]:
    """The SSE events of a response, read until one answers request `until_id`, the stream ends, or (a stream kept
    open by the server's keep-alive pings) `seconds` have passed."""
    events: list[dict[str, str]] = []
    event: dict[str, str] = {}
    deadline = time.monotonic() + seconds
    for line in response.iter_lines():
        if time.monotonic() > deadline:
            break
        if line:
            name, _, value = line.partition(":")
            event[name] = event.get(name, "") + value.removeprefix(" ")
            continue
        if event:
            events.append(event)
            if until_id is not None and f'"id":{until_id}' in event.get("data", ""):
                break
        event = {}
    return events


def test_a_dropped_stream_resumes_from_its_last_event_id(server_url: str) -> None:
    headers = _session(server_url)
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "status", "arguments": {}}}
    with httpx.stream("POST", server_url, json=call, headers={**JSON_AND_SSE, **headers}, timeout=60) as response:
        first, *rest = _events(response, until_id=7)
    assert first.get("id") and first.get("data", "") == "" and first.get("retry") == "2000", first
    assert rest and rest[-1].get("id") and '"id":7' in rest[-1]["data"]

    # The client lost the connection after the priming event: it reconnects with that id and gets the answer.
    resume = {**headers, "Accept": "text/event-stream", "Last-Event-ID": first["id"]}
    with httpx.stream("GET", server_url, headers=resume, timeout=60) as replay:
        replayed = _events(replay, until_id=7)
    assert replayed[-1]["data"] == rest[-1]["data"] and replayed[-1]["id"] == rest[-1]["id"]


def test_another_session_cannot_replay_a_stream_it_does_not_own(server_url: str) -> None:
    owner = _session(server_url)
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "status", "arguments": {}}}
    with httpx.stream("POST", server_url, json=call, headers={**JSON_AND_SSE, **owner}, timeout=60) as response:
        first = _events(response, until_id=3)[0]
    other = _session(server_url)  # its own request 3 must not be what a replay finds either
    with httpx.stream("POST", server_url, json=call, headers={**JSON_AND_SSE, **other}, timeout=60) as response:
        _events(response, until_id=3)
    resume = {**other, "Accept": "text/event-stream", "Last-Event-ID": first["id"]}
    with httpx.stream("GET", server_url, headers=resume, timeout=60) as replay:
        # A replay refused ends the stream at once; a leak would show within the keep-alive ping (15 s) or two.
        assert not [event for event in _events(replay, seconds=40) if event.get("data")]
