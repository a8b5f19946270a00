"""Typed settings, one class per concern, read from `TRIDENT_*` environment variables."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_cache_dir, user_data_dir
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


class StoreSettings(BaseSettings):
    """Where the index lives."""

    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore")

    home: Path = Field(
        default_factory=lambda: Path(user_data_dir("trident")),
        description="Folder holding the three engines and the manifest (TRIDENT_HOME).",
    )
    tenant: str = Field("default", description="Index namespace this process reads and writes (TRIDENT_TENANT).")
    eval_cache: Path = Field(
        default_factory=lambda: Path(user_cache_dir("trident")) / "eval",
        description="Where `trident eval` keeps its per-dataset indexes (TRIDENT_EVAL_CACHE).",
    )

    @field_validator("tenant")
    @classmethod
    def _tenant_is_a_name(cls, value: str) -> str:
        if not value or not value.replace("-", "").replace("_", "").isalnum():
            raise ValueError("TRIDENT_TENANT must be letters, digits, '-' or '_'")
        return value

    @property
    def index_dir(self) -> Path:
        return self.home / "tenants" / self.tenant


class ModelSettings(BaseSettings):
    """Which embedding model to use and how to run it."""

    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore", protected_namespaces=())

    model: str = Field(DEFAULT_MODEL, description="Embedding model name (TRIDENT_MODEL).")
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


class IngestSettings(BaseSettings):
    """What the walker reads."""

    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore")

    max_file_bytes: int = Field(
        1_000_000, ge=1_000, description="Skip files larger than this (TRIDENT_MAX_FILE_BYTES)."
    )


class RetrievalSettings(BaseSettings):
    """How the graph walk spreads."""

    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore")

    ppr_damping: float = Field(
        0.85,
        gt=0.0,
        lt=1.0,
        description="Personalized PageRank: probability of continuing the walk at each step (TRIDENT_PPR_DAMPING); "
        "lower keeps the mass nearer the query's entities.",
    )
