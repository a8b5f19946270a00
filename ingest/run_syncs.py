"""The passes over the whole graph after an index run's writes: linking (pending references, shared names), the
vectors a large run left out, then the graph-vector and community syncs. A run alone does them all at its end
(`link_and_sync`); the runs of one writer block indexing several folders (`trident index a b c`) each link, and
sync once after the last (`BlockSyncs`): the syncs diff the whole graph against their stores, so one sync after
the last run leaves them as a sync after every run would, without redoing them per folder."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from trident.host.gc_pause import freeze_survivors
from trident.ingest.community_reports import DetectionTimeout, sync_communities
from trident.ingest.documents import graph_holds, graph_returns
from trident.ingest.graph_vector_sync import sync_graph_vectors
from trident.ingest.ingest_settings import DEFAULT_COMMUNITY_SECONDS
from trident.ingest.linking import forget_sync, give_up_sync, link_shared_names, mark_synced, relink
from trident.ingest.progress import Progress
from trident.ingest.vector_fill import Publishing, fill_vectors
from trident.store.catalog import Writer
from trident.store.manifest import Manifest
from trident.store.schema import Entity, Relation, RelationType
from trident.store.sync_state import DerivedStore, syncs_current

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RunEnd:
    """What the passes after a run's writes need to know of it."""

    wrote: bool
    was_current: bool  # the syncs were complete when the run began
    appeared: list[Entity]  # entities whose names the index did not have before the run
    batches: list[list[str]]  # the documents of each write batch, in order
    progress: Progress
    community_seconds: float
    publishing: Publishing


@dataclass(frozen=True)
class Linked:
    """The graph as the linking left it, which the syncs read, and the manifest read along with it."""

    entities: list[Entity]
    relations: list[Relation]
    read_with: Manifest
    embedded: int = 0  # the chunks whose vectors the linking filled in


def link_and_sync(writer: Writer, run: RunEnd) -> int:
    """The passes over the whole graph after a run's writes, each skipped when it has nothing to do. Between the
    linking and the syncs (which read chunk vectors), the vectors a large run left out are filled in, after the
    lexical and graph engines are published (`fill_vectors`); with `Publishing.before_syncs`, all the run wrote is
    published before the syncs.

    When the syncs were current as the run began, only what this run wrote can need linking or syncing; else an
    earlier run was cut short or another writer changed the graph, and everything is redone. The entities and
    relations are read once for all passes (again only if linking wrote). Community detection past its bound is
    given up, logged and recorded: the run still publishes, without new communities. Returns the chunks whose
    vectors were filled in.
    """
    if run.was_current and not run.wrote:
        if not syncs_current(writer):  # only the skipped files were recorded: the graph is what was synced
            mark_synced(writer, writer.manifest)
        return 0
    linked = link(writer, run)
    sync(writer, linked, run.progress, run.community_seconds)
    return linked.embedded


def link(writer: Writer, run: RunEnd) -> Linked:
    """Link what the run wrote (everything when `run.was_current` is false), fill in the vectors it left out, and
    publish first if its `publishing` says so; the graph read, for the syncs."""
    run.progress.stage("linking", 0)
    read_with = writer.manifest
    entities = writer.entities()
    bases = writer.graph.links(writer.tenant, RelationType.INHERITS)
    returns = graph_returns(writer.graph, writer.tenant)
    holds = graph_holds(writer.graph, writer.manifest, writer.tenant)
    relink(writer, entities, run.appeared if run.was_current else None, bases, returns, holds)
    relations = writer.graph.relations(writer.tenant)
    if link_shared_names(writer, entities, relations):
        read_with, entities, relations = writer.manifest, writer.entities(), writer.graph.relations(writer.tenant)
    freeze_survivors()  # the graph as read, which every pass after this reads
    if writer.embedder is None:
        return Linked(entities, relations, read_with)
    # The vectors a large run left out (or one cut short left), which the syncs read.
    embedded = fill_vectors(writer, run.batches, run.publishing, run.progress)
    if run.publishing.before_syncs:  # the syncs read the graph and write only their own stores
        writer.publish_now()
        read_with = writer.manifest  # the generation just published, which the sync stamp then names
        if run.publishing.readers_first is not None:
            run.publishing.readers_first(read_with.generation)
    return Linked(entities, relations, read_with, embedded)


def sync(writer: Writer, linked: Linked, progress: Progress, community_seconds: float) -> None:
    """Bring the graph vectors and communities in step with the `linked` graph and record that they are; without
    an embedder nothing can be embedded, and the syncs stay due."""
    if writer.embedder is None:
        return
    forget_sync(writer)
    progress.stage("graph vectors", 0)
    sync_graph_vectors(writer, linked.entities, linked.relations)
    progress.stage("communities", 0)
    try:
        sync_communities(writer, linked.entities, linked.relations, max_seconds=community_seconds)
    except DetectionTimeout as exc:
        log.warning(
            "%s; publishing without new communities (status lists them as stale, the next index run tries "
            "again; TRIDENT_COMMUNITY_SECONDS raises the bound)",
            exc,
        )
        give_up_sync(writer, DerivedStore.COMMUNITIES, str(exc))
        return
    mark_synced(writer, linked.read_with)


class BlockSyncs:
    """The syncs of several runs in one writer block, made once after the last (`finish`): each run links what it
    wrote (pending references of the next folders may resolve to it) and fills in its vectors as it would alone;
    the graph vectors and communities, passes over the whole graph, wait for the block's last run. At 25 folders and
    9,254 chunks they were a tenth of the run (docs/benchmarks.md, nineteenth #15 step).

    If the block ends by an error before `finish`, it is dropped (or, where a large run published on its way, left
    with its syncs due, which `status` reports and the next run makes)."""

    def __init__(self, community_seconds: float = DEFAULT_COMMUNITY_SECONDS) -> None:
        self.community_seconds = community_seconds
        self._linked: Linked | None = None  # the graph as the last run that linked left it

    def add(self, writer: Writer, run: RunEnd) -> int:
        """Link after one run of the block (the same signature as `link_and_sync`). Once a run of the block has
        linked, the links are current for the next: each links only what it wrote."""
        current = run.was_current or self._linked is not None
        if current and not run.wrote:
            return 0  # nothing to link; what to sync is decided by `finish`
        self._linked = link(writer, replace(run, was_current=current))
        return self._linked.embedded

    def finish(self, writer: Writer, progress: Progress) -> None:
        """Sync after the block's last run (or, when no run wrote and the syncs were current, record that they
        still are, as a run alone does)."""
        if self._linked is None:
            if not syncs_current(writer):
                mark_synced(writer, writer.manifest)
            return
        sync(writer, self._linked, progress, self.community_seconds)
