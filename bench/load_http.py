"""Load over streamable HTTP: concurrent MCP clients against one `trident serve` on loopback.

Indexes the sample projects into a fresh TRIDENT_HOME with `trident index`, starts `trident serve --transport
streamable-http` on a free loopback port, then runs N clients (the mcp SDK's streamable HTTP client, one session
each) that send M mixed tool calls each, all at once. Counts errors (failed calls and tool errors: every call is a
valid one, so any error is a failure), prints p50/p95/p99 latency overall and per tool, throughput, and the server's
resident memory at start (after one warm-up pass), at the middle and at the end of the run.

Usage: python bench/load_http.py [--clients 8] [--calls 500] [--json FILE] [FOLDER ...]
(default folders: the three sample projects in examples/). Exits 1 when any call failed or the server's memory grew
by more than MAX_GROWTH_MB between the start and the end of the run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TOKEN = "load-bench-token-0123456789"
# Caches fill during the first calls; past that, resident memory from start to end of the run must stay within this.
MAX_GROWTH_MB = 64

# A mix like an agent's session: mostly search, then graph questions, lookups and the odd status call.
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("search", {"query": "payment gateway", "top_k": 5}),
    ("search", {"query": "how are refunds issued after a failed charge?", "top_k": 10}),
    ("search", {"query": "rotate the signing key", "strategy": "lexical"}),
    ("search", {"query": "what depends on the auth service", "top_k": 10, "explain": True}),
    ("search", {"query": "RotatingKeyStore", "strategy": "semantic", "top_k": 5}),
    ("search", {"query": "checkout flow in the storefront", "projects": ["storefront"]}),
    ("search", {"query": "idempotency key retries", "expansions": ["retry policy", "duplicate charge"]}),
    ("trace_relationships", {"entity": "OrderService.checkout", "direction": "out"}),
    ("trace_relationships", {"entity": "PaymentGateway", "max_hops": 2, "limit": 100}),
    ("explain_path", {"source": "OrderService", "target": "PaymentGateway"}),
    ("find_similar", {"text": "verify a token signature", "top_k": 5}),
    ("find_similar", {"entity": "TokenVerifier", "top_k": 5}),
    ("get_entity", {"name_or_id": "TokenVerifier"}),
    ("get_entity", {"name_or_id": "PaymentGateway"}),
    ("status", {}),
    ("index_status", {}),
]
WEIGHTS = [6, 4, 3, 3, 3, 3, 2, 3, 3, 3, 2, 2, 3, 3, 1, 1]


def rss_mb(pid: int) -> float:
    """Resident set size of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def served(folders: list[Path], home: Path) -> Iterator[tuple[str, int]]:
    """Index the folders, then serve them over streamable HTTP; yields the URL and the server's pid."""
    env = {**os.environ, "TRIDENT_HOME": str(home), "TRIDENT_TOKEN": TOKEN}
    cli = [sys.executable, "-m", "trident.cli.main"]
    subprocess.run([*cli, "index", *map(str, folders)], env=env, check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen(
        [*cli, "serve", "--transport", "streamable-http", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("trident serve did not start") from None
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/mcp", server.pid
    finally:
        server.terminate()
        server.wait(timeout=60)


class Run:
    def __init__(self, total: int, pid: int) -> None:
        self.total = total
        self.pid = pid
        self.done = 0
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.rss: dict[str, float] = {}

    def record(self, tool: str, seconds: float, error: str | None) -> None:
        self.latencies[tool].append(seconds)
        if error is not None:
            self.errors.append(f"{tool}: {error}")
        self.done += 1
        if self.done == self.total // 2:
            self.rss["middle"] = rss_mb(self.pid)


async def client(url: str, calls: list[tuple[str, dict[str, Any]]], run: Run | None) -> None:
    """One MCP session sending its calls one after another, as an agent does."""
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        for tool, arguments in calls:
            started = time.perf_counter()
            error = None
            try:
                result = await session.call_tool(tool, arguments)
                if result.is_error:
                    error = result.content[0].text if result.content else "tool error"
            except Exception as exc:  # every failure is counted, none stops the run
                error = f"{type(exc).__name__}: {exc}"
            if run is not None:
                run.record(tool, time.perf_counter() - started, error)


async def load(url: str, pid: int, clients: int, calls_each: int) -> tuple[Run, float]:
    await client(url, CALLS, None)  # warm-up: caches built, model paged in
    run = Run(clients * calls_each, pid)
    run.rss["start"] = rss_mb(pid)
    plans = [random.Random(i).choices(CALLS, WEIGHTS, k=calls_each) for i in range(clients)]
    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        for plan in plans:
            group.start_soon(client, url, plan, run)
    elapsed = time.perf_counter() - started
    run.rss["end"] = rss_mb(pid)
    return run, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--calls", type=int, default=500, help="tool calls per client")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    folders = args.folders or [EXAMPLES / p for p in ("billing", "auth", "storefront")]
    with tempfile.TemporaryDirectory() as home, served(folders, Path(home)) as (url, pid):
        rss_idle = rss_mb(pid)
        run, elapsed = anyio.run(load, url, pid, args.clients, args.calls)
    every = [s for samples in run.latencies.values() for s in samples]
    figures = {
        "clients": args.clients,
        "calls": len(every),
        "errors": len(run.errors),
        "seconds": round(elapsed, 1),
        "calls_per_second": round(len(every) / elapsed, 1),
        "latency_ms": {
            "p50": round(percentile(every, 0.50) * 1000, 1),
            "p95": round(percentile(every, 0.95) * 1000, 1),
            "p99": round(percentile(every, 0.99) * 1000, 1),
            "mean": round(statistics.fmean(every) * 1000, 1),
        },
        "per_tool_ms": {
            tool: {
                "calls": len(samples),
                "p50": round(percentile(samples, 0.50) * 1000, 1),
                "p95": round(percentile(samples, 0.95) * 1000, 1),
            }
            for tool, samples in sorted(run.latencies.items())
        },
        "server_rss_mb": {"idle": round(rss_idle, 1), **{k: round(v, 1) for k, v in run.rss.items()}},
    }
    print(
        f"{figures['clients']} clients x {args.calls} calls = {figures['calls']} calls in {figures['seconds']} s "
        f"({figures['calls_per_second']} calls/s), errors: {figures['errors']}"
    )
    lat = figures["latency_ms"]
    print(f"latency ms: p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  mean {lat['mean']}")
    for tool, row in figures["per_tool_ms"].items():
        print(f"  {tool:<20} {row['calls']:>5} calls  p50 {row['p50']:>7} ms  p95 {row['p95']:>7} ms")
    rss = figures["server_rss_mb"]
    growth = rss["end"] - rss["start"]
    verdict = "flat" if growth <= MAX_GROWTH_MB else f"GREW by {growth:.0f} MB"
    print(
        f"server RSS MB: idle {rss['idle']}, start {rss['start']}, middle {rss['middle']}, end {rss['end']} ({verdict})"
    )
    for error in run.errors[:10]:
        print(f"  error: {error}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 1 if run.errors or growth > MAX_GROWTH_MB else 0


if __name__ == "__main__":
    sys.exit(main())
