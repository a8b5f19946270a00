"""Opening an index from settings: the one place that picks the engines and the embedder."""

from __future__ import annotations

from trident.embedding.embedder import open_embedder
from trident.store.catalog import Catalog
from trident.store.settings import ModelSettings, StoreSettings


def open_catalog(store: StoreSettings, model: ModelSettings, *, with_embedder: bool = True) -> Catalog:
    """Open the tenant's index; with an embedder it can write and answer semantic queries.

    Raises:
        ModelMismatchError: the index was built with another model.
        EmbedderUnavailable: no model could be loaded.
    """
    embedder = open_embedder(model) if with_embedder else None
    return Catalog(store.index_dir, store.tenant, embedder)
