"""How the answering side searches and walks, read from `TRIDENT_*` environment variables."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


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
