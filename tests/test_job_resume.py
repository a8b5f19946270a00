"""An index job belongs to the index, not to the client session: when the server running it dies (its client went
away and killed it) mid-way, the next server resumes the job, says which job it resumes, and reports exactly what
the resumed run did."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.conftest import EXAMPLES
from trident.store.crashpoints import CRASH_AT

DEADLINE_S = 300.0  # generous: a job indexes a small project in seconds


def _rpc(id_: int | None, method: str, params: dict[str, object]) -> bytes:
    body: dict[str, object] = {"jsonrpc": "2.0", "method": method, "params": params}
    if id_ is not None:
        body["id"] = id_
    return (json.dumps(body) + "\n").encode()


def _killed_mid_job(env: dict[str, str], folder: Path) -> int:
    """A server started with a crash point in the vector fill, asked to index `folder`: it dies mid-job."""
    trident = str(Path(sys.executable).parent / "trident")
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [trident, "serve"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=stderr, env=env
        )
        assert process.stdin is not None
        process.stdin.write(
            _rpc(1, "initialize", hello)
            + _rpc(None, "notifications/initialized", {})
            + _rpc(2, "tools/call", {"name": "index_path", "arguments": {"path": str(folder)}})
        )
        process.stdin.flush()
        try:
            return process.wait(DEADLINE_S)  # the client stays: the crash point ends the server
        finally:
            process.kill()
            process.stdin.close()


async def _jobs(session: ClientSession, **arguments: Any) -> list[dict[str, Any]]:
    answer = await session.call_tool("index_status", arguments)
    assert not answer.is_error and answer.structured_content is not None, answer.content
    jobs: list[dict[str, Any]] = answer.structured_content["result"]
    return jobs


@pytest.mark.anyio
async def test_a_job_cut_short_by_its_server_dying_is_resumed_by_the_next_server_with_exact_counts(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "src" / "billing"
    shutil.copytree(EXAMPLES / "billing", folder)
    env = {
        **os.environ,
        "TRIDENT_HOME": str(tmp_path / "home"),
        "TRIDENT_ALLOWED_ROOTS": str(tmp_path / "src"),
        "TRIDENT_PROGRESSIVE_CHUNKS": "1",  # publish the text and graph first, then embed: the fill is where it dies
    }
    assert _killed_mid_job({**env, CRASH_AT: "fill.semantic:1"}, folder) == -signal.SIGKILL

    server = StdioServerParameters(command=str(Path(sys.executable).parent / "trident"), args=["serve"], env=env)
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await _jobs(session)
        (old,) = [job for job in listed if job["resumed_from"] is None]
        (again,) = [job for job in listed if job["resumed_from"] is not None]
        assert again["resumed_from"] == old["job_id"] and again["path"] == str(folder.resolve())
        assert old["state"] == "failed" and f"resumed as job {again['job_id']}" in old["error"]
        with anyio.fail_after(DEADLINE_S):
            while (job := (await _jobs(session, job_id=again["job_id"]))[0])["state"] not in ("done", "failed"):
                await anyio.sleep(0.1)
        assert job["state"] == "done", job
        status = (await session.call_tool("status", {})).structured_content
    assert status is not None and status["consistent"]
    chunks = status["engines"]["lexical"]["chunks"]
    assert chunks > 0 and status["engines"]["semantic"]["chunks"] == chunks
    seen = len([p for p in folder.rglob("*") if p.is_file()]) - status["projects"][0]["skipped_total"]
    # Every file was written by the first run; the second embedded every chunk the first published without vectors.
    assert job["summary"] == (
        f"{seen} files, 0 indexed, {seen} unchanged, 0 removed, {status['projects'][0]['skipped_total']} skipped; "
        f"0 chunks written, {chunks} embedded"
    )
