"""The snapshot of an index folder as published: every file a reader of the published generation needs, each with
its content's sha256 and size, in a deterministic order.

That is the manifest, the folder of the generation it names (graph, lexical files, chunk vectors), the LanceDB
tables every generation shares (each pins its version of the chunk vectors; the graph vectors and communities are
read at their latest) and the small files saying whether those are in step with the graph. Left out: the write
lock, readers' lock files, drafts of writers (names starting with a dot at the index's top level or a folder's),
partial files (`*.tmp`), the other generations' folders, and this module's own bookkeeping (`.remote/`).

Hashing a large index takes seconds, so each file's digest is cached by (path, size, mtime_ns): a file that has not
changed is not read again on the next push or pull.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, Field, field_validator, model_validator

from trident.store.engines.graph_compaction import SPARE_FILE
from trident.store.generations import GENERATIONS_DIR, READERS_FILE
from trident.store.locking import LOCK_FILE
from trident.store.manifest import Manifest

REMOTE_DIR = ".remote"  # bookkeeping of the object-storage sync, never part of a snapshot
HASH_CACHE_FILE = "hashes.json"
HASH_CHUNK = 1 << 20


class SnapshotFile(BaseModel):
    """One file of a snapshot: where it lives in the index folder, and what it holds. A file list comes from the
    bucket, which anyone with write access to it can change, so a path that could land outside the index folder or
    on its lock and bookkeeping is refused when the list is read, before anything is written."""

    path: str = Field(description="Relative to the index folder, with '/' separators")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    size: int = Field(ge=0)

    @field_validator("path")
    @classmethod
    def _inside(cls, path: str) -> str:
        parts = path.split("/")
        if (
            "\\" in path
            or "\0" in path
            or any(part in ("", ".", "..") for part in parts)
            or _left_out(parts[0])
            or parts[0] == LOCK_FILE
        ):
            raise ValueError(f"{path!r} is not a file of an index folder (a relative path inside it, no '..')")
        return path


class Snapshot(BaseModel):
    """The files of one published state of an index folder, sorted by path."""

    generation_dir: str = Field(
        pattern=rf"^{GENERATIONS_DIR}/[A-Za-z0-9_-]+$",
        description="The published generation's folder, as the manifest names it",
    )
    files: list[SnapshotFile]

    @model_validator(mode="after")
    def _one_generation(self) -> Snapshot:
        """Every file is the named generation's or outside the generations: a list never writes into another."""
        for file in self.files:
            if file.path.startswith(f"{GENERATIONS_DIR}/") and not file.path.startswith(f"{self.generation_dir}/"):
                raise ValueError(f"{file.path!r} is in another generation than {self.generation_dir!r}")
        return self

    def to_json(self) -> bytes:
        """The same bytes for the same files, whoever writes it."""
        return self.model_dump_json().encode()

    def digest(self) -> str:
        return hashlib.sha256(self.to_json()).hexdigest()


class NoPublishedGenerationError(ValueError):
    """The folder has no published generation to take a snapshot of."""


def take_snapshot(index_dir: Path) -> Snapshot:
    """The snapshot of what `index_dir` publishes now. Call it while no writer changes the folder (under the write
    lock): a file replaced while it is read would be hashed in neither version.

    Raises:
        NoPublishedGenerationError: the folder has no manifest naming a generation.
    """
    manifest = Manifest.load(index_dir)
    if manifest.generation_dir is None:
        raise NoPublishedGenerationError(f"{index_dir} has no published generation to share")
    hashes = HashCache(index_dir)
    files = [hashes.entry(path) for path in sorted(published_paths(index_dir, manifest.generation_dir))]
    hashes.save()
    return Snapshot(generation_dir=manifest.generation_dir, files=files)


def published_paths(index_dir: Path, generation_dir: str) -> Iterator[str]:
    """The relative paths of the files a snapshot holds (unordered)."""
    for entry in os.scandir(index_dir):
        if _left_out(entry.name) or entry.name == REMOTE_DIR:
            continue
        if entry.name == GENERATIONS_DIR:
            generation = index_dir / generation_dir
            if generation.is_dir():
                yield from _files_under(index_dir, generation)
        elif entry.is_dir(follow_symlinks=False):
            yield from _files_under(index_dir, Path(entry.path))
        elif entry.is_file(follow_symlinks=False) and entry.name != "write.lock":
            yield entry.name


def _files_under(index_dir: Path, folder: Path) -> Iterator[str]:
    for root, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if not _left_out(name)]
        for name in names:
            if name not in (READERS_FILE, SPARE_FILE) and not name.endswith((".lock", ".tmp")):
                yield Path(root, name).relative_to(index_dir).as_posix()


def _left_out(name: str) -> bool:
    """Drafts and bookkeeping: a folder or top-level file whose name starts with a dot, or a partial file. (Files
    inside a folder may start with a dot: Tantivy's `.managed.json` is part of its index.)"""
    return name.startswith(".") or name.endswith(".tmp")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


class HashCache:
    """The sha256 of each file of an index folder, kept in `.remote/hashes.json` by (path, size, mtime_ns)."""

    def __init__(self, index_dir: Path) -> None:
        self._index_dir = index_dir
        self._path = index_dir / REMOTE_DIR / HASH_CACHE_FILE
        self._known: dict[str, list[int | str]] = _read_json(self._path)
        self._used: dict[str, list[int | str]] = {}

    def entry(self, path: str) -> SnapshotFile:
        """The file at `path` (relative) with its digest, read only if it changed since it was last hashed."""
        stat = os.stat(self._index_dir / path)
        known = self._known.get(path)
        if known is not None and known[0] == stat.st_size and known[1] == stat.st_mtime_ns:
            sha256 = str(known[2])
        else:
            sha256 = file_sha256(self._index_dir / path)
        self._used[path] = [stat.st_size, stat.st_mtime_ns, sha256]
        return SnapshotFile(path=path, sha256=sha256, size=stat.st_size)

    def matches(self, path: str, sha256: str) -> bool:
        """Whether the file at `path` exists and holds content of that digest."""
        try:
            return self.entry(path).sha256 == sha256
        except FileNotFoundError:
            return False

    def remember(self, path: str, sha256: str) -> None:
        """A file just written with known content: no need to read it back."""
        stat = os.stat(self._index_dir / path)
        self._used[path] = [stat.st_size, stat.st_mtime_ns, sha256]

    def save(self) -> None:
        """Keep the entries of the files looked at since this cache was read (the others are gone or unpublished)."""
        self._path.parent.mkdir(exist_ok=True)
        partial = self._path.with_name(f".{self._path.name}.{os.getpid()}")
        partial.write_text(json.dumps(self._used, sort_keys=True), encoding="utf-8")
        os.replace(partial, self._path)


def _read_json(path: Path) -> dict[str, list[int | str]]:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}  # a lost cache only costs reading the files again
    return found if isinstance(found, dict) else {}
