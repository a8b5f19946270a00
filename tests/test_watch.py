"""Live re-indexing: added, changed, renamed and deleted files reach search within seconds, queries keep running."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from pydantic import ValidationError

from tests.conftest import EXAMPLES, HashEmbedder, index_into
from trident.cli.catalogs import HeldCatalog
from trident.ingest.ingest_settings import IngestSettings
from trident.ingest.watch import FolderWatcher, catalog_reindexer
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import search
from trident.retrieval.views import GenerationViews
from trident.server.app import build_server
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store.catalog import Catalog, IndexLockedError
from trident.store.manifest import Manifest

DEADLINE_SECONDS = 120.0  # a wait for a condition: ends as soon as it holds; generous for a loaded machine
NEW_CODE = '''class SettlementBook:
    """Keeps the zebraledger of settled payments."""

    def settle(self, amount: int) -> int:
        return amount
'''


def _eventually(check: Callable[[], bool], what: str, deadline: float = DEADLINE_SECONDS) -> float:
    """Poll until `check()` holds; the seconds it took, or a failure naming what never happened."""
    started = time.monotonic()
    while time.monotonic() - started < deadline:
        if check():
            return time.monotonic() - started
        time.sleep(0.1)
    raise AssertionError(f"not within {deadline:.0f}s: {what}")


def _paths(catalog: Catalog, query: str) -> set[str]:
    """Where BM25 finds the words (the fake embedder's neighbours mean nothing, so only the lexical path)."""
    views = GenerationViews(RetrievalSettings())
    return {hit.path for hit in search(catalog, query, top_k=10, strategy="lexical", views=views).hits}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "src" / "billing"
    shutil.copytree(EXAMPLES / "billing", folder)
    return folder


@pytest.fixture
def catalog(tmp_path: Path) -> Iterator[Catalog]:
    cat = Catalog(tmp_path / "index", "default", HashEmbedder())
    yield cat
    cat.close()


class _QueryLoop:
    """Searches in a loop on another thread, as a client would while the watcher writes."""

    def __init__(self, catalog: Catalog) -> None:
        self.answered = 0
        self.errors: list[BaseException] = []
        self._catalog = catalog
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                search(self._catalog, "payment gateway charge", top_k=5, views=GenerationViews(RetrievalSettings()))
                self.answered += 1
            except Exception as exc:  # collected and asserted on by the test
                self.errors.append(exc)

    def __enter__(self) -> _QueryLoop:
        self._thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self._stop.set()
        self._thread.join(30)


def test_the_watcher_reindexes_added_changed_renamed_and_deleted_files_while_queries_run(
    project: Path, catalog: Catalog
) -> None:
    index_into(catalog, project, "billing")
    watcher = FolderWatcher(catalog_reindexer(catalog, IngestSettings()), exclude=[catalog.index_dir])
    watcher.add(project, "billing")
    try:
        with _QueryLoop(catalog) as queries:
            (project / "billing" / "ledger.py").write_text(NEW_CODE)
            _eventually(lambda: "billing/ledger.py" in _paths(catalog, "zebraledger"), "an added file is found")

            (project / "billing" / "ledger.py").write_text(NEW_CODE.replace("zebraledger", "quokkaledger"))
            _eventually(
                lambda: (
                    "billing/ledger.py" in _paths(catalog, "quokkaledger")
                    and "billing/ledger.py" not in _paths(catalog, "zebraledger")
                ),
                "a changed file is found by its new words only",
            )

            (project / "billing" / "ledger.py").rename(project / "billing" / "vault.py")
            _eventually(
                lambda: (
                    _paths(catalog, "quokkaledger") >= {"billing/vault.py"}
                    and "billing/ledger.py" not in _paths(catalog, "quokkaledger")
                ),
                "a renamed file is found under its new path only",
            )

            (project / "docs").rename(project / "notes")
            _eventually(
                lambda: (
                    "notes/retries.md" in _paths(catalog, "retry backoff")
                    and not any(p.startswith("docs/") for p in _paths(catalog, "retry backoff"))
                ),
                "a renamed folder's files move with it",
            )

            (project / "billing" / "vault.py").unlink()
            _eventually(lambda: not _paths(catalog, "quokkaledger") & {"billing/vault.py"}, "a deleted file is gone")
        assert not queries.errors, queries.errors[:3]
        assert queries.answered > 0
    finally:
        watcher.stop()
    documents = {entry.path for entry in catalog.manifest.project_documents("billing").values()}
    assert "billing/vault.py" not in documents and "billing/ledger.py" not in documents
    assert "notes/retries.md" in documents and "docs/retries.md" not in documents


def test_a_change_made_before_the_watch_began_is_indexed_once_it_has(project: Path, catalog: Catalog) -> None:
    index_into(catalog, project, "billing")  # the first run, as `trident watch` does before it watches
    (project / "billing" / "ledger.py").write_text(NEW_CODE)  # no event will ever say so
    runs: list[int] = []
    watcher = FolderWatcher(
        catalog_reindexer(catalog, IngestSettings()),
        exclude=[catalog.index_dir],
        on_report=lambda _f, r: runs.append(r.indexed),
    )
    watcher.add(project, "billing")
    try:
        documents = lambda: {e.path for e in catalog.manifest.project_documents("billing").values()}  # noqa: E731
        _eventually(lambda: "billing/ledger.py" in documents(), "the file written before the watch is indexed")
    finally:
        watcher.stop()
    assert runs == [1], "one catch-up run, reported because it indexed something"


def test_a_burst_of_edits_is_debounced_into_few_index_runs(project: Path, catalog: Catalog) -> None:
    index_into(catalog, project, "billing")
    before = len(catalog.manifest.project_documents("billing"))
    runs: list[int] = []
    reindex = catalog_reindexer(catalog, IngestSettings())
    watcher = FolderWatcher(reindex, exclude=[catalog.index_dir], on_report=lambda _f, r: runs.append(r.indexed))
    watcher.add(project, "billing")
    try:
        for i in range(20):
            (project / "billing" / f"burst_{i}.py").write_text(f"def burst_{i}():\n    return {i}\n")
        _eventually(lambda: sum(runs) >= 20, "all twenty new files are indexed")
    finally:
        watcher.stop()
    assert len(runs) <= 3, f"twenty files written at once took {len(runs)} index runs"
    assert len(catalog.manifest.project_documents("billing")) == before + 20


@pytest.mark.anyio
async def test_a_server_with_trident_watch_keeps_folders_indexed_through_index_path_current(
    project: Path, catalog: Catalog
) -> None:
    other = project.parent / "auth"
    shutil.copytree(EXAMPLES / "auth", other)
    settings = TridentSettings.from_env(ServerSettings(watch=True, allowed_roots=[project.parent]))
    server = build_server(settings, lambda: catalog, close_catalog=False)
    async with Client(server) as client:
        for folder in (project, other):
            job = await client.call_tool("index_path", {"path": str(folder), "wait_seconds": 50})
            assert job.structured_content["state"] == "done", job.structured_content

        async def until(condition: Callable[[set[str]], bool], query: str, what: str) -> None:
            started = time.monotonic()
            while True:
                result = await client.call_tool("search", {"query": query, "top_k": 10, "strategy": "lexical"})
                assert not result.is_error, result.content[0].text
                found_now = {f"{hit['project']}/{hit['path']}" for hit in result.structured_content["hits"]}
                if condition(found_now):
                    return
                assert time.monotonic() - started < DEADLINE_SECONDS, (what, sorted(found_now))
                await anyio.sleep(0.1)

        (project / "billing" / "ledger.py").write_text(NEW_CODE)
        await until(lambda found: "billing/billing/ledger.py" in found, "zebraledger", "the new file is found")
        (project / "billing" / "ledger.py").unlink()
        await until(lambda found: not found, "zebraledger", "the deleted file is gone")

        removed = await client.call_tool("remove", {"project": "billing"})
        assert not removed.is_error, removed.content[0].text
        (project / "billing" / "ledger.py").write_text(NEW_CODE)  # a removed project is no longer watched ...
        (other / "ledger.go").write_text(
            "package auth\n\n// Zebraledger keeps the auth ledger.\ntype Zebraledger struct{}\n"
        )
        await until(lambda found: found == {"auth/ledger.go"}, "zebraledger", "... while the other one still is")
    assert "billing" not in catalog.manifest.projects()


def test_watching_on_a_read_only_server_is_refused_as_a_contradiction() -> None:
    with pytest.raises(ValidationError, match="TRIDENT_WATCH"):
        ServerSettings(watch=True, read_only=True)


def test_trident_watch_indexes_the_folder_then_follows_its_changes(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "TRIDENT_HOME": str(home)}
    command = [sys.executable, "-m", "trident.cli.main", "watch", str(project), "--project", "billing"]
    with subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as process:
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(iter(process.stderr.readline, "")), daemon=True)  # type: ignore[union-attr]
        reader.start()
        index_dir = home / "tenants" / "default"

        def documents() -> set[str]:
            manifest = Manifest.load(index_dir)  # written atomically: readable while the watcher runs
            return {entry.path for entry in manifest.project_documents("billing").values()}

        try:
            _eventually(lambda: any("watching" in line for line in lines), "the initial index run ends", 180)
            assert "billing/gateway.py" in documents()
            (project / "billing" / "ledger.py").write_text(NEW_CODE)
            _eventually(lambda: "billing/ledger.py" in documents(), "the added file is indexed")
            (project / "billing" / "ledger.py").rename(project / "billing" / "vault.py")
            renamed = lambda: "billing/vault.py" in documents() and "billing/ledger.py" not in documents()  # noqa: E731
            _eventually(renamed, "the rename")
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)
        assert process.returncode == 0, "".join(lines)
        assert process.stdout is not None and process.stdout.read() == "", "progress goes to stderr only"
    status = subprocess.run(
        [sys.executable, "-m", "trident.cli.main", "status", "--json"], env=env, capture_output=True, text=True
    )
    assert '"consistent":true' in status.stdout.replace(" ", ""), status.stdout + status.stderr


def test_watch_runs_share_one_catalog_until_one_fails_and_a_busy_lock_keeps_it(tmp_path: Path) -> None:
    opened: list[Catalog] = []

    def open_catalog() -> Catalog:
        opened.append(Catalog(tmp_path / "index", "default", HashEmbedder()))
        return opened[-1]

    held = HeldCatalog(open_catalog)
    try:
        for _ in range(2):
            with held.writer() as writer:
                writer.record_root("notes", str(tmp_path))
        assert len(opened) == 1, "the second run wrote through the first run's catalog"
        other = Catalog(tmp_path / "index", "default", HashEmbedder())
        try:
            with other.writer(), pytest.raises(IndexLockedError), held.writer():
                pass
        finally:
            other.close()
        assert len(opened) == 1, "another writer's lock is retried with the same catalog"
        with pytest.raises(RuntimeError, match="a run failed"), held.writer():
            raise RuntimeError("a run failed")
        with held.writer() as writer:
            writer.record_root("notes", str(tmp_path))
        assert len(opened) == 2, "a failed run's catalog is closed and the next run opens another"
    finally:
        held.close()
