"""What is indexed: projects (a page of them within a token budget), per-engine counts (which must agree), the model,
and files refused."""

from __future__ import annotations

from pydantic import BaseModel, Field

from trident.store.catalog import Catalog
from trident.store.manifest import SkippedFile
from trident.store.sync_state import stale_stores
from trident.store.tokens import json_tokens
from trident.tools.calls import RESPONSE_TOKENS, check_range, suggest_call

MAX_OFFSET = 100_000
SKIPPED_SHOWN = 10  # per project; the project resource (trident://projects/NAME) lists them all
# The answer's fields beside the projects: engines, model, index folder, stale stores, next_call.
STATUS_OVERHEAD_TOKENS = 300


class ProjectStatus(BaseModel):
    name: str
    documents: int
    chunks: int
    entities: int
    relations: int
    skipped: list[SkippedFile] = Field(
        default_factory=list, description=f"The first {SKIPPED_SHOWN} files refused, each with why"
    )
    skipped_total: int = Field(0, description="How many files were refused in all")


class ModelStatus(BaseModel):
    name: str | None
    dim: int | None


class StatusResult(BaseModel):
    projects: list[ProjectStatus]
    projects_total: int = Field(description="Projects indexed in all (a page may hold fewer)")
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
    truncated: bool = Field(False, description="True when the token budget cut the list of projects short")
    next_call: str | None = Field(None, description="When truncated, the call for the next page of projects")


def status(catalog: Catalog, offset: int = 0) -> StatusResult:
    """Counts from the manifest and from each engine; `consistent` is False when the engines disagree. Projects come
    in name order from `offset`, as many as fit in the answer budget.

    Raises:
        ArgumentError: offset outside 0..MAX_OFFSET.
    """
    check_range("offset", offset, 0, MAX_OFFSET)
    projects = _projects(catalog)
    page = _fit(projects[offset:], RESPONSE_TOKENS - STATUS_OVERHEAD_TOKENS)
    graph = catalog.graph.counts(catalog.tenant)
    engines = {
        "lexical": {"chunks": catalog.text.count(catalog.tenant)},
        "semantic": {"chunks": catalog.vectors.count(catalog.tenant)},
        "graph": graph,
    }
    expected = sum(p.chunks for p in projects)
    consistent = engines["lexical"]["chunks"] == engines["semantic"]["chunks"] == graph["chunks"] == expected
    model = catalog.manifest.model
    truncated = offset + len(page) < len(projects)
    return StatusResult(
        projects=page,
        projects_total=len(projects),
        engines=engines,
        model=ModelStatus(name=model.name if model else None, dim=model.dim if model else None),
        index=str(catalog.index_dir),
        generation=catalog.manifest.generation,
        consistent=consistent,
        stale=stale_stores(catalog),
        truncated=truncated,
        next_call=suggest_call("status", offset=offset + len(page)) if truncated else None,
    )


def project_status(catalog: Catalog, name: str) -> ProjectStatus | None:
    """One project's counts with every file refused (None if no such project is indexed)."""
    return next((p for p in _projects(catalog, skipped_shown=None) if p.name == name), None)


def _projects(catalog: Catalog, skipped_shown: int | None = SKIPPED_SHOWN) -> list[ProjectStatus]:
    manifest = catalog.manifest
    graph_by_project = catalog.graph.project_counts(catalog.tenant)
    projects = []
    for name in manifest.projects():
        docs = manifest.project_documents(name)
        graph_counts = graph_by_project.get(name, {"entities": 0, "relations": 0})
        skipped = manifest.skipped.get(name, [])
        projects.append(
            ProjectStatus(
                name=name,
                documents=len(docs),
                chunks=sum(len(entry.chunk_ids) for entry in docs.values()),
                entities=graph_counts["entities"],
                relations=graph_counts["relations"],
                skipped=skipped[:skipped_shown],
                skipped_total=len(skipped),
            )
        )
    return projects


def _fit(projects: list[ProjectStatus], budget: int) -> list[ProjectStatus]:
    """The first projects that fit in `budget` tokens (at least one: a page always moves on)."""
    used = 0
    for n, project in enumerate(projects):
        used += json_tokens(project, depth=2)
        if n and used > budget:
            return projects[:n]
    return projects
