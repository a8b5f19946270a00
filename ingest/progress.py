"""What an indexing run reports while it runs: stages with their counts, and each publication before its end."""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def stage(self, name: str, total: int) -> None: ...

    def advance(self, n: int = 1) -> None: ...

    def published(self, chunks_waiting: int) -> None:
        """The run published before its end: its documents answer lexical and graph questions now, and
        `chunks_waiting` of its chunks are not yet in the dense path's reach (0: every one is)."""
        ...


class Silent:
    def stage(self, name: str, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def published(self, chunks_waiting: int) -> None:
        pass
