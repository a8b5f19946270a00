"""What a process has worked out about one version of a file (its hash, when its lines last changed), remembered
per (path, size, modification time): a file touched again is worked out again, an unchanged one never twice."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")

FileVersion = tuple[str, int, int]  # (path, size in bytes, modification time in ns)


def file_version(path: Path, info: os.stat_result) -> FileVersion:
    return (str(path), info.st_size, info.st_mtime_ns)


class PerFileVersion(Generic[T]):
    """A bounded, thread-safe memory of one value per file version. When `limit` versions are held it starts afresh:
    a search touches a few files, a status pass at most a project's, so a simple reset costs little."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._known: dict[FileVersion, T] = {}
        self._lock = threading.Lock()

    def get(self, version: FileVersion) -> T | None:
        with self._lock:
            return self._known.get(version)

    def put(self, version: FileVersion, value: T) -> T:
        with self._lock:
            if len(self._known) >= self._limit:
                self._known.clear()
            self._known[version] = value
        return value

    def get_or_make(self, version: FileVersion, make: Callable[[], T]) -> T:
        """The value remembered for `version`, else `make()`'s (run outside the lock, so slow work on one file does
        not hold up the others), remembered."""
        known = self.get(version)
        return known if known is not None else self.put(version, make())
