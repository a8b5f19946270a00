"""Small multi-project code bases written to disk and indexed with the real engines, for the graph-binding tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tests.conftest import HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import Relation, Resolution
from trident.tools.trace import Direction, trace_relationships

Files = Mapping[str, str]  # project-relative path -> text
# (catalog, views, entity id, trace options) -> (relation type, target) -> resolution
EdgeReader = Callable[..., dict[tuple[str, str], str]]


def write_files(root: Path, files: Files) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def indexed_projects(root: Path, projects: Mapping[str, Files], order: Sequence[str]) -> Catalog:
    """Each project written under `root/<project>` and indexed in `order` (graph plumbing: a hash embedder). Put
    the caller first to show that its calls bind when the project they call into arrives."""
    for project, files in projects.items():
        write_files(root / project, files)
    catalog = Catalog(root / "index", "default", HashEmbedder())
    with catalog.writer() as writer:
        for project in order:
            index_folder(writer, root / project, project, max_file_bytes=1_000_000)
    return catalog


def call_edges(catalog: Catalog) -> dict[tuple[str, str], Relation]:
    """(caller id, callee id) -> the CALLS relation."""
    return {(r.source, r.target): r for r in catalog.graph.relations(catalog.tenant) if r.type == "CALLS"}


def edges_out(catalog: Catalog, views: GenerationViews, entity: str, **options: Any) -> dict[tuple[str, str], str]:
    """(relation type, target id) -> resolution of every edge out of `entity`, one hop, name guesses included."""
    found = trace_relationships(
        Reader(catalog, views), entity, direction=Direction.OUT, max_hops=1, min_resolution=Resolution.NAME, **options
    )
    return {(e.type, e.target): e.resolution.value for e in found.edges}


def edges_named(catalog: Catalog, views: GenerationViews, entity: str, **options: Any) -> dict[tuple[str, str], str]:
    """`edges_out` with each target by its qualified name."""
    found = edges_out(catalog, views, entity, **options)
    return {(kind, target.rsplit(":", 1)[-1]): how for (kind, target), how in found.items()}


def project_calls(root: Path, project: str, files: Files) -> dict[tuple[str, str], str]:
    """One project indexed alone: (caller, callee), each by its qualified name -> the resolution of every stored
    CALLS relation."""
    catalog = indexed_projects(root, {project: files}, (project,))
    try:
        found = call_edges(catalog)
    finally:
        catalog.close()
    return {(s.rsplit(":", 1)[-1], t.rsplit(":", 1)[-1]): str(r.resolution) for (s, t), r in found.items()}


def project_edges(
    root: Path, project: str, files: Files, entities: Sequence[str], read: EdgeReader = edges_named, **options: Any
) -> dict[str, dict[tuple[str, str], str]]:
    """One project indexed alone: the edges out of each entity as a server reads them (`edges_named`, or
    `edges_out` for targets by id)."""
    catalog = indexed_projects(root, {project: files}, (project,))
    try:
        views = GenerationViews(RetrievalSettings())
        return {entity: read(catalog, views, entity, **options) for entity in entities}
    finally:
        catalog.close()
