"""`tools/list` sends schemas as compact as a client needs them: output schemas keep their structure and lose their
prose, titles and defaults; input schemas keep every argument's description. The SDK client checks every tool
result against the listed output schema, so each tool called here is also checked against its compact schema."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp.client import Client

from trident.server.app import build_server
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store.catalog import Catalog

pytestmark = pytest.mark.anyio


def _keys(node: Any) -> set[str]:
    """Every keyword the schema uses (the names under `properties` and `$defs` are names, not keywords)."""
    if isinstance(node, list):
        return {key for value in node for key in _keys(value)}
    if not isinstance(node, dict):
        return set()
    found: set[str] = set()
    for key, value in node.items():
        found.add(key)
        named = key in ("properties", "$defs") and isinstance(value, dict)
        found |= _keys(list(value.values()) if named else value)
    return found


async def test_listed_schemas_keep_structure_and_argument_descriptions_but_not_prose(sample_catalog: Catalog) -> None:
    settings = TridentSettings.from_env(ServerSettings(warm_up=False))  # with the write tools
    async with Client(build_server(settings, lambda: sample_catalog, close_catalog=False)) as client:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    search = listed["search"]
    assert search.output_schema is not None
    hit = search.output_schema["$defs"]["SearchHit"]
    assert "title" in hit["properties"] and "citation" in hit["required"], "a field named title stays a field"
    assert hit["properties"]["stale"] == {"type": ["boolean", "null"]}
    for tool in listed.values():
        if tool.output_schema is not None:
            assert not _keys(tool.output_schema) & {"description", "title", "default", "discriminator"}, tool.name
        arguments = tool.input_schema["properties"]
        assert all("title" not in schema for schema in arguments.values()), tool.name
    assert "What to look for" in search.input_schema["properties"]["query"]["description"]
    knowledge = listed["add_knowledge"].input_schema["$defs"]["NewRelation"]["properties"]["type"]
    assert "DEPENDS_ON" in knowledge["description"], "the fields of argument types keep their descriptions"
    tools = [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listed.values()]
    size = len(json.dumps({"tools": tools}, separators=(",", ":")))
    # 12 tools (11 at 62K before): under 2,900 characters each
    assert size <= 12 * 2_900, f"tools/list is {size:,} characters (62K before; bench/tools_list.py shows each tool's)"


async def test_a_search_answer_validates_against_the_compact_output_schema(sample_client: Client) -> None:
    answer = await sample_client.call_tool("search", {"query": "payment gateway", "explain": True})
    assert not answer.is_error and answer.structured_content is not None
    assert answer.structured_content["hits"][0]["title"]
