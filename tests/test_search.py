"""Search over the sample corpus with the real model: paths, fusion, routing effects, explanations."""

from __future__ import annotations

import json
import threading
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import index_into
from trident.retrieval import search_engine as engine
from trident.retrieval.fusion import RRF, FusionMethod
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import SearchResult
from trident.retrieval.search_plan import Strategy
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.errors import ArgumentError
from trident.store.tokens import json_tokens
from trident.tools import search as search_tool
from trident.tools.get_entity import get_entity
from trident.tools.search import DEFAULT_MAX_TOKENS


def search(catalog: Catalog, query: str, **options: Any) -> SearchResult:
    """The engine's search as a script runs it, with views of the index of its own."""
    return engine.search(catalog, query, views=GenerationViews(RetrievalSettings()), **options)


def tool_search(catalog: Catalog, query: str, **options: Any) -> SearchResult:
    """The search tool's function, as the server and the CLI call it."""
    return search_tool.search(Reader(catalog, GenerationViews(RetrievalSettings())), query, **options)


def _top_paths(catalog: Catalog, query: str, k: int = 3) -> list[str]:
    return [f"{h.project}/{h.path}" for h in search(catalog, query, top_k=k).hits]


def test_search_finds_a_symbol_by_its_split_identifier(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "payment gateway", top_k=3)
    assert result.hits[0].path == "billing/gateway.py"
    assert result.hits[0].sources["lexical"] is not None


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("How does OrderService connect to PaymentGateway?", "billing/billing/orders.py"),
        ("verify a token's signature and claims", "auth/internal/tokens/verifier.go"),
        ("rotate signing keys", "auth/internal/tokens/keystore.go"),
        ("compute the cart total", "storefront/src/cart/cart.ts"),
        ("money amounts are integer cents", "billing/docs/adr/0001-use-integer-cents.md"),
    ],
)
def test_search_puts_the_right_file_in_the_top_three(sample_catalog: Catalog, query: str, expected: str) -> None:
    assert expected in _top_paths(sample_catalog, query)


def test_hits_carry_citations_and_per_path_ranks(sample_catalog: Catalog) -> None:
    hit = search(sample_catalog, "PaymentAdapter.process", top_k=1).hits[0]
    assert hit.citation == f"{hit.project}/{hit.path}:L{hit.start_line}-L{hit.end_line}"
    # A named symbol: the route walks the graph from it (PageRank), and its definition leads.
    assert set(hit.sources) == {"lexical", "semantic", "ppr"}
    assert hit.sources["ppr"] == 1


def test_search_can_be_limited_to_projects(sample_catalog: Catalog) -> None:
    hits = search(sample_catalog, "checkout", top_k=10, projects=["storefront"]).hits
    assert hits and {h.project for h in hits} == {"storefront"}


def test_search_is_deterministic(sample_catalog: Catalog) -> None:
    first = search(sample_catalog, "how are refunds issued", top_k=10)
    second = search(sample_catalog, "how are refunds issued", top_k=10)
    assert first.model_dump_json(exclude={"diagnostics"}) == second.model_dump_json(exclude={"diagnostics"})


def test_bad_arguments_are_refused_with_the_allowed_range(sample_catalog: Catalog) -> None:
    with pytest.raises(ArgumentError, match="top_k must be between 1 and 100, got 0"):
        tool_search(sample_catalog, "x", top_k=0)
    with pytest.raises(ArgumentError, match="query must not be empty"):
        tool_search(sample_catalog, "   ")
    with pytest.raises(ArgumentError, match="query: at most 4000 characters"):
        tool_search(sample_catalog, "x" * (search_tool.MAX_QUERY_CHARS + 1))
    with pytest.raises(ArgumentError, match="expansions: at most 5"):
        tool_search(sample_catalog, "x", expansions=["a"] * 6)
    with pytest.raises(ArgumentError, match="max_tokens must be between 50 and 100000, got 10"):
        tool_search(sample_catalog, "x", max_tokens=10)
    with pytest.raises(ValueError, match="k must be > 0"):
        RRF(k=0)


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ({"strategy": "psychic"}, "unknown strategy 'psychic'; known: auto, hybrid, lexical"),
        ({"fusion": "average"}, "unknown fusion 'average'; known: rrf, weighted_sum, max, intersection"),
    ],
)
def test_the_engine_blames_the_arguments_it_cannot_parse(
    sample_catalog: Catalog, option: dict[str, str], message: str
) -> None:
    with pytest.raises(ArgumentError, match=message):
        search(sample_catalog, "payment gateway", **option)


def test_query_syntax_characters_are_searched_as_text(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, 'charge( AND "unbalanced OR -- ]', top_k=3)
    assert len(result.hits) == 3


def test_a_forced_strategy_runs_only_that_path(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "payment gateway", top_k=5, strategy="lexical")
    assert set(result.diagnostics.candidates) == {"lexical"}
    assert result.hits and all(h.sources == {"lexical": h.sources["lexical"]} for h in result.hits)


def test_expansions_are_searched_and_fused_in(sample_catalog: Catalog) -> None:
    plain = search(sample_catalog, "zzqx", top_k=5, strategy="lexical")
    expanded = search(sample_catalog, "zzqx", top_k=5, strategy="lexical", expansions=["RotatingKeyStore"])
    assert not plain.hits
    assert expanded.hits[0].path == "internal/tokens/keystore.go"
    assert "lexical#1" in expanded.diagnostics.candidates
    assert set(expanded.diagnostics.timings_ms) == {"lexical", "lexical#1"}
    # A hit's sources name the path once, its best rank over the query and the expansion.
    assert all(set(h.sources) == {"lexical"} for h in expanded.hits)


def test_a_blank_expansion_is_not_run(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "RotatingKeyStore", top_k=3, strategy="lexical", expansions=["  ", "rotate keys"])
    assert list(result.diagnostics.candidates) == ["lexical", "lexical#1"]


def test_intersection_keeps_only_hits_every_path_found(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "PaymentGateway charge", top_k=10, fusion="intersection")
    assert result.hits
    assert all(all(rank is not None for rank in h.sources.values()) for h in result.hits)


def test_a_token_budget_cuts_the_hits_and_the_next_call_returns_the_next_page(sample_catalog: Catalog) -> None:
    whole = tool_search(sample_catalog, "payment", top_k=10)
    assert not whole.truncated and len(whole.hits) == 10
    first = tool_search(sample_catalog, "payment", top_k=10, max_tokens=400)
    assert first.truncated and 0 < len(first.hits) < 10
    n = len(first.hits)
    assert first.next_call == f"search(query='payment', top_k={10 - n}, offset={n}, max_tokens=400)"
    assert sum(json_tokens(h, depth=2) for h in first.hits) <= 400
    following = tool_search(sample_catalog, "payment", top_k=10 - n, offset=n, max_tokens=400)
    pages = first.hits + following.hits
    assert [h.id for h in pages] == [h.id for h in whole.hits[: len(pages)]], "pages continue the same ranking"
    assert [h.rank for h in following.hits] == list(range(n + 1, len(pages) + 1))


def test_by_default_a_hundred_hits_come_in_pages_within_the_default_budget(sample_catalog: Catalog) -> None:
    first = tool_search(sample_catalog, "payment token order", top_k=100, max_tokens=None)
    assert first.truncated and first.next_call is not None and "offset=" in first.next_call
    assert DEFAULT_MAX_TOKENS // 2 < sum(json_tokens(h, depth=2) for h in first.hits) <= DEFAULT_MAX_TOKENS


def test_a_page_always_holds_its_first_hit_however_small_the_budget(sample_catalog: Catalog) -> None:
    result = tool_search(sample_catalog, "payment", top_k=5, max_tokens=50)
    assert len(result.hits) == 1 and result.truncated
    assert result.next_call == "search(query='payment', top_k=4, offset=1, max_tokens=50)"


def test_the_engine_says_it_cut_the_hits_and_leaves_the_next_call_to_the_tool(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "payment", top_k=10, max_tokens=120)
    assert result.truncated and result.next_call is None


def test_the_suggested_next_search_keeps_every_argument_the_caller_gave(sample_catalog: Catalog) -> None:
    result = tool_search(
        sample_catalog,
        "payment",
        top_k=10,
        projects=["billing"],
        strategy="lexical",
        expansions=["charge a card"],
        fusion="rrf",
        max_tokens=120,
        explain=True,
    )
    assert result.truncated and len(result.hits) == 1
    assert result.next_call == (
        "search(query='payment', top_k=9, offset=1, projects=['billing'], strategy='lexical', "
        "expansions=['charge a card'], fusion='rrf', max_tokens=120, explain=True)"
    )


def test_results_name_the_entities_the_query_and_each_hit_are_about(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "What does RotatingKeyStore.Rotate do?", top_k=3)
    assert "method:auth:internal.tokens.keystore.RotatingKeyStore.Rotate" in result.entities
    assert any("RotatingKeyStore.Rotate" in h.entities for h in result.hits)


def test_explain_shows_the_route_and_why_each_hit_ranked_where_it_did(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "what calls PaymentGateway.charge", top_k=5, explain=True)
    route = result.diagnostics.route
    assert not isinstance(route, str) and route is not None
    assert route.query_type == "relationship" and route.applied is True
    assert "relation-word" in route.rules_fired
    for hit in result.hits:
        assert hit.explanation is not None
        assert sum(hit.explanation.values()) == pytest.approx(hit.score, abs=1e-5)
        assert set(hit.explanation) - {"ranked_above"} == {p for p, rank in hit.sources.items() if rank is not None}


def test_a_failing_path_is_reported_and_the_other_paths_still_answer(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> list[object]:
        raise RuntimeError("lexical engine unavailable")

    monkeypatch.setattr(sample_catalog.text, "search", broken)
    result = search(sample_catalog, "payment gateway", top_k=3)
    assert result.diagnostics.failed_paths == {"lexical": "RuntimeError: lexical engine unavailable"}
    assert result.hits and all(h.sources["lexical"] is None for h in result.hits)


def test_a_path_slower_than_its_timeout_is_cut_off(sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    original = sample_catalog.text.search
    release = threading.Event()

    def stuck(*args: object, **kwargs: object) -> object:
        release.wait(120.0)  # held until the search has answered: it cannot finish in time, however fast the machine
        return original(*args, **kwargs)

    # The walk seeds from the lexical head too: it waits half the timeout for it, then walks without it.
    monkeypatch.setattr(sample_catalog.text, "search", stuck)
    try:
        result = search(sample_catalog, "payment gateway", top_k=3, path_timeout=6.0)
    finally:
        release.set()
    # Only the stuck path is cut off by name; the others answer (a loaded machine may slow them, not stop them).
    assert result.diagnostics.failed_paths.get("lexical") == "timed out after 6 s"
    assert result.hits and all(h.sources["lexical"] is None for h in result.hits)


@pytest.mark.anyio
async def test_a_cancelled_search_returns_without_waiting_for_its_runs(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    import anyio

    original = sample_catalog.text.search
    entered, release, returned = threading.Event(), threading.Event(), threading.Event()

    def held(*args: object, **kwargs: object) -> object:
        entered.set()
        release.wait(60.0)
        returned.set()
        return original(*args, **kwargs)

    monkeypatch.setattr(sample_catalog.text, "search", held)
    views = GenerationViews(RetrievalSettings())
    try:
        async with anyio.create_task_group() as group:
            search = partial(engine.search_async, sample_catalog, "payment gateway", views=views, path_timeout=120.0)
            group.start_soon(search)
            await anyio.to_thread.run_sync(entered.wait, 60.0)  # the lexical run is under way
            group.cancel_scope.cancel()
        assert not returned.is_set()  # the search ended while its lexical run was still held
    finally:
        release.set()


def test_a_local_only_query_takes_the_instruction_file_fast_path(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "what does CLAUDE.md say about money amounts", top_k=3, explain=True)
    route = result.diagnostics.route
    assert not isinstance(route, str) and route is not None and route.query_type == "local_only"
    top = result.hits[0]
    assert (top.project, top.path) == ("billing", "CLAUDE.md")
    assert top.sources["local"] == 1


def test_identical_chunks_in_two_files_are_one_hit_that_cites_both(tmp_path: Path, catalog: Catalog) -> None:
    source = 'def convert_currency(amount_cents, rate):\n    """Convert an amount with an exchange rate."""\n'
    source += "    return round(amount_cents * rate)\n"
    for folder in ("pkg", "legacy"):
        (tmp_path / "proj" / folder).mkdir(parents=True)
        (tmp_path / "proj" / folder / "rates.py").write_text(source)
    (tmp_path / "proj" / "other.py").write_text("def unrelated():\n    return 'weather report'\n")
    index_into(catalog, tmp_path / "proj", "proj")
    result = search(catalog, "convert currency exchange rate", top_k=5)
    top = result.hits[0]
    assert top.path in {"pkg/rates.py", "legacy/rates.py"}
    other = "legacy/rates.py" if top.path == "pkg/rates.py" else "pkg/rates.py"
    assert [d.split(":")[0] for d in top.duplicates] == [f"proj/{other}"]
    assert all(h.path != other for h in result.hits)


def test_cross_project_queries_scope_the_vectors_to_projects_the_graph_finds(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "how do other teams use RotatingKeyStore", top_k=5)
    assert result.diagnostics.semantic_scope == ["auth"]
    semantic_hits = [h for h in result.hits if h.sources["semantic"] is not None]
    assert semantic_hits and {h.project for h in semantic_hits} == {"auth"}
    unscoped = search(sample_catalog, "how do other teams use RotatingKeyStore", top_k=5, strategy="hybrid")
    assert unscoped.diagnostics.semantic_scope is None
    assert "semantic_scope" not in json.loads(unscoped.model_dump_json())["diagnostics"]


def test_a_thing_named_loosely_is_found_through_entity_vectors(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "what is the component that talks to the payment provider", top_k=3)
    # No entity is named exactly; the nearest entity vectors seed the walk, and the gateway module leads.
    assert "module:billing:billing.gateway" in result.entities
    assert result.hits[0].path == "billing/gateway.py" and result.hits[0].sources["ppr"] == 1
    # A walk from guessed seeds joins the fusion and is never put in front of it.
    assert result.diagnostics.primary_led is False


def test_a_query_naming_nothing_indexed_walks_from_the_passages_only(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "what is protein folding in yeast", top_k=3)
    # No entity seeds the walk; it starts from the lexical and dense heads (never from nothing) and does not lead.
    assert result.entities == [] and result.diagnostics.primary_led is False
    assert any(h.sources["ppr"] is not None for h in result.hits)


def test_the_json_of_a_plain_search_leaves_out_the_diagnostics_that_do_not_apply(sample_catalog: Catalog) -> None:
    data = json.loads(search(sample_catalog, "payment gateway", top_k=3).model_dump_json())
    assert list(data) == ["query", "hits", "diagnostics", "entities", "truncated", "next_call", "omitted", "message"]
    always = ["fusion", "strategy", "candidates", "entities", "timings_ms"]
    assert list(data["diagnostics"]) == [*always, "route", "primary_led"]
    assert data["diagnostics"]["route"].startswith("general [") and data["next_call"] is None
    assert all(hit["explanation"] is None for hit in data["hits"])  # a hit's own fields are all kept
    forced = json.loads(search(sample_catalog, "payment gateway", top_k=3, strategy="lexical").model_dump_json())
    assert list(forced["diagnostics"]) == always


def test_explain_adds_the_whole_route_and_each_runs_top_hits_to_the_json(sample_catalog: Catalog) -> None:
    result = search(sample_catalog, "payment gateway", top_k=3, strategy="lexical", explain=True)
    diagnostics = json.loads(result.model_dump_json())["diagnostics"]
    assert list(diagnostics)[-2:] == ["route", "top_per_path"]
    # A forced strategy sets the route aside: explain still shows what it would have planned.
    assert diagnostics["route"]["applied"] is False and diagnostics["route"]["query_type"] == "general"
    assert list(diagnostics["top_per_path"]) == ["lexical"]


FUSION_QUERIES = [
    "How does OrderService connect to PaymentGateway?",  # names two entities: the graph walk leads
    "Are OrderService and PaymentGateway both in billing?",
    "how are signing keys rotated",
]


@pytest.mark.parametrize("fusion", [*FusionMethod])
@pytest.mark.parametrize("strategy", [*Strategy])
def test_every_fuser_answers_under_every_strategy(sample_catalog: Catalog, fusion: str, strategy: str) -> None:
    for query in FUSION_QUERIES:
        result = search(sample_catalog, query, top_k=5, strategy=strategy, fusion=fusion, expansions=["payment"])
        assert len({h.id for h in result.hits}) == len(result.hits)
        scores = [h.score for h in result.hits]
        assert scores == sorted(scores, reverse=True), "the score shown is the one the hits are ordered by"
        if fusion == FusionMethod.INTERSECTION:  # only what every path that found something found
            answered = {run for h in result.hits for run, rank in h.sources.items() if rank is not None}
            assert all(all(h.sources.get(run) is not None for run in answered) for h in result.hits)


def test_the_pieces_of_one_long_definition_are_one_hit_citing_its_whole_span(tmp_path: Path, catalog: Catalog) -> None:
    steps = "".join(f"    ledger.reconcile_entry(batch, {n})  # reconcile ledger step {n}\n" for n in range(400))
    source = f'def reconcile_ledger(ledger, batch):\n    """Reconcile the ledger."""\n{steps}    return ledger\n'
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "ledger.py").write_text(source)
    (tmp_path / "proj" / "other.py").write_text("def unrelated():\n    return 'weather report'\n")
    index_into(catalog, tmp_path / "proj", "proj")
    result = search(catalog, "reconcile ledger step", top_k=5, strategy="lexical")
    ledger = [h for h in result.hits if h.path == "ledger.py"]
    assert len(ledger) == 1, [h.citation for h in result.hits]
    assert ledger[0].start_line == 1 and ledger[0].end_line >= 400, ledger[0].citation
    assert ledger[0].citation == f"proj/ledger.py:L1-L{ledger[0].end_line}"
    entity = get_entity(Reader.open(catalog), "reconcile_ledger").entity  # its pieces read from the mapped rows
    assert entity.citation == ledger[0].citation, "the entity cites its whole definition, not its first piece"


@pytest.mark.parametrize("strategy", ["auto", "hybrid", "lexical"])
def test_the_router_runs_once_a_search_and_explain_shows_its_plan_applied_or_set_aside(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch, strategy: str
) -> None:
    from trident.retrieval import search_plan

    calls: list[str] = []
    real = search_plan.route

    def counted(query: str) -> Any:
        calls.append(query)
        return real(query)

    monkeypatch.setattr(search_plan, "route", counted)
    result = search(sample_catalog, "what calls PaymentGateway.charge", top_k=3, strategy=strategy, explain=True)
    assert calls == ["what calls PaymentGateway.charge"]
    shown = result.diagnostics.route
    assert not isinstance(shown, str) and shown is not None
    assert shown.query_type == "relationship" and shown.applied is (strategy != "lexical")
