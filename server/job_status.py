"""What an index job is at any moment: what index_status answers, and what its record beside the index holds."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field


class JobState(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class JobStatus(BaseModel):
    job_id: str
    path: str
    project: str
    state: JobState
    stage: str = ""
    done: int = 0
    total: int = 0
    started_at: float | None = None
    finished_at: float | None = None
    summary: str | None = None
    error: str | None = None
    vectors_waiting: int | None = Field(
        None,
        description="Set once a large job has published its documents for lexical and graph search before "
        "embedding them: how many of its chunks the dense (semantic) path cannot find yet (0: all of them)",
    )
    resumed_from: str | None = Field(
        None,
        description="The job this one runs again: a server that stopped before it ended (its client went away) "
        "left it unfinished, and the next server resumed it",
    )
