"""A local index folder shared through object storage as content-addressed snapshots.

Remote layout, under the store's prefix:

    blobs/<sha256>                      every file's content, once, whoever uploaded it
    generations/g<n>-<token>/files.json a snapshot: the file list (path, sha256, size) of one published state
    published.json                      the pointer naming the published snapshot (store/remote/remote_commit.py)

`push` uploads the blobs the remote lacks, then the file list under keys of its own, then moves the pointer from
the version this folder was last synced with (a conditional write: a stale writer is refused and nothing of its
upload is visible). `pull` downloads the blobs the local folder lacks (verified, fsynced, renamed into place), puts
the snapshot's generation in a new folder of its own, and replaces `manifest.json` last, as a local writer
publishes: a `Catalog` reading the folder switches to it between requests, and never sees half of it. Both hold the
folder's write lock while they change it, so they never interleave with each other or with a local writer.

What the folder was last synced with (the pointer's version, and the digest of the folder's own snapshot then) is
kept in `.remote/synced.json`; a push from a folder that has not changed since publishes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ValidationError

from trident.store import locking
from trident.store.crashpoints import crash_point
from trident.store.errors import IndexLockedError, TridentIndexError
from trident.store.generations import GENERATIONS_DIR, READERS_FILE, has_leftovers, remove_leftovers
from trident.store.manifest import MANIFEST_FILE, SYNC_STAMP_FILE, Manifest, published_stamp
from trident.store.remote.object_store import ObjectStore, ObjectStoreError
from trident.store.remote.remote_commit import Published, PublishedPointer, generation_prefix, publish, read_published
from trident.store.remote.remote_files import (
    drop_unlisted_versions,
    fsync_file,
    link_or_copy,
    place,
    remove_partials,
    sync_folder,
    write_durably,
)
from trident.store.remote.remote_lease import HeldLease
from trident.store.remote.snapshot import (
    REMOTE_DIR,
    HashCache,
    NoPublishedGenerationError,
    Snapshot,
    SnapshotFile,
    file_sha256,
    published_paths,
    take_snapshot,
)

log = logging.getLogger(__name__)

BLOBS_PREFIX = "blobs/"
LISTING_NAME = "files.json"
SYNC_RECORD_FILE = "synced.json"  # in REMOTE_DIR
STAGING_DIR = "staging"  # in REMOTE_DIR: blobs downloaded and verified, not yet in place
# Written by the pull itself, last: the manifest names the local folder of the generation, and so may the stamp.
REWRITTEN = frozenset({MANIFEST_FILE, SYNC_STAMP_FILE})
PULLED_PREFIX = "p"  # pulled generation folders: generations/p<n>-<token>, never a local writer's g<n>
# Transfers run a few at a time: object stores answer each request slowly but many at once.
TRANSFER_THREADS = 4
# A push or pull waits this long for a local writer (or another pull) to finish with the folder.
LOCAL_WAIT_SECONDS = 60.0


class SyncRecord(BaseModel):
    """What a local folder was last synced with: the pointer as read (and its ETag), and the digest of the folder's
    own snapshot right after (to tell whether it changed since)."""

    pointer: PublishedPointer | None
    etag: str | None
    snapshot_digest: str

    @property
    def published(self) -> Published:
        return Published(self.pointer, self.etag)


@dataclass(frozen=True)
class Transfer:
    """What a push or pull did: the generation published or read, files and bytes moved, and whether it changed
    anything (False: the remote or the folder was already in step)."""

    generation: int
    files: int
    bytes: int
    changed: bool


def read_sync_record(index_dir: Path) -> SyncRecord | None:
    try:
        return SyncRecord.model_validate_json((index_dir / REMOTE_DIR / SYNC_RECORD_FILE).read_bytes())
    except (FileNotFoundError, ValidationError):
        return None  # never synced (or a damaged record): the next pull brings the folder in step


def _record(published: Published, snapshot_digest: str) -> SyncRecord:
    return SyncRecord(pointer=published.pointer, etag=published.etag, snapshot_digest=snapshot_digest)


def _write_sync_record(index_dir: Path, record: SyncRecord) -> None:
    path = index_dir / REMOTE_DIR / SYNC_RECORD_FILE
    path.parent.mkdir(exist_ok=True)
    write_durably(path, record.model_dump_json().encode())


@contextmanager
def _folder_lock(index_dir: Path, wait_seconds: float) -> Iterator[None]:
    fd = locking.take_waiting(index_dir, wait_seconds)
    try:
        yield
    finally:
        locking.drop(fd)


# --- push ---


def push(store: ObjectStore, index_dir: Path, lease: HeldLease) -> Transfer:
    """Publish what `index_dir` publishes locally as the shared index's next generation, from the version the folder
    was last synced with (none: only a first publication is possible).

    Raises:
        StalePublishError: another writer published since this folder was synced; nothing of this push is visible.
        LeaseLostError: the lease was taken over during the push; nothing of it is visible.
        ObjectStoreError: the object store failed a request.
        IndexLockedError: a local writer kept the folder's lock for LOCAL_WAIT_SECONDS.
    """
    with _folder_lock(index_dir, LOCAL_WAIT_SECONDS):
        record = read_sync_record(index_dir)
        base = record.published if record is not None else Published(None, None)
        snapshot = take_snapshot(index_dir)
        digest = snapshot.digest()
        if record is not None and record.snapshot_digest == digest:
            return Transfer(base.generation, 0, 0, changed=False)
        lease.check()
        files, size = _upload_blobs(store, index_dir, snapshot.files, lease)
        listing_key = generation_prefix(base.generation + 1, lease.token) + LISTING_NAME
        store.put(listing_key, snapshot.to_json())
        crash_point("push.listed")
        lease.check()
        published = publish(store, base, listing_key, lease.token)
        crash_point("push.published")
        _write_sync_record(index_dir, _record(published, digest))
    log.info("published generation %d (%d files, %d bytes uploaded)", published.generation, files, size)
    return Transfer(published.generation, files, size, changed=True)


def _upload_blobs(store: ObjectStore, index_dir: Path, files: list[SnapshotFile], lease: HeldLease) -> tuple[int, int]:
    """Upload each content the remote lacks, streamed from disk (large files in parts); the number of blobs and
    bytes uploaded. A blob is named by its content, so uploading one another writer also uploads changes nothing.
    The file is hashed once its upload is done: one that changed since the snapshot (the engines never rewrite a
    file in place) takes its blob back and ends the push."""
    present = {key.removeprefix(BLOBS_PREFIX) for key in store.list(BLOBS_PREFIX)}
    missing = list({entry.sha256: entry for entry in files if entry.sha256 not in present}.values())

    def upload(entry: SnapshotFile) -> None:
        lease.check()
        path, key = index_dir / entry.path, BLOBS_PREFIX + entry.sha256
        store.upload_file(key, path)
        if file_sha256(path) != entry.sha256:
            store.delete(key)
            raise TridentIndexError(f"{entry.path} changed while it was being shared; run the command again")

    _run_all(upload, missing)
    return len(missing), sum(entry.size for entry in missing)


def _run_all(task: Callable[[SnapshotFile], None], entries: Iterable[SnapshotFile]) -> None:
    """Run `task` on every entry, a few at a time; the first failure is raised, the entries not started yet are
    dropped, and those under way end first."""
    with ThreadPoolExecutor(TRANSFER_THREADS) as pool:
        try:
            for future in [pool.submit(task, entry) for entry in entries]:
                future.result()
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise


# --- pull ---


def pull(
    store: ObjectStore, index_dir: Path, *, exact: bool = False, wait_seconds: float = LOCAL_WAIT_SECONDS
) -> Transfer:
    """Bring `index_dir` to the shared index's published generation, if it is not there already.

    Without `exact` a folder already synced with that pointer is left as it is (a reader's cache: nothing else
    writes it). With `exact` it is also brought back when it changed since (a writer's folder, whose last write may
    never have been published: what it writes next must start from what is published).

    Raises:
        ObjectStoreError: the object store failed a request, or a blob is missing or not what its name says; the
            folder keeps the generation it had.
        IndexLockedError: a local writer kept the folder's lock for `wait_seconds`.
        OSError: a file could not be put in place (the disk is full, say); the folder keeps the generation it had.
    """
    published = read_published(store)
    if published.pointer is None:
        return Transfer(0, 0, 0, changed=False)
    if not exact and _in_step(index_dir, published, exact=False):
        _remove_released(index_dir)
        return Transfer(published.generation, 0, 0, changed=False)
    with _folder_lock(index_dir, wait_seconds):
        if _in_step(index_dir, published, exact):
            _note_seal(index_dir, published)
            return Transfer(published.generation, 0, 0, changed=False)
        listing = _read_listing(store, published.pointer.manifest_key)
        files, size = _materialise(store, index_dir, listing, published)
    log.info("pulled generation %d (%d files, %d bytes downloaded)", published.generation, files, size)
    return Transfer(published.generation, files, size, changed=True)


def _remove_released(index_dir: Path) -> None:
    """Remove the generations readers held at the last pull and have let go since (a cache that stays in step for
    long would keep them until the next publication otherwise). Skipped while anyone has the folder's lock."""
    published = Manifest.load(index_dir).generation_dir
    if published is None or not has_leftovers(index_dir, published):
        return
    try:
        fd = locking.take(index_dir)
    except IndexLockedError:
        return
    try:
        remove_leftovers(index_dir, keep={Manifest.load(index_dir).generation_dir or published})
    finally:
        locking.drop(fd)


def _in_step(index_dir: Path, published: Published, exact: bool) -> bool:
    """Whether the folder was synced with the pointer `published` (and, if `exact`, has not changed since: call it
    under the folder's lock then)."""
    record = read_sync_record(index_dir)
    if record is None or published.pointer is None or not published.pointer.same_publication(record.pointer):
        return False
    if not exact:
        return True
    try:
        return take_snapshot(index_dir).digest() == record.snapshot_digest
    except NoPublishedGenerationError:
        return False


def _note_seal(index_dir: Path, published: Published) -> None:
    """A folder in step with a publication a collection has sealed since (the pointer rewritten, same content):
    record the pointer's new version, which the next push must start from. Call it under the folder's lock."""
    record = read_sync_record(index_dir)
    if record is not None and record.etag != published.etag:
        _write_sync_record(index_dir, _record(published, record.snapshot_digest))


def _read_listing(store: ObjectStore, key: str) -> Snapshot:
    try:
        return Snapshot.model_validate_json(store.get(key).data)
    except ValidationError as error:
        raise ObjectStoreError(
            f"the file list {key} is not one this version can read: {error.errors()[0]['msg']}"
        ) from None


def _materialise(store: ObjectStore, index_dir: Path, listing: Snapshot, published: Published) -> tuple[int, int]:
    """Stage the blobs the folder lacks, put every file in place (the new generation's folder first, the manifest
    last), record the sync and remove the generations no reader holds. The number of blobs and bytes downloaded."""
    assert published.pointer is not None
    folder = _new_folder_name(index_dir, published.pointer)
    targets = {_local_path(entry.path, listing.generation_dir, folder): entry for entry in listing.files}
    staging = index_dir / REMOTE_DIR / STAGING_DIR
    shutil.rmtree(staging, ignore_errors=True)  # what a pull that died left
    remove_partials(index_dir)
    staging.mkdir(parents=True)
    try:
        hashes = HashCache(index_dir)
        needed = {
            path: entry
            for path, entry in targets.items()
            if path not in REWRITTEN and not hashes.matches(path, entry.sha256)
        }
        fetched = _stage(store, staging, list(needed.values()), _local_copies(index_dir, hashes))
        (index_dir / folder).mkdir(parents=True)
        for path in sorted(needed, key=lambda path: _placing_order(path, folder)):
            place(staging / needed[path].sha256, index_dir / path)
            hashes.remember(path, needed[path].sha256)
            crash_point("pull.placed")
        hashes.save()  # the snapshot taken below reads none of them again
        (index_dir / folder / READERS_FILE).touch()
        for parent in sorted({(index_dir / path).parent for path in needed}):
            sync_folder(parent)  # every file durable before the manifest names them
        drop_unlisted_versions(index_dir, set(targets))
        _publish_manifest(index_dir, store, listing, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    digest = take_snapshot(index_dir).digest()
    _write_sync_record(index_dir, _record(published, digest))
    remove_leftovers(index_dir, keep={folder})
    return fetched


def _new_folder_name(index_dir: Path, pointer: PublishedPointer) -> str:
    """A folder no generation of this folder has used: pulled generations are named by the publication, apart from
    the g<n> folders local writers create, so a pull never writes into a folder a reader may hold."""
    base = f"{GENERATIONS_DIR}/{PULLED_PREFIX}{pointer.generation:08d}-{pointer.writer_token[:12]}"
    name, attempt = base, 1
    while (index_dir / name).exists():
        attempt += 1
        name = f"{base}-{attempt}"
    return name


def _local_path(path: str, generation_dir: str, folder: str) -> str:
    prefix = generation_dir + "/"
    return folder + "/" + path.removeprefix(prefix) if path.startswith(prefix) else path


def _placing_order(path: str, folder: str) -> tuple[int, str]:
    """The new generation's files first and data before what names it: Lance data and transactions, then the
    versions naming them, then the small files read at the top level, the manifest last of all."""
    if path.startswith(folder + "/"):
        rank = 0
    elif "/_versions/" in path:
        rank = 2
    elif "/" in path:
        rank = 1 if ".lance/" in path else 3
    else:
        rank = 4
    return (rank, path)


def _local_copies(index_dir: Path, hashes: HashCache) -> dict[str, Path]:
    """The files of the folder's published generation by content: a new generation shares most of them (Tantivy
    segments, often the chunk vectors), which are then linked instead of downloaded."""
    generation_dir = Manifest.load(index_dir).generation_dir
    if generation_dir is None or not (index_dir / generation_dir).is_dir():
        return {}
    copies: dict[str, Path] = {}
    for path in published_paths(index_dir, generation_dir):
        if path.startswith(generation_dir + "/"):
            copies.setdefault(hashes.entry(path).sha256, index_dir / path)
    return copies


def _stage(store: ObjectStore, staging: Path, entries: list[SnapshotFile], local: dict[str, Path]) -> tuple[int, int]:
    """Put each content of `entries` in `staging` under its digest: linked from a local copy, else downloaded,
    checked and synced. The number of blobs and bytes downloaded."""
    unique = {entry.sha256: entry for entry in entries}
    downloads = [entry for sha256, entry in unique.items() if sha256 not in local]
    for sha256, source in local.items():
        if sha256 in unique:
            link_or_copy(source, staging / sha256)

    def download(entry: SnapshotFile) -> None:
        target = staging / entry.sha256
        partial = target.with_name(f".{entry.sha256}.part")
        store.download_file(BLOBS_PREFIX + entry.sha256, partial)
        if file_sha256(partial) != entry.sha256:
            partial.unlink()
            raise ObjectStoreError(f"the blob {BLOBS_PREFIX}{entry.sha256} does not hold what its name says")
        fsync_file(partial)
        partial.rename(target)

    _run_all(download, downloads)
    return len(downloads), sum(entry.size for entry in downloads)


def _publish_manifest(index_dir: Path, store: ObjectStore, listing: Snapshot, folder: str) -> None:
    """Write the sync stamp and then the manifest of the snapshot, naming the local folder of its generation; the
    manifest's replacement is what switches readers to it."""
    manifest = Manifest.model_validate_json(_fetch(store, listing, MANIFEST_FILE) or b"{}")
    stamp_before = published_stamp(manifest)
    manifest.generation_dir = folder
    stamps = _fetch(store, listing, SYNC_STAMP_FILE)
    if stamps is not None:  # a stamp naming the published generation names it by its folder: rename it too
        entries = json.loads(stamps)
        renamed = {key: published_stamp(manifest) if value == stamp_before else value for key, value in entries.items()}
        write_durably(index_dir / SYNC_STAMP_FILE, json.dumps(renamed, sort_keys=True).encode())
    else:
        (index_dir / SYNC_STAMP_FILE).unlink(missing_ok=True)
    manifest.save(index_dir)


def _fetch(store: ObjectStore, listing: Snapshot, path: str) -> bytes | None:
    entry = next((entry for entry in listing.files if entry.path == path), None)
    if entry is None:
        return None
    data = store.get(BLOBS_PREFIX + entry.sha256).data
    if hashlib.sha256(data).hexdigest() != entry.sha256:
        raise ObjectStoreError(f"the blob {BLOBS_PREFIX}{entry.sha256} does not hold what its name says")
    return data
