"""Which embedding model to use and how to run it, read from `TRIDENT_*` environment variables."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_cache_dir
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
# A model name may carry a variant after a colon (hub names never hold one): `NAME:int8` runs NAME with its MatMul
# weights quantized to int8, about 2.5x faster to embed on CPU. The full name is what an index records, so an index
# built with one variant refuses the other.
QUANTIZATIONS = ("int8",)


class ModelSettings(BaseSettings):
    """Which embedding model to use and how to run it."""

    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore", protected_namespaces=())

    model: str = Field(
        DEFAULT_MODEL,
        description="Embedding model name (TRIDENT_MODEL); append `:int8` for the int8-quantized variant.",
    )
    model_dir: Path | None = Field(
        None, description="Local ONNX model folder, used before any download (TRIDENT_MODEL_DIR)."
    )
    model_cache: Path = Field(
        default_factory=lambda: Path(user_cache_dir("trident")) / "models",
        description="Where downloaded or offline-built models are cached (TRIDENT_MODEL_CACHE).",
    )
    max_tokens: int = Field(256, ge=16, le=512, description="Truncate texts to this many model tokens.")
    batch_size: int = Field(32, ge=1, le=1024, description="Texts per embedding batch.")
    threads: int | None = Field(None, ge=1, description="ONNX runtime threads; None lets it choose.")
    vector_cache: Path = Field(
        default_factory=lambda: Path(user_cache_dir("trident")) / "vectors.sqlite",
        description="Where the vectors of texts already embedded are kept, by model (TRIDENT_VECTOR_CACHE).",
    )
    vector_cache_mb: int = Field(
        1024, ge=0, description="Most megabytes of vectors kept there; 0 turns the cache off (TRIDENT_VECTOR_CACHE_MB)."
    )

    @field_validator("model")
    @classmethod
    def _known_variant(cls, value: str) -> str:
        base, colon, variant = value.partition(":")
        if not base.strip():
            raise ValueError("TRIDENT_MODEL must name a model")
        if colon and variant not in QUANTIZATIONS:
            raise ValueError(
                f"TRIDENT_MODEL {value!r} has an unknown variant {variant!r}; known: {', '.join(QUANTIZATIONS)}"
            )
        return value

    @property
    def base_model(self) -> str:
        """The model as fastembed names it, without the variant."""
        return self.model.partition(":")[0]

    @property
    def quantization(self) -> str | None:
        """The variant after the colon (`int8`), or None for the model's own float32 weights."""
        return self.model.partition(":")[2] or None
