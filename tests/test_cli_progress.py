"""The progress bars `trident index` draws on stderr: every stage shows as done once the run is."""

from __future__ import annotations

import io

from rich.console import Console

from trident.cli.progress_bar import RichProgress


def _drawn(stages: list[tuple[str, int]], *, fail: bool = False) -> list[str]:
    """The bars' last lines after the stages ran (each counted stage advanced to its total)."""
    out = io.StringIO()
    try:
        with RichProgress(Console(file=out, width=100), "proj") as progress:
            for name, total in stages:
                progress.stage(name, total)
                progress.advance(total)
            if fail:
                raise RuntimeError("the run failed")
    except RuntimeError:
        pass
    return out.getvalue().splitlines()


def test_a_stage_without_a_count_shows_as_done_when_the_next_begins_and_when_the_run_ends() -> None:
    lines = _drawn([("parsing", 3), ("linking", 0), ("graph vectors", 0)])
    assert [line.split("━")[0].strip() for line in lines] == [
        "proj: parsing files",
        "proj: linking",
        "proj: graph vectors",
    ]
    assert "3/3" in lines[0] and "1/1" in lines[1] and "1/1" in lines[2], lines


def test_a_run_that_fails_leaves_its_last_stage_unfinished() -> None:
    lines = _drawn([("parsing", 3), ("linking", 0)], fail=True)
    assert "1/1" not in lines[1], lines
