"""Which way a walk follows relations: a module of its own, so the CLI can offer the choice without loading walks."""

from __future__ import annotations

from enum import StrEnum


class Direction(StrEnum):
    """Which way a walk follows relations: from the entity (out), into it (in), or both."""

    OUT = "out"
    IN = "in"
    BOTH = "both"
