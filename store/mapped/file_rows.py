"""Rows of a memory-mapped matrix read by position with `pread`, not through the mapping.

A read through a mapping faults in the pages around each row as well: the kernel maps up to 64 KB of the file's
cached pages around a fault (fault-around), whatever `madvise` says. Scattered rows then leave much of the file
resident in the process: at 100K chunks, the few hundred candidate rows each dense search rescored (1.5 KB each)
left 10 MB more of the 147 MB float32 chunk matrix resident per query, all of it after 50 queries. Read with
`pread`, those bytes come from the page cache (the kernel's to share and reclaim) into a small array of the
process's own.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable
from pathlib import Path

import numpy as np


def write_array(path: Path, array: np.ndarray) -> None:
    """An array as a .npy file, flushed to disk (what `np.load(..., mmap_mode="r")` and `FileRows` read)."""
    with open(path, "wb") as handle:
        np.save(handle, array, allow_pickle=False)
        handle.flush()
        os.fsync(handle.fileno())


class FileRows:
    """The rows of a memory-mapped .npy matrix (`np.load(..., mmap_mode="r")`), read by `take`. The file stays open
    while this lives (as the mapping keeps it), so a generation folder removed meanwhile still reads."""

    def __init__(self, mapped: np.memmap) -> None:
        assert mapped.filename is not None and mapped.ndim == 2 and mapped.flags.c_contiguous
        self._fd = os.open(mapped.filename, os.O_RDONLY)
        weakref.finalize(self, os.close, self._fd)
        self._offset = int(mapped.offset)
        self._dtype = mapped.dtype
        self._dim = int(mapped.shape[1])
        self._row_bytes = self._dim * mapped.dtype.itemsize

    def take(self, rows: np.ndarray) -> np.ndarray:
        """These rows (row numbers within the matrix), in the order given."""
        out = np.empty((len(rows), self._dim), dtype=self._dtype)
        if not out.size:
            return out
        view = out.data.cast("B")
        size = self._row_bytes
        for at, row in enumerate(np.asarray(rows).tolist()):
            if os.preadv(self._fd, [view[at * size : (at + 1) * size]], self._offset + row * size) != size:
                raise OSError(f"a short read of row {row} of a matrix file")
        return out


def row_reader(matrix: np.ndarray) -> Callable[[np.ndarray], np.ndarray] | None:
    """How to read rows of a memory-mapped matrix without faulting in its pages (`FileRows.take`); None when it is
    an array in memory (or the platform has no `preadv`, or its file is gone already): read it as an array."""
    if not isinstance(matrix, np.memmap) or matrix.filename is None or matrix.ndim != 2 or not hasattr(os, "preadv"):
        return None
    try:
        return FileRows(matrix).take
    except OSError:  # the file went with its generation before it was opened here: read through the mapping
        return None
