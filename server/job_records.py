"""Index jobs written down beside the index, so a job outlives the server that ran it: a client that goes away
usually ends its stdio server (closing stdin, then a SIGTERM or SIGKILL), and with it the job's thread. The next
server that can write finds the job's record still running under a process that is gone, and runs the job again:
the index run is incremental and a run cut short is crash-safe, so the second run does exactly what the first
left undone (embedding the chunks it published without vectors, writing the files it had not reached)."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from trident.server.job_status import JobState, JobStatus

log = logging.getLogger(__name__)
JOBS_FOLDER = ".jobs"  # this machine's bookkeeping: a dot folder, which a push to shared storage leaves out


def process_alive(pid: int) -> bool:
    """Whether a process with this id runs (another server of the same index may be running the job)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True


class JobRecords:
    """One JSON file per job in `<index>/.jobs/`, replaced whole at each change (a reader never sees half of one),
    naming the server process that runs it."""

    def __init__(self, index_dir: Path) -> None:
        self.folder = index_dir / JOBS_FOLDER

    def save(self, job: JobStatus, created: float) -> None:
        record = {"server_pid": os.getpid(), "created": created, "job": job.model_dump(mode="json")}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            partial = self.folder / f".{job.job_id}.json.tmp"
            partial.write_text(json.dumps(record), encoding="utf-8")
            os.replace(partial, self.folder / f"{job.job_id}.json")
        except OSError:  # the job itself goes on; only its record after a restart is lost
            log.warning("could not record index job %s in %s", job.job_id, self.folder, exc_info=True)

    def forget(self, job_id: str) -> None:
        (self.folder / f"{job_id}.json").unlink(missing_ok=True)

    def load(self) -> list[RecordedJob]:
        """Every recorded job, oldest first (an unreadable record is skipped, and said so)."""
        jobs = []
        for path in sorted(self.folder.glob("*.json")) if self.folder.is_dir() else []:
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
                jobs.append(
                    RecordedJob(JobStatus.model_validate(record["job"]), record["server_pid"], record["created"])
                )
            except (OSError, ValueError, KeyError, TypeError, ValidationError):
                log.warning("skipping the unreadable index job record %s", path)
        return sorted(jobs, key=lambda recorded: (recorded.created, recorded.job.job_id))


@dataclass(frozen=True)
class RecordedJob:
    job: JobStatus
    server_pid: int
    created: float

    @property
    def orphaned(self) -> bool:
        """Left queued or running by a server process that is gone."""
        unfinished = self.job.state in (JobState.QUEUED, JobState.RUNNING)
        return unfinished and self.server_pid != os.getpid() and not process_alive(self.server_pid)
