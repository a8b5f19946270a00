"""Two query servers follow a shared index while a third process re-indexes into it (#18).

Starts a SeaweedFS on loopback, publishes the billing example to it with `trident index` (TRIDENT_STORAGE set),
starts two `trident serve --transport streamable-http` processes, each with a cache folder of its own (a TRIDENT_HOME
each) refreshing every second, and keeps both busy with `search` and `status` calls while a third process (another
TRIDENT_HOME: another machine) runs `trident index` on the auth example into the same bucket. Counts failed calls,
checks that every `status` answer shows a whole generation (billing alone, then billing and auth; never back), and
measures how long after the pointer moved each server answered from the new generation.

Usage: python bench/remote_servers.py [--json FILE]. Exits 1 when a call failed or a server never switched.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.s3_server import free_ports, storage_env, weed_server  # the repository root first: `tests` is not installed
from trident.store.remote.object_store import ObjectStore, open_object_store
from trident.store.remote.remote_commit import read_published
from trident.store.remote.remote_index import BLOBS_PREFIX
from trident.store.settings import StorageSettings

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TOKEN = "remote-servers-bench-token-0123"
BEFORE, AFTER = ["billing"], ["auth", "billing"]
SWITCH_WAIT_SECONDS = 120.0
RECOVER_WAIT_SECONDS = 300.0  # the dead writer's lease lasts 60 s from its last renewal
CLI = [sys.executable, "-m", "trident.cli.main"]


def server_env(settings: StorageSettings) -> dict[str, str]:
    """The shared index's environment, with a refresh every second and the servers' bearer token."""
    return {**storage_env(settings), "TRIDENT_STORAGE_REFRESH_S": "1", "TRIDENT_TOKEN": TOKEN}


def index(env: dict[str, str], home: Path, folder: Path) -> float:
    started = time.perf_counter()
    subprocess.run([*CLI, "index", str(folder)], env={**env, "TRIDENT_HOME": str(home)}, check=True)
    return time.perf_counter() - started


def kill_mid_publish(env: dict[str, str], home: Path, folder: Path, store: ObjectStore) -> dict[str, Any]:
    """Run `trident index` and SIGKILL it once a blob it uploads shows in the bucket (its push under way)."""
    before = set(store.list(BLOBS_PREFIX))
    generation = read_published(store).generation
    started = time.perf_counter()
    process = subprocess.Popen(
        [*CLI, "index", str(folder)], env={**env, "TRIDENT_HOME": str(home)}, start_new_session=True
    )
    while process.poll() is None and not set(store.list(BLOBS_PREFIX)) - before:
        if time.perf_counter() - started > RECOVER_WAIT_SECONDS:
            os.killpg(process.pid, signal.SIGKILL)
            raise RuntimeError(f"the writer uploaded nothing within {RECOVER_WAIT_SECONDS:g} s; killed it")
        time.sleep(0.05)
    if process.poll() is not None:
        raise RuntimeError(f"the writer ended first (exit {process.returncode}): nothing was killed mid-publish")
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    uploaded = len(set(store.list(BLOBS_PREFIX)) - before)
    return {
        "killed_after_s": round(time.perf_counter() - started, 1),
        "blobs_uploaded_when_killed": uploaded,
        "pointer_moved": read_published(store).generation != generation,
    }


def recover(env: dict[str, str], home: Path, folder: Path) -> dict[str, Any]:
    """Run `trident index` until it publishes; each refusal (the dead writer's lease still live) is counted."""
    started = time.perf_counter()
    refused = 0
    while True:
        done = subprocess.run(
            [*CLI, "index", str(folder)], env={**env, "TRIDENT_HOME": str(home)}, capture_output=True, text=True
        )
        if done.returncode == 0:
            return {"refused_runs": refused, "recovered_after_s": round(time.perf_counter() - started, 1)}
        if "lease" not in done.stderr or time.perf_counter() - started > RECOVER_WAIT_SECONDS:
            raise RuntimeError(f"the next writer failed (exit {done.returncode}): {done.stderr[-2000:]}")
        refused += 1
        time.sleep(2)


@contextmanager
def server(env: dict[str, str], home: Path, log: Path) -> Iterator[str]:
    """`trident serve` over streamable HTTP with its own cache folder; yields its URL once it takes connections."""
    port = free_ports(1)[0]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*CLI, "serve", "--transport", "streamable-http", "--port", str(port)],
            env={**env, "TRIDENT_HOME": str(home)},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=60)


@dataclass
class Watch:
    """What one server answered: calls, failures, the project lists `status` showed in order, and when it first
    showed the new generation."""

    name: str
    calls: int = 0
    failures: list[str] = field(default_factory=list)
    seen: list[list[str]] = field(default_factory=list)
    switched_at: float | None = None


async def watch(url: str, record: Watch, stop: anyio.Event) -> None:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        while not stop.is_set():
            for tool, arguments in (("search", {"query": "rotate the signing key", "top_k": 5}), ("status", {})):
                record.calls += 1
                try:
                    result = await session.call_tool(tool, arguments)
                except Exception as error:  # every failure is counted, none stops the run
                    record.failures.append(f"{tool}: {type(error).__name__}: {error}")
                    continue
                if result.is_error:
                    record.failures.append(f"{tool}: {result.content[0].text if result.content else 'error'}")
                elif tool == "status":
                    projects = sorted(p["name"] for p in (result.structured_content or {}).get("projects", []))
                    if not record.seen or record.seen[-1] != projects:
                        record.seen.append(projects)
                    if projects == AFTER and record.switched_at is None:
                        record.switched_at = time.perf_counter()


async def wait_for_servers(urls: list[str]) -> None:
    deadline = time.monotonic() + 180
    for url in urls:
        while True:
            try:
                async with httpx2.AsyncClient(timeout=2) as http:
                    await http.get(url)
                break
            except httpx2.HTTPError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no server at {url}") from None
                await anyio.sleep(0.5)


async def publication(store: ObjectStore, after: int, stop: anyio.Event) -> float:
    """When the pointer moved past generation `after` (read every 0.1 s)."""
    while not stop.is_set():
        if (await anyio.to_thread.run_sync(read_published, store)).generation > after:
            return time.perf_counter()
        await anyio.sleep(0.1)
    raise RuntimeError("the pointer never moved")


async def show(
    env: dict[str, str], urls: list[str], writer_home: Path, store: ObjectStore
) -> tuple[list[Watch], dict[str, Any], float]:
    await wait_for_servers(urls)
    records = [Watch(f"server-{n}") for n in range(1, len(urls) + 1)]
    stop = anyio.Event()
    moved: list[float] = []

    async def note_publication() -> None:
        before = (await anyio.to_thread.run_sync(read_published, store)).generation
        moved.append(await publication(store, before, stop))

    async with anyio.create_task_group() as group:
        for url, record in zip(urls, records, strict=True):
            group.start_soon(watch, url, record, stop)
        await anyio.sleep(3)  # both answering from the first generation
        group.start_soon(note_publication)
        writer = await anyio.to_thread.run_sync(kill_mid_publish, env, writer_home, EXAMPLES / "auth", store)
        await anyio.sleep(3)  # both still answering from the first generation
        writer |= await anyio.to_thread.run_sync(recover, env, writer_home, EXAMPLES / "auth")
        while not moved:
            await anyio.sleep(0.1)
        published = moved[0]
        deadline = time.monotonic() + SWITCH_WAIT_SECONDS
        while any(r.switched_at is None for r in records) and time.monotonic() < deadline:
            await anyio.sleep(0.2)
        await anyio.sleep(2)  # and still answering from it
        stop.set()
    return records, writer, published


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="remote-servers-") as tmp, ExitStack() as stack:
        root = Path(tmp)
        settings = stack.enter_context(weed_server(root / "weed", prefix="show"))
        env = {**os.environ, **server_env(settings)}
        first = index(env, root / "machine-w1", EXAMPLES / "billing")
        urls = [stack.enter_context(server(env, root / f"server-{n}", root / f"server-{n}.log")) for n in (1, 2)]
        store = open_object_store(settings, under="tenants/default")
        records, writer, published = anyio.run(show, env, urls, root / "machine-w2", store)
    figures: dict[str, Any] = {
        "first_index_s": round(first, 1),
        "killed_writer_then_recovery": writer,
        "servers": [
            {
                "name": r.name,
                "calls": r.calls,
                "failed": len(r.failures),
                "first_failures": r.failures[:3],
                "generations_seen": r.seen,
                "switched_after_publish_s": round(r.switched_at - published, 2) if r.switched_at else None,
            }
            for r in records
        ],
    }
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    whole = all(r.seen in ([BEFORE, AFTER], [AFTER]) for r in records)
    sound = whole and not writer["pointer_moved"]
    return 0 if sound and all(not r.failures and r.switched_at for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
