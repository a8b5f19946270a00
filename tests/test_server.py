"""The MCP surface through a real client: in memory over the sample index, and over stdio in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, PromptReference, ResourceTemplateReference

from tests.conftest import EXAMPLES
from trident.embedding.background import BackgroundEmbedder
from trident.retrieval import stale_references
from trident.retrieval.relation_index import RelationIndex
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import GenerationViews
from trident.server import context
from trident.server.context import _keep_warm, _warm_up
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.protocols import Embedder

pytestmark = pytest.mark.anyio

READ_TOOLS = {
    "search",
    "trace_relationships",
    "explain_path",
    "find_similar",
    "get_entity",
    "index_status",
    "status",
    "find_stale",
    "impact",
}
WRITE_TOOLS = {"index_path", "remove", "add_knowledge"}


@pytest.fixture
def client(sample_client: Client) -> Client:
    return sample_client


def _data(result: Any) -> Any:
    assert not result.is_error, result.content[0].text
    return result.structured_content


async def test_read_only_server_lists_only_retrieval_tools_marked_read_only(client: Client) -> None:
    tools = (await client.list_tools()).tools
    assert {t.name for t in tools} == READ_TOOLS
    for tool in tools:
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.description and tool.output_schema


async def test_search_tool_returns_cited_hits(client: Client) -> None:
    data = _data(await client.call_tool("search", {"query": "payment gateway", "top_k": 3}))
    top = data["hits"][0]
    assert top["path"] == "billing/gateway.py"
    assert top["citation"].startswith("billing/billing/gateway.py:L")
    # Diagnostics that do not apply are left out, not sent as null.
    shown = ["fusion", "strategy", "candidates", "entities", "timings_ms", "route", "primary_led"]
    assert list(data["diagnostics"]) == shown and data["hits"][0]["explanation"] is None


async def test_explain_path_connects_order_service_to_payment_gateway(client: Client) -> None:
    data = _data(
        await client.call_tool("explain_path", {"source": "OrderService", "target": "PaymentGateway", "max_hops": 4})
    )
    assert data["paths"], data.get("message")
    best = data["paths"][0]
    assert [hop["type"] for hop in best["hops"]] == ["CONTAINS", "CALLS", "CALLS", "CONTAINS"]
    assert "calls `PaymentAdapter.process`" in best["sentence"] and "`PaymentGateway.charge`" in best["sentence"]
    assert all(hop["evidence"] for hop in data["paths"][0]["hops"])


async def test_trace_relationships_finds_what_a_method_calls(client: Client) -> None:
    data = _data(
        await client.call_tool(
            "trace_relationships",
            {"entity": "PaymentAdapter.process", "direction": "out", "relation_types": ["CALLS"], "max_hops": 1},
        )
    )
    targets = {node["name"] for node in data["nodes"]}
    assert "charge" in targets
    assert all(edge["type"] == "CALLS" and edge["evidence"] for edge in data["edges"])


async def test_an_unknown_entity_gets_a_tool_error_naming_the_closest(client: Client) -> None:
    result = await client.call_tool("get_entity", {"name_or_id": "PaymentGatway"})
    assert result.is_error
    assert "PaymentGateway" in result.content[0].text


async def test_out_of_range_arguments_are_tool_errors_the_model_can_read(client: Client) -> None:
    out_of_range = await client.call_tool("trace_relationships", {"entity": "OrderService", "max_hops": 9})
    assert out_of_range.is_error
    assert "max_hops: Input should be less than or equal to 4 (got 9)" in out_of_range.content[0].text
    both = await client.call_tool("find_similar", {"text": "x", "chunk_id": "y"})
    assert both.is_error and "exactly one" in both.content[0].text


async def test_find_similar_leaves_the_example_out(client: Client) -> None:
    hit = _data(await client.call_tool("search", {"query": "RotatingKeyStore", "top_k": 1}))["hits"][0]
    similar = _data(await client.call_tool("find_similar", {"chunk_id": hit["id"], "top_k": 5}))
    ids = [h["id"] for h in similar["result"]]
    assert hit["id"] not in ids and len(ids) == 5


async def test_a_stdio_session_started_like_claude_desktop_indexes_and_runs_every_tool(tmp_path: Path) -> None:
    trident = str(Path(sys.executable).parent / "trident")
    env = {**os.environ, "TRIDENT_HOME": str(tmp_path / "home"), "TRIDENT_ALLOWED_ROOTS": str(EXAMPLES)}
    env["TRIDENT_PROGRESSIVE_CHUNKS"] = "1"  # every run publishes lexical and graph first, then fills in vectors
    params = StdioServerParameters(command=trident, args=["serve"], env=env)
    progress: list[float] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append(done)

    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        assert {t.name for t in tools} == READ_TOOLS | WRITE_TOOLS
        assert all(t.output_schema for t in tools)
        for project in ("billing", "auth", "storefront"):
            args = {"path": str(EXAMPLES / project), "wait_seconds": 50}
            job = (await session.call_tool("index_path", args, progress_callback=on_progress)).structured_content
            for _ in range(600):
                if job["state"] in {"done", "failed"}:
                    break
                await anyio.sleep(0.1)
                job = (await session.call_tool("index_status", {"job_id": job["job_id"]})).structured_content["result"][
                    0
                ]
            assert job["state"] == "done", job
            assert job["vectors_waiting"] == 0, "the job published before embedding, and then embedded everything"

        async def call(name: str, args: dict[str, Any]) -> Any:
            result = await session.call_tool(name, args)
            assert not result.is_error, result.content[0].text
            return result.structured_content

        hits = await call("search", {"query": "payment gateway", "top_k": 3})
        assert hits["hits"][0]["citation"].startswith("billing/billing/gateway.py:L")
        trace = await call("trace_relationships", {"entity": "OrderService.checkout", "direction": "out"})
        assert "process" in {n["name"] for n in trace["nodes"]}
        path = await call("explain_path", {"source": "OrderService", "target": "PaymentGateway"})
        assert path["paths"] and "PaymentGateway" in path["paths"][0]["sentence"]
        similar = await call("find_similar", {"text": "rotate the signing key", "top_k": 2})
        assert similar["result"][0]["project"] == "auth"
        entity = await call("get_entity", {"name_or_id": "TokenVerifier"})
        assert entity["entity"]["citation"].startswith("auth/internal/tokens/verifier.go:L")
        fact = {"name": "Payments team", "type": "Team", "description": "Owns billing"}
        relation = {"source": "Payments team", "type": "OWNS", "target": "PaymentGateway"}
        added = await call("add_knowledge", {"entities": [fact], "relations": [relation], "author": "test"})
        assert added["relations"] == 1
        owners = await call("trace_relationships", {"entity": "PaymentGateway", "relation_types": ["OWNS"]})
        assert {n["name"] for n in owners["nodes"]} == {"Payments team"}
        named = await call("trace_relationships", {"entity": "Payments team", "relation_types": ["MENTIONS"]})
        assert "PaymentGateway" in {n["name"] for n in named["nodes"]}, "the note's text is resolved as indexing does"
        status = await call("status", {})
        assert status["consistent"] and {p["name"] for p in status["projects"]} >= {"billing", "auth", "storefront"}
        removed = await call("remove", {"project": "storefront"})
        assert "storefront" not in {p["name"] for p in removed["projects"]} and removed["consistent"]
        refused = await session.call_tool("index_path", {"path": str(tmp_path)})
        assert refused.is_error and "outside the allowed roots" in refused.content[0].text
    assert progress, "index_path with wait_seconds sends progress notifications"


def test_stdout_of_the_stdio_server_carries_only_json_rpc(tmp_path: Path) -> None:
    env = {**os.environ, "TRIDENT_HOME": str(tmp_path)}
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "status", "arguments": {}}},
    ]
    with subprocess.Popen(
        [sys.executable, "-m", "trident.cli.main", "serve"],
        env=env,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        watchdog = threading.Timer(120, process.kill)  # a hung server fails the test instead of hanging it
        watchdog.start()
        process.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
        process.stdin.flush()
        lines = [process.stdout.readline() for _ in range(3)]
        process.stdin.close()
        process.wait(timeout=60)
        watchdog.cancel()
        assert process.stdout.read().strip() == "", "nothing but responses may reach stdout"
        assert all(json.loads(line)["jsonrpc"] == "2.0" for line in lines)
        assert {json.loads(line)["id"] for line in lines} == {1, 2, 3}


async def test_the_answer_prompt_and_the_resources_are_served(client: Client) -> None:
    prompts = (await client.list_prompts()).prompts
    assert [p.name for p in prompts] == ["answer_with_evidence"]
    prompt = await client.get_prompt("answer_with_evidence", {"question": "what calls charge?"})
    assert "what calls charge?" in prompt.messages[0].content.text
    project = await client.read_resource("trident://projects/billing")
    assert json.loads(project.contents[0].text)["name"] == "billing"
    entity = await client.read_resource("trident://entities/class:billing:billing.gateway.PaymentGateway")
    assert json.loads(entity.contents[0].text)["entity"]["name"] == "PaymentGateway"


PROTOCOL_PROBES = [
    ("get_prompt", ("no_such_prompt", {}), INVALID_PARAMS, "answer_with_evidence"),
    ("get_prompt", ("answer_with_evidence", {}), INVALID_PARAMS, "question"),
    ("read_resource", ("trident://projects/no-such-project",), -32002, "billing"),
    ("read_resource", ("trident://entities/NoSuchThing",), -32002, "NoSuchThing"),
]


@pytest.mark.parametrize(("method", "arguments", "code", "named"), PROTOCOL_PROBES)
async def test_an_unknown_prompt_a_missing_argument_or_an_unknown_resource_is_a_protocol_error_with_its_code(
    client: Client, method: str, arguments: tuple[Any, ...], code: int, named: str
) -> None:
    with pytest.raises(MCPError) as raised:
        await getattr(client, method)(*arguments)
    assert raised.value.error.code == code and named in raised.value.error.message
    if method == "read_resource":
        assert raised.value.error.data["uri"] == arguments[0]


async def test_resource_arguments_complete_from_the_index(client: Client) -> None:
    assert client.server_capabilities is not None and client.server_capabilities.completions is not None
    projects = await client.complete(
        ResourceTemplateReference(uri="trident://projects/{name}"), {"name": "name", "value": "b"}
    )
    assert projects.completion.values == ["billing"] and projects.completion.total == 1
    entities = await client.complete(
        ResourceTemplateReference(uri="trident://entities/{entity_id}"), {"name": "entity_id", "value": "paymentg"}
    )
    assert "PaymentGateway" in entities.completion.values
    assert all(value.lower().startswith("paymentg") for value in entities.completion.values)
    everything = await client.complete(
        ResourceTemplateReference(uri="trident://entities/{entity_id}"), {"name": "entity_id", "value": ""}
    )
    assert len(everything.completion.values) <= 100 and everything.completion.total >= len(everything.completion.values)
    assert everything.completion.has_more == (everything.completion.total > 100)
    question = await client.complete(
        PromptReference(name="answer_with_evidence"), {"name": "question", "value": "what"}
    )
    assert question.completion.values == []


COMPLETION_PROBES = [
    (PromptReference(name="no_such_prompt"), {"name": "question", "value": "x"}, "no_such_prompt"),
    (PromptReference(name="answer_with_evidence"), {"name": "topic", "value": "x"}, "topic"),
    (ResourceTemplateReference(uri="trident://nothing/{x}"), {"name": "x", "value": "a"}, "trident://nothing/{x}"),
    (ResourceTemplateReference(uri="trident://projects/{name}"), {"name": "project", "value": "a"}, "name"),
]


@pytest.mark.parametrize(("ref", "argument", "named"), COMPLETION_PROBES)
async def test_completing_what_does_not_exist_is_invalid_params(
    client: Client, ref: Any, argument: dict[str, str], named: str
) -> None:
    with pytest.raises(MCPError) as raised:
        await client.complete(ref, argument)
    assert raised.value.error.code == INVALID_PARAMS and named in raised.value.error.message


async def test_server_info_carries_the_package_version(client: Client) -> None:
    from importlib.metadata import version

    assert client.server_info is not None
    assert (client.server_info.name, client.server_info.version) == ("trident", version("trident-mcp"))


BAD_CALLS = [
    ("search", {"top_k": 3}, "query"),
    ("search", {"query": ""}, "query"),
    ("search", {"query": "x", "top_k": 0}, "top_k"),
    ("search", {"query": "x", "strategy": "psychic"}, "strategy"),
    ("search", {"query": "x", "fusion": "average"}, "fusion"),
    ("search", {"query": "x", "expansions": ["a"] * 6}, "expansions"),
    ("search", {"query": "x", "max_tokens": 10}, "max_tokens"),
    ("search", {"query": "x", "offset": -1}, "offset"),
    ("trace_relationships", {"entity": "OrderService", "max_hops": 9}, "max_hops"),
    ("trace_relationships", {"entity": "OrderService", "direction": "sideways"}, "direction"),
    ("trace_relationships", {"entity": "OrderService", "limit": 0}, "limit"),
    ("trace_relationships", {"entity": "OrderService", "offset": -3}, "offset"),
    ("trace_relationships", {"entity": "OrderService", "max_tokens": 10}, "max_tokens"),
    ("explain_path", {"source": "OrderService", "target": "PaymentGateway", "max_paths": 0}, "max_paths"),
    ("explain_path", {"source": "OrderService"}, "target"),
    ("find_similar", {}, "exactly one"),
    ("find_similar", {"text": "x", "entity": "OrderService"}, "exactly one"),
    ("find_similar", {"chunk_id": "no-such-chunk"}, "chunk_id: no chunk"),
    ("find_similar", {"text": "x", "kinds": ["video"]}, "kinds"),
    ("find_similar", {"text": "x", "top_k": 31}, "top_k"),
    ("get_entity", {"name_or_id": ""}, "name_or_id"),
    ("index_status", {"job_id": "no-such-job"}, "job_id"),
    ("status", {"offset": -1}, "offset"),
]


@pytest.mark.parametrize(("tool", "arguments", "named"), BAD_CALLS)
async def test_bad_arguments_are_tool_errors_naming_the_argument(
    client: Client, tool: str, arguments: dict[str, Any], named: str
) -> None:
    """MCP 2025-11-25: a bad argument is a tool result with isError, which the model reads and corrects."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    assert named in result.content[0].text


async def test_an_unknown_tool_stays_a_protocol_error(client: Client) -> None:
    with pytest.raises(MCPError) as excinfo:
        await client.call_tool("no_such_tool", {})
    assert excinfo.value.code == INVALID_PARAMS
    assert "tools/list" in str(excinfo.value)


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("trace_relationships", {"entity": "NoSuchThing"}),
        ("explain_path", {"source": "OrderService", "target": "PaymentGatewy"}),
        ("find_similar", {"entity": "PaymentGatewy"}),
    ],
)
async def test_unknown_entities_are_tool_errors_with_suggestions(
    client: Client, tool: str, arguments: dict[str, Any]
) -> None:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    assert "no entity named" in result.content[0].text


async def test_an_engine_failure_is_an_internal_error_that_does_not_blame_the_arguments(
    client: Client, sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise ValueError("boom: /var/secret/engine-state")

    monkeypatch.setattr(RelationIndex, "neighbours", boom)
    with pytest.raises(MCPError) as excinfo:
        await client.call_tool("trace_relationships", {"entity": "OrderService"})
    assert excinfo.value.code == INTERNAL_ERROR
    message = str(excinfo.value)
    assert "internal error in trace_relationships" in message and "server log" in message
    assert "invalid" not in message.lower() and "boom" not in message
    failure = next(r for r in caplog.records if r.name == "trident.server.app")
    assert failure.exc_info is not None and "boom" in str(failure.exc_info[1]), "the log keeps what happened"


def test_the_warm_up_builds_what_graph_questions_need_before_any_query(sample_catalog: Catalog) -> None:
    views = GenerationViews(RetrievalSettings())
    _warm_up(sample_catalog, views, threading.Event())
    built = views.built(sample_catalog)
    assert {"relations", "directory", "graph", "titles", "communities"} <= built, built
    assert len(views.relations(sample_catalog)) > 0 and views.built(sample_catalog) == built, "queries reuse them"
    directory = views.directory(sample_catalog)
    assert directory._grouped is not None, "the mention forms"
    unbuilt = lambda _: pytest.fail("stale references' names were not built")  # noqa: E731
    built_names = directory.derived(stale_references.PROJECT_NAMES, unbuilt)
    assert isinstance(built_names, stale_references.ProjectNames)


def test_a_server_stopping_during_the_warm_up_stops_it_before_the_next_step(sample_catalog: Catalog) -> None:
    views = GenerationViews(RetrievalSettings())
    stopping = threading.Event()
    stopping.set()
    _warm_up(sample_catalog, views, stopping)
    assert not views.built(sample_catalog) & {"relations", "graph"}


def test_the_warm_up_returns_only_once_the_relations_read_beside_it_are_done(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The relations are read in a thread beside the directory; a warm-up stopped meanwhile still waits for that
    read before it returns (the server closes the stores once the warm-up is done), and builds nothing more."""
    views, stopping = GenerationViews(RetrievalSettings()), threading.Event()
    finished: list[str] = []
    read_relations, read_directory = views.relations, views.directory

    def relations_until_stopped(catalog: Catalog) -> RelationIndex:
        stopping.wait(60)
        time.sleep(0.2)  # still reading well after the stop (without the wait, the warm-up has returned by now)
        finished.append(threading.current_thread().name)
        return read_relations(catalog)

    def directory_then_stop(catalog: Catalog) -> EntityDirectory:
        directory = read_directory(catalog)
        stopping.set()
        return directory

    monkeypatch.setattr(views, "relations", relations_until_stopped)
    monkeypatch.setattr(views, "directory", directory_then_stop)
    _warm_up(sample_catalog, views, stopping)
    assert finished == ["trident-warm-relations"]
    assert not views.built(sample_catalog) & {"graph", "titles"}


def test_the_warm_up_loads_the_model_before_the_walks_views_and_waits_for_it_only_a_while(
    sample_catalog: Catalog, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading the model beside the directory's build slowed both: the warm-up waits for the model first, but
    not past MODEL_FIRST_SECONDS (a slow load does not hold the graph paths back for long)."""
    deadline = 120.0  # generous: every wait below ends in well under a second on an idle machine
    release = threading.Event()

    def load() -> Embedder:
        release.wait(deadline)
        return embedder

    def warm(catalog: Catalog, views: GenerationViews) -> threading.Thread:
        thread = threading.Thread(target=_warm_up, args=(catalog, views, threading.Event()))
        thread.start()
        return thread

    held = BackgroundEmbedder(load, embedder.model_name, embedder.dim)
    catalog = Catalog.open_reader(sample_catalog.index_dir, "default", held)
    views = GenerationViews(RetrievalSettings())
    building = threading.Event()
    build_directory = views.directory

    def directory(catalog: Catalog) -> EntityDirectory:
        building.set()
        return build_directory(catalog)

    monkeypatch.setattr(views, "directory", directory)
    thread = warm(catalog, views)
    assert not building.wait(1.0), "the directory waits for the model"
    release.set()
    thread.join(deadline)
    assert {"titles", "vectors"} <= views.built(catalog)
    catalog.close()

    monkeypatch.setattr(context, "MODEL_FIRST_SECONDS", 0.2)
    release.clear()
    slow = BackgroundEmbedder(load, embedder.model_name, embedder.dim)
    catalog = Catalog.open_reader(sample_catalog.index_dir, "default", slow)
    views = GenerationViews(RetrievalSettings())
    thread = warm(catalog, views)
    started = time.monotonic()
    while "titles" not in views.built(catalog) and time.monotonic() - started < deadline:
        time.sleep(0.05)
    assert "titles" in views.built(catalog) and not slow.wait(0), "the walk's views built while the model loads"
    release.set()
    thread.join(deadline)
    assert "vectors" in views.built(catalog)
    catalog.close()


def test_a_watched_edit_syncs_only_after_the_warm_up_built_the_generation_it_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's watched run lets the warm-up go first: by the time its syncs (graph vectors, communities) begin,
    the warm-up has built the entity directory of the generation the run published, so the syncs' Python does not
    slow the views the searches after the edit wait for."""
    from tests.conftest import HashEmbedder, index_into
    from trident.ingest import run_syncs
    from trident.ingest.ingest_settings import IngestSettings
    from trident.ingest.watch import WatchedFolder, catalog_reindexer
    from trident.server.warmed import WarmedGenerations

    project = tmp_path / "app"
    project.mkdir()
    (project / "a.py").write_text("def alpha():\n    return 1\n")
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    views, stopping, warmed = GenerationViews(RetrievalSettings()), threading.Event(), WarmedGenerations()
    warming = threading.Thread(target=_keep_warm, args=(catalog, views, stopping, warmed))
    built_as_syncs_began: list[bool] = []
    real = run_syncs.sync_communities

    def spy(*args: Any, **kwargs: Any) -> Any:
        directory = views.built_directory(catalog)  # never builds: only what the warm-up built for this generation
        built_as_syncs_began.append(directory is not None and bool(directory.named("beta")))
        return real(*args, **kwargs)

    try:
        index_into(catalog, project, "app")
        warming.start()
        assert warmed.wait_for(catalog.manifest.generation, timeout=120), "the first generation was never warmed"
        monkeypatch.setattr(run_syncs, "sync_communities", spy)
        (project / "b.py").write_text("def beta():\n    return 2\n")
        catalog_reindexer(catalog, IngestSettings(), warmed.wait_for)(WatchedFolder(project, "app"))
        assert built_as_syncs_began == [True]
    finally:
        stopping.set()
        if warming.is_alive():
            warming.join(60)
        catalog.close()


def test_the_warm_up_builds_the_views_of_each_generation_the_index_moves_to(tmp_path: Path) -> None:
    """After a write publishes (a watched edit, an index job), the warm-up thread builds the new generation's views
    without waiting for a query to need them."""
    from tests.conftest import HashEmbedder, index_into

    project = tmp_path / "app"
    project.mkdir()
    (project / "a.py").write_text("def alpha():\n    return 1\n")
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    views, stopping = GenerationViews(RetrievalSettings()), threading.Event()
    warming = threading.Thread(target=_keep_warm, args=(catalog, views, stopping))
    try:
        index_into(catalog, project, "app")
        warming.start()

        def built_with(name: str) -> bool:
            directory = views.built_directory(catalog)  # never builds: only what the warm-up built for this generation
            return directory is not None and bool(directory.named(name))

        deadline = time.monotonic() + 120
        while not built_with("alpha"):
            assert time.monotonic() < deadline, "the first generation was never warmed up"
            time.sleep(0.05)
        (project / "b.py").write_text("def beta():\n    return 2\n")
        index_into(catalog, project, "app")
        while not (built_with("beta") and views._graph.ready(catalog.manifest.generation) is not None):
            assert time.monotonic() < deadline, "the new generation's directory and walk graph were never built"
            time.sleep(0.05)
    finally:
        stopping.set()
        if warming.is_alive():
            warming.join(60)
        catalog.close()
