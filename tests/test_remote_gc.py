"""Garbage collection of a shared index (#18), against a real SeaweedFS on loopback: what the published snapshot
needs stays, what is unreferenced and old goes, what is within the grace period stays, and a writer is never left
with a publication naming a deleted blob."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tests.conftest import index_into
from tests.test_remote_index import TENANT, answers, index_notes, push_as, write_notes
from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.store.remote.object_store import S3ObjectStore, open_object_store
from trident.store.remote.remote_catalog import RemoteCatalog
from trident.store.remote.remote_commit import Published, PublishedPointer, StalePublishError, read_published
from trident.store.remote.remote_gc import COLLECTED_KEY, Collection, Schedule, collect, kept_listings
from trident.store.remote.remote_index import BLOBS_PREFIX, pull
from trident.store.remote.remote_lease import RemoteLease, held_lease
from trident.store.remote.snapshot import Snapshot
from trident.store.settings import StorageSettings

pytest_plugins = ["tests.s3_server", "tests.billing_copies"]

GRACE_S = 3600.0
LATER = 2 * GRACE_S  # seconds after now at which every object of a test is older than the grace period
DEAD_LISTING = "generations/g00000003-deadbeefdead/files.json"
DEAD_BLOB = BLOBS_PREFIX + "0" * 64


def collect_at(store: S3ObjectStore, now: float, holder: str = "collector") -> Collection:
    with held_lease(RemoteLease(store, holder), wait_seconds=60.0) as lease:
        return collect(store, lease, GRACE_S, now=now)


def published_blobs(store: S3ObjectStore) -> set[str]:
    pointer = read_published(store).pointer
    assert pointer is not None
    listing = Snapshot.model_validate_json(store.get(pointer.manifest_key).data)
    return {BLOBS_PREFIX + entry.sha256 for entry in listing.files}


def publish_two_generations(store: S3ObjectStore, writer_dir: Path) -> Path:
    """Generation 1 (billing), generation 2 (billing and notes), and a dead writer's upload (a file list never
    published and a blob nothing names)."""
    push_as(store, writer_dir)
    index_notes(writer_dir)
    push_as(store, writer_dir)
    store.put(DEAD_LISTING, Snapshot(generation_dir="generations/g3", files=[]).to_json())
    store.put(DEAD_BLOB, b"half an upload")
    return writer_dir


@pytest.fixture
def two_generations(store: S3ObjectStore, writer_dir: Path) -> Path:
    return publish_two_generations(store, writer_dir)


def test_a_collection_keeps_what_the_published_snapshot_needs_and_an_empty_cache_pulls_identical_searches(
    store: S3ObjectStore, two_generations: Path, tmp_path: Path
) -> None:
    first_listing = store.list("generations/g00000001-")
    only_in_first = {key for key in store.list(BLOBS_PREFIX)} - published_blobs(store) - {DEAD_BLOB}
    assert first_listing and only_in_first
    done = collect_at(store, time.time() + LATER)
    assert done.generation == 2
    assert set(done.listings_deleted) == {*first_listing, DEAD_LISTING}
    assert set(done.blobs_deleted) == {*only_in_first, DEAD_BLOB}
    assert set(store.list(BLOBS_PREFIX)) == published_blobs(store)
    cache = tmp_path / "empty-cache"
    assert pull(store, cache).changed
    assert answers(cache) == answers(two_generations)


def test_a_collection_keeps_everything_within_the_grace_period_and_a_second_one_deletes_nothing(
    store: S3ObjectStore, two_generations: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    pull(store, cache)
    blobs, listings = store.list(BLOBS_PREFIX), store.list("generations/")
    young = collect_at(store, time.time())
    assert (young.listings_deleted, young.blobs_deleted) == ((), ())
    assert (store.list(BLOBS_PREFIX), store.list("generations/")) == (blobs, listings)
    collect_at(store, time.time() + LATER)
    again = collect_at(store, time.time() + LATER)
    assert (again.listings_deleted, again.blobs_deleted) == ((), ())
    assert not pull(store, cache).changed  # a sealed pointer names the same publication: no cache pulls again


def test_a_file_list_superseded_within_the_grace_period_is_kept_though_it_is_old() -> None:
    published = Published(
        PublishedPointer(generation=3, manifest_key="generations/g00000003-c/files.json", writer_token="c"), "e"
    )
    listings = {
        "generations/g00000001-a/files.json": 100.0,  # superseded at 200: before the cutoff
        "generations/g00000002-b/files.json": 200.0,  # superseded at 900: after it
        "generations/g00000003-c/files.json": 900.0,
        "generations/g00000001-d/files.json": 300.0,  # a dead writer's: old, and generation 2 is not recent
        "generations/g00000002-e/files.json": 400.0,  # a dead writer's: old, but generation 3 is recent (kept)
    }
    kept = kept_listings(listings, published, cutoff=500.0)
    assert kept == {
        "generations/g00000002-b/files.json",
        "generations/g00000002-e/files.json",
        "generations/g00000003-c/files.json",
    }


def test_a_writer_that_started_before_a_collection_cannot_publish_and_publishes_after_a_pull(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    index_notes(writer_dir)  # this write started from generation 1 as read before the collection
    collect_at(store, time.time() + LATER)
    with pytest.raises(StalePublishError):
        push_as(store, writer_dir)
    catalog = RemoteCatalog(tmp_path / "next-writer", TENANT, HashEmbedder(), remote=store)
    try:
        index_into(catalog, write_notes(tmp_path / "notes"), "notes")  # lease, pull (sees the seal), write, push
    finally:
        catalog.close()
    assert read_published(store).generation == 2


def test_a_collection_racing_a_push_never_breaks_the_push_publication(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    index_notes(writer_dir)
    push_as(store, writer_dir)  # generation 2: generation 1's own blobs are now unreferenced
    catalog = RemoteCatalog(tmp_path / "racing-writer", TENANT, HashEmbedder(), remote=store)
    failures: list[BaseException] = []

    def write() -> None:
        try:
            with catalog.writer(wait_seconds=60.0) as writer:
                notes = write_notes(tmp_path / "more", "Refunds over 100 need approval.")
                index_folder(writer, notes, "more", max_file_bytes=1_000_000)
        except BaseException as error:  # reported by the assertion below
            failures.append(error)

    thread = threading.Thread(target=write)
    thread.start()
    collect_at(store, time.time() + LATER)
    thread.join()
    catalog.close()
    assert failures == []
    assert read_published(store).generation == 3
    assert published_blobs(store) <= set(store.list(BLOBS_PREFIX))
    cache = tmp_path / "empty-cache"
    pull(store, cache)
    assert answers(cache) == answers(tmp_path / "racing-writer")


def test_a_cache_keeps_one_pulled_generation_once_no_reader_holds_the_older(
    store: S3ObjectStore, writer_dir: Path, tmp_path: Path
) -> None:
    push_as(store, writer_dir)
    cache = tmp_path / "cache"
    pull(store, cache)
    index_notes(writer_dir)
    push_as(store, writer_dir)
    pull(store, cache)
    assert [folder.name for folder in (cache / "generations").iterdir()] == [
        read_published(store).pointer.manifest_key.split("/")[1].replace("g", "p", 1)  # type: ignore[union-attr]
    ]


def test_the_gc_command_deletes_a_superseded_file_list_once_the_grace_period_is_over(
    s3_prefix: StorageSettings, writer_dir: Path, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from trident.cli.main import app

    secret = s3_prefix.secret_access_key.get_secret_value() if s3_prefix.secret_access_key else ""
    env = {
        "TRIDENT_HOME": str(tmp_path / "home"),
        "TRIDENT_STORAGE": s3_prefix.storage or "",
        "TRIDENT_STORAGE_GRACE_S": "0",
        "AWS_ENDPOINT_URL": s3_prefix.endpoint_url or "",
        "AWS_ACCESS_KEY_ID": s3_prefix.access_key_id or "",
        "AWS_SECRET_ACCESS_KEY": secret,
        "AWS_REGION": s3_prefix.region or "",
    }
    store = open_object_store(s3_prefix, under=f"tenants/{TENANT}")  # where the commands keep the tenant's index
    publish_two_generations(store, writer_dir)
    done = CliRunner().invoke(app, ["gc"], env=env)
    assert done.exit_code == 0, done.output
    assert "generation 2: deleted 2 file lists" in done.output
    assert store.list("generations/g00000001-") == []


def test_a_writer_collects_after_it_publishes_once_the_last_collection_is_old_enough(
    store: S3ObjectStore, two_generations: Path, tmp_path: Path
) -> None:
    first_listing = store.list("generations/g00000001-")
    assert first_listing and not store.list(COLLECTED_KEY)
    catalog = RemoteCatalog(
        tmp_path / "writer", TENANT, HashEmbedder(), remote=store, collecting=Schedule(every_s=3600.0, grace_s=0.0)
    )
    try:
        index_into(catalog, write_notes(tmp_path / "faq", "Invoices are due in 30 days."), "faq")  # generation 3
        assert read_published(store).generation == 3
        assert store.list(COLLECTED_KEY) == [COLLECTED_KEY]
        assert not set(store.list("generations/g00000001-")) & set(first_listing)
        assert DEAD_BLOB not in store.list(BLOBS_PREFIX) and DEAD_LISTING not in store.list("generations/")
        assert published_blobs(store) <= set(store.list(BLOBS_PREFIX))
        store.put(DEAD_BLOB, b"another half upload")
        index_into(catalog, write_notes(tmp_path / "more", "Refunds over 100 need approval."), "more")
        assert read_published(store).generation == 4
        assert DEAD_BLOB in store.list(BLOBS_PREFIX), "the last collection is younger than an hour: none ran"
    finally:
        catalog.close()
    cache = tmp_path / "empty-cache"
    pull(store, cache)
    assert answers(cache) == answers(tmp_path / "writer")


def test_a_writer_with_collecting_off_leaves_it_to_trident_gc(
    store: S3ObjectStore, two_generations: Path, tmp_path: Path
) -> None:
    catalog = RemoteCatalog(
        tmp_path / "writer", TENANT, HashEmbedder(), remote=store, collecting=Schedule(every_s=0.0, grace_s=0.0)
    )
    try:
        index_into(catalog, write_notes(tmp_path / "faq", "Invoices are due in 30 days."), "faq")
    finally:
        catalog.close()
    assert read_published(store).generation == 3
    assert DEAD_BLOB in store.list(BLOBS_PREFIX) and not store.list(COLLECTED_KEY)
