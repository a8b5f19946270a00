"""Bench-only instruments: a stage clock wrapped around the indexing pipeline, a vector cache for subsets, and the
package's bytecode written before a spawned server is timed.

Nothing here changes what the pipeline does; it wraps functions and methods by name for the length of a `with`.
"""

from __future__ import annotations

import compileall
import hashlib
import importlib.util
import resource
import shutil
import sqlite3
import sysconfig
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from trident.store.protocols import Embedder


class StageClock:
    """Seconds per named stage; nested stages are subtracted from their parent, so the stages add up to the run."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)
        self._stack: list[str] = []
        self._child: list[float] = []

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        self._stack.append(name)
        self._child.append(0.0)
        started = time.perf_counter()
        try:
            yield
        finally:
            spent = time.perf_counter() - started
            self._stack.pop()
            inner = self._child.pop()
            self.seconds[name] += spent - inner
            if self._child:
                self._child[-1] += spent

    @property
    def current(self) -> str:
        return self._stack[-1] if self._stack else "other"

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.stage(name):
                return fn(*args, **kwargs)

        return timed


@contextmanager
def patched(owner: Any, attribute: str, replacement: Any) -> Iterator[None]:
    original = getattr(owner, attribute)
    setattr(owner, attribute, replacement)
    try:
        yield
    finally:
        setattr(owner, attribute, original)


@contextmanager
def instrument_pipeline(clock: StageClock) -> Iterator[None]:
    """Time parsing, resolution, each engine, the manifest and the post-write syncs of `trident.ingest.pipeline`
    and `trident.ingest.run_syncs`."""
    from trident.ingest import parsing, pipeline, run_syncs
    from trident.store.engines.graph_vectors import GraphVectorIndex
    from trident.store.engines.kuzu_graph import KuzuGraphStore
    from trident.store.engines.lance_index import LanceVectorIndex
    from trident.store.engines.tantivy_index import TantivyTextIndex
    from trident.store.manifest import Manifest

    module_functions = [
        (pipeline, "walk", "walk"),
        (pipeline, "parse_beir_document", "parse"),
        (pipeline, "iter_corpus", "parse"),
        (pipeline, "resolve_document", "resolve references and mentions"),
        (run_syncs, "relink", "relink"),
        (run_syncs, "link_shared_names", "shared names"),
        (run_syncs, "sync_graph_vectors", "graph vectors"),
        (run_syncs, "sync_communities", "communities"),
    ]
    methods: list[tuple[type, str, str]] = [
        (TantivyTextIndex, "upsert", "tantivy"),
        (TantivyTextIndex, "commit", "tantivy"),
        (TantivyTextIndex, "delete_documents", "tantivy"),
        (LanceVectorIndex, "upsert", "lancedb"),
        (LanceVectorIndex, "delete_documents", "lancedb"),
        (KuzuGraphStore, "upsert", "kuzu"),
        (KuzuGraphStore, "delete_documents", "kuzu"),
        (KuzuGraphStore, "delete_orphans", "kuzu"),
        (KuzuGraphStore, "entities", "kuzu"),
        (KuzuGraphStore, "relations", "kuzu"),
        (GraphVectorIndex, "add", "lancedb"),
        (Manifest, "save", "manifest"),
    ]
    with ExitStack() as stack:
        for module, function, stage in module_functions:
            stack.enter_context(patched(module, function, clock.wrap(stage, getattr(module, function))))
        # A local parse calls `parse_file` through the parser seam (ingest/parsing.py).
        stack.enter_context(patched(parsing, "parse_file", clock.wrap("parse", parsing.parse_file)))
        for cls, method, stage in methods:
            stack.enter_context(patched(cls, method, clock.wrap(stage, getattr(cls, method))))
        yield


class CachedEmbedder:
    """An `Embedder` that remembers every vector by (model, text) in SQLite, so bench subsets need no re-embedding.

    `embed_seconds` counts only the wrapped model's time; `clock`, when given, books it as "embed: <stage>".
    """

    def __init__(self, inner: Embedder, path: Path, clock: StageClock | None = None) -> None:
        self.inner = inner
        self.clock = clock
        self.embed_seconds = 0.0
        self.embedded = 0
        self.reused = 0
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB)")

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def _key(self, text: str) -> str:
        return hashlib.sha1(f"{self.model_name}\0{text}".encode()).hexdigest()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        found: dict[str, bytes] = {}
        for start in range(0, len(keys), 900):
            part = keys[start : start + 900]
            rows = self._db.execute(
                f"SELECT key, vector FROM vectors WHERE key IN ({','.join('?' * len(part))})", part
            ).fetchall()
            found.update(rows)
        missing = sorted({i for i, k in enumerate(keys) if k not in found}, key=lambda i: i)
        unique: dict[str, int] = {}
        for i in missing:
            unique.setdefault(keys[i], i)
        if unique:
            started = time.perf_counter()
            fresh = self.inner.embed([texts[i] for i in unique.values()])
            spent = time.perf_counter() - started
            self.embed_seconds += spent
            self.embedded += len(unique)
            if self.clock is not None:
                self.clock.seconds[f"embed: {self.clock.current}"] += spent
                self.clock.counts[f"embed: {self.clock.current}"] += len(unique)
                if self.clock._child:
                    self.clock._child[-1] += spent
            rows = [(key, fresh[n].tobytes()) for n, key in enumerate(unique)]
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)
            self._db.commit()
            found.update(rows)
        self.reused += len(texts) - len(missing)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, key in enumerate(keys):
            out[i] = np.frombuffer(found[key], dtype=np.float32)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def stdlib_sample(folder: Path, packages: Sequence[str]) -> Path:
    """These packages of this interpreter's standard library copied into `folder` (caches left out): one project of
    real code that every machine has."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    for name in packages:
        shutil.copytree(stdlib / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


PACKAGES = ("cli", "server", "tools", "retrieval", "evaluation", "embedding", "store", "ingest")


def compile_package() -> int:
    """Write the bytecode of every `trident.*` module, as installing a wheel does; how many folders were compiled.

    A server spawned from an editable install under PYTHONDONTWRITEBYTECODE (as on the CI machines) would otherwise
    compile its ~150 modules from source at every start: 0.15 s of a cold start that a user's install never pays.
    """
    folders = []
    for name in PACKAGES:
        spec = importlib.util.find_spec(f"trident.{name}")
        if spec is not None and spec.submodule_search_locations:
            folders.extend(Path(location) for location in spec.submodule_search_locations)
    for folder in folders:
        compileall.compile_dir(folder, quiet=1)
    return len(folders)
