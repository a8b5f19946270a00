"""The retrieval paths (BM25, dense, instruction files, one graph hop, the PageRank walk, communities) as plain
functions over one index, and what they share per index generation (names, walk graph, vectors)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from contextlib import suppress
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from trident.retrieval.communities import CommunityMatch, community_hits
from trident.retrieval.described import HEAD, Described, described_passage, rest_of
from trident.retrieval.path_names import PathName
from trident.retrieval.query_names import code_entities, code_tokens, written_as_name
from trident.retrieval.relation_index import GraphWalk
from trident.retrieval.seeds import PASSAGES_PER_PATH, WalkSeeds
from trident.retrieval.title_match import TitleMatch, name_like
from trident.retrieval.views import GenerationViews
from trident.retrieval.written_names import WrittenNames
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.protocols import Embedder, LoadingEmbedder, ScoredId, SearchFilter
from trident.store.schema import Entity

CANDIDATES_PER_PATH = 50
GRAPH_EDGES = 60
PATHS = tuple(PathName)

# Vector seeding: how many entity/relation neighbours to look at, how close one must be, and how many seeds to keep.
VECTOR_SEED_CANDIDATES = 10
VECTOR_SEED_MIN_SCORE = 0.5
VECTOR_SEEDS = 3


def query_entities(directory: EntityDirectory, query: str) -> list[Entity]:
    """Entities the query names, rarest name first (a name shared by many entities says less). A name written inside
    a longer one is not named ("Blind Man's Eyes" names no "Blind Man"). A query that writes names with capitals
    names nothing with words it writes in lower case ("What is the place of birth of Rector's husband?" does not
    name the title "Place of birth"); one written all in lower case may. A code entity is named only by a word
    written as a name (retrieval/query_names.py: not "When" opening a question, nor "UPDATE" in capitals), or by a
    word written as code (`query_names.code_entities`: as people write names, or misspelt)."""
    spans = directory.mention_spans(query, lower_case_phrases=not name_like(query))
    ids = [i for start, end, i, _ in spans if written_as_name(query, start, end + 1, directory.by_id[i])]
    written = WrittenNames(directory)  # its import names are the directory's, read once
    for token in code_tokens(query):
        ids.extend(code_entities(directory, written, token))
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
                embedder = self._embedder
                if isinstance(embedder, LoadingEmbedder):  # a model still loading fails the path instead of waiting
                    self._vectors[text] = embedder.embed_query_now(text)
                else:
                    self._vectors[text] = embedder.embed_query(text)
            return self._vectors[text]


RunKey = tuple[PathName, str, SearchFilter]  # a path over a text within a filter: what a run answers


class SharedRuns:
    """The answers of the runs one search planned, for a path that reads another's: the walk seeds from the lexical
    and dense heads, and waits (boundedly) for the search's own runs of them instead of running them again."""

    def __init__(self, planned: Iterable[RunKey] = ()) -> None:
        self._answers: dict[RunKey, Future[PathHits]] = {key: Future() for key in planned}

    def run(self, key: RunKey, run: Callable[[], PathHits]) -> PathHits:
        """A planned run (or one no other path waits for) gives its answer, which is kept for the readers."""
        answer = self._answers.get(key)
        if answer is None or answer.done():
            return run()
        try:
            hits = run()
        except BaseException as exc:
            answer.set_exception(exc)
            raise
        answer.set_result(hits)
        return hits

    def read(self, key: RunKey, run: Callable[[], PathHits], wait: float) -> PathHits:
        """The planned run's answer, waiting at most `wait` seconds; a path the search did not plan runs here.

        Raises:
            TimeoutError: the planned run did not answer in time.
            Exception: whatever the planned run raised.
        """
        answer = self._answers.get(key)
        return run() if answer is None else answer.result(timeout=wait)


@dataclass(frozen=True)
class PathHits:
    """One path's ranked chunks, the entities it started from, and whether the text surely means them (see
    `WalkSeeds.confident`: a walk from anything less joins the fusion but does not lead it)."""

    hits: list[ScoredId]
    seeds: list[Entity] = field(default_factory=list)
    confident: bool = True
    communities: list[CommunityMatch] = field(default_factory=list)


@dataclass(frozen=True)
class PathQuery:
    """One path's input: the text to answer over one index, and what the paths share."""

    catalog: Catalog
    text: str
    where: SearchFilter
    views: GenerationViews
    projects: Sequence[str] | None
    embed: Callable[[str], np.ndarray]
    seed_by_vectors: bool = False
    shared: SharedRuns = field(default_factory=SharedRuns)
    head_wait: float = 5.0  # how long the walk waits for the search's own lexical and dense runs


# A path: one text in, its ranked chunks out (plus what it started from).
PathRunner = Callable[[PathQuery], PathHits]


def run_path(path: PathName | str, query: PathQuery) -> PathHits:
    """One path's ranked chunks for one text.

    Raises:
        ValueError: no path has that name (the message lists the known ones).
    """
    name = PathName.parse(path)
    return query.shared.run((name, query.text, query.where), partial(PATH_RUNNERS[name], query))


def _lexical(q: PathQuery) -> PathHits:
    return PathHits(q.catalog.text.search(q.text, CANDIDATES_PER_PATH, q.where))


def _semantic(q: PathQuery) -> PathHits:
    vector = q.embed(q.text)  # first: while the model loads, the path fails at once instead of reading the vectors
    return PathHits(q.views.chunk_vectors(q.catalog).search(vector, CANDIDATES_PER_PATH, q.where))


def _local(q: PathQuery) -> PathHits:
    query_vector = q.embed(q.text)
    scored = [ScoredId(i, float(v @ query_vector)) for i, v in q.views.instructions(q.catalog, q.projects).items()]
    return PathHits(sorted(scored, key=lambda hit: (-hit.score, hit.id))[:CANDIDATES_PER_PATH])


def _community(q: PathQuery) -> PathHits:
    vector = q.embed(q.text)  # first, as in _semantic
    communities = q.views.communities(q.catalog)
    hits, matches = community_hits(communities, vector, q.catalog.tenant, q.projects, CANDIDATES_PER_PATH)
    return PathHits(hits, communities=matches)


def _named_seeds(q: PathQuery) -> tuple[EntityDirectory, list[Entity]]:
    """The entities the text names: exactly, or as a title written whole with one typo (`TitleIndex.
    written_with_a_typo`), and not a name written inside such a title."""
    directory = q.views.directory(q.catalog)
    seeds = [e for e in query_entities(directory, q.text) if q.projects is None or e.project in q.projects]
    typos, written_inside = q.views.titles(q.catalog).written_with_a_typo(q.text, seeds)
    named = {e.id for e in seeds}
    typos = [e for e in typos if (q.projects is None or e.project in q.projects) and e.id not in named]
    return directory, [e for e in seeds if e.id not in written_inside] + typos


def walk_seeds(q: PathQuery) -> WalkSeeds:
    """The walk's seeds for a text: the entities it names exactly, those it names loosely (in part, with a typo,
    or, for a route that asks for it and no sure name, only by meaning), and the lexical and dense heads."""
    _, named = _named_seeds(q)
    loose = {
        m.entity.id: m
        for m in q.views.titles(q.catalog).matches(q.text, named)
        if q.projects is None or m.entity.project in q.projects
    }
    # A text naming nothing exactly may walk from the entities nearest its meaning: they are looked up before the
    # heads are read, once the query's vector is there, so the lookup runs while the dense path scans the chunks
    # (both in numpy, off the interpreter's lock) instead of after it.
    nearby = _nearby(q) if q.seed_by_vectors and not named else []
    heads = _heads(q)
    described = _described(q, named, loose.values())
    seeds = WalkSeeds(named, loose, heads, described=described, head_projects=_projects_of(q, heads))
    # Entities near the meaning are guesses: beside a loose name a head agrees with, they drew the walk away from
    # it (2Wiki with one typo per name, the 106 entity lookups sure that way: R@2 0.590 with them, 0.755 without).
    if seeds.confident or not q.seed_by_vectors:
        return seeds
    return WalkSeeds(named, loose, seeds.passages, nearby, seeds.described, seeds.head_projects)


def _projects_of(q: PathQuery, heads: Sequence[Sequence[ScoredId]]) -> frozenset[str]:
    """The projects of the passages at the heads of the rankings (those that seed the walk)."""
    ids = sorted({hit.id for ranking in heads for hit in ranking[:PASSAGES_PER_PATH]})
    return frozenset(chunk.project for chunk in q.views.chunks(q.catalog, ids).values())


def _nearby(q: PathQuery) -> list[Entity]:
    """The entities nearest the text's meaning (`vector_seeds`); none while the model is still loading (the dense
    path says so itself)."""
    with suppress(RuntimeError):
        return vector_seeds(q.catalog, q.views, q.embed(q.text), q.projects)
    return []


def _described(q: PathQuery, named: Sequence[Entity], loose: Iterable[TitleMatch]) -> list[Described]:
    """The passage a text describes beyond the names it writes (all of it, when it names nothing), if the lexical
    head of those words holds one that writes them (see retrieval/described.py)."""
    names = [e.name for e in named] + [m.entity.name for m in loose]
    rest = rest_of(q.text, q.views.titles(q.catalog).written_words(q.text, names) if names else set())
    if rest is None:
        return []
    try:
        lexical = _ranking(q, PathName.LEXICAL, rest)[:HEAD]
        chunks = q.views.chunks(q.catalog, [hit.id for hit in lexical])
        found = described_passage(
            rest, lexical, lambda: _ranking(q, PathName.SEMANTIC, rest)[:HEAD], chunks, whole=not names
        )
    except Exception:  # the model still loading, a path failed or late (its own run says so): the names alone
        return []
    return [found] if found else []


def _ranking(q: PathQuery, path: PathName, text: str) -> list[ScoredId]:
    """A ranking of `text` by the lexical or dense path: the search's own run when the text is the query's (a
    question that names nothing is its own rest), else a short run here."""
    if text == q.text:
        return q.shared.read((path, q.text, q.where), partial(PATH_RUNNERS[path], q), q.head_wait).hits
    if path is PathName.SEMANTIC:
        return q.views.chunk_vectors(q.catalog).search(q.embed(text), HEAD, q.where)
    return q.catalog.text.search(text, HEAD, q.where)


def _heads(q: PathQuery) -> list[list[ScoredId]]:
    """The lexical and dense rankings of the text: the search's own runs of them when it planned them (waiting at
    most `head_wait`), else run here; a path that fails or is late is left out (its own run reports it)."""
    rankings: list[list[ScoredId]] = []
    for path in (PathName.LEXICAL, PathName.SEMANTIC):
        with suppress(Exception):
            rankings.append(q.shared.read((path, q.text, q.where), partial(PATH_RUNNERS[path], q), q.head_wait).hits)
    return rankings


def _ppr(q: PathQuery) -> PathHits:
    q.views.require_walk(q.catalog)
    seeds = walk_seeds(q)
    graph = q.views.graph(q.catalog)
    ranked = seeds.walk(graph, CANDIDATES_PER_PATH, q.views.settings.ppr_damping)
    return PathHits(ranked, seeds.entities(), seeds.confident)


def _graph(q: PathQuery) -> PathHits:
    q.views.require_walk(q.catalog)
    directory, seeds = _named_seeds(q)
    ids = graph_candidates(q.catalog, directory, q.views.relations(q.catalog), seeds, CANDIDATES_PER_PATH)
    return PathHits([ScoredId(id_, 1.0 / rank) for rank, id_ in enumerate(ids, start=1)], seeds)


# Every path and the function that runs it. A new path is a PathName member, one runner function above and one
# line here; the router's presets (or a forced Strategy) decide when a search plans it.
PATH_RUNNERS: dict[PathName, PathRunner] = {
    PathName.LEXICAL: _lexical,
    PathName.SEMANTIC: _semantic,
    PathName.LOCAL: _local,
    PathName.COMMUNITY: _community,
    PathName.PPR: _ppr,
    PathName.GRAPH: _graph,
}


def vector_seeds(
    catalog: Catalog, views: GenerationViews, query_vector: np.ndarray, projects: Sequence[str] | None
) -> list[Entity]:
    """The entities nearest the query's meaning (their own vectors, or a relation sentence they take part in), for a
    query that names none of them exactly; only close matches count, so an unrelated query seeds nothing."""
    hits = views.vectors(catalog).search(query_vector, VECTOR_SEED_CANDIDATES)
    by_id = views.directory(catalog).by_id
    seeds: list[Entity] = []
    for hit in hits:
        if hit.score < VECTOR_SEED_MIN_SCORE:
            break
        for entity in (by_id[i] for i in hit.entities if i in by_id):
            if entity not in seeds and (projects is None or entity.project in projects):
                seeds.append(entity)
    return seeds[:VECTOR_SEEDS]
