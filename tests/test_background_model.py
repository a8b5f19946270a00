"""A server's model loads once in the background: searches before it is loaded answer from the paths that need no
query vector and say which were not ready; once it is loaded every path answers, the same query with the same
bytes; writes and the other tools wait for it; a load that fails says why."""

from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from trident.embedding.background import BackgroundEmbedder, ModelNotReady
from trident.embedding.embedder import EmbedderUnavailable
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import GenerationViews, search
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder
from trident.store.settings import StoreSettings

READY_DEADLINE_S = 120.0  # generous: the model loads in about a second, on a busy machine in a few
QUERY = "verify the token with the rotating key store"


def _gated(embedder: Embedder) -> tuple[BackgroundEmbedder, threading.Event]:
    """A background embedder whose load ends only when the returned event is set."""
    release = threading.Event()

    def load() -> Embedder:
        release.wait(READY_DEADLINE_S)
        return embedder

    return BackgroundEmbedder(load, embedder.model_name, embedder.dim).start(), release


def test_a_search_before_the_model_is_loaded_answers_from_the_ready_paths_and_says_which_were_not(
    sample_catalog: Catalog, embedder: Embedder
) -> None:
    background, release = _gated(embedder)
    catalog = Catalog.open_reader(sample_catalog.index_dir, "default", background)
    views = GenerationViews(RetrievalSettings())
    try:
        early = search(catalog, QUERY, views=views, strategy="hybrid")
        assert early.hits, "lexical and graph answer without the model"
        assert early.diagnostics.failed_paths is not None
        assert "semantic" in early.diagnostics.failed_paths
        assert "still loading" in early.diagnostics.failed_paths["semantic"]
        assert "lexical" in early.diagnostics.candidates

        release.set()
        assert background.wait(READY_DEADLINE_S)
        ready = search(catalog, QUERY, views=views, strategy="hybrid")
        assert ready.diagnostics.failed_paths is None and "semantic" in ready.diagnostics.candidates
        again = search(catalog, QUERY, views=views, strategy="hybrid")
        assert [h.id for h in again.hits] == [h.id for h in ready.hits]
        assert again.model_dump_json(exclude={"diagnostics"}) == ready.model_dump_json(exclude={"diagnostics"})
    finally:
        release.set()
        catalog.close()


def test_a_search_does_not_wait_for_the_model_and_every_other_caller_does(embedder: Embedder) -> None:
    background, release = _gated(embedder)
    with pytest.raises(ModelNotReady, match="still loading"):
        background.embed_query_now("x")
    assert background.dim == embedder.dim and not background.ready, "the recorded dimension needs no load"
    threading.Timer(0.2, release.set).start()
    assert background.embed_query("x").shape == (embedder.dim,), "find_similar's text waits for the model"
    assert background.embed(["a text"]).shape == (1, embedder.dim)
    assert background.ready and background.embed_query_now("x").shape == (embedder.dim,)


def test_a_failed_load_says_why_to_every_caller() -> None:
    def load() -> Embedder:
        raise EmbedderUnavailable("no model here; set TRIDENT_MODEL_DIR")

    background = BackgroundEmbedder(load, "some/model", 384).start()
    assert not background.wait(READY_DEADLINE_S) and background.failed
    for call in (background.embed_query_now, background.embed_query, lambda text: background.embed([text])):
        with pytest.raises(EmbedderUnavailable, match="TRIDENT_MODEL_DIR"):
            call("x")


def test_a_model_of_another_dimension_than_the_index_records_is_refused(embedder: Embedder) -> None:
    background = BackgroundEmbedder(lambda: embedder, embedder.model_name, embedder.dim + 1).start()
    assert background.wait(READY_DEADLINE_S)
    with pytest.raises(EmbedderUnavailable, match="index records"):
        background.embed_query("x")


@pytest.mark.anyio
async def test_trident_serve_answers_its_first_search_and_then_every_path(
    sample_catalog: Catalog, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    index_dir = StoreSettings(home=home).index_dir
    shutil.copytree(sample_catalog.index_dir, index_dir, ignore=shutil.ignore_patterns("write.lock"))
    trident = str(Path(sys.executable).parent / "trident")
    server = StdioServerParameters(
        command=trident, args=["serve", "--read-only"], env={**os.environ, "TRIDENT_HOME": str(home)}
    )
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        first = await session.call_tool("search", {"query": QUERY, "strategy": "hybrid"})
        assert not first.is_error and first.structured_content is not None
        # The first search waited for the model loading since the spawn: it is complete, every path answered.
        assert "semantic" in first.structured_content["diagnostics"]["candidates"], first.structured_content
        assert "failed_paths" not in first.structured_content["diagnostics"]
        assert first.structured_content.get("message") is None
        again = await session.call_tool("search", {"query": QUERY, "strategy": "hybrid"})
        assert again.structured_content is not None
        assert again.structured_content["hits"] == first.structured_content["hits"]


@pytest.mark.anyio
@pytest.mark.parametrize("wait_seconds", [0.0, 120.0])
async def test_a_search_waits_for_a_loading_model_unless_told_not_to_and_a_partial_answer_says_so(
    sample_catalog: Catalog, embedder: Embedder, wait_seconds: float
) -> None:
    from mcp.client import Client

    from trident.server.app import build_server
    from trident.server.server_settings import ServerSettings, TridentSettings

    background, release = _gated(embedder)
    catalog = Catalog.open_reader(sample_catalog.index_dir, "default", background)
    served = ServerSettings(read_only=True, warm_up=False, model_wait_seconds=wait_seconds)
    try:
        async with Client(build_server(TridentSettings.from_env(served), lambda: catalog)) as client:
            if wait_seconds:
                threading.Timer(0.5, release.set).start()  # the load ends while the search waits for it
            answer = (await client.call_tool("search", {"query": QUERY})).structured_content
            assert answer is not None and answer["hits"]
            failed = answer["diagnostics"].get("failed_paths") or {}
            if wait_seconds:
                assert not failed and answer.get("message") is None
                assert "semantic" in answer["diagnostics"]["candidates"]
            else:
                assert "semantic" in failed
                assert answer["message"].startswith("partial answer: the semantic path did not answer (")
                assert "still loading" in answer["message"]
            lexical = (await client.call_tool("search", {"query": QUERY, "strategy": "lexical"})).structured_content
            assert lexical is not None and lexical.get("message") is None, "a lexical search needs no model"
            release.set()  # a stopping server waits for a load under way
    finally:
        release.set()


def test_an_embedder_nobody_started_starts_loading_when_first_needed(embedder: Embedder) -> None:
    background = BackgroundEmbedder(lambda: embedder, embedder.model_name)
    assert not background.ready
    assert background.dim == embedder.dim, "without a recorded dimension, reading it loads the model"
    assert background.ready and background.start() is background


@pytest.mark.anyio
async def test_a_search_waits_for_the_walks_views_a_warm_up_is_building_unless_told_not_to(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trident.retrieval import views as views_module
    from trident.retrieval.search_plan import Strategy
    from trident.server.first_answers import ready_for

    monkeypatch.setattr(views_module, "BACKGROUND_WALK_MIN_CHUNKS", 1)  # the sample index counts as large
    views = GenerationViews(RetrievalSettings())
    building, built = threading.Event(), threading.Event()

    def warm_up() -> None:
        with views.warming(sample_catalog):
            building.set()
            built.wait(READY_DEADLINE_S)

    thread = threading.Thread(target=warm_up)
    thread.start()
    try:
        assert building.wait(READY_DEADLINE_S) and views.walk_pending(sample_catalog)
        await ready_for(sample_catalog, views, Strategy.AUTO, 0)
        assert views.walk_pending(sample_catalog), "told not to wait, it answers at once"
        await ready_for(sample_catalog, views, Strategy.LEXICAL, READY_DEADLINE_S)
        assert views.walk_pending(sample_catalog), "a lexical search reads no walk views: it never waits"
        threading.Timer(0.3, built.set).start()
        await ready_for(sample_catalog, views, Strategy.AUTO, READY_DEADLINE_S)
        assert not views.walk_pending(sample_catalog), "a search that walks waited for the warm-up"
    finally:
        built.set()
        thread.join()
