"""Garbage collection of a shared index on object storage: the blobs and file lists nothing needs any more.

What stays: the published file list and every blob it names; every file list or blob uploaded less than the grace
period ago (a writer uploading, a dead writer's upload not yet old); and every file list superseded less than the
grace period ago, with its blobs (a server that read the previous pointer may still be downloading what it names).
A file list's generation `n` counts as superseded when a file list of generation `n + 1` was uploaded: the writer
uploads it right before it moves the pointer. Everything else goes: the file lists first, then the blobs none of
the kept lists name, so a collection killed half-way leaves no kept list naming a missing blob, and the next one
finishes the work (it is idempotent: the same bucket and clock give the same deletions).

The collector runs under the write lease, so no writer is between listing the blobs it will skip uploading and
publishing a list that names them. It does not trust the lease alone (a writer may have stalled past its expiry
after reading the pointer): it first rewrites the pointer with a fresh seal (`remote_commit.seal`), so a writer
that started before the collection cannot publish, and it checks its lease before each batch of deletions.

Ages are the server's last-modified times compared with this machine's clock: keep the skew far below the grace
period (an hour by default; NTP keeps it under a second).

Every collection leaves `collected.json` behind; a remote writer that has just published collects, still holding
its lease, when that is older than TRIDENT_STORAGE_GC_S (`collect_if_due`), so nobody needs to schedule `trident gc`.
"""

from __future__ import annotations

import logging
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from pydantic import ValidationError

from trident.store.crashpoints import crash_point
from trident.store.remote.object_store import ObjectStore, ObjectStoreError
from trident.store.remote.remote_commit import GENERATIONS_PREFIX, Published, StalePublishError, read_published, seal
from trident.store.remote.remote_index import BLOBS_PREFIX, LISTING_NAME, TRANSFER_THREADS
from trident.store.remote.remote_lease import HeldLease, LeaseLostError
from trident.store.remote.snapshot import Snapshot

log = logging.getLogger(__name__)

# A writer's file list: generations/g<number>-<token>/files.json (remote_commit.generation_prefix). Keys of any other
# shape are not this collector's to judge, and stay.
LISTING_KEY = re.compile(rf"^{GENERATIONS_PREFIX}g(\d+)-[0-9a-f]+/{re.escape(LISTING_NAME)}$")
DELETE_BATCH = 100  # the lease is checked before each batch
COLLECTED_KEY = "collected.json"  # written at the end of every collection: when the last one ran


@dataclass(frozen=True)
class Collection:
    """What a collection kept and deleted (keys sorted): the published generation, the file lists and blobs kept,
    and the file lists and blobs deleted."""

    generation: int
    listings_kept: int
    blobs_kept: int
    listings_deleted: tuple[str, ...]
    blobs_deleted: tuple[str, ...]


def collect(store: ObjectStore, lease: HeldLease, grace_s: float, *, now: float | None = None) -> Collection:
    """Delete what the shared index in `store` no longer needs, as the module says; `lease` is the write lease,
    held for the whole collection; `now` (Unix time) is this machine's clock unless given.

    Raises:
        LeaseLostError: the lease was taken over; the collection stopped before its next batch of deletions.
        StalePublishError: a writer published while the collection started; nothing was deleted.
        ObjectStoreError: the object store failed a request, or a kept file list cannot be read (nothing is
            deleted then: its blobs cannot be told apart).
    """
    published = read_published(store)
    if published.pointer is None:
        return Collection(0, 0, 0, (), ())
    lease.check()
    published = seal(store, published, lease.token)
    assert published.pointer is not None
    cutoff = (time.time() if now is None else now) - grace_s
    listings = {key: at for key, at in store.list_modified(GENERATIONS_PREFIX).items() if LISTING_KEY.match(key)}
    kept = kept_listings(listings, published, cutoff)
    needed = _named_blobs(store, sorted(kept | {published.pointer.manifest_key}))
    blobs = store.list_modified(BLOBS_PREFIX)
    doomed_listings = sorted(set(listings) - kept)
    doomed_blobs = sorted(key for key, at in blobs.items() if at < cutoff and key[len(BLOBS_PREFIX) :] not in needed)
    _delete(store, doomed_listings, lease)
    crash_point("gc.listings_deleted")
    _delete(store, doomed_blobs, lease)
    store.put(COLLECTED_KEY, f'{{"generation": {published.generation}}}'.encode())
    log.info("collected %d file lists and %d blobs", len(doomed_listings), len(doomed_blobs))
    return Collection(
        published.generation,
        len(kept),
        len(blobs) - len(doomed_blobs),
        tuple(doomed_listings),
        tuple(doomed_blobs),
    )


@dataclass(frozen=True)
class Schedule:
    """When a remote writer collects after its publication: once the last collection is `every_s` old (0: never),
    keeping what is younger than `grace_s`."""

    every_s: float
    grace_s: float


def collect_if_due(store: ObjectStore, lease: HeldLease, schedule: Schedule, *, now: float | None = None) -> bool:
    """Collect, under the caller's lease, if the schedule says the last collection is old enough (or none ran);
    whether it did. A collection that fails is logged, not raised: the caller's publication stands, and the next
    publication tries again.
    """
    if schedule.every_s <= 0:
        return False
    clock = time.time() if now is None else now
    last = store.list_modified(COLLECTED_KEY).get(COLLECTED_KEY)
    if last is not None and clock - last < schedule.every_s:
        return False
    try:
        collect(store, lease, schedule.grace_s, now=clock)
    except (ObjectStoreError, StalePublishError, LeaseLostError) as error:
        log.warning("the collection after this publication did not finish (the next one retries): %s", error)
    return True


def kept_listings(listings: dict[str, float], published: Published, cutoff: float) -> set[str]:
    """The file lists to keep among `listings` (key -> last modified): the published one, those uploaded after
    `cutoff`, and those superseded after it (a list of the next generation was uploaded after `cutoff`)."""
    numbers = {key: int(LISTING_KEY.match(key).group(1)) for key in listings}  # type: ignore[union-attr]
    recent = {numbers[key] for key, at in listings.items() if at >= cutoff}
    published_key = published.pointer.manifest_key if published.pointer else None
    return {key for key, at in listings.items() if key == published_key or at >= cutoff or numbers[key] + 1 in recent}


def _named_blobs(store: ObjectStore, keys: list[str]) -> set[str]:
    """The digests the file lists under `keys` name."""
    named: set[str] = set()
    for key in keys:
        try:
            listing = Snapshot.model_validate_json(store.get(key).data)
        except ValidationError as error:
            raise ObjectStoreError(
                f"the file list {key} is not one this version can read ({error.errors()[0]['msg']}); nothing was "
                "collected"
            ) from None
        named.update(entry.sha256 for entry in listing.files)
    return named


def _delete(store: ObjectStore, keys: list[str], lease: HeldLease) -> None:
    """Delete `keys` a few at a time, checking the lease before each batch."""
    with ThreadPoolExecutor(TRANSFER_THREADS) as pool:
        for start in range(0, len(keys), DELETE_BATCH):
            lease.check()
            list(pool.map(store.delete, keys[start : start + DELETE_BATCH]))
