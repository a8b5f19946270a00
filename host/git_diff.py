"""What a change touches, asked of git: the lines each file's diff removes and adds, for the uncommitted changes of a
work tree (staged, unstaged and untracked files) or for a range of commits."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from trident.host.git_state import git_environment, in_work_tree

WORKING_TREE = "working-tree"
# A diff of a large range can take a while; far above a real one, short of a client's tool timeout.
DIFF_SECONDS = 30.0
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_RANGE = re.compile(r"^([^\s.][^\s]*?)\.\.(\.?)([^\s.][^\s]*)$")


class ChangeError(ValueError):
    """The change asked for cannot be read: what is wrong and what to do."""


@dataclass(frozen=True)
class Hunk:
    """One run of changed lines: `old_start`/`old_count` in the file before, `new_start`/`new_count` after (a count
    of 0: nothing removed, or nothing added, and the start is the line before), with the text of both sides."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int
    removed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()


@dataclass
class FileChange:
    """A file's hunks; `path` relative to the folder asked about (the new path; `old_path` when it moved)."""

    path: str
    old_path: str
    status: str = "modified"  # modified, added, deleted
    hunks: list[Hunk] = field(default_factory=list)


def read_changes(root: Path, changes: str) -> list[FileChange]:
    """The files `changes` touches under `root`: "working-tree" (everything not committed, untracked files
    included) or a range "BASE..HEAD" (or "BASE...HEAD", from their merge base), paths relative to `root`.

    Raises:
        ChangeError: `root` is not in a git work tree, the range is malformed or names a commit git does not know.
    """
    if not in_work_tree(root):
        raise ChangeError(f"{root} is not inside a git work tree: pass `entities` instead of `changes`")
    if changes == WORKING_TREE:
        found = _parse(_run(root, "diff", "--no-color", "--no-ext-diff", "--unified=0", "--relative", "HEAD", "--"))
        untracked = _run(root, "ls-files", "--others", "--exclude-standard", "--full-name", "--", ".")
        prefix = _run(root, "rev-parse", "--show-prefix").strip()
        for line in sorted(untracked.splitlines()):
            rel = line[len(prefix) :] if prefix and line.startswith(prefix) else line
            found.append(_added(root, rel))
        return found
    matched = _RANGE.match(changes.strip())
    if matched is None:
        raise ChangeError(f"changes must be 'working-tree' or a git range 'BASE..HEAD', got {changes!r}")
    base, three_dots, head = matched.groups()
    for rev in (base, head):
        _run(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", what=f"git knows no commit {rev!r}")
    spec = f"{base}...{head}" if three_dots else f"{base}..{head}"
    return _parse(_run(root, "diff", "--no-color", "--no-ext-diff", "--unified=0", "--relative", spec, "--"))


def _run(root: Path, *args: str, what: str = "") -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=DIFF_SECONDS,
            env=git_environment(),
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise ChangeError(f"git {args[0]} in {root} failed: {error}") from error
    if done.returncode != 0:
        raise ChangeError(what or f"git {' '.join(args[:2])} in {root} failed: {done.stderr.strip()[:300]}")
    return done.stdout


def _added(root: Path, rel: str) -> FileChange:
    try:
        lines = (root / rel).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    return FileChange(rel, rel, "added", [Hunk(0, 0, 1, len(lines), (), tuple(lines))])


def _parse(diff: str) -> list[FileChange]:
    """The files and hunks of a `git diff --unified=0` text."""
    files: list[FileChange] = []
    current: FileChange | None = None
    hunk: dict[str, object] | None = None
    for line in diff.splitlines():
        if line.startswith("diff --git "):
            current = FileChange("", "")
            files.append(current)
            hunk = None
        elif current is None:
            continue
        elif line.startswith("--- "):
            current.old_path = "" if line == "--- /dev/null" else line[6:]
        elif line.startswith("+++ "):
            current.path = "" if line == "+++ /dev/null" else line[6:]
        elif (head := _HUNK.match(line)) is not None:
            hunk = _new_hunk(current, head)
        elif hunk is not None and line[:1] in ("-", "+"):
            key = "removed" if line[0] == "-" else "added"
            hunk[key] = (*hunk[key], line[1:])  # type: ignore[misc]
            current.hunks[-1] = Hunk(**hunk)  # type: ignore[arg-type]
    for change in files:
        change.status = "added" if not change.old_path else "deleted" if not change.path else "modified"
        change.path = change.path or change.old_path
        change.old_path = change.old_path or change.path
    return [f for f in files if f.path]


def _new_hunk(change: FileChange, head: re.Match[str]) -> dict[str, object]:
    old_start, old_count, new_start, new_count = head.groups()
    fields: dict[str, object] = {
        "old_start": int(old_start),
        "old_count": 1 if old_count is None else int(old_count),
        "new_start": int(new_start),
        "new_count": 1 if new_count is None else int(new_count),
        "removed": (),
        "added": (),
    }
    change.hunks.append(Hunk(**fields))  # type: ignore[arg-type]
    return fields
