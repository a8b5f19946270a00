"""The MCP server: thin wrappers that validate, call a plain function in tools/, and map errors."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS
from mcp_types import Tool as MCPTool
from pydantic import Field, ValidationError

from trident.retrieval.fusion import FusionMethod
from trident.retrieval.reader import read_once_async
from trident.server.completions import register_completions
from trident.server.first_answers import ready_for
from trident.server.guidance import register_guidance
from trident.server.impact_tool import register_impact
from trident.server.job_status import JobStatus
from trident.server.registration import READ, app_of, mapped, reading, tool
from trident.server.runtime import Runtime
from trident.server.server_settings import TridentSettings
from trident.server.tool_schemas import listed
from trident.server.write_tools import register_write_tools
from trident.store.catalog import Catalog
from trident.store.schema import Resolution
from trident.tools import explain, search, similar, stale, status, trace
from trident.tools import get_entity as entity_tools
from trident.tools.calls import RESPONSE_TOKENS

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "Trident retrieves evidence from the user's indexed code and documents. Call `search` first for most "
    "questions; `trace_relationships` for what calls / uses / depends on something; `explain_path` for how two "
    "things connect; `get_entity` to describe one named thing; `find_similar` for examples like a given one. "
    "Answer from the returned evidence and cite it as project/path:Lstart-Lend."
)


# Both graph tools take it: how surely a call or base edge must be bound to be walked.
MinResolution = Annotated[
    Resolution,
    Field(
        description="How surely a call or base is bound: exact (by the code), inferred (a stated type), dispatch (an "
        "override the call may run; default) or name (a guess)"
    ),
]

# explain_path's: left out, calls bound at least as surely as dispatch, and a chain through name guesses where no
# surer chain joins two callables, before any structural path.
PathResolution = Annotated[
    Resolution | None,
    Field(
        description="How surely each call or base on a path must be bound: exact, inferred, dispatch or name. Left "
        "out: dispatch, and between two callables no surer chain of calls, a chain through name guesses comes "
        "before any structural path"
    ),
]

# A compact answer is about a third of a full one: what an agent reads to choose the hits to open.
SearchDetail = Annotated[
    search.Detail, Field(description="compact: per hit its citation, name, summary and best lines")
]
GraphDetail = Annotated[search.Detail, Field(description="compact: a line an edge or path, by import names")]


class TridentServer(MCPServer[Any]):
    """MCPServer following MCP 2025-11-25 (SEP-1303): arguments the schema rejects are tool results with `isError`
    naming each argument, what is wrong and the value given, so the model can correct its call; an unknown tool stays
    a protocol error (invalid params); a fault (a tool raising what `registration.mapped_errors` does not map) is an
    internal error, logged with its traceback."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError as exc:
            # The engine's own message may hold paths or data and says nothing the caller can fix: it goes to the log.
            log.error("tool %s failed", name, exc_info=exc.__cause__ or exc)
            raise MCPError(INTERNAL_ERROR, f"internal error in {name}; the server log has the details") from None
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(f"invalid arguments for {name}: {_problems(cause)}") from None
            if str(exc).startswith("Unknown tool"):
                raise MCPError(INVALID_PARAMS, f"{exc}; call tools/list for the tools this server has") from None
            raise

    async def list_tools(self) -> list[MCPTool]:
        """The tools with their schemas as compact as a client needs them (server/tool_schemas.py)."""
        return [listed(tool) for tool in await super().list_tools()]

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None, context: Any = None) -> Any:
        """An unknown prompt or a missing required argument is invalid params (-32602), naming what to send."""
        prompt = self._prompt_manager.get_prompt(name)
        if prompt is None:
            known = ", ".join(p.name for p in self._prompt_manager.list_prompts())
            raise MCPError(INVALID_PARAMS, f"unknown prompt {name!r}; prompts/list has: {known}")
        missing = sorted(a.name for a in prompt.arguments or [] if a.required and a.name not in (arguments or {}))
        if missing:
            raise MCPError(INVALID_PARAMS, f"prompt {name!r} needs the argument(s): {', '.join(missing)}")
        return await super().get_prompt(name, arguments, context)


def _problems(error: ValidationError) -> str:
    """Each rejected argument with why and (shortened) the value given, so the model can correct its call."""
    problems = []
    for err in error.errors():
        where = ".".join(str(part) for part in err["loc"])
        given = "" if err["type"] == "missing" else f" (got {err['input']!r:.80})"
        problems.append(f"{where}: {err['msg']}{given}")
    return "; ".join(problems)


def build_server(
    settings: TridentSettings,
    open_catalog: Callable[[], Catalog],
    *,
    close_catalog: bool = True,
    open_tenant: Callable[[str], Catalog] | None = None,
) -> MCPServer[Any]:
    """The Trident MCP server, whose behaviour `settings` determines; `open_catalog` is called once, in the lifespan.

    Each tenant named in `settings.server.tokens` gets its own index, opened with `open_tenant(name)` (default: the
    folder beside the main index); an HTTP request is answered from the tenant of its bearer token.
    """
    runtime = Runtime(settings, open_catalog, close_catalog, open_tenant)
    server = TridentServer(
        name="trident",
        version=package_version(),
        instructions=INSTRUCTIONS,
        lifespan=runtime.lifespan,
        middleware=[runtime.route_tenant],
    )
    _register_read_tools(server)
    register_guidance(server)
    register_completions(server)
    if not settings.server.read_only:
        register_write_tools(server, runtime)
    return server


def package_version() -> str:
    """The installed package's version, sent as serverInfo.version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("trident-mcp")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def _register_read_tools(server: MCPServer[Any]) -> None:
    for register in (_register_search, _register_trace, _register_explain, _register_lookups, _register_status):
        register(server)
    register_impact(server)


def _register_search(server: MCPServer[Any]) -> None:
    @tool(server, READ, name="search")
    async def search_tool(
        ctx: Context,
        query: Annotated[
            str,
            Field(min_length=1, max_length=search.MAX_QUERY_CHARS, description="What to look for, in words or code"),
        ],
        top_k: Annotated[int, Field(ge=1, le=search.MAX_TOP_K, description="Number of hits to return")] = 10,
        offset: Annotated[
            int, Field(ge=0, le=search.MAX_OFFSET, description="Hits of the ranking to skip: a further page")
        ] = 0,
        projects: Annotated[list[str] | None, Field(description="Only these projects; null = all")] = None,
        strategy: Annotated[
            search.Strategy,
            Field(description="auto (recommended), or force one path to compare: hybrid, lexical, semantic, graph"),
        ] = search.Strategy.AUTO,
        expansions: Annotated[
            list[str] | None,
            Field(
                max_length=search.MAX_EXPANSIONS,
                description=f"Up to {search.MAX_EXPANSIONS} alternative phrasings or terms, searched too and fused in",
            ),
        ] = None,
        fusion: Annotated[
            FusionMethod | None, Field(description="null = the route's choice; or rrf, weighted_sum, max, intersection")
        ] = None,
        max_tokens: Annotated[
            int | None,
            Field(
                ge=search.MIN_MAX_TOKENS,
                le=search.MAX_MAX_TOKENS,
                description=f"Cap on the hits' size in tokens (null = {search.DEFAULT_MAX_TOKENS:,}); past it, "
                "next_call gets the rest",
            ),
        ] = None,
        explain: Annotated[bool, Field(description="Add the route and each path's top hits to diagnostics")] = False,
        detail: SearchDetail = search.Detail.FULL,
    ) -> search.SearchAnswer:
        """Search everything indexed (code and docs): BM25, embeddings and the entity graph fused. Ranked chunks
        with citations (project/path:Lstart-Lend) and each path's rank; omitted and message say what was left out
        and why. Size: 150-250 tokens a hit (compact: 60), at most max_tokens; next_call gives the next page."""
        app = app_of(ctx)
        await ready_for(app.catalog, app.views, strategy, app.settings.model_wait_seconds)
        asked: dict[str, Any] = {"top_k": top_k, "projects": projects, "strategy": strategy, "expansions": expansions}
        asked |= {"fusion": fusion, "max_tokens": max_tokens, "explain": explain, "offset": offset}
        answer = partial(search.answer_async, query=query, detail=detail, **asked)
        return await mapped(read_once_async(app.reader(), answer))


def _register_trace(server: MCPServer[Any]) -> None:
    @tool(server, READ)
    async def trace_relationships(
        ctx: Context,
        entity: Annotated[str, Field(min_length=1, description="Entity name, qualified name or id")],
        direction: Annotated[trace.Direction, Field(description="out, in or both")] = trace.Direction.BOTH,
        relation_types: Annotated[
            list[str] | None, Field(description="Only these relation types, e.g. CALLS, IMPORTS, DEPENDS_ON")
        ] = None,
        max_hops: Annotated[
            int | None,
            Field(
                ge=1, le=trace.MAX_HOPS, description=f"How far to walk (1-{trace.MAX_HOPS}); null: 2, 1 around a hub"
            ),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=trace.MAX_EDGES, description="Most edges to return")] = 50,
        min_resolution: MinResolution = Resolution.DISPATCH,
        offset: Annotated[
            int, Field(ge=0, le=trace.MAX_OFFSET, description="Edges of the walk to skip: a further page")
        ] = 0,
        max_tokens: Annotated[
            int,
            Field(
                ge=trace.MIN_MAX_TOKENS,
                le=trace.MAX_MAX_TOKENS,
                description="Cap on the answer's size in tokens; past it, next_call gets the rest",
            ),
        ] = RESPONSE_TOKENS,
        detail: GraphDetail = search.Detail.FULL,
    ) -> trace.TraceResult:
        """What an entity calls, uses, imports, depends on, or is used by: a bounded graph walk, each edge with its
        evidence and resolution; omitted counts what filters and bounds left out, with the call that shows it.
        Size: about 200 tokens an edge, at most max_tokens; next_call gives the next page."""
        app = app_of(ctx)
        return await reading(
            app,
            lambda reader: trace.trace_relationships(
                reader,
                entity,
                direction=direction,
                relation_types=relation_types,
                max_hops=max_hops,
                limit=limit,
                min_resolution=min_resolution,
                offset=offset,
                max_tokens=max_tokens,
                detail=detail,
            ),
        )


def _register_explain(server: MCPServer[Any]) -> None:
    @tool(server, READ)
    async def explain_path(
        ctx: Context,
        source: Annotated[str, Field(min_length=1, description="Start entity: name, qualified name or id")],
        target: Annotated[str, Field(min_length=1, description="End entity: name, qualified name or id")],
        max_hops: Annotated[int, Field(ge=1, le=explain.MAX_HOPS, description="Longest path considered")] = 4,
        max_paths: Annotated[int, Field(ge=1, le=explain.MAX_PATHS, description="Most paths returned")] = 3,
        relation_types: Annotated[list[str] | None, Field(description="Only walk these relation types")] = None,
        min_resolution: PathResolution = None,
        detail: GraphDetail = search.Detail.FULL,
    ) -> explain.ExplainResult:
        """How two things connect: the best paths between two entities (over code relations first, then the shorter
        and surer), each hop with its evidence and resolution, each path as a quotable sentence. omitted says which
        argument kept more paths out, with the call that shows them. Size: about 150 tokens a hop."""
        app = app_of(ctx)
        return await reading(
            app,
            lambda reader: explain.explain_path(
                reader,
                source,
                target,
                max_hops=max_hops,
                max_paths=max_paths,
                relation_types=relation_types,
                min_resolution=min_resolution,
                detail=detail,
            ),
        )


def _register_lookups(server: MCPServer[Any]) -> None:
    @tool(server, READ)
    async def find_similar(
        ctx: Context,
        text: Annotated[
            str | None, Field(max_length=similar.MAX_TEXT_CHARS, description="An example text or snippet")
        ] = None,
        chunk_id: Annotated[str | None, Field(description="Id of an indexed chunk (from search hits)")] = None,
        entity: Annotated[str | None, Field(description="An entity whose definition is the example")] = None,
        top_k: Annotated[int, Field(ge=1, le=similar.MAX_TOP_K)] = 10,
        projects: Annotated[list[str] | None, Field(description="Only these projects")] = None,
        kinds: Annotated[list[Literal["code", "markdown", "text", "config", "passage"]] | None, Field()] = None,
    ) -> similar.SimilarResult:
        """Chunks most like an example: exactly one of text, chunk_id or entity. omitted counts nearer chunks the
        filters passed over, with the call that shows them. Size: about 250 tokens a hit."""
        app = app_of(ctx)
        return await reading(
            app,
            lambda reader: similar.find_similar(
                reader,
                text=text,
                chunk_id=chunk_id,
                entity=entity,
                top_k=top_k,
                projects=projects,
                kinds=kinds,
            ),
        )

    @tool(server, READ)
    async def get_entity(
        ctx: Context,
        name_or_id: Annotated[str, Field(min_length=1, description="Entity name, qualified name, alias or id")],
    ) -> entity_tools.EntityResult:
        """One named thing: what it is, where it is defined, its aliases and relation counts. Size: under 1,000
        tokens."""
        app = app_of(ctx)
        return await reading(app, lambda reader: entity_tools.get_entity(reader, name_or_id))


def _register_status(server: MCPServer[Any]) -> None:
    @tool(server, READ)
    async def index_status(
        ctx: Context, job_id: Annotated[str | None, Field(description="A job id; null lists all jobs")] = None
    ) -> list[JobStatus]:
        """Progress of the indexing jobs index_path started (the latest ones). Size: about 150 tokens a job."""
        app = app_of(ctx)
        if job_id is None:
            return app.jobs.all()
        job = app.jobs.get(job_id)
        if job is None:
            raise ToolError(f"job_id: no job '{job_id}'; call index_status() to list jobs")
        return [job]

    @tool(server, READ, name="status")
    async def status_tool(
        ctx: Context,
        offset: Annotated[
            int, Field(ge=0, le=status.MAX_OFFSET, description="Projects to skip (by name order): a further page")
        ] = 0,
    ) -> status.StatusResult:
        """What is indexed: projects, counts per engine, model, skipped files, health; per project when and from
        which commit it was indexed and what changed since. Size: about 250 tokens a project; next_call gives the
        next page."""
        app = app_of(ctx)
        return await reading(app, lambda reader: status.status(reader, offset, stale=True))

    @tool(server, READ)
    async def find_stale(
        ctx: Context,
        projects: Annotated[list[str] | None, Field(description="Only these projects")] = None,
        offset: Annotated[int, Field(ge=0, le=stale.MAX_OFFSET, description="References to skip: a further page")] = 0,
        limit: Annotated[int, Field(ge=1, le=stale.MAX_LIMIT, description="References per page")] = 50,
    ) -> stale.FindStaleResult:
        """Prose (docs, docstrings, comments) naming code its project no longer has, or calling it with an argument
        count no definition takes; each with `see`, the current definition or nearest name. Size: about 80 tokens
        a reference; next_call gives the next page."""
        app = app_of(ctx)
        return await reading(
            app, lambda reader: stale.find_stale(reader, projects=projects, offset=offset, limit=limit)
        )
