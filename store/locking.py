"""The write lock of an index: one writer at a time across processes (fcntl), and the bookkeeping that ties a
hold of the lock to the write session of the catalog that writes under it.

A thread holding `write_lock` owns the hold: what a catalog writes from that thread joins one session, which the
release of the lock publishes (or drops, if the block raised). A catalog that writes without the lock takes it
itself (an owned hold) until it commits; any other writer of the same process makes it commit first.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from trident.store.errors import IndexLockedError

LOCK_FILE = "write.lock"
LOCK_RETRY_SECONDS = 0.25


class SessionWriter(Protocol):
    def commit(self) -> None:
        """Publish what was written under an owned hold and release it."""
        ...

    def finish_session(self, *, publish: bool) -> None:
        """Publish the open session (or drop it); called when a `write_lock` hold ends."""
        ...


class Hold:
    """This process's hold of one index's lock: by a thread inside `write_lock`, or owned by a catalog."""

    def __init__(self, fd: int, thread: int | None, owner: SessionWriter | None) -> None:
        self.fd = fd
        self.thread = thread
        self.owner = owner
        self.writers: list[SessionWriter] = []

    def held_by_this_thread(self) -> bool:
        return self.thread == threading.get_ident()


class _Holds:
    """The holds of this process by index folder (one OS lock per index and process, so this is per process)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._holds: dict[Path, Hold] = {}

    def get(self, index_dir: Path) -> Hold | None:
        with self._guard:
            return self._holds.get(index_dir.resolve())

    def put(self, index_dir: Path, hold: Hold) -> None:
        with self._guard:
            self._holds[index_dir.resolve()] = hold

    def pop(self, index_dir: Path) -> Hold | None:
        with self._guard:
            return self._holds.pop(index_dir.resolve(), None)


HOLDS = _Holds()


def take(index_dir: Path) -> int:
    """Take the OS lock (never waits); the descriptor that holds it.

    Raises:
        IndexLockedError: another process (or thread of this one) holds it; the message names its pid.
    """
    index_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(index_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
        os.close(fd)
        mine = " (an indexing job or watcher of this same process)" if holder == str(os.getpid()) else ""
        raise IndexLockedError(
            f"another process (pid {holder}){mine} is writing to the index at {index_dir}; "
            "wait for it to finish, or stop it, then run the command again"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


def drop(fd: int) -> None:
    try:
        os.ftruncate(fd, 0)
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def make_way(index_dir: Path) -> None:
    """A catalog of this process that owns the lock (it wrote without taking it) publishes and lets go."""
    hold = HOLDS.get(index_dir)
    if hold is not None and hold.owner is not None:
        hold.owner.commit()


def take_for(index_dir: Path, owner: SessionWriter) -> None:
    """Take the lock for a catalog's own writes, until `release_owned`."""
    make_way(index_dir)
    HOLDS.put(index_dir, Hold(take(index_dir), None, owner))


def release_owned(index_dir: Path) -> None:
    hold = HOLDS.pop(index_dir)
    if hold is not None:
        drop(hold.fd)


@contextmanager
def briefly(index_dir: Path, writer: SessionWriter) -> Iterator[None]:
    """The lock for one short step (setting an index up, a repair), unless this thread or `writer` has it."""
    hold = HOLDS.get(index_dir)
    if hold is not None and (hold.held_by_this_thread() or hold.owner is writer):
        yield
        return
    make_way(index_dir)
    fd = take(index_dir)
    try:
        yield
    finally:
        drop(fd)


@contextmanager
def write_lock(
    index_dir: Path, *, wait_seconds: float = 0.0, on_wait: Callable[[IndexLockedError], None] = lambda _: None
) -> Iterator[None]:
    """Hold the index's single-writer lock; if another process has it, fail with a clear message (at once, or
    after waiting up to `wait_seconds` for it, calling `on_wait` at each retry).

    What catalogs write from this thread while the lock is held becomes one new generation, published when the
    block ends normally and dropped if it raises (or if the process dies first).

    Raises:
        IndexLockedError: another process, or another thread of this one, is writing.
    """
    deadline = time.monotonic() + wait_seconds
    while True:
        make_way(index_dir)
        try:
            fd = take(index_dir)
            break
        except IndexLockedError as exc:
            if time.monotonic() >= deadline:
                raise
            on_wait(exc)
            time.sleep(LOCK_RETRY_SECONDS)
    hold = Hold(fd, threading.get_ident(), None)
    HOLDS.put(index_dir, hold)
    ok = False
    try:
        yield
        ok = True
    finally:
        try:
            for writer in hold.writers:
                writer.finish_session(publish=ok)
        finally:
            HOLDS.pop(index_dir)
            drop(fd)
