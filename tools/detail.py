"""How much of an answer a read tool shows: in full, or compact (names as code imports them, one line an item)."""

from __future__ import annotations

from enum import StrEnum

from trident.retrieval.enums import parse_member


class Detail(StrEnum):
    """How much of each item (a hit, an edge, a path) an answer shows."""

    FULL = "full"
    COMPACT = "compact"

    @classmethod
    def parse(cls, name: str) -> Detail:
        """The detail a name means.

        Raises:
            ArgumentError: no detail has that name; the message lists the known ones.
        """
        return parse_member(cls, name, "detail")
