"""Generations: each published state of the graph (Kùzu) and lexical (Tantivy) engines in its own folder, and the
engines opened on one (read-only, as published, or for writing, as a new generation).

Kùzu lets one process open a database read-write and then nobody else may open it, not even read-only; so a
writer never writes a folder that readers use. It starts a new generation as a copy of the published one (the
Kùzu file is copied, the Tantivy files, which Tantivy never changes in place, are hard-linked), writes there, and
publishes it by replacing the manifest. Readers hold a shared lock on the folder they read; a writer removes old
folders only when it can lock them exclusively, so no reader ever loses its files.
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import weakref
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from trident.store.crashpoints import crash_point
from trident.store.engines.graph_backends import GraphBackend, graph_store
from trident.store.engines.graph_compaction import compacted_or_copied, take_spare, worth_compacting, write_spare
from trident.store.engines.graph_memory import GraphMemory
from trident.store.engines.lance_index import LanceVectorIndex
from trident.store.engines.tantivy_index import TantivyTextIndex
from trident.store.manifest import Manifest, ManifestIdentity, manifest_identity
from trident.store.mapped.chunk_files import reusable_files, write_chunk_files, write_empty_chunk_files
from trident.store.mapped.chunk_matrix import CHUNK_MATRIX_DIR
from trident.store.pending_file import Pending, attach_pending, write_pending
from trident.store.protocols import Embedder, GraphStore, TextIndex, VectorIndex
from trident.store.remote.remote_files import link_or_copy

log = logging.getLogger(__name__)

GENERATIONS_DIR = "generations"
GRAPH_FILE = "graph.kuzu"
LEXICAL_DIR = "lexical"
READERS_FILE = ".readers"
SEMANTIC_DIR = "semantic"  # one LanceDB table for all generations: each pins its version
DEFAULT_DIM = 384  # the default model's: what an index opened without a model, and recording none, assumes
# Kùzu keeps these beside its file while open; a cleanly closed database has none, a copy takes any there is.
GRAPH_SIDE_FILES = (".wal", ".shadow")


def vector_dim(embedder: Embedder | None, manifest: Manifest) -> int:
    """The dimension of the chunk vectors: the model's, else the one the index records."""
    if embedder is not None:
        return embedder.dim
    return manifest.model.dim if manifest.model else DEFAULT_DIM


def generation_name(number: int) -> str:
    """The folder of a generation, relative to the index folder (as the manifest records it)."""
    return f"{GENERATIONS_DIR}/g{number:08d}"


def create_generation(
    index_dir: Path,
    name: str,
    graph_from: Path | None,
    lexical_from: Path | None,
    *,
    compact: bool = False,
    engine: str = "kuzu",
) -> tuple[Path, bool]:
    """A new generation folder holding a copy of the given graph file and lexical folder (or nothing: empty); with
    `compact`, the graph written afresh from the rows of the given one, which must be closed cleanly
    (`graph_compaction.py`; `engine`: the graph engine's module). Returns the folder and whether its graph was
    written afresh.

    A folder of that name left by a writer that died before publishing it is replaced.
    """
    folder = index_dir / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / READERS_FILE).touch()
    afresh = False
    if graph_from is not None and graph_from.exists():
        copy = partial(_copy_graph, graph_from, folder / GRAPH_FILE)
        if take_spare(graph_from, folder / GRAPH_FILE):  # written afresh after the last run published
            afresh = True
        elif compact:
            afresh = compacted_or_copied(graph_from, folder / GRAPH_FILE, copy, engine)
        else:
            copy()
    crash_point("generation.graph_copied")
    lexical = folder / LEXICAL_DIR
    lexical.mkdir()
    if lexical_from is not None and lexical_from.is_dir():
        for source in lexical_from.iterdir():
            if source.is_file() and not source.name.endswith(".lock"):
                link_or_copy(source, lexical / source.name)  # Tantivy never rewrites a segment in place
    return folder, afresh


def prepare_next_session(index_dir: Path, published: Manifest) -> bool:
    """After a publication, with the write lock held: write the published graph file afresh for the next session
    when it has grown enough (`graph_compaction.write_spare`); whether it did."""
    if published.generation_dir is None:
        return False
    graph = index_dir / published.generation_dir / GRAPH_FILE
    return _closed_cleanly(graph) and write_spare(graph, published.graph_baseline_bytes, _engine(published))


def _engine(manifest: Manifest) -> str:
    """The Python module of the engine an index's graph is kept in."""
    return graph_store(manifest.graph_backend).ENGINE


def _copy_graph(source: Path, target: Path) -> None:
    """The Kùzu file and whatever of Kùzu's lies beside it."""
    shutil.copyfile(source, target)
    for suffix in GRAPH_SIDE_FILES:
        side = source.with_name(source.name + suffix)
        if side.exists():
            shutil.copyfile(side, target.with_name(target.name + suffix))


def _closed_cleanly(graph: Path) -> bool:
    """Whether a graph file is there with nothing of Kùzu's beside it (a write-ahead log or shadow pages)."""
    return graph.exists() and not any(graph.with_name(graph.name + suffix).exists() for suffix in GRAPH_SIDE_FILES)


def _link_chunk_matrix(source: Path, folder: Path) -> None:
    """The chunk-vector file of the generation copied from, which the publish brings up to date (never written in
    place: a publish writes a new one and renames it over these links)."""
    written = source / CHUNK_MATRIX_DIR
    if written.is_dir():
        (folder / CHUNK_MATRIX_DIR).mkdir()
        for part in written.iterdir():
            link_or_copy(part, folder / CHUNK_MATRIX_DIR / part.name)


class ReaderLock:
    """A shared lock on one generation folder; writers leave a folder alone while anyone holds one."""

    def __init__(self, fd: int) -> None:
        self._release = weakref.finalize(self, os.close, fd)

    @classmethod
    def acquire(cls, folder: Path) -> ReaderLock | None:
        """Lock the folder for reading; None when a writer removed it (read the manifest again)."""
        path = folder / READERS_FILE
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            return None
        fcntl.flock(fd, fcntl.LOCK_SH)  # waits only while a writer is removing this very folder
        try:
            still_there = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            still_there = False
        if not still_there:
            os.close(fd)
            return None
        return cls(fd)

    def release(self) -> None:
        self._release()


def remove_unused(index_dir: Path, keep: set[str]) -> list[str]:
    """Delete the generation folders not in `keep` that no reader holds; returns the names deleted.

    Only a writer (under the write lock) calls this, so a folder without a readers file is one a writer died
    building and was never published.
    """
    root = index_dir / GENERATIONS_DIR
    if not root.is_dir():
        return []
    removed: list[str] = []
    for folder in sorted(root.iterdir()):
        name = f"{GENERATIONS_DIR}/{folder.name}"
        if name in keep or not folder.is_dir():
            continue
        try:
            fd: int | None = os.open(folder / READERS_FILE, os.O_RDONLY)
        except FileNotFoundError:
            fd = None
        try:
            if fd is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # a reader still uses it; a later writer removes it
            _remove(folder)
            removed.append(name)
        finally:
            if fd is not None:
                os.close(fd)
    if removed:
        log.info("removed unused generations %s", ", ".join(removed))
    return removed


def _remove(folder: Path) -> None:
    """Delete the engines first and the readers file last, so a half-removed folder is still recognised."""
    for child in sorted(folder.iterdir(), key=lambda p: p.name == READERS_FILE):
        if child.is_dir():
            shutil.rmtree(child)
        else:
            child.unlink()
        crash_point("generation.removing")
    folder.rmdir()


def remove_leftovers(index_dir: Path, keep: set[str]) -> None:
    """Generation folders no one reads any more and manifest drafts of writers that died while saving."""
    remove_unused(index_dir, keep)
    for draft in index_dir.glob(".manifest-*.json"):
        draft.unlink(missing_ok=True)


def has_leftovers(index_dir: Path, published: str | None) -> bool:
    """Whether `remove_leftovers` would find anything (one listing of the generations folder)."""
    folders = index_dir / GENERATIONS_DIR
    others = folders.is_dir() and any(f"{GENERATIONS_DIR}/{f.name}" != published for f in folders.iterdir())
    return others or any(index_dir.glob(".manifest-*.json"))


@dataclass
class Engines:
    """The three engines of one generation with its manifest: published (a view) or being written (a session)."""

    manifest: Manifest
    text: TextIndex
    vectors: VectorIndex
    graph: GraphStore
    folder: str
    identity: ManifestIdentity | None = None  # views: the manifest file they were read from
    reader_lock: ReaderLock | None = None  # views: keeps writers from removing the folder
    failed: bool = False  # sessions: a write raised half-way, so the session must not be published
    pending_base: Pending | None = None  # sessions: the pending references of the generation copied from
    compacted: bool = False  # sessions: the graph file was written afresh, not copied

    def close(self) -> None:
        self.graph.close()
        self.text.rollback()
        if self.reader_lock is not None:
            self.reader_lock.release()

    def publish(self, index_dir: Path, tenant: str, *, keep_reading: bool) -> None:
        """Publish a written generation: close the writers, pin the vectors, write the tenant's chunk files and the
        pending references beside the generation (`chunk_files.py`, `pending_file.py`), replace the manifest. With
        `keep_reading` the engines stay open read-only, as a view of what was published; else they are closed."""
        self.text.commit()
        changed = self.vectors.changed_documents
        previous = reusable_files(index_dir / self.folder, tenant, changed)  # the chunk files to add a segment to
        rows = self.graph.chunk_table(tenant, sorted(changed) if previous is not None and changed is not None else None)
        crash_point("publish.begin")
        if keep_reading:
            self.graph.reopen_read_only()
            self.text = TantivyTextIndex(index_dir / self.folder / LEXICAL_DIR, read_only=True)
        else:
            self.graph.close()  # readers of other processes can open it only once it is closed here
        crash_point("publish.graph_closed")
        if self.compacted:  # what the next sessions measure the file's growth against
            self.manifest.graph_baseline_bytes = (index_dir / self.folder / GRAPH_FILE).stat().st_size
        self.vectors.optimize()  # before the pin: the published version must hold the ANN index readers search
        self.vectors.pin(self.vectors.version())
        self.manifest.generation += 1  # caches keyed by generation must not keep what they read mid-session
        self.manifest.chunks_version = self.vectors.version()
        write_chunk_files(index_dir / self.folder, self.vectors, tenant, self.manifest.generation, previous, rows)
        write_pending(index_dir / self.folder, self.manifest, self.pending_base or {})
        self.reader_lock = ReaderLock.acquire(index_dir / self.folder)
        crash_point("publish.ready")
        self.manifest.save(index_dir)
        crash_point("publish.saved")
        self.identity = manifest_identity(index_dir)


def open_published(index_dir: Path, manifest: Manifest, identity: ManifestIdentity | None, dim: int) -> Engines | None:
    """The published generation the manifest names, read-only; None if a writer has already removed it."""
    assert manifest.generation_dir is not None
    folder = index_dir / manifest.generation_dir
    reader_lock = ReaderLock.acquire(folder)
    if reader_lock is None:
        return None
    try:
        graph = graph_store(manifest.graph_backend)(folder / GRAPH_FILE, read_only=True)
        text = TantivyTextIndex(folder / LEXICAL_DIR, read_only=True)
        vectors = LanceVectorIndex(index_dir / SEMANTIC_DIR, dim, version=manifest.chunks_version)
    except BaseException:
        reader_lock.release()
        raise
    log.info("reading generation %s of %s", manifest.generation_dir, index_dir)
    return Engines(manifest, text, vectors, graph, manifest.generation_dir, identity, reader_lock)


def open_new(index_dir: Path, published: Manifest, dim: int, memory: GraphMemory | None = None) -> Engines:
    """A new generation, copied from the published one, with its engines open for writing. Only a writer holding
    the lock calls this; it first removes what writers that died left behind. `memory`: what the published
    graph's store holds in memory (its file is what the new graph is copied from)."""
    assert published.generation_dir is not None
    remove_leftovers(index_dir, keep={published.generation_dir})
    manifest = published.writable_copy()
    manifest.generation += 1
    name = generation_name(manifest.generation)
    source = index_dir / published.generation_dir
    compact = _closed_cleanly(source / GRAPH_FILE) and worth_compacting(
        source / GRAPH_FILE, published.graph_baseline_bytes
    )
    folder, afresh = create_generation(
        index_dir, name, source / GRAPH_FILE, source / LEXICAL_DIR, compact=compact, engine=_engine(published)
    )
    _link_chunk_matrix(source, folder)
    pending = attach_pending(manifest, source, folder)
    crash_point("session.copied")
    vectors = LanceVectorIndex(index_dir / SEMANTIC_DIR, dim)
    if published.chunks_version is not None:
        vectors.roll_back_to(published.chunks_version)
    manifest.generation_dir = name
    graph = graph_store(published.graph_backend)(folder / GRAPH_FILE, memory=memory)
    return Engines(
        manifest, TantivyTextIndex(folder / LEXICAL_DIR), vectors, graph, name, pending_base=pending, compacted=afresh
    )


def publish_first(index_dir: Path, tenant: str, manifest: Manifest, dim: int, backend: GraphBackend) -> None:
    """Publish a first, empty generation, its graph kept in `backend` (only a holder of the write lock calls
    this)."""
    name = generation_name(manifest.generation)
    folder, _ = create_generation(index_dir, name, None, None)
    manifest.graph_backend = backend.value
    graph_store(backend)(folder / GRAPH_FILE).close()
    TantivyTextIndex(folder / LEXICAL_DIR)
    vectors = LanceVectorIndex(index_dir / SEMANTIC_DIR, dim)
    write_empty_chunk_files(folder, tenant, manifest.generation)
    crash_point("setup.created")
    manifest.generation_dir, manifest.chunks_version = name, vectors.version()
    manifest.save(index_dir)
