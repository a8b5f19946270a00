"""What is indexed: projects (a page of them within a token budget), per-engine counts (which must agree), the model,
files refused, and how each project's index compares with its folder now."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, Literal

from pydantic import BaseModel, Field

from trident.host.git_state import HeadCommits
from trident.retrieval.reader import Reader
from trident.retrieval.stale_scan import stale_scan
from trident.store.catalog import Catalog
from trident.store.manifest import DocumentEntry, Manifest, SkippedFile
from trident.store.sync_state import stale_stores
from trident.store.tokens import json_tokens
from trident.tools.calls import RESPONSE_TOKENS, check_range, suggest_call
from trident.tools.freshness import CHECKED_FILES, ProjectFreshness, project_freshness

MAX_OFFSET = 100_000
SKIPPED_SHOWN = 10  # per project; the project resource (trident://projects/NAME) lists them all
# The answer's fields beside the projects: engines, model, index folder, stale stores, next_call.
STATUS_OVERHEAD_TOKENS = 300
Counting = Literal["still counting"]
COUNTING: Final = "still counting"  # a project's stale references while its generation's scan runs


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
    stale_references: int | Counting | None = Field(
        None,
        description="References in its documents, docstrings and comments to code that is gone or called otherwise "
        'now; find_stale lists them. "still counting": the index generation\'s scan runs in the background (a few '
        "seconds; find_stale waits for it), ask again; null: not counted",
    )
    freshness: ProjectFreshness | None = Field(
        None,
        description="When it was indexed and from which git commit, the HEAD now, and how many indexed files "
        "changed or are gone since (null: the project holds no files read from a folder)",
    )


class ModelStatus(BaseModel):
    name: str | None
    dim: int | None


class StatusResult(BaseModel):
    projects: list[ProjectStatus]
    projects_total: int = Field(description="Projects indexed in all (a page may hold fewer)")
    engines: dict[str, dict[str, int]] = Field(
        description="Chunks (and the graph's entities and relations) per engine; `semantic.waiting`, when present: "
        "chunks a large index run has published for lexical and graph search and is still embedding"
    )
    model: ModelStatus
    graph_backend: str = Field(
        description="The engine the graph is kept in (kuzu or ladybug), chosen when the index was made"
    )
    index: str
    generation: int
    consistent: bool = Field(
        description="Whether every engine holds every chunk the manifest lists (those still waiting for vectors "
        "counted as the semantic engine's)"
    )
    stale: dict[str, str] = Field(
        default_factory=dict,
        description="Derived stores (graph_vectors, communities) not in step with the graph, each with why; "
        "search still answers, without what they add",
    )
    truncated: bool = Field(False, description="True when the token budget cut the list of projects short")
    next_call: str | None = Field(None, description="When truncated, the call for the next page of projects")


def status(reader: Reader, offset: int = 0, *, stale: bool = False, stale_wait: float | None = 0.0) -> StatusResult:
    """Counts from the manifest and from each engine; `consistent` is False when the engines disagree. Projects come
    in name order from `offset`, as many as fit in the answer budget. With `stale`, each project's stale references
    are counted too: one scan per index generation in the reader's views (a server's: one scan a generation), in the
    background, waited for at most `stale_wait` seconds (None: until it ends); "still counting" until then.

    Raises:
        ArgumentError: offset outside 0..MAX_OFFSET.
    """
    check_range("offset", offset, 0, MAX_OFFSET)
    catalog = reader.catalog
    manifest = catalog.manifest
    by_project = manifest.documents_by_project()
    projects = _projects(manifest, by_project, catalog, stale=_stale_counts(reader, stale_wait) if stale else None)
    add_freshness = _Freshness(manifest, by_project).add
    page = _fit(projects[offset:], RESPONSE_TOKENS - STATUS_OVERHEAD_TOKENS, add_freshness)
    graph = catalog.graph.counts(catalog.tenant)
    waiting = manifest.pending_chunks()
    engines = {
        "lexical": {"chunks": catalog.text.count(catalog.tenant)},
        "semantic": {"chunks": catalog.vectors.count(catalog.tenant)} | ({"waiting": waiting} if waiting else {}),
        "graph": graph,
    }
    expected = sum(p.chunks for p in projects)
    embedded = engines["semantic"]["chunks"] + waiting
    consistent = engines["lexical"]["chunks"] == embedded == graph["chunks"] == expected
    model = catalog.manifest.model
    truncated = offset + len(page) < len(projects)
    return StatusResult(
        projects=page,
        projects_total=len(projects),
        engines=engines,
        model=ModelStatus(name=model.name if model else None, dim=model.dim if model else None),
        graph_backend=catalog.manifest.graph_backend,
        index=str(catalog.index_dir),
        generation=catalog.manifest.generation,
        consistent=consistent,
        stale=stale_stores(catalog),
        truncated=truncated,
        next_call=suggest_call("status", offset=offset + len(page)) if truncated else None,
    )


def project_status(reader: Reader, name: str) -> ProjectStatus | None:
    """One project's counts with every file refused, its stale references ("still counting" while the generation's
    scan runs, as for `status`) and its freshness (None if no such project is indexed)."""
    manifest = reader.catalog.manifest
    by_project = manifest.documents_by_project()
    projects = _projects(manifest, by_project, reader.catalog, skipped_shown=None, stale=_stale_counts(reader))
    project = next((p for p in projects if p.name == name), None)
    return _Freshness(manifest, by_project).add(project) if project is not None else None


_Counts = dict[str, int] | Counting | None


def _stale_counts(reader: Reader, wait: float | None = 0.0) -> _Counts:
    """Stale references per project; "still counting" while the generation's scan runs."""
    scan = stale_scan(reader.catalog, reader.directory(), wait, reader.views)
    return scan.counts() if scan is not None else COUNTING


def _projects(
    manifest: Manifest,
    by_project: Mapping[str, Mapping[str, DocumentEntry]],
    catalog: Catalog,
    skipped_shown: int | None = SKIPPED_SHOWN,
    stale: _Counts = None,
) -> list[ProjectStatus]:
    graph_by_project = catalog.graph.project_counts(catalog.tenant)
    projects = []
    for name in sorted(by_project):
        docs = by_project[name]
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
                stale_references=stale.get(name, 0) if isinstance(stale, dict) else stale,
            )
        )
    return projects


class _Freshness:
    """Adds each project's freshness, within one stat budget (CHECKED_FILES) for all the projects it is given."""

    def __init__(self, manifest: Manifest, by_project: Mapping[str, Mapping[str, DocumentEntry]]) -> None:
        self._manifest = manifest
        self._by_project = by_project
        self._left = CHECKED_FILES
        self._heads = HeadCommits()  # projects of one repository: one git process for all of them

    def add(self, project: ProjectStatus) -> ProjectStatus:
        documents = self._by_project.get(project.name, {})
        freshness = project_freshness(self._manifest, project.name, self._left, documents, self._heads)
        if freshness is not None:
            self._left -= freshness.checked
        return project.model_copy(update={"freshness": freshness})


def _fit(
    projects: list[ProjectStatus], budget: int, complete: Callable[[ProjectStatus], ProjectStatus]
) -> list[ProjectStatus]:
    """The first projects that fit in `budget` tokens (at least one: a page always moves on), each completed (its
    freshness added) before it is measured; none after the page is."""
    used = 0
    page: list[ProjectStatus] = []
    for project in projects:
        project = complete(project)
        used += json_tokens(project, depth=2)
        if page and used > budget:
            break
        page.append(project)
    return page
