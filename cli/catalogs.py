"""Opening an index from settings: the one place that picks the engines, the embedder, and (with TRIDENT_STORAGE)
the shared index on object storage whose cache the local folder is."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING

from trident.embedding.background import BackgroundEmbedder
from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.host.ray_cluster import ClusterSettings
from trident.store.catalog import Catalog, IndexLockedError, Writer
from trident.store.compatibility import check_compatible
from trident.store.manifest import MANIFEST_FILE
from trident.store.protocols import Embedder
from trident.store.remote.object_store import ObjectStore, open_object_store
from trident.store.remote.remote_catalog import RemoteCatalog
from trident.store.remote.remote_gc import Schedule
from trident.store.remote.remote_index import pull
from trident.store.settings import StorageSettings, StoreSettings

if TYPE_CHECKING:
    from trident.ingest.parsing import Parser


def open_catalog(
    store: StoreSettings,
    model: ModelSettings,
    *,
    with_embedder: bool = True,
    storage: StorageSettings | None = None,
    cluster: ClusterSettings | None = None,
) -> Catalog:
    """Open the tenant's index; with an embedder it can write and answer semantic queries. With TRIDENT_STORAGE set
    in `storage`, the local folder is first brought to the shared index's published generation, and writes are
    published there; with TRIDENT_RAY_ADDRESS set in `cluster`, index runs embed on that Ray cluster.

    Raises:
        ModelMismatchError: the index was built with another model.
        EmbedderUnavailable: no model could be loaded, or the Ray cluster cannot be used.
        ObjectStoreError: the shared index could not be read.
    """
    embedder = indexing_embedder(model, cluster) if with_embedder else None
    remote = open_shared(store, storage)
    return catalog_for(store, embedder, remote, storage)


def indexing_embedder(model: ModelSettings, cluster: ClusterSettings | None) -> Embedder:
    """The model loaded here, embedding large calls on the Ray cluster of TRIDENT_RAY_ADDRESS when it is set.

    Raises:
        EmbedderUnavailable: no model could be loaded, or the Ray cluster cannot be used.
    """
    local = open_embedder(model)
    if cluster is None or cluster.ray_address is None:
        return local
    from trident.embedding.ray_embedder import RayEmbedder

    return RayEmbedder(model, cluster, local, model.batch_size)


def indexing_parser(cluster: ClusterSettings | None) -> Parser:
    """Where index runs parse: on the Ray cluster of TRIDENT_RAY_ADDRESS when it is set, else here.

    Raises:
        ClusterUnavailable: ray is not installed, or the cluster does not answer.
    """
    if cluster is None or cluster.ray_address is None:
        from trident.ingest.parsing import LocalParser

        return LocalParser()
    from trident.ingest.ray_parser import RayParser

    return RayParser(cluster)


class HeldCatalog:
    """The catalog successive index runs share (`trident watch`), so what one read of the graph is held for the next;
    opened at the first run. A run that fails for any reason but another writer's lock closes it, and the next run
    opens it afresh."""

    def __init__(self, open_catalog: Callable[[], Catalog]) -> None:
        self._open = open_catalog
        self._catalog: Catalog | None = None

    @contextmanager
    def writer(self) -> Iterator[Writer]:
        if self._catalog is None:
            self._catalog = self._open()
        try:
            with self._catalog.writer() as writer:
                yield writer
        except IndexLockedError:
            raise  # another writer at work: the run is retried with the same catalog
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._catalog is not None:
            self._catalog.close()
            self._catalog = None


def open_shared(store: StoreSettings, storage: StorageSettings | None) -> ObjectStore | None:
    """The tenant's shared index (None: TRIDENT_STORAGE is unset, the index is the local folder), with the local
    folder pulled to its published generation.

    Raises:
        ObjectStoreError: the shared index could not be read, or a pull failed (the folder keeps what it had).
    """
    if storage is None or storage.bucket is None:
        return None
    remote = tenant_store(storage, store.tenant)
    pull(remote, store.index_dir)
    return remote


def tenant_store(storage: StorageSettings, tenant: str) -> ObjectStore:
    """A tenant's shared index: `tenants/<tenant>/` under TRIDENT_STORAGE.

    Raises:
        ObjectStoreError: TRIDENT_STORAGE is unset, or boto3 is missing.
    """
    return open_object_store(storage, under=f"tenants/{tenant}")


def catalog_for(
    store: StoreSettings, embedder: Embedder | None, remote: ObjectStore | None, storage: StorageSettings | None
) -> Catalog:
    """The tenant's catalog: local, or the cache of the shared index `remote` (from `open_shared`), able to open
    the other tenants' shared indexes beside it (an HTTP server's per-token tenants)."""
    if remote is None:
        return Catalog(store.index_dir, store.tenant, embedder)
    return RemoteCatalog(
        store.index_dir,
        store.tenant,
        embedder,
        remote=remote,
        tenants=partial(tenant_store, storage) if storage else None,
        collecting=Schedule(storage.storage_gc_s, storage.storage_grace_s) if storage else None,
    )


def open_serving_catalog(store: StoreSettings, model: ModelSettings, storage: StorageSettings | None = None) -> Catalog:
    """Open the tenant's index for a server while the model loads in the background (a search answers from the
    paths that need no query vector until it is loaded). An existing index is opened first without the model: it
    records the vectors' dimension; a new one waits for the model to learn it. With TRIDENT_STORAGE, the local
    folder is the server's cache of the shared index, pulled to its published generation first.

    Raises:
        ModelMismatchError: the index was built with another model.
        EmbedderUnavailable: the model could not be loaded (raised here only when opening had to wait for it).
        ObjectStoreError: the shared index could not be read.
    """
    remote = open_shared(store, storage)
    embedder = BackgroundEmbedder(lambda: open_embedder(model, long_lived=True), model.model).start()
    if not (store.index_dir / MANIFEST_FILE).exists():
        return catalog_for(store, embedder, remote, storage)
    catalog = catalog_for(store, None, remote, storage)
    built = catalog.manifest.model
    if built is not None and built.name == model.model:
        embedder.assume_dim(built.dim)
    try:
        check_compatible(store.index_dir, catalog.manifest, embedder)
    except BaseException:
        catalog.close()
        raise
    catalog.embedder = embedder
    return catalog
