"""A catalog of a local folder that is the cache of a shared index on object storage (#18).

It reads as any catalog: the folder's published generation, switching when the manifest is replaced; a pull
(`remote_index.pull`) replaces it exactly as a local writer does, so a reader moves to a pulled generation between
requests. Its writer is the remote writer: take the shared index's lease, pull what is published (so the write
starts from it), write locally as any writer, push, release. A `Refresher` pulls in the background, so a query
server follows what other machines publish.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from trident.store.catalog import Catalog, ReadOnlyIndexError, Writer
from trident.store.errors import TridentIndexError
from trident.store.locking import OnWait
from trident.store.protocols import Embedder
from trident.store.remote.object_store import ObjectStore, ObjectStoreError
from trident.store.remote.remote_commit import StalePublishError
from trident.store.remote.remote_gc import Schedule, collect_if_due
from trident.store.remote.remote_index import pull, push
from trident.store.remote.remote_lease import RemoteLease, held_lease

log = logging.getLogger(__name__)


def holder_name() -> str:
    """Who holds a lease, for the messages of those who wait for it."""
    return f"{socket.gethostname()}:{os.getpid()}"


class RemoteCatalog(Catalog):
    """A `Catalog` of a local cache folder whose writes are published to the shared index in `remote`."""

    def __init__(
        self,
        index_dir: Path,
        tenant: str,
        embedder: Embedder | None = None,
        *,
        remote: ObjectStore,
        read_only: bool = False,
        tenants: Callable[[str], ObjectStore] | None = None,
        collecting: Schedule | None = None,
    ) -> None:
        """`collecting`: when a writer collects what the shared index no longer needs after it publishes (None:
        never; `trident gc` does)."""
        self.remote = remote
        self._tenants = tenants
        self._collecting = collecting
        self._refresher: Refresher | None = None
        super().__init__(index_dir, tenant, embedder, read_only=read_only)

    def follow(self, seconds: float) -> None:
        """Pull what the shared index publishes every `seconds` (a server), until `unfollow` or `close`."""
        self.unfollow()
        self._refresher = Refresher(self.remote, self.index_dir, seconds).start()

    def unfollow(self) -> None:
        if self._refresher is not None:
            self._refresher.stop()
            self._refresher = None

    def close(self) -> None:
        self.unfollow()
        super().close()

    def open_beside(self, tenant: str) -> RemoteCatalog:
        """Another tenant's shared index, cached in the folder beside this one (TRIDENT_HOME/tenants/<tenant>) and
        pulled first, sharing the loaded model; it follows what is published as this one does.

        Raises:
            ObjectStoreError: the other tenant's shared index could not be read, or this catalog was built without
                a way to open it.
        """
        if self._tenants is None:
            raise ObjectStoreError(f"this catalog of {self.index_dir} cannot open the shared index of another tenant")
        remote = self._tenants(tenant)
        index_dir = self.index_dir.parent / tenant
        pull(remote, index_dir)
        beside = RemoteCatalog(
            index_dir, tenant, self.embedder, remote=remote, tenants=self._tenants, collecting=self._collecting
        )
        if self._refresher is not None:
            beside.follow(self._refresher.seconds)
        return beside

    @contextmanager
    def writer(self, *, wait_seconds: float = 0.0, on_wait: OnWait | None = None) -> Iterator[Writer]:
        """The remote writer: hold the shared index's lease for the block, start from what it publishes, and publish
        what the block wrote to it when the block ends normally. If the block raises, nothing is published and the
        lease is let go; the folder's unpublished write is undone by the next writer's pull.

        Raises:
            ReadOnlyIndexError: the catalog was opened read-only.
            IndexLockedError: another machine holds the lease (for `wait_seconds`), or a local writer the folder.
            LeaseLostError: the lease was taken over while this writer held it (it stalled past its expiry); nothing
                of this write is published.
            StalePublishError: another writer published meanwhile; nothing of this write is published.
            ObjectStoreError: the object store failed a request.
        """
        if self.read_only:
            raise ReadOnlyIndexError(f"this catalog of {self.index_dir} was opened read-only; it cannot write")
        leases = RemoteLease(self.remote, holder_name())
        with held_lease(leases, wait_seconds=wait_seconds, on_wait=on_wait) as lease:
            pull(self.remote, self.index_dir, exact=True)
            with super().writer(wait_seconds=wait_seconds, on_wait=on_wait) as writer:
                yield writer
            try:
                pushed = push(self.remote, self.index_dir, lease)
            except StalePublishError as stale:
                self._undo_unpublished()
                raise StalePublishError(f"{stale}: run the command again (it starts from the newer one)") from None
            except BaseException:
                self._undo_unpublished()
                raise
            if pushed.changed and self._collecting is not None:
                collect_if_due(self.remote, lease, self._collecting)

    def _undo_unpublished(self) -> None:
        """After a push that failed, the folder back on the published generation, so this machine does not serve a
        write no other machine sees (best effort: if the store cannot be read either, the next pull does it)."""
        try:
            pull(self.remote, self.index_dir, exact=True)
        except Exception:  # the push's own error is the one to report
            log.warning("could not bring %s back to the published generation after a failed push", self.index_dir)


class Refresher:
    """Pulls the shared index into a cache folder every `seconds`, in a daemon thread, until stopped. A pull that
    fails is logged (to stderr, as all logging) and tried again at the next tick; the folder keeps its generation."""

    def __init__(self, remote: ObjectStore, index_dir: Path, seconds: float) -> None:
        if seconds <= 0:
            raise ValueError(f"a refresh period must be positive; got {seconds} seconds")
        self._remote = remote
        self._index_dir = index_dir
        self._seconds = seconds
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="trident-refresh", daemon=True)

    @property
    def seconds(self) -> float:
        return self._seconds

    def start(self) -> Refresher:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self._seconds):
            try:
                done = pull(self._remote, self._index_dir, wait_seconds=0.0)
            except (TridentIndexError, ObjectStoreError, OSError) as error:
                log.warning("could not refresh %s from the shared index (trying again): %s", self._index_dir, error)
                continue
            except Exception:  # the thread's top level: a refresher that died would serve an old generation forever
                log.exception("refreshing %s from the shared index failed (trying again)", self._index_dir)
                continue
            if done.changed:
                log.info("moved to generation %d of the shared index (%d files pulled)", done.generation, done.files)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
