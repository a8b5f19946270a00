"""Vectors a model has made, kept by text on disk, so the same text is never embedded twice on one machine.

Indexing spends most of its time embedding (the sample projects: 7.1 of 8.9 CPU seconds). Whatever repeats a text
already embedded reads its vector instead: indexing the same files into another home or project, a checkout beside
another, `trident reset` then `index`, an evaluation's corpus again. ONNX Runtime gives a text the same bytes whatever
batch it runs in (tests/test_vector_cache.py), so a vector read back is the one the model would make.

The cache is one SQLite file shared by every process of the user (WAL: readers never wait for a writer). Vectors are
kept per model identity (the model's name, its truncation, its file's size and time, the runtime's version), so a
rebuilt or replaced model never reads another's vectors. Past its size, the vectors used longest ago go. It is a
cache: when it cannot be read or written (a full disk, a locked or broken file), the texts are embedded as without
it, after one warning.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
import time
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

ROW_OVERHEAD = 160  # bytes a row costs beyond its vector on disk (key, model, time, both indexes' entries, pages)
LOOKUP_CHUNK = 500  # keys a statement asks for (below SQLite's bound on parameters)
BUSY_SECONDS = 30.0  # how long a process waits for another's write before it gives up on the cache for a batch
SCHEMA_VERSION = 2  # a file of another version (an earlier layout) is emptied and made again: it is only a cache

# A table with rowids: the vector, 1.5 KB, stays out of the key's index (in a table without rowids, each row's whole
# record sat in the b-tree, and 300K vectors took 1.4 GB instead of 0.5).
SCHEMA = """
DROP TABLE IF EXISTS vectors;
DROP TABLE IF EXISTS models;
CREATE TABLE models (id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE);
CREATE TABLE vectors (
    model INTEGER NOT NULL,
    key BLOB NOT NULL,
    vector BLOB NOT NULL,
    used INTEGER NOT NULL,
    UNIQUE (model, key)
);
CREATE INDEX vectors_used ON vectors (used);
"""


def text_key(text: str) -> bytes:
    """The key a text is kept under: 16 bytes of its BLAKE2 hash (a collision needs about 2^64 texts)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class VectorCache:
    """Vectors of `dim` float32 by (model identity, text), in the SQLite file at `path`, at most `max_bytes` of them."""

    def __init__(self, path: Path, model: str, dim: int, max_bytes: int) -> None:
        self.path = path
        self.model = model
        self.dim = dim
        self.max_rows = max(1, max_bytes // (dim * 4 + ROW_OVERHEAD))
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._model_id = 0  # the model's row, read when the file is opened
        self._broken = False

    def get(self, texts: Sequence[str]) -> dict[int, np.ndarray]:
        """The kept vectors of `texts`, by position; texts it does not hold are left out (all of them when the cache
        cannot be read)."""
        keys = [text_key(t) for t in texts]
        found: dict[bytes, bytes] = {}
        with self._lock:
            db = self._open()
            if db is None:
                return {}
            try:
                unique = sorted(set(keys))
                for start in range(0, len(unique), LOOKUP_CHUNK):
                    part = unique[start : start + LOOKUP_CHUNK]
                    marks = ",".join("?" * len(part))
                    found.update(
                        db.execute(
                            f"SELECT key, vector FROM vectors WHERE model = ? AND key IN ({marks})",
                            [self._model_id, *part],
                        ).fetchall()
                    )
                if found:
                    with db:
                        db.executemany(
                            "UPDATE vectors SET used = ? WHERE model = ? AND key = ?",
                            [(time.time_ns(), self._model_id, key) for key in found],
                        )
            except sqlite3.Error as exc:
                self._give_up(exc)
                return {}
        width = self.dim * 4  # a row of another width (a file written by hand) is a miss, made again
        return {
            i: np.frombuffer(found[key], dtype=np.float32)
            for i, key in enumerate(keys)
            if len(found.get(key, b"")) == width
        }

    def put(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Keep `vectors` (one row a text); then, past the size, drop the vectors used longest ago."""
        if not texts:
            return
        now = time.time_ns()  # plus each row's place: of one batch, the first goes first
        kept = [
            (text_key(t), np.ascontiguousarray(v, dtype=np.float32).tobytes(), now + n)
            for n, (t, v) in enumerate(zip(texts, vectors, strict=True))
        ]
        with self._lock:
            db = self._open()
            if db is None:
                return
            rows = [(self._model_id, *row) for row in kept]
            try:
                with db:
                    db.executemany(
                        "INSERT OR REPLACE INTO vectors (model, key, vector, used) VALUES (?, ?, ?, ?)", rows
                    )
                    (held,) = db.execute("SELECT COUNT(*) FROM vectors").fetchone()
                    if held > self.max_rows:
                        db.execute(
                            "DELETE FROM vectors WHERE rowid IN (SELECT rowid FROM vectors ORDER BY used LIMIT ?)",
                            (held - self.max_rows,),
                        )
            except sqlite3.Error as exc:
                self._give_up(exc)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _open(self) -> sqlite3.Connection | None:
        """The connection, opened on first use; None once the cache has failed (this process then embeds all)."""
        if self._broken:
            return None
        if self._db is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, check_same_thread=False)
                db.execute("PRAGMA page_size = 8192")  # (a new file's: five vectors a page, not two in 4 KB)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                self._db = db
                self._model_id = self._laid_out(db)
            except (OSError, sqlite3.Error) as exc:
                self._give_up(exc)
        return self._db

    def _laid_out(self, db: sqlite3.Connection) -> int:
        """Lay the file out when it is new or of another version (one process at a time); the model's row id."""
        if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            db.execute("BEGIN IMMEDIATE")
            try:
                if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:  # (another did not meanwhile)
                    for statement in filter(str.strip, SCHEMA.split(";")):
                        db.execute(statement)
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        with db:
            db.execute("INSERT OR IGNORE INTO models (identity) VALUES (?)", (self.model,))
        (model_id,) = db.execute("SELECT id FROM models WHERE identity = ?", (self.model,)).fetchone()
        return int(model_id)

    def _give_up(self, exc: Exception) -> None:
        log.warning("the vector cache %s cannot be used (%s); this process embeds every text", self.path, exc)
        self._broken = True
        if self._db is not None:
            self._db.close()
            self._db = None

    def __repr__(self) -> str:
        return f"VectorCache({self.path}, {self.model}, at most {self.max_rows} vectors)"


def cache_summary(path: Path) -> dict[str, object]:
    """What the cache file at `path` holds: its vectors, the models they are of, its size on disk (0s when there
    is no file yet).

    Raises:
        sqlite3.Error: the file is not a cache this version reads.
    """
    if not path.exists():
        return {"path": str(path), "vectors": 0, "models": 0, "megabytes": 0.0}
    with closing(sqlite3.connect(path, timeout=BUSY_SECONDS)) as db:
        laid_out = db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        vectors = db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0] if laid_out else 0
        models = db.execute("SELECT COUNT(DISTINCT model) FROM vectors").fetchone()[0] if laid_out else 0
    size = sum(p.stat().st_size for p in (path, path.with_name(f"{path.name}-wal")) if p.exists())
    return {"path": str(path), "vectors": vectors, "models": models, "megabytes": round(size / 2**20, 1)}


def clear_cache(path: Path) -> None:
    """Empty the cache file at `path` and give its space back (processes using it meanwhile embed again)."""
    if not path.exists():
        return
    with closing(sqlite3.connect(path, timeout=BUSY_SECONDS)) as db:
        if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            with db:
                db.execute("DELETE FROM vectors")
                db.execute("DELETE FROM models")
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
