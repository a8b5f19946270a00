"""Evidence that disagrees is flagged, never dropped: a README default against the code constant (factual, the code
preferred), two documents of one project (temporal, the later change preferred), two projects (scope, both kept),
and prose naming a function that was renamed or calling one with the wrong number of arguments."""

from __future__ import annotations

import json
import logging
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES, HashEmbedder, index_into
from trident.retrieval import stale_scan as stale_scan_module
from trident.retrieval.evidence_flags import check_evidence
from trident.retrieval.fact_readers import facts_of
from trident.retrieval.facts import normalise_key
from trident.retrieval.facts_values import disagree, parse_value
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_hits import HIT_DEPTH
from trident.retrieval.signatures import arity_of, call_arguments
from trident.retrieval.source_kinds import SourceKind, source_kind
from trident.retrieval.stale_references import stale_references
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Chunk, DocumentKind, Entity
from trident.store.tokens import json_tokens
from trident.tools import status as status_tool
from trident.tools.search import search as tool_search
from trident.tools.similar import find_similar
from trident.tools.stale import find_stale

OLDER, NEWER = 1_600_000_000, 1_700_000_000  # 2020-09-13, 2023-11-14


@pytest.fixture(scope="module")
def drift(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    """examples/drift's two projects, copied out of git so each file's modification time is its last change: the
    runbook changed after the operations guide."""
    root = tmp_path_factory.mktemp("drift")
    catalog = Catalog(root / "index", "default", HashEmbedder())
    for project in ("orders", "payments"):
        shutil.copytree(EXAMPLES / "drift" / project, root / project)
        for path in (root / project).rglob("*"):
            os.utime(path, (OLDER, OLDER))
        if project == "orders":
            os.utime(root / project / "docs" / "runbook.md", (NEWER, NEWER))
        index_into(catalog, root / project, project)
    yield catalog
    catalog.close()


def _hits(catalog: Catalog, query: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The hits by file (the flags of a file's hits together), and the diagnostics."""
    result = tool_search(Reader(catalog, GenerationViews(RetrievalSettings())), query, top_k=10, strategy="lexical")
    data = json.loads(result.model_dump_json())
    files: dict[str, Any] = {}
    for hit in data["hits"]:
        known = files.setdefault(f"{hit['project']}/{hit['path']}", {**hit, "flags": []})
        known["flags"] += hit.get("flags", [])
    return files, data["diagnostics"]


def _flags(hit: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [flag for flag in hit.get("flags", []) if flag["kind"] == kind]


def test_a_readme_default_against_the_code_constant_is_a_factual_conflict_with_the_code_preferred(
    drift: Catalog,
) -> None:
    hits, diagnostics = _hits(drift, "default timeout")
    readme = next(f for f in _flags(hits["orders/README.md"], "conflict") if f["key"] == "timeout")
    code = next(f for f in _flags(hits["orders/orders/client.py"], "conflict") if f["key"] == "timeout")
    assert readme == code
    assert readme["type"] == "factual" and readme["why"] == "code over prose"
    assert readme["preferred"].startswith("orders/orders/client.py:")
    assert sorted(readme["values"].values()) == ["10", "5 s"]
    assert diagnostics["conflicts_detected"] >= 1 and 0 <= diagnostics["source_agreement"] <= 1


def test_two_documents_of_one_project_are_a_temporal_conflict_with_the_later_change_preferred(drift: Catalog) -> None:
    hits, _ = _hits(drift, "poll interval")
    for path in ("orders/docs/operations.md", "orders/docs/runbook.md"):
        (flag,) = _flags(hits[path], "conflict")
        assert flag["type"] == "temporal" and flag["key"] == "poll interval"
        assert flag["preferred"].startswith("orders/docs/runbook.md:")
        assert flag["why"] == "newer: changed 2023-11-14T22:13:20Z"
    assert hits["orders/docs/runbook.md"]["last_modified"] == "2023-11-14T22:13:20Z"


def test_two_projects_documenting_different_limits_are_a_scope_conflict_with_both_kept(drift: Catalog) -> None:
    hits, _ = _hits(drift, "maximum retries")
    for path in ("orders/README.md", "payments/README.md"):
        scope = [f for f in _flags(hits[path], "conflict") if f["key"] == "max retry"]
        assert [f["type"] for f in scope] == ["scope"] and "preferred" not in scope[0]
    # Within each project the README and the code agree: those hits corroborate each other.
    assert not [f for f in _flags(hits["payments/payments/charge.py"], "conflict") if f["type"] != "scope"]


def test_a_doc_naming_a_renamed_function_points_to_the_nearest_current_name(drift: Catalog) -> None:
    hits, diagnostics = _hits(drift, "compute total pricing")
    stale = {f["name"]: f for f in _flags(hits["orders/docs/pricing.md"], "stale_reference")}
    renamed = stale["compute_total(items)"]
    assert "nearest: `compute_order_total`" in renamed["detail"]
    assert renamed["see"].startswith("orders/orders/pricing.py:L4")
    wrong_count = stale["submit_order(order, retries)"]
    assert "passes 2 argument(s)" in wrong_count["detail"] and wrong_count["see"].startswith("orders/orders/client.py")
    assert diagnostics["stale_references"] == 2


def test_a_readers_mapped_chunks_flag_as_the_graph_store_does(drift: Catalog) -> None:
    views = GenerationViews(RetrievalSettings())
    directory = views.directory(drift)
    found = tool_search(Reader(drift, views), "compute total pricing", top_k=10, strategy="lexical").hits
    hits = [hit.model_copy(deep=True) for hit in found]
    for hit, original in zip(hits, found, strict=True):
        hit._chunk, hit.flags = original.chunk, []
    check_evidence(drift, directory, hits, views)
    from_rows = [[flag.model_dump() for flag in hit.flags if flag.kind == "stale_reference"] for hit in hits]
    from_graph = [
        [
            flag.model_dump()
            for flag in stale_references(
                hit.chunk, hit.source_kind, directory, drift.graph.get_chunks, drift.graph.citations
            )
        ]
        if hit.chunk is not None and hit.source_kind is not None
        else []
        for hit in found
    ]
    assert any(any(f.get("see") for f in hit) for hit in from_graph)  # the definitions were read and cited
    assert from_rows == from_graph


def test_hits_that_agree_within_a_project_carry_no_flag_of_it(drift: Catalog) -> None:
    hits, _ = _hits(drift, "payments retries")
    assert "payments/payments/charge.py" in hits and "payments/README.md" in hits
    payments = {f["type"] for path in hits for f in _flags(hits[path], "conflict") if path.startswith("payments/")}
    assert payments <= {"scope"}


def test_find_similar_flags_its_hits_too(drift: Catalog) -> None:
    views = GenerationViews(RetrievalSettings())
    result = find_similar(Reader(drift, views), text="pricing an order", top_k=30, projects=["orders"])
    pricing = [hit for hit in result.result if hit.path == "docs/pricing.md"]
    assert [flag.kind for flag in pricing[0].flags] == ["stale_reference", "stale_reference"]


@pytest.mark.parametrize("max_tokens", [600, 700, 800, 1000])
def test_a_flagged_page_stays_within_a_tight_max_tokens_and_says_where_the_rest_is(
    drift: Catalog, max_tokens: int
) -> None:
    views = GenerationViews(RetrievalSettings())
    result = tool_search(
        Reader(drift, views), "compute total pricing", top_k=10, strategy="lexical", max_tokens=max_tokens
    )
    page = sum(json_tokens(hit, depth=HIT_DEPTH) for hit in result.hits)
    assert len(result.hits) == 1 or page <= max_tokens
    assert result.truncated and result.next_call is not None
    assert f"offset={len(result.hits)}" in result.next_call


def test_a_page_cut_for_its_flags_still_shows_the_flagged_hit_when_it_fits(drift: Catalog) -> None:
    views = GenerationViews(RetrievalSettings())
    result = tool_search(Reader(drift, views), "compute total pricing", top_k=10, strategy="lexical", max_tokens=800)
    assert any(hit.flags for hit in result.hits)


QUERIES = (
    "How does OrderService connect to PaymentGateway?",
    "payment gateway",
    "verify a token's signature and claims",
    "rotate signing keys",
    "compute the cart total",
    "money amounts are integer cents",
    "what depends on the auth service?",
    "default timeout",
    "maximum retries",
    "max attempts",
    "configuration settings",
    "refund an order",
)


@pytest.mark.parametrize("query", QUERIES)
def test_an_index_without_drift_raises_no_flags(sample_catalog: Catalog, query: str) -> None:
    result = tool_search(Reader(sample_catalog, GenerationViews(RetrievalSettings())), query, top_k=10)
    assert [hit.flags for hit in result.hits if hit.flags] == []
    assert result.diagnostics.conflicts_detected is None and result.diagnostics.stale_references is None
    assert all(hit.source_kind is not None and hit.last_modified for hit in result.hits)


def _chunk(path: str, text: str, kind: DocumentKind, language: str | None = None) -> Chunk:
    end = text.count("\n") + 1
    return Chunk(
        id="c", doc_id=f"p/{path}", project="p", path=path, text=text, start_line=1, end_line=end, kind=kind,
        language=language,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("chunk", "kind", "expected"),
    [
        (_chunk("a.py", "DEFAULT_TIMEOUT_S = 10\n", DocumentKind.CODE, "python"), SourceKind.CODE, {"timeout": "10"}),
        (_chunk("a.py", "    RETRIES = 3\n", DocumentKind.CODE, "python"), SourceKind.CODE, {}),
        (_chunk("k.go", "const DefaultTimeout = 5 * time.Second\n", DocumentKind.CODE, "go"), SourceKind.CODE,
         {"timeout": "5 * time.Second"}),
        (_chunk("R.md", "The default timeout is 5 s.\n", DocumentKind.MARKDOWN), SourceKind.DOC, {"timeout": "5 s"}),
        (_chunk("R.md", "`pool_size` defaults to `8`.\n", DocumentKind.MARKDOWN), SourceKind.DOC,
         {"pool size": "`8`"}),
        (_chunk("R.md", "The maximum retries is 3.\n", DocumentKind.MARKDOWN), SourceKind.DOC, {"max retry": "3"}),
        (_chunk("R.md", "```\nThe default timeout is 5 s.\n```\n", DocumentKind.MARKDOWN), SourceKind.DOC, {}),
        (_chunk("R.md", "| Setting | Default |\n|---|---|\n| `timeout` | 30s |\n", DocumentKind.MARKDOWN),
         SourceKind.DOC, {"timeout": "30s"}),
        (_chunk("c.yaml", "http:\n  timeout: 30s\nname: shop\n", DocumentKind.CONFIG), SourceKind.CONFIG,
         {"http timeout": "30s"}),
        (_chunk("c.toml", "[server]\nport = 8080\n", DocumentKind.CONFIG), SourceKind.CONFIG, {"server port": "8080"}),
        (_chunk("R.md", "The default timeout is 5 s; the default timeout is 9 s.\n", DocumentKind.MARKDOWN),
         SourceKind.DOC, {}),
        (_chunk("t.py", "ALL_COMPLETED = concurrent.futures.ALL_COMPLETED\n", DocumentKind.CODE, "python"),
         SourceKind.CODE, {}),
    ],
)  # fmt: skip
def test_facts_are_read_only_from_unmistakable_forms(chunk: Chunk, kind: SourceKind, expected: dict[str, str]) -> None:
    assert {fact.key: fact.value.shown for fact in facts_of(chunk, kind)} == expected


@pytest.mark.parametrize(
    ("names", "key"),
    [(("DEFAULT_TIMEOUT",), "timeout"), (("timeout_ms",), "timeout"), (("maximum", "retries"), "max retry"),
     (("version",), None), (("name",), None)],
)  # fmt: skip
def test_keys_are_normalised_words(names: tuple[str, ...], key: str | None) -> None:
    assert normalise_key(*names) == key


@pytest.mark.parametrize(
    ("a", "b", "differ"),
    [("10", "5 s", True), ("5000", "5 s", False), ("5 * time.Second", "5 s", False), ("30s", "0.5 min", False),
     ("1 MB", "2 MB", True), ("5 s", "5 MB", False), ("redis", "`memcached`", True), ("true", "5", False)],
)  # fmt: skip
def test_values_disagree_only_when_no_unit_reconciles_them(a: str, b: str, differ: bool) -> None:
    first, second = parse_value(a), parse_value(b)
    assert first is not None and second is not None and disagree(first, second) is differ


def test_arity_reads_required_optional_and_variadic_parameters() -> None:
    arity = arity_of("def charge(self, order, amount, currency='EUR', *, note=None):\n    pass\n", "charge", True)
    assert arity is not None and (arity.required, arity.most) == (2, 4)
    variadic = arity_of("func Log(format string, args ...any) {}", "Log", False)
    assert variadic is not None and variadic.most is None and variadic.accepts(7)
    assert call_arguments("(order, amount=3)") == 2 and call_arguments("(...)") is None


def test_arity_reads_arrow_typed_parameters_as_required_and_keeps_splitting_after_them() -> None:
    text = "function on(event: string, cb: (e: E) => void, opts?: Opts, map: Map<K, V> = new Map()) {}"
    arity = arity_of(text, "on", False)
    assert arity is not None and (arity.required, arity.most) == (2, 4)
    assert arity.names == ("event", "cb", "opts", "map")
    assert call_arguments("(x => x + 1, y)") == 2


@pytest.mark.anyio
async def test_the_search_tool_answers_with_kinds_times_and_agreement_and_the_prompt_says_how_to_use_flags(
    sample_client: Any,
) -> None:
    result = await sample_client.call_tool("search", {"query": "payment gateway", "top_k": 3})
    data = result.structured_content
    assert {hit["source_kind"] for hit in data["hits"]} <= {"code", "doc", "config"}
    assert all("last_modified" in hit and "flags" not in hit for hit in data["hits"])
    assert not {"conflicts_detected", "stale_references", "source_agreement"} & set(data["diagnostics"])
    explained = await sample_client.call_tool("search", {"query": "payment gateway", "explain": True})
    assert 0 <= explained.structured_content["diagnostics"]["source_agreement"] <= 1
    past_the_end = {"query": "payment gateway", "explain": True, "offset": 1_000}
    empty = (await sample_client.call_tool("search", past_the_end)).structured_content
    assert empty["hits"] == [] and "source_agreement" not in empty["diagnostics"]  # no hits: nothing to measure
    prompt = await sample_client.get_prompt("answer_with_evidence", {"question": "what is the default timeout?"})
    text = prompt.messages[0].content.text
    assert "`conflict` `factual`" in text and "`stale_reference`" in text


def test_status_counts_stale_references_per_project_and_find_stale_lists_them_a_page_at_a_time(
    drift: Catalog,
) -> None:
    reader = Reader.open(drift)
    projects = status_tool.status(reader, stale=True, stale_wait=None).projects
    counts = {p.name: p.stale_references for p in projects}
    assert counts == {"orders": 2, "payments": 0}
    assert status_tool.status(reader).projects[0].stale_references is None  # not asked for, not counted
    first = find_stale(Reader.open(drift), limit=1)
    assert (first.total, first.counts, first.truncated) == (2, {"orders": 2}, True)
    assert first.next_call == "find_stale(offset=1, limit=1)"
    second = find_stale(Reader.open(drift), offset=1, limit=1)
    names = {first.references[0].name, second.references[0].name}
    assert names == {"compute_total(items)", "submit_order(order, retries)"} and not second.truncated
    assert all(r.citation.startswith("orders/docs/pricing.md:") and r.see for r in first.references)
    assert find_stale(Reader.open(drift), projects=["payments"]).total == 0


def test_the_first_status_of_a_generation_answers_while_its_scan_runs_and_find_stale_waits_for_it(
    drift: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    release, scans = threading.Event(), []
    scan = stale_scan_module._scan

    def held_scan(catalog: Catalog, directory: EntityDirectory, chunks: Any) -> stale_scan_module.StaleScan:
        scans.append(directory)
        release.wait()
        return scan(catalog, directory, chunks)

    monkeypatch.setattr(stale_scan_module, "_scan", held_scan)
    views = GenerationViews(RetrievalSettings())  # one reader's views, as a server holds: a generation not scanned yet
    directory = views.directory(drift)
    try:
        counting = {p.name: p.stale_references for p in status_tool.status(Reader(drift, views), stale=True).projects}
        assert counting == {"orders": "still counting", "payments": "still counting"}
        early = find_stale(Reader(drift, views), wait=0)
        assert (early.still_counting, early.total, early.references) == (True, 0, [])
        assert early.next_call == "find_stale(offset=0, limit=50)"
    finally:
        release.set()
    assert find_stale(Reader(drift, views)).total == 2  # waits for the scan under way
    counts = {p.name: p.stale_references for p in status_tool.status(Reader(drift, views), stale=True).projects}
    assert counts == {"orders": 2, "payments": 0}
    assert scans == [directory]  # one scan for the generation and reader, however often it was asked for


def test_a_scan_reads_the_readers_mapped_rows_and_no_graph_store(
    drift: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    unwatched = stale_scan_module.scan_stale(
        drift, EntityDirectory(drift.entities()), GenerationViews(RetrievalSettings())
    )
    assert len(unwatched.findings) == 2, "the drift corpus's two stale references"
    directory = EntityDirectory(drift.entities())  # another generation's directory: a scan of its own
    views = GenerationViews(RetrievalSettings())
    views.chunks(drift, [])  # the reader's rows mapped before the graph store is watched

    def untouched(*_: object) -> None:
        raise AssertionError("the scan read the graph store")

    monkeypatch.setattr(drift.graph, "get_chunks", untouched)
    monkeypatch.setattr(drift.graph, "citations", untouched)
    assert stale_scan_module.scan_stale(drift, directory, views) == unwatched


def test_a_scan_under_way_when_its_index_closes_ends_quietly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A server that stops while a status started the scan: the scan stops at its next batch, and it ends without
    an error on stderr (before, a traceback of the scan's thread)."""
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    index_into(catalog, EXAMPLES / "drift" / "orders", "orders")
    monkeypatch.setattr(stale_scan_module, "BATCH", 1)  # a batch a chunk: the scan looks at the index between them
    closed = threading.Event()
    directory, views = EntityDirectory(catalog.entities()), GenerationViews(RetrievalSettings())
    read = views.chunks

    def read_after_close(of: Catalog, ids: Any) -> Any:
        closed.wait(30)
        return read(of, ids)

    monkeypatch.setattr(views, "chunks", read_after_close)
    with caplog.at_level(logging.DEBUG, logger=stale_scan_module.__name__):
        assert stale_scan_module.stale_scan(catalog, directory, 0, views) is None  # under way, held at its first read
        catalog.close()
        closed.set()
        assert stale_scan_module.stale_scan(catalog, directory, 30, views) is None
    assert {r.levelno for r in caplog.records} == {logging.DEBUG} and "the index was closed" in caplog.text


@pytest.mark.anyio
async def test_the_find_stale_tool_and_status_report_none_for_the_sample_corpus(sample_client: Any) -> None:
    found = (await sample_client.call_tool("find_stale", {})).structured_content
    assert (found["total"], found["references"], found["checked"] > 0) == (0, [], True)
    projects = (await sample_client.call_tool("status", {})).structured_content["projects"]
    assert {p["name"]: p["stale_references"] for p in projects} == {"auth": 0, "billing": 0, "storefront": 0}
    bad = await sample_client.call_tool("find_stale", {"limit": 0})
    assert bad.is_error and "limit" in bad.content[0].text


def _directory() -> EntityDirectory:
    def function(name: str) -> Entity:
        return Entity(
            id=f"function:p:m.{name}", name=name, type="Function", project="p", qualified_name=f"m.{name}",
            chunk_id=f"chunk-{name}",
        )  # fmt: skip

    return EntityDirectory([function("connect"), function("compute_order_total"), function("_write")])


@pytest.mark.parametrize(
    ("path", "text", "kind", "flagged"),
    [
        ("docs/a.md", "Call `compute_total(items)` first.\n", DocumentKind.MARKDOWN, ["compute_total(items)"]),
        ("docs/a.md", "```\ncompute_total(items)\n```\n", DocumentKind.MARKDOWN, []),
        ("docs/a.md", "Uses the Windows `ConnectEx()` call.\n", DocumentKind.MARKDOWN, []),
        ("docs/a.md", "Like `requests.get(url)` does.\n", DocumentKind.MARKDOWN, []),
        ("m.py", "def f():\n    # falls back to self._writeBody()\n    return 1\n", DocumentKind.CODE, []),
        ("m.py", "def f():\n    # see compute_total(items)\n", DocumentKind.CODE, ["compute_total(items)"]),
    ],
)  # fmt: skip
def test_only_unmistakable_references_to_a_missing_name_with_a_close_rename_are_flagged(
    path: str, text: str, kind: DocumentKind, flagged: list[str]
) -> None:
    chunk = _chunk(path, text, kind, "python" if kind is DocumentKind.CODE else None)
    flags = stale_references(
        chunk, source_kind(chunk), _directory(), lambda ids: {}, lambda ids: {i: f"p/m.py:{i}" for i in ids}
    )
    assert [flag.name for flag in flags] == flagged
    assert all(flag.see == "p/m.py:chunk-compute_order_total" for flag in flags)


def test_an_env_template_takes_part_in_conflicts_as_configuration_and_a_real_env_file_is_never_indexed(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = tmp_path_factory.mktemp("env")
    (root / "shop").mkdir()
    (root / "shop" / ".env").write_text("REQUEST_TIMEOUT=30\nAPI_KEY=sk_live_secret\n")
    (root / "shop" / ".env.example").write_text("REQUEST_TIMEOUT=30\nAPI_KEY=changeme\n")
    (root / "shop" / "README.md").write_text("# Shop\n\nThe default request timeout is 10 s.\n")
    catalog = Catalog(root / "index", "default", HashEmbedder())
    try:
        index_into(catalog, root / "shop", "shop")
        assert sorted(entry.path for entry in catalog.manifest.documents.values()) == [".env.example", "README.md"]
        hits, _ = _hits(catalog, "request timeout")
        assert hits["shop/.env.example"]["source_kind"] == "config"
        (flag,) = _flags(hits["shop/README.md"], "conflict")
        assert (flag["type"], flag["key"], flag["why"]) == ("factual", "request timeout", "configuration over prose")
        assert flag["preferred"].startswith("shop/.env.example:")
        assert sorted(flag["values"].values()) == ["10 s", "30"]
    finally:
        catalog.close()
