"""Every tool's answer stays within the answer budget a client allows (Claude Code refuses a tool result above
25,000 tokens and warns above 10,000); when a budget cuts, the answer says so and names the call for the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client

from tests.conftest import HashEmbedder, index_into
from trident.ingest.pipeline import IndexReport, Progress
from trident.retrieval.reader import Reader
from trident.server.app import build_server
from trident.server.job_status import JobState
from trident.server.jobs import KEPT_ENDED_JOBS, IndexJobs
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store.catalog import Catalog
from trident.store.tokens import json_tokens, response_tokens
from trident.tools import status as status_tool
from trident.tools.calls import RESPONSE_TOKENS

pytestmark = pytest.mark.anyio

# Beside the budgeted list (hits, edges, projects), an answer carries a few hundred tokens of other fields.
ANSWER_CEILING = RESPONSE_TOKENS + 1_000

LARGEST_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("search", {"query": "payment order token key"}),
    ("search", {"query": "payment order token key", "top_k": 100}),
    ("search", {"query": "payment order token key", "top_k": 100, "explain": True}),
    ("trace_relationships", {"entity": "PaymentGateway"}),
    ("trace_relationships", {"entity": "PaymentGateway", "max_hops": 4, "limit": 500}),
    ("explain_path", {"source": "OrderService", "target": "RotatingKeyStore", "max_hops": 6, "max_paths": 10}),
    ("find_similar", {"text": "charge a card and record the payment", "top_k": 30}),
    ("get_entity", {"name_or_id": "PaymentGateway"}),
    ("status", {}),
    ("index_status", {}),
]


@pytest.fixture
def client(sample_client: Client) -> Client:
    return sample_client


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


@pytest.mark.parametrize(("tool", "arguments"), LARGEST_CALLS, ids=lambda value: str(value)[:40])
async def test_the_largest_answers_of_every_tool_stay_within_the_budget(
    client: Client, tool: str, arguments: dict[str, Any]
) -> None:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, _text(result)
    assert response_tokens(_text(result)) <= ANSWER_CEILING


async def test_a_walk_larger_than_the_budget_comes_in_pages_that_name_the_next_call(client: Client) -> None:
    arguments = {"entity": "PaymentGateway", "max_hops": 4, "limit": 500}
    whole = (await client.call_tool("trace_relationships", {**arguments, "max_tokens": 100_000})).structured_content
    assert whole is not None and json_tokens(whole) > RESPONSE_TOKENS, "the sample walk must need pages"
    first = (await client.call_tool("trace_relationships", arguments)).structured_content
    assert first is not None and first["truncated"]
    assert first["next_call"].endswith(f"offset={len(first['edges'])})")
    second = await client.call_tool("trace_relationships", {**arguments, "offset": len(first["edges"])})
    edges = first["edges"] + (second.structured_content or {})["edges"]
    assert edges == whole["edges"][: len(edges)]


async def test_every_tool_description_states_the_size_of_its_answer(sample_catalog: Catalog) -> None:
    settings = TridentSettings.from_env(ServerSettings(read_only=False))
    async with Client(build_server(settings, lambda: sample_catalog, close_catalog=False)) as writable:
        tools = (await writable.list_tools()).tools
    assert len(tools) == 12
    for tool in tools:
        assert tool.description is not None and "Size:" in tool.description, tool.name


def test_status_lists_projects_a_page_at_a_time_when_they_do_not_fit(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = status_tool.status(Reader.open(sample_catalog))
    assert not whole.truncated and whole.projects_total == len(whole.projects) == 3
    monkeypatch.setattr(status_tool, "RESPONSE_TOKENS", status_tool.STATUS_OVERHEAD_TOKENS + 10)
    pages, offset = [], 0
    while True:
        page = status_tool.status(Reader.open(sample_catalog), offset)
        pages.extend(page.projects)
        if not page.truncated:
            break
        offset += len(page.projects)
        assert page.next_call == f"status(offset={offset})"
    assert [p.name for p in pages] == [p.name for p in whole.projects]


def test_status_shows_the_first_skipped_files_and_counts_them_all(tmp_path: Path) -> None:
    folder = tmp_path / "assets"
    folder.mkdir()
    (folder / "main.py").write_text("def main():\n    return 1\n")
    for i in range(status_tool.SKIPPED_SHOWN + 5):
        (folder / f"image{i:02}.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    try:
        index_into(catalog, folder, "assets")
        project = status_tool.status(Reader.open(catalog)).projects[0]
        assert (len(project.skipped), project.skipped_total) == (status_tool.SKIPPED_SHOWN, 15)
        whole = status_tool.project_status(Reader.open(catalog), "assets")
        assert whole is not None and len(whole.skipped) == 15
    finally:
        catalog.close()


def test_a_long_lived_server_keeps_only_the_latest_ended_jobs() -> None:
    def runner(path: Path, project: str, progress: Progress) -> IndexReport:
        return IndexReport(project=project)

    jobs = IndexJobs(runner)
    try:
        started = []
        for i in range(KEPT_ENDED_JOBS + 10):
            started.append(jobs.start(Path("."), f"p{i}").job_id)
            jobs.wait(started[-1], timeout=60)
        last = jobs.start(Path("."), "last")
        ended = jobs.wait(last.job_id, timeout=60)
        assert ended is not None and ended.state == JobState.DONE, "the last job did not end within 60 s"
        kept = [job.job_id for job in jobs.all()]
        assert kept == [*started[-KEPT_ENDED_JOBS:], last.job_id]
    finally:
        jobs.shutdown()
