"""Communities of the entity graph (GraphRAG-global style, no LLM): Leiden with a fixed seed at index time, an
extractive report per community, embedded so that broad questions find the part of the index they are about.

The graph is undirected and weighted: entities are nodes (project hubs left out: they join everything they hold),
relations are edges weighted by how much they say two things belong together. Nodes and edges are built in id
order and igraph draws its random numbers from a seeded generator, so the same graph (and the same communities
before it, which a detection after a write starts from) always gives the same communities, whatever order the
index returned it in. A community larger than `SPLIT_SIZE` is partitioned once more (level 1), so a big corpus
still has reports about parts small enough to read.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from trident.ingest.ingest_settings import DEFAULT_COMMUNITY_SECONDS
from trident.store.catalog import Writer
from trident.store.engines.community_index import CentralEntity, CommunityReport, open_communities
from trident.store.mapped.community_rows import COMMUNITY_ROWS_DIR, keep_report_rows
from trident.store.mapped.current_rows import withdraw
from trident.store.protocols import Embedder
from trident.store.schema import Entity, EntityType, Relation, stable_hash

if TYPE_CHECKING:  # imported where communities are computed: a run with nothing to sync never loads it (~1 s)
    import igraph

# Bump when detection or reports change, so that existing indexes compute their communities again.
ALGORITHM_VERSION = "2"
SEED = 5  # any fixed value; what matters is that every run draws the same numbers
# Leiden passes per partition. A pass that leaves the partition as it was ends detection early; igraph 1.x's own
# "until stable" (n_iterations=-1) compares label vectors, which some graphs relabel on every pass forever. On
# 2Wiki's graph and a stdlib code graph every partition settled within 5 passes (`bench/communities.py`,
# docs/quality.md), so this bound cuts none of them short and still ends detection on a graph that never settles.
LEIDEN_PASSES = 10
# How strongly a relation says two entities belong to one part of the system. Structure (containment, calls,
# inheritance, declared dependencies) binds; a prose mention or a shared tag is a weaker hint; the cross-project
# concept edge is weakest, so that projects which merely share a name stay apart.
RELATION_WEIGHTS: Mapping[str, float] = {
    "CONTAINS": 1.0,
    "DEFINES": 1.0,
    "CALLS": 1.0,
    "REFERENCES": 1.0,
    "INHERITS": 1.0,
    "DEPENDS_ON": 1.0,
    "RELATED_TO": 0.7,
    "IMPORTS": 0.5,
    "LINKS_TO": 0.5,
    "MENTIONS": 0.3,
    "TAGGED": 0.2,
    "INSTANCE_OF": 0.1,
}
DEFAULT_RELATION_WEIGHT = 0.5
HUB_TYPES = frozenset({EntityType.PROJECT.value})
MIN_COMMUNITY_SIZE = 3  # a pair is a relation, not a part of the system
SPLIT_SIZE = 40  # a community with more entities than this gets level-1 sub-communities
TOP_ENTITIES = 10
TITLE_ENTITIES = 3
TOP_CHUNKS = 8
PROSE_TYPES = frozenset({EntityType.DOCUMENT.value, EntityType.SECTION.value})
DESCRIPTION_CHARS = 100
REPORT_ENTITIES = 8  # entities spelled out in the embedded text (the model reads about 256 tokens)

# igraph's random generator is process-wide: seeding it and running Leiden must not interleave between threads.
_RNG_LOCK = threading.Lock()


@dataclass(frozen=True)
class CommunitySync:
    """What one sync did: whether the graph had changed (so communities were computed), how many reports there
    are, and how many were embedded anew."""

    recomputed: bool
    communities: int
    embedded: int


@contextmanager
def _seeded(seed: int) -> Iterator[None]:
    import igraph

    with _RNG_LOCK:
        igraph.set_random_number_generator(random.Random(seed))
        try:
            yield
        finally:
            igraph.set_random_number_generator(random)


def _relation_order(r: Relation) -> tuple[str, str, str, str, float]:
    return (r.source, str(r.type), r.target, r.evidence or "", r.weight)


def graph_hash(entities: Sequence[Entity], relations: Sequence[Relation]) -> str:
    """A digest of everything detection and reports read; equal digests mean equal communities."""
    digest = hashlib.sha1(ALGORITHM_VERSION.encode())
    for e in sorted(entities, key=lambda e: e.id):
        digest.update("\x00".join(("e", e.id, e.name, e.type, e.project, e.chunk_id or "", e.description)).encode())
    for r in sorted(relations, key=_relation_order):
        digest.update("\x00".join(("r", r.source, r.type, r.target, r.evidence or "", repr(r.weight))).encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class _EntityGraph:
    nodes: list[Entity]  # in id order; a node's position is its igraph vertex id
    graph: igraph.Graph
    typed: list[list[tuple[int, str]]]  # per node: (target node, relation type) of each relation it is source of

    @classmethod
    def build(cls, entities: Sequence[Entity], relations: Sequence[Relation]) -> _EntityGraph:
        """Nodes in id order, one edge per unordered pair in index order, its weight the sum over its relations."""
        nodes = sorted((e for e in entities if e.type not in HUB_TYPES), key=lambda e: e.id)
        index = {e.id: i for i, e in enumerate(nodes)}
        pairs: dict[tuple[int, int], float] = {}
        typed: list[list[tuple[int, str]]] = [[] for _ in nodes]
        # Sorted, because a float sum depends on the order of its terms and the weights must not.
        for r in sorted(relations, key=_relation_order):
            a, b = index.get(r.source), index.get(r.target)
            if a is None or b is None or a == b:
                continue
            typed[a].append((b, str(r.type)))
            key = (min(a, b), max(a, b))
            pairs[key] = pairs.get(key, 0.0) + RELATION_WEIGHTS.get(str(r.type), DEFAULT_RELATION_WEIGHT) * r.weight
        edges = sorted(p for p, w in pairs.items() if w > 0)
        import igraph

        graph = igraph.Graph(n=len(nodes), edges=edges)
        graph.es["weight"] = [pairs[p] for p in edges]
        return cls(nodes, graph, typed)


class DetectionTimeout(TimeoutError):
    """Community detection ran past its time bound; what it was doing is in the message."""


@dataclass(frozen=True)
class _Deadline:
    at: float
    seconds: float

    @classmethod
    def after(cls, seconds: float) -> _Deadline:
        return cls(time.monotonic() + seconds, seconds)

    def check(self, doing: str) -> None:
        """Raises:
        DetectionTimeout: the bound has passed."""
        if time.monotonic() > self.at:
            raise DetectionTimeout(f"community detection exceeded {self.seconds:g} s while {doing}")


def _groups(membership: Sequence[int]) -> list[list[int]]:
    """The partition a membership vector gives, whatever its labels: groups of vertex ids, largest first, then by
    lowest id."""
    groups: dict[int, list[int]] = {}
    for vertex, label in enumerate(membership):
        groups.setdefault(label, []).append(vertex)
    return sorted(groups.values(), key=lambda members: (-len(members), members[0]))


def _start(previous: Mapping[int, int], vertices: Sequence[int]) -> list[int] | None:
    """A membership vector for the graph of `vertices` (vertex ids of the whole graph, in its order): the vertices
    one previous community held (`previous`: vertex -> its community's number) together, every other vertex alone,
    labels given in vertex order; None when no vertex was in a previous community."""
    labels: dict[int, int] = {}
    membership = [
        labels.setdefault(previous.get(vertex, -1 - vertex), len(labels)) for vertex in vertices
    ]  # a vertex outside every community keys a label of its own
    return membership if any(vertex in previous for vertex in vertices) else None


def _previous(reports: Sequence[CommunityReport], level: int, position: Mapping[str, int]) -> dict[int, int]:
    """Vertex -> the number of the community of `level` that held its entity, for the entities still in the
    graph."""
    held: dict[int, int] = {}
    for number, report in enumerate(r for r in reports if r.level == level):
        held.update((position[m], number) for m in report.members if m in position)
    return held


def _partition(
    graph: igraph.Graph, deadline: _Deadline, *, start: list[int] | None = None, passes: int = LEIDEN_PASSES
) -> list[list[int]]:
    """Leiden (modularity) on a graph, one pass at a time from the last partition (the first from `start`, else
    from every vertex alone), until a pass leaves the partition unchanged or `passes` have run; groups as `_groups`
    orders them. Must run inside `_seeded`.

    Raises:
        DetectionTimeout: the deadline passed between two passes.
    """
    if graph.vcount() == 0:
        return []
    weights = graph.es["weight"] if graph.ecount() else None
    membership = start
    groups: list[list[int]] = []
    for done in range(passes):
        clusters = graph.community_leiden(
            objective_function="modularity", weights=weights, n_iterations=1, initial_membership=membership
        )
        membership = list(clusters.membership)
        previous, groups = groups, _groups(membership)
        if groups == previous:
            break
        deadline.check(f"partitioning {graph.vcount():,} entities and {graph.ecount():,} edges (pass {done + 1})")
    return groups


def detect_communities(
    entities: Sequence[Entity],
    relations: Sequence[Relation],
    *,
    seed: int = SEED,
    split_size: int = SPLIT_SIZE,
    max_seconds: float = DEFAULT_COMMUNITY_SECONDS,
    previous: Sequence[CommunityReport] = (),
) -> list[CommunityReport]:
    """Communities of the entity graph with a report each, for every community of at least `MIN_COMMUNITY_SIZE`
    entities: level 0, each followed by its level-1 parts when it has more than `split_size` entities.

    With the `previous` communities (those of the graph before a write), each level is partitioned starting from
    them instead of from every entity alone: Leiden then moves only what the write changed, so an edit leaves the
    rest of the communities, and their reports, as they were (from scratch, a one-function edit in a 100K-chunk
    index relabelled 1,112 of 1,860). The communities then depend on the previous ones as well as on the graph.

    Raises:
        DetectionTimeout: detection took longer than `max_seconds`.
    """
    deadline = _Deadline.after(max_seconds)
    built = _EntityGraph.build(entities, relations)
    position = {entity.id: i for i, entity in enumerate(built.nodes)}
    communities, parts = _previous(previous, 0, position), _previous(previous, 1, position)
    reports: list[CommunityReport] = []
    with _seeded(seed):
        start = _start(communities, range(built.graph.vcount()))
        for members in _partition(built.graph, deadline, start=start):
            if len(members) < MIN_COMMUNITY_SIZE:
                continue
            top = _report(built, members, level=0, parent=None)
            reports.append(top)
            if len(members) <= split_size:
                continue
            inner = built.graph.induced_subgraph(members)  # keeps the members' order: ids map back by position
            for part in _partition(inner, deadline, start=_start(parts, members)):
                if MIN_COMMUNITY_SIZE <= len(part) < len(members):
                    reports.append(_report(built, [members[i] for i in part], level=1, parent=top.id))
    return reports


def _report(built: _EntityGraph, members: Sequence[int], *, level: int, parent: str | None) -> CommunityReport:
    """The extractive report: central members by PageRank inside the community, what relates them, where they
    live, and the chunks that define the central ones."""
    members = sorted(members)
    nodes = built.nodes
    inner = built.graph.induced_subgraph(members)
    weights = inner.es["weight"] if inner.ecount() else None
    ranks = inner.pagerank(weights=weights, directed=False)
    # Rounded so that floating-point noise in the last digits can never reorder ties between runs.
    scored = sorted(
        ((round(float(s), 9), nodes[members[i]]) for i, s in enumerate(ranks)), key=lambda p: (-p[0], p[1].id)
    )
    inside = set(members)
    types = Counter(kind for m in members for target, kind in built.typed[m] if target in inside)
    ids = [nodes[m].id for m in members]
    projects = Counter(nodes[m].project for m in members)
    # What a community is about reads best in its own prose and module docstrings, so those lead; code follows.
    by_kind = sorted(scored, key=lambda p: not _summarises(p[1]))  # stable: centrality order within each
    chunks = list(dict.fromkeys(e.chunk_id for _, e in by_kind if e.chunk_id))[:TOP_CHUNKS]
    central = [
        CentralEntity(id=e.id, name=e.name, type=e.type, project=e.project, centrality=s)
        for s, e in scored[:TOP_ENTITIES]
    ]
    home = sorted(projects.items(), key=lambda p: (-p[1], p[0]))
    title = f"{home[0][0]}: " + ", ".join(dict.fromkeys(e.name for _, e in scored[:TITLE_ENTITIES]))
    relation_types = dict(sorted(types.items(), key=lambda p: (-p[1], p[0])))
    return CommunityReport(
        id=f"community:{level}:{stable_hash(*ids, length=12)}",
        level=level,
        parent=parent,
        size=len(members),
        title=title,
        entities=central,
        relation_types=relation_types,
        projects=dict(home),
        chunks=chunks,
        members=ids,
        text=_text(title, [e for _, e in scored[:REPORT_ENTITIES]], home, relation_types, len(members)),
    )


def _summarises(entity: Entity) -> bool:
    """Documents and sections are prose; a module's chunk is prose only when it opens with a docstring."""
    return entity.type in PROSE_TYPES or (entity.type == EntityType.MODULE.value and bool(entity.description))


def _text(
    title: str, central: Sequence[Entity], projects: Sequence[tuple[str, int]], types: Mapping[str, int], size: int
) -> str:
    """Title, then the central entities with what they are (the words a broad question shares with them), then
    where they live and how they relate."""
    described = "; ".join(
        f"{e.name} ({e.type})" + (f": {e.description[:DESCRIPTION_CHARS].strip()}" if e.description else "")
        for e in central
    )
    where = ", ".join(f"{name} {count}" for name, count in projects)
    how = ", ".join(f"{name} {count}" for name, count in types.items())
    return f"{title}\n{described}\n{size} entities in {where}. Relations: {how or 'none'}."


def report_key(report: CommunityReport) -> str:
    return stable_hash(report.model_dump_json(), length=24)


def sync_communities(
    writer: Writer,
    entities: Sequence[Entity] | None = None,
    relations: Sequence[Relation] | None = None,
    *,
    max_seconds: float = DEFAULT_COMMUNITY_SECONDS,
) -> CommunitySync:
    """Compute the communities again when the graph changed since the last sync, embed the reports that are new
    and drop the ones gone. An unchanged graph costs one read of it and a hash. Idempotent, so an interrupted run
    is finished by the next one.

    `entities` and `relations`, when given, must be the whole graph as read (a run reads it once for all passes).

    Raises:
        DetectionTimeout: detection took longer than `max_seconds`; the stored communities are left as they were.
    """
    if writer.embedder is None:
        return CommunitySync(recomputed=False, communities=0, embedded=0)
    index = open_communities(writer.catalog)
    if entities is None:
        entities = writer.entities()
    if relations is None:
        relations = writer.graph.relations(writer.tenant)
    digest = graph_hash(entities, relations)
    synced = index.graph_hash(writer.tenant)
    rows = writer.catalog.index_dir / COMMUNITY_ROWS_DIR
    if synced == digest:
        keep_report_rows(index, rows, writer.tenant)  # an index synced before the reader's files gets them here
        return CommunitySync(recomputed=False, communities=index.count(writer.tenant), embedded=0)
    held = index.stored(writer.tenant) if synced is not None else {}  # the communities a detection starts from
    previous = [report for report, _ in held.values()]
    found = detect_communities(entities, relations, max_seconds=max_seconds, previous=previous)
    wanted = {report_key(r): r for r in found}
    missing = [(key, wanted[key]) for key in sorted(set(wanted) - held.keys())]
    vectors, embedded = report_vectors(writer.embedder, [report.text for _, report in missing], held)
    withdraw(rows, writer.tenant)  # from here until the files of the table's new version are written, readers open it
    index.add(missing, vectors, writer.tenant)
    index.delete(sorted(held.keys() - set(wanted)))
    index.set_graph_hash(writer.tenant, digest)
    keep_report_rows(index, rows, writer.tenant)
    return CommunitySync(recomputed=True, communities=len(wanted), embedded=embedded)


def report_vectors(
    embedder: Embedder, texts: Sequence[str], held: Mapping[str, tuple[CommunityReport, np.ndarray]]
) -> tuple[np.ndarray, int]:
    """The texts' vectors and how many texts the model embedded: a stored report's vector where one has the same
    text (a community whose members changed beyond the ones its text names), the model's for the others, each
    distinct text embedded once."""
    if not texts:
        return np.zeros((0, embedder.dim), dtype=np.float32), 0
    known = {report.text: vector for report, vector in held.values()}
    fresh = sorted({text for text in texts if text not in known})
    if fresh:
        known.update(zip(fresh, embedder.embed(fresh), strict=True))
    return np.stack([np.asarray(known[text], dtype=np.float32) for text in texts]), len(fresh)
