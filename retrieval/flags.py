"""What a hit's evidence may be flagged with: a conflict with another hit's statement of the same setting, or a
reference to a code entity its project no longer has (or no longer calls so). Flags only mark: no hit is dropped."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, Field


def _unset(value: object) -> bool:
    return value is None


class ConflictType(StrEnum):
    FACTUAL = "factual"  # code or configuration against prose: the code says what runs
    TEMPORAL = "temporal"  # two documents of one project: the one changed later supersedes
    SCOPE = "scope"  # two projects: each value holds in its own project, both kept


class ConflictFlag(BaseModel):
    kind: Literal["conflict"] = "conflict"
    type: ConflictType
    key: str = Field(description='The setting, as its normalised words (`DEFAULT_TIMEOUT_S` -> "timeout")')
    values: dict[str, str] = Field(description="Citation -> the value as it is written there, this hit's included")
    preferred: str | None = Field(
        default=None,
        exclude_if=_unset,
        description="The citation to trust (factual: the code or configuration; temporal: the later change); left "
        "out for scope, where each holds in its project, or when nothing tells the two apart",
    )
    why: str = Field(description="Why that one is preferred, or why none is")


class StaleReferenceFlag(BaseModel):
    kind: Literal["stale_reference"] = "stale_reference"
    name: str = Field(description="The code entity the prose names, as written")
    detail: str = Field(description="What no longer matches: the name is gone, or the call's argument count")
    see: str | None = Field(
        default=None,
        exclude_if=_unset,
        description="Citation of the current definition, or of the nearest existing name",
    )


EvidenceFlag = Annotated[ConflictFlag | StaleReferenceFlag, Field(discriminator="kind")]
