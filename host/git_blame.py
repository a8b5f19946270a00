"""When each line of a file was last changed, asked of `git blame`. A file outside any work tree, untracked, a machine
without git or a blame that takes longer than git_state.GIT_SECONDS all give None: the file's own modification time
then stands for its lines."""

from __future__ import annotations

import re
from pathlib import Path

from trident.host.git_state import _git

# A porcelain group starts "<sha> <line in the original> <line in the final file> [<lines in the group>]".
_GROUP = re.compile(r"^([0-9a-f]{40}) \d+ (\d+)(?: \d+)?$")
_UNCOMMITTED = "0" * 40


def line_times(path: Path) -> list[int | None] | None:
    """The committer time (Unix seconds) of the last commit that touched each line of `path` (index 0 is line 1);
    None for a line not committed yet. None when git does not know the file (see the module's docstring)."""
    out = _git(path.parent, "blame", "--porcelain", "--", path.name)
    return parse_porcelain(out) if out is not None else None


def parse_porcelain(out: str) -> list[int | None]:
    """Per final line, the committer time of its commit, from `git blame --porcelain` (a commit's headers are
    given the first time it appears only)."""
    times: dict[str, int] = {}
    line_commits: dict[int, str] = {}
    current = ""
    for line in out.splitlines():
        if line.startswith("\t"):
            continue
        group = _GROUP.match(line)
        if group is not None:
            current = group.group(1)
            line_commits[int(group.group(2))] = current
        elif line.startswith("committer-time "):
            times[current] = int(line.split(" ", 1)[1])
    last = max(line_commits, default=0)
    commits = [line_commits.get(n) for n in range(1, last + 1)]
    return [times.get(sha) if sha is not None and sha != _UNCOMMITTED else None for sha in commits]
