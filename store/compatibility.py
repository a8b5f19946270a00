"""Whether this Trident can use an index: its schema version and the model it was embedded with."""

from __future__ import annotations

from pathlib import Path

from trident.store.errors import ModelMismatchError, SchemaMismatchError
from trident.store.manifest import Manifest
from trident.store.protocols import Embedder
from trident.store.schema import SCHEMA_VERSION


def check_compatible(index_dir: Path, manifest: Manifest, embedder: Embedder | None) -> None:
    """
    Raises:
        SchemaMismatchError: the index was written by a Trident with another schema.
        ModelMismatchError: the index was embedded with another model than `embedder`.
    """
    if manifest.documents and manifest.schema_version != SCHEMA_VERSION:
        raise SchemaMismatchError(
            f"the index at {index_dir} has schema version {manifest.schema_version} but this Trident reads "
            f"version {SCHEMA_VERSION}; re-index: run `trident reset --yes`, then `trident index PATH` for each "
            "project"
        )
    built = manifest.model
    if built is None or embedder is None:
        return
    if (built.name, built.dim) != (embedder.model_name, embedder.dim):
        raise ModelMismatchError(
            f"the index at {index_dir} was built with {built.name} ({built.dim}-d) but the current "
            f"model is {embedder.model_name} ({embedder.dim}-d). Either set "
            f"TRIDENT_MODEL={built.name}, or rebuild the index with the new model: `trident reset` and then "
            "`trident index PATH` for each project"
        )
