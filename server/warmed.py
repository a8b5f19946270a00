"""Which index generation a server's warm-up has last been through, so that a write run in the same process lets it
go first.

A watched edit (or an index job) publishes what it wrote, then syncs the graph vectors and the communities: at 100K
chunks seconds of Python, which shared the interpreter with the warm-up building the views every search after the
edit waits for (its entity directory, chunk vectors and walk graph). The run now waits, at most `READERS_FIRST_SECONDS`,
until the warm-up has been through the generation it published, and syncs after.
"""

from __future__ import annotations

import logging
import threading

log = logging.getLogger(__name__)
READERS_FIRST_SECONDS = 30.0  # how long a write run waits for the warm-up before it syncs anyway


class WarmedGenerations:
    """The last generation the warm-up finished with (built, or gave up on: a run never waits on a failed one)."""

    def __init__(self) -> None:
        self._last: int | None = None
        self._stopped = False
        self._changed = threading.Condition()

    def finished(self, generation: int | None) -> None:
        with self._changed:
            self._last = generation
            self._changed.notify_all()

    def stopped(self) -> None:
        """The warm-up has ended (the server stops): no run waits for it any more."""
        with self._changed:
            self._stopped = True
            self._changed.notify_all()

    def wait_for(self, generation: int, timeout: float | None = READERS_FIRST_SECONDS) -> bool:
        """Wait until the warm-up has been through `generation` or a later one; whether it has (False: timed out,
        or the warm-up has ended)."""
        with self._changed:
            self._changed.wait_for(lambda: self._stopped or self._warmed(generation), timeout)
            warmed, stopped = self._warmed(generation), self._stopped
        if not (warmed or stopped):
            log.warning(
                "the warm-up had not built index version %d after %s s; syncing the graph vectors and communities "
                "beside it",
                generation,
                timeout,
            )
        return warmed

    def _warmed(self, generation: int) -> bool:
        return self._last is not None and self._last >= generation
