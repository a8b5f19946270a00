"""Views of one index generation that queries share: built once on first use, rebuilt when the generation moves."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np

from trident.host.freed_memory import release_freed_memory
from trident.host.gc_pause import paused_gc
from trident.retrieval.answer_state import AnswerState
from trident.retrieval.blas import one_blas_thread
from trident.retrieval.chunk_vectors import ChunkVectors
from trident.retrieval.graph_item_vectors import GraphItemVectors
from trident.retrieval.pagerank import EntityChunkGraph
from trident.retrieval.relation_index import RelationIndex
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.title_match import TitleIndex
from trident.store.catalog import Catalog
from trident.store.engines.community_index import open_communities
from trident.store.mapped.chunk_files import ChunkFiles, ChunkFilesError, read_chunk_files
from trident.store.mapped.chunk_rows import ChunkRows
from trident.store.mapped.community_rows import COMMUNITY_ROWS_DIR, CommunitySearch, MappedCommunities
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Chunk

T = TypeVar("T")
# A project's own instructions: the fast path for "what does CLAUDE.md / our README say".
INSTRUCTION_FILES = (
    "CLAUDE.md",
    "AGENTS.md",
    "README.md",
    "README",
    "README.rst",
    "CONTRIBUTING.md",
    "CONTRIBUTING",
    "CODEOWNERS",
    ".cursorrules",
    "copilot-instructions.md",
)
# From this many chunks, building the walk's views takes a second or more (at 100K chunks: the directory and the
# relations side by side 1.9 s, then the walk graph and the titles 1.2 s), and a search arriving while a server's
# warm-up builds them answers from the other paths instead of waiting (see `GenerationViews.walk_pending`).
BACKGROUND_WALK_MIN_CHUNKS = 5_000


# Generations published while one request reads its chunk files that it follows to the newest, at most
MOVES_FOLLOWED = 3


class WalkViewsPending(RuntimeError):
    """The entity names and graph a walk reads are still being built in the background."""


class PerGeneration(Generic[T]):
    """One structure of an index generation, built once under its own lock (a query needing the directory does
    not wait while another thread builds the walk graph) and rebuilt when the generation moves."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._built: tuple[int, T] | None = None

    def get(self, generation: int, build: Callable[[], T]) -> T:
        with self._lock:
            if self._built is None or self._built[0] != generation:
                with paused_gc():
                    self._built = (generation, build())
                release_freed_memory()  # what the build read and dropped, and the view of the generation before
            return self._built[1]

    def ready(self, generation: int) -> T | None:
        """What is built for `generation`, or None (without waiting for a build under way)."""
        built = self._built
        return built[1] if built is not None and built[0] == generation else None

    def peek(self) -> T | None:
        """What is built now (of whichever generation), or None."""
        built = self._built
        return built[1] if built is not None else None


@dataclass(frozen=True)
class EmbeddingProgress:
    """Chunks of a generation still waiting for their vectors, of all its chunks (0 and 0 when none wait)."""

    waiting: int
    total: int


class GenerationViews:
    """What queries read of one index generation beside the engines (the entity directory, the relations in
    memory, the PageRank graph, the chunk and graph vectors, the instruction files' vectors, the communities),
    each built once on first use and reused until the index moves to another generation. `settings` (how the graph
    walk spreads) come from whoever made the process's settings: the server's lifespan, a CLI command, a test. The
    process's matrix products run on one BLAS thread from then on (`blas.py`: the searches' threads are its
    parallelism)."""

    def __init__(self, settings: RetrievalSettings) -> None:
        one_blas_thread()
        self.settings = settings
        self._directory: PerGeneration[EntityDirectory] = PerGeneration()
        self._titles: PerGeneration[TitleIndex] = PerGeneration()
        self._graph: PerGeneration[EntityChunkGraph] = PerGeneration()
        self._relations: PerGeneration[RelationIndex] = PerGeneration()
        self._vectors: PerGeneration[GraphItemVectors] = PerGeneration()
        self._chunk_vectors: PerGeneration[ChunkVectors] = PerGeneration()
        self._chunk_files: PerGeneration[ChunkFiles] = PerGeneration()
        self._chunk_rows: PerGeneration[ChunkRows] = PerGeneration()
        self._instructions: PerGeneration[dict[tuple[str, ...] | None, dict[str, np.ndarray]]] = PerGeneration()
        self._embedding: PerGeneration[EmbeddingProgress] = PerGeneration()
        self._chunk_total: PerGeneration[int] = PerGeneration()
        self._communities: CommunitySearch | None = None
        self._lock = threading.Lock()
        self._warming: int | None = None  # the generation whose walk views a warm-up is building
        self.state = AnswerState()  # the pool the answering work runs in, and what it remembers

    @contextmanager
    def warming(self, catalog: Catalog) -> Iterator[None]:
        """While the block builds the walk's views of the catalog's generation in the background (a server's
        warm-up), searches of a large index answer without them instead of waiting (`walk_pending`)."""
        self._warming = catalog.manifest.generation
        try:
            yield
        finally:
            self._warming = None

    def walk_pending(self, catalog: Catalog) -> bool:
        """Whether a search should answer without the walk's views (the entity directory, the relations, the walk
        graph, the titles): while a warm-up builds them for this generation of an index of at least
        `BACKGROUND_WALK_MIN_CHUNKS` chunks. Otherwise a search builds them, or waits for the build under way:
        smaller indexes build them in well under a second, and a process without a warm-up (the CLI, an
        evaluation) has no one else to build them."""
        manifest = catalog.manifest
        generation = manifest.generation
        if self._warming != generation:
            return False
        walk_views = (self._directory, self._relations, self._graph, self._titles)
        if all(view.ready(generation) is not None for view in walk_views):
            return False
        return self._chunk_total.get(generation, manifest.chunk_count) >= BACKGROUND_WALK_MIN_CHUNKS

    def require_walk(self, catalog: Catalog) -> None:
        """Fail a graph path at once while the walk's views are built in the background (`walk_pending`).

        Raises:
            WalkViewsPending: with what the caller can do about it.
        """
        if self.walk_pending(catalog):
            raise WalkViewsPending(
                "the entity names and graph of this index are still being built in the background (once per index "
                "version; seconds on a large index): this answer comes from the other paths, a search in a few "
                "seconds includes this one"
            )

    def embedding(self, catalog: Catalog) -> EmbeddingProgress:
        """How many of the generation's chunks an index run has published without their vectors yet (counted once
        per generation: a manifest of many documents takes milliseconds to count)."""
        manifest = catalog.manifest
        return self._embedding.get(
            manifest.generation,
            lambda: EmbeddingProgress(
                manifest.pending_chunks(), manifest.chunk_count() if manifest.vectors_pending else 0
            ),
        )

    def directory(self, catalog: Catalog) -> EntityDirectory:
        """The entity directory: the last generation's patched with the entities that differ, when it is built and
        few do (an edit's generation: 0.1 s instead of 0.6 s at 100K chunks, with the mention forms), else built."""
        previous = self._directory.peek()
        if previous is None:
            return self._directory.get(catalog.manifest.generation, lambda: EntityDirectory(catalog.entities()))
        return self._directory.get(catalog.manifest.generation, lambda: previous.updated(catalog.entities()))

    def built(self, catalog: Catalog) -> frozenset[str]:
        """The names of the views built for the catalog's generation (`directory`, `titles`, `graph`, `relations`,
        `vectors`, `chunk_vectors`), and `communities` once read: what a warm-up has done so far."""
        generation = catalog.manifest.generation
        views: dict[str, PerGeneration[Any]] = {
            "directory": self._directory,
            "titles": self._titles,
            "graph": self._graph,
            "relations": self._relations,
            "vectors": self._vectors,
            "chunk_vectors": self._chunk_vectors,
        }
        found = {name for name, view in views.items() if view.ready(generation) is not None}
        return frozenset(found | ({"communities"} if self._communities is not None else set()))

    def built_directory(self, catalog: Catalog) -> EntityDirectory | None:
        """The directory when it is built for the catalog's generation, else None: a search on the event loop reads
        it there and hands the first build to a worker thread."""
        return self._directory.ready(catalog.manifest.generation)

    def titles(self, catalog: Catalog) -> TitleIndex:
        """The titled entities by the words of their names: loose name matching for the walk's seeds."""
        directory = self.directory(catalog)
        return self._titles.get(catalog.manifest.generation, lambda: TitleIndex(directory.by_id.values()))

    def vectors(self, catalog: Catalog) -> GraphItemVectors:
        """The entity and relation vectors (mapped from the files their last sync wrote, else read from their
        table): vector seeding's search."""
        return self._vectors.get(
            catalog.manifest.generation,
            lambda: GraphItemVectors.of_catalog(catalog),
        )

    def chunk_vectors(self, catalog: Catalog) -> ChunkVectors:
        """Every chunk vector in memory: the dense path's search."""
        files = self._files(catalog)
        return self._chunk_vectors.get(files.generation, lambda: ChunkVectors.load(files))

    def _files(self, catalog: Catalog) -> ChunkFiles:
        """The generation's chunk files (read and checked once: the dense path and the hit rows share them).

        Raises:
            ChunkFilesError: they are missing or do not hold together (the message names `trident repair`).
        """
        for _ in range(MOVES_FOLLOWED):
            generation, folder = catalog.published_folder()
            try:
                return self._read_files(catalog, generation, folder)
            except ChunkFilesError:
                if catalog.published_folder()[0] == generation:
                    raise  # still the published generation: its files are damaged
                # a newer generation was published between taking this one and reading it, and this one removed
        return self._read_files(catalog, *catalog.published_folder())  # (publishing faster than reads: once more)

    def _read_files(self, catalog: Catalog, generation: int, folder: Path) -> ChunkFiles:
        return self._chunk_files.get(generation, lambda: read_chunk_files(folder, catalog.tenant, generation))

    def chunks(self, catalog: Catalog, ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks of these ids (an unknown one left out): from the generation's chunk-row file, memory-mapped."""
        return self._rows(catalog).get(ids)

    def _rows(self, catalog: Catalog) -> ChunkRows:
        files = self._files(catalog)
        return self._chunk_rows.get(files.generation, files.chunk_rows)

    def graph(self, catalog: Catalog) -> EntityChunkGraph:
        generation = catalog.manifest.generation
        directory, relations = self.directory(catalog), self.relations(catalog)
        return self._graph.get(
            generation, lambda: EntityChunkGraph.from_edges(list(directory.by_id.values()), relations.edges())
        )

    def relations(self, catalog: Catalog) -> RelationIndex:
        """The tenant's relations in memory, for walks that take many steps."""
        graph, tenant = catalog.graph, catalog.tenant

        def build() -> RelationIndex:
            rows = self._rows(catalog)  # the generation's chunk rows, mapped: no scan of every chunk's citation
            return RelationIndex.from_table(graph.relation_table(tenant), tenant, _citations(rows))

        return self._relations.get(catalog.manifest.generation, build)

    def instructions(self, catalog: Catalog, projects: Sequence[str] | None) -> dict[str, np.ndarray]:
        """The vectors of the projects' instruction files (CLAUDE.md, README, ...), by chunk id: from the
        generation's chunk files (rows and vectors in memory)."""
        known = self._instructions.get(catalog.manifest.generation, dict)
        key = tuple(sorted(projects)) if projects is not None else None
        with self._lock:
            if key not in known:
                ids = self._rows(catalog).of_files(INSTRUCTION_FILES, projects)
                known[key] = self.chunk_vectors(catalog).rows(ids)
            return known[key]

    def communities(self, catalog: Catalog) -> CommunitySearch:
        """The community reports: mapped from the files their last finished sync wrote (no table opened), else the
        table; opened again once a sync has stored new ones (the sync runs after the index generation has moved)."""
        with self._lock:
            held = self._communities
            another_tenants = isinstance(held, MappedCommunities) and held.tenant != catalog.tenant
            if held is None or another_tenants or held.changed_since_open():
                folder = catalog.index_dir / COMMUNITY_ROWS_DIR
                held = self._communities = MappedCommunities.open(folder, catalog.tenant) or open_communities(catalog)
            return held


def _citations(rows: ChunkRows) -> Callable[[Sequence[str]], dict[str, str]]:
    return lambda ids: {id_: chunk.citation for id_, chunk in rows.get(ids).items()}
