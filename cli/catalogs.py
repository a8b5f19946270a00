"""Opening an index from settings: the one place that picks the engines and the embedder."""

from __future__ import annotations

from trident.embedding.background import BackgroundEmbedder
from trident.embedding.embedder import open_embedder
from trident.store.catalog import Catalog
from trident.store.compatibility import check_compatible
from trident.store.manifest import MANIFEST_FILE
from trident.store.settings import ModelSettings, StoreSettings


def open_catalog(store: StoreSettings, model: ModelSettings, *, with_embedder: bool = True) -> Catalog:
    """Open the tenant's index; with an embedder it can write and answer semantic queries.

    Raises:
        ModelMismatchError: the index was built with another model.
        EmbedderUnavailable: no model could be loaded.
    """
    embedder = open_embedder(model) if with_embedder else None
    return Catalog(store.index_dir, store.tenant, embedder)


def open_serving_catalog(store: StoreSettings, model: ModelSettings) -> Catalog:
    """Open the tenant's index for a server while the model loads in the background (a search answers from the
    paths that need no query vector until it is loaded). An existing index is opened first without the model: it
    records the vectors' dimension; a new one waits for the model to learn it.

    Raises:
        ModelMismatchError: the index was built with another model.
        EmbedderUnavailable: the model could not be loaded (raised here only when opening had to wait for it).
    """
    embedder = BackgroundEmbedder(lambda: open_embedder(model), model.model).start()
    if not (store.index_dir / MANIFEST_FILE).exists():
        return Catalog(store.index_dir, store.tenant, embedder)
    catalog = Catalog(store.index_dir, store.tenant)
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
