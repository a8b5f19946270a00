"""The prompt that tells a client how to answer from Trident's evidence, and resources for projects and entities."""

from __future__ import annotations

from typing import Any, cast

from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError

from trident.retrieval.entities import EntityNotFoundError
from trident.server.context import TridentContext
from trident.tools import get_entity as entity_tools
from trident.tools import status

# MCP 2025-11-25: "Resource not found" (later protocol versions retire the code; this server speaks 2025-11-25).
RESOURCE_NOT_FOUND = -32002
PROJECT_TEMPLATE = "trident://projects/{name}"
ENTITY_TEMPLATE = "trident://entities/{entity_id}"

ANSWER_PROMPT = """Answer the question below from the user's indexed code and documents, using Trident's tools.

1. Call `search` with the question (add `expansions` in your own words if the first results miss).
   For "what calls / uses / depends on X" call `trace_relationships`; for "how does A connect to B" call
   `explain_path`; for "what is X" call `get_entity`.
2. Answer only from the evidence returned. Cite every claim as project/path:Lstart-Lend, exactly as given.
3. Say plainly what the evidence does not cover, and which call would find it, instead of guessing.
4. A hit marked `stale` comes from a file changed or removed since it was indexed: say so where you use it, or
   refresh the index first (its `stale_reason` gives the command; `index_path` does the same).
5. Hits carry `source_kind` (code, doc, config, passage, knowledge) and `last_modified` (when their lines last
   changed). A hit's `flags` mark evidence that disagrees; nothing was dropped, so present both sides:
   - `conflict` `factual`: code or configuration and prose state different values for `key`; answer with the
     `preferred` one (what runs) and say the document is out of date, citing both.
   - `conflict` `temporal`: two documents disagree; answer with the `preferred` (later) one and mention the older.
   - `conflict` `scope`: different projects hold different values; give each with its project, prefer neither.
   - `stale_reference`: the prose names code that is gone or called otherwise now; do not repeat it as current,
     point to `see` (the current definition or nearest name) instead.

Question: {question}"""


def register_guidance(server: MCPServer[Any]) -> None:
    @server.prompt(name="answer_with_evidence", description="How to answer a question from Trident's evidence")
    def answer_with_evidence(question: str) -> str:
        return ANSWER_PROMPT.format(question=question)

    @server.resource(PROJECT_TEMPLATE, name="project", mime_type="application/json")
    def project_summary(name: str, ctx: Context) -> str:
        """Counts and skipped files of one indexed project."""
        app = cast(TridentContext, ctx.request_context.lifespan_context)
        project = status.project_status(app.reader(), name)
        if project is not None:
            return project.model_dump_json(indent=2)
        known = ", ".join(app.catalog.manifest.projects()) or "none"
        raise _not_found(f"trident://projects/{name}", f"no project '{name}' is indexed (known: {known})")

    @server.resource(ENTITY_TEMPLATE, name="entity", mime_type="application/json")
    def entity_resource(entity_id: str, ctx: Context) -> str:
        """One entity: description, where defined, relation counts."""
        app = cast(TridentContext, ctx.request_context.lifespan_context)
        try:
            found = entity_tools.get_entity(app.reader(), entity_id)
            return found.model_dump_json(indent=2)
        except EntityNotFoundError as exc:
            raise _not_found(f"trident://entities/{entity_id}", str(exc), suggestions=exc.suggestions) from None


def _not_found(uri: str, message: str, **data: object) -> MCPError:
    """A resource that does not exist: the MCP 2025-11-25 resource-not-found error (-32002) with its URI."""
    return MCPError(RESOURCE_NOT_FOUND, message, data={"uri": uri, **data})
