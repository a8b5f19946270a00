"""Keeping Python's cyclic garbage collector off what a large index's readers and writers hold.

Paused while a reader builds its in-memory view of a large index (`paused_gc`): building the entity directory of a
100K-chunk index creates a few hundred thousand objects, none of them in reference cycles; each allocation burst
triggers a collection that walks every object alive, which took about half of the build (measured: the forms of 54K
entities in 0.94 s with collection, 0.49 s without). Reference counting still frees everything as usual while the
collector is paused. Kept off what was alive before a write run (`frozen_heap`), for the run's length.
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
            if _holders == 0:
                # Inside a write run, what the pause built stays out of collections to its end (else the collector's
                # first pass after the pause walks all of it: 0.1 s after a 100K directory's build).
                _freeze_if_in_run()
                if _was_enabled:
                    gc.enable()


_frozen = 0


@contextmanager
def frozen_heap() -> Iterator[None]:
    """The objects alive when the block begins are left out of cyclic collections until it ends (`gc.freeze`).

    A write run over a large index allocates in bursts (its resolver, graph items, communities) beside millions of
    long-lived objects (the graph the writer holds, a server's views), and every full collection walked all of them:
    at 100K chunks a second each, about a fifth of a one-file edit's run. Collections still free the run's own
    garbage; what was alive before is collected again once the last block ends (`gc.unfreeze`)."""
    global _frozen
    with _lock:
        if _frozen == 0:
            gc.freeze()
        _frozen += 1
    try:
        yield
    finally:
        with _lock:
            _frozen -= 1
            if _frozen == 0:
                gc.unfreeze()


def freeze_survivors() -> None:
    """Inside a `frozen_heap` block, leave what is alive now out of collections too, until the last block ends.

    A run's first steps leave it holding large acyclic structures (its resolver: the entity directory, the mention
    forms and the code index, about a million objects at 100K chunks) that every later full collection of the run
    walked again, one of them in the middle of reading a few thousand class bases (0.3 s of a one-file edit's 3).
    Outside a block it does nothing: what it would freeze would never be unfrozen."""
    with _lock:
        _freeze_if_in_run()


def _freeze_if_in_run() -> None:
    """gc.freeze() inside a `frozen_heap` block (the caller holds `_lock`)."""
    if _frozen:
        gc.freeze()
