"""Several clients on one index: any number of readers (servers in other processes) and one writer at a time."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.conftest import EXAMPLES, HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.server.app import build_server
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store import locking
from trident.store.catalog import Catalog, IndexLockedError, ReadOnlyIndexError, Writer
from trident.store.generations import GENERATIONS_DIR
from trident.store.protocols import Embedder
from trident.store.settings import StoreSettings

REPO = Path(__file__).resolve().parent.parent
MARKER_CODE = '''class SettlementBook:
    """Keeps the zebraledger of settled payments."""

    def settle(self, amount: int) -> int:
        return amount
'''


KUZU_READ_ONLY_OPEN = """
import sys
import kuzu
try:
    kuzu.Database(sys.argv[1], read_only=True)
except RuntimeError as exc:
    print(exc)
"""


def _project(root: Path, name: str, files: dict[str, str]) -> Path:
    folder = root / name
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


def _counts(catalog: Catalog | Writer) -> tuple[int, int, int, int]:
    """Chunks in each engine and documents in the manifest: always equal for a reader."""
    return (
        catalog.text.count("default"),
        catalog.vectors.count("default"),
        catalog.graph.counts("default")["chunks"],
        sum(len(e.chunk_ids) for e in catalog.manifest.documents.values()),
    )


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[Catalog]:
    cat = Catalog(tmp_path / "index", "default", HashEmbedder())
    yield cat
    cat.close()


def test_kuzu_lets_no_other_process_open_a_database_that_one_process_writes(tmp_path: Path) -> None:
    """Why generations exist: Kùzu's read-write open locks the file against read-only opens of other processes."""
    import kuzu

    path = tmp_path / "graph.kuzu"
    writer = kuzu.Database(str(path))
    probe = KUZU_READ_ONLY_OPEN
    refused = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=60)
    writer.close()
    allowed = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=60)
    assert "Could not set lock" in refused.stdout
    assert allowed.stdout == "" and allowed.returncode == 0


def test_a_reader_sees_only_whole_published_generations_while_a_writer_writes(tmp_path: Path, writer: Catalog) -> None:
    src = _project(tmp_path / "src", "p", {"a.py": "def alpha():\n    return 1\n"})
    with writer.writer() as w:
        index_folder(w, src, "p", max_file_bytes=100_000)
    reader = Catalog.open_reader(writer.index_dir, "default")
    before = _counts(reader)
    assert before[0] > 0 and len(set(before)) == 1
    (src / "b.py").write_text("def beta():\n    return 2\n\n\ndef gamma():\n    return 3\n")
    with writer.writer() as w:
        index_folder(w, src, "p", max_file_bytes=100_000)
        assert _counts(reader) == before, "nothing is visible before the writer publishes"
        assert _counts(writer) == before, "not even to the writing catalog's own readers"
        assert _counts(w)[0] > before[0], "the writer reads its own writes"
    after = _counts(reader)
    assert after[0] > before[0] and len(set(after)) == 1
    assert {e.name for e in reader.entities()} >= {"alpha", "beta", "gamma"}
    with pytest.raises(ReadOnlyIndexError), reader.writer():
        pass
    reader.close()


def test_a_write_block_that_raises_publishes_nothing(tmp_path: Path, writer: Catalog) -> None:
    src = _project(tmp_path / "src", "p", {"a.py": "def alpha():\n    return 1\n"})
    with pytest.raises(KeyboardInterrupt), writer.writer() as w:
        index_folder(w, src, "p", max_file_bytes=100_000)
        raise KeyboardInterrupt
    assert _counts(writer) == (0, 0, 0, 0)
    assert sorted(p.name for p in (writer.index_dir / GENERATIONS_DIR).iterdir()) == ["g00000000"]


def test_a_reader_checks_for_a_new_generation_with_one_stat_and_moves_to_it(tmp_path: Path, writer: Catalog) -> None:
    src = _project(tmp_path / "src", "p", {"a.py": "def alpha():\n    return 1\n"})
    reader = Catalog.open_reader(writer.index_dir, "default")
    graph = reader.graph
    assert all(reader.graph is graph for _ in range(100)), "no reopening while nothing changed"
    with writer.writer() as w:
        index_folder(w, src, "p", max_file_bytes=100_000)
    assert reader.graph is not graph
    assert reader.manifest.generation == writer.manifest.generation
    reader.close()


def test_old_generations_are_removed_once_no_reader_holds_them(tmp_path: Path, writer: Catalog) -> None:
    src = _project(tmp_path / "src", "p", {"a.py": "def alpha():\n    return 1\n"})
    reader = Catalog.open_reader(writer.index_dir, "default")
    held = reader.generation_folder
    for n in range(3):
        (src / f"m{n}.py").write_text(f"def f{n}():\n    return {n}\n")
        with writer.writer() as w:
            index_folder(w, src, "p", max_file_bytes=100_000)
    folders = {p.name for p in (writer.index_dir / GENERATIONS_DIR).iterdir()}
    assert held.name in folders, "a folder a reader holds is kept"
    assert len(folders) == 2, folders
    reader.close()
    with writer.writer() as w:
        w.delete(["p/m0.py"])
    assert [p for p in (writer.index_dir / GENERATIONS_DIR).iterdir()] == [writer.generation_folder]


def test_a_second_writer_process_is_told_who_holds_the_lock(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "TRIDENT_HOME": str(home)}
    # An index that exists already: a brand-new one would first wait for the holder to set it up (SETUP_WAIT_SECONDS).
    made = subprocess.run(
        [sys.executable, "-m", "trident.cli.main", "status"], env=env, capture_output=True, timeout=120
    )
    assert made.returncode == 0, made.stderr
    with locking.exclusive(StoreSettings(home=home).index_dir):
        result = subprocess.run(
            [sys.executable, "-m", "trident.cli.main", "index", str(EXAMPLES / "auth")],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 2
    assert f"another process (pid {os.getpid()})" in result.stderr and "Traceback" not in result.stderr


def test_an_index_job_waits_while_another_process_writes_then_runs(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    server = build_server(
        TridentSettings.from_env(ServerSettings(allowed_roots=[EXAMPLES])), lambda: catalog, close_catalog=False
    )
    held = threading.Event()
    release = threading.Event()

    def other_writer() -> None:
        with locking.exclusive(catalog.index_dir):  # as another process writing would
            held.set()
            release.wait(10)

    thread = threading.Thread(target=other_writer)
    thread.start()
    held.wait(10)

    async def run() -> dict[str, Any]:
        async with Client(server) as client:
            job = (await client.call_tool("index_path", {"path": str(EXAMPLES / "billing")})).structured_content
            assert job is not None
            for _ in range(100):
                status = (await client.call_tool("index_status", {"job_id": job["job_id"]})).structured_content
                assert status is not None
                if status["result"][0]["stage"] == "waiting for another writer":
                    break
                await anyio.sleep(0.05)
            assert status["result"][0]["state"] == "running", status
            release.set()
            for _ in range(600):
                status = (await client.call_tool("index_status", {"job_id": job["job_id"]})).structured_content
                assert status is not None
                if status["result"][0]["state"] in {"done", "failed"}:
                    return dict(status["result"][0])
                await anyio.sleep(0.05)
            raise AssertionError("the job never ended")

    try:
        finished = anyio.run(run)
    finally:
        release.set()
        thread.join()
    assert finished["state"] == "done", finished
    assert catalog.manifest.projects() == ["billing"]
    with (
        pytest.raises(IndexLockedError, match="another process"),
        locking.exclusive(catalog.index_dir),
        catalog.writer(),
    ):
        pass
    catalog.close()


# --- two stdio servers and a `trident index` at once ---

PAUSE_SECONDS = 0.05
QUERIES: list[tuple[str, dict[str, Any]]] = [
    ("search", {"query": "payment gateway", "top_k": 5}),
    ("search", {"query": "zebraledger settlement", "top_k": 5, "strategy": "lexical"}),
    ("trace_relationships", {"entity": "OrderService.checkout", "direction": "out"}),
    ("get_entity", {"name_or_id": "PaymentGateway"}),
    ("explain_path", {"source": "OrderService", "target": "PaymentGateway"}),
    ("find_similar", {"text": "refund a charge", "top_k": 3}),
    ("status", {}),
]


class _Client:
    """One MCP client of one `trident serve` process, querying in a loop and counting what went wrong."""

    def __init__(self, name: str, session: ClientSession) -> None:
        self.name = name
        self.session = session
        self.answered = 0
        self.failures: list[str] = []
        self.saw_new_content_at: float | None = None

    async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
        try:
            result = await self.session.call_tool(tool, arguments)
        except Exception as exc:  # a protocol error is a failed query too
            self.failures.append(f"{tool}: {type(exc).__name__}: {exc}")
            return None
        if result.is_error or result.structured_content is None:
            self.failures.append(f"{tool}: {result.content[0].text if result.content else 'no content'}")
            return None
        self.answered += 1
        return result.structured_content

    def new_content_visible(self, data: dict[str, Any]) -> bool:
        return any(hit["path"] == "billing/settlement.py" for hit in data.get("hits", []))

    async def loop(self, until: anyio.Event) -> None:
        while not until.is_set():
            for tool, arguments in QUERIES:
                data = await self.call(tool, arguments)
                if data is not None and self.saw_new_content_at is None and self.new_content_visible(data):
                    self.saw_new_content_at = time.monotonic()
                await anyio.sleep(PAUSE_SECONDS)  # a client's pace; leaves the indexer some of the two cores


def _build_first_index(home: Path, src: Path, embedder: Embedder) -> None:
    index_dir = StoreSettings(home=home).index_dir
    catalog = Catalog(index_dir, "default", embedder)
    with catalog.writer() as writer:
        index_folder(writer, src / "billing", "billing", max_file_bytes=1_000_000)
    catalog.close()


def test_two_stdio_servers_answer_every_query_while_trident_index_runs_and_then_see_the_new_content(
    tmp_path: Path, embedder: Embedder
) -> None:
    home, src = tmp_path / "home", tmp_path / "src"
    for project in ("billing", "auth"):
        shutil.copytree(EXAMPLES / project, src / project)
    _build_first_index(home, src, embedder)
    (src / "billing" / "billing" / "settlement.py").write_text(MARKER_CODE)
    env = {**os.environ, "TRIDENT_HOME": str(home)}
    trident = str(Path(sys.executable).parent / "trident")
    server = StdioServerParameters(command=trident, args=["serve"], env=env)
    logs = [tmp_path / "server-a.log", tmp_path / "server-b.log"]
    timeline: dict[str, float] = {}

    async def index_meanwhile(clients: list[_Client], stop: anyio.Event) -> subprocess.CompletedProcess[str]:
        with anyio.fail_after(120):  # both servers are up and answering
            while min(c.answered for c in clients) < len(QUERIES):
                await anyio.sleep(0.1)
        answered_before = sum(c.answered for c in clients)
        timeline["index_started"] = time.monotonic()
        result = await anyio.to_thread.run_sync(
            lambda: subprocess.run(
                [trident, "index", str(src / "billing"), str(src / "auth")],
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
        )
        timeline["index_ended"] = time.monotonic()
        timeline["answered_during_index"] = sum(c.answered for c in clients) - answered_before
        deadline = time.monotonic() + 30
        while any(c.saw_new_content_at is None for c in clients) and time.monotonic() < deadline:
            await anyio.sleep(0.1)
        stop.set()
        return result

    async def run() -> tuple[list[_Client], subprocess.CompletedProcess[str], list[dict[str, Any] | None]]:
        with open(logs[0], "w") as log_a, open(logs[1], "w") as log_b:
            async with (
                stdio_client(server, errlog=log_a) as (read_a, write_a),
                ClientSession(read_a, write_a) as session_a,
                stdio_client(server, errlog=log_b) as (read_b, write_b),
                ClientSession(read_b, write_b) as session_b,
            ):
                await session_a.initialize()
                await session_b.initialize()
                clients = [_Client("a", session_a), _Client("b", session_b)]
                stop = anyio.Event()
                outcome: dict[str, subprocess.CompletedProcess[str]] = {}

                async def indexer() -> None:
                    outcome["index"] = await index_meanwhile(clients, stop)

                async with anyio.create_task_group() as group:
                    for client in clients:
                        group.start_soon(client.loop, stop)
                    group.start_soon(indexer)
                statuses = [await c.call("status", {}) for c in clients]
                return clients, outcome["index"], statuses

    clients, index_run, statuses = anyio.run(run)
    assert index_run.returncode == 0, index_run.stderr
    server_logs = "\n".join(path.read_text() for path in logs)
    for client in clients:
        assert client.failures == [], f"server {client.name}: {client.failures[:5]}"
    assert "lock" not in server_logs.lower(), server_logs[-2000:]
    assert timeline["answered_during_index"] > 0, "the servers answered while the index run was writing"
    for client, status in zip(clients, statuses, strict=True):
        assert client.saw_new_content_at is not None, f"server {client.name} never saw the new file"
        assert status is not None and status["consistent"]
        assert {p["name"] for p in status["projects"]} == {"auth", "billing"}
    print(
        f"answered {[c.answered for c in clients]} queries, {timeline['answered_during_index']} while "
        f"`trident index` ran for {timeline['index_ended'] - timeline['index_started']:.1f}s; new content seen "
        f"{[round(c.saw_new_content_at - timeline['index_ended'], 2) for c in clients if c.saw_new_content_at]}s "
        "after it ended"
    )
