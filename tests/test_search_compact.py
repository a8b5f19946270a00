"""Compact search answers (detail='compact'): the same hits as full ones, each as its citation, the import name of
what it defines, a one-line summary and the lines holding the query's words, a ten-hit answer within 2,500
characters on real code (the httpx package installed beside the tests, indexed with the plumbing embedder)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp.client import Client

from tests.conftest import EXAMPLES
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.errors import ArgumentError
from trident.tools.compact_text import query_words, words_of
from trident.tools.search import SearchAnswer, SearchResult, answer, search

COMPACT_KEYS = {"rank", "citation", "name", "kind", "score", "summary", "lines"}
QUERIES = [
    "send a request with redirects",
    "how are timeouts configured",
    "Client.send",
    "stream the response body in chunks",
    "basic authentication header",
    "proxy environment variables",
]
LINE = re.compile(r"L(\d+): (.*)")


def _answer(catalog: Catalog, query: str, **options: Any) -> SearchAnswer:
    return answer(Reader(catalog, GenerationViews(RetrievalSettings())), query, **options)


def _chars(content: Any) -> int:
    """Characters of the JSON as the server sends it (compact, UTF-8)."""
    return len(json.dumps(content, separators=(",", ":"), ensure_ascii=False))


@pytest.mark.parametrize("query", QUERIES)
def test_compact_hits_cite_the_same_chunks_in_the_same_order_as_full_ones(code_catalog: Catalog, query: str) -> None:
    full = _answer(code_catalog, query)
    compact = _answer(code_catalog, query, detail="compact")
    assert [(h.rank, h.citation) for h in compact.hits] == [(h.rank, h.citation) for h in full.hits]
    assert (compact.omitted[0].count, compact.truncated) == (full.omitted[0].count, full.truncated)


def test_a_full_answer_is_the_engines_answer_field_for_field(code_catalog: Catalog) -> None:
    assert list(SearchAnswer.model_fields) == list(SearchResult.model_fields), "a field added to one goes in both"
    views = GenerationViews(RetrievalSettings())
    engine = search(Reader(code_catalog, views), "send a request with redirects").model_dump(mode="json")
    served = _answer(code_catalog, "send a request with redirects").model_dump(mode="json")
    for timed in (engine, served):
        timed["diagnostics"].pop("timings_ms")
    assert served == engine


@pytest.mark.parametrize("query", QUERIES)
def test_a_compact_ten_hit_answer_on_real_code_stays_within_2500_characters(code_catalog: Catalog, query: str) -> None:
    compact = _answer(code_catalog, query, detail="compact").model_dump(mode="json")
    full = _answer(code_catalog, query).model_dump(mode="json")
    assert len(compact["hits"]) == 10
    assert all(set(hit) <= COMPACT_KEYS for hit in compact["hits"])
    assert _chars(compact) <= 2_500 < _chars(full) // 2, (_chars(compact), _chars(full))


@pytest.mark.parametrize("query", QUERIES)
def test_compact_lines_hold_query_words_and_quote_the_file_at_their_line_numbers(
    code_catalog: Catalog, httpx_source: Path, query: str
) -> None:
    wanted = query_words(query)
    shown = 0
    for hit in _answer(code_catalog, query, detail="compact").hits:
        assert hit.summary and len(hit.summary) <= 80
        path, _, span = hit.citation.removeprefix("httpx/").partition(":")
        start, end = (int(part) for part in span.replace("L", "").split("-"))
        file_lines = (httpx_source / path).read_text().splitlines()
        for line in hit.lines:
            found = LINE.fullmatch(line)
            assert found is not None, line
            number, text = int(found.group(1)), found.group(2).removesuffix("…")
            assert start <= number <= end and wanted & words_of(text), (hit.citation, query, line)
            assert " ".join(file_lines[number - 1].split()).startswith(text), (hit.citation, line)
            shown += 1
    assert shown, "the best hits keep their best lines"


def test_a_compact_hit_names_what_it_defines_by_its_import_name_and_sums_it_up(code_catalog: Catalog) -> None:
    hits = {hit.name: hit for hit in _answer(code_catalog, "Client.send", detail="compact").hits}
    send = hits["httpx._client.Client.send"]
    assert send.kind == "code" and send.summary == "Send a request."  # the first line of its docstring
    stream = hits["httpx._client.Client.stream"]
    assert stream.summary.startswith("def stream(self, method: str, url: URL | str, *,"), "no docstring: the signature"


def test_the_next_page_of_a_compact_answer_stays_compact(code_catalog: Catalog) -> None:
    page = _answer(code_catalog, "send a request with redirects", detail="compact", top_k=30, max_tokens=300)
    assert page.truncated and page.next_call is not None and "detail='compact'" in page.next_call
    assert all(entry.next_call is None or "detail='compact'" in entry.next_call for entry in page.omitted)


def test_an_unknown_detail_is_refused_naming_the_allowed_values(code_catalog: Catalog) -> None:
    with pytest.raises(ArgumentError, match="unknown detail 'short'; known: full, compact"):
        _answer(code_catalog, "send", detail="short")


@pytest.mark.anyio
async def test_a_served_compact_search_validates_against_the_listed_output_schema(code_client: Client) -> None:
    listed = {tool.name: tool for tool in (await code_client.list_tools()).tools}["search"]
    assert listed.output_schema is not None
    assert listed.input_schema["properties"]["detail"]["default"] == "full"
    for detail in ("compact", "full"):
        result = await code_client.call_tool("search", {"query": "send a request with redirects", "detail": detail})
        assert not result.is_error and result.structured_content is not None
        jsonschema.validate(result.structured_content, listed.output_schema)
    compact = (await code_client.call_tool("search", {"query": "Client.send", "detail": "compact"})).structured_content
    assert compact is not None and set(compact) == {"query", "hits", "truncated", "next_call", "omitted", "message"}
    assert compact["hits"][0]["citation"].startswith("httpx/httpx/_client.py:L")
    assert _chars(compact) <= 2_500


@pytest.mark.anyio
async def test_a_served_search_with_a_bad_detail_is_an_error_result_naming_the_allowed_values(
    code_client: Client,
) -> None:
    result = await code_client.call_tool("search", {"query": "send", "detail": "short"})
    assert result.is_error
    text = "".join(getattr(block, "text", "") for block in result.content)
    assert "detail" in text and "'full' or 'compact'" in text and "short" in text, text


def test_the_cli_prints_a_compact_answer_as_json_and_as_text(tmp_path: Path) -> None:
    env = {**os.environ, "TRIDENT_HOME": str(tmp_path / "home")}
    run = [sys.executable, "-m", "trident.cli.main"]
    indexed = subprocess.run([*run, "index", str(EXAMPLES / "auth")], env=env, capture_output=True, text=True)
    assert indexed.returncode == 0, indexed.stderr
    query = [*run, "search", "verify a token signature", "--detail", "compact"]
    printed = subprocess.run([*query, "--json"], env=env, capture_output=True, text=True)
    assert printed.returncode == 0, printed.stderr
    data = json.loads(printed.stdout)
    assert data["hits"] and all(set(hit) <= COMPACT_KEYS for hit in data["hits"])
    assert "diagnostics" not in data and "snippet" not in printed.stdout
    text = subprocess.run(query, env=env, capture_output=True, text=True)
    assert text.returncode == 0, text.stderr
    assert data["hits"][0]["citation"] in text.stdout and data["hits"][0]["summary"][:40] in text.stdout
