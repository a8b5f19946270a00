"""The write lease of a shared index: one writer at a time across machines, on object storage alone.

The lease is one small object: who holds it, a token fresh for every version written, and until when. It is taken
with a conditional create (`put_if_absent`); renewed and released with a conditional replace (`put_if_match` on the
ETag this holder last wrote), so a holder that lost it finds out instead of overwriting its successor; and a lease
past its expiry (a writer that died, or stalled) is taken over with a conditional replace of the version read, so
of two contenders only one can win. Releasing writes a record that is already expired rather than deleting the
object: conditional deletes are not portable across S3 servers, conditional puts are.

Expiry is wall-clock time, compared by each contender against its own clock: keep the lease's length far above
the clock skew between the machines (NTP keeps it well under a second). A holder paused past its expiry may still
believe it holds the lease; that is why publishing does not trust the lease but is itself a conditional write
(`remote_commit`): a stale holder's publication is refused.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from pydantic import BaseModel, Field, ValidationError

from trident.store.errors import IndexLockedError
from trident.store.locking import OnWait
from trident.store.remote.object_store import ObjectMissingError, ObjectStore, ObjectStoreError, PreconditionFailedError

log = logging.getLogger(__name__)

LEASE_KEY = "write.lease"
# Long enough that a writer renewing every third of it survives a slow request or two; short enough that a killed
# writer's successor waits at most this long.
DEFAULT_LEASE_SECONDS = 60.0
LEASE_RETRY_SECONDS = 0.5

Clock = Callable[[], float]


class LeaseRecord(BaseModel):
    """The lease object's content (JSON)."""

    holder: str = Field(description="Who holds it: a name for messages (host and pid), '' once released")
    token: str = Field(description="Fresh for every version written, so no two versions share an ETag")
    expires_at: float = Field(description="Unix time after which anyone may take it over")


@dataclass(frozen=True)
class Lease:
    """A lease this process holds: the record it wrote and that version's ETag (the condition of its next write)."""

    key: str
    record: LeaseRecord
    etag: str

    @property
    def token(self) -> str:
        return self.record.token


class LeaseLostError(IndexLockedError):
    """The lease this process held was taken over (it expired) or is gone: stop writing, publish nothing."""


class RemoteLease:
    """Takes, renews and releases the lease under `key` of `store`, as `holder`, for `seconds` at a time."""

    def __init__(
        self,
        store: ObjectStore,
        holder: str,
        *,
        key: str = LEASE_KEY,
        seconds: float = DEFAULT_LEASE_SECONDS,
        clock: Clock = time.time,
    ) -> None:
        if seconds <= 0:
            raise ValueError(f"a lease must last some time; got {seconds} seconds")
        self._store = store
        self._holder = holder
        self._key = key
        self._seconds = seconds
        self._clock = clock

    @property
    def seconds(self) -> float:
        """How long a lease lasts from its last renewal."""
        return self._seconds

    def _record(self, holder: str, expires_at: float) -> tuple[LeaseRecord, bytes]:
        record = LeaseRecord(holder=holder, token=uuid.uuid4().hex, expires_at=expires_at)
        return record, record.model_dump_json().encode()

    def take(self) -> Lease:
        """Take the lease: create it, or take over one released or expired.

        Raises:
            IndexLockedError: another holder's lease is live (the message names it and when it expires), or another
                contender took the free lease first.
        """
        record, data = self._record(self._holder, self._clock() + self._seconds)
        try:
            return Lease(self._key, record, self._store.put_if_absent(self._key, data))
        except PreconditionFailedError:
            pass
        current = self._read()
        if current is None:
            raise IndexLockedError(f"the write lease {self._key} changed while it was being taken; try again")
        found, etag = current
        if found.token == record.token:  # our own create, whose answer was lost and retried
            return Lease(self._key, record, etag)
        if found.holder and found.expires_at > self._clock():
            raise IndexLockedError(
                f"{found.holder} is writing to the shared index (its lease {self._key} runs until "
                f"{time.strftime('%H:%M:%S', time.gmtime(found.expires_at))} UTC); wait for it to finish, or for the "
                "lease to expire if it died, then run the command again"
            )
        try:
            return Lease(self._key, record, self._store.put_if_match(self._key, data, etag))
        except PreconditionFailedError:
            raise IndexLockedError(
                f"another writer took the write lease {self._key} first; wait for it to finish, then run the command "
                "again"
            ) from None

    def renew(self, lease: Lease) -> Lease:
        """Push the lease's expiry to `seconds` from now.

        Raises:
            LeaseLostError: it was taken over or removed since this holder last wrote it.
        """
        record, data = self._record(self._holder, self._clock() + self._seconds)
        return Lease(self._key, record, self._replace(lease, record, data))

    def release(self, lease: Lease) -> None:
        """Let the lease go (an expired record, so the next writer takes it at once).

        Raises:
            LeaseLostError: it was taken over or removed meanwhile (nothing of the successor's is touched).
        """
        record, data = self._record("", 0.0)
        self._replace(lease, record, data)

    def _replace(self, lease: Lease, record: LeaseRecord, data: bytes) -> str:
        try:
            return self._store.put_if_match(self._key, data, lease.etag)
        except PreconditionFailedError:
            current = self._read()
            if current is not None and current[0].token == record.token:  # ours: its answer was lost and retried
                return current[1]
            raise LeaseLostError(
                f"the write lease {self._key} was taken over after it expired (held as {self._holder}); this "
                "writer's changes are not published: run the command again"
            ) from None

    def _read(self) -> tuple[LeaseRecord, str] | None:
        try:
            stored = self._store.get(self._key)
        except ObjectMissingError:
            return None
        try:
            return LeaseRecord.model_validate_json(stored.data), stored.etag
        except ValidationError:
            raise IndexLockedError(
                f"the write lease {self._key} is not one this version can read (damaged, or written by a newer "
                "Trident); if no writer is running, delete that object and run the command again"
            ) from None


class HeldLease:
    """A lease this process holds, renewed by a background thread every third of its length until released, so a
    long write (indexing, uploading) keeps it. A renewal that finds the lease taken over stops the thread; `check`
    then raises, and the writer must publish nothing."""

    def __init__(self, leases: RemoteLease, lease: Lease) -> None:
        self._leases = leases
        self._lease = lease
        self._lost: LeaseLostError | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._keep, name="trident-lease", daemon=True)
        self._thread.start()

    @property
    def token(self) -> str:
        return self._lease.token

    def check(self) -> None:
        """Raises:
        LeaseLostError: a renewal found the lease taken over (it had expired: this holder stalled past it).
        """
        if self._lost is not None:
            raise self._lost

    def _keep(self) -> None:
        while not self._stop.wait(self._leases.seconds / 3):
            try:
                self._lease = self._leases.renew(self._lease)
            except LeaseLostError as lost:
                self._lost = lost
                return
            except ObjectStoreError as error:  # the next renewal tries again; the lease has two thirds left
                log.warning("could not renew the write lease (trying again): %s", error)

    def release(self) -> None:
        """Stop renewing and let the lease go (nothing, if it was lost).

        Raises:
            LeaseLostError: it was taken over meanwhile.
        """
        self._stop.set()
        self._thread.join()
        self.check()
        self._leases.release(self._lease)


@contextmanager
def held_lease(leases: RemoteLease, *, wait_seconds: float = 0.0, on_wait: OnWait | None = None) -> Iterator[HeldLease]:
    """Hold the lease for the block, renewed while it runs, released when it ends (also when it raises: what the
    block did is then not published, and the next writer need not wait for the lease to expire).

    Raises:
        IndexLockedError: another holder kept a live lease for `wait_seconds` (`on_wait` is called before each retry
            and may raise to stop waiting).
        LeaseLostError: the block ended normally but the lease had been taken over.
    """
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            lease = leases.take()
            break
        except IndexLockedError as busy:
            if time.monotonic() >= deadline:
                raise
            if on_wait is not None:
                on_wait(busy)
            time.sleep(LEASE_RETRY_SECONDS)
    held = HeldLease(leases, lease)
    try:
        yield held
    except BaseException:
        try:
            held.release()
        except (LeaseLostError, ObjectStoreError) as error:  # the block's own error is the one to report
            log.warning("could not release the write lease: %s", error)
        raise
    held.release()
