"""Background indexing jobs: a tool call starts one and returns at once; the status is polled."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from trident.ingest.progress import Progress

if TYPE_CHECKING:
    from trident.ingest.pipeline import IndexReport


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


IndexRunner = Callable[[Path, str, Progress], "IndexReport"]  # the indexing side is imported by the first job
log = logging.getLogger(__name__)
# Ended jobs kept for index_status beyond the ones still queued or running: the oldest go first, so a long-lived
# server's answer stays small (about 150 tokens a job).
KEPT_ENDED_JOBS = 30


class _JobProgress:
    def __init__(self, job: JobStatus, lock: threading.Lock) -> None:
        self._job = job
        self._lock = lock

    def stage(self, name: str, total: int) -> None:
        with self._lock:
            self._job.stage, self._job.total, self._job.done = name, total, 0

    def advance(self, n: int = 1) -> None:
        with self._lock:
            self._job.done += n

    def published(self, chunks_waiting: int) -> None:
        with self._lock:
            self._job.vectors_waiting = chunks_waiting


class IndexJobs:
    """One indexing job runs at a time (the index has one writer); later ones queue behind it."""

    def __init__(self, runner: IndexRunner) -> None:
        self._runner = runner
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="trident-index")
        self._jobs: dict[str, JobStatus] = {}
        self._lock = threading.Lock()

    def start(self, path: Path, project: str) -> JobStatus:
        job = JobStatus(job_id=uuid.uuid4().hex[:12], path=str(path), project=project, state=JobState.QUEUED)
        with self._lock:
            self._forget_old_jobs()
            self._jobs[job.job_id] = job
        self._pool.submit(self._run, job)
        return job.model_copy()

    def _forget_old_jobs(self) -> None:
        """Drop the oldest ended jobs past KEPT_ENDED_JOBS (the caller holds the lock)."""
        ended = [job.job_id for job in self._jobs.values() if job.state in (JobState.DONE, JobState.FAILED)]
        for job_id in ended[: max(0, len(ended) - KEPT_ENDED_JOBS)]:
            del self._jobs[job_id]

    def _run(self, job: JobStatus) -> None:
        with self._lock:
            job.state, job.started_at = JobState.RUNNING, time.time()
        try:
            report = self._runner(Path(job.path), job.project, _JobProgress(job, self._lock))
        except Exception as exc:  # the job's owner reads the failure from index_status
            log.warning("index job %s (%s) failed", job.job_id, job.path, exc_info=True)
            with self._lock:
                job.state, job.error, job.finished_at = JobState.FAILED, f"{type(exc).__name__}: {exc}", time.time()
            return
        with self._lock:
            job.state, job.finished_at = JobState.DONE, time.time()
            if job.vectors_waiting is not None:
                job.vectors_waiting = 0
            job.summary = (
                f"{report.files_seen} files, {report.indexed} indexed, {report.unchanged} unchanged, "
                f"{report.deleted} removed, {len(report.skipped)} skipped; {report.chunks} chunks"
            )

    def get(self, job_id: str) -> JobStatus | None:
        with self._lock:
            job = self._jobs.get(job_id)
            return job.model_copy() if job else None

    def all(self) -> list[JobStatus]:
        with self._lock:
            return [job.model_copy() for job in self._jobs.values()]

    def wait(self, job_id: str, timeout: float) -> JobStatus | None:
        """Poll until the job ends or `timeout` passes (for tests and the CLI)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            job = self.get(job_id)
            if job is None or job.state in (JobState.DONE, JobState.FAILED):
                return job
            time.sleep(0.05)
        return self.get(job_id)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
