"""The write lock of an index: one writer at a time, across processes and across the threads of one process.

It is an `flock` on a file of the index; every hold opens its own descriptor, and two descriptors exclude each other
even in one process, so a second hold fails (or waits) wherever it comes from. `Catalog.writer()` holds it for the
whole of its block; `trident reset`, which removes the index, holds it alone (`exclusive`).
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from trident.store.errors import IndexLockedError

LOCK_FILE = "write.lock"
LOCK_RETRY_SECONDS = 0.25

OnWait = Callable[[IndexLockedError], None]


def take(index_dir: Path) -> int:
    """Take the OS lock (never waits); the descriptor that holds it.

    Raises:
        IndexLockedError: another process (or another hold in this one) has it; the message names its pid.
    """
    index_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(index_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
        os.close(fd)
        mine = (
            " (this same process: an indexing job, a watcher, or a writer block still open)"
            if holder == str(os.getpid())
            else ""
        )
        raise IndexLockedError(
            f"another process (pid {holder}){mine} is writing to the index at {index_dir}; "
            "wait for it to finish, or stop it, then run the command again"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


def drop(fd: int) -> None:
    """Let the lock go (and forget the holder's pid)."""
    try:
        os.ftruncate(fd, 0)
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def take_waiting(index_dir: Path, wait_seconds: float = 0.0, on_wait: OnWait | None = None) -> int:
    """Take the lock; while another holds it, fail at once or retry for up to `wait_seconds`, calling `on_wait`
    before each retry (it may raise to stop waiting).

    Raises:
        IndexLockedError: the lock was still held when the wait ran out.
    """
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            return take(index_dir)
        except IndexLockedError as exc:
            if time.monotonic() >= deadline:
                raise
            if on_wait is not None:
                on_wait(exc)
            time.sleep(LOCK_RETRY_SECONDS)


@contextmanager
def exclusive(index_dir: Path, *, wait_seconds: float = 0.0, on_wait: OnWait | None = None) -> Iterator[None]:
    """Hold the lock for the block, with no write session (writes go through `catalog.writer()`, which holds it
    too); for removing a whole index, and for tests that play another writer.

    Raises:
        IndexLockedError: another holds it (after waiting up to `wait_seconds`).
    """
    fd = take_waiting(index_dir, wait_seconds, on_wait)
    try:
        yield
    finally:
        drop(fd)
