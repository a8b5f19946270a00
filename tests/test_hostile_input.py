"""Hostile and broken input: every tool answers anything with a result or a clear error, never a crash; retrieval
never changes the index; files that cannot be read are skipped with a reason that `status` shows."""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.client import Client
from mcp.shared.exceptions import MCPError

from tests.conftest import EXAMPLES, HashEmbedder, index_into
from trident.server.app import build_server
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store.catalog import Catalog

EXAMPLES_PER_TOOL = 100
HYPOTHESIS = settings(
    max_examples=EXAMPLES_PER_TOOL,
    deadline=None,
    derandomize=True,  # the same examples every run: a failure reproduces, CI never flakes
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Query syntax of the engines behind the tools, injection classics, and text that breaks naive code.
ADVERSARIAL = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\r\n\r\n",
    "\t\v\f",
    "'",
    '"',
    "`",
    "\\",
    "' OR 1=1 --",
    "'; DROP TABLE chunks; --",
    '") RETURN n //',
    "MATCH (n) DETACH DELETE n",
    "CALL db.clear()",
    "}]->(x) MERGE (y:Entity {id: 'pwn'})",
    "$rows",
    "title:foo AND body:[a TO z]~2",
    '+must -not "unterminated',
    "*:*",
    "(((",
    "^2",
    "field:",
    "tenant:other",
    "%00%2e%2e%2f",
    "${jndi:ldap://x}",
    "{{7*7}}",
    "../../../../etc/passwd",
    "Привет مرحبا 你好 שלום नमस्ते",
    "\u202eevil\u202c",
    "zero\u200bwidth\ufeff",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🦀🐍",
    "ﬁ ß İ",
    "OrderService" * 400,
    "x" * 25_000,
]
REAL_NAMES = ["OrderService", "PaymentGateway", "PaymentAdapter.process", "billing", "charge", "gateway.py"]

hostile_text = st.one_of(
    st.sampled_from(ADVERSARIAL),
    st.text(max_size=200),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=50),
    st.sampled_from(REAL_NAMES),
)
hostile_number = st.one_of(
    st.integers(),
    st.sampled_from([0, -1, 1, 4, 100, 101, 2**31, 2**63, -(2**63), 10**30]),
    st.floats(allow_nan=False, allow_infinity=False),
)
wrong_type = st.one_of(
    st.none(),
    st.booleans(),
    hostile_number,
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def anything(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A plausible value or, as often, a hostile string or a value of the wrong type."""
    return st.one_of(valid, hostile_text, wrong_type)


def tool_calls(
    required: dict[str, st.SearchStrategy[Any]], optional: dict[str, st.SearchStrategy[Any]]
) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments for one tool: mostly well-typed (hostile content inside the right types, so calls reach the
    engines), sometimes with any parameter of any type."""
    typed = st.fixed_dictionaries(required, optional=optional)
    untyped = st.fixed_dictionaries(
        {k: anything(v) for k, v in required.items()}, optional={k: anything(v) for k, v in optional.items()}
    )
    return st.sampled_from([typed, typed, typed, untyped]).flatmap(lambda chosen: chosen)  # ~3 in 4 well-typed


names = st.one_of(st.sampled_from(REAL_NAMES), hostile_text)
text_list = st.one_of(st.none(), st.lists(st.one_of(names, st.sampled_from(["billing"])), max_size=6))
relation_types = st.one_of(st.none(), st.lists(st.sampled_from(["CALLS", "CONTAINS", "IMPORTS"]) | hostile_text))
kinds = st.one_of(st.none(), st.lists(st.sampled_from(["code", "markdown", "text", "config", "passage"])))


def retrieval_calls(chunk_ids: list[str]) -> dict[str, st.SearchStrategy[dict[str, Any]]]:
    chunk_id = st.one_of(st.sampled_from(chunk_ids), hostile_text)
    similar_scope = {"top_k": st.integers(1, 100), "projects": text_list, "kinds": kinds}
    return {
        "search": tool_calls(
            {"query": hostile_text},
            {
                "top_k": st.integers(1, 100),
                "projects": text_list,
                "strategy": st.sampled_from(["auto", "hybrid", "lexical", "semantic", "graph", "ppr", "community"]),
                "expansions": st.one_of(st.none(), st.lists(hostile_text, max_size=5)),
                "fusion": st.sampled_from(["rrf", "weighted_sum", "max", "intersection", None]),
                "max_tokens": st.one_of(st.none(), st.integers(50, 2_000)),
                "explain": st.booleans(),
            },
        ),
        "trace_relationships": tool_calls(
            {"entity": names},
            {
                "direction": st.sampled_from(["out", "in", "both"]),
                "relation_types": relation_types,
                "max_hops": st.integers(1, 4),
                "limit": st.integers(1, 500),
            },
        ),
        "explain_path": tool_calls(
            {"source": names, "target": names},
            {"max_hops": st.integers(1, 6), "max_paths": st.integers(1, 10), "relation_types": relation_types},
        ),
        "find_similar": st.one_of(
            tool_calls({"text": hostile_text}, similar_scope),
            tool_calls({"chunk_id": chunk_id}, similar_scope),
            tool_calls({"entity": names}, similar_scope),
            tool_calls({}, {"text": hostile_text, "chunk_id": chunk_id, "entity": names, **similar_scope}),
        ),
        "get_entity": tool_calls({"name_or_id": names}, {}),
        "index_status": tool_calls({}, {"job_id": st.one_of(st.none(), hostile_text)}),
        "status": tool_calls({}, {"verbose": st.booleans()}),
    }


def index_fingerprint(index_dir: Path) -> dict[str, str]:
    """sha256 of every file under the index folder, by relative path."""
    return {
        str(path.relative_to(index_dir)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(index_dir.rglob("*"))
        if path.is_file()
    }


class Outcome(StrEnum):
    ANSWERED = "answered"
    TOOL_ERROR = "tool error"  # refused by the tool ("no job ...", "give exactly one of ...", "no entity named ...")
    MALFORMED = "malformed"  # arguments the schema rejects (wrong type, out of range): a tool error naming them


def call(portal: BlockingPortal, client: Client, tool: str, arguments: dict[str, Any]) -> tuple[Outcome, Any]:
    """One tool call, which must end in a result or a tool error with a message (MCP 2025-11-25: bad arguments too).

    A crash inside a tool (an engine's ValueError included) reaches the client as an internal error, a protocol
    error naming no argument: that, any other protocol error, or a broken connection fails the test.
    """
    try:
        result = portal.call(client.call_tool, tool, arguments)
    except MCPError as exc:
        raise AssertionError(f"{tool}({arguments!r:.300}) -> protocol error {exc.error.code}: {exc}") from None
    text = result.content[0].text if result.content else ""
    if result.is_error:
        if text.startswith(f"invalid arguments for {tool}: ") and text[len(f"invalid arguments for {tool}: ") :]:
            return Outcome.MALFORMED, text
        prefix = f"Error executing tool {tool}: "
        assert text.startswith(prefix) and text[len(prefix) :].strip(), f"{tool}({arguments!r:.300}) crashed: {text!r}"
        return Outcome.TOOL_ERROR, text
    assert result.structured_content is not None, f"{tool}: a success without structured content"
    return Outcome.ANSWERED, result.structured_content


def answered(portal: BlockingPortal, client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    outcome, data = call(portal, client, tool, arguments)
    assert outcome == Outcome.ANSWERED, f"{tool}({arguments!r}) -> {outcome}: {data}"
    return data


def assert_most_reach_the_tool(tool: str, outcomes: list[Outcome]) -> None:
    """Hostile values must mostly arrive inside well-typed calls, or the test only exercises validation."""
    counts = Counter(outcomes)
    print(f"{tool}: {dict(counts)}")
    assert counts[Outcome.MALFORMED] <= len(outcomes) * 2 // 3, counts


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    """A small real index: the billing sample (the fake embedder is enough for plumbing)."""
    catalog = Catalog(tmp_path_factory.mktemp("hostile") / "index", "default", HashEmbedder())
    index_into(catalog, EXAMPLES / "billing", "billing")
    yield catalog
    catalog.close()


@pytest.fixture(scope="module")
def session(corpus: Catalog) -> Iterator[tuple[BlockingPortal, Client]]:
    """One MCP client session to a read-only server over the corpus, driven from synchronous hypothesis tests."""
    server = build_server(TridentSettings.from_env(ServerSettings(read_only=True)), lambda: corpus, close_catalog=False)
    with start_blocking_portal("asyncio") as portal, portal.wrap_async_context_manager(Client(server)) as client:
        yield portal, client


RETRIEVAL_TOOLS = [
    "explain_path",
    "find_similar",
    "get_entity",
    "index_status",
    "search",
    "status",
    "trace_relationships",
]


@pytest.mark.parametrize("tool", RETRIEVAL_TOOLS)
def test_retrieval_tools_answer_any_input_clearly_and_leave_the_index_byte_identical(
    tool: str, corpus: Catalog, session: tuple[BlockingPortal, Client]
) -> None:
    catalog = corpus
    portal, client = session
    before = index_fingerprint(catalog.index_dir)
    chunk_ids = sorted(cid for entry in catalog.manifest.documents.values() for cid in entry.chunk_ids)
    outcomes: list[Outcome] = []

    @HYPOTHESIS
    @given(arguments=retrieval_calls(chunk_ids)[tool])
    def calls_do_not_crash(arguments: dict[str, Any]) -> None:
        outcomes.append(call(portal, client, tool, arguments)[0])

    calls_do_not_crash()
    assert_most_reach_the_tool(tool, outcomes)
    assert index_fingerprint(catalog.index_dir) == before, f"{tool} changed the index"
    status = answered(portal, client, "status", {})
    assert status["consistent"] and [p["name"] for p in status["projects"]] == ["billing"]


@pytest.fixture
def scratch_session(tmp_path: Path) -> Iterator[tuple[Path, Catalog, BlockingPortal, Client]]:
    """A server over its own small index, for the tools that write."""
    roots = tmp_path / "roots"
    shutil.copytree(EXAMPLES / "billing", roots / "billing")
    os.symlink(tmp_path, roots / "escape")
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    index_into(catalog, roots / "billing", "scratch")
    server = build_server(
        TridentSettings.from_env(ServerSettings(allowed_roots=[roots])), lambda: catalog, close_catalog=False
    )
    with start_blocking_portal("asyncio") as portal, portal.wrap_async_context_manager(Client(server)) as client:
        yield roots, catalog, portal, client
    catalog.close()


def test_index_path_refuses_paths_outside_the_allowed_roots_however_written(
    scratch_session: tuple[Path, Catalog, BlockingPortal, Client],
) -> None:
    roots, catalog, portal, client = scratch_session
    escapes = [
        str(roots / ".."),
        str(roots / "billing" / ".." / ".."),
        str(roots / "escape"),  # a symlink inside the root pointing out of it
        f"{roots}/../{roots.name}/../index",
        "/",
        "/etc",
        "~",
        "../../..",
        str(roots) + "\x00/billing",
        str(roots / ("a" * 5_000)),
        "~no-such-user-here/x",
    ]
    for path in escapes:
        outcome, message = call(portal, client, "index_path", {"path": path})
        assert outcome is Outcome.TOOL_ERROR and "path" in message, (path, message)
    assert catalog.manifest.projects() == ["scratch"]
    assert answered(portal, client, "index_status", {}) == {"result": []}, "no job was started"


@pytest.mark.parametrize("name", ["\x00", "a\x00b", "   ", "line\x1b[31mred", "\t"])
def test_add_knowledge_refuses_entity_names_a_reader_cannot_see(
    name: str, scratch_session: tuple[Path, Catalog, BlockingPortal, Client]
) -> None:
    _, catalog, portal, client = scratch_session
    before = index_fingerprint(catalog.index_dir)
    for arguments in (
        {"entities": [{"name": name}]},
        {"entities": [{"name": "Payments team", "aliases": [name]}]},
        {"relations": [{"source": name, "type": "OWNS", "target": "OrderService"}]},
    ):
        outcome, message = call(portal, client, "add_knowledge", arguments)
        assert outcome == Outcome.MALFORMED and "visible text" in message, (arguments, message)
    assert index_fingerprint(catalog.index_dir) == before


new_entity = tool_calls(
    {"name": names},
    {
        "type": st.sampled_from(["Concept", "Team", "Service", "Decision"]),
        "description": hostile_text,
        "aliases": st.lists(hostile_text, max_size=3),
    },
)
new_relation = tool_calls(
    {"source": names, "type": st.sampled_from(["OWNS", "DEPENDS_ON"]), "target": names},
    {"note": hostile_text},
)
WRITE_CALLS: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "index_path": tool_calls(
        {"path": st.sampled_from(["billing", "escape", ".", "billing/docs", "billing/gateway.py", "missing"])},
        {"project": st.one_of(st.none(), hostile_text), "wait_seconds": st.floats(0, 1)},
    ),
    "remove": tool_calls(
        {"project": st.sampled_from(["scratch", "knowledge"]) | hostile_text},
        {"path": st.one_of(st.none(), st.sampled_from(["README.md", "billing/gateway.py"]), hostile_text)},
    ),
    "add_knowledge": tool_calls(
        {},
        {
            "entities": st.lists(new_entity, max_size=3),
            "relations": st.lists(new_relation, max_size=3),
            "author": hostile_text,
        },
    ),
}


@pytest.mark.parametrize("tool", sorted(WRITE_CALLS))
def test_write_tools_answer_any_input_clearly_and_keep_the_engines_consistent(
    tool: str, scratch_session: tuple[Path, Catalog, BlockingPortal, Client]
) -> None:
    roots, _, portal, client = scratch_session

    outcomes: list[Outcome] = []

    @settings(HYPOTHESIS, max_examples=EXAMPLES_PER_TOOL // 2)
    @given(arguments=WRITE_CALLS[tool])
    def calls_do_not_crash(arguments: dict[str, Any]) -> None:
        if tool == "index_path" and isinstance(arguments["path"], str):
            arguments = {**arguments, "path": str(roots / arguments["path"])}
        outcomes.append(call(portal, client, tool, arguments)[0])

    calls_do_not_crash()
    assert_most_reach_the_tool(tool, outcomes)
    jobs = answered(portal, client, "index_status", {})["result"]
    for job in jobs:
        finished = portal.call(_wait_for_job, client, job["job_id"])
        assert finished["state"] == "done", finished
    status = answered(portal, client, "status", {})
    assert status["consistent"], status["engines"]


async def _wait_for_job(client: Client, job_id: str) -> dict[str, Any]:
    import anyio

    with anyio.fail_after(120):
        while True:
            result = await client.call_tool("index_status", {"job_id": job_id})
            job: dict[str, Any] = result.structured_content["result"][0]
            if job["state"] in ("done", "failed"):
                return job
            await anyio.sleep(0.1)


# Files the walker must refuse, each with the reason `status` shows for it.
UNREADABLE_KINDS = {
    "blob.py": "binary file",
    "huge.md": "larger than 20000 bytes",
    "latin1.txt": "not UTF-8 text",
    "locked.py": "unreadable: Permission denied",
    "ping.py": "symlink loop",
    "pong.py": "symlink loop",
    "sub/up": "symlink loop",
    "image.png": "binary file",
}
INDEX_IN_A_CHILD = """
import sys
from pathlib import Path
from tests.conftest import HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.store.catalog import Catalog

catalog = Catalog(Path(sys.argv[2]), "default", HashEmbedder())
with catalog.writer() as writer:
    index_folder(writer, Path(sys.argv[1]), "broken", max_file_bytes=20_000)
catalog.close()
"""


PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2


def _drop_root_file_access() -> None:
    """Root reads a file whatever its mode; without these two capabilities (dropped from the bounding set, so
    they stay dropped across exec) a mode-000 file is unreadable to root too, as it is to any user."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def test_binary_huge_non_utf8_unreadable_and_looping_files_are_skipped_with_reasons_in_status(
    tmp_path: Path,
) -> None:
    project = tmp_path / "broken"
    (project / "sub").mkdir(parents=True)
    (project / "good.py").write_text("def fine():\n    return 1\n")
    (project / "blob.py").write_bytes(b"\x7fELF\x00\x01\x02" * 100)
    (project / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (project / "huge.md").write_text("# Huge\n\n" + "word " * 10_000)
    (project / "latin1.txt").write_bytes("Café crème, naïve façade\n".encode("latin-1"))
    (project / "locked.py").write_text("SECRET = 1\n")
    (project / "locked.py").chmod(0)
    os.symlink("pong.py", project / "ping.py")
    os.symlink("ping.py", project / "pong.py")
    os.symlink(project, project / "sub" / "up")
    index_dir = tmp_path / "index"
    repo = Path(__file__).resolve().parent.parent
    subprocess.run(
        [sys.executable, "-c", INDEX_IN_A_CHILD, str(project), str(index_dir)],
        cwd=repo,
        env={**os.environ, "PYTHONPATH": str(repo)},
        check=True,
        timeout=300,
        preexec_fn=_drop_root_file_access if os.geteuid() == 0 else None,
    )
    catalog = Catalog(index_dir, "default", HashEmbedder())
    server = build_server(
        TridentSettings.from_env(ServerSettings(read_only=True)), lambda: catalog, close_catalog=False
    )
    try:
        with start_blocking_portal("asyncio") as portal, portal.wrap_async_context_manager(Client(server)) as client:
            status = answered(portal, client, "status", {})
    finally:
        catalog.close()
    (broken,) = status["projects"]
    assert {s["path"]: s["reason"] for s in broken["skipped"]} == UNREADABLE_KINDS
    assert broken["documents"] == 1 and status["consistent"]
    assert json.dumps(status).count("SECRET") == 0
