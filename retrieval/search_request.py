"""A search as its caller asks for it, written once: the `search` tool, the command line, evaluation and scripts build
one `SearchRequest` and pass it down (the engine reads it, the tool checks it against its limits and builds its
`next_call`s from it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trident.retrieval.fusion import FusionMethod
from trident.retrieval.search_plan import Strategy


@dataclass(frozen=True)
class SearchRequest:
    """What to look for and which hits to return: `top_k` hits after the first `offset`, within `max_tokens` (None:
    the tool's budget), from `projects` (None: all), by `strategy`, with `expansions` searched too and fused by
    `fusion` (None: the route's); `explain` says why each hit ranked where it did."""

    query: str
    top_k: int = 10
    offset: int = 0
    projects: tuple[str, ...] | None = None
    strategy: Strategy = Strategy.AUTO
    expansions: tuple[str, ...] | None = None
    fusion: FusionMethod | None = None
    max_tokens: int | None = None
    explain: bool = False

    @classmethod
    def of(
        cls,
        query: str,
        *,
        top_k: int = 10,
        offset: int = 0,
        projects: Sequence[str] | None = None,
        strategy: Strategy | str = Strategy.AUTO,
        expansions: Sequence[str] | None = None,
        fusion: FusionMethod | str | None = None,
        max_tokens: int | None = None,
        explain: bool = False,
    ) -> SearchRequest:
        """A request from arguments as callers write them (names for the strategy and fusion, lists).

        Raises:
            ArgumentError: an unknown strategy or fusion (the message lists the known ones).
        """
        return cls(
            query,
            top_k,
            offset,
            tuple(projects) if projects is not None else None,
            Strategy.parse(strategy),
            tuple(expansions) if expansions else None,
            FusionMethod.parse(fusion) if fusion else None,
            max_tokens,
            explain,
        )
