"""Pausing Python's cyclic garbage collector while a reader builds its in-memory view of a large index.

Building the entity directory of a 100K-chunk index creates a few hundred thousand objects, none of them in
reference cycles; each allocation burst triggers a collection that walks every object alive, which took about half
of the build (measured: the forms of 54K entities in 0.94 s with collection, 0.49 s without). Reference counting
still frees everything as usual while the collector is paused.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_was_enabled = False


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic collection inside the block; nested and concurrent blocks resume it when the last one ends, and
    only if it was running when the first began."""
    global _holders, _was_enabled
    with _lock:
        if _holders == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _was_enabled:
                gc.enable()
