"""Every stale reference of an index: each project's documents and code read for prose naming code that is gone or
called otherwise (the checks of `stale_references`), for `status` counts and the `find_stale` tool. One scan per
index generation, remembered; at most SCAN_CHUNKS chunks read, projects and files in name order."""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass

from trident.retrieval.source_kinds import source_kind
from trident.retrieval.stale_references import stale_references
from trident.store.catalog import Catalog
from trident.store.directory import EntityDirectory
from trident.store.schema import DocumentKind

# About 4 s of reading and checking (0.18 ms a chunk, measured on 8,000 chunks of venv packages), paid by the first
# status or find_stale of an index generation; the chunks past it are counted unchecked.
SCAN_CHUNKS = 20_000
BATCH = 500
PROSE_KINDS = frozenset({DocumentKind.CODE, DocumentKind.MARKDOWN, DocumentKind.TEXT})


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


_scans: weakref.WeakKeyDictionary[EntityDirectory, StaleScan] = weakref.WeakKeyDictionary()


def scan_stale(catalog: Catalog, directory: EntityDirectory) -> StaleScan:
    """The index's stale references (the scan of `directory`'s generation, made on first use)."""
    scan = _scans.get(directory)
    if scan is None:
        scan = _scans[directory] = _scan(catalog, directory)
    return scan


def _scan(catalog: Catalog, directory: EntityDirectory) -> StaleScan:
    manifest = catalog.manifest
    ids = [
        chunk_id
        for entry in sorted(manifest.documents.values(), key=lambda e: (e.project, e.path))
        if entry.kind in PROSE_KINDS
        for chunk_id in entry.chunk_ids
    ]
    findings: list[StaleFinding] = []
    graph = catalog.graph  # one look at the current generation's engines, not one per chunk
    for start in range(0, min(len(ids), SCAN_CHUNKS), BATCH):
        batch = ids[start : min(start + BATCH, SCAN_CHUNKS)]
        chunks = graph.get_chunks(batch)
        for chunk_id in batch:
            chunk = chunks.get(chunk_id)
            if chunk is None:
                continue
            for flag in stale_references(chunk, source_kind(chunk), directory, graph.get_chunks, graph.citations):
                findings.append(StaleFinding(chunk.project, chunk.citation, flag.name, flag.detail, flag.see))
    checked = min(len(ids), SCAN_CHUNKS)
    return StaleScan(tuple(findings), checked, len(ids) - checked)
