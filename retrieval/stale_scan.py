"""Every stale reference of an index: each project's documents and code read for prose naming code that is gone or
called otherwise (the checks of `stale_references`), for `status` counts and the `find_stale` tool. One scan per
index generation, in a background thread started by the first ask, remembered; at most SCAN_CHUNKS chunks read,
projects and files in name order."""

from __future__ import annotations

import logging
import threading
import weakref
from collections import Counter
from dataclasses import dataclass, field
from functools import partial

from trident.retrieval.evidence_flags import chunk_readers
from trident.retrieval.source_kinds import source_kind
from trident.retrieval.stale_references import Definitions, stale_references
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.directory import EntityDirectory
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


_runs: weakref.WeakKeyDictionary[EntityDirectory, _Run] = weakref.WeakKeyDictionary()  # by generation's directory
_runs_lock = threading.Lock()


def stale_scan(
    catalog: Catalog, directory: EntityDirectory, wait: float | None = 0.0, views: GenerationViews | None = None
) -> StaleScan | None:
    """The index's stale references, from the scan of `directory`'s generation: the first ask starts it in a
    background thread (once per generation), each ask waits for it at most `wait` seconds (None: until it ends).
    None while it is still under way (or when it failed: its error went to stderr, and the next ask scans again).
    With a reader's `views`, a scan that starts reads the generation's mapped chunk rows (at 100K chunks the scan of
    20,000 took 0.8 s that way against 8.1 s through the graph store); the graph store when None."""
    with _runs_lock:
        run = _runs.get(directory)
        started = run is None
        if run is None:
            run = _runs[directory] = _Run()
    if started:
        chunks = partial(views.chunks, catalog) if views is not None else None
        thread = threading.Thread(
            target=_run_scan, args=(run, catalog, directory, chunks), name="trident-stale-scan", daemon=True
        )
        thread.start()
    if wait != 0:
        run.done.wait(wait)
    return run.scan


def scan_stale(catalog: Catalog, directory: EntityDirectory, views: GenerationViews | None = None) -> StaleScan:
    """The index's stale references, waiting for the scan of `directory`'s generation to end (`views` as for
    `stale_scan`).

    Raises:
        RuntimeError: the scan failed (its error went to stderr).
    """
    scan = stale_scan(catalog, directory, wait=None, views=views)
    if scan is None:
        raise RuntimeError("the stale-reference scan failed; its error is on stderr")
    return scan


def _run_scan(run: _Run, catalog: Catalog, directory: EntityDirectory, chunks: Definitions | None) -> None:
    try:
        run.scan = _scan(catalog, directory, chunks)
    except Exception:
        if not catalog.closed:
            raise  # to stderr, as any thread's error
        # The server stopped (or the caller closed the index) while the scan read it: nothing to count any more.
        log.debug("the stale-reference scan of %s stopped: the index was closed", catalog.index_dir)
    finally:
        if run.scan is None:  # failed: forget it, so a later ask scans again
            with _runs_lock:
                if _runs.get(directory) is run:
                    del _runs[directory]
        run.done.set()


def _scan(catalog: Catalog, directory: EntityDirectory, chunks: Definitions | None = None) -> StaleScan:
    manifest = catalog.manifest
    ids = [
        chunk_id
        for entry in sorted(manifest.documents.values(), key=lambda e: (e.project, e.path))
        if entry.kind in PROSE_KINDS
        for chunk_id in entry.chunk_ids
    ]
    findings: list[StaleFinding] = []
    read, citations = chunk_readers(catalog, chunks)  # one look at the current generation's engines, not one a chunk
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
