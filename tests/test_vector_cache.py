"""Vectors kept by text on disk (embedding/vector_cache.py): read back as the model makes them, kept per model,
bounded in size, shared between processes, and never in the way when the file cannot be used."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from trident.embedding.embedder import FastEmbedEmbedder, open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.embedding.offline_model import build_offline_model, default_offline_dir
from trident.embedding.vector_cache import ROW_OVERHEAD, VectorCache

TEXTS = [
    "def refund(payment): return gateway.refund(payment.id, payment.amount)",
    "class OrderService: places orders and charges the customer's card",
    "Signing keys are rotated every ninety days; the verifier accepts the previous key for a day.",
    "short",
    "a long paragraph that pads every batch it is in " * 30,
]


@pytest.fixture(scope="module")
def model_cache() -> Path:
    return build_offline_model(default_offline_dir(ModelSettings().model_cache)).parent


def _settings(model_cache: Path, cache: Path, **values: object) -> ModelSettings:
    return ModelSettings(model_dir=None, model_cache=model_cache, vector_cache=cache, **values)  # type: ignore[arg-type]


def _model_runs(embedder: FastEmbedEmbedder, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many texts each run of the model embeds from now on (the model still runs: this only counts)."""
    runs: list[int] = []
    model = embedder._embedded

    def counted(texts: list[str]) -> np.ndarray:
        runs.append(len(texts))
        return model(texts)

    monkeypatch.setattr(embedder, "_embedded", counted)
    return runs


def test_a_text_gives_the_same_bytes_alone_and_in_any_batch(model_cache: Path, tmp_path: Path) -> None:
    """What lets a vector be read back instead of made: the model's output for a text does not depend on the batch
    (the padding of longer texts beside it, its place in the batch)."""
    embedder = open_embedder(_settings(model_cache, tmp_path / "v.sqlite", vector_cache_mb=0))
    together = embedder.embed(TEXTS)
    alone = np.stack([embedder.embed([text])[0] for text in TEXTS])
    reversed_batch = embedder.embed(TEXTS[::-1])[::-1]
    assert together.tobytes() == alone.tobytes() == reversed_batch.tobytes()
    assert not (tmp_path / "v.sqlite").exists()  # 0 MB: no cache at all


def test_texts_embedded_once_are_read_back_byte_for_byte_by_another_embedder(
    model_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "v.sqlite"
    first = open_embedder(_settings(model_cache, cache))
    made = first.embed(TEXTS[:3])

    second = open_embedder(_settings(model_cache, cache))
    assert isinstance(second, FastEmbedEmbedder)
    runs = _model_runs(second, monkeypatch)
    again = second.embed(TEXTS)
    assert runs == [2]  # only the two texts the first never saw
    assert again[:3].tobytes() == made.tobytes()
    uncached = open_embedder(_settings(model_cache, tmp_path / "other.sqlite", vector_cache_mb=0))
    assert again.tobytes() == uncached.embed(TEXTS).tobytes()
    assert second.embed_query(TEXTS[0]).tobytes() == made[0].tobytes()


def test_another_truncation_is_another_model_and_reads_none_of_its_vectors(
    model_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "v.sqlite"
    open_embedder(_settings(model_cache, cache)).embed(TEXTS)
    shorter = open_embedder(_settings(model_cache, cache, max_tokens=16))
    assert isinstance(shorter, FastEmbedEmbedder)
    runs = _model_runs(shorter, monkeypatch)
    cut = shorter.embed(TEXTS)
    assert runs == [len(TEXTS)]
    full = open_embedder(_settings(model_cache, tmp_path / "none.sqlite", vector_cache_mb=0)).embed(TEXTS)
    assert not np.array_equal(cut[4], full[4])  # the long text cut at 16 tokens is another vector


def test_past_its_size_the_cache_drops_the_vectors_used_longest_ago(tmp_path: Path) -> None:
    dim = 4
    cache = VectorCache(tmp_path / "v.sqlite", "m", dim, max_bytes=3 * (dim * 4 + ROW_OVERHEAD))
    assert cache.max_rows == 3
    vectors = np.eye(5, dim, dtype=np.float32)
    cache.put(["a", "b", "c"], vectors[:3])
    assert set(cache.get(["a"])) == {0}  # a is used again: b is now the oldest
    cache.put(["d"], vectors[3:4])
    kept = cache.get(["a", "b", "c", "d"])
    assert set(kept) == {0, 2, 3}
    assert kept[3].tobytes() == vectors[3].tobytes()


def test_a_cache_file_that_is_not_a_database_is_passed_by_with_one_warning(
    model_cache: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = tmp_path / "v.sqlite"
    cache.write_bytes(b"not a database, whatever it once was " * 200)
    embedder = open_embedder(_settings(model_cache, cache))
    with caplog.at_level(logging.WARNING, logger="trident.embedding.vector_cache"):
        vectors = embedder.embed(TEXTS)
        again = embedder.embed(TEXTS)
    uncached = open_embedder(_settings(model_cache, tmp_path / "none.sqlite", vector_cache_mb=0)).embed(TEXTS)
    assert vectors.tobytes() == again.tobytes() == uncached.tobytes()
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and str(cache) in warnings[0].getMessage()


def test_a_cache_file_of_an_earlier_layout_is_emptied_and_laid_out_again(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite"
    with sqlite3.connect(path) as old:  # the first layout: the model's name in every row, no rowids
        old.execute(
            "CREATE TABLE vectors (model TEXT, key BLOB, vector BLOB, used INTEGER, PRIMARY KEY (model, key)) "
            "WITHOUT ROWID"
        )
    cache = VectorCache(path, "m", 4, 1 << 20)
    cache.put(["a"], np.ones((1, 4), dtype=np.float32))
    assert cache.get(["a"])[0].tolist() == [1.0, 1.0, 1.0, 1.0]
    cache.close()
    assert VectorCache(path, "m", 4, 1 << 20).get(["a"])[0].tolist() == [1.0, 1.0, 1.0, 1.0]


WRITER = """
import sys
import numpy as np
from trident.embedding.vector_cache import ROW_OVERHEAD, VectorCache
cache = VectorCache(__import__("pathlib").Path(sys.argv[1]), "m", 8, 1 << 20)
name = sys.argv[2]
for n in range(200):
    cache.put([f"{name}-{n}"], np.full((1, 8), n, dtype=np.float32))
    assert cache.get([f"{name}-{n}"])[0][0] == n
"""


def test_processes_writing_at_once_each_keep_every_vector(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite"
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), name], stderr=subprocess.PIPE, text=True)
        for name in ("one", "two", "three")
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=600)
        assert writer.returncode == 0, err
        assert "cannot be used" not in err
    cache = VectorCache(path, "m", 8, 1 << 20)
    texts = [f"{name}-{n}" for name in ("one", "two", "three") for n in range(200)]
    kept = cache.get(texts)
    assert len(kept) == len(texts)
    assert all(kept[i][0] == i % 200 for i in range(len(texts)))


def _model_cache(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "TRIDENT_VECTOR_CACHE": str(path)}
    command = [sys.executable, "-m", "trident.cli.main", "model", "cache", *args]
    return subprocess.run(command, env=environment, capture_output=True, text=True, timeout=300)


def test_trident_model_cache_says_what_the_cache_holds_and_clear_empties_it(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite"
    for model in ("one", "two"):
        cache = VectorCache(path, model, 4, 1 << 20)
        cache.put(["a", "b", "c"], np.ones((3, 4), dtype=np.float32))
        cache.close()
    shown = _model_cache(path)
    assert shown.returncode == 0, shown.stderr
    summary = json.loads(shown.stdout)
    assert (summary["path"], summary["vectors"], summary["models"]) == (str(path), 6, 2)

    cleared = _model_cache(path, "--clear")
    assert cleared.returncode == 0, cleared.stderr
    assert json.loads(cleared.stdout)["vectors"] == 0
    cache = VectorCache(path, "one", 4, 1 << 20)
    assert cache.get(["a"]) == {}
    cache.put(["a"], np.ones((1, 4), dtype=np.float32))  # still a cache after: it fills again
    assert list(cache.get(["a"])) == [0]


def test_trident_model_cache_names_a_file_that_is_not_a_cache(tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite"
    path.write_text("notes, not vectors\n" * 100)
    shown = _model_cache(path)
    assert shown.returncode == 2
    assert str(path) in shown.stderr and "delete it" in shown.stderr and shown.stdout == ""
