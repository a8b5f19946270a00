"""What the server's lifespan opens once and every tool reads: the catalog, the name directory, the job queue."""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trident.ingest.pipeline import IndexReport, Progress, index_folder
from trident.server.settings import ServerSettings
from trident.store.catalog import Catalog, IndexLockedError, write_lock
from trident.store.directory import EntityDirectory
from trident.store.settings import IngestSettings
from trident.tools.jobs import IndexJobs
from trident.tools.relation_index import RelationIndex
from trident.tools.search import EntityNames

log = logging.getLogger(__name__)
# An index job queued behind another process's writing waits this long for the lock before it fails.
LOCK_WAIT_SECONDS = 30 * 60.0


@dataclass
class TridentContext:
    catalog: Catalog
    settings: ServerSettings
    names: EntityNames
    jobs: IndexJobs

    def directory(self) -> EntityDirectory:
        return self.names.get(self.catalog)

    def relations(self) -> RelationIndex:
        return self.names.relations(self.catalog)


def _runner(catalog: Catalog, stopping: threading.Event) -> Callable[[Path, str, Progress], IndexReport]:
    """Index jobs write under the write lock; while another process (`trident index`, another server) holds it,
    a job waits its turn instead of failing (until the server stops), and its stage says so."""

    def run(path: Path, project: str, progress: Progress) -> IndexReport:
        def waiting(locked: IndexLockedError) -> None:
            if stopping.is_set():
                raise locked
            progress.stage("waiting for another writer", 0)

        with write_lock(catalog.index_dir, wait_seconds=LOCK_WAIT_SECONDS, on_wait=waiting):
            return index_folder(
                catalog, path, project, max_file_bytes=IngestSettings().max_file_bytes, progress=progress
            )

    return run


def make_lifespan(
    settings: ServerSettings, open_catalog: Callable[[], Catalog], *, close_catalog: bool = True
) -> Callable[[Any], Any]:
    """A lifespan that opens the stores once per server and (unless told not to) closes them on shutdown."""

    @asynccontextmanager
    async def lifespan(_server: Any) -> AsyncIterator[TridentContext]:
        catalog = open_catalog()
        stopping = threading.Event()
        jobs = IndexJobs(_runner(catalog, stopping))
        log.info("trident serving %s (tenant %s)", catalog.index_dir, catalog.tenant)
        try:
            yield TridentContext(catalog=catalog, settings=settings, names=EntityNames(), jobs=jobs)
        finally:
            stopping.set()
            jobs.shutdown()
            if close_catalog:
                catalog.close()

    return lifespan
