"""The graph seam with a second engine behind it: LadybugDB, Kùzu's maintained fork (`TRIDENT_GRAPH_BACKEND=ladybug`).

Kùzu's and the fork's native modules cannot both be loaded in one process (each registers the same types), so the
fork runs in subprocesses: the graph tests themselves, and one index built by each backend, whose graphs and answers
must be the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trident.store.engines.graph_backends import graph_store
from trident.store.errors import SchemaMismatchError

ROOT = Path(__file__).resolve().parent.parent
# Graph tests that make their indexes through the catalog (so the backend setting reaches them): walks, callers and
# impact, what calls pass kept as graph rows and read back, rebinding, an unchanged re-index. (What the binder binds
# is the engine's to store, not to decide: the first test asserts the fork holds the relations Kùzu does, so the
# binder's own tests, minutes of indexing, run once, with Kùzu; so do the MCP server's tests, whose graph answers are
# these tools' reads.)
GRAPH_TESTS = (
    "tests/test_graph_tools.py",
    "tests/test_impact.py",
    "tests/test_passed_values.py",
    "tests/test_rebinding.py",
    "tests/test_reindex_unchanged.py",
)
# Indexes a small project and prints what the graph holds and what the graph tools answer, as JSON.
ANSWERS = """
import json, sys
from pathlib import Path
from tests.conftest import HashEmbedder
from tests.projects import indexed_projects
from tests.test_attribute_types import APP, CLIENT
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.tools.explain import explain_path
from trident.tools.impact import impact
from trident.tools.status import status
from trident.tools.trace import Direction, trace_relationships

root = Path(sys.argv[1])
catalog = indexed_projects(root, {"client": CLIENT, "app": APP}, ("app", "client"))
tenant = catalog.tenant
reader = Reader.open(catalog)
kept = {
    "backend": catalog.manifest.graph_backend,
    "store": type(catalog.graph).__name__,
    "entities": sorted(e.model_dump_json() for e in catalog.entities()),
    "relations": sorted(r.model_dump_json() for r in catalog.graph.relations(tenant)),
    "holds": catalog.graph.holds(tenant),
    "passed": catalog.graph.passed(tenant),
    "neighbours": [r.model_dump_json() for r in catalog.graph.neighbours(
        ["class:client:client.models.Response"], tenant, 100)],
    "trace": trace_relationships(reader, "HTTPAdapter.send", direction=Direction.IN).model_dump_json(),
    "explain": explain_path(reader, "app.fetch.fetch", "HTTPAdapter.send").model_dump_json(),
    "impact": impact(reader, entities=["HTTPAdapter.send"]).model_dump_json(),
}
said = status(reader)
kept["status"] = [said.graph_backend, said.consistent]
catalog.close()
reopened = Catalog(root / "index", "default", HashEmbedder(), graph_backend=None)
kept["reopened"] = [reopened.manifest.graph_backend, type(reopened.graph).__name__]
reopened.close()
kept["loaded"] = sorted(m for m in ("kuzu", "ladybug") if m in sys.modules)
print(json.dumps(kept))
"""


def _run(args: list[str], backend: str, timeout: float) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TRIDENT_GRAPH_BACKEND": backend}
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def _answers(tmp_path: Path, backend: str) -> dict[str, object]:
    folder = tmp_path / backend
    done = _run([sys.executable, "-c", ANSWERS, str(folder)], backend, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    answers: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return answers


def test_an_index_made_with_the_fork_holds_and_answers_what_kuzu_does(tmp_path: Path) -> None:
    kuzu, fork = _answers(tmp_path, "kuzu"), _answers(tmp_path, "ladybug")
    assert (kuzu["backend"], kuzu["store"], kuzu["loaded"]) == ("kuzu", "KuzuGraphStore", ["kuzu"])
    assert (fork["backend"], fork["store"], fork["loaded"]) == ("ladybug", "LadybugGraphStore", ["ladybug"])
    assert (kuzu["status"], fork["status"]) == (["kuzu", True], ["ladybug", True])
    for key in ("entities", "relations", "holds", "passed", "neighbours", "trace", "explain", "impact"):
        assert fork[key] == kuzu[key], key
    assert kuzu["relations"] and kuzu["holds"] and kuzu["passed"] and "HTTPAdapter.send" in str(kuzu["trace"])


def test_an_index_keeps_the_backend_it_was_made_with(tmp_path: Path) -> None:
    """Made with the fork, the index is opened with the fork again whatever the setting says then (the setting is
    read only when an index is made)."""
    fork = _answers(tmp_path, "ladybug")
    assert fork["reopened"] == ["ladybug", "LadybugGraphStore"]
    code = (
        "import sys; from pathlib import Path; from tests.conftest import HashEmbedder; "
        "from trident.store.catalog import Catalog; "
        f"c = Catalog(Path({str(tmp_path / 'ladybug' / 'index')!r}), 'default', HashEmbedder()); "
        "print(c.manifest.graph_backend, type(c.graph).__name__, len(c.entities()) > 0)"
    )
    done = _run([sys.executable, "-c", code], "kuzu", timeout=300)
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.split() == ["ladybug", "LadybugGraphStore", "True"]


def test_the_graph_tests_pass_with_the_fork() -> None:
    done = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *GRAPH_TESTS], "ladybug", 1200)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and " failed" not in done.stdout


def test_an_index_whose_manifest_names_an_unknown_engine_says_what_to_do() -> None:
    with pytest.raises(SchemaMismatchError, match=r"'neo4j'.*kuzu, ladybug.*trident reset"):
        graph_store("neo4j")
