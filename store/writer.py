"""What `with catalog.writer() as w:` yields: the writes to one index, and its reads as of those writes.

A writer exists only inside its block, which holds the index's write lock. Its first write opens a session: a new
generation folder copied from the published one, its engines open for writing. Until then the writer reads the
published generation (the catalog's); from then on the session's engines, so it sees what it wrote while readers
see none of it. When the block ends the catalog publishes the session, or drops it (store/catalog.py); a long
block may publish what it has written so far (`publish_now`) and go on in a new session.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from trident.store.compatibility import check_compatible
from trident.store.crashpoints import crash_point
from trident.store.document_write import DocumentWrite, embedding_text
from trident.store.errors import TridentIndexError
from trident.store.generations import (
    Engines,
    has_leftovers,
    open_new,
    prepare_next_session,
    publish_first,
    remove_leftovers,
    vector_dim,
)
from trident.store.manifest import (
    DocumentEntry,
    Manifest,
    ModelInfo,
    PendingReference,
    ProjectSource,
    SkippedFile,
)
from trident.store.mapped.chunk_matrix import CHUNK_MATRIX_DIR
from trident.store.protocols import GraphStore, TextIndex, VectorIndex
from trident.store.schema import SCHEMA_VERSION, Entity, EntityType, Relation

if TYPE_CHECKING:
    from trident.store.catalog import Catalog

log = logging.getLogger(__name__)

SHARED_ENTITY_TYPES = (EntityType.TAG.value, EntityType.CONCEPT.value)


class Writer:
    """Writes to one index inside a `catalog.writer()` block, and reads as of its own writes."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog  # what is published: readers' view, never this writer's session
        self.index_dir = catalog.index_dir
        self.tenant = catalog.tenant
        self.embedder = catalog.embedder
        self._session: Engines | None = None
        self._ended = False
        self._published = False  # whether this block has published a session (`publish_now`)

    # --- reading, as of this writer's own writes ---

    @property
    def session_open(self) -> bool:
        """Whether this writer has written: its reads are then of its session, not of the published generation."""
        return self._session is not None

    @property
    def manifest(self) -> Manifest:
        return self._session.manifest if self._session is not None else self.catalog.manifest

    @property
    def text(self) -> TextIndex:
        return self._session.text if self._session is not None else self.catalog.text

    @property
    def vectors(self) -> VectorIndex:
        return self._session.vectors if self._session is not None else self.catalog.vectors

    @property
    def graph(self) -> GraphStore:
        return self._session.graph if self._session is not None else self.catalog.graph

    @property
    def generation_folder(self) -> Path:
        if self._session is None:
            return self.catalog.generation_folder
        return self.index_dir / self._session.folder

    def entities(self) -> list[Entity]:
        return self.graph.entities(self.tenant)

    # --- the session ---

    @contextmanager
    def _writing(self) -> Iterator[Engines]:
        """The session (opened here if need be). A write that raises may have left the engines half changed, so
        the session is marked failed: the catalog drops it when the block ends, even if the block goes on.

        Raises:
            TridentIndexError: the writer's block has ended.
        """
        if self._ended:
            raise TridentIndexError("this writer's block has ended; open another: `with catalog.writer() as w:`")
        session = self._session or self._begin()
        try:
            yield session
        except BaseException:
            session.failed = True
            raise

    def _begin(self) -> Engines:
        """A new generation folder copied from the published one, its engines open for writing."""
        crash_point("session.begin")
        published = self.catalog.published_manifest()
        if published.generation_dir is None:  # the index was reset since the catalog opened it
            dim = vector_dim(self.embedder, published)
            publish_first(self.index_dir, self.catalog.tenant, published, dim, self.catalog.new_graph_backend())
            published = Manifest.load(self.index_dir)
        check_compatible(self.index_dir, published, self.embedder)
        session = open_new(
            self.index_dir, published, vector_dim(self.embedder, published), self.catalog.graph_memory(published)
        )
        session.manifest.schema_version = SCHEMA_VERSION  # compatible: the same, or an empty index of an older one
        self._session = session
        log.info("writing generation %s of %s", session.folder, self.index_dir)
        return session

    def end(self) -> Engines | None:
        """Called by the catalog as the block ends: nothing is written through this writer after it. Returns the
        session to publish or drop (None: nothing was written)."""
        self._ended = True
        session, self._session = self._session, None
        return session

    def tidy_generations(self) -> None:
        """Remove what writers that died left behind (an unpublished or unused generation, a manifest draft). A
        session does it as it opens; a block that writes nothing opens none, so this looks (one listing) itself.
        After this block has published all it wrote, the graph file is written afresh for the next session when it
        has grown enough (`generations.prepare_next_session`), here where no edit waits for it."""
        if self._session is not None:
            return
        manifest = self.catalog.manifest
        published = manifest.generation_dir
        if has_leftovers(self.index_dir, published):
            remove_leftovers(self.index_dir, keep={str(published)})
        if self._published:
            prepare_next_session(self.index_dir, manifest)

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

    def write(
        self, writes: Sequence[DocumentWrite], shared_entities: Sequence[Entity] = (), *, embed: bool = True
    ) -> None:
        """Replace the given documents in all three engines (with `shared_entities`, the entities no document owns
        that their relations point at). With `embed=False` their chunk vectors are left for `fill_vectors`: the
        documents go into the lexical and graph engines now and the manifest lists them as waiting for vectors.

        Raises:
            RuntimeError: the catalog was opened without an embedder.
            TridentIndexError: the block has ended.
        """
        if not writes:
            return
        if self.embedder is None:
            raise RuntimeError("the catalog was opened without an embedder; it cannot write")
        chunks = [chunk for w in writes for chunk in w.chunks]
        vectors = self.embedder.embed([embedding_text(chunk) for chunk in chunks]) if embed else None
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
            if vectors is not None:
                session.vectors.upsert(chunks, vectors)
            _mark_pending(manifest, doc_ids, pending=vectors is None)
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
                    size=w.document.size,
                    mtime_ns=w.document.mtime_ns,
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
                    manifest.replace_entry(doc_id, unresolved=pending)

    def add_entities(self, entities: Sequence[Entity]) -> None:
        """Entities no document owns (the shared concepts of names found in several projects), merged by id."""
        if not entities:
            return
        with self._writing() as session:
            self._changed(session)
            session.graph.upsert([], entities, [])

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
            _mark_pending(manifest, ids, pending=False)

    def fill_vectors(self, doc_ids: Sequence[str]) -> int:
        """Embed the chunks of documents written with `embed=False` (the others in `doc_ids` are left alone) and
        take them off the manifest's waiting list: from the next publication on, the dense path finds them. Returns
        how many chunks were embedded.

        Raises:
            RuntimeError: the catalog was opened without an embedder.
            TridentIndexError: the block has ended.
        """
        if self.embedder is None:
            raise RuntimeError("the catalog was opened without an embedder; it cannot embed")
        manifest = self.manifest
        waiting = set(manifest.vectors_pending)
        ids = [d for d in doc_ids if d in waiting and d in manifest.documents]
        if not ids:
            return 0
        chunk_ids = [c for d in ids for c in manifest.documents[d].chunk_ids]
        stored = self.graph.get_chunks(chunk_ids)
        chunks = [stored[c] for c in chunk_ids if c in stored]  # the order `write` embeds them in: same batches
        vectors = self.embedder.embed([embedding_text(chunk) for chunk in chunks])
        with self._writing() as session:
            manifest = self._changed(session)
            session.vectors.upsert(chunks, vectors)
            crash_point("fill.semantic")
            _mark_pending(manifest, ids, pending=False)
        return len(chunks)

    def rewrite_chunk_files(self) -> None:
        """Publish the index as it stands with its chunk files written afresh from the stores (`trident repair`:
        what mends chunk files that are missing, damaged or of an older format)."""
        with self._writing() as session:
            shutil.rmtree(self.index_dir / session.folder / CHUNK_MATRIX_DIR, ignore_errors=True)

    def publish_now(self) -> None:
        """Publish what this block has written so far, so readers see it from their next question; later writes go
        to a new session, published as the block ends (or by another call). A large first index publishes its
        lexical and graph engines this way while the vectors are still being embedded.

        Raises:
            TridentIndexError: the block has ended, or a write in this session failed (the block must end).
        """
        if self._ended:
            raise TridentIndexError("this writer's block has ended; open another: `with catalog.writer() as w:`")
        session = self._session
        if session is None:
            return
        if session.failed:
            raise TridentIndexError("a write in this session failed; it cannot be published (end the block)")
        self._session = None
        self.catalog.publish_session(session)
        self._published = True

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
                    manifest.replace_entry(w.document.id, unresolved=w.unresolved)

    def record_root(self, project: str, root: str) -> None:
        """Where a project's files are: read again when references into another project are bound anew."""
        if self.manifest.roots.get(project) == root:
            return
        with self._writing() as session:
            self._changed(session).roots[project] = root

    def record_source(self, project: str, source: ProjectSource, stats: dict[str, tuple[int, int]]) -> None:
        """What a run indexed a project from: when it began and the git commit, and (`stats`, by document id) the
        size and modification time the files it found unchanged have now, so freshness checks need not hash them."""
        with self._writing() as session:
            manifest = self._changed(session)
            manifest.sources[project] = source
            for doc_id, (size, mtime_ns) in stats.items():
                entry = manifest.documents.get(doc_id)
                if entry is not None and (entry.size, entry.mtime_ns) != (size, mtime_ns):
                    manifest.replace_entry(doc_id, size=size, mtime_ns=mtime_ns)

    def record_skipped(self, project: str, skipped: Sequence[SkippedFile]) -> None:
        """The files of a project the walk refused, and why (status lists them)."""
        if self.manifest.skipped.get(project, []) == list(skipped):
            return
        with self._writing() as session:
            self._changed(session).skipped[project] = list(skipped)


def _mark_pending(manifest: Manifest, doc_ids: Sequence[str], *, pending: bool) -> None:
    """Add the documents to the manifest's list of those waiting for vectors, or take them off it."""
    if not pending and not manifest.vectors_pending:
        return
    waiting = set(manifest.vectors_pending)
    changed = waiting | set(doc_ids) if pending else waiting - set(doc_ids)
    if changed != waiting:
        manifest.vectors_pending = sorted(changed)
