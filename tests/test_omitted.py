"""No silent emptiness (#23): every filter or limit that hides something says how many it hid and names the call that
shows them, nothing is said when it hides nothing, and an empty answer names the filters that emptied it. Through
the SDK client over the sample index; each count is checked against what the suggested call returns."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client

from trident.retrieval import search_engine

pytestmark = pytest.mark.anyio

CHARGE = "method:billing:billing.gateway.PaymentGateway.charge"
CHECKOUT = "method:billing:billing.orders.OrderService.checkout"
VERIFY = "method:auth:internal.tokens.verifier.TokenVerifier.Verify"
SIGN = "function:billing:billing.gateway.sign_request"

Relation = tuple[str, str, str]


@pytest.fixture
def client(sample_client: Client) -> Client:
    return sample_client


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def follow(client: Client, suggested: str | None) -> dict[str, Any]:
    """Make a call as an answer suggests it: `tool(a=1, b='x')`."""
    assert suggested is not None
    parsed = ast.parse(suggested, mode="eval").body
    assert isinstance(parsed, ast.Call) and isinstance(parsed.func, ast.Name)
    arguments = {k.arg: ast.literal_eval(k.value) for k in parsed.keywords if k.arg is not None}
    return await call(client, parsed.func.id, arguments)


def omitted(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {entry["reason"]: entry for entry in answer["omitted"]}


def relations(answer: dict[str, Any]) -> set[Relation]:
    return {(e["source"], e["type"], e["target"]) for e in answer["edges"]}


async def test_a_relation_type_filter_counts_the_relations_of_other_types_and_names_the_call_for_them(
    client: Client,
) -> None:
    arguments = {"entity": CHARGE, "direction": "in", "max_hops": 1}
    callers = await call(client, "trace_relationships", {**arguments, "relation_types": ["CALLS"]})
    assert callers["edges"] and {e["type"] for e in callers["edges"]} == {"CALLS"}
    entry = omitted(callers)["relation_types"]
    unfiltered = await follow(client, entry["next_call"])
    others = {r for r in relations(unfiltered) if r[1] != "CALLS"}
    assert entry["count"] == len(others) > 0 and not entry.get("at_least")
    for kind in {r[1] for r in others}:
        assert kind in entry["detail"]


async def test_a_relation_type_filter_that_hides_nothing_says_nothing(client: Client) -> None:
    arguments = {"entity": CHARGE, "direction": "in", "max_hops": 1}
    every_type = sorted({r[1] for r in relations(await call(client, "trace_relationships", arguments))})
    answer = await call(client, "trace_relationships", {**arguments, "relation_types": every_type})
    assert "relation_types" not in omitted(answer)
    assert "relation_types" not in omitted(await call(client, "trace_relationships", arguments))


async def test_a_direction_counts_the_relations_pointing_the_other_way(client: Client) -> None:
    callers = await call(client, "trace_relationships", {"entity": CHECKOUT, "direction": "in", "max_hops": 1})
    entry = omitted(callers)["direction"]
    both = await follow(client, entry["next_call"])
    outgoing = {r for r in relations(both) if r[0] == CHECKOUT} - relations(callers)
    assert entry["count"] == len(outgoing) > 0
    assert "direction" not in omitted(both)


async def test_an_empty_trace_names_every_filter_that_emptied_it(client: Client) -> None:
    answer = await call(
        client, "trace_relationships", {"entity": CHECKOUT, "direction": "in", "relation_types": ["CALLS"]}
    )
    assert answer["edges"] == []
    assert set(omitted(answer)) == {"relation_types", "direction"}
    message = answer["message"]
    assert message.startswith(f"no relations around {CHECKOUT} with these arguments")
    for entry in answer["omitted"]:
        assert entry["next_call"] in message
        assert (await follow(client, entry["next_call"]))["edges"]


async def test_calls_below_the_resolution_threshold_are_counted_and_shown_by_the_suggested_call(
    client: Client,
) -> None:
    arguments = {"entity": VERIFY, "direction": "out", "relation_types": ["CALLS"], "max_hops": 1}
    answer = await call(client, "trace_relationships", arguments)
    entry = omitted(answer)["min_resolution"]
    assert entry["count"] == answer["hidden_guesses"] == 1
    shown = await follow(client, entry["next_call"])
    guesses = [e for e in shown["edges"] if e["resolution"] == "name"]
    assert len(guesses) == 1 and (guesses[0]["source"], guesses[0]["type"], guesses[0]["target"]) not in relations(
        answer
    )
    assert "min_resolution" not in omitted(shown)


@pytest.mark.parametrize("direction", ["out", "both"])
async def test_the_hop_bound_counts_the_relations_one_hop_further(client: Client, direction: str) -> None:
    answer = await call(client, "trace_relationships", {"entity": CHECKOUT, "direction": direction, "max_hops": 1})
    entry = omitted(answer)["max_hops"]
    assert entry["at_least"] and "max_hops=2" in entry["next_call"]
    further = relations(await follow(client, entry["next_call"])) - relations(answer)
    assert entry["count"] == len(further) > 0


async def test_a_walk_that_ends_before_its_hop_bound_says_nothing_of_it(client: Client) -> None:
    answer = await call(
        client, "trace_relationships", {"entity": CHARGE, "direction": "in", "relation_types": ["CALLS"]}
    )
    assert answer["edges"] and "max_hops" not in omitted(answer)


async def test_the_limit_and_the_token_budget_count_what_they_leave_for_the_next_page(client: Client) -> None:
    arguments = {"entity": "OrderService", "max_hops": 2, "limit": 12}
    whole = await call(client, "trace_relationships", {**arguments, "limit": 500, "max_tokens": 100_000})
    page = await call(client, "trace_relationships", {**arguments, "max_tokens": 600})
    assert page["truncated"] and page["next_call"]
    limit, budget = omitted(page)["limit"], omitted(page)["max_tokens"]
    assert budget["count"] == 12 - len(page["edges"]) and "next_call" not in budget
    assert limit["at_least"] and 0 < limit["count"] <= len(whole["edges"]) - 12
    rest = await follow(client, page["next_call"])
    assert rest["edges"][0] == whole["edges"][len(page["edges"])]


async def test_an_explain_with_no_path_counts_the_paths_each_loosened_bound_would_show(client: Client) -> None:
    arguments = {"source": CHECKOUT, "target": SIGN, "relation_types": ["CALLS"], "max_hops": 2}
    answer = await call(client, "explain_path", arguments)
    assert answer["paths"] == []
    entry = omitted(answer)["max_hops"]
    longer = await follow(client, entry["next_call"])
    assert entry["count"] == len(longer["paths"]) > 0
    assert "max_hops" in answer["message"] and entry["next_call"] in answer["message"]
    assert {"relation_types", "min_resolution"}.isdisjoint(omitted(answer))  # loosening either alone finds none


async def test_an_explain_says_when_max_paths_cut_the_paths(client: Client) -> None:
    one = await call(client, "explain_path", {"source": CHECKOUT, "target": SIGN, "max_paths": 1})
    entry = omitted(one)["max_paths"]
    assert len(one["paths"]) == 1 and entry["at_least"] and entry["count"] == 1
    more = await follow(client, entry["next_call"])
    assert len(more["paths"]) > 1 and more["paths"][0] == one["paths"][0]


async def test_an_explain_that_found_every_path_says_nothing_was_left_out(client: Client) -> None:
    answer = await call(
        client, "explain_path", {"source": CHECKOUT, "target": SIGN, "relation_types": ["CALLS"], "max_paths": 10}
    )
    assert answer["paths"] and answer["omitted"] == [] and answer["message"] is None


async def test_a_project_scope_counts_the_candidates_it_left_out_and_names_the_call_for_them(client: Client) -> None:
    arguments = {"query": "RotatingKeyStore", "strategy": "ppr", "top_k": 50}
    scoped = await call(client, "search", {**arguments, "projects": ["auth"]})
    assert scoped["hits"] and {h["project"] for h in scoped["hits"]} == {"auth"}
    entry = omitted(scoped)["projects"]
    assert entry["at_least"] and entry["count"] > 0
    everywhere = await follow(client, entry["next_call"])
    elsewhere = {h["project"] for h in everywhere["hits"]} - {"auth"}
    assert elsewhere and all(f"{project} " in entry["detail"] for project in elsewhere)


async def test_a_scope_of_every_project_hides_nothing_and_says_nothing(client: Client) -> None:
    arguments = {"query": "RotatingKeyStore", "strategy": "ppr", "top_k": 50}
    answer = await call(client, "search", {**arguments, "projects": ["auth", "billing", "storefront"]})
    assert answer["hits"] and "projects" not in omitted(answer)


async def test_an_empty_scoped_search_counts_the_candidates_each_narrowing_argument_hid_without_searching_again(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = []
    real = search_engine.run_paths
    monkeypatch.setattr(search_engine, "run_paths", lambda *a, **k: runs.append(a) or real(*a, **k))
    answer = await call(
        client, "search", {"query": "RotatingKeyStore", "strategy": "lexical", "projects": ["storefront"]}
    )
    assert answer["hits"] == [] and len(runs) == 1  # the counts come from the one search, not from reruns
    entries = omitted(answer)
    assert set(entries) == {"projects", "strategy"}
    # the chunks of other projects matching the query's words: all of them, when the suggested call asks for enough
    elsewhere = await follow(client, entries["projects"]["next_call"].replace(")", ", top_k=50)"))
    shown = [h for h in elsewhere["hits"] if h["project"] != "storefront"]
    assert entries["projects"]["count"] >= len(shown) > 0
    assert all(f"{h['project']} " in entries["projects"]["detail"] for h in shown)
    # the paths `auto` runs beside the lexical one find the project's chunks by meaning
    auto = await follow(client, entries["strategy"]["next_call"])
    assert entries["strategy"]["count"] >= len(auto["hits"]) > 0
    assert {h["project"] for h in auto["hits"]} == {"storefront"}
    assert answer["message"].startswith("no hits for 'RotatingKeyStore' with these arguments")
    assert all(entry["next_call"] in answer["message"] for entry in entries.values())


async def test_an_empty_intersection_counts_what_some_paths_found(client: Client) -> None:
    # the words of the query and of its expansion match no chunk in common
    arguments = {"query": "keystore", "expansions": ["refunds"], "strategy": "lexical"}
    answer = await call(client, "search", {**arguments, "fusion": "intersection"})
    assert answer["hits"] == []
    entry = omitted(answer)["fusion"]
    union = await follow(client, entry["next_call"].replace(")", ", top_k=50)"))
    assert entry["count"] >= len(union["hits"]) > 0


async def test_top_k_counts_the_ranked_candidates_past_the_page_and_names_the_next_page(client: Client) -> None:
    page = await call(client, "search", {"query": "payment gateway", "top_k": 3})
    entry = omitted(page)["top_k"]
    assert len(page["hits"]) == 3 and entry["count"] > 0 and page["next_call"] is None
    following = await follow(client, entry["next_call"])
    assert [h["rank"] for h in following["hits"]] == [4, 5, 6]
    assert not {h["id"] for h in following["hits"]} & {h["id"] for h in page["hits"]}


async def test_the_token_budget_counts_the_hits_it_left_for_the_next_page(client: Client) -> None:
    arguments = {"query": "payment order token key", "top_k": 10}
    whole = await call(client, "search", arguments)
    page = await call(client, "search", {**arguments, "max_tokens": 400})
    entry = omitted(page)["max_tokens"]
    assert page["truncated"] and entry["count"] == len(whole["hits"]) - len(page["hits"]) > 0
    assert "top_k" not in omitted(page)  # the page stopped at the budget, not at top_k
    rest = await follow(client, page["next_call"])
    both = [h["id"] for h in page["hits"] + rest["hits"]]
    assert both == [h["id"] for h in whole["hits"]][: len(both)]


async def test_an_offset_past_the_ranking_says_how_many_hits_lie_before_it(client: Client) -> None:
    answer = await call(client, "search", {"query": "payment", "offset": 900})
    entry = omitted(answer)["offset"]
    assert answer["hits"] == [] and entry["count"] > 0 and "offset=900" in answer["message"]
    first = await follow(client, entry["next_call"])
    assert first["hits"] and first["hits"][0]["rank"] == 1


async def test_a_kinds_filter_counts_the_nearer_chunks_of_other_kinds_and_a_short_answer_the_other_projects(
    client: Client,
) -> None:
    example = {"text": "rotate the signing key", "top_k": 5}
    answer = await call(client, "find_similar", {**example, "projects": ["storefront"], "kinds": ["config"]})
    assert 0 < len(answer["result"]) < 5 and all(h["path"].endswith(".json") for h in answer["result"])
    kinds, projects = omitted(answer)["kinds"], omitted(answer)["projects"]
    every_kind = await follow(client, kinds["next_call"])
    assert kinds["count"] == len([h for h in every_kind["result"] if not h["path"].endswith(".json")]) > 0
    everywhere = await follow(client, projects["next_call"])
    assert projects["count"] == len([h for h in everywhere["result"] if h["project"] != "storefront"]) > 0
    assert answer["message"] is None


async def test_find_similar_says_nothing_when_its_filters_hide_nothing(client: Client) -> None:
    every_kind = ["code", "markdown", "text", "config", "passage"]
    answer = await call(client, "find_similar", {"text": "rotate the signing key", "kinds": every_kind})
    assert len(answer["result"]) == 10 and answer["omitted"] == []
    full = await call(client, "find_similar", {"text": "rotate the signing key", "top_k": 5, "projects": ["auth"]})
    assert len(full["result"]) == 5 and full["omitted"] == []  # a full answer does not look elsewhere


async def test_an_empty_find_similar_names_the_filter_that_emptied_it(client: Client) -> None:
    answer = await call(client, "find_similar", {"text": "checkout cart", "kinds": ["passage"]})
    assert answer["result"] == [] and set(omitted(answer)) == {"kinds"}
    assert answer["message"].startswith("no chunks like the example with these arguments; kinds left out")


async def test_get_entity_counts_every_relation_and_says_when_a_cap_cut_the_count(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trident.tools import get_entity as entities

    answer = await call(client, "get_entity", {"name_or_id": "PaymentGateway.charge"})
    counted = sum(answer["relations_out"].values()) + sum(answer["relations_in"].values())
    around = await call(client, "trace_relationships", {"entity": CHARGE, "max_hops": 1, "min_resolution": "name"})
    assert counted == len(around["edges"]) > 3 and answer["omitted"] == []
    monkeypatch.setattr(entities, "RELATION_COUNT_CAP", 3)
    capped = await call(client, "get_entity", {"name_or_id": "PaymentGateway.charge"})
    assert sum(capped["relations_out"].values()) + sum(capped["relations_in"].values()) == 3
    entry = omitted(capped)["relation_count"]
    assert entry["at_least"] and len((await follow(client, entry["next_call"]))["edges"]) == counted


async def test_a_search_of_an_empty_index_says_it_is_empty_and_how_to_fill_it(tmp_path: Path) -> None:
    from tests.conftest import HashEmbedder
    from trident.server.app import build_server
    from trident.server.server_settings import ServerSettings, TridentSettings
    from trident.store.catalog import Catalog

    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    settings = TridentSettings.from_env(ServerSettings(read_only=True, warm_up=False))
    async with Client(build_server(settings, lambda: catalog)) as empty:
        answer = await call(empty, "search", {"query": "payment gateway"})
    assert answer["hits"] == []
    assert answer["message"].startswith(f"no hits for 'payment gateway': the index at {catalog.index_dir} is empty")
    assert "index_path" in answer["message"]
