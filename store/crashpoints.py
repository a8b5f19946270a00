"""Named points in the write path where a test may kill the process, to prove that no crash breaks the index.

`TRIDENT_CRASH_AT=<name>:<n>` sends SIGKILL to this process the n-th time it passes the point `name` (n defaults
to 1). `TRIDENT_CRASH_TRACE=<file>` appends `<name>:<n>` to the file at every point passed, which lists the points
a run goes through. Without either variable a crash point costs two environment lookups.
"""

from __future__ import annotations

import os
import signal
import threading

CRASH_AT = "TRIDENT_CRASH_AT"
CRASH_TRACE = "TRIDENT_CRASH_TRACE"


class _Counter:
    """How often each point was passed in this process (process-wide by nature: it is the process that dies)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[str, int] = {}

    def passed(self, name: str) -> int:
        with self._lock:
            self._seen[name] = self._seen.get(name, 0) + 1
            return self._seen[name]


_COUNTER = _Counter()


def crash_point(name: str) -> None:
    """Die here (SIGKILL, no cleanup of any kind) if TRIDENT_CRASH_AT names this pass of this point."""
    target = os.environ.get(CRASH_AT)
    trace = os.environ.get(CRASH_TRACE)
    if target is None and trace is None:
        return
    count = _COUNTER.passed(name)
    if trace:
        with open(trace, "a", encoding="utf-8") as handle:
            handle.write(f"{name}:{count}\n")
    if target:
        wanted, _, nth = target.partition(":")
        if wanted == name and count == int(nth or 1):
            os.kill(os.getpid(), signal.SIGKILL)
