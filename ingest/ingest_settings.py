"""What an index run reads and how long its passes may take, read from `TRIDENT_*` environment variables."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

# Community detection takes 0.07 s on 2Wiki's 6,120 entities (docs/quality.md): the bound only stops a run gone wrong.
DEFAULT_COMMUNITY_SECONDS = 120.0


class IngestSettings(BaseSettings):
    """What the walker reads, and how long the passes after a run's writes may take."""

    model_config = SettingsConfigDict(env_prefix="TRIDENT_", extra="ignore")

    max_file_bytes: int = Field(
        1_000_000, ge=1_000, description="Skip files larger than this (TRIDENT_MAX_FILE_BYTES)."
    )
    community_seconds: float = Field(
        DEFAULT_COMMUNITY_SECONDS,
        gt=0,
        description="Give up community detection after this long; the index is published without new "
        "communities and `trident status` lists them as stale (TRIDENT_COMMUNITY_SECONDS).",
    )
    progressive_chunks: int = Field(
        1024,
        ge=1,
        description="A run writing at least this many chunks publishes its lexical and graph engines before it "
        "embeds them, then its vectors as they come (TRIDENT_PROGRESSIVE_CHUNKS; about two minutes of embedding "
        "long code chunks on two cores).",
    )
    publish_seconds: float = Field(
        20.0,
        gt=0,
        description="While such a run embeds, publish what is embedded at most this often (TRIDENT_PUBLISH_SECONDS; "
        "each publication copies the graph file, so not much more often).",
    )
