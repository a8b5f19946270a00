"""The catalog keeps Tantivy, LanceDB and Kùzu consistent: readers see whole published generations, and a writer's
changes are published all at once or not at all.

Reading: a catalog reads the generation the manifest names (graph and lexical engines in their own folder, the
chunk vectors at a pinned LanceDB version). One stat of the manifest per access tells it when a writer has
published a newer one, and it moves there; so any number of processes can read while one writes.

Writing: the first write opens a session on a new generation folder, copied from the published one. The session
ends when the write lock is released (`write_lock`): normally, it is published by replacing the manifest; if the
block raised, it is dropped. A write made without holding the lock takes the lock itself and publishes on
`commit()` or `close()`, or as soon as another writer of this process asks for the lock. A process that dies
mid-session leaves the published generation untouched; its leftovers are removed by the next writer.
"""

from __future__ import annotations

import logging
import shutil
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from trident.store import locking
from trident.store.compatibility import check_compatible
from trident.store.crashpoints import crash_point
from trident.store.document_write import DocumentWrite, embedding_text
from trident.store.errors import (
    IndexLockedError,
    ModelMismatchError,
    ReadOnlyIndexError,
    SchemaMismatchError,
    TridentIndexError,
)
from trident.store.generations import Engines, open_new, open_published, publish_first, remove_leftovers
from trident.store.kuzu_graph import KuzuGraphStore
from trident.store.lance_index import LanceVectorIndex
from trident.store.locking import LOCK_FILE, write_lock
from trident.store.manifest import DocumentEntry, Manifest, ModelInfo, PendingReference, SkippedFile, manifest_identity
from trident.store.protocols import Embedder
from trident.store.schema import Entity, EntityType, Relation
from trident.store.tantivy_index import TantivyTextIndex

__all__ = [  # the write lock and the errors are imported from here by callers that write
    "LOCK_FILE",
    "Catalog",
    "DocumentWrite",
    "IndexLockedError",
    "ModelMismatchError",
    "ReadOnlyIndexError",
    "SchemaMismatchError",
    "TridentIndexError",
    "embedding_text",
    "write_lock",
]

log = logging.getLogger(__name__)

SHARED_ENTITY_TYPES = (EntityType.TAG.value, EntityType.CONCEPT.value)
# A new index is set up by whoever opens it first; a reader that finds a writer doing so waits this long.
SETUP_WAIT_SECONDS = 60.0
OPEN_ATTEMPTS = 20


class Catalog:
    """The three engines of one tenant's index plus its manifest.

    `read_only=True` refuses every write with a clear error (servers that must never write, status commands).
    """

    def __init__(
        self, index_dir: Path, tenant: str, embedder: Embedder | None = None, *, read_only: bool = False
    ) -> None:
        self.index_dir = index_dir
        self.tenant = tenant
        self.embedder = embedder
        self.read_only = read_only
        self._mutex = threading.RLock()
        self._session: Engines | None = None
        self._closed = False
        index_dir.mkdir(parents=True, exist_ok=True)
        locking.make_way(index_dir)  # another catalog of this process publishes what it wrote without the lock
        self._view = self._open_view()
        check_compatible(index_dir, self._view.manifest, embedder)
        if self._view.manifest.pending and not read_only:
            self._repair_legacy()

    @classmethod
    def open_reader(cls, index_dir: Path, tenant: str, embedder: Embedder | None = None) -> Catalog:
        """A catalog that only reads (and follows the generations writers publish)."""
        return cls(index_dir, tenant, embedder, read_only=True)

    # --- reading ---

    def _current(self) -> Engines:
        """The engines a call uses: this catalog's open session, or else the newest published generation."""
        session = self._session
        if session is not None:
            return session
        view = self._view
        if self._closed or manifest_identity(self.index_dir) == view.identity:
            return view
        with self._mutex:
            if self._session is not None:
                return self._session
            if manifest_identity(self.index_dir) != self._view.identity:
                try:
                    self._view = self._open_view(self._view)
                except (OSError, RuntimeError) as exc:  # keep answering from the generation already open
                    log.warning("staying on generation %s: %s", self._view.folder, exc)
            return self._view

    @property
    def manifest(self) -> Manifest:
        return self._current().manifest

    @property
    def text(self) -> TantivyTextIndex:
        return self._current().text

    @property
    def vectors(self) -> LanceVectorIndex:
        return self._current().vectors

    @property
    def graph(self) -> KuzuGraphStore:
        return self._current().graph

    @property
    def generation_folder(self) -> Path:
        return self.index_dir / self._current().folder

    def entities(self) -> list[Entity]:
        return self.graph.entities(self.tenant)

    def _dim(self, manifest: Manifest) -> int:
        if self.embedder is not None:
            return self.embedder.dim
        return manifest.model.dim if manifest.model else 384

    def _open_view(self, current: Engines | None = None) -> Engines:
        """Open the published generation read-only, setting up a new (or older-format) index first if needed.

        Raises:
            IndexLockedError: the index has no published generation and another process keeps the lock.
        """
        for _ in range(OPEN_ATTEMPTS):
            manifest, identity = Manifest.load_with_identity(self.index_dir)
            if manifest.generation_dir is None:  # a new index, an index reset meanwhile, or an older format
                self._set_up(wait_seconds=SETUP_WAIT_SECONDS if current is None else 0.0)
                continue
            if current is not None and (manifest.generation_dir, manifest.chunks_version) == (
                current.folder,
                current.manifest.chunks_version,
            ):
                current.manifest, current.identity = manifest, identity
                return current
            view = open_published(self.index_dir, manifest, identity, self._dim(manifest), self._graph_writer)
            if view is not None:
                return view
            # else it was published and already replaced and removed: read the manifest again
        raise TridentIndexError(f"the index at {self.index_dir} kept changing while it was being opened; try again")

    def _set_up(self, wait_seconds: float) -> None:
        """Publish a first generation: empty, or moved from the single folders of an index made before
        generations. Waits while another process holds the lock (it is setting the index up itself).

        Raises:
            IndexLockedError: the other process kept the lock for `wait_seconds` without publishing.
        """
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                with locking.briefly(self.index_dir, self):
                    manifest = Manifest.load(self.index_dir)
                    if manifest.generation_dir is None:
                        publish_first(self.index_dir, manifest, self._dim(manifest))
                    return
            except IndexLockedError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
                if Manifest.load(self.index_dir).generation_dir is not None:
                    return

    def _repair_legacy(self) -> None:
        """An index written before generations may list half-written documents: remove them now if no one else
        is writing (else the writer does it when its session starts)."""
        try:
            with locking.briefly(self.index_dir, self), self._mutex:
                try:
                    self._begin_session(explicit=False)
                except BaseException:
                    self.finish_session(publish=False)
                    raise
                self.finish_session(publish=True)
        except IndexLockedError:
            log.info("another writer will repair the index at %s", self.index_dir)

    # --- the write session ---

    def _graph_writer(self) -> KuzuGraphStore:
        """Where a write made directly on `catalog.graph` goes: the store of this catalog's write session."""
        with self._writing() as session:
            return session.graph

    @contextmanager
    def _writing(self) -> Iterator[Engines]:
        """The open write session (started here if need be). A write that raises may have left the engines half
        changed, so the session is never published: under `write_lock` it is dropped when the lock is released,
        otherwise at once (with the writes of this catalog not yet published)."""
        if self.read_only:
            raise ReadOnlyIndexError(f"this catalog of {self.index_dir} was opened read-only; it cannot write")
        if self._closed:
            raise RuntimeError("the catalog is closed")
        with self._mutex:
            session = self._session or self._start()
            try:
                yield session
            except BaseException:
                session.failed = True
                hold = locking.HOLDS.get(self.index_dir)
                if hold is not None and hold.owner is self:
                    self.commit()  # drops the failed session and lets the lock go
                raise

    def _start(self) -> Engines:
        hold = locking.HOLDS.get(self.index_dir)
        if hold is not None and hold.held_by_this_thread():
            if any(writer is not self for writer in hold.writers):
                raise RuntimeError("another catalog already writes under this hold of the write lock")
            hold.writers.append(self)
            return self._begin_session(explicit=True)
        locking.take_for(self.index_dir, self)
        try:
            return self._begin_session(explicit=False)
        except BaseException:
            locking.release_owned(self.index_dir)
            raise

    def _begin_session(self, *, explicit: bool) -> Engines:
        """A new generation folder copied from the published one, its engines open for writing."""
        crash_point("session.begin")
        published = Manifest.load(self.index_dir)
        if published.generation_dir is None:
            publish_first(self.index_dir, published, self._dim(published))
            published = Manifest.load(self.index_dir)
        check_compatible(self.index_dir, published, self.embedder)
        session = open_new(self.index_dir, published, self._dim(published))
        manifest = session.manifest
        self._session = session
        if manifest.pending:  # left by a crash of an index written before generations
            log.warning("repairing %d documents left half-written by an interrupted run", len(manifest.pending))
            self._delete_from(session, manifest.pending, keep_entities=())
            for doc_id in manifest.pending:
                manifest.documents.pop(doc_id, None)
            manifest.pending = []
        how = "under write_lock" if explicit else "with its own hold of the lock"
        log.info("writing generation %s of %s %s", session.folder, self.index_dir, how)
        return session

    def finish_session(self, *, publish: bool) -> None:
        """Publish the session (or drop it); the engines it wrote become what this catalog reads."""
        with self._mutex:
            session, self._session = self._session, None
            if session is None:
                return
            if not publish or session.failed:
                if publish:
                    log.error("not publishing generation %s: a write in it failed", session.folder)
                session.close()
                shutil.rmtree(self.index_dir / session.folder, ignore_errors=True)
                return
            self._publish(session)

    def _publish(self, session: Engines) -> None:
        session.publish(self.index_dir, reread_with=None if self._closed else self._graph_writer)
        previous, self._view = self._view, session
        if self._closed:
            session.close()
        lock, previous.reader_lock = previous.reader_lock, None
        del previous
        if lock is not None:
            lock.release()  # a call still reading the old generation keeps its open files; Linux keeps them
        remove_leftovers(self.index_dir, keep={session.folder})

    def commit(self) -> None:
        """Publish what this catalog wrote without holding the write lock, and let the lock go. Under
        `write_lock` there is nothing to do: the release of the lock publishes."""
        hold = locking.HOLDS.get(self.index_dir)
        if hold is None or hold.owner is not self:
            return
        with self._mutex:
            try:
                self.finish_session(publish=True)
            finally:
                locking.release_owned(self.index_dir)

    # --- writes ---

    def _changed(self, session: Engines) -> Manifest:
        manifest = session.manifest
        if self.embedder is not None and manifest.model is None:
            manifest.model = ModelInfo(name=self.embedder.model_name, dim=self.embedder.dim)
        manifest.generation += 1
        return manifest

    @staticmethod
    def _delete_from(session: Engines, doc_ids: Sequence[str], keep_entities: Iterable[str]) -> None:
        session.text.delete_documents(doc_ids)
        session.text.commit()
        session.vectors.delete_documents(doc_ids)
        session.graph.delete_documents(doc_ids, keep_entities)

    def write(self, writes: Sequence[DocumentWrite], shared_entities: Sequence[Entity] = ()) -> None:
        """Replace the given documents in all three engines of the session's generation.

        Raises:
            RuntimeError: when the catalog was opened without an embedder.
            IndexLockedError: another process is writing.
        """
        if not writes:
            return
        if self.embedder is None:
            raise RuntimeError("the catalog was opened without an embedder; it cannot write")
        chunks = [chunk for w in writes for chunk in w.chunks]
        vectors = self.embedder.embed([embedding_text(chunk) for chunk in chunks])
        crash_point("write.embedded")
        with self._writing() as session:
            manifest = self._changed(session)
            doc_ids = [w.document.id for w in writes]
            entities = [entity for w in writes for entity in w.entities]
            self._delete_from(session, doc_ids, keep_entities=[e.id for e in entities])
            crash_point("write.deleted")
            session.text.upsert(chunks)
            session.text.commit()
            crash_point("write.lexical")
            session.vectors.upsert(chunks, vectors)
            crash_point("write.semantic")
            relations = [r for w in writes for r in w.relations]
            session.graph.upsert(chunks, [*entities, *shared_entities], relations)
            crash_point("write.graph")
            for w in writes:
                manifest.documents[w.document.id] = DocumentEntry(
                    project=w.document.project,
                    path=w.document.path,
                    kind=str(w.document.kind),
                    content_hash=w.document.content_hash,
                    chunk_ids=[c.id for c in w.chunks],
                    entity_ids=[e.id for e in w.entities],
                    unresolved=w.unresolved,
                )

    def add_relations(self, relations: Sequence[Relation], still_unresolved: dict[str, list[PendingReference]]) -> None:
        """Relations found after their documents were written (links into documents indexed later).

        `still_unresolved` gives, per document, the references that remain pending after this pass.
        """
        with self._writing() as session:
            manifest = self._changed(session)
            session.graph.upsert([], [], relations)
            crash_point("relations.graph")
            for doc_id, pending in still_unresolved.items():
                if doc_id in manifest.documents:
                    manifest.documents[doc_id].unresolved = pending

    def delete(self, doc_ids: Sequence[str]) -> None:
        """Remove documents from all three engines and the manifest."""
        ids = sorted(set(doc_ids))
        if not ids:
            return
        with self._writing() as session:
            manifest = self._changed(session)
            self._delete_from(session, ids, keep_entities=())
            crash_point("delete.engines")
            session.graph.delete_orphans(SHARED_ENTITY_TYPES)
            for doc_id in ids:
                manifest.documents.pop(doc_id, None)

    def rebind(self, bound: Sequence[DocumentWrite]) -> None:
        """Replace the relations of documents whose chunks and entities stay as they are (references bound again
        after a project they point into changed), with what of their references is still pending."""
        if not bound:
            return
        with self._writing() as session:
            manifest = self._changed(session)
            session.graph.delete_relations([w.document.id for w in bound])
            session.graph.upsert([], [], [r for w in bound for r in w.relations])
            for w in bound:
                if w.document.id in manifest.documents:
                    manifest.documents[w.document.id].unresolved = w.unresolved

    def record_root(self, project: str, root: str) -> None:
        """Where a project's files are: read again when references into another project are bound anew."""
        if self.manifest.roots.get(project) == root:
            return
        with self._writing() as session:
            self._changed(session).roots[project] = root

    def record_skipped(self, project: str, skipped: Sequence[SkippedFile]) -> None:
        if self.manifest.skipped.get(project, []) == list(skipped):
            return
        with self._writing() as session:
            self._changed(session).skipped[project] = list(skipped)

    def close(self) -> None:
        """Publish writes made without the write lock, and close the engines. Under `write_lock` the session
        stays open until the lock is released, which publishes it."""
        if self._closed:
            return
        self.commit()
        with self._mutex:
            self._closed = True
            self._view.close()
