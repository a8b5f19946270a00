"""Indexing runs: folder or BEIR collection -> parsed documents -> resolved graph -> the catalog, incrementally."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from trident.ingest.beir import iter_corpus, parse_beir_document
from trident.ingest.code import SUPPORTED_LANGUAGES, parse_code
from trident.ingest.code_index import CodeIndex
from trident.ingest.communities import DetectionTimeout, sync_communities
from trident.ingest.graph_vectors import sync_graph_vectors
from trident.ingest.linker import mention_relations
from trident.ingest.linking import (
    Resolver,
    forget_sync,
    give_up_sync,
    link_shared_names,
    mark_synced,
    reference_relation,
    relink,
    resolution_key,
    syncing,
    tidy_generations,
)
from trident.ingest.markdown import parse_markdown
from trident.ingest.model import Extraction, Reference
from trident.ingest.text import parse_text
from trident.ingest.walker import SourceFile, read_source, walk
from trident.store.catalog import Catalog, DocumentWrite
from trident.store.directory import EntityDirectory
from trident.store.manifest import PendingReference, SkippedFile
from trident.store.schema import (
    Document,
    DocumentKind,
    Entity,
    EntityType,
    Relation,
    RelationType,
    document_id,
    entity_id,
    stable_hash,
)
from trident.store.settings import DEFAULT_COMMUNITY_SECONDS
from trident.store.sync_state import DerivedStore, syncs_current

log = logging.getLogger(__name__)

WRITE_BATCH_CHUNKS = 512
# Relations read to find the documents pointing into changed ones; far above any real fan-in, it only bounds a read.
MAX_DEPENDANT_EDGES = 1_000_000
OWNER_TYPES = (EntityType.MODULE, EntityType.DOCUMENT, EntityType.CONCEPT)


class Progress(Protocol):
    def stage(self, name: str, total: int) -> None: ...

    def advance(self, n: int = 1) -> None: ...


class _Silent:
    def stage(self, name: str, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass


@dataclass
class IndexReport:
    project: str
    files_seen: int = 0
    indexed: int = 0
    unchanged: int = 0
    deleted: int = 0
    chunks: int = 0
    entities: int = 0
    relations: int = 0
    rebound: int = 0  # unchanged documents (this or other projects) whose references were bound again
    skipped: list[SkippedFile] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class _Parsed:
    document: Document
    extraction: Extraction


def project_entity(project: str, tenant: str) -> Entity:
    return Entity(
        id=entity_id(EntityType.PROJECT, project, project),
        name=project,
        type=EntityType.PROJECT,
        project=project,
        qualified_name=project,
        tenant=tenant,
        aliases=(f"{project}-service", f"{project} service", f"{project}_service"),
        description=f"The {project} project",
    )


def _parse(project: str, source: SourceFile, tenant: str) -> _Parsed:
    """A project's file as a document and what its parser extracts."""
    doc = Document(
        id=document_id(project, source.rel),
        project=project,
        path=source.rel,
        kind=source.kind,
        language=source.language,
        content_hash=source.content_hash,
        tenant=tenant,
    )
    return _Parsed(doc, parse_source(project, source, tenant))


def parse_source(project: str, source: SourceFile, tenant: str) -> Extraction:
    """Pick the parser for a file by its kind and language."""
    doc_id = document_id(project, source.rel)
    if source.kind == DocumentKind.CODE and source.language in SUPPORTED_LANGUAGES:
        return parse_code(project, source.rel, source.text, source.language, doc_id, tenant)
    if source.kind == DocumentKind.MARKDOWN:
        return parse_markdown(project, source.rel, source.text, doc_id, tenant)
    return parse_text(project, source.rel, source.text, doc_id, source.kind, tenant)


def index_folder(
    catalog: Catalog,
    root: Path,
    project: str,
    *,
    max_file_bytes: int,
    progress: Progress | None = None,
    community_seconds: float = DEFAULT_COMMUNITY_SECONDS,
) -> IndexReport:
    """Index a folder as one project: new and changed files are (re)written, deleted files removed. A run that
    finds nothing changed, with the syncs of earlier runs complete, writes nothing and reads no graph.
    `community_seconds` bounds community detection (past it the run publishes without new communities)."""
    progress = progress or _Silent()
    started = time.perf_counter()
    report = IndexReport(project)
    walked = walk(root, max_file_bytes)
    report.files_seen = len(walked.files)
    report.skipped = [SkippedFile(path=s.rel, reason=s.reason) for s in walked.skipped]
    known = catalog.manifest.project_documents(project)
    seen = {document_id(project, f.rel) for f in walked.files}
    removed = sorted(set(known) - seen)
    changed = [f for f in walked.files if _changed(known, project, f)]
    report.unchanged = len(walked.files) - len(changed)
    current = syncs_current(catalog)
    progress.stage("parsing", len(changed))
    parsed: list[_Parsed] = []
    for source in changed:
        parsed.append(_parse(project, source, catalog.tenant))
        progress.advance()
    catalog.record_root(project, str(root.resolve()))
    dependants = _dependants(catalog, {p.document.id for p in parsed} | set(removed))
    if removed:
        catalog.delete(removed)
    report.deleted = len(removed)
    written = _write(catalog, project, parsed, report, progress)
    report.rebound = _rebind(catalog, [d for d in dependants if d not in removed], max_file_bytes, written.resolver)
    catalog.record_skipped(project, report.skipped)
    _link_and_sync(catalog, _Run(bool(parsed or removed), current, written.appeared, progress, community_seconds))
    tidy_generations(catalog)
    report.seconds = time.perf_counter() - started
    return report


def index_beir(
    catalog: Catalog,
    folder: Path,
    project: str,
    *,
    progress: Progress | None = None,
    community_seconds: float = DEFAULT_COMMUNITY_SECONDS,
) -> IndexReport:
    """Index a BEIR collection (corpus.jsonl) as one project; each passage is a document."""
    progress = progress or _Silent()
    started = time.perf_counter()
    report = IndexReport(project)
    known = catalog.manifest.project_documents(project)
    current = syncs_current(catalog)
    parsed: list[_Parsed] = []
    seen: set[str] = set()
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
            tenant=catalog.tenant,
        )
        parsed.append(_Parsed(doc, parse_beir_document(project, beir_doc, catalog.tenant)))
    report.unchanged = report.files_seen - len(parsed)
    removed = sorted(set(known) - seen)
    if removed:
        catalog.delete(removed)
    report.deleted = len(removed)
    appeared = _write(catalog, project, parsed, report, progress).appeared
    _link_and_sync(catalog, _Run(bool(parsed or removed), current, appeared, progress, community_seconds))
    tidy_generations(catalog)
    report.seconds = time.perf_counter() - started
    return report


def _changed(known: dict, project: str, source: SourceFile) -> bool:
    entry = known.get(document_id(project, source.rel))
    return entry is None or entry.content_hash != source.content_hash


@dataclass(frozen=True)
class _Written:
    appeared: list[Entity]  # entities whose names the index did not have before
    resolver: Resolver | None  # what the run bound against: the index as written (None when nothing was)


def _write(catalog: Catalog, project: str, parsed: list[_Parsed], report: IndexReport, progress: Progress) -> _Written:
    """Resolve references and mentions over the whole run, then write in batches of about 512 chunks; returns
    the entities whose names the index did not have before (what pending references may now resolve to) and the
    resolver, which knows the index as written."""
    if not parsed:
        return _Written([], None)
    replaced = {p.document.id for p in parsed}
    new_entities = _dedupe(e for p in parsed for e in p.extraction.entities)
    before = catalog.entities()
    existing = [e for e in before if e.doc_id not in replaced]
    proj = project_entity(project, catalog.tenant)
    everything = [*existing, *new_entities, proj]
    replaced_ids = {e.id for e in before if e.doc_id in replaced}
    graph_bases = [b for b in catalog.graph.links(catalog.tenant, RelationType.INHERITS) if b[0] not in replaced_ids]
    resolver = Resolver(EntityDirectory(everything), CodeIndex(everything, graph_bases))
    resolver.code.add_bases(_bases(parsed, resolver))  # this run's classes' bases, before any member lookup
    writes = [_resolve(p, resolver, proj) for p in parsed]
    report.indexed = len(writes)
    report.chunks = sum(len(w.chunks) for w in writes)
    report.entities = sum(len(w.entities) for w in writes)
    report.relations = sum(len(w.relations) for w in writes)
    shared = [proj, *_dedupe(e for p in parsed for e in p.extraction.entities if e.doc_id is None)]
    progress.stage("embedding", report.chunks)
    # Kùzu can only draw an edge between nodes that exist, so edges into a later batch wait until the end.
    present = {e.id for e in existing} | {e.id for e in shared}
    deferred: list[Relation] = []
    batch: list[DocumentWrite] = []
    for i, write in enumerate(writes):
        batch.append(write)
        if sum(len(w.chunks) for w in batch) >= WRITE_BATCH_CHUNKS or i == len(writes) - 1:
            present.update(e.id for w in batch for e in w.entities)
            for w in batch:
                ready = [r for r in w.relations if r.source in present and r.target in present]
                deferred.extend(r for r in w.relations if r.source not in present or r.target not in present)
                w.relations = ready
            catalog.write(batch, shared)
            progress.advance(sum(len(w.chunks) for w in batch))
            batch = []
    if deferred:
        catalog.add_relations(deferred, {})
    known = {resolution_key(e) for e in before}
    appeared = [
        e for e in _dedupe([*shared, *(e for w in writes for e in w.entities)]) if resolution_key(e) not in known
    ]
    return _Written(appeared, resolver)


@dataclass(frozen=True)
class _Run:
    """What the passes after a run's writes need to know of it."""

    wrote: bool
    was_current: bool  # the syncs were complete when the run began
    appeared: list[Entity]  # entities whose names the index did not have before
    progress: Progress
    community_seconds: float


def _link_and_sync(catalog: Catalog, run: _Run) -> None:
    """The passes over the whole graph after a run's writes, each skipped when it has nothing to do.

    When the syncs were current as the run began, only what this run wrote can need linking or syncing; else an
    earlier run was cut short or another writer changed the graph, and everything is redone. The entities and
    relations are read once for all passes (again only if linking wrote). Community detection past its bound is
    given up, logged and recorded: the run still publishes, without new communities.
    """
    if run.was_current and not run.wrote:
        if not syncs_current(catalog):  # only the skipped files were recorded: the graph is what was synced
            mark_synced(catalog, catalog.manifest)
        return
    run.progress.stage("linking", 0)
    read_with = catalog.manifest
    entities = catalog.entities()
    bases = catalog.graph.links(catalog.tenant, RelationType.INHERITS)
    relink(catalog, entities, run.appeared if run.was_current else None, bases)
    relations = catalog.graph.relations(catalog.tenant)
    if link_shared_names(catalog, entities, relations):
        read_with, entities, relations = catalog.manifest, catalog.entities(), catalog.graph.relations(catalog.tenant)
    if catalog.embedder is None:
        return  # nothing can be embedded: the syncs stay due
    with syncing(catalog):
        forget_sync(catalog)
        run.progress.stage("graph vectors", 0)
        sync_graph_vectors(catalog, entities, relations)
        run.progress.stage("communities", 0)
        try:
            sync_communities(catalog, entities, relations, max_seconds=run.community_seconds)
        except DetectionTimeout as exc:
            log.warning(
                "%s; publishing without new communities (status lists them as stale, the next index run tries "
                "again; TRIDENT_COMMUNITY_SECONDS raises the bound)",
                exc,
            )
            give_up_sync(catalog, DerivedStore.COMMUNITIES, str(exc))
            return
        mark_synced(catalog, read_with)


def _dedupe(entities: Iterable[Entity]) -> list[Entity]:
    seen: dict[str, Entity] = {}
    for entity in entities:
        seen.setdefault(entity.id, entity)
    return list(seen.values())


def remove_documents(catalog: Catalog, doc_ids: Sequence[str], max_file_bytes: int) -> int:
    """Remove documents from the index and bind anew the references other documents made into them: what binds
    nothing now waits as pending, to bind when its target is indexed again. Returns the documents bound again."""
    dependants = _dependants(catalog, set(doc_ids))
    catalog.delete(doc_ids)
    return _rebind(catalog, dependants, max_file_bytes)


def _dependants(catalog: Catalog, doc_ids: set[str]) -> list[str]:
    """Documents outside `doc_ids` whose relations point at entities those define (a call into a changed class, an
    import of a removed module, a mention): once those change, their references may bind differently."""
    documents = catalog.manifest.documents
    defined = {e for d in doc_ids if d in documents for e in documents[d].entity_ids}
    if not defined:
        return []
    touching = catalog.graph.neighbours(sorted(defined), catalog.tenant, MAX_DEPENDANT_EDGES)
    return sorted({r.doc_id for r in touching if r.target in defined and r.doc_id and r.doc_id not in doc_ids})


def _rebind(catalog: Catalog, doc_ids: Sequence[str], max_file_bytes: int, resolver: Resolver | None = None) -> int:
    """Bind the references of unchanged documents again, against the index as it is now, without re-embedding:
    their files are read again from the folder their project was indexed from. A file that changed since (or is
    gone) is left to its project's next run. `resolver`, from the run that just wrote, saves reading the index
    again. Returns how many documents were bound again."""
    manifest, parsed = catalog.manifest, list[_Parsed]()
    for doc_id in doc_ids:
        entry = manifest.documents.get(doc_id)
        root = manifest.roots.get(entry.project) if entry is not None else None
        if entry is None or root is None:
            continue
        source = read_source(Path(root) / entry.path, entry.path, max_file_bytes)
        if not isinstance(source, SourceFile) or source.content_hash != entry.content_hash:
            continue
        parsed.append(_parse(entry.project, source, catalog.tenant))
    if not parsed:
        return 0
    if resolver is None:  # a run that wrote nothing: read the index as it is
        everything = catalog.entities()
        bases = catalog.graph.links(catalog.tenant, RelationType.INHERITS)
        resolver = Resolver(EntityDirectory(everything), CodeIndex(everything, bases))
    resolver.code.add_bases(_bases(parsed, resolver))
    catalog.rebind([_resolve(p, resolver, project_entity(p.document.project, catalog.tenant)) for p in parsed])
    return len(parsed)


def _bases(parsed: Sequence[_Parsed], resolver: Resolver) -> list[tuple[str, str]]:
    """(class id, base id) of every base this run's classes declare, in declared order."""
    found: list[tuple[str, str]] = []
    for p in parsed:
        for ref in p.extraction.references:
            if ref.type == RelationType.INHERITS:
                found.extend((ref.source, t.id) for t in resolver.resolve(ref, p.document)[0])
    return found


def _resolve(parsed: _Parsed, resolver: Resolver, project: Entity) -> DocumentWrite:
    doc = parsed.document
    ex = parsed.extraction
    owned = [e for e in _dedupe(ex.entities) if e.doc_id is not None]
    relations: list[Relation] = list(ex.relations)
    unresolved: list[PendingReference] = []
    directory = resolver.directory
    for ref in ex.references:
        targets, resolution = resolver.resolve(ref, doc)
        if not targets:
            unresolved.append(_pending(ref))
        relations.extend(reference_relation(ref, t.id, doc, 1.0 / len(targets), resolution) for t in targets)
    owner = next((e for e in owned if e.type in OWNER_TYPES), None)
    if owner is not None and ex.chunks:
        relations.append(
            Relation(
                source=project.id,
                type=RelationType.CONTAINS,
                target=owner.id,
                evidence=ex.chunks[0].id,
                project=doc.project,
                doc_id=doc.id,
                tenant=doc.tenant,
            )
        )
    owners = {e.chunk_id: e.id for e in owned if e.chunk_id}
    if owner is not None:
        owners = {c.id: owners.get(c.id, owner.id) for c in ex.chunks}
    relations.extend(mention_relations(directory, ex.chunks, owners, doc.project))
    return DocumentWrite(doc, list(ex.chunks), owned, _unique(relations), unresolved)


def _unique(relations: Sequence[Relation]) -> list[Relation]:
    seen: dict[tuple[str, str, str, str], Relation] = {}
    for r in relations:
        seen.setdefault((r.source, r.type, r.target, r.evidence or ""), r)
    return list(seen.values())


def _pending(ref: Reference) -> PendingReference:
    return PendingReference(
        source=ref.source,
        type=ref.type,
        target=ref.target,
        evidence=ref.evidence,
        target_types=list(ref.target_types),
        form=ref.form,
        resolution=ref.resolution,
        owner=ref.owner,
        after_owner=ref.after_owner,
    )
