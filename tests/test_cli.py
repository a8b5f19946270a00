"""The `trident` command as a user runs it: a real subprocess with its own TRIDENT_HOME."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES


def _run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TRIDENT_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "trident.cli.main", *args], env=env, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    result = _run(home, "index", str(EXAMPLES / "auth"), str(EXAMPLES / "billing"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "", "indexing must keep stdout clean; progress goes to stderr"
    assert "auth:" in result.stderr and "chunks" in result.stderr
    return home


def test_status_json_has_the_stable_shape_and_equal_counts(home: Path) -> None:
    data = json.loads(_run(home, "status", "--json").stdout)
    assert {p["name"] for p in data["projects"]} == {"auth", "billing"}
    assert set(data["projects"][0]) >= {"name", "documents", "chunks", "entities", "relations"}
    engines = data["engines"]
    assert engines["lexical"]["chunks"] == engines["semantic"]["chunks"] == engines["graph"]["chunks"] > 0
    assert set(engines["graph"]) == {"chunks", "entities", "relations"}
    assert data["model"] == {"name": "sentence-transformers/all-MiniLM-L6-v2", "dim": 384}
    assert data["stale"] == {}, "the folders indexed together are synced together, at the end"


def test_search_json_has_the_stable_shape(home: Path) -> None:
    result = _run(home, "search", "token verifier", "--json", "--top-k", "3", "--project", "auth")
    data = json.loads(result.stdout)
    assert data["query"] == "token verifier"
    assert 1 <= len(data["hits"]) <= 3
    hit = data["hits"][0]
    assert set(hit) >= {"rank", "id", "project", "path", "start_line", "end_line", "score", "snippet", "sources"}
    assert set(hit["sources"]) == set(data["diagnostics"]["candidates"])  # one rank (or null) per path that ran
    assert {h["project"] for h in data["hits"]} == {"auth"}


def test_search_fuses_as_the_route_says_unless_told_otherwise(home: Path) -> None:
    routed = json.loads(_run(home, "search", "token verifier", "--json").stdout)["diagnostics"]["fusion"]
    forced = json.loads(_run(home, "search", "token verifier", "--json", "--fusion", "rrf").stdout)
    assert routed.startswith("weighted_sum") and forced["diagnostics"]["fusion"].startswith("rrf")


def test_indexing_again_changes_nothing(home: Path) -> None:
    result = _run(home, "index", str(EXAMPLES / "auth"))
    assert result.returncode == 0, result.stderr
    assert " 0 indexed" in result.stderr


def test_indexing_a_missing_folder_says_what_to_give(tmp_path: Path) -> None:
    result = _run(tmp_path, "index", str(tmp_path / "nope"))
    assert result.returncode == 2
    assert "is not a folder" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_bad_top_k_is_refused_before_any_work(home: Path) -> None:
    result = _run(home, "search", "x", "--top-k", "0")
    assert result.returncode == 2
    assert "top-k" in result.stderr.lower()


def test_route_prints_the_plan_as_json(tmp_path: Path) -> None:
    result = _run(tmp_path, "route", "what calls the service that uses Customer", "--json")
    plan = json.loads(result.stdout)
    assert set(plan) == {"query_type", "weights", "strategies", "graph_scopes_vector", "rules_fired"}
    assert plan["query_type"] == "multi_hop"


def test_a_refused_setting_ends_the_command_with_its_variable_and_why(tmp_path: Path) -> None:
    env = {**os.environ, "TRIDENT_HOME": str(tmp_path), "TRIDENT_PPR_DAMPING": "1.5"}
    result = subprocess.run(
        [sys.executable, "-m", "trident.cli.main", "status"], env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 2
    assert "TRIDENT_PPR_DAMPING" in result.stderr and "less than 1" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture(scope="module")
def drift_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("drift-home")
    drift = EXAMPLES / "drift"
    result = _run(home, "index", str(drift / "orders"), str(drift / "payments"))
    assert result.returncode == 0, result.stderr
    return home


def test_search_prints_each_hits_source_kind_last_change_and_conflict_flags(drift_home: Path) -> None:
    lines = _run(drift_home, "search", "default timeout", "--strategy", "lexical", "--top-k", "4").stdout.splitlines()
    client = next(line for line in lines if ". orders/orders/client.py:L1-" in line)
    assert re.search(r" · code · changed \d{4}-\d{2}-\d{2}$", client)
    readme = next(line for line in lines if ". orders/README.md:" in line)
    assert re.search(r" · doc · changed \d{4}-\d{2}-\d{2}$", readme)
    conflicts = [line.strip() for line in lines if "conflict" in line]
    assert len(conflicts) == 2 and len(set(conflicts)) == 1  # the README's hit and the code's, the same flag
    assert re.fullmatch(
        r"conflict factual: timeout: 5 s at orders/README\.md:\S+, 10 at orders/orders/client\.py:(\S+); "
        r"prefer orders/orders/client\.py:\1 \(code over prose\)",
        conflicts[0],
    )


def test_search_prints_a_stale_reference_with_what_to_see_instead(drift_home: Path) -> None:
    out = _run(drift_home, "search", "compute total pricing", "--strategy", "lexical", "--top-k", "3").stdout
    stale = [line.strip() for line in out.splitlines() if line.strip().startswith("stale reference:")]
    assert len(stale) == 2
    assert stale[0].startswith("stale reference: compute_total(items): no `compute_total` in project orders")
    assert stale[0].endswith("nearest: `compute_order_total`; see orders/orders/pricing.py:L4-L6")
    assert stale[1].startswith("stale reference: submit_order(order, retries): ")
    assert "; see orders/orders/client.py:" in stale[1]


def test_status_waits_for_the_stale_reference_count_a_one_shot_command_would_not_see_otherwise(
    drift_home: Path,
) -> None:
    data = json.loads(_run(drift_home, "status", "--json").stdout)
    assert {p["name"]: p["stale_references"] for p in data["projects"]} == {"orders": 2, "payments": 0}


def test_version_prints_the_installed_package_version(tmp_path: Path) -> None:
    from importlib.metadata import version

    result = _run(tmp_path / "home", "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"trident {version('trident-mcp')}\n"


@pytest.mark.anyio
async def test_the_printed_client_configuration_serves_the_index_just_built(home: Path) -> None:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    printed = _run(home, "client-config")
    assert printed.returncode == 0, printed.stderr
    lines = printed.stdout.splitlines()
    block = "\n".join(lines[lines.index("{") : lines.index("}") + 1])
    entry = json.loads(block)["mcpServers"]["trident"]
    assert Path(entry["command"]).is_absolute() and entry["env"]["TRIDENT_HOME"] == str(home)
    assert f"-e TRIDENT_HOME={home} -- {entry['command']} serve" in printed.stdout
    # Exactly as a client would start it: that command, those arguments, that environment and nothing of ours.
    server = StdioServerParameters(command=entry["command"], args=entry["args"], env=entry["env"])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        answer = await session.call_tool("search", {"query": "payment gateway", "top_k": 3})
    assert answer.structured_content is not None
    assert answer.structured_content["hits"][0]["project"] == "billing"
