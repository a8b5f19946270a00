"""Compact trace and explain answers (detail='compact'): the same edges and paths as full ones, each one line that
names its entities as code imports them and cites the line writing each call, checked against the source of a real
package (httpx, installed beside the tests, indexed with the plumbing embedder) through a real MCP session."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.errors import ArgumentError
from trident.tools.explain import CompactPath, PathResult, explain_path
from trident.tools.trace import Direction, Edge, trace_relationships

pytestmark = pytest.mark.anyio

SEND = "httpx._client.Client.send"
# `A` TYPE `B` (project/path:L12,L30; resolution) -- the resolution only when less sure than exact
COMPACT_EDGE = re.compile(r"`(?P<source>[^`]+)` (?P<type>[A-Z_]+) `(?P<target>[^`]+)`(?: \((?P<notes>[^)]*)\))?")
CALL_SITE = re.compile(r"httpx/(?P<path>[^:]+):(?P<lines>L\d+(?:,L\d+)*)")


def _chars(content: Any) -> int:
    return len(json.dumps(content, separators=(",", ":"), ensure_ascii=False))


def _written_calls(source: Path, site: str, callee: str) -> list[str]:
    """The source lines a call site cites, each checked to write a call of `callee` by its name."""
    found = CALL_SITE.fullmatch(site)
    assert found is not None, site
    lines = (source / found.group("path")).read_text().splitlines()
    cited = [lines[int(n) - 1] for n in found.group("lines").replace("L", "").split(",")]
    name = callee.rsplit(".", 1)[-1]
    assert all(re.search(rf"\b{re.escape(name)}\s*\(", line) for line in cited), (site, cited)
    return cited


def _trace(catalog: Catalog, **options: Any) -> Any:
    views = GenerationViews(RetrievalSettings())
    return trace_relationships(Reader(catalog, views), SEND, **options)


def test_a_compact_trace_has_one_line_for_each_edge_of_the_full_one_with_the_call_written_there(
    code_catalog: Catalog, httpx_source: Path
) -> None:
    options: dict[str, Any] = {"direction": Direction.OUT, "relation_types": ["CALLS"], "max_hops": 1}
    full, compact = _trace(code_catalog, **options), _trace(code_catalog, detail="compact", **options)
    assert compact.nodes is None and compact.paths is None
    full_edges = [e for e in full.edges if isinstance(e, Edge)]
    lines = [line for line in compact.edges if isinstance(line, str)]
    assert len(lines) == len(full_edges) >= 3
    by_id = {e.id: e for e in code_catalog.entities()}
    cited = 0
    for edge, line in zip(full_edges, lines, strict=True):
        found = COMPACT_EDGE.fullmatch(line)
        assert found is not None, line
        assert (found["source"], found["type"]) == (SEND, "CALLS")
        assert found["target"] == by_id[edge.target].qualified_name, "httpx's own layout: import name = qualified"
        notes = (found["notes"] or "").split("; ")
        assert (edge.resolution.value in notes) == (edge.resolution.value != "exact"), line
        site = notes[0]
        if CALL_SITE.fullmatch(site):
            _written_calls(httpx_source, site, found["target"])
            cited += 1
    assert cited >= 3, "the calls send writes by name cite their lines"
    dumped = compact.model_dump(mode="json")
    assert _chars(dumped) < _chars(full.model_dump(mode="json")) // 2


def test_a_compact_explain_tells_each_path_with_import_names_and_the_lines_of_its_calls(
    code_catalog: Catalog, httpx_source: Path
) -> None:
    reader = Reader.open(code_catalog)
    target = "httpx._client.Client._send_single_request"
    full = explain_path(reader, SEND, target)
    compact = explain_path(reader, SEND, target, detail="compact")
    full_paths = [p for p in full.paths if isinstance(p, PathResult)]
    compact_paths = [p for p in compact.paths if isinstance(p, CompactPath)]
    assert len(compact_paths) == len(full_paths) >= 1
    assert [p.call_chain for p in compact_paths] == [p.call_chain for p in full_paths]
    first = compact_paths[0]
    # send -> _send_handling_auth -> _send_handling_redirects -> _send_single_request, in httpx's source
    assert first.call_chain and first.sentence.startswith(f"`{SEND}` calls `httpx._client.Client._send_handling_auth`")
    named = re.findall(r"`([^`]+)`", first.sentence)
    sites = re.findall(r"\((httpx/[^;)]+)", first.sentence)
    assert named[-1] == target and len(sites) == len(named) - 1
    for callee, site in zip(named[1:], sites, strict=True):
        _written_calls(httpx_source, site, callee)
    assert _chars(compact.model_dump(mode="json")) < _chars(full.model_dump(mode="json"))


async def test_compact_answers_over_mcp_validate_and_their_next_calls_stay_compact(code_client: Any) -> None:
    traced = await code_client.call_tool(
        "trace_relationships", {"entity": SEND, "direction": "in", "limit": 2, "detail": "compact"}
    )
    assert not traced.is_error and traced.structured_content is not None
    content = traced.structured_content
    assert "nodes" not in content and "paths" not in content
    assert all(isinstance(line, str) and COMPACT_EDGE.fullmatch(line) for line in content["edges"])
    assert content["truncated"] and "detail='compact'" in content["next_call"]
    explained = await code_client.call_tool(
        "explain_path", {"source": SEND, "target": "httpx._client.Client._send_single_request", "detail": "compact"}
    )
    assert not explained.is_error and explained.structured_content is not None
    assert set(explained.structured_content["paths"][0]) == {"sentence", "call_chain"}


async def test_an_unknown_detail_is_a_tool_error_the_model_can_correct(code_client: Any) -> None:
    answer = await code_client.call_tool("trace_relationships", {"entity": SEND, "detail": "short"})
    assert answer.is_error and "compact" in answer.content[0].text


def test_an_unknown_detail_is_refused_naming_the_allowed_values(code_catalog: Catalog) -> None:
    with pytest.raises(ArgumentError, match="unknown detail 'brief'; known: full, compact"):
        _trace(code_catalog, detail="brief")
