"""Every command on the shared index (#18): `trident eval`, `trident watch` and an HTTP server's per-token tenants
use TRIDENT_STORAGE as the other commands do, against a real SeaweedFS on loopback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.s3_server import storage_env
from tests.test_eval import CORPUS, QUERIES
from tests.test_remote_index import TENANT, push_as, write_notes
from trident.cli.catalogs import catalog_for, tenant_store
from trident.embedding.hash_embedder import HashEmbedder
from trident.server.runtime import _open_beside
from trident.store.catalog import Catalog
from trident.store.remote.object_store import open_object_store
from trident.store.remote.remote_catalog import RemoteCatalog
from trident.store.remote.remote_commit import read_published
from trident.store.settings import StorageSettings, StoreSettings

pytest_plugins = ["tests.s3_server"]

WATCH_WAIT_SECONDS = 300.0  # a bound on the model loading and the first run, not a measure of them


def trident(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trident.cli.main", *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture
def beir(tmp_path: Path) -> Path:
    """tests/test_eval.py's tiny BEIR dataset: three documents, three judged queries."""
    folder = tmp_path / "tiny"
    (folder / "qrels").mkdir(parents=True)
    documents = (json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, t, x in CORPUS)
    (folder / "corpus.jsonl").write_text("".join(documents))
    (folder / "queries.jsonl").write_text(
        "".join(json.dumps({"_id": q, "text": t, "metadata": {"type": k}}) + "\n" for q, t, _, k in QUERIES)
    )
    rows = "".join(f"{q}\t{d}\t1\n" for q, _, d, _ in QUERIES)
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + rows)
    return folder


def test_eval_indexes_a_dataset_once_into_the_shared_index_and_another_machine_scores_the_same(
    s3_prefix: StorageSettings, beir: Path, tmp_path: Path
) -> None:
    shared = storage_env(s3_prefix)
    first = trident("eval", str(beir), "--json", env={**shared, "TRIDENT_EVAL_CACHE": str(tmp_path / "a")})
    assert first.returncode == 0, first.stderr
    [cached] = list((tmp_path / "a").iterdir())
    remote = open_object_store(s3_prefix, under=f"eval/{cached.name}")
    assert read_published(remote).generation == 1
    second = trident("eval", str(beir), "--json", env={**shared, "TRIDENT_EVAL_CACHE": str(tmp_path / "b")})
    assert second.returncode == 0, second.stderr
    assert read_published(remote).generation == 1  # pulled and scored, nothing indexed again
    reports = [json.loads(result.stdout) for result in (first, second)]
    for report in reports:
        report.pop("seconds")
    assert reports[0] == reports[1]


def test_watch_publishes_each_run_to_the_shared_index(s3_prefix: StorageSettings, tmp_path: Path) -> None:
    env = {**storage_env(s3_prefix), "TRIDENT_HOME": str(tmp_path / "home")}
    project = write_notes(tmp_path / "notes")
    watcher = subprocess.Popen(
        [sys.executable, "-m", "trident.cli.main", "watch", str(project)],
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    remote = open_object_store(s3_prefix, under=f"tenants/{TENANT}")
    said: list[str] = []
    reading = threading.Thread(target=lambda: said.extend(line.decode() for line in watcher.stderr or ()))
    reading.start()
    try:
        deadline = time.monotonic() + WATCH_WAIT_SECONDS
        while read_published(remote).generation == 0 and watcher.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert read_published(remote).generation == 1, "trident watch published nothing"
        # Ctrl-C once it watches: one during its first run (its push, its lease) is another case than this one's.
        while not any("watching" in line for line in said) and watcher.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        watcher.send_signal(signal.SIGINT)
        watcher.wait(timeout=60)
        reading.join(60)
        if watcher.stderr is not None:
            watcher.stderr.close()
    errors = "".join(said)
    status = trident("status", "--json", env={**env, "TRIDENT_HOME": str(tmp_path / "elsewhere")})
    assert status.returncode == 0, status.stderr + errors
    assert [entry["name"] for entry in json.loads(status.stdout)["projects"]] == ["notes"]


def test_a_per_token_tenant_beside_a_shared_index_is_the_cache_of_its_own_shared_index(
    s3_prefix: StorageSettings, tmp_path: Path
) -> None:
    from tests.conftest import index_into

    other = tmp_path / "other-index"
    local = Catalog(other, "other", HashEmbedder())
    try:
        index_into(local, EXAMPLES / "billing", "billing")
    finally:
        local.close()
    push_as(tenant_store(s3_prefix, "other"), other)
    store = StoreSettings(home=tmp_path / "home")
    main = catalog_for(store, HashEmbedder(), tenant_store(s3_prefix, store.tenant), s3_prefix)
    beside = _open_beside(main, "other")
    try:
        assert isinstance(beside, RemoteCatalog)
        assert beside.index_dir == store.index_dir.parent / "other"
        assert beside.manifest.projects() == ["billing"]  # pulled from tenants/other
        assert read_published(beside.remote).generation == 1
    finally:
        beside.close()
        main.close()
