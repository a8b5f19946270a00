"""What every tool registration shares: how a tool is added, reads its lifespan context, runs blocking engine calls
off the event loop, and has its failures mapped to the two kinds of MCP error."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from trident.retrieval.entities import EntityNotFoundError
from trident.retrieval.reader import Reader, read_once
from trident.server.context import TridentContext
from trident.store.catalog import TridentIndexError
from trident.store.errors import ArgumentError

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])
READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)


def tool(server: MCPServer[Any], annotations: ToolAnnotations, name: str | None = None) -> Callable[[F], F]:
    """Register a tool with its docstring, dedented, as the description a model reads."""

    def register(fn: F) -> F:
        server.add_tool(fn, name=name, description=inspect.cleandoc(fn.__doc__ or ""), annotations=annotations)
        return fn

    return register


def app_of(ctx: Context) -> TridentContext:
    return cast(TridentContext, ctx.request_context.lifespan_context)


@contextmanager
def mapped_errors() -> Iterator[None]:
    """Map the failures a caller can act on (a bad argument, an unknown entity, an index problem) to tool errors: a
    result with `isError` whose message says what to do. Anything else is the server's fault, answered by
    `TridentServer.call_tool` (server/app.py)."""
    try:
        yield
    except (ArgumentError, EntityNotFoundError, TridentIndexError) as exc:
        raise ToolError(str(exc)) from None


async def in_worker(fn: Callable[[], T]) -> T:
    """Run a blocking engine call in a worker thread, mapping its failures."""
    with mapped_errors():
        return await anyio.to_thread.run_sync(fn)


async def reading(app: TridentContext, answer: Callable[[Reader], T]) -> T:
    """A read tool's answer, from one index generation (`read_once`), in a worker thread, its failures mapped."""
    return await in_worker(lambda: read_once(app.reader(), answer))


async def mapped(work: Awaitable[T]) -> T:
    with mapped_errors():
        return await work
