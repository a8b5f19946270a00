"""What the server's lifespan opens once and every tool reads: the catalog, the name directory, the job queue."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trident.embedding.background import BackgroundEmbedder
from trident.ingest.ingest_settings import IngestSettings
from trident.retrieval.reader import Reader
from trident.retrieval.search_engine import GenerationViews
from trident.retrieval.stale_references import project_names
from trident.server.job_records import JobRecords
from trident.server.jobs import IndexJobs
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.server.warmed import WarmedGenerations
from trident.store.catalog import Catalog, IndexLockedError
from trident.store.names.directory import EntityDirectory
from trident.store.protocols import Embedder

if TYPE_CHECKING:
    from trident.ingest.pipeline import IndexReport, Progress

log = logging.getLogger(__name__)
# An index job queued behind another process's writing waits this long for the lock before it fails.
LOCK_WAIT_SECONDS = 30 * 60.0
# Warm-up stops after the step under way; a step on a large index takes seconds, so this only caps a stuck one.
WARM_UP_STOP_SECONDS = 60.0
REWARM_POLL_SECONDS = 0.5  # how often the warm-up thread looks for a new generation (one stat of the manifest)
MODEL_WAIT_STEP_SECONDS = 0.1  # how often the warm-up, waiting for the model, checks whether the server stops
MODEL_STOP_SECONDS = 60.0  # how long a stopping server waits for a model load under way (a cold load: seconds)
MODEL_FIRST_SECONDS = 10.0  # how long the warm-up waits for the model before the walk's views (a slow load: no longer)


@dataclass
class TridentContext:
    catalog: Catalog
    settings: ServerSettings
    views: GenerationViews
    jobs: IndexJobs
    limits: IngestSettings  # what index runs, re-binding and the watcher read files with
    # What a write run waits on, once published, before it syncs (server/warmed.py): ended at once when the server
    # warms nothing up (TRIDENT_WARM_UP off), so no run waits.
    warmed: WarmedGenerations

    def reader(self) -> Reader:
        """The index as one request reads it, through this server's views."""
        return Reader(self.catalog, self.views)

    def directory(self) -> EntityDirectory:
        return self.views.directory(self.catalog)


def _runner(
    catalog: Catalog,
    stopping: threading.Event,
    limits: IngestSettings,
    readers_first: Callable[[int], object] | None = None,
) -> Callable[[Path, str, Progress], IndexReport]:
    """Index jobs write through a writer of the server's catalog, one block a job (queries see the job's run once
    it is published); while another writer (`trident index`, another server, a write tool) holds the lock, a job
    waits its turn instead of failing (until the server stops), and its stage says so."""

    def run(path: Path, project: str, progress: Progress) -> IndexReport:
        from trident.ingest.pipeline import index_folder  # the indexing side, imported by the first job
        from trident.ingest.vector_fill import Publishing

        def waiting(locked: IndexLockedError) -> None:
            if stopping.is_set():
                raise locked
            progress.stage("waiting for another writer", 0)

        with catalog.writer(wait_seconds=LOCK_WAIT_SECONDS, on_wait=waiting) as writer:
            return index_folder(
                writer,
                path,
                project,
                max_file_bytes=limits.max_file_bytes,
                progress=progress,
                community_seconds=limits.community_seconds,
                publishing=Publishing.from_settings(limits, before_syncs=True, readers_first=readers_first),
            )

    return run


def _keep_warm(
    catalog: Catalog, views: GenerationViews, stopping: threading.Event, done: WarmedGenerations | None = None
) -> None:
    """Warm up, then again each time the index moves to another generation (a watched edit, an index job, another
    process's run), so that the first questions after it find its views built instead of building them (at 100K
    chunks: seconds); `done` hears of each generation warmed. Until the server stops."""
    warmed: int | None = None
    try:
        while not stopping.is_set():
            generation: int | None
            try:
                generation = catalog.manifest.generation
            except Exception:  # the index is unreadable for now: a query will say why
                log.warning("could not read the index at %s to warm up", catalog.index_dir, exc_info=True)
                generation = warmed
            if generation != warmed:
                try:
                    _warm_up(catalog, views, stopping)
                finally:
                    if done is not None:
                        done.finished(generation)
                warmed = generation
            stopping.wait(REWARM_POLL_SECONDS)
    finally:
        if done is not None:
            done.stopped()


def _warm_up(catalog: Catalog, views: GenerationViews, stopping: threading.Event) -> None:
    """Build what the first questions need while the client is still starting: the model (loading in the
    background, see embedding/background.py; waited for a while only), then what graph answers read (entity names,
    the relations, the walk graph, the titles by word), then what the paths with a query vector read (the chunk
    vectors, the community and graph vectors, one query embedding). Each is built once per index generation anyway,
    so a query arriving meanwhile only waits for the step under way; on a large index, a search does not wait for
    the walk's views at all (`GenerationViews.walk_pending`)."""
    if stopping.is_set():
        return
    started = time.perf_counter()
    # The relations are read beside the directory: Kùzu reads them without holding the GIL for much of it (at 100K
    # chunks both took 2.1-2.5 s one after the other, 2.0-2.2 s side by side). The walk graph waits for both.
    beside = threading.Thread(target=_quietly, args=(views.relations, catalog), name="trident-warm-relations")
    walk: list[Callable[[], object]] = [
        beside.start,
        lambda: views.directory(catalog).mentioned_in("warm up"),  # the directory and its mention forms
        beside.join,
        lambda: views.graph(catalog),
        lambda: views.titles(catalog),  # loose name matching, which every walk reads
    ]
    vectors: list[Callable[[], object]] = []
    embedder = catalog.embedder
    if embedder is not None:
        # The model first (for a while): loading it beside the directory's build, both mostly Python, slowed both
        # (at 100K chunks the dense path answered 4.8-5.5 s after the spawn, now 2.6-2.9 s; the walk 0.6-1 s later).
        walk.insert(0, lambda: _model_loaded(embedder, stopping, MODEL_FIRST_SECONDS))
        vectors.append(lambda: _model_loaded(embedder, stopping))
        vectors.append(lambda: views.chunk_vectors(catalog))
        vectors.append(lambda: views.communities(catalog))
        vectors.append(lambda: views.vectors(catalog))
        vectors.append(lambda: embedder.embed_query("warm up"))
    try:
        with views.warming(catalog):
            done = _steps(walk, stopping)
        # Last, what only a hit's evidence checks read: the names its stale references are compared with.
        if not (done and _steps([*vectors, lambda: project_names(views.directory(catalog))], stopping)):
            return
    except Exception:  # a warm-up failure only means the first query builds these itself
        log.warning("warming up the index at %s failed", catalog.index_dir, exc_info=True)
        return
    finally:
        if beside.ident is not None:
            beside.join()  # the server closes the stores once the warm-up is done: nothing may read them after
    log.info("warmed up in %.1f s", time.perf_counter() - started)


def _steps(steps: list[Callable[[], object]], stopping: threading.Event) -> bool:
    """Run the steps in order until the server stops; whether all ran."""
    for step in steps:
        if stopping.is_set():
            return False
        step()
    return True


def _quietly(build: Callable[[Catalog], object], catalog: Catalog) -> None:
    """A view built beside the warm-up; a failure only means a query builds it itself."""
    try:
        build(catalog)
    except Exception:
        log.warning("warming up the index at %s failed", catalog.index_dir, exc_info=True)


def _model_loaded(embedder: Embedder, stopping: threading.Event, limit: float | None = None) -> None:
    """Start loading a model that loads in the background, and wait for it (until the server stops, or at most
    `limit` seconds)."""
    if isinstance(embedder, BackgroundEmbedder):
        embedder.start()
        deadline = None if limit is None else time.monotonic() + limit
        while not embedder.wait(MODEL_WAIT_STEP_SECONDS) and not stopping.is_set():
            if embedder.failed or (deadline is not None and time.monotonic() > deadline):
                return


def _model_settled(embedder: Embedder | None) -> None:
    """A model still loading when the server stops is waited for: it cannot be interrupted, and left in
    onnxruntime's code while the interpreter exits, it aborts the process (`terminate called without an active
    exception`)."""
    if isinstance(embedder, BackgroundEmbedder) and not embedder.settle(MODEL_STOP_SECONDS):
        log.warning("the embedding model was still loading %g s after the server stopped", MODEL_STOP_SECONDS)


def make_lifespan(
    settings: TridentSettings,
    open_catalog: Callable[[], Catalog],
    *,
    close_catalog: bool = True,
) -> Callable[[Any], Any]:
    """A lifespan that opens the stores once per server and (unless told not to) closes them on shutdown."""
    served, limits = settings.server, settings.ingest

    @asynccontextmanager
    async def lifespan(_server: Any) -> AsyncIterator[TridentContext]:
        catalog = open_catalog()
        stopping = threading.Event()
        warmed = WarmedGenerations()
        if not served.warm_up:
            warmed.stopped()
        jobs = IndexJobs(_runner(catalog, stopping, limits, warmed.wait_for), JobRecords(catalog.index_dir))
        if not served.read_only:
            for job in jobs.resume_orphans():
                log.warning(
                    "resuming index job %s of %s (left unfinished by a server that stopped)", job.resumed_from, job.path
                )
        views = GenerationViews(settings.retrieval)
        warming = threading.Thread(target=_keep_warm, args=(catalog, views, stopping, warmed), name="trident-warm-up")
        if served.warm_up:
            warming.start()
        log.info("trident serving %s (tenant %s)", catalog.index_dir, catalog.tenant)
        try:
            yield TridentContext(catalog=catalog, settings=served, views=views, jobs=jobs, limits=limits, warmed=warmed)
        finally:
            stopping.set()
            if warming.is_alive():
                warming.join(WARM_UP_STOP_SECONDS)
            _model_settled(catalog.embedder)
            jobs.shutdown()
            if warming.is_alive():  # the stores must outlive it: leave them to the process's exit
                log.warning(
                    "warm-up still busy %g s after the server stopped; not closing the index", WARM_UP_STOP_SECONDS
                )
            elif close_catalog:
                catalog.close()

    return lifespan
