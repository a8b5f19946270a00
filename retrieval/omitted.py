"""What an answer left out, and why: one entry per filter or limit that hid something, with how many it hid and the
call that shows them, so a short or empty answer is never read as all there is (issue #23)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum

from pydantic import BaseModel, Field


class OmitReason(StrEnum):
    """What left items out: the argument a caller can change, or a bound of the server's own."""

    PROJECTS = "projects"  # the caller's project scope
    KINDS = "kinds"  # the chunk kinds asked for
    STRATEGY = "strategy"  # a search forced onto some paths
    FUSION = "fusion"  # intersection keeps only what every path found
    OFFSET = "offset"  # hits of earlier pages
    RELATION_TYPES = "relation_types"
    DIRECTION = "direction"
    MIN_RESOLUTION = "min_resolution"
    MAX_HOPS = "max_hops"
    MAX_PATHS = "max_paths"
    LIMIT = "limit"
    TOP_K = "top_k"
    MAX_TOKENS = "max_tokens"
    EDGES_PER_HOP = "edges_per_hop"  # the server reads at most so many relations around a hop's nodes
    RELATION_COUNT = "relation_count"  # get_entity counts at most so many relations


def _unset(value: object) -> bool:
    return not value


class Omitted(BaseModel):
    """Items one filter or limit kept out of the answer. Fields that do not apply are left out of the JSON."""

    reason: OmitReason = Field(description="The argument (or server bound) that left them out")
    count: int = Field(description="How many it left out (a lower bound when at_least)")
    at_least: bool = Field(
        False, exclude_if=_unset, description="True when count is a lower bound (an exact one would cost a query)"
    )
    detail: str = Field(description="What was left out, in words")
    next_call: str | None = Field(
        None,
        exclude_if=_unset,
        description="The call that shows them. Absent for the page's own cuts (limit, top_k, max_tokens: the "
        "answer's next_call gets the next page) and for a server bound no argument lifts",
    )


OMITTED_HELP = (
    "What the filters and limits left out: per reason (the argument), how many and the call that shows them; "
    "[] when nothing was"
)


def breakdown(counts: Mapping[str, int]) -> str:
    """`IMPORTS 3, MENTIONS 1`: counts by name, largest first, ties by name."""
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def amount(entry: Omitted) -> str:
    """`3` or `at least 3`."""
    return f"at least {entry.count}" if entry.at_least else str(entry.count)


def empty_message(nothing: str, omitted: Sequence[Omitted]) -> str:
    """Why an answer is empty: each filter that hid something, with its call; or that none did.

    `nothing` says what was not found ("no relations around X").
    """
    if not omitted:
        return f"{nothing}, and no filter or limit left any out: the index holds none"
    hid = "; ".join(
        f"{entry.reason.value} left out {entry.detail}" + (f": {entry.next_call} shows them" if entry.next_call else "")
        for entry in omitted
    )
    return f"{nothing} with these arguments; {hid}"
