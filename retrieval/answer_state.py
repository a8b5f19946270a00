"""What the answering side of one reader keeps between requests, owned by its `GenerationViews` (a server holds one),
never by a module: the one bounded pool of threads its parallel and background work runs in (a search's path runs,
the stale-reference scan of a generation, the count of a project's pending changes, git blame), and the memories that
work fills (file versions' content hashes and line times, each generation's scan and each project's last count).

A reader dropped takes all of it with it: its pool is shut down when it is collected (a run past its timeout finishes
first, unseen)."""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from trident.store.file_versions import PerFileVersion

T = TypeVar("T")
log = logging.getLogger(__name__)
# The threads every request's work shares. One search waits for its path runs in a single worker thread of its own
# (not an event-loop task per run): on two cores that was 0.3-0.5 ms a search less at the 1K and 10K bench indexes,
# the event loop no longer waking for each run to contend with the runs for the interpreter's lock. A run past its
# timeout keeps its thread until it ends (a thread cannot be stopped): the pool is large enough for many of them.
ANSWER_THREADS = 32
BLAME_LIMIT = 2_000  # file versions whose line times are remembered
HASH_LIMIT = 50_000  # file versions whose content hash is remembered
COUNTS_LIMIT = 10_000  # (project, generation) counts remembered


class BackgroundCounts:
    """Per key, the last count made in the background and when; a count older than its age limit is made again in
    the pool while the last one is answered (no request waits for one)."""

    def __init__(self, pool: ThreadPoolExecutor) -> None:
        self._pool = pool
        self._counts: dict[Hashable, tuple[float, int]] = {}
        self._running: set[Hashable] = set()
        self._lock = threading.Lock()
        self._settled = threading.Condition(self._lock)

    def last(self, key: Hashable, count: Callable[[], int], max_age: float) -> int:
        """The key's last count (0 before the first); when it is older than `max_age` seconds, `count` runs again
        in the background."""
        now = time.monotonic()
        with self._lock:
            remembered = self._counts.get(key)
            due = (remembered is None or now - remembered[0] >= max_age) and key not in self._running
            if due:
                self._running.add(key)
        if due:
            self._pool.submit(self._recount, key, count)
        return remembered[1] if remembered is not None else 0

    def settled(self, timeout: float) -> bool:
        """Wait until no count is running (for tests and benchmarks); False if `timeout` passed first."""
        with self._lock:
            return self._settled.wait_for(lambda: not self._running, timeout)

    def _recount(self, key: Hashable, count: Callable[[], int]) -> None:
        found = 0
        try:
            found = count()
        except Exception:  # the pool keeps a task's error to itself: say it, and remember no change for the key
            log.exception("counting %s in the background failed", key)
        finally:
            with self._lock:
                if len(self._counts) >= COUNTS_LIMIT:
                    self._counts.clear()
                self._counts[key] = (time.monotonic(), found)
                self._running.discard(key)
                self._settled.notify_all()


class AnswerState:
    """The pool and the memories of one reader (see the module's docstring)."""

    def __init__(self, threads: int = ANSWER_THREADS) -> None:
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="trident-answer")
        weakref.finalize(self, self.pool.shutdown, wait=False)
        self.blamed: PerFileVersion[tuple[int | None, ...]] = PerFileVersion(BLAME_LIMIT)  # () : git knows none
        self.hashes: PerFileVersion[str] = PerFileVersion(HASH_LIMIT)  # each file version's sha256
        self.pending = BackgroundCounts(self.pool)  # a project's changed files, per generation
        self.scans: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()  # stale_scan's, by directory
        self.scans_lock = threading.Lock()

    def submit(self, work: Callable[..., T], *args: Any) -> Future[T]:
        return self.pool.submit(work, *args)
