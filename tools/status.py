"""What is indexed: projects, per-engine counts (which must agree), the model, and files refused."""

from __future__ import annotations

from pydantic import BaseModel, Field

from trident.store.catalog import Catalog
from trident.store.manifest import SkippedFile
from trident.store.sync_state import stale_stores


class ProjectStatus(BaseModel):
    name: str
    documents: int
    chunks: int
    entities: int
    relations: int
    skipped: list[SkippedFile] = []


class ModelStatus(BaseModel):
    name: str | None
    dim: int | None


class StatusResult(BaseModel):
    projects: list[ProjectStatus]
    engines: dict[str, dict[str, int]]
    model: ModelStatus
    index: str
    generation: int
    consistent: bool
    stale: dict[str, str] = Field(
        default_factory=dict,
        description="Derived stores (graph_vectors, communities) not in step with the graph, each with why; "
        "search still answers, without what they add",
    )


def status(catalog: Catalog) -> StatusResult:
    """Counts from the manifest and from each engine; `consistent` is False when the engines disagree."""
    manifest = catalog.manifest
    graph_by_project = catalog.graph.project_counts(catalog.tenant)
    projects = []
    for name in manifest.projects():
        docs = manifest.project_documents(name)
        graph_counts = graph_by_project.get(name, {"entities": 0, "relations": 0})
        projects.append(
            ProjectStatus(
                name=name,
                documents=len(docs),
                chunks=sum(len(entry.chunk_ids) for entry in docs.values()),
                entities=graph_counts["entities"],
                relations=graph_counts["relations"],
                skipped=manifest.skipped.get(name, []),
            )
        )
    graph = catalog.graph.counts(catalog.tenant)
    engines = {
        "lexical": {"chunks": catalog.text.count(catalog.tenant)},
        "semantic": {"chunks": catalog.vectors.count(catalog.tenant)},
        "graph": graph,
    }
    expected = sum(p.chunks for p in projects)
    consistent = engines["lexical"]["chunks"] == engines["semantic"]["chunks"] == graph["chunks"] == expected
    model = manifest.model
    return StatusResult(
        projects=projects,
        engines=engines,
        model=ModelStatus(name=model.name if model else None, dim=model.dim if model else None),
        index=str(catalog.index_dir),
        generation=manifest.generation,
        consistent=consistent,
        stale=stale_stores(catalog),
    )
