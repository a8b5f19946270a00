"""The retrieval paths (BM25, dense, instruction files, one graph hop, the PageRank walk, communities) as plain
functions over one index, and what they share per index generation (names, walk graph, vectors)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import numpy as np
from trident.store.catalog import Catalog
from trident.store.community_index import CommunityIndex, open_communities
from trident.store.directory import EntityDirectory
from trident.store.gc_pause import paused_gc
from trident.store.graph_vectors import GraphVectorIndex, open_graph_vectors
from trident.store.protocols import Embedder, ScoredId, SearchFilter
from trident.store.schema import Entity
from trident.store.settings import RetrievalSettings
from trident.tools.communities import CommunityMatch, community_hits
from trident.tools.pagerank import EntityChunkGraph
from trident.tools.path_names import PathName
from trident.tools.relation_index import GraphWalk, RelationIndex

CANDIDATES_PER_PATH = 50
GRAPH_EDGES = 60
PATHS = tuple(PathName)
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
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")

# Vector seeding: how many entity/relation neighbours to look at, how close one must be, and how many seeds to keep.
VECTOR_SEED_CANDIDATES = 10
VECTOR_SEED_MIN_SCORE = 0.5
VECTOR_SEEDS = 3
# A walk from entities only near the query's meaning is a guess: it keeps this share of its planned weight.
GUESSED_WALK_SHARE = 0.25
T = TypeVar("T")


class _PerGeneration(Generic[T]):
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
            return self._built[1]

    def peek(self) -> T | None:
        """What is built now (of whichever generation), or None."""
        built = self._built
        return built[1] if built is not None else None


class EntityNames:
    """The entity directory, the relations and the PageRank graph of one index generation, each built once on
    first use and reused until the index changes."""

    def __init__(self, settings: RetrievalSettings | None = None) -> None:
        self.settings = settings or RetrievalSettings()
        self._directory: _PerGeneration[EntityDirectory] = _PerGeneration()
        self._graph: _PerGeneration[EntityChunkGraph] = _PerGeneration()
        self._relations: _PerGeneration[RelationIndex] = _PerGeneration()
        self._vectors: _PerGeneration[GraphVectorIndex] = _PerGeneration()
        self._instructions: _PerGeneration[dict[tuple[str, ...] | None, dict[str, np.ndarray]]] = _PerGeneration()
        self._communities: CommunityIndex | None = None
        self._lock = threading.Lock()

    def get(self, catalog: Catalog) -> EntityDirectory:
        return self._directory.get(catalog.manifest.generation, lambda: EntityDirectory(catalog.entities()))

    def vectors(self, catalog: Catalog) -> GraphVectorIndex:
        return self._vectors.get(catalog.manifest.generation, lambda: open_graph_vectors(catalog))

    def graph(self, catalog: Catalog) -> EntityChunkGraph:
        generation = catalog.manifest.generation
        directory, relations = self.get(catalog), self.relations(catalog)
        return self._graph.get(
            generation, lambda: EntityChunkGraph.from_edges(list(directory.by_id.values()), relations.edges())
        )

    def relations(self, catalog: Catalog) -> RelationIndex:
        """The tenant's relations in memory, for walks that take many steps."""
        graph, tenant = catalog.graph, catalog.tenant
        return self._relations.get(
            catalog.manifest.generation,
            lambda: RelationIndex.from_table(graph.relation_table(tenant), tenant, graph.all_citations(tenant)),
        )

    def instructions(self, catalog: Catalog, projects: Sequence[str] | None) -> dict[str, np.ndarray]:
        """The stored vectors of the projects' instruction files (CLAUDE.md, README, ...), by chunk id."""
        known = self._instructions.get(catalog.manifest.generation, dict)
        key = tuple(sorted(projects)) if projects is not None else None
        with self._lock:
            if key not in known:
                ids = catalog.graph.chunks_of_files(catalog.tenant, INSTRUCTION_FILES, projects)
                known[key] = catalog.vectors.vectors(ids)
            return known[key]

    def communities(self, catalog: Catalog) -> CommunityIndex:
        """The community reports, reopened once a sync has stored new ones (an open LanceDB table does not see
        later writes, and the sync runs after the index generation has already moved)."""
        with self._lock:
            if self._communities is None or self._communities.changed_since_open():
                self._communities = open_communities(catalog)
            return self._communities


def query_entities(directory: EntityDirectory, query: str) -> list[Entity]:
    """Entities the query names, rarest name first (a name shared by many entities says less)."""
    ids = directory.mentioned_in(query)
    for token in _IDENTIFIER.findall(query):
        looks_like_code = "_" in token or "." in token or any(c.isupper() for c in token[1:])
        if looks_like_code:
            ids.extend(e.id for e in directory.named(token.rsplit(".", 1)[-1]))
            ids.extend(e.id for e in directory.named(token))
    unique = list(dict.fromkeys(ids))
    entities = [directory.by_id[i] for i in unique if i in directory.by_id]
    return sorted(entities, key=lambda e: (len(directory.named(e.name)), unique.index(e.id)))


def graph_candidates(
    catalog: Catalog, directory: EntityDirectory, graph: GraphWalk, entities: Sequence[Entity], limit: int
) -> list[str]:
    """Chunks of the named entities first, then the evidence of their one-hop relations and their neighbours."""
    ordered: list[str] = [e.chunk_id for e in entities if e.chunk_id]
    if entities:
        relations = graph.neighbours([e.id for e in entities], catalog.tenant, GRAPH_EDGES)
        relations = sorted(relations, key=lambda r: (-r.weight, r.type, r.source, r.target, r.evidence or ""))
        ordered.extend(r.evidence for r in relations if r.evidence)
        neighbour_ids = {r.target for r in relations} | {r.source for r in relations}
        others = sorted(neighbour_ids - {e.id for e in entities})
        neighbours = [directory.by_id[i] for i in others if i in directory.by_id]
        ordered.extend(n.chunk_id for n in neighbours if n.chunk_id)
    return list(dict.fromkeys(c for c in ordered if c))[:limit]


class QueryVectors:
    """Each text's query vector, computed once per search however many paths need it."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def __call__(self, text: str) -> np.ndarray:
        with self._lock:
            if text not in self._vectors:
                self._vectors[text] = self._embedder.embed_query(text)
            return self._vectors[text]


@dataclass(frozen=True)
class PathHits:
    """One path's ranked chunks, the entities it started from, and whether the query named them exactly (a walk
    from entities merely near the query's meaning is a guess, so it joins the fusion but does not lead it)."""

    hits: list[ScoredId]
    seeds: list[Entity] = field(default_factory=list)
    named: bool = True
    communities: list[CommunityMatch] = field(default_factory=list)


@dataclass(frozen=True)
class PathQuery:
    """One path's input: the text to answer over one index, and what the paths share."""

    catalog: Catalog
    text: str
    where: SearchFilter
    names: EntityNames
    projects: Sequence[str] | None
    embed: Callable[[str], np.ndarray]
    seed_by_vectors: bool = False


def run_path(
    catalog: Catalog,
    path: PathName | str,
    text: str,
    where: SearchFilter,
    names: EntityNames,
    projects: Sequence[str] | None,
    embed: Callable[[str], np.ndarray],
    seed_by_vectors: bool = False,
) -> PathHits:
    """One path's ranked chunks for one text.

    Raises:
        ValueError: no path has that name (the message lists the known ones).
    """
    runner = PATH_RUNNERS[PathName.parse(path)]
    return runner(PathQuery(catalog, text, where, names, projects, embed, seed_by_vectors))


def _lexical(q: PathQuery) -> PathHits:
    return PathHits(q.catalog.text.search(q.text, CANDIDATES_PER_PATH, q.where))


def _semantic(q: PathQuery) -> PathHits:
    return PathHits(q.catalog.vectors.search(q.embed(q.text), CANDIDATES_PER_PATH, q.where))


def _local(q: PathQuery) -> PathHits:
    query_vector = q.embed(q.text)
    scored = [ScoredId(i, float(v @ query_vector)) for i, v in q.names.instructions(q.catalog, q.projects).items()]
    return PathHits(sorted(scored, key=lambda hit: (-hit.score, hit.id))[:CANDIDATES_PER_PATH])


def _community(q: PathQuery) -> PathHits:
    communities = q.names.communities(q.catalog)
    hits, matches = community_hits(communities, q.embed(q.text), q.catalog.tenant, q.projects, CANDIDATES_PER_PATH)
    return PathHits(hits, communities=matches)


def _named_seeds(q: PathQuery) -> tuple[EntityDirectory, list[Entity]]:
    directory = q.names.get(q.catalog)
    seeds = [e for e in query_entities(directory, q.text) if q.projects is None or e.project in q.projects]
    return directory, seeds


def _ppr(q: PathQuery) -> PathHits:
    _, seeds = _named_seeds(q)
    named = bool(seeds)
    if not seeds and q.seed_by_vectors:
        seeds = vector_seeds(q.catalog, q.names, q.embed(q.text), q.projects)
    ranked = q.names.graph(q.catalog).rank(seeds, CANDIDATES_PER_PATH, damping=q.names.settings.ppr_damping)
    return PathHits(ranked, seeds, named)


def _graph(q: PathQuery) -> PathHits:
    directory, seeds = _named_seeds(q)
    ids = graph_candidates(q.catalog, directory, q.names.relations(q.catalog), seeds, CANDIDATES_PER_PATH)
    return PathHits([ScoredId(id_, 1.0 / rank) for rank, id_ in enumerate(ids, start=1)], seeds)


# Every path and the function that runs it: a new path is one function and one line here.
PATH_RUNNERS: dict[PathName, Callable[[PathQuery], PathHits]] = {
    PathName.LEXICAL: _lexical,
    PathName.SEMANTIC: _semantic,
    PathName.LOCAL: _local,
    PathName.COMMUNITY: _community,
    PathName.PPR: _ppr,
    PathName.GRAPH: _graph,
}


def vector_seeds(
    catalog: Catalog, names: EntityNames, query_vector: np.ndarray, projects: Sequence[str] | None
) -> list[Entity]:
    """The entities nearest the query's meaning (their own vectors, or a relation sentence they take part in), for a
    query that names none of them exactly; only close matches count, so an unrelated query seeds nothing."""
    hits = names.vectors(catalog).search(query_vector, VECTOR_SEED_CANDIDATES, catalog.tenant)
    by_id = names.get(catalog).by_id
    seeds: list[Entity] = []
    for hit in hits:
        if hit.score < VECTOR_SEED_MIN_SCORE:
            break
        for entity in (by_id[i] for i in hit.entities if i in by_id):
            if entity not in seeds and (projects is None or entity.project in projects):
                seeds.append(entity)
    return seeds[:VECTOR_SEEDS]
