"""Indexing runs: folder or BEIR collection -> parsed documents -> resolved graph -> the catalog, incrementally."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from trident.ingest.beir import iter_corpus, parse_beir_document
from trident.ingest.code import SUPPORTED_LANGUAGES, parse_code
from trident.ingest.communities import sync_communities
from trident.ingest.graph_vectors import sync_graph_vectors
from trident.ingest.linker import mention_relations
from trident.ingest.markdown import parse_markdown
from trident.ingest.model import Extraction, Reference
from trident.ingest.shared_names import link_shared_names
from trident.ingest.text import parse_text
from trident.ingest.walker import SourceFile, walk
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

WRITE_BATCH_CHUNKS = 512
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


def parse_source(project: str, source: SourceFile, tenant: str) -> Extraction:
    """Pick the parser for a file by its kind and language."""
    doc_id = document_id(project, source.rel)
    if source.kind == DocumentKind.CODE and source.language in SUPPORTED_LANGUAGES:
        return parse_code(project, source.rel, source.text, source.language, doc_id, tenant)
    if source.kind == DocumentKind.MARKDOWN:
        return parse_markdown(project, source.rel, source.text, doc_id, tenant)
    return parse_text(project, source.rel, source.text, doc_id, source.kind, tenant)


def index_folder(
    catalog: Catalog, root: Path, project: str, *, max_file_bytes: int, progress: Progress | None = None
) -> IndexReport:
    """Index a folder as one project: new and changed files are (re)written, deleted files removed."""
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
    progress.stage("parsing", len(changed))
    parsed: list[_Parsed] = []
    for source in changed:
        doc = Document(
            id=document_id(project, source.rel),
            project=project,
            path=source.rel,
            kind=source.kind,
            language=source.language,
            content_hash=source.content_hash,
            tenant=catalog.tenant,
        )
        parsed.append(_Parsed(doc, parse_source(project, source, catalog.tenant)))
        progress.advance()
    if removed:
        catalog.delete(removed)
    report.deleted = len(removed)
    _write(catalog, project, parsed, report, progress)
    catalog.record_skipped(project, report.skipped)
    report.seconds = time.perf_counter() - started
    return report


def index_beir(catalog: Catalog, folder: Path, project: str, *, progress: Progress | None = None) -> IndexReport:
    """Index a BEIR collection (corpus.jsonl) as one project; each passage is a document."""
    progress = progress or _Silent()
    started = time.perf_counter()
    report = IndexReport(project)
    known = catalog.manifest.project_documents(project)
    parsed: list[_Parsed] = []
    seen: set[str] = set()
    for beir_doc in iter_corpus(folder):
        report.files_seen += 1
        extraction = parse_beir_document(project, beir_doc, catalog.tenant)
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
        parsed.append(_Parsed(doc, extraction))
    report.unchanged = report.files_seen - len(parsed)
    removed = sorted(set(known) - seen)
    if removed:
        catalog.delete(removed)
    report.deleted = len(removed)
    _write(catalog, project, parsed, report, progress)
    report.seconds = time.perf_counter() - started
    return report


def _changed(known: dict, project: str, source: SourceFile) -> bool:
    entry = known.get(document_id(project, source.rel))
    return entry is None or entry.content_hash != source.content_hash


def _write(catalog: Catalog, project: str, parsed: list[_Parsed], report: IndexReport, progress: Progress) -> None:
    """Resolve references and mentions over the whole run, then write in batches of about 512 chunks."""
    replaced = {p.document.id for p in parsed}
    new_entities = _dedupe(e for p in parsed for e in p.extraction.entities)
    existing = [e for e in catalog.entities() if e.doc_id not in replaced]
    proj = project_entity(project, catalog.tenant)
    directory = EntityDirectory([*existing, *new_entities, proj])
    writes = [_resolve(p, directory, proj) for p in parsed]
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
    relink(catalog)
    link_shared_names(catalog)
    sync_graph_vectors(catalog)
    sync_communities(catalog)


def _dedupe(entities: Iterable[Entity]) -> list[Entity]:
    seen: dict[str, Entity] = {}
    for entity in entities:
        seen.setdefault(entity.id, entity)
    return list(seen.values())


def _resolve(parsed: _Parsed, directory: EntityDirectory, project: Entity) -> DocumentWrite:
    doc = parsed.document
    ex = parsed.extraction
    owned = [e for e in _dedupe(ex.entities) if e.doc_id is not None]
    relations: list[Relation] = list(ex.relations)
    unresolved: list[PendingReference] = []
    for ref in ex.references:
        targets = directory.resolve(
            ref.target,
            target_types=ref.target_types,
            source=ref.source,
            project=doc.project,
            doc_id=doc.id,
            relation=ref.type,
        )
        if not targets:
            unresolved.append(_pending(ref))
        relations.extend(_relation(ref, t.id, doc, 1.0 / len(targets)) for t in targets)
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
        source=ref.source, type=ref.type, target=ref.target, evidence=ref.evidence, target_types=list(ref.target_types)
    )


def _relation(ref: Reference | PendingReference, target: str, doc: Document, weight: float) -> Relation:
    return Relation(
        source=ref.source,
        type=ref.type,
        target=target,
        weight=weight,
        evidence=ref.evidence,
        project=doc.project,
        doc_id=doc.id,
        tenant=doc.tenant,
    )


def relink(catalog: Catalog) -> int:
    """Retry every document's pending references against all entities now indexed; returns edges added."""
    pending_docs = {doc_id: e for doc_id, e in catalog.manifest.documents.items() if e.unresolved}
    if not pending_docs:
        return 0
    directory = EntityDirectory(catalog.entities())
    added: list[Relation] = []
    still: dict[str, list[PendingReference]] = {}
    for doc_id, entry in sorted(pending_docs.items()):
        doc = Document(
            id=doc_id,
            project=entry.project,
            path=entry.path,
            kind=DocumentKind(entry.kind),
            content_hash=entry.content_hash,
            tenant=catalog.tenant,
        )
        remaining: list[PendingReference] = []
        for pending in entry.unresolved:
            targets = directory.resolve(
                pending.target,
                target_types=pending.target_types,
                source=pending.source,
                project=entry.project,
                doc_id=doc_id,
                relation=pending.type,
            )
            if not targets:
                remaining.append(pending)
            added.extend(_relation(pending, t.id, doc, 1.0 / len(targets)) for t in targets)
        if len(remaining) != len(entry.unresolved):
            still[doc_id] = remaining
    if still:
        catalog.add_relations(added, still)
    return len(added)
