"""How `trident status` reads and prints the index's status. The MCP tool pages its projects within an answer's token
budget; a terminal has none, so the command reads every page unless `--offset`/`--limit` ask for one. The text lists
the files each project skipped with why, and says what to do with an empty index."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    from trident.tools.freshness import ProjectFreshness
    from trident.tools.stale import FindStaleResult
    from trident.tools.status import ProjectStatus, StatusResult

SKIPPED_SHOWN = 10  # skipped files listed per project; `trident status --project NAME` lists them all


def read_status(
    read_page: Callable[[int], StatusResult], offset: int, limit: int | None, next_flags: str = ""
) -> StatusResult:
    """The status with the projects from `offset`, at most `limit` of them (None: all), read page by page with
    `read_page(offset)`. It is `truncated` only when `limit` cut it, and then its `next_call` is the command for the
    rest (with `next_flags`, e.g. `--json`)."""
    first = read_page(offset)
    projects = list(first.projects)
    while (limit is None or len(projects) < limit) and offset + len(projects) < first.projects_total:
        page = read_page(offset + len(projects)).projects
        if not page:  # the index changed under the pages: what was read is the answer
            break
        projects += page
    projects = projects[:limit] if limit is not None else projects
    shown = offset + len(projects)
    truncated = shown < first.projects_total
    command = f"trident status --offset {shown}" + (f" --limit {limit}" if limit is not None else "") + next_flags
    return first.model_copy(
        update={"projects": projects, "truncated": truncated, "next_call": command if truncated else None}
    )


def print_status(out: Console, result: StatusResult) -> None:
    """The projects' table, their skipped files and freshness, then the engines, the model and what is stale; an
    empty index as the command that fills it."""
    if result.projects_total == 0:
        out.print("empty: run `trident index PATH`", markup=False, highlight=False)
        out.print(f"index: {result.index}", markup=False, highlight=False, soft_wrap=True)
        if not result.consistent:
            out.print(f"engines: {json.dumps(result.engines)}  consistent: False", markup=False, highlight=False)
        return
    print_projects(out, result.projects, SKIPPED_SHOWN)
    out.print(f"engines: {json.dumps(result.engines)}  consistent: {result.consistent}")
    if result.truncated:
        shown = f"{len(result.projects)} of {result.projects_total} projects shown"
        out.print(f"{shown}; the next: {result.next_call}", markup=False, highlight=False)
    model = f"{result.model.name} ({result.model.dim}-d)"
    out.print(f"model: {model}  graph: {result.graph_backend}  index: {result.index}")
    for store, why in result.stale.items():
        out.print(f"[yellow]stale:[/yellow] {store}: {escape(why)}")
    if any(p.stale_references for p in result.projects):
        out.print("stale references: trident status --stale lists them (the find_stale tool too)")


def print_projects(out: Console, projects: Sequence[ProjectStatus], skipped_shown: int | None) -> None:
    """The projects' counts as a table, then each one's skipped files (`skipped_shown` of them; None: all) and its
    freshness line."""
    table = Table("project", "documents", "chunks", "entities", "relations", "skipped", "stale refs")
    for p in projects:
        stale = str(p.stale_references if p.stale_references is not None else "-")
        counts = (p.documents, p.chunks, p.entities, p.relations, p.skipped_total)
        table.add_row(escape(p.name), *(str(n) for n in counts), stale)
    out.print(table)
    for p in projects:
        _print_skipped(out, p, skipped_shown)
    for p in projects:
        if p.freshness is not None:
            out.print(_freshness_line(p.name, p.freshness), markup=False, highlight=False, soft_wrap=True)


def _print_skipped(out: Console, project: ProjectStatus, shown: int | None) -> None:
    """The files `project` skipped, each with why; past `shown`, how many more and the command that lists them."""
    if not project.skipped_total:
        return
    out.print(f"{project.name}: {project.skipped_total} skipped", markup=False, highlight=False)
    listed = project.skipped[:shown]
    for skipped in listed:
        out.print(f"  {skipped.path}: {skipped.reason}", markup=False, highlight=False, soft_wrap=True)
    if project.skipped_total > len(listed):
        more = project.skipped_total - len(listed)
        out.print(
            f"  … and {more} more: `trident status --project {project.name}` lists them all",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def print_stale(out: Console, found: FindStaleResult) -> None:
    """The stale references, one a line with where to look instead, then how many and the next page's call."""
    for ref in found.references:
        line = f"{ref.citation}: {ref.name}: {ref.detail}" + (f"; see {ref.see}" if ref.see else "")
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    out.print(f"{found.total} stale reference(s) in {found.checked} chunks read", markup=False)
    if found.truncated:
        out.print(f"the next page: {found.next_call}", markup=False)


def _freshness_line(project: str, fresh: ProjectFreshness) -> str:
    """One project's freshness in a line: when and from which commit, the HEAD now, what changed since."""
    commit = f"{fresh.branch + '@' if fresh.branch else ''}{fresh.commit[:12]}" if fresh.commit else "no git commit"
    line = f"{project}: indexed {fresh.indexed_at or 'at an unknown time'} from {commit}"
    if fresh.head_moved:
        line += f"; HEAD is now {fresh.head[:12] if fresh.head else 'no git commit'}"
    line += f"; {fresh.changed} changed, {fresh.removed} removed of {fresh.checked} files checked"
    if fresh.unchecked:
        line += f" ({fresh.unchecked} not checked)"
    if fresh.changed or fresh.removed or fresh.head_moved:
        line += f"; refresh: {fresh.refresh}"
    return line
