"""The tools that change the index (left out of a read-only server): index a folder, remove, add knowledge."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from trident.ingest.knowledge_input import KnowledgeResult, NewEntity, NewRelation
from trident.retrieval.entities import resolve_entity
from trident.server.job_status import JobState, JobStatus
from trident.server.registration import DESTRUCTIVE, WRITE, app_of, in_worker, tool
from trident.server.runtime import Runtime
from trident.store.catalog import Catalog, Writer
from trident.tools import status

T = TypeVar("T")
# add_knowledge and remove wait this long for an indexing job to release the write lock before giving up.
WRITE_WAIT_SECONDS = 10.0
PROJECT_NAME = r"^[^\x00-\x1f/\\]+$"


def _confine(path: str, roots: list[Path]) -> Path:
    """The real folder `path` names, if it lies under an allowed root (symlinks and `..` resolved first)."""
    if not roots:
        raise ToolError("indexing from a client is off: start the server with TRIDENT_ALLOWED_ROOTS=/some/folder")
    try:
        resolved = Path(path).expanduser().resolve()
        is_dir = resolved.is_dir()
    except (OSError, RuntimeError, ValueError) as exc:  # NUL bytes, ~nosuchuser, names too long, link loops
        raise ToolError(f"path: not a usable folder path ({exc})") from None
    for root in roots:
        if resolved == root or root in resolved.parents:
            if not is_dir:
                raise ToolError(f"path: {path} is not a folder")
            return resolved
    allowed = ", ".join(str(r) for r in roots)
    raise ToolError(f"path: {path} is outside the allowed roots ({allowed})")


def _locked_write(catalog: Catalog, write: Callable[[Writer], T]) -> T:
    """Run a write from a tool in a writer block of the catalog, waiting a little for a running indexing job.

    Raises:
        IndexLockedError: the lock stayed taken for WRITE_WAIT_SECONDS.
    """
    with catalog.writer(wait_seconds=WRITE_WAIT_SECONDS) as writer:
        return write(writer)


def register_write_tools(server: MCPServer[Any], runtime: Runtime) -> None:
    """index_path, remove and add_knowledge: the tools a read-only server leaves out."""
    for register in (_register_index_path, _register_remove, _register_add_knowledge):
        register(server, runtime)


def _register_index_path(server: MCPServer[Any], runtime: Runtime) -> None:
    @tool(server, WRITE)
    async def index_path(
        ctx: Context,
        path: Annotated[str, Field(min_length=1, description="Folder to index, under the allowed roots")],
        project: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=100,
                pattern=PROJECT_NAME,
                description="Project name (no '/' or control characters); default: the folder name",
            ),
        ] = None,
        wait_seconds: Annotated[
            float, Field(ge=0, le=50, description="Wait up to this long, sending progress notifications")
        ] = 0,
    ) -> JobStatus:
        """Index (or re-index) a folder in a background job, returned at once (or after wait_seconds, with
        progress); unchanged files are skipped. Poll index_status(job_id). Size: about 150 tokens."""
        app = app_of(ctx)
        folder = _confine(path, app.settings.resolved_roots())
        job = app.jobs.start(folder, project or folder.name)
        watcher = runtime.watcher(app)
        if watcher is not None:  # TRIDENT_WATCH: from now on, changes under the folder re-index it
            watcher.add(folder, project or folder.name)
        deadline = anyio.current_time() + wait_seconds
        told: tuple[str, int, int] | None = None
        while wait_seconds and anyio.current_time() < deadline:
            current = app.jobs.get(job.job_id)
            if current is None or current.state in (JobState.DONE, JobState.FAILED):
                break
            moved = (current.stage, current.done, current.total)
            if moved != told:  # a notification says something new, never the same progress twice
                await ctx.report_progress(current.done, current.total or None, f"{current.stage} {current.project}")
                told = moved
            await anyio.sleep(0.25)
        return app.jobs.get(job.job_id) or job


def _register_remove(server: MCPServer[Any], runtime: Runtime) -> None:
    @tool(server, DESTRUCTIVE)
    async def remove(
        ctx: Context,
        project: Annotated[str, Field(min_length=1, description="Project to remove from the index")],
        path: Annotated[
            str | None, Field(description="Only this file (project-relative); null = whole project")
        ] = None,
    ) -> status.StatusResult:
        """Remove a project, or one file of it, from all three engines; answers with the index's status.
        Size: as status."""
        app = app_of(ctx)
        docs = app.catalog.manifest.project_documents(project)
        if not docs:
            known = ", ".join(app.catalog.manifest.projects()) or "none"
            raise ToolError(f"project: no project '{project}' (known: {known})")
        doc_ids = [d for d, e in docs.items() if path is None or e.path == path]
        if not doc_ids:
            raise ToolError(f"path: '{path}' is not indexed in project '{project}'")
        watcher = runtime.watcher(app)
        if watcher is not None and path is None:  # a removed project stays removed
            await in_worker(lambda: watcher.forget(project))  # returns once no re-index of it is under way

        def delete(writer: Writer) -> None:
            from trident.ingest.rebinding import remove_documents  # the indexing side, imported on first use

            # Read again under the lock: a re-index that ended meanwhile may have published more documents.
            current = writer.manifest.project_documents(project)
            gone = [d for d, e in current.items() if path is None or e.path == path]
            remove_documents(writer, gone, app.limits.max_file_bytes)  # callers into it wait as pending

        await in_worker(lambda: _locked_write(app.catalog, delete))
        return await in_worker(lambda: status.status(app.reader()))


def _register_add_knowledge(server: MCPServer[Any], runtime: Runtime) -> None:
    @tool(server, WRITE)
    async def add_knowledge(
        ctx: Context,
        entities: Annotated[list[NewEntity], Field(max_length=100, description="Entities to add")] = [],  # noqa: B006
        relations: Annotated[list[NewRelation], Field(max_length=200, description="Relations to add")] = [],  # noqa: B006
        author: Annotated[str, Field(max_length=100, description="Who states these facts")] = "agent",
    ) -> KnowledgeResult:
        """Record facts you learned (entities, relations) for later searches and traces, attributed and cited.
        Size: about 100 tokens a fact."""
        from trident.ingest import knowledge  # the indexing side, imported on first use

        app = app_of(ctx)
        return await in_worker(
            lambda: _locked_write(
                app.catalog,
                lambda writer: knowledge.add_knowledge(
                    writer, app.directory(), entities, relations, find_entity=resolve_entity, author=author
                ),
            )
        )
