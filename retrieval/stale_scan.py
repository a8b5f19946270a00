"""Every stale reference of an index: each project's documents and code read for prose naming code that is gone or
called otherwise (the checks of `stale_references`), for `status` counts and the `find_stale` tool. One scan per
index generation and reader, in the reader's pool, started by the first ask and remembered; at most SCAN_CHUNKS
chunks read, projects and files in name order."""

from __future__ import annotations

import logging
import threading
from collections import Counter
from dataclasses import dataclass, field

from trident.retrieval.evidence_flags import chunk_readers
from trident.retrieval.source_kinds import source_kind
from trident.retrieval.stale_references import stale_references
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.schema import DocumentKind

# About 4 s of reading and checking (0.18 ms a chunk, measured on 8,000 chunks of venv packages), in the background
# from the first status or find_stale of an index generation; the chunks past it are counted unchecked.
SCAN_CHUNKS = 20_000
BATCH = 500
PROSE_KINDS = frozenset({DocumentKind.CODE, DocumentKind.MARKDOWN, DocumentKind.TEXT})
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StaleFinding:
    project: str
    citation: str
    name: str
    detail: str
    see: str | None


@dataclass(frozen=True)
class StaleScan:
    findings: tuple[StaleFinding, ...]
    checked: int  # chunks read
    unchecked: int  # chunks past SCAN_CHUNKS

    def counts(self) -> dict[str, int]:
        """Stale references per project (projects with none left out)."""
        return dict(sorted(Counter(finding.project for finding in self.findings).items()))


@dataclass
class _Run:
    """One generation's scan: under way until `done` is set; `scan` None after it if the scan failed."""

    done: threading.Event = field(default_factory=threading.Event)
    scan: StaleScan | None = None


class IndexClosed(Exception):
    """The index was closed while a scan read it."""


def stale_scan(
    catalog: Catalog, directory: EntityDirectory, wait: float | None, views: GenerationViews
) -> StaleScan | None:
    """The index's stale references, from the scan of `directory`'s generation: the first ask starts it in the
    reader's pool (once per generation and reader: `views.state`), each ask waits for it at most `wait` seconds (None:
    until it ends). None while it is still under way (or when it failed: its error went to stderr, and the next ask
    scans again). The scan reads the generation's mapped chunk rows (at 100K chunks the scan of 20,000 took 0.8 s that
    way against 8.1 s through the graph store)."""
    state = views.state
    with state.scans_lock:
        run = state.scans.get(directory)
        started = run is None
        if run is None:
            run = state.scans[directory] = _Run()
    if started:
        state.submit(_run_scan, run, catalog, directory, views)
    if wait != 0:
        run.done.wait(wait)
    return run.scan


def scan_stale(catalog: Catalog, directory: EntityDirectory, views: GenerationViews) -> StaleScan:
    """The index's stale references, waiting for the scan of `directory`'s generation to end.

    Raises:
        RuntimeError: the scan failed (its error went to stderr).
    """
    scan = stale_scan(catalog, directory, None, views)
    if scan is None:
        raise RuntimeError("the stale-reference scan failed; its error is on stderr")
    return scan


def _run_scan(run: _Run, catalog: Catalog, directory: EntityDirectory, views: GenerationViews) -> None:
    try:
        run.scan = _scan(catalog, directory, views)
    except Exception:
        if not catalog.closed:
            log.exception("the stale-reference scan of %s failed", catalog.index_dir)  # to stderr
        else:  # the server stopped (or the caller closed the index) while the scan read it: nothing to count any more
            log.debug("the stale-reference scan of %s stopped: the index was closed", catalog.index_dir)
    finally:
        if run.scan is None:  # failed: forget it, so a later ask scans again
            with views.state.scans_lock:
                if views.state.scans.get(directory) is run:
                    del views.state.scans[directory]
        run.done.set()


def _scan(catalog: Catalog, directory: EntityDirectory, views: GenerationViews) -> StaleScan:
    manifest = catalog.manifest
    ids = [
        chunk_id
        for entry in sorted(manifest.documents.values(), key=lambda e: (e.project, e.path))
        if entry.kind in PROSE_KINDS
        for chunk_id in entry.chunk_ids
    ]
    findings: list[StaleFinding] = []
    read, citations = chunk_readers(catalog, views)  # the reader's mapped rows
    for start in range(0, min(len(ids), SCAN_CHUNKS), BATCH):
        if catalog.closed:
            raise IndexClosed(catalog.index_dir)
        batch = ids[start : min(start + BATCH, SCAN_CHUNKS)]
        found = read(batch)
        for chunk_id in batch:
            chunk = found.get(chunk_id)
            if chunk is None:
                continue
            for flag in stale_references(chunk, source_kind(chunk), directory, read, citations):
                findings.append(StaleFinding(chunk.project, chunk.citation, flag.name, flag.detail, flag.see))
    checked = min(len(ids), SCAN_CHUNKS)
    return StaleScan(tuple(findings), checked, len(ids) - checked)
