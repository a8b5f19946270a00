"""What a server imports before its first answer: a cold start is mostly imports, so the indexing side (the
pipeline, parsers, the watcher), LanceDB and the embedding runtime are imported on first use, never by starting a
server (the model loads in a thread of its own, see embedding/background.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# Imported by a fresh interpreter that builds the server as `trident serve` does (the catalog is opened later, in
# the lifespan), then lists which of the modules a first search does not need were imported.
BUILD = """
import json, sys
from trident.cli import main
from trident.server.app import build_server
from trident.server.server_settings import ServerSettings, TridentSettings
settings = TridentSettings.from_env(ServerSettings(read_only={read_only}))
build_server(settings, lambda: None)
wanted = {wanted!r}
print(json.dumps(sorted(name for name in sys.modules if name in wanted)))
"""
NOT_AT_START = (
    "trident.ingest.pipeline",
    "trident.ingest.knowledge",
    "trident.ingest.watch",
    "trident.ingest.documents",
    "lancedb",
    "fastembed",
    "onnxruntime",
)


@pytest.mark.parametrize("read_only", [False, True])
def test_building_a_server_imports_no_indexing_side_nor_vector_engine(read_only: bool) -> None:
    code = BUILD.format(read_only=read_only, wanted=list(NOT_AT_START))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == []


def test_the_check_sees_a_module_that_is_imported() -> None:
    code = BUILD.format(read_only=True, wanted=["trident.retrieval.search_engine", "mcp"])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == ["mcp", "trident.retrieval.search_engine"]


# The CLI's start (every command parses its arguments first): the graph commands' tools and the retrieval stack
# under them load when one of those commands runs, so `trident status`, `search` or `index` never pay for them.
CLI_START = """
import json, sys
from trident.cli import main
wanted = {wanted!r}
print(json.dumps(sorted(name for name in sys.modules if name in wanted)))
"""
NOT_AT_CLI_START = (
    "trident.tools.trace",
    "trident.tools.explain",
    "trident.retrieval.reader",
    "trident.retrieval.entities",
    "trident.retrieval.walks",
    "scipy",
)


def test_the_cli_starts_without_the_graph_tools_or_the_retrieval_stack() -> None:
    code = CLI_START.format(wanted=[*NOT_AT_CLI_START, "trident.tools.bounds", "trident.retrieval.direction"])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == ["trident.retrieval.direction", "trident.tools.bounds"]
