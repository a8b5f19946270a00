"""The fastembed embedder on the real MiniLM model (the offline build), and how it finds or fails to find a model."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from tokenizers import Tokenizer

from trident.cli.catalogs import open_serving_catalog
from trident.embedding.background import BackgroundEmbedder
from trident.embedding.embedder import (
    EmbedderUnavailable,
    FastEmbedEmbedder,
    SourceKind,
    open_embedder,
    resolve_model_source,
)
from trident.embedding.model_settings import DEFAULT_MODEL, ModelSettings
from trident.embedding.offline_model import BUILD_RECORD, MIN_COSINE, build_offline_model, default_offline_dir
from trident.store.manifest import Manifest, ModelInfo
from trident.store.settings import StoreSettings

COOKING = ("onion", "garlic", "butter", "salt", "pepper", "flour", "sugar", "milk", "bread", "soup", "oven")
LOAD_DEADLINE_S = 120.0  # generous: the model loads in about a second, on a busy machine in a few
ASTRONOMY = ("star", "planet", "moon", "orbit", "galaxy", "comet", "telescope", "sky", "space", "earth", "sun")


@pytest.fixture(scope="module")
def model_dir() -> Path:
    return build_offline_model(default_offline_dir(ModelSettings().model_cache))


@pytest.fixture(scope="module")
def settings(model_dir: Path) -> ModelSettings:
    # Explicit values, so a TRIDENT_MODEL_DIR or TRIDENT_MODEL in the environment cannot change what is tested; no
    # vector cache: every vector here is the model's own, made in the test (tests/test_vector_cache.py has the cache).
    return ModelSettings(model=DEFAULT_MODEL, model_dir=None, model_cache=model_dir.parent, vector_cache_mb=0)


@pytest.fixture(scope="module")
def minilm(settings: ModelSettings) -> FastEmbedEmbedder:
    embedder = open_embedder(settings)
    assert isinstance(embedder, FastEmbedEmbedder)
    return embedder


@pytest.fixture(scope="module")
def word_tokens(model_dir: Path) -> Tokenizer:
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b))


def test_default_settings_load_minilm_from_the_offline_build(minilm: FastEmbedEmbedder) -> None:
    assert minilm.model_name == DEFAULT_MODEL
    assert minilm.source.kind is SourceKind.OFFLINE_BUILD
    assert minilm.dim == 384


def test_embeddings_are_float32_unit_rows_of_dim_384(minilm: FastEmbedEmbedder) -> None:
    vectors = minilm.embed(["hello world", "def charge(card): ...", ""])
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_empty_input_gives_zero_rows_of_the_model_dimension(minilm: FastEmbedEmbedder) -> None:
    assert minilm.embed([]).shape == (0, 384)


def test_a_query_embeds_to_one_vector_equal_to_its_document_row(minilm: FastEmbedEmbedder) -> None:
    query = minilm.embed_query("where are failed charges retried?")
    assert query.shape == (384,)
    assert query.dtype == np.float32
    np.testing.assert_array_equal(query, minilm.embed(["where are failed charges retried?"])[0])


def test_length_sorted_batches_keep_input_order(minilm: FastEmbedEmbedder) -> None:
    small_batches = FastEmbedEmbedder(minilm.source, batch_size=3)
    texts = [" ".join(COOKING[: (i * 7) % len(COOKING) + 1] * ((i * 5) % 9 + 1)) for i in range(13)]
    texts[4] = "x"
    texts[9] = " ".join(ASTRONOMY * 40)
    together = small_batches.embed(texts)
    alone = np.stack([small_batches.embed([text])[0] for text in texts])
    np.testing.assert_allclose(together, alone, atol=1e-5)


def test_the_same_text_gives_the_same_bytes_on_every_call(minilm: FastEmbedEmbedder) -> None:
    texts = ["PaymentGateway retries failed charges.", " ".join(ASTRONOMY * 10)]
    assert minilm.embed(texts).tobytes() == minilm.embed(texts).tobytes()


def _arena(embedder: FastEmbedEmbedder) -> bool:
    """Whether the embedder's ONNX session keeps ONNX Runtime's CPU memory arena."""
    return bool(embedder.session_options().enable_cpu_mem_arena)


def test_a_long_lived_embedder_has_no_memory_arena_and_embeds_the_same_bytes(
    minilm: FastEmbedEmbedder, settings: ModelSettings
) -> None:
    served = open_embedder(settings, long_lived=True)
    assert isinstance(served, FastEmbedEmbedder)
    assert _arena(minilm) and not _arena(served)
    texts = ["where are failed charges retried?", " ".join(COOKING * 40), "x"]
    assert served.embed(texts).tobytes() == minilm.embed(texts).tobytes()


def test_a_server_loads_its_model_without_a_memory_arena(tmp_path: Path, settings: ModelSettings) -> None:
    catalog = open_serving_catalog(StoreSettings(home=tmp_path), settings)
    try:
        assert isinstance(catalog.embedder, BackgroundEmbedder)
        assert catalog.embedder.wait(LOAD_DEADLINE_S), "the model did not load"
        loaded = catalog.embedder.loaded()
        assert isinstance(loaded, FastEmbedEmbedder)
        assert not _arena(loaded)
    finally:
        catalog.close()


def test_texts_are_truncated_to_256_model_tokens(minilm: FastEmbedEmbedder, word_tokens: Tokenizer) -> None:
    words = [COOKING[i % len(COOKING)] for i in range(300)] + [ASTRONOMY[i % len(ASTRONOMY)] for i in range(300)]
    # One token per word, so a prefix of words is a prefix of tokens; [CLS] and [SEP] take two of the 256.
    assert len(word_tokens.encode(" ".join(words)).ids) == len(words) + 2
    long_text, head, shorter_head, tail = (
        " ".join(words),
        " ".join(words[:254]),
        " ".join(words[:250]),
        " ".join(words[-254:]),
    )
    vectors = minilm.embed([long_text, head, shorter_head, tail])
    assert minilm.max_tokens == 256
    np.testing.assert_allclose(vectors[0], vectors[1], atol=1e-6)
    assert np.abs(vectors[0] - vectors[2]).max() > 1e-4, "the window is shorter than 256 tokens"
    assert _cosine(vectors[0], vectors[3]) < 0.9, "the end of a long text must not be what gets embedded"


def test_a_paraphrase_is_closer_than_an_unrelated_sentence(minilm: FastEmbedEmbedder) -> None:
    anchor, paraphrase, unrelated = minilm.embed(
        [
            "How do I reset my password?",
            "What are the steps to change a forgotten login password?",
            "The telescope photographed a distant spiral galaxy.",
        ]
    )
    assert _cosine(anchor, paraphrase) > _cosine(anchor, unrelated) + 0.3


def test_an_explicit_model_dir_wins_over_the_offline_build(settings: ModelSettings, model_dir: Path) -> None:
    source = resolve_model_source(settings.model_copy(update={"model_dir": model_dir}))
    assert source.kind is SourceKind.MODEL_DIR
    assert source.path == model_dir


def test_an_unverified_offline_folder_is_passed_over_for_fastembeds_cache(tmp_path: Path, model_dir: Path) -> None:
    copy = tmp_path / model_dir.name
    shutil.copytree(model_dir, copy)
    (copy / BUILD_RECORD).unlink()
    source = resolve_model_source(ModelSettings(model=DEFAULT_MODEL, model_dir=None, model_cache=tmp_path))
    assert source.kind is SourceKind.FASTEMBED
    assert source.path == tmp_path


def test_a_missing_model_dir_gives_an_error_naming_the_folder(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-model"
    with pytest.raises(EmbedderUnavailable, match="TRIDENT_MODEL_DIR") as excinfo:
        open_embedder(ModelSettings(model=DEFAULT_MODEL, model_dir=missing, model_cache=tmp_path))
    assert str(missing) in str(excinfo.value)


def test_a_model_dir_without_the_onnx_file_gives_an_error_naming_the_folder(tmp_path: Path) -> None:
    with pytest.raises(EmbedderUnavailable, match=r"has no model\.onnx") as excinfo:
        open_embedder(ModelSettings(model=DEFAULT_MODEL, model_dir=tmp_path, model_cache=tmp_path))
    assert str(tmp_path) in str(excinfo.value)


def test_an_unknown_model_name_is_unavailable_and_says_how_to_fix_it(tmp_path: Path) -> None:
    with pytest.raises(EmbedderUnavailable, match="build-offline") as excinfo:
        open_embedder(ModelSettings(model="nobody/no-such-model", model_dir=None, model_cache=tmp_path))
    assert "nobody/no-such-model" in str(excinfo.value)
    assert "TRIDENT_MODEL_DIR" in str(excinfo.value)


def test_a_model_missing_from_the_cache_without_network_says_how_to_fix_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # HF_HUB_OFFLINE stands for "no network" without waiting through fastembed's download retries.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(EmbedderUnavailable, match="build-offline") as excinfo:
        open_embedder(ModelSettings(model=DEFAULT_MODEL, model_dir=None, model_cache=tmp_path))
    assert "fastembed cache" in str(excinfo.value)


@pytest.fixture(scope="module")
def int8(model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> FastEmbedEmbedder:
    # The float32 build as TRIDENT_MODEL_DIR and a fresh cache, so the int8 copy is made here, not reused.
    cache = tmp_path_factory.mktemp("model-cache")
    embedder = open_embedder(ModelSettings(model=f"{DEFAULT_MODEL}:int8", model_dir=model_dir, model_cache=cache))
    assert isinstance(embedder, FastEmbedEmbedder)
    return embedder


def test_the_int8_variant_loads_from_its_own_folder_with_the_same_dimension(int8: FastEmbedEmbedder) -> None:
    assert int8.model_name == f"{DEFAULT_MODEL}:int8"
    assert int8.source.kind is SourceKind.QUANTIZED
    assert int8.dim == 384
    assert int8.max_tokens == 256
    vectors = int8.embed(["hello world", ""])
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_int8_vectors_stay_within_the_builds_cosine_bound_of_float32(
    int8: FastEmbedEmbedder, minilm: FastEmbedEmbedder
) -> None:
    texts = [
        "PaymentGateway retries failed charges three times before marking an invoice as overdue.",
        "def charge(card, amount):\n    return gateway.capture(card, amount, retries=3)",
        "Vitamin D supplementation reduced the rate of hip fractures in elderly women.",
        " ".join(ASTRONOMY * 30),
    ]
    cosines = (int8.embed(texts) * minilm.embed(texts)).sum(axis=1)
    # The bound the int8 build itself enforces. With the locked releases the four give 0.993, 0.993, 0.992 and 0.974
    # (the long text of one repeated topic drifts most); texts of one sentence stay above 0.99.
    assert cosines.min() >= MIN_COSINE, cosines
    assert cosines[:3].min() > 0.99, cosines


def test_an_index_built_with_int8_records_the_variant_and_refuses_float32(
    int8: FastEmbedEmbedder, minilm: FastEmbedEmbedder, tmp_path: Path
) -> None:
    from tests.conftest import index_into
    from trident.store.catalog import Catalog, ModelMismatchError

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "notes.md").write_text("# Payments\n\nThe gateway retries failed charges.\n", encoding="utf-8")
    catalog = Catalog(tmp_path / "index", "default", int8)
    index_into(catalog, docs, "docs", max_file_bytes=100_000)
    catalog.close()
    assert Manifest.load(tmp_path / "index").model == ModelInfo(name=f"{DEFAULT_MODEL}:int8", dim=384)
    with pytest.raises(ModelMismatchError, match=":int8"):
        Catalog(tmp_path / "index", "default", minilm)


def test_a_model_variant_other_than_int8_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown variant 'int4'"):
        ModelSettings(model=f"{DEFAULT_MODEL}:int4")


def test_the_variant_is_split_from_the_model_name() -> None:
    quantized = ModelSettings(model=f"{DEFAULT_MODEL}:int8")
    assert (quantized.base_model, quantized.quantization) == (DEFAULT_MODEL, "int8")
    plain = ModelSettings(model=DEFAULT_MODEL)
    assert (plain.base_model, plain.quantization) == (DEFAULT_MODEL, None)


def test_the_model_threads_sleep_between_runs_so_a_query_leaves_the_cores_to_what_follows(
    minilm: FastEmbedEmbedder,
) -> None:
    assert minilm.session_options().get_session_config_entry("session.intra_op.allow_spinning") == "0"
    again = minilm.embed_query("verify a token")
    assert again.shape == (384,) and abs(float(np.linalg.norm(again)) - 1.0) < 1e-5
