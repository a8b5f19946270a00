"""The size of `tools/list`, which every client session loads: each tool's description, input schema and output
schema in characters of compact JSON, as the server sends them and as pydantic makes them (before
server/tool_schemas.py compacts them). The server runs in memory over an empty index with every tool registered.

Usage:
    python bench/tools_list.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp.client import Client
from mcp.server.mcpserver import MCPServer

from trident.server.app import TridentServer, build_server
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store.catalog import Catalog


def _chars(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":")))


async def _sizes(folder: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The listed tools as sent, and as pydantic made them."""
    catalog = Catalog(folder / "index", "default", None)
    server = build_server(TridentSettings.from_env(ServerSettings(warm_up=False)), lambda: catalog)
    assert isinstance(server, TridentServer)
    async with Client(server) as client:
        sent = [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in (await client.list_tools()).tools]
    made = [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in await MCPServer.list_tools(server)]
    return sent, made


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        sent, made = anyio.run(_sizes, Path(folder))
    print(f"{'tool':<22}{'description':>12}{'input':>8}{'output':>8}{'total':>8}{'before':>8}")
    for tool, before in zip(sent, made, strict=True):
        print(
            f"{tool['name']:<22}{len(tool.get('description', '')):>12}{_chars(tool['inputSchema']):>8}"
            f"{_chars(tool.get('outputSchema')):>8}{_chars(tool):>8}{_chars(before):>8}"
        )
    print(f"tools/list result: {_chars({'tools': sent}):,} characters (before: {_chars({'tools': made}):,})")


if __name__ == "__main__":
    main()
