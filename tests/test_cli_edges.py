"""The `trident` command's edges, as a user meets them in a real subprocess: removing what was indexed, bad settings,
an empty index, the serve command's flags and its address, skipped files, and a status longer than one MCP page."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES

CROWDED_PROJECTS = 20  # more than one page of the status tool's answer, with BLOBS skipped files each
BLOBS = 12
SERVE_DEADLINE = 120.0  # seconds a server may take to start before its test fails


def _run(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "TRIDENT_HOME": str(home), **env}
    return subprocess.run(
        [sys.executable, "-m", "trident.cli.main", *args], env=environment, capture_output=True, text=True, timeout=600
    )


def _status(home: Path, *args: str) -> dict[str, Any]:
    result = _run(home, "status", "--json", *args)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _hit_paths(home: Path, query: str) -> set[tuple[str, str]]:
    result = _run(home, "search", query, "--json", "--top-k", "20")
    assert result.returncode == 0, result.stderr
    return {(hit["project"], hit["path"]) for hit in json.loads(result.stdout)["hits"]}


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("indexed")
    result = _run(home, "index", str(EXAMPLES / "billing"), str(EXAMPLES / "auth"))
    assert result.returncode == 0, result.stderr
    return home


@pytest.fixture
def home(indexed: Path, tmp_path: Path) -> Path:
    """A copy of the indexed home this test may change."""
    return Path(shutil.copytree(indexed, tmp_path / "home"))


def test_remove_drops_a_file_then_a_whole_project_from_all_three_engines(home: Path) -> None:
    before = {p["name"]: p for p in _status(home)["projects"]}
    assert ("billing", "billing/refunds.py") in _hit_paths(home, "refund a payment")

    removed = _run(home, "remove", "billing", "--path", "billing/refunds.py")
    assert removed.returncode == 0, removed.stderr
    after = _status(home)
    billing = next(p for p in after["projects"] if p["name"] == "billing")
    assert billing["documents"] == before["billing"]["documents"] - 1
    assert billing["chunks"] < before["billing"]["chunks"]
    engines = after["engines"]
    chunks = sum(p["chunks"] for p in after["projects"])
    assert engines["lexical"]["chunks"] == engines["semantic"]["chunks"] == engines["graph"]["chunks"] == chunks
    assert ("billing", "billing/refunds.py") not in _hit_paths(home, "refund a payment")

    assert _run(home, "remove", "auth").returncode == 0
    after = _status(home)
    assert [p["name"] for p in after["projects"]] == ["billing"]
    assert after["engines"]["lexical"]["chunks"] == after["engines"]["semantic"]["chunks"] == billing["chunks"]
    assert after["engines"]["graph"]["chunks"] == billing["chunks"]
    assert not {project for project, _ in _hit_paths(home, "token verifier key rotation")} & {"auth"}


def test_remove_of_an_unknown_project_names_the_projects_there(indexed: Path) -> None:
    line = _one_error_line(_run(indexed, "remove", "payroll"))
    assert "'payroll'" in line and "auth, billing" in line


def test_remove_of_an_unknown_file_names_the_nearest_files_of_the_project(indexed: Path) -> None:
    line = _one_error_line(_run(indexed, "remove", "billing", "--path", "billing/refund.py"))
    assert "'billing/refund.py'" in line and "billing/refunds.py" in line


@pytest.mark.parametrize(
    "command",
    [["status"], ["search", "refund"], ["index", str(EXAMPLES / "auth")], ["serve"], ["remove", "auth"], ["reset"]],
)
def test_a_home_under_a_regular_file_ends_any_command_in_one_line_naming_trident_home(
    tmp_path: Path, command: list[str]
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    line = _one_error_line(_run(tmp_path / "a-file" / "home", *command))
    assert "TRIDENT_HOME" in line and "a-file is a file" in line


def test_a_setting_that_does_not_parse_is_named_in_one_line(tmp_path: Path) -> None:
    line = _one_error_line(_run(tmp_path, "status", TRIDENT_TOKENS="not json"))
    assert "TRIDENT_TOKENS" in line and "JSON" in line and "not json" not in line


def test_status_of_a_fresh_home_says_how_to_fill_it(tmp_path: Path) -> None:
    result = _run(tmp_path, "status")
    assert result.returncode == 0, result.stderr
    assert "empty: run `trident index PATH`" in result.stdout
    assert "None" not in result.stdout and "stale:" not in result.stdout


@pytest.mark.parametrize(
    ("flags", "env", "blamed"),
    [
        (["--transport", "bogus"], {}, "--transport"),
        ([], {"TRIDENT_TRANSPORT": "bogus"}, "TRIDENT_TRANSPORT"),
        (["--port", "0"], {}, "--port"),
    ],
)
def test_serve_blames_the_flag_or_the_variable_that_gave_the_bad_value(
    tmp_path: Path, flags: list[str], env: dict[str, str], blamed: str
) -> None:
    line = _one_error_line(_run(tmp_path, "serve", *flags, **env))
    assert line.startswith(f"error: {blamed}: ")


def test_an_http_server_says_where_it_listens_on_stderr(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    command = [sys.executable, "-m", "trident.cli.main", "serve", "--transport", "streamable-http", "--port", str(port)]
    env = {**os.environ, "TRIDENT_HOME": str(tmp_path)}
    with subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        assert process.stderr is not None and process.stdout is not None
        silent = threading.Timer(SERVE_DEADLINE, process.terminate)  # a server that never says it fails, not hangs
        silent.start()
        try:
            said = next((line for line in process.stderr if "listening" in line), "(ended without saying)")
        finally:
            silent.cancel()
            process.terminate()
        assert said.strip() == f"trident listening on http://127.0.0.1:{port}/mcp"
        assert process.stdout.read() == ""


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """More projects than one page of the status tool holds, each with more skipped files than status lists."""
    root, home = tmp_path_factory.mktemp("crowded"), tmp_path_factory.mktemp("crowded-home")
    for n in range(1, CROWDED_PROJECTS + 1):
        folder = root / f"p{n:02d}"
        folder.mkdir()
        (folder / "README.md").write_text(f"# Note {n}\n\nA note about topic {n}.\n")
        for blob in range(1, BLOBS + 1):
            (folder / f"blob{blob:02d}.bin").write_bytes(b"\x00\x01")
    result = _run(home, "index", *(str(folder) for folder in sorted(root.iterdir())))
    assert result.returncode == 0, result.stderr
    return home


def test_status_lists_the_first_skipped_files_with_why_then_how_many_more(crowded: Path) -> None:
    out = _run(crowded, "status").stdout
    assert f"p01: {BLOBS} skipped" in out
    listed = [line.strip() for line in out.splitlines() if line.strip().endswith(".bin: binary file")]
    assert listed[:10] == [f"blob{n:02d}.bin: binary file" for n in range(1, 11)]
    assert f"… and {BLOBS - 10} more: `trident status --project p01` lists them all" in out


def test_status_of_one_project_lists_every_file_it_skipped(crowded: Path) -> None:
    result = _run(crowded, "status", "--project", "p01")
    assert result.returncode == 0, result.stderr
    assert sum(line.strip().endswith(".bin: binary file") for line in result.stdout.splitlines()) == BLOBS
    assert len(_status(crowded, "--project", "p01")["skipped"]) == BLOBS
    assert "p01, p02" in _one_error_line(_run(crowded, "status", "--project", "p99"))


def test_status_json_holds_every_project_unless_a_page_is_asked_for(crowded: Path) -> None:
    everything = _status(crowded)
    assert len(everything["projects"]) == everything["projects_total"] == CROWDED_PROJECTS
    assert everything["truncated"] is False and everything["next_call"] is None

    page = _status(crowded, "--offset", "3", "--limit", "5")
    assert [p["name"] for p in page["projects"]] == ["p04", "p05", "p06", "p07", "p08"]
    assert page["truncated"] is True
    assert page["next_call"] == "trident status --offset 8 --limit 5 --json"
