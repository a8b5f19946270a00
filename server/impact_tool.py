"""The impact tool's registration: what a change affects, asked by entity or by git change."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from trident.server.registration import READ, app_of, reading, tool
from trident.store.schema import Resolution
from trident.tools import impact as impact_tool

ImpactResolution = Annotated[
    Resolution,
    Field(description="Least sure binding a call may have: exact, inferred, dispatch (default) or name"),
]


def register_impact(server: MCPServer[Any]) -> None:
    @tool(server, READ)
    async def impact(
        ctx: Context,
        entities: Annotated[
            list[str] | None, Field(description="Changed entities: names or ids (or give changes)")
        ] = None,
        changes: Annotated[
            str | None,
            Field(description="Or a git change: 'working-tree' or 'BASE..HEAD'"),
        ] = None,
        projects: Annotated[list[str] | None, Field(description="Only these projects' changes")] = None,
        max_hops: Annotated[int, Field(ge=1, le=impact_tool.MAX_HOPS, description="Farthest caller, in calls")] = 3,
        min_resolution: ImpactResolution = Resolution.DISPATCH,
        paths: Annotated[bool, Field(description="Each caller's chain of calls")] = False,
        offset: Annotated[int, Field(ge=0, le=impact_tool.MAX_OFFSET, description="Callers and tests to skip")] = 0,
        limit: Annotated[int, Field(ge=1, le=impact_tool.MAX_LIMIT, description="Page size of callers and tests")] = 50,
    ) -> impact_tool.ImpactResult:
        """What a change affects: definitions touched, callers within max_hops (riskiest first), tests that run
        them, what no test reaches, docs naming them, and a verdict: complete, or lower_bound with reasons.
        Size: about 60 tokens a caller or test."""
        return await reading(
            app_of(ctx),
            lambda reader: impact_tool.impact(
                reader,
                entities=entities,
                changes=changes,
                projects=projects,
                max_hops=max_hops,
                min_resolution=min_resolution,
                paths=paths,
                offset=offset,
                limit=limit,
            ),
        )
