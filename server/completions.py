"""Argument completion (`completion/complete`): project names for the project resource, entity names for the entity
resource. A client shows them as the user types a resource URI; the prompt's one argument (a question) has none."""

from __future__ import annotations

from typing import Any, cast

from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CompleteRequestParams, CompleteResult, Completion, PromptReference

from trident.server.context import TridentContext
from trident.server.guidance import ENTITY_TEMPLATE, PROJECT_TEMPLATE

MAX_VALUES = 100  # the most one answer may hold (MCP 2025-11-25)
ARGUMENTS = {PROJECT_TEMPLATE: "name", ENTITY_TEMPLATE: "entity_id"}


def register_completions(server: MCPServer[Any]) -> None:
    """Serve `completion/complete`, which also declares the `completions` capability."""

    async def complete(ctx: ServerRequestContext[Any], params: CompleteRequestParams) -> CompleteResult:
        app = cast(TridentContext, ctx.lifespan_context)
        return CompleteResult(completion=_complete(server, app, params))

    # The lowlevel registration: MCPServer.completion() hides the request context, which holds the index to read.
    server._lowlevel_server.add_request_handler("completion/complete", CompleteRequestParams, complete)


def _complete(server: MCPServer[Any], app: TridentContext, params: CompleteRequestParams) -> Completion:
    ref, argument = params.ref, params.argument
    if isinstance(ref, PromptReference):
        prompt = server._prompt_manager.get_prompt(ref.name)
        if prompt is None:
            raise MCPError(INVALID_PARAMS, f"unknown prompt {ref.name!r}; prompts/list has the prompts")
        if argument.name not in {a.name for a in prompt.arguments or []}:
            raise MCPError(INVALID_PARAMS, f"prompt {ref.name!r} has no argument {argument.name!r}")
        return _values([])  # a question is the user's own words
    expected = ARGUMENTS.get(ref.uri)
    if expected is None:
        raise MCPError(INVALID_PARAMS, f"no resource template {ref.uri!r}; resources/templates/list has them")
    if argument.name != expected:
        raise MCPError(INVALID_PARAMS, f"the template {ref.uri} has one argument, {expected!r}")
    if ref.uri == PROJECT_TEMPLATE:
        folded = argument.value.casefold()
        return _values([p for p in app.catalog.manifest.projects() if p.casefold().startswith(folded)])
    return _values(app.directory().names_starting(argument.value))


def _values(found: list[str]) -> Completion:
    return Completion(values=found[:MAX_VALUES], total=len(found), has_more=len(found) > MAX_VALUES)
