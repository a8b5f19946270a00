"""Which commit a project's folder is at: the git HEAD of the work tree it lies in, asked of `git` itself. A folder
outside any repository, a machine without git, or a git that does not answer in time all give None: freshness is
then told by the files alone."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

# Each question is a local read of .git; past this the repository is taken as unknown rather than waited for.
GIT_SECONDS = 2.0
# Set by a git hook or an IDE, these would point git at another repository than the folder's own.
_REDIRECTING = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR")


@dataclass(frozen=True)
class GitState:
    commit: str | None  # the HEAD commit's full sha; None outside a work tree or before the first commit
    branch: str | None  # the checked-out branch; None when HEAD is detached or there is no repository


def git_state(folder: Path) -> GitState:
    """The HEAD commit and branch of the git work tree `folder` lies in (both None when it lies in none)."""
    return GitState(commit=head_commit(folder), branch=_git(folder, "symbolic-ref", "--short", "--quiet", "HEAD"))


def head_commit(folder: Path) -> str | None:
    """The full sha of the HEAD commit of the work tree `folder` lies in (None: none, or no commit yet)."""
    return _git(folder, "rev-parse", "--verify", "--quiet", "HEAD")


def in_work_tree(folder: Path) -> bool:
    """Whether `folder` or a folder above it holds a `.git` (a repository's folder, or the file a linked work tree or
    a submodule has there): where git itself looks for the repository of a folder. Told by the file system, not by
    starting git: a search stamps each file it has not seen before, and a folder outside git started one `git blame`
    per such file only to learn it knows none of them (on the 10K bench index, whose folders are not repositories,
    the first search of each query had a p95 of 11.7-13.9 ms against 7.4-7.6 without those processes)."""
    return work_tree_of(folder) is not None


def work_tree_of(folder: Path) -> Path | None:
    """The folder holding the `.git` of the work tree `folder` lies in (see `in_work_tree`), or None."""
    folder = folder.absolute()
    return next((candidate for candidate in (folder, *folder.parents) if os.path.exists(candidate / ".git")), None)


class HeadCommits:
    """HEAD commits asked of git once per work tree: the projects of one repository (a monorepo's services, the
    packages of one checkout) share the answer. For one answer's worth of questions (a `status` call), not longer:
    HEAD moves."""

    def __init__(self) -> None:
        self._known: dict[Path, str | None] = {}

    def __call__(self, folder: Path) -> str | None:
        tree = work_tree_of(folder)
        if tree is None:
            return None
        if tree not in self._known:
            self._known[tree] = head_commit(tree)
        return self._known[tree]


def git_environment() -> dict[str, str]:
    """This process's environment without what would point git at another repository than the folder asked."""
    return {key: value for key, value in os.environ.items() if key not in _REDIRECTING}


def _git(folder: Path, *args: str) -> str | None:
    """What `git -C folder args` prints, or None when it fails, is missing or takes longer than GIT_SECONDS; None at
    once for a folder in no work tree (`in_work_tree`)."""
    if not in_work_tree(folder):
        return None
    env = git_environment()
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=GIT_SECONDS,
            env=env,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    answer = done.stdout.strip()
    return answer if done.returncode == 0 and answer else None
