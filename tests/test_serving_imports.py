"""What a server imports before its first answer: a cold start is mostly imports, so the indexing side (the
pipeline, parsers, the watcher), LanceDB and the embedding runtime are imported on first use, never by starting a
server (the model loads in a thread of its own, see embedding/background.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# A fresh interpreter runs some setup, then lists which of the wanted modules it imported.
LISTED = """
import json, sys
{setup}
wanted = {wanted!r}
print(json.dumps(sorted(name for name in sys.modules if name in wanted)))
"""
# Building the server as `trident serve` does (the catalog is opened later, in the lifespan).
BUILD = """
from trident.cli import main
from trident.server.app import build_server
from trident.server.server_settings import ServerSettings, TridentSettings
settings = TridentSettings.from_env(ServerSettings(read_only={read_only}))
build_server(settings, lambda: None)
"""
# The CLI's start (every command parses its arguments first): the graph commands' tools and the retrieval stack
# under them load when one of those commands runs, so `trident status`, `search` or `index` never pay for them.
CLI_START = "from trident.cli import main"
NOT_AT_START = (
    "trident.ingest.pipeline",
    "trident.ingest.knowledge",
    "trident.ingest.watch",
    "trident.ingest.documents",
    "lancedb",
    "fastembed",
    "onnxruntime",
)
NOT_AT_CLI_START = (
    "trident.tools.trace",
    "trident.tools.explain",
    "trident.retrieval.reader",
    "trident.retrieval.entities",
    "trident.retrieval.walks",
    "scipy",
)


def _imported(setup: str, wanted: list[str]) -> list[str]:
    code = LISTED.format(setup=setup, wanted=wanted)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    listed: list[str] = json.loads(done.stdout)
    return listed


@pytest.mark.parametrize("read_only", [False, True])
def test_building_a_server_imports_no_indexing_side_nor_vector_engine(read_only: bool) -> None:
    assert _imported(BUILD.format(read_only=read_only), list(NOT_AT_START)) == []


def test_the_check_sees_a_module_that_is_imported() -> None:
    wanted = ["trident.retrieval.search_engine", "mcp"]
    assert _imported(BUILD.format(read_only=True), wanted) == ["mcp", "trident.retrieval.search_engine"]


def test_the_cli_starts_without_the_graph_tools_or_the_retrieval_stack() -> None:
    wanted = [*NOT_AT_CLI_START, "trident.tools.bounds", "trident.retrieval.direction"]
    assert _imported(CLI_START, wanted) == ["trident.retrieval.direction", "trident.tools.bounds"]
