"""The MCP server: thin wrappers that validate, call a plain function in tools/, and map errors."""

from __future__ import annotations

import inspect
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, ToolAnnotations
from pydantic import Field, ValidationError
from trident.ingest.rebinding import remove_documents
from trident.retrieval import search
from trident.retrieval.entities import EntityNotFoundError
from trident.retrieval.fusion import FusionMethod
from trident.server.context import TridentContext
from trident.server.guidance import register_guidance
from trident.server.jobs import JobState, JobStatus
from trident.server.runtime import Runtime
from trident.server.settings import ServerSettings
from trident.store.catalog import Catalog, IndexLockedError, TridentIndexError, write_lock
from trident.store.schema import Resolution
from trident.store.settings import IngestSettings
from trident.tools import entities as entity_tools
from trident.tools import explain, knowledge, similar, status, trace

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])
# add_knowledge and remove wait this long for an indexing job to release the write lock before giving up.
WRITE_WAIT_SECONDS = 10.0
PROJECT_NAME = r"^[^\x00-\x1f/\\]+$"
READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)

INSTRUCTIONS = (
    "Trident retrieves evidence from the user's indexed code and documents. Call `search` first for most "
    "questions; `trace_relationships` for what calls / uses / depends on something; `explain_path` for how two "
    "things connect; `get_entity` to describe one named thing; `find_similar` for examples like a given one. "
    "Answer from the returned evidence and cite it as project/path:Lstart-Lend."
)


def _tool(server: MCPServer[Any], annotations: ToolAnnotations, name: str | None = None) -> Callable[[F], F]:
    """Register a tool with its docstring, dedented, as the description a model reads."""

    def register(fn: F) -> F:
        server.add_tool(fn, name=name, description=inspect.cleandoc(fn.__doc__ or ""), annotations=annotations)
        return fn

    return register


def _ctx(ctx: Context) -> TridentContext:
    return ctx.request_context.lifespan_context  # type: ignore[no-any-return]


@contextmanager
def _errors() -> Iterator[None]:
    """Map failures to the two kinds of MCP error: invalid params for bad arguments, tool errors otherwise."""
    try:
        yield
    except (EntityNotFoundError, TridentIndexError) as exc:
        raise ToolError(str(exc)) from None
    except (similar.SimilarInputError, ValueError) as exc:
        raise MCPError(INVALID_PARAMS, str(exc)) from None


async def _call(fn: Callable[[], T]) -> T:
    """Run a blocking engine call in a worker thread, mapping its failures."""
    with _errors():
        return await anyio.to_thread.run_sync(fn)


async def _await(work: Awaitable[T]) -> T:
    with _errors():
        return await work


# Both graph tools take it: how surely a call or base edge must be bound to be walked.
MinResolution = Annotated[
    Resolution,
    Field(
        description="Only calls and bases bound at least this surely: exact (the code binds them: self.m(), "
        "this.m(), imports, super, qualified calls), inferred (from a stated type: annotations, declared types, "
        "constructor assignments) or name (a guess from the name alone, kept only when a single entity of the "
        "project has the name). Default inferred: calls an agent can rely on; pass name to see the guesses too. "
        "Other relations (imports, mentions, links) are always walked"
    ),
]


def _confine(path: str, roots: list[Path]) -> Path:
    """The real folder `path` names, if it lies under an allowed root (symlinks and `..` resolved first)."""
    if not roots:
        raise ToolError("indexing from a client is off: start the server with TRIDENT_ALLOWED_ROOTS=/some/folder")
    try:
        resolved = Path(path).expanduser().resolve()
        is_dir = resolved.is_dir()
    except (OSError, RuntimeError, ValueError) as exc:  # NUL bytes, ~nosuchuser, names too long, link loops
        raise MCPError(INVALID_PARAMS, f"path: not a usable folder path ({exc})") from None
    for root in roots:
        if resolved == root or root in resolved.parents:
            if not is_dir:
                raise MCPError(INVALID_PARAMS, f"path: {path} is not a folder")
            return resolved
    allowed = ", ".join(str(r) for r in roots)
    raise MCPError(INVALID_PARAMS, f"path: {path} is outside the allowed roots ({allowed})")


def _locked_write(catalog: Catalog, write: Callable[[], T]) -> T:
    """Run a write from a tool under the index's write lock, waiting a little for a running indexing job.

    Raises:
        IndexLockedError: the lock stayed taken for WRITE_WAIT_SECONDS.
    """
    deadline = time.monotonic() + WRITE_WAIT_SECONDS
    while True:
        try:
            with write_lock(catalog.index_dir):
                return write()
        except IndexLockedError:
            if time.monotonic() >= deadline:
                raise
        time.sleep(0.2)


class TridentServer(MCPServer[Any]):
    """MCPServer whose argument-validation failures are protocol errors (invalid params), not tool results."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                problems = "; ".join(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in cause.errors())
                raise MCPError(INVALID_PARAMS, f"invalid arguments for {name}: {problems}") from None
            if str(exc).startswith("Unknown tool"):
                raise MCPError(INVALID_PARAMS, f"{exc}; call tools/list for the tools this server has") from None
            raise


def build_server(
    settings: ServerSettings,
    open_catalog: Callable[[], Catalog],
    *,
    close_catalog: bool = True,
    open_tenant: Callable[[str], Catalog] | None = None,
    limits: IngestSettings | None = None,
) -> MCPServer[Any]:
    """The Trident MCP server; `open_catalog` is called once, in the lifespan. `limits` (default: read from the
    environment once, here) bound what its index runs read.

    Each tenant named in `settings.tokens` gets its own index, opened with `open_tenant(name)` (default: the
    folder beside the main index); an HTTP request is answered from the tenant of its bearer token.
    """
    runtime = Runtime(settings, open_catalog, close_catalog, open_tenant, limits or IngestSettings())
    server = TridentServer(
        name="trident", instructions=INSTRUCTIONS, lifespan=runtime.lifespan, middleware=[runtime.route_tenant]
    )
    _register_read_tools(server)
    register_guidance(server)
    if not settings.read_only:
        _register_write_tools(server, runtime)
    return server


def _register_read_tools(server: MCPServer[Any]) -> None:
    @_tool(server, READ, name="search")
    async def search_tool(
        ctx: Context,
        query: Annotated[str, Field(min_length=1, max_length=4_000, description="What to look for, in words or code")],
        top_k: Annotated[int, Field(ge=1, le=100, description="Number of hits to return")] = 10,
        projects: Annotated[list[str] | None, Field(description="Only these projects; null = all")] = None,
        strategy: Annotated[
            search.Strategy,
            Field(description="auto (recommended), or force one path to compare: hybrid, lexical, semantic, graph"),
        ] = search.Strategy.AUTO,
        expansions: Annotated[
            list[str] | None,
            Field(max_length=5, description="Up to 5 alternative phrasings or terms, searched too and fused in"),
        ] = None,
        fusion: Annotated[
            FusionMethod | None, Field(description="null = the route's choice; or rrf, weighted_sum, max, intersection")
        ] = None,
        max_tokens: Annotated[
            int | None, Field(ge=50, le=100_000, description="Cap on the snippets' size; the result says if cut")
        ] = None,
        explain: Annotated[bool, Field(description="Add the route and each path's top hits to diagnostics")] = False,
    ) -> search.SearchResult:
        """Search everything indexed (code and docs) with BM25, embeddings and the entity graph fused together.
        Returns ranked chunks with citations (project/path:Lstart-Lend) and the rank each retrieval path gave."""
        app = _ctx(ctx)
        return await _await(
            search.search_async(
                app.catalog,
                query,
                top_k=top_k,
                projects=projects,
                strategy=strategy,
                expansions=expansions,
                fusion=fusion,
                max_tokens=max_tokens,
                explain=explain,
                views=app.views,
            )
        )

    @_tool(server, READ)
    async def trace_relationships(
        ctx: Context,
        entity: Annotated[str, Field(min_length=1, description="Entity name, qualified name or id")],
        direction: Annotated[trace.Direction, Field(description="out, in or both")] = trace.Direction.BOTH,
        relation_types: Annotated[
            list[str] | None, Field(description="Only these relation types, e.g. CALLS, IMPORTS, DEPENDS_ON")
        ] = None,
        max_hops: Annotated[int, Field(ge=1, le=4, description="How far to walk (1-4)")] = 2,
        limit: Annotated[int, Field(ge=1, le=500, description="Most edges to return")] = 50,
        min_resolution: MinResolution = Resolution.INFERRED,
    ) -> trace.TraceResult:
        """What an entity calls, uses, imports, depends on, or is used by: a bounded walk of the graph with the
        evidence chunk and resolution of every edge (calls guessed from a name alone are left out unless
        min_resolution is name; the result counts them)."""
        app = _ctx(ctx)
        return await _call(
            lambda: trace.trace_relationships(
                app.catalog,
                app.directory(),
                entity,
                direction=direction,
                relation_types=relation_types,
                max_hops=max_hops,
                limit=limit,
                relations=app.relations(),
                min_resolution=min_resolution,
            )
        )

    @_tool(server, READ)
    async def explain_path(
        ctx: Context,
        source: Annotated[str, Field(min_length=1, description="Start entity: name, qualified name or id")],
        target: Annotated[str, Field(min_length=1, description="End entity: name, qualified name or id")],
        max_hops: Annotated[int, Field(ge=1, le=6, description="Longest path considered")] = 4,
        max_paths: Annotated[int, Field(ge=1, le=10, description="Most paths returned")] = 3,
        relation_types: Annotated[list[str] | None, Field(description="Only walk these relation types")] = None,
        min_resolution: MinResolution = Resolution.INFERRED,
    ) -> explain.ExplainResult:
        """How two things connect: the best paths between two entities (paths over code relations, i.e. calls,
        bases, imports and definitions, rank before any through mentions, links or test code; then the shorter and
        surer), each hop with its evidence and resolution and each path as a sentence you can quote."""
        app = _ctx(ctx)
        return await _call(
            lambda: explain.explain_path(
                app.catalog,
                app.directory(),
                source,
                target,
                max_hops=max_hops,
                max_paths=max_paths,
                relation_types=relation_types,
                relations=app.relations(),
                min_resolution=min_resolution,
            )
        )

    @_tool(server, READ)
    async def find_similar(
        ctx: Context,
        text: Annotated[str | None, Field(max_length=20_000, description="An example text or snippet")] = None,
        chunk_id: Annotated[str | None, Field(description="Id of an indexed chunk (from search hits)")] = None,
        entity: Annotated[str | None, Field(description="An entity whose definition is the example")] = None,
        top_k: Annotated[int, Field(ge=1, le=100)] = 10,
        projects: Annotated[list[str] | None, Field(description="Only these projects")] = None,
        kinds: Annotated[list[Literal["code", "markdown", "text", "config", "passage"]] | None, Field()] = None,
    ) -> list[search.SearchHit]:
        """Chunks most like an example: give exactly one of text, chunk_id or entity."""
        app = _ctx(ctx)
        return await _call(
            lambda: similar.find_similar(
                app.catalog,
                app.directory(),
                text=text,
                chunk_id=chunk_id,
                entity=entity,
                top_k=top_k,
                projects=projects,
                kinds=kinds,
            )
        )

    @_tool(server, READ)
    async def get_entity(
        ctx: Context,
        name_or_id: Annotated[str, Field(min_length=1, description="Entity name, qualified name, alias or id")],
    ) -> entity_tools.EntityResult:
        """Describe one named thing: what it is, where it is defined, its aliases and relation counts."""
        app = _ctx(ctx)
        return await _call(lambda: entity_tools.get_entity(app.catalog, app.directory(), name_or_id))

    @_tool(server, READ)
    async def index_status(
        ctx: Context, job_id: Annotated[str | None, Field(description="A job id; null lists all jobs")] = None
    ) -> list[JobStatus]:
        """Progress of background indexing jobs started with index_path."""
        app = _ctx(ctx)
        if job_id is None:
            return app.jobs.all()
        job = app.jobs.get(job_id)
        if job is None:
            raise MCPError(INVALID_PARAMS, f"job_id: no job '{job_id}'; call index_status() to list jobs")
        return [job]

    @_tool(server, READ, name="status")
    async def status_tool(ctx: Context) -> status.StatusResult:
        """What is indexed: projects, counts per engine, the embedding model, skipped files, index health."""
        app = _ctx(ctx)
        return await _call(lambda: status.status(app.catalog))


def _register_write_tools(server: MCPServer[Any], runtime: Runtime) -> None:
    @_tool(server, WRITE)
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
        """Index (or re-index) a folder in the background and return its job at once (or after wait_seconds,
        reporting progress meanwhile). Unchanged files are skipped. Poll index_status(job_id) until done."""
        app = _ctx(ctx)
        folder = _confine(path, app.settings.resolved_roots())
        job = app.jobs.start(folder, project or folder.name)
        watcher = runtime.watcher(app)
        if watcher is not None:  # TRIDENT_WATCH: from now on, changes under the folder re-index it
            watcher.add(folder, project or folder.name)
        deadline = anyio.current_time() + wait_seconds
        while wait_seconds and anyio.current_time() < deadline:
            current = app.jobs.get(job.job_id)
            if current is None or current.state in (JobState.DONE, JobState.FAILED):
                break
            await ctx.report_progress(current.done, current.total or None, f"{current.stage} {current.project}")
            await anyio.sleep(0.25)
        return app.jobs.get(job.job_id) or job

    @_tool(server, DESTRUCTIVE)
    async def remove(
        ctx: Context,
        project: Annotated[str, Field(min_length=1, description="Project to remove from the index")],
        path: Annotated[
            str | None, Field(description="Only this file (project-relative); null = whole project")
        ] = None,
    ) -> status.StatusResult:
        """Remove a project, or one file of it, from all three engines."""
        app = _ctx(ctx)
        docs = app.catalog.manifest.project_documents(project)
        if not docs:
            known = ", ".join(app.catalog.manifest.projects()) or "none"
            raise MCPError(INVALID_PARAMS, f"project: no project '{project}' (known: {known})")
        doc_ids = [d for d, e in docs.items() if path is None or e.path == path]
        if not doc_ids:
            raise MCPError(INVALID_PARAMS, f"path: '{path}' is not indexed in project '{project}'")
        watcher = runtime.watcher(app)
        if watcher is not None and path is None:  # a removed project stays removed
            await _call(lambda: watcher.forget(project))  # returns once no re-index of it is under way

        def delete() -> None:
            # Read again under the lock: a re-index that ended meanwhile may have published more documents.
            current = app.catalog.manifest.project_documents(project)
            gone = [d for d, e in current.items() if path is None or e.path == path]
            remove_documents(app.catalog, gone, app.limits.max_file_bytes)  # callers into it wait as pending

        await _call(lambda: _locked_write(app.catalog, delete))
        return await _call(lambda: status.status(app.catalog))

    @_tool(server, WRITE)
    async def add_knowledge(
        ctx: Context,
        entities: Annotated[list[knowledge.NewEntity], Field(max_length=100, description="Entities to add")] = [],  # noqa: B006
        relations: Annotated[list[knowledge.NewRelation], Field(max_length=200, description="Relations to add")] = [],  # noqa: B006
        author: Annotated[str, Field(max_length=100, description="Who states these facts")] = "agent",
    ) -> knowledge.KnowledgeResult:
        """Record facts you learned (entities and relations between them) so later searches and traces find
        them; each fact is attributed and cited."""
        app = _ctx(ctx)
        return await _call(
            lambda: _locked_write(
                app.catalog,
                lambda: knowledge.add_knowledge(app.catalog, app.directory(), entities, relations, author=author),
            )
        )
