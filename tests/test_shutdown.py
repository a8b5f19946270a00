"""A client may go away at any moment: `trident serve` then ends with exit 0, never an abort or a traceback, whether
the model is still loading, the warm-up is under way, the server is idle or a search is in flight."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from trident.store.catalog import Catalog
from trident.store.settings import StoreSettings

EXIT_DEADLINE_S = 180.0  # generous: a stopping server waits for a model load under way
# From the spawn: before the imports end, while the model loads (every 0.4 s through the window where the abort
# happened, 3.25 s in), during the warm-up, and once idle.
IDLE_DELAYS = [0.0, 0.5, 1.0, *(1.5 + 0.4 * step for step in range(12)), 8.0]
SEARCH_DELAYS = [0.0, 1.0, 3.0, 5.0]  # the client sends a search, then leaves before it is answered


def _message(id_: int | None, method: str, params: dict[str, object]) -> bytes:
    body: dict[str, object] = {"jsonrpc": "2.0", "method": method, "params": params}
    if id_ is not None:
        body["id"] = id_
    return (json.dumps(body) + "\n").encode()


SEARCH_FIRST = b"".join(
    [
        _message(
            1,
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}},
        ),
        _message(None, "notifications/initialized", {}),
        _message(2, "tools/call", {"name": "search", "arguments": {"query": "how are signing keys rotated"}}),
    ]
)


def _leave_after(home: Path, delay: float, send: bytes) -> tuple[int, str]:
    """Spawn a server, send `send`, close its stdin `delay` seconds after the spawn; its exit code and stderr."""
    trident = str(Path(sys.executable).parent / "trident")
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [trident, "serve", "--read-only"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env={**os.environ, "TRIDENT_HOME": str(home)},
        )
        assert process.stdin is not None
        if send:
            process.stdin.write(send)
            process.stdin.flush()
        time.sleep(delay)
        process.stdin.close()
        try:
            code = process.wait(EXIT_DEADLINE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise
        stderr.seek(0)
        return code, stderr.read().decode(errors="replace")


@pytest.fixture
def home(sample_catalog: Catalog, tmp_path: Path) -> Path:
    home = tmp_path / "home"
    shutil.copytree(
        sample_catalog.index_dir, StoreSettings(home=home).index_dir, ignore=shutil.ignore_patterns("write.lock")
    )
    return home


def test_a_client_leaving_at_any_moment_ends_the_server_cleanly(home: Path) -> None:
    moments = [(delay, b"") for delay in IDLE_DELAYS] + [(delay, SEARCH_FIRST) for delay in SEARCH_DELAYS]
    with ThreadPoolExecutor(max_workers=2) as pool:
        ends = list(pool.map(lambda moment: _leave_after(home, *moment), moments))
    for (delay, send), (code, stderr) in zip(moments, ends, strict=True):
        when = f"closed {delay} s after the spawn{' with a search in flight' if send else ''}"
        assert code == 0, f"{when}: exit {code}\n{stderr}"
        assert "terminate called" not in stderr and "Traceback" not in stderr, f"{when}:\n{stderr}"
