"""The shared index on object storage (TRIDENT_STORAGE) from the command line: `trident push` and `trident pull`,
and the background refresh of a server's cache."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import typer
from rich.console import Console

from trident.server.server_settings import TridentSettings
from trident.store.catalog import Catalog
from trident.store.remote.object_store import ObjectStore, open_object_store
from trident.store.remote.remote_catalog import RemoteCatalog, holder_name
from trident.store.remote.remote_commit import StalePublishError
from trident.store.remote.remote_gc import collect
from trident.store.remote.remote_index import Transfer, pull, push
from trident.store.remote.remote_lease import RemoteLease, held_lease
from trident.store.settings import StorageSettings, StoreSettings


@contextmanager
def refreshing(catalog: Catalog, storage: StorageSettings) -> Iterator[None]:
    """While the block runs (a server), pull the shared index into the catalog's folder every
    TRIDENT_STORAGE_REFRESH_S seconds; nothing for a local index."""
    if not isinstance(catalog, RemoteCatalog):
        yield
        return
    catalog.follow(storage.storage_refresh_s)  # the per-token tenants opened beside it follow too
    try:
        yield
    finally:
        catalog.unfollow()


def _shared(store: StoreSettings, storage: StorageSettings) -> ObjectStore:
    """The tenant's shared index. Raises ObjectStoreError when TRIDENT_STORAGE is unset (saying how to set it)."""
    return open_object_store(storage, under=f"tenants/{store.tenant}")


def _describe(done: Transfer, verb: str) -> str:
    if not done.changed:
        return f"already in step with generation {done.generation} of the shared index"
    return f"{verb} generation {done.generation}: {done.files} files, {done.bytes:,} bytes"


def register(
    app: typer.Typer,
    *,
    settings: Callable[[], TridentSettings],
    storage: Callable[[], StorageSettings],
    user_errors: Callable[[], AbstractContextManager[Any]],
    err: Console,
) -> None:
    """Add `push`, `pull` and `gc` to the `trident` command line."""

    @app.command("push")
    def push_command() -> None:
        """Publish this tenant's local index to the shared index (TRIDENT_STORAGE): only the files it lacks are
        uploaded. Refused if another writer published since this folder was last pulled: pull, then index again."""
        store = settings().store
        with user_errors():
            remote = _shared(store, storage())
            with held_lease(RemoteLease(remote, holder_name())) as lease:
                try:
                    done = push(remote, store.index_dir, lease)
                except StalePublishError as stale:
                    raise StalePublishError(
                        f"{stale}: this folder was not pulled from the published generation; run `trident pull` "
                        "(it undoes the local changes here), then `trident index` again, then `trident push`"
                    ) from None
        err.print(_describe(done, "published"))

    @app.command("pull")
    def pull_command() -> None:
        """Bring this tenant's local folder to the shared index's published generation (TRIDENT_STORAGE): only the
        files it lacks are downloaded, and the manifest is replaced last, so a server reading the folder switches
        between requests. A write made here and never pushed is undone."""
        store = settings().store
        with user_errors():
            done = pull(_shared(store, storage()), store.index_dir, exact=True)
        err.print(_describe(done, "pulled"))

    @app.command("gc")
    def gc_command(
        wait: float = typer.Option(60.0, "--wait", min=0, help="Seconds to wait for a writer holding the lease."),
    ) -> None:
        """Delete what the shared index (TRIDENT_STORAGE) no longer needs: file lists and blobs neither published
        nor uploaded or superseded within TRIDENT_STORAGE_GRACE_S, and dead writers' uploads once that old. Runs
        under the write lease; a writer that started before it must run again."""
        store, shared = settings().store, storage()
        with user_errors():
            remote = _shared(store, shared)
            with held_lease(RemoteLease(remote, holder_name()), wait_seconds=wait) as lease:
                done = collect(remote, lease, shared.storage_grace_s)
        err.print(
            f"generation {done.generation}: deleted {len(done.listings_deleted)} file lists and "
            f"{len(done.blobs_deleted)} blobs; kept {done.listings_kept} file lists and {done.blobs_kept} blobs"
        )
