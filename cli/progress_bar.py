"""A rich progress bar on stderr for indexing stages (parsing files, embedding chunks)."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn


class RichProgress:
    """Implements the pipeline's Progress protocol: one bar per stage, with items per second."""

    def __init__(self, console: Console, project: str) -> None:
        self._project = project
        self._told = False
        self._bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("[dim]{task.fields[rate]}"),
            TimeElapsedColumn(),
            console=console,
        )
        self._task: TaskID | None = None

    def __enter__(self) -> RichProgress:
        self._bar.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc_type is None:
            self._finish_pulsing()  # the last stage is over too
        self._bar.stop()

    def stage(self, name: str, total: int) -> None:
        """A new bar for the stage; one without a count (linking, graph vectors, communities) pulses while it runs,
        so a slow stage shows by name."""
        self._finish_pulsing()  # the stage before it is over
        unit = {"parsing": "files", "embedding": "chunks", "writing": "chunks"}.get(name, "")
        self._task = self._bar.add_task(f"{self._project}: {name} {unit}".rstrip(), total=total or None, rate="")

    def _finish_pulsing(self) -> None:
        """The current stage shown as done, if it had no count (its bar pulsed while it ran)."""
        if self._task is not None and self._bar.tasks[self._task].total is None:
            self._bar.update(self._task, total=1, completed=1)

    def advance(self, n: int = 1) -> None:
        if self._task is None:
            return
        self._bar.advance(self._task, n)
        speed = self._bar.tasks[self._task].speed
        if speed:
            self._bar.update(self._task, rate=f"{speed:.1f}/s")

    def published(self, chunks_waiting: int) -> None:
        """Said once per run: from here on searches find its documents by words and links, by meaning as they are
        embedded."""
        if self._told or not chunks_waiting:
            return
        self._told = True
        self._bar.console.print(
            f"[bold]{self._project}[/bold]: published for lexical and graph search; embedding {chunks_waiting} "
            "chunks for the dense path (searches meanwhile say how far it reaches)"
        )
