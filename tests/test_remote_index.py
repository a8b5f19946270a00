"""A local index shared through object storage as content-addressed snapshots (#18), against a real SeaweedFS on
loopback: push, pull, the remote writer, and a reader's cache following what is published."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import index_into
from trident.embedding.hash_embedder import HashEmbedder
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.crashpoints import CRASH_AT
from trident.store.errors import IndexLockedError
from trident.store.manifest import Manifest
from trident.store.remote.object_store import ObjectStore, ObjectStoreError, S3ObjectStore, open_object_store
from trident.store.remote.remote_catalog import Refresher, RemoteCatalog
from trident.store.remote.remote_commit import StalePublishError, read_published
from trident.store.remote.remote_index import BLOBS_PREFIX, pull, push, read_sync_record
from trident.store.remote.remote_lease import DEFAULT_LEASE_SECONDS, RemoteLease, held_lease
from trident.store.remote.snapshot import REMOTE_DIR, take_snapshot
from trident.store.settings import StorageSettings
from trident.tools.search import search

# The SeaweedFS these tests run against (`s3_settings`, `s3_prefix`, `store`), shared with tests/test_object_store.py.
pytest_plugins = ["tests.s3_server", "tests.billing_copies"]

QUERIES = ("retry a failed charge", "how are refunds recorded")
TENANT = "default"
REFRESH_WAIT_SECONDS = 30.0  # a bound on waiting for the background pull, not a measure of it


def answers(index_dir: Path) -> list[dict[str, Any]]:
    """What the searches answer from a folder (without the timings, which are measured, not computed)."""
    catalog = Catalog.open_reader(index_dir, TENANT, HashEmbedder())
    try:
        return [answer(catalog, query) for query in QUERIES]
    finally:
        catalog.close()


def answer(catalog: Catalog, query: str) -> dict[str, Any]:
    result = search(Reader(catalog, GenerationViews(RetrievalSettings())), query).model_dump(mode="json")
    result["diagnostics"].pop("timings_ms", None)
    return result


def push_as(store: ObjectStore, folder: Path, holder: str = "writer") -> int:
    with held_lease(RemoteLease(store, holder)) as lease:
        return push(store, folder, lease).generation


def write_notes(root: Path, text: str = "Refunds are recorded in the ledger with the original charge id.") -> Path:
    """A one-file project: a second publication's content, quick to index."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "refunds.md").write_text(f"# Refunds\n\n{text}\n", encoding="utf-8")
    return root


def index_notes(folder: Path, project: str = "notes") -> None:
    """Add the notes project to the folder's index with a local writer (one publication)."""
    catalog = Catalog(folder, TENANT, HashEmbedder())
    try:
        index_into(catalog, write_notes(folder.parent / project), project)
    finally:
        catalog.close()


def test_a_snapshot_lists_the_published_generation_and_tables_but_no_locks_drafts_or_other_generations(
    writer_dir: Path,
) -> None:
    (writer_dir / "generations" / "g00000099").mkdir()
    (writer_dir / "generations" / "g00000099" / "graph.kuzu").write_bytes(b"a dead writer's")
    (writer_dir / ".manifest-draft.json").write_text("{}")
    snapshot = take_snapshot(writer_dir)
    paths = [entry.path for entry in snapshot.files]
    assert paths == sorted(paths)
    assert f"{snapshot.generation_dir}/graph.kuzu" in paths and "manifest.json" in paths
    assert any(path.startswith("semantic/chunks.lance/data/") for path in paths)
    assert not [p for p in paths if p.endswith((".lock", ".readers")) or "g00000099" in p or p.startswith(".")]
    assert take_snapshot(writer_dir).to_json() == snapshot.to_json()


def digests(folder: Path) -> dict[str, str]:
    return {entry.path: entry.sha256 for entry in take_snapshot(folder).files}


def test_a_file_unchanged_since_it_was_hashed_is_not_read_again(writer_dir: Path) -> None:
    first = digests(writer_dir)
    target = writer_dir / "synced.json"
    stat = target.stat()
    target.write_bytes(b"x" * stat.st_size)  # same size, and the same mtime put back: the cache answers
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert digests(writer_dir) == first
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    assert digests(writer_dir)["synced.json"] != first["synced.json"]


def test_an_index_pushed_and_pulled_into_another_folder_answers_byte_for_byte_the_same(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    assert push_as(store, writer_dir) == 1
    cache = tmp_path / "cache"
    pulled = pull(store, cache)
    assert pulled.changed and pulled.generation == 1 and pulled.files > 0
    assert answers(cache) == answers(writer_dir)
    assert not pull(store, cache).changed  # in step: nothing read but the pointer


def test_a_push_of_an_unchanged_folder_publishes_nothing_and_uploads_no_blob_twice(
    store: S3ObjectStore, writer_dir: Path
) -> None:
    push_as(store, writer_dir)
    blobs = store.list(BLOBS_PREFIX)
    with held_lease(RemoteLease(store, "writer")) as lease:
        again = push(store, writer_dir, lease)
    assert not again.changed and read_published(store).generation == 1 and store.list(BLOBS_PREFIX) == blobs


def test_a_second_push_publishes_a_new_generation_and_a_reader_of_the_cache_switches_to_it(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    cache = tmp_path / "cache"
    pull(store, cache)
    reader = Catalog.open_reader(cache, TENANT, HashEmbedder())
    try:
        assert reader.manifest.projects() == ["billing"]
        index_notes(writer_dir)
        second = push_as(store, writer_dir)
        assert second == 2
        assert reader.manifest.projects() == ["billing"]  # nothing moves until the cache pulls
        pulled = pull(store, cache)
        assert pulled.changed and pulled.files < len(take_snapshot(writer_dir).files)  # unchanged files stay
        assert reader.manifest.projects() == ["billing", "notes"]
        assert answer(reader, QUERIES[1]) == answers(writer_dir)[1]
        assert len(list((cache / "generations").iterdir())) == 2  # the reader held the old one during the pull
    finally:
        reader.close()
    assert not pull(store, cache).changed
    assert len(list((cache / "generations").iterdir())) == 1  # let go: the next pull removed it


def test_a_push_from_a_stale_base_is_refused_and_the_published_generation_stays_readable(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    other = tmp_path / "other"
    pull(store, other)
    index_notes(writer_dir)
    push_as(store, writer_dir, "first")
    index_notes(other)  # the same change, from the generation before: a lost update if it were published
    with pytest.raises(StalePublishError, match="are not published"):
        push_as(store, other, "second")
    assert read_published(store).generation == 2
    cache = tmp_path / "cache"
    pull(store, cache)
    assert answers(cache) == answers(writer_dir)


def test_a_pull_that_fails_half_way_leaves_the_cache_on_its_previous_snapshot(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    cache = tmp_path / "cache"
    pull(store, cache)
    before = answers(cache)
    manifest_before = (cache / "manifest.json").read_bytes()
    index_notes(writer_dir)
    push_as(store, writer_dir)
    graph = next(entry for entry in take_snapshot(writer_dir).files if entry.path.endswith("graph.kuzu"))
    saved = store.get(BLOBS_PREFIX + graph.sha256).data
    store.delete(BLOBS_PREFIX + graph.sha256)
    with pytest.raises(ObjectStoreError):
        pull(store, cache)
    assert (cache / "manifest.json").read_bytes() == manifest_before
    assert answers(cache) == before
    assert not (cache / REMOTE_DIR / "staging").exists()
    store.put(BLOBS_PREFIX + graph.sha256, b"not the graph")
    with pytest.raises(ObjectStoreError, match="does not hold what its name says"):
        pull(store, cache)
    assert answers(cache) == before
    store.put(BLOBS_PREFIX + graph.sha256, saved)
    assert pull(store, cache).generation == 2
    assert answers(cache) == answers(writer_dir)


def test_a_pull_that_dies_while_placing_files_leaves_the_cache_on_its_previous_snapshot(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    cache = tmp_path / "cache"
    pull(store, cache)
    before = answers(cache)
    index_notes(writer_dir)
    push_as(store, writer_dir)
    version = next(
        entry.path
        for entry in take_snapshot(writer_dir).files
        if entry.path.startswith("semantic/") and "/_versions/" in entry.path and not (cache / entry.path).exists()
    )
    (cache / version).mkdir()  # the new LanceDB version cannot be put in place: the pull fails after the data files
    (cache / version / "in-the-way").touch()
    with pytest.raises(OSError):
        pull(store, cache)
    assert answers(cache) == before
    shutil.rmtree(cache / version)
    assert pull(store, cache).changed
    assert answers(cache) == answers(writer_dir)
    assert len(list((cache / "generations").iterdir())) == 1  # the failed pull's folder went with the old one


def killed_at(point: str, work: Callable[[], object]) -> int | None:
    """Run `work` in a forked child that SIGKILLs itself at the crash point `point` (store/crashpoints.py); the
    child's exit code (-9: killed there)."""

    def child() -> None:
        os.environ[CRASH_AT] = point
        work()

    process = multiprocessing.get_context("fork").Process(target=child)
    process.start()
    process.join()
    return process.exitcode


def test_a_writer_killed_before_its_publication_leaves_the_published_generation_and_the_next_writer_publishes(
    s3_prefix: StorageSettings, store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    published = answers(writer_dir)
    index_notes(writer_dir)
    # the child opens a store of its own: a connection pool is not shared across fork
    assert killed_at("push.listed", lambda: push_as(open_object_store(s3_prefix), writer_dir, "killed")) == -9
    assert read_published(store).generation == 1  # its upload is there, under its own keys, read by nobody
    pull(store, tmp_path / "cache")
    assert answers(tmp_path / "cache") == published
    with pytest.raises(IndexLockedError, match="killed is writing"):
        RemoteLease(store, "next").take()
    after_expiry = RemoteLease(store, "next", clock=lambda: time.time() + DEFAULT_LEASE_SECONDS + 1)
    with held_lease(after_expiry) as lease:
        assert push(store, writer_dir, lease).generation == 2
    assert pull(store, tmp_path / "cache").changed
    assert answers(tmp_path / "cache") == answers(writer_dir)


def test_a_pull_killed_while_placing_files_leaves_the_cache_readable_and_the_next_pull_completes(
    s3_prefix: StorageSettings, store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    cache = tmp_path / "cache"
    pull(store, cache)
    before = answers(cache)
    index_notes(writer_dir)
    push_as(store, writer_dir)
    assert killed_at("pull.placed:5", lambda: pull(open_object_store(s3_prefix), cache)) == -9
    assert answers(cache) == before
    assert pull(store, cache).changed
    assert answers(cache) == answers(writer_dir)


def test_the_remote_writer_starts_from_what_is_published_and_publishes_what_it_wrote(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    catalog = RemoteCatalog(tmp_path / "machine-b", TENANT, HashEmbedder(), remote=store)
    try:
        index_into(catalog, write_notes(tmp_path / "notes"), "notes")
        assert catalog.manifest.projects() == ["billing", "notes"]  # billing came from the pull
    finally:
        catalog.close()
    assert read_published(store).generation == 2
    cache = tmp_path / "cache"
    pull(store, cache)
    assert Manifest.load(cache).projects() == ["billing", "notes"]


def test_a_remote_writer_whose_push_fails_goes_back_to_what_is_published(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Else this machine would answer from a write no other machine sees until someone else publishes."""
    push_as(store, writer_dir)
    catalog = RemoteCatalog(tmp_path / "machine-b", TENANT, HashEmbedder(), remote=store)
    try:
        index_into(catalog, write_notes(tmp_path / "notes"), "notes")

        def refused(*args: object, **kwargs: object) -> None:
            raise ObjectStoreError("the store refused the upload")

        monkeypatch.setattr("trident.store.remote.remote_catalog.push", refused)
        with pytest.raises(ObjectStoreError):
            index_into(catalog, write_notes(tmp_path / "drafts", "Refunds wait a day."), "drafts")
        assert Manifest.load(tmp_path / "machine-b").projects() == ["billing", "notes"]
        assert catalog.manifest.projects() == ["billing", "notes"]
    finally:
        catalog.close()
    assert read_published(store).generation == 2


def test_a_remote_writer_waits_for_no_one_while_another_machine_holds_the_lease(
    store: S3ObjectStore, tmp_path: Path
) -> None:
    catalog = RemoteCatalog(tmp_path / "machine-b", TENANT, HashEmbedder(), remote=store)
    try:
        with (
            held_lease(RemoteLease(store, "machine-a:1")),
            pytest.raises(IndexLockedError, match="machine-a:1 is writing"),
            catalog.writer(),
        ):
            pass
        with catalog.writer():  # released: the next writer takes it at once
            pass
    finally:
        catalog.close()


def test_a_writer_whose_push_was_refused_is_brought_back_to_what_is_published_by_its_next_pull(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    other = tmp_path / "other"
    pull(store, other)
    index_notes(writer_dir)
    push_as(store, writer_dir)
    local = Catalog(other, TENANT, HashEmbedder())
    try:
        index_into(local, write_notes(tmp_path / "drafts", "Refunds wait a day."), "drafts")
    finally:
        local.close()
    with pytest.raises(StalePublishError):
        push_as(store, other)
    assert pull(store, other, exact=True).changed
    assert Manifest.load(other).projects() == ["billing", "notes"]
    assert answers(other) == answers(writer_dir)


@pytest.fixture
def refreshed_cache(store: S3ObjectStore, writer_dir: Path, tmp_path: Path) -> Iterator[Path]:
    push_as(store, writer_dir)
    cache = tmp_path / "cache"
    pull(store, cache)
    refresher = Refresher(store, cache, seconds=0.05).start()
    yield cache
    refresher.stop()


def test_a_server_cache_refreshed_in_the_background_switches_to_a_new_generation_between_requests(
    store: S3ObjectStore, writer_dir: Path, refreshed_cache: Path
) -> None:
    reader = Catalog.open_reader(refreshed_cache, TENANT, HashEmbedder())
    try:
        assert reader.manifest.projects() == ["billing"]
        index_notes(writer_dir)
        push_as(store, writer_dir)
        deadline = time.monotonic() + REFRESH_WAIT_SECONDS
        while reader.manifest.projects() != ["billing", "notes"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert reader.manifest.projects() == ["billing", "notes"], "the cache never moved to the new generation"
        assert read_sync_record(refreshed_cache) is not None
        assert answer(reader, QUERIES[1]) == answers(writer_dir)[1]
    finally:
        reader.close()


def test_the_push_pull_and_status_commands_share_one_index_through_the_bucket(
    s3_prefix: StorageSettings, billing_index: Path, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from trident.cli.main import app

    shared = s3_prefix
    secret = shared.secret_access_key.get_secret_value() if shared.secret_access_key else ""
    env = {
        "TRIDENT_STORAGE": shared.storage or "",
        "AWS_ENDPOINT_URL": shared.endpoint_url or "",
        "AWS_ACCESS_KEY_ID": shared.access_key_id or "",
        "AWS_SECRET_ACCESS_KEY": secret,
        "AWS_REGION": shared.region or "",
    }
    shutil.copytree(billing_index, tmp_path / "a" / "tenants" / TENANT)
    runner = CliRunner()
    pushed = runner.invoke(app, ["push"], env={**env, "TRIDENT_HOME": str(tmp_path / "a")})
    assert pushed.exit_code == 0, pushed.output
    assert "published generation 1" in pushed.output
    status = runner.invoke(app, ["status", "--json"], env={**env, "TRIDENT_HOME": str(tmp_path / "b")})
    assert status.exit_code == 0, status.output
    assert [project["name"] for project in json.loads(status.stdout)["projects"]] == ["billing"]
    pulled = runner.invoke(app, ["pull"], env={**env, "TRIDENT_HOME": str(tmp_path / "b")})
    assert pulled.exit_code == 0 and "already in step with generation 1" in pulled.output
    local = runner.invoke(app, ["pull"], env={"TRIDENT_HOME": str(tmp_path / "c"), "TRIDENT_STORAGE": ""})
    assert local.exit_code == 2 and "TRIDENT_STORAGE is unset" in local.output
