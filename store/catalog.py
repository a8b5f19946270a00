"""The catalog keeps Tantivy, LanceDB and Kùzu consistent: one write or delete touches all three, or is repaired."""

from __future__ import annotations

import fcntl
import logging
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from trident.store.kuzu_graph import KuzuGraphStore
from trident.store.lance_index import LanceVectorIndex
from trident.store.manifest import DocumentEntry, Manifest, ModelInfo, PendingReference, SkippedFile
from trident.store.protocols import Embedder
from trident.store.schema import SCHEMA_VERSION, Chunk, Document, Entity, EntityType, Relation
from trident.store.tantivy_index import TantivyTextIndex

log = logging.getLogger(__name__)

LOCK_FILE = "write.lock"
SHARED_ENTITY_TYPES = (EntityType.TAG.value, EntityType.CONCEPT.value)


class TridentIndexError(RuntimeError):
    """Base for index problems the user can fix."""


class ModelMismatchError(TridentIndexError):
    pass


class SchemaMismatchError(TridentIndexError):
    pass


class IndexLockedError(TridentIndexError):
    pass


@dataclass
class DocumentWrite:
    """Everything one document contributes, with relations already resolved to entity ids."""

    document: Document
    chunks: list[Chunk] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    unresolved: list[PendingReference] = field(default_factory=list)


@contextmanager
def write_lock(index_dir: Path) -> Iterator[None]:
    """Hold the index's single-writer lock; fail at once with a clear message if another process has it."""
    index_dir.mkdir(parents=True, exist_ok=True)
    path = index_dir / LOCK_FILE
    with open(path, "a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown"
            raise IndexLockedError(
                f"another process (pid {holder}) is writing to the index at {index_dir}; "
                "wait for it to finish, or stop it, then run the command again"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)


class Catalog:
    """The three engines of one tenant's index plus its manifest."""

    def __init__(self, index_dir: Path, tenant: str, embedder: Embedder | None = None) -> None:
        self.index_dir = index_dir
        self.tenant = tenant
        self.embedder = embedder
        self.manifest = Manifest.load(index_dir)
        self._check_compatible()
        dim = embedder.dim if embedder is not None else (self.manifest.model.dim if self.manifest.model else 384)
        self.text = TantivyTextIndex(index_dir / "lexical")
        self.vectors = LanceVectorIndex(index_dir / "semantic", dim)
        self.graph = KuzuGraphStore(index_dir / "graph.kuzu")
        self._repair()

    def _check_compatible(self) -> None:
        if self.manifest.documents and self.manifest.schema_version != SCHEMA_VERSION:
            raise SchemaMismatchError(
                f"the index at {self.index_dir} has schema version {self.manifest.schema_version}, this Trident "
                f"writes version {SCHEMA_VERSION}; rebuild it with `trident reset` and index your folders again"
            )
        built = self.manifest.model
        if built is None or self.embedder is None:
            return
        if (built.name, built.dim) != (self.embedder.model_name, self.embedder.dim):
            raise ModelMismatchError(
                f"the index at {self.index_dir} was built with {built.name} ({built.dim}-d) but the current "
                f"model is {self.embedder.model_name} ({self.embedder.dim}-d). Either set "
                f"TRIDENT_MODEL={built.name}, or rebuild the index with the new model: `trident reset` and then "
                "`trident index PATH` for each project"
            )

    def _repair(self) -> None:
        """Undo a write that a crash interrupted, so its documents are re-indexed from scratch next run."""
        if not self.manifest.pending:
            return
        log.warning("repairing %d documents left half-written by an interrupted run", len(self.manifest.pending))
        self._delete_from_engines(self.manifest.pending, keep_entities=())
        for doc_id in self.manifest.pending:
            self.manifest.documents.pop(doc_id, None)
        self.manifest.pending = []
        self.manifest.save(self.index_dir)

    def _begin(self, doc_ids: Sequence[str]) -> None:
        if self.embedder is not None and self.manifest.model is None:
            self.manifest.model = ModelInfo(name=self.embedder.model_name, dim=self.embedder.dim)
        self.manifest.generation += 1
        self.manifest.pending = sorted(doc_ids)
        self.manifest.save(self.index_dir)

    def _delete_from_engines(self, doc_ids: Sequence[str], keep_entities: Iterable[str]) -> None:
        self.text.delete_documents(doc_ids)
        self.text.commit()
        self.vectors.delete_documents(doc_ids)
        self.graph.delete_documents(doc_ids, keep_entities)

    def write(self, writes: Sequence[DocumentWrite], shared_entities: Sequence[Entity] = ()) -> None:
        """Replace the given documents in all three engines; a crash mid-way is undone on the next open.

        Raises:
            RuntimeError: when the catalog was opened without an embedder.
        """
        if not writes:
            return
        if self.embedder is None:
            raise RuntimeError("the catalog was opened read-only (no embedder); it cannot write")
        chunks = [chunk for w in writes for chunk in w.chunks]
        vectors = self.embedder.embed([embedding_text(chunk) for chunk in chunks])
        doc_ids = [w.document.id for w in writes]
        self._begin(doc_ids)
        entities = [entity for w in writes for entity in w.entities]
        self._delete_from_engines(doc_ids, keep_entities=[e.id for e in entities])
        self.text.upsert(chunks)
        self.text.commit()
        self.vectors.upsert(chunks, vectors)
        self.graph.upsert(chunks, [*entities, *shared_entities], [r for w in writes for r in w.relations])
        for w in writes:
            self.manifest.documents[w.document.id] = DocumentEntry(
                project=w.document.project,
                path=w.document.path,
                kind=str(w.document.kind),
                content_hash=w.document.content_hash,
                chunk_ids=[c.id for c in w.chunks],
                entity_ids=[e.id for e in w.entities],
                unresolved=w.unresolved,
            )
        self.manifest.pending = []
        self.manifest.save(self.index_dir)

    def add_relations(self, relations: Sequence[Relation], still_unresolved: dict[str, list[PendingReference]]) -> None:
        """Relations found after their documents were written (links into documents indexed later).

        `still_unresolved` gives, per document, the references that remain pending after this pass.
        """
        self.graph.upsert([], [], relations)
        for doc_id, pending in still_unresolved.items():
            if doc_id in self.manifest.documents:
                self.manifest.documents[doc_id].unresolved = pending
        self.manifest.save(self.index_dir)

    def delete(self, doc_ids: Sequence[str]) -> None:
        """Remove documents from all three engines and the manifest."""
        ids = sorted(set(doc_ids))
        if not ids:
            return
        self._begin(ids)
        self._delete_from_engines(ids, keep_entities=())
        self.graph.delete_orphans(SHARED_ENTITY_TYPES)
        for doc_id in ids:
            self.manifest.documents.pop(doc_id, None)
        self.manifest.pending = []
        self.manifest.save(self.index_dir)

    def record_skipped(self, project: str, skipped: Sequence[SkippedFile]) -> None:
        self.manifest.skipped[project] = list(skipped)
        self.manifest.save(self.index_dir)

    def entities(self) -> list[Entity]:
        return self.graph.entities(self.tenant)

    def close(self) -> None:
        self.graph.close()


def embedding_text(chunk: Chunk) -> str:
    """What the model sees: the title (symbol or heading path) gives a chunk its context."""
    return f"{chunk.title}\n{chunk.text}" if chunk.title and chunk.title not in chunk.text[:200] else chunk.text
