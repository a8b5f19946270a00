"""Background indexing jobs: a tool call starts one and returns at once; the status is polled."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from trident.ingest.progress import Progress
from trident.server.job_records import JobRecords
from trident.server.job_status import JobState, JobStatus

if TYPE_CHECKING:
    from trident.ingest.pipeline import IndexReport


IndexRunner = Callable[[Path, str, Progress], "IndexReport"]  # the indexing side is imported by the first job
log = logging.getLogger(__name__)
# Ended jobs kept for index_status beyond the ones still queued or running: the oldest go first, so a long-lived
# server's answer stays small (about 150 tokens a job).
KEPT_ENDED_JOBS = 30


class _JobProgress:
    """A job's progress as its run reports it; each new stage and publication is recorded too."""

    def __init__(self, job: JobStatus, lock: threading.Lock, record: Callable[[JobStatus], None]) -> None:
        self._job = job
        self._lock = lock
        self._record = record

    def stage(self, name: str, total: int) -> None:
        with self._lock:
            self._job.stage, self._job.total, self._job.done = name, total, 0
            self._record(self._job)

    def advance(self, n: int = 1) -> None:
        with self._lock:
            self._job.done += n

    def published(self, chunks_waiting: int) -> None:
        with self._lock:
            self._job.vectors_waiting = chunks_waiting
            self._record(self._job)


class IndexJobs:
    """One indexing job runs at a time (the index has one writer); later ones queue behind it. With `records`, each
    job is written down beside the index as it moves, and `resume_orphans` runs again the jobs a stopped server
    left unfinished."""

    def __init__(self, runner: IndexRunner, records: JobRecords | None = None) -> None:
        self._runner = runner
        self._records = records
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="trident-index")
        self._jobs: dict[str, JobStatus] = {}
        self._created: dict[str, float] = {}
        self._lock = threading.Lock()

    def start(self, path: Path, project: str, resumed_from: str | None = None) -> JobStatus:
        job = JobStatus(
            job_id=uuid.uuid4().hex[:12],
            path=str(path),
            project=project,
            state=JobState.QUEUED,
            resumed_from=resumed_from,
        )
        with self._lock:
            self._forget_old_jobs()
            self._jobs[job.job_id] = job
            self._created[job.job_id] = time.time()
            self._record(job)
        self._pool.submit(self._run, job)
        return job.model_copy()

    def resume_orphans(self) -> list[JobStatus]:
        """Run again every job a server that is gone left queued or running (the index run picks up what the cut
        one left undone), each as a new job naming the old one; the old ones are listed as failed, saying so."""
        if self._records is None:
            return []
        resumed = []
        for recorded in self._records.load():
            old = recorded.job
            if recorded.orphaned:
                again = self.start(Path(old.path), old.project, resumed_from=old.job_id)
                old = old.model_copy(
                    update={
                        "state": JobState.FAILED,
                        "finished_at": time.time(),
                        "error": f"interrupted: the server running it stopped first; resumed as job {again.job_id}",
                    }
                )
                resumed.append(again)
            with self._lock:  # listed by index_status, kept as ended jobs are
                self._jobs.setdefault(old.job_id, old)
                self._created.setdefault(old.job_id, recorded.created)
                if old is not recorded.job:
                    self._record(old)
        with self._lock:
            self._forget_old_jobs()
        return resumed

    def _record(self, job: JobStatus) -> None:
        """Write the job's record (the caller holds the lock)."""
        if self._records is not None:
            self._records.save(job, self._created.get(job.job_id, time.time()))

    def _forget_old_jobs(self) -> None:
        """Drop the oldest ended jobs past KEPT_ENDED_JOBS (the caller holds the lock)."""
        ended = [job.job_id for job in self._jobs.values() if job.state in (JobState.DONE, JobState.FAILED)]
        for job_id in ended[: max(0, len(ended) - KEPT_ENDED_JOBS)]:
            del self._jobs[job_id]
            self._created.pop(job_id, None)
            if self._records is not None:
                self._records.forget(job_id)

    def _run(self, job: JobStatus) -> None:
        with self._lock:
            job.state, job.started_at = JobState.RUNNING, time.time()
            self._record(job)
        try:
            report = self._runner(Path(job.path), job.project, _JobProgress(job, self._lock, self._record))
        except Exception as exc:  # the job's owner reads the failure from index_status
            log.warning("index job %s (%s) failed", job.job_id, job.path, exc_info=True)
            with self._lock:
                job.state, job.error, job.finished_at = JobState.FAILED, f"{type(exc).__name__}: {exc}", time.time()
                self._record(job)
            return
        with self._lock:
            job.state, job.finished_at = JobState.DONE, time.time()
            if job.vectors_waiting is not None:
                job.vectors_waiting = 0
            job.summary = (
                f"{report.files_seen} files, {report.indexed} indexed, {report.unchanged} unchanged, "
                f"{report.deleted} removed, {len(report.skipped)} skipped; {report.chunks} chunks written, "
                f"{report.embedded} embedded"
            )
            self._record(job)

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
