"""`trident trace`, `explain`, `similar` and `entity` as a user runs them: with --json exactly what an MCP client gets
from the tool, without it a readable rendering, and exit code 2 with a message for what the user can fix."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client

from tests.conftest import EXAMPLES
from tests.test_cli import _run
from trident.server.app import build_server
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder
from trident.store.settings import StoreSettings

CallTool = Callable[[str, dict[str, Any]], Any]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("graph-home")
    result = _run(home, "index", str(EXAMPLES / "auth"), str(EXAMPLES / "billing"))
    assert result.returncode == 0, result.stderr
    return home


@pytest.fixture(scope="module")
def call_tool(home: Path, embedder: Embedder) -> Iterator[CallTool]:
    """Call a tool of a server over `home` through the MCP SDK's in-memory client; its structured content."""
    settings = TridentSettings.from_env(ServerSettings(read_only=True, warm_up=False))
    settings = settings.model_copy(update={"store": StoreSettings(home=home)})
    catalog = Catalog(settings.store.index_dir, settings.store.tenant, embedder)
    server = build_server(settings, lambda: catalog, close_catalog=False)

    async def call(tool: str, arguments: dict[str, Any]) -> Any:
        async with Client(server) as client:
            result = await client.call_tool(tool, arguments)
        assert not result.is_error, result.content[0].text
        return result.structured_content

    yield lambda tool, arguments: anyio.run(call, tool, arguments)
    catalog.close()


SAME_CALLS = [
    pytest.param(
        "trace PaymentGateway.charge --direction in --relation-type CALLS --max-hops 3 --limit 9 --min-resolution name",
        "trace_relationships",
        {
            "entity": "PaymentGateway.charge",
            "direction": "in",
            "relation_types": ["CALLS"],
            "max_hops": 3,
            "limit": 9,
            "min_resolution": "name",
        },
        id="trace",
    ),
    pytest.param("trace PaymentGateway", "trace_relationships", {"entity": "PaymentGateway"}, id="trace-defaults"),
    pytest.param(
        "trace PaymentGateway --limit 2",
        "trace_relationships",
        {"entity": "PaymentGateway", "limit": 2},
        id="trace-truncated",
    ),
    pytest.param(
        "trace PaymentGateway --limit 2 --offset 2 --max-tokens 2000",
        "trace_relationships",
        {"entity": "PaymentGateway", "limit": 2, "offset": 2, "max_tokens": 2000},
        id="trace-next-page",
    ),
    pytest.param(
        "trace PaymentGateway.charge --direction in --detail compact",
        "trace_relationships",
        {"entity": "PaymentGateway.charge", "direction": "in", "detail": "compact"},
        id="trace-compact",
    ),
    pytest.param(
        "explain OrderService PaymentGateway --max-hops 5 --max-paths 2",
        "explain_path",
        {"source": "OrderService", "target": "PaymentGateway", "max_hops": 5, "max_paths": 2},
        id="explain",
    ),
    pytest.param(
        "explain OrderService PaymentGateway --detail compact",
        "explain_path",
        {"source": "OrderService", "target": "PaymentGateway", "detail": "compact"},
        id="explain-compact",
    ),
    pytest.param(
        "explain OrderService.checkout sign_request --relation-type CALLS --min-resolution exact",
        "explain_path",
        {
            "source": "OrderService.checkout",
            "target": "sign_request",
            "relation_types": ["CALLS"],
            "min_resolution": "exact",
        },
        id="explain-no-path",
    ),
    pytest.param(
        "similar --entity RotatingKeyStore.Rotate --top-k 3 --project auth --kind markdown",
        "find_similar",
        {"entity": "RotatingKeyStore.Rotate", "top_k": 3, "projects": ["auth"], "kinds": ["markdown"]},
        id="similar",
    ),
    pytest.param(
        "similar --entity PaymentGateway", "find_similar", {"entity": "PaymentGateway"}, id="similar-defaults"
    ),
    pytest.param("entity TokenVerifier", "get_entity", {"name_or_id": "TokenVerifier"}, id="entity"),
]


@pytest.mark.parametrize(("command", "tool", "arguments"), SAME_CALLS)
def test_json_output_is_the_structured_content_an_mcp_client_gets(
    home: Path, call_tool: CallTool, command: str, tool: str, arguments: dict[str, Any]
) -> None:
    result = _run(home, *command.split(), "--json")
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed, "the call must find something for the comparison to mean anything"
    assert printed == call_tool(tool, arguments)


def test_similar_json_holds_the_hits_as_result_and_what_was_left_out(home: Path) -> None:
    printed = json.loads(_run(home, "similar", "--entity", "RotatingKeyStore.Rotate", "-k", "2", "--json").stdout)
    assert list(printed) == ["result", "omitted", "message"] and [hit["rank"] for hit in printed["result"]] == [1, 2]


def test_trace_shows_each_edge_with_its_resolution_and_citation_hop_by_hop(home: Path) -> None:
    result = _run(home, "trace", "PaymentGateway.charge", "--direction", "in", "--relation-type", "CALLS")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("charge Method method:billing:billing.gateway.PaymentGateway.charge")
    caller = "method:billing:billing.payments.PaymentAdapter.process —CALLS→ "
    edge = f"{caller}method:billing:billing.gateway.PaymentGateway.charge  (inferred)  billing/billing/payments.py:L"
    assert any(line.strip().startswith(edge) for line in lines), result.stdout
    assert lines.index("hop 1") < lines.index("hop 2")


def test_a_cut_trace_says_so_with_the_call_that_gets_the_rest(home: Path) -> None:
    result = _run(home, "trace", "PaymentGateway", "--limit", "2")
    assert result.returncode == 0, result.stderr
    found = re.search(r"^truncated after 2 edges; the rest: (trident trace .*)$", result.stdout, re.MULTILINE)
    assert found, result.stdout
    rest = _run(home, *shlex.split(found.group(1))[1:])  # the command as printed, pasted back
    assert rest.returncode == 0, rest.stderr
    assert "--offset 2" in found.group(1) and rest.stdout != result.stdout


def test_a_compact_trace_prints_one_line_an_edge_naming_entities_by_import_name(home: Path) -> None:
    result = _run(home, "trace", "PaymentGateway.charge", "--direction", "in", "--detail", "compact")
    assert result.returncode == 0, result.stderr
    edge = "`billing.payments.PaymentAdapter.process` CALLS `billing.gateway.PaymentGateway.charge` "
    assert any(line.strip().startswith(edge + "(billing/billing/payments.py:L") for line in result.stdout.splitlines())
    assert "inferred)" in result.stdout and "hop 1" not in result.stdout


def test_explain_prints_each_paths_sentence_and_its_hops_citations(home: Path) -> None:
    command = ["explain", "OrderService", "PaymentGateway"]
    paths = json.loads(_run(home, *command, "--json").stdout)["paths"]
    result = _run(home, *command)
    assert result.returncode == 0, result.stderr
    assert f"1. {paths[0]['sentence']}" in result.stdout
    assert "calls `PaymentAdapter.process` (billing/billing/orders.py:L" in paths[0]["sentence"]
    for hop in paths[0]["hops"]:
        assert f"{hop['source']} —{hop['type']}→ {hop['target']}  ({hop['resolution']})  {hop['evidence']}" in (
            result.stdout
        )


def test_similar_prints_hits_like_search_with_rank_citation_and_title(home: Path) -> None:
    result = _run(home, "similar", "--entity", "RotatingKeyStore.Rotate", "-k", "2")
    assert result.returncode == 0, result.stderr
    assert re.search(
        r"^ 1\. auth/internal/tokens/keystore\.go:L\d+-L\d+  RotatingKeyStore  0\.\d{4}$", result.stdout, re.M
    )
    assert re.search(r"^ 2\. \S+:L\d+-L\d+  ", result.stdout, re.MULTILINE)


def test_entity_shows_where_it_is_defined_and_its_relation_counts(home: Path) -> None:
    result = _run(home, "entity", "TokenVerifier")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("TokenVerifier  Class in auth\n")
    assert re.search(r"^  defined at: auth/internal/tokens/verifier\.go:L\d+-L\d+$", result.stdout, re.MULTILINE)
    assert re.search(r"^  relations out: .*CONTAINS \d+", result.stdout, re.MULTILINE)


@pytest.mark.parametrize(
    "command",
    [
        ["trace", "PaymentGatway"],
        ["explain", "OrderService", "PaymentGatway"],
        ["similar", "--entity", "PaymentGatway"],
        ["entity", "PaymentGatway"],
    ],
    ids=["trace", "explain", "similar", "entity"],
)
def test_an_unknown_entity_exits_2_naming_it_and_the_closest_names(home: Path, command: list[str]) -> None:
    result = _run(home, *command)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "no entity named 'PaymentGatway'; closest: billing.gateway.PaymentGateway" in result.stderr  # by import name
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("command", "named"),
    [
        (["trace", "PaymentGateway", "--max-hops", "0"], "--max-hops"),
        (["trace", "PaymentGateway", "--limit", "501"], "--limit"),
        (["explain", "OrderService", "PaymentGateway", "--max-paths", "11"], "--max-paths"),
        (["similar", "--entity", "PaymentGateway", "--top-k", "101"], "--top-k"),
        (["similar", "--entity", "PaymentGateway", "--kind", "binary"], "--kind"),
        (["similar"], "exactly one of text, chunk_id or entity"),
        (["trace", "PaymentGateway", "--detail", "short"], "unknown detail 'short'; known: full, compact"),
        (["explain", "OrderService", "PaymentGateway", "--detail", "short"], "unknown detail 'short'"),
    ],
    ids=[
        "trace-max-hops",
        "trace-limit",
        "explain-max-paths",
        "similar-top-k",
        "similar-kind",
        "similar-no-example",
        "trace-detail",
        "explain-detail",
    ],
)
def test_a_bad_argument_exits_2_naming_it(home: Path, command: list[str], named: str) -> None:
    result = _run(home, *command)
    assert result.returncode == 2
    assert result.stdout == ""
    assert named in result.stderr and "Traceback" not in result.stderr
