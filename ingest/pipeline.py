"""Indexing runs: folder or BEIR collection -> parsed documents -> resolved graph -> a writer of the index,
incrementally. The caller opens the writer (`with catalog.writer() as w:`); its block ending publishes the run."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from trident.host.gc_pause import freeze_survivors, frozen_heap
from trident.host.git_state import git_state
from trident.ingest.beir import iter_corpus, parse_beir_document, shared_titles
from trident.ingest.documents import (
    Parsed,
    add_stated_of,
    bases_of,
    dedupe,
    graph_holds,
    graph_returns,
    pending_returns,
    project_entity,
    resolve_document,
    returns_of,
    waiting_open,
)
from trident.ingest.ingest_settings import DEFAULT_COMMUNITY_SECONDS
from trident.ingest.kept_resolver import KeptResolver
from trident.ingest.linking import Resolver, resolution_key
from trident.ingest.model import ELEMENTS_MARK
from trident.ingest.parsing import LocalParser, Parser
from trident.ingest.progress import Progress, Silent
from trident.ingest.rebinding import find_dependants, passed_by, rebind_documents, with_passed
from trident.ingest.run_syncs import BlockSyncs, RunEnd, link_and_sync
from trident.ingest.vector_fill import Publishing
from trident.ingest.walker import SourceFile, walk
from trident.store.catalog import DocumentWrite, Writer
from trident.store.manifest import DocumentEntry, ProjectSource, SkippedFile
from trident.store.schema import (
    Document,
    DocumentKind,
    Entity,
    Relation,
    RelationType,
    document_id,
    stable_hash,
)
from trident.store.sync_state import syncs_current

WRITE_BATCH_CHUNKS = 512


@dataclass
class IndexReport:
    project: str
    files_seen: int = 0
    indexed: int = 0
    unchanged: int = 0
    deleted: int = 0
    chunks: int = 0  # written (with their vectors, or waiting for them)
    embedded: int = 0  # embedded after the run's writes: its own chunks a large run published first, and any an
    # earlier run cut short left waiting
    entities: int = 0
    relations: int = 0
    rebound: int = 0  # unchanged documents (this or other projects) whose references were bound again
    skipped: list[SkippedFile] = field(default_factory=list)
    seconds: float = 0.0


@frozen_heap()
def index_folder(
    writer: Writer,
    root: Path,
    project: str,
    *,
    max_file_bytes: int,
    progress: Progress | None = None,
    community_seconds: float = DEFAULT_COMMUNITY_SECONDS,
    publishing: Publishing | None = None,
    parser: Parser | None = None,
    kept: KeptResolver | None = None,
    syncs: BlockSyncs | None = None,
) -> IndexReport:
    """Index a folder as one project: new and changed files are (re)written, deleted files removed. A run that
    finds nothing changed, with the syncs of earlier runs complete, writes nothing and reads no graph.
    `community_seconds` bounds community detection (past it the run publishes without new communities);
    `publishing` says when a large run publishes its lexical and graph engines before its vectors; `parser` where
    the changed files are parsed (default: here); `kept`, a long-lived writer's resolver, patched for this run instead
    of built afresh (see ingest/kept_resolver.py); `syncs`, when the block indexes other folders too: the run links
    and leaves the graph-vector and community syncs to `syncs.finish`, after the block's last run."""
    progress = progress or Silent()
    started = time.perf_counter()
    report = IndexReport(project)
    began = _source(root)
    walked = walk(root, max_file_bytes)
    report.files_seen = len(walked.files)
    report.skipped = [SkippedFile(path=s.rel, reason=s.reason) for s in walked.skipped]
    known = writer.manifest.project_documents(project)
    seen = {document_id(project, f.rel) for f in walked.files}
    removed = sorted(set(known) - seen)
    changed = [f for f in walked.files if _changed(known, project, f)]
    report.unchanged = len(walked.files) - len(changed)
    current = syncs_current(writer)
    progress.stage("parsing", len(changed))
    parsed: list[Parsed] = []
    for one in (parser or LocalParser()).parse(project, changed, writer.tenant):
        parsed.append(one)
        progress.advance()
    writer.record_root(project, str(root.resolve()))
    _record_source(writer, project, began, walked.files, known, wrote=bool(parsed or removed))
    rewritten = {p.document.id for p in parsed} | set(removed)
    dependants, passed_before = find_dependants(writer, rewritten), passed_by(writer, rewritten)
    if removed:
        writer.delete(removed)
    report.deleted = len(removed)
    publishing = publishing or Publishing()
    written = _write(writer, project, parsed, report, progress, publishing, kept)
    freeze_survivors()  # the resolver, kept to the run's end
    dependants = with_passed(writer, rewritten, dependants, passed_before)
    report.rebound = rebind_documents(
        writer, [d for d in dependants if d not in removed], max_file_bytes, written.resolver
    )
    writer.record_skipped(project, report.skipped)
    end = RunEnd(
        bool(parsed or removed), current, written.appeared, written.batches, progress, community_seconds, publishing
    )
    report.embedded = (syncs.add if syncs is not None else link_and_sync)(writer, end)
    writer.tidy_generations()
    report.seconds = time.perf_counter() - started
    return report


def index_beir(
    writer: Writer,
    folder: Path,
    project: str,
    *,
    progress: Progress | None = None,
    community_seconds: float = DEFAULT_COMMUNITY_SECONDS,
    publishing: Publishing | None = None,
    syncs: BlockSyncs | None = None,
) -> IndexReport:
    """Index a BEIR collection (corpus.jsonl) as one project; each passage is a document (`syncs` as for
    `index_folder`)."""
    progress = progress or Silent()
    started = time.perf_counter()
    report = IndexReport(project)
    known = writer.manifest.project_documents(project)
    current = syncs_current(writer)
    parsed: list[Parsed] = []
    seen: set[str] = set()
    shared = shared_titles(folder)
    for beir_doc in iter_corpus(folder):
        report.files_seen += 1
        content_hash = stable_hash(beir_doc.title, beir_doc.text, length=40)
        doc_id = document_id(project, beir_doc.id)
        seen.add(doc_id)
        if doc_id in known and known[doc_id].content_hash == content_hash:
            continue
        doc = Document(
            id=doc_id,
            project=project,
            path=beir_doc.id,
            kind=DocumentKind.PASSAGE,
            content_hash=content_hash,
            tenant=writer.tenant,
        )
        shared_title = beir_doc.title.strip() in shared
        parsed.append(Parsed(doc, parse_beir_document(project, beir_doc, writer.tenant, shared_title=shared_title)))
    report.unchanged = report.files_seen - len(parsed)
    removed = sorted(set(known) - seen)
    if removed:
        writer.delete(removed)
    report.deleted = len(removed)
    publishing = publishing or Publishing()
    written = _write(writer, project, parsed, report, progress, publishing)
    end = RunEnd(
        bool(parsed or removed), current, written.appeared, written.batches, progress, community_seconds, publishing
    )
    report.embedded = (syncs.add if syncs is not None else link_and_sync)(writer, end)
    writer.tidy_generations()
    report.seconds = time.perf_counter() - started
    return report


def _source(root: Path) -> ProjectSource:
    """What a run indexes from, taken before it reads a file (a file changed during the run then shows as changed
    since): the time and the folder's git HEAD."""
    git = git_state(root)
    began = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return ProjectSource(indexed_at=began, commit=git.commit, branch=git.branch)


def _record_source(
    writer: Writer,
    project: str,
    source: ProjectSource,
    files: list[SourceFile],
    known: dict[str, DocumentEntry],
    *,
    wrote: bool,
) -> None:
    """Record what the run indexed from when it writes the project, or when the commit or branch moved (or none is
    recorded yet): a run that found nothing changed at the same commit still writes nothing. The files it found
    unchanged get their size and modification time of now, so a check of them needs no hash."""
    before = writer.manifest.sources.get(project)
    if not wrote and before is not None and (before.commit, before.branch) == (source.commit, source.branch):
        return
    stats: dict[str, tuple[int, int]] = {}
    for f in files:
        doc_id = document_id(project, f.rel)
        entry = known.get(doc_id)
        now = (f.size, f.mtime_ns)
        if entry is not None and entry.content_hash == f.content_hash and (entry.size, entry.mtime_ns) != now:
            stats[doc_id] = now
    writer.record_source(project, source, stats)


def _changed(known: dict, project: str, source: SourceFile) -> bool:
    entry = known.get(document_id(project, source.rel))
    return entry is None or entry.content_hash != source.content_hash


@dataclass(frozen=True)
class _Written:
    appeared: list[Entity]  # entities whose names the index did not have before
    resolver: Resolver | None  # what the run bound against: the index as written (None when nothing was)
    batches: list[list[str]] = field(default_factory=list)  # the documents of each write batch, in order


def _run_resolver(
    writer: Writer, parsed: list[Parsed], before: list[Entity], proj: Entity, kept: KeptResolver
) -> Resolver:
    """The resolver of a run: the entities of the index but the rewritten documents' and this run's, with the class
    bases and stated return types of both (which member lookups walk, so this run's are added before any)."""
    replaced = {p.document.id for p in parsed}
    replaced_ids = {e.id for e in before if e.doc_id in replaced}
    existing = [e for e in before if e.doc_id not in replaced]
    new_entities = dedupe(e for p in parsed for e in p.extraction.entities)
    graph_bases = [b for b in writer.graph.links(writer.tenant, RelationType.INHERITS) if b[0] not in replaced_ids]
    stated = graph_returns(writer.graph, writer.tenant)
    kept_returns = [r for r in stated if r[0].removesuffix(ELEMENTS_MARK) not in replaced_ids]
    kept_returns += pending_returns(writer.manifest, replaced)
    resolver = kept.resolver(existing, [*new_entities, proj], graph_bases, kept_returns)
    bases, open_ = bases_of(parsed, resolver)
    resolver.code.add_bases(bases)
    resolver.code.add_open([*open_, *waiting_open(writer.manifest, replaced)])
    resolver.code.add_returns(returns_of(parsed, resolver))
    resolver.code.add_holds(graph_holds(writer.graph, writer.manifest, writer.tenant, replaced_ids, replaced))
    add_stated_of(parsed, resolver)
    return resolver


def _write(
    writer: Writer,
    project: str,
    parsed: list[Parsed],
    report: IndexReport,
    progress: Progress,
    publishing: Publishing,
    kept: KeptResolver | None = None,
) -> _Written:
    """Resolve references and mentions over the whole run, then write in batches of about 512 chunks; returns
    the entities whose names the index did not have before (what pending references may now resolve to), the
    resolver, which knows the index as written, and the batches. A run with many chunks writes them without vectors
    (the lexical and graph engines only), for `fill_vectors` to embed once they are published."""
    if not parsed:
        return _Written([], None)
    replaced = {p.document.id for p in parsed}
    before = writer.entities()
    existing = [e for e in before if e.doc_id not in replaced]
    proj = project_entity(project, writer.tenant)
    resolver = _run_resolver(writer, parsed, before, proj, kept or KeptResolver())
    writes = [resolve_document(p, resolver, proj) for p in parsed]
    report.indexed = len(writes)
    report.chunks = sum(len(w.chunks) for w in writes)
    report.entities = sum(len(w.entities) for w in writes)
    report.relations = sum(len(w.relations) for w in writes)
    shared = [proj, *dedupe(e for p in parsed for e in p.extraction.entities if e.doc_id is None)]
    embed = not publishing.progressive(report.chunks)
    progress.stage("embedding" if embed else "writing", report.chunks)
    # Kùzu can only draw an edge between nodes that exist, so edges into a later batch wait until the end.
    present = {e.id for e in existing} | {e.id for e in shared}
    deferred: list[Relation] = []
    batch: list[DocumentWrite] = []
    batches: list[list[str]] = []
    for i, write in enumerate(writes):
        batch.append(write)
        if sum(len(w.chunks) for w in batch) >= WRITE_BATCH_CHUNKS or i == len(writes) - 1:
            present.update(e.id for w in batch for e in w.entities)
            for w in batch:
                ready = [r for r in w.relations if r.source in present and r.target in present]
                deferred.extend(r for r in w.relations if r.source not in present or r.target not in present)
                w.relations = ready
            writer.write(batch, shared, embed=embed)
            batches.append([w.document.id for w in batch])
            progress.advance(sum(len(w.chunks) for w in batch))
            batch = []
    if deferred:
        writer.add_relations(deferred, {})
    # An entity the graph held before as it is now cannot make a pending reference resolve (ids are unique, so one
    # lookup by id instead of a key made for every entity of the index: 58K tuples a run at 100K chunks).
    held = {e.id: e for e in before}
    appeared = [
        e
        for e in dedupe([*shared, *(e for w in writes for e in w.entities)])
        if e.id not in held or resolution_key(held[e.id]) != resolution_key(e)
    ]
    return _Written(appeared, resolver, batches)
