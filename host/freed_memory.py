"""Memory a reader freed goes back to the system once it has built a view of a large index.

Building a view reads whole tables (Arrow buffers from LanceDB and Kùzu, Python objects by the hundred thousand) and
keeps a fraction of them. The rest is freed, but the allocators keep it for later: Arrow's memory pool, and glibc's
heap, which keeps what the engines' native code freed. At 100K chunks, building the entity and relation vectors
alone (a 156 MB matrix) left the process 610 MB larger; returning what was freed took 350 MB of that back.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable

import pyarrow as pa


def _glibc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, where the C library is glibc (None elsewhere: musl and macOS have none)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _glibc_trim()


def release_freed_memory() -> None:
    """Hand the memory the process has freed back to the system: Arrow's pool, then the C heap."""
    pa.default_memory_pool().release_unused()
    if _TRIM is not None:
        _TRIM(0)
