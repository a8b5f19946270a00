"""The catalog keeps Tantivy, LanceDB and Kùzu consistent: readers see whole published generations, and a writer's
changes are published all at once or not at all.

Reading: a catalog reads the generation the manifest names (graph and lexical engines in their own folder, the
chunk vectors at a pinned LanceDB version), and nothing else: a published generation is read-only. One stat of the
manifest per access tells it when a writer has published a newer one, and it moves there; so any number of
processes (and threads) can read while one writes.

Writing is one explicit block:

    with catalog.writer() as w:
        w.write(...)

`writer()` takes the index's write lock (one writer at a time, across processes and threads) and yields a
`Writer` (store/writer.py). Its first write opens a session on a new generation folder, copied from the published
one; the writer reads its own writes. When the block ends normally the session is published by replacing the
manifest, and this catalog moves to it; if the block raised (or a write in it failed half-way) the session is
dropped and the published generation stays as it was. A process that dies mid-session leaves the published
generation untouched; its leftovers are removed by the next writer.
"""

from __future__ import annotations

import logging
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from trident.store import locking
from trident.store.compatibility import check_compatible
from trident.store.document_write import DocumentWrite, embedding_text
from trident.store.engines.graph_backends import GraphBackend
from trident.store.engines.graph_memory import GraphMemory
from trident.store.errors import (
    IndexLockedError,
    ModelMismatchError,
    ReadOnlyIndexError,
    SchemaMismatchError,
    TridentIndexError,
)
from trident.store.generations import Engines, open_published, publish_first, remove_leftovers, vector_dim
from trident.store.locking import LOCK_FILE, OnWait
from trident.store.manifest import Manifest, manifest_identity
from trident.store.protocols import Embedder, GraphStore, TextIndex, VectorIndex
from trident.store.schema import Entity
from trident.store.settings import StoreSettings
from trident.store.writer import Writer

__all__ = [  # the errors and the write's records are imported from here by callers that write
    "LOCK_FILE",
    "Catalog",
    "DocumentWrite",
    "IndexLockedError",
    "ModelMismatchError",
    "ReadOnlyIndexError",
    "SchemaMismatchError",
    "TridentIndexError",
    "Writer",
    "embedding_text",
]

log = logging.getLogger(__name__)

# A new index is set up by whoever opens it first; a reader that finds a writer doing so waits this long.
SETUP_WAIT_SECONDS = 60.0
OPEN_ATTEMPTS = 20


class Catalog:
    """The three engines of one tenant's index plus its manifest, as published; `writer()` writes.

    `read_only=True` refuses to open a writer (servers that must never write, status commands).
    """

    def __init__(
        self,
        index_dir: Path,
        tenant: str,
        embedder: Embedder | None = None,
        *,
        read_only: bool = False,
        graph_backend: GraphBackend | None = None,
    ) -> None:
        """`graph_backend`: the engine the graph is kept in if this catalog makes the index (None:
        TRIDENT_GRAPH_BACKEND's); an index that exists keeps its own."""
        self.index_dir = index_dir
        self.tenant = tenant
        self.embedder = embedder
        self.read_only = read_only
        self._graph_backend = graph_backend
        self._mutex = threading.RLock()
        self._closed = False
        self._writing_thread: int | None = None  # the thread whose writer block is open on this catalog
        index_dir.mkdir(parents=True, exist_ok=True)
        self._view = self._open_view()

    @classmethod
    def open_reader(cls, index_dir: Path, tenant: str, embedder: Embedder | None = None) -> Catalog:
        """A catalog that only reads (and follows the generations writers publish)."""
        return cls(index_dir, tenant, embedder, read_only=True)

    # --- reading ---

    def _current(self) -> Engines:
        """The newest published generation (opened on the first call after a writer published it)."""
        view = self._view
        if self._closed or manifest_identity(self.index_dir) == view.identity:
            return view
        with self._mutex:
            if manifest_identity(self.index_dir) != self._view.identity:
                try:
                    self._view = self._open_view(self._view)
                except (OSError, RuntimeError) as exc:  # keep answering from the generation already open
                    log.warning("staying on generation %s: %s", self._view.folder, exc)
            return self._view

    @property
    def manifest(self) -> Manifest:
        return self._current().manifest

    def published_manifest(self) -> Manifest:
        """The manifest on disk now: the one this catalog reads when it was read from (or written as) that very file,
        without parsing it again; else read from disk."""
        view = self._current()
        if view.identity is not None and view.identity == manifest_identity(self.index_dir):
            return view.manifest
        return Manifest.load(self.index_dir)

    def graph_memory(self, published: Manifest) -> GraphMemory | None:
        """What this catalog's graph store holds in memory, if it reads the generation `published` names."""
        view = self._current()
        if published.generation_dir is None or view.folder != published.generation_dir:
            return None
        return view.graph.memory()

    @property
    def text(self) -> TextIndex:
        return self._current().text

    @property
    def vectors(self) -> VectorIndex:
        return self._current().vectors

    @property
    def graph(self) -> GraphStore:
        return self._current().graph

    @property
    def generation_folder(self) -> Path:
        return self.index_dir / self._current().folder

    def published_folder(self) -> tuple[int, Path]:
        """The generation this catalog reads and its folder, taken together (two reads could straddle a publish)."""
        view = self._current()
        return view.manifest.generation, self.index_dir / view.folder

    def entities(self) -> list[Entity]:
        return self.graph.entities(self.tenant)

    def _open_view(self, current: Engines | None = None) -> Engines:
        """Open the published generation read-only, setting up a new index first if need be.

        Raises:
            SchemaMismatchError: the index was written by a Trident with another schema (it is left as it is).
            IndexLockedError: the index has no published generation and another process keeps the lock.
        """
        for _ in range(OPEN_ATTEMPTS):
            manifest, identity = Manifest.load_with_identity(self.index_dir)
            check_compatible(self.index_dir, manifest, self.embedder)
            if manifest.generation_dir is None:  # a new index, or one reset meanwhile
                self._set_up(wait_seconds=SETUP_WAIT_SECONDS if current is None else 0.0)
                continue
            if current is not None and (manifest.generation_dir, manifest.chunks_version) == (
                current.folder,
                current.manifest.chunks_version,
            ):
                current.manifest, current.identity = manifest, identity
                return current
            view = open_published(self.index_dir, manifest, identity, vector_dim(self.embedder, manifest))
            if view is not None:
                return view
            # else it was published and already replaced and removed: read the manifest again
        raise TridentIndexError(f"the index at {self.index_dir} kept changing while it was being opened; try again")

    def _set_up(self, wait_seconds: float) -> None:
        """Publish a first, empty generation. Waits while another holds the lock (it is setting the index up
        itself, or writing to one that was reset meanwhile).

        Raises:
            IndexLockedError: the other kept the lock for `wait_seconds` without publishing.
        """
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                fd = locking.take(self.index_dir)
            except IndexLockedError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
                if Manifest.load(self.index_dir).generation_dir is not None:
                    return
                continue
            try:
                manifest = Manifest.load(self.index_dir)
                if manifest.generation_dir is None:
                    dim = vector_dim(self.embedder, manifest)
                    publish_first(self.index_dir, self.tenant, manifest, dim, self.new_graph_backend())
                return
            finally:
                locking.drop(fd)

    def new_graph_backend(self) -> GraphBackend:
        """The engine the graph of an index this catalog makes is kept in."""
        return self._graph_backend or StoreSettings().graph_backend

    # --- writing ---

    @contextmanager
    def writer(self, *, wait_seconds: float = 0.0, on_wait: OnWait | None = None) -> Iterator[Writer]:
        """The one way to write: hold the write lock for the block and write through the `Writer` it yields. On a
        normal exit what was written is published (nothing, if nothing was); if the block raises, or a write in it
        failed half-way, it is dropped. Either way the lock is released.

        While another writer holds the lock this fails at once, or retries for up to `wait_seconds`, calling
        `on_wait` before each retry (which may raise to stop waiting).

        Raises:
            ReadOnlyIndexError: the catalog was opened read-only.
            IndexLockedError: another process or thread is writing, or this thread already has a writer open on
                this catalog (write through that one).
        """
        if self.read_only:
            raise ReadOnlyIndexError(f"this catalog of {self.index_dir} was opened read-only; it cannot write")
        if self._closed:
            raise TridentIndexError(f"the catalog of {self.index_dir} is closed; open it again to write")
        if self._writing_thread == threading.get_ident():
            raise IndexLockedError(
                f"a writer of the index at {self.index_dir} is already open in this thread; write through it "
                "instead of opening another inside its block"
            )
        with locking.exclusive(self.index_dir, wait_seconds=wait_seconds, on_wait=on_wait):
            self._writing_thread = threading.get_ident()
            writer = Writer(self)
            succeeded = False
            try:
                yield writer
                succeeded = True
            finally:
                self._writing_thread = None
                self._finish(writer.end(), publish=succeeded)

    def _finish(self, session: Engines | None, *, publish: bool) -> None:
        """Publish a writer's session (or drop it); the engines it wrote become what this catalog reads."""
        if session is None:
            return
        if publish and not session.failed:
            self._publish(session)
            return
        if publish:
            log.error("not publishing generation %s: a write in it failed", session.folder)
        session.close()
        shutil.rmtree(self.index_dir / session.folder, ignore_errors=True)

    def publish_session(self, session: Engines) -> None:
        """Publish a writer's session before its block ends (`Writer.publish_now`); only the writer holding this
        catalog's write lock calls this."""
        if self._writing_thread != threading.get_ident():
            raise TridentIndexError("only the thread writing to this catalog can publish its session")
        self._publish(session)

    def _publish(self, session: Engines) -> None:
        session.publish(self.index_dir, self.tenant, keep_reading=not self._closed)
        with self._mutex:
            previous, self._view = self._view, session
        if self._closed:
            session.close()
        lock, previous.reader_lock = previous.reader_lock, None
        del previous
        if lock is not None:
            lock.release()  # a call still reading the old generation keeps its open files; Linux keeps them
        remove_leftovers(self.index_dir, keep={session.folder})

    @property
    def closed(self) -> bool:
        """Whether `close` was called: a reader still running in the background (a scan) stops when it sees this."""
        return self._closed

    def close(self) -> None:
        """Close the engines. A writer block still open publishes (or drops) its session when it ends."""
        if self._closed:
            return
        with self._mutex:
            self._closed = True
            self._view.close()
