"""The retrieval paths by name: what the router plans, the search runs and each hit says found it."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from trident.retrieval.enums import parse_member


class PathName(StrEnum):
    LEXICAL = "lexical"  # BM25 over the chunks (Tantivy)
    SEMANTIC = "semantic"  # dense vectors of the chunks (LanceDB)
    GRAPH = "graph"  # one hop from the entities a query names
    PPR = "ppr"  # Personalized PageRank from those entities
    COMMUNITY = "community"  # community reports nearest the query
    LOCAL = "local"  # a project's own instruction files (CLAUDE.md, README, ...)

    @classmethod
    def parse(cls, name: str) -> PathName:
        """The path a name means.

        Raises:
            ValueError: no path has that name; the message lists the known ones.
        """
        return parse_member(cls, name, "retrieval path", ValueError)


class PathRun(NamedTuple):
    """One path over one text of a search: the query itself (expansion 0) or its n-th alternative phrasing.

    A search keys everything per run by it: the runs' results, timings and failures, the lists fused and their
    weights (a tuple: hashed in C, thousands of times a search).
    """

    path: PathName
    expansion: int = 0

    @property
    def label(self) -> str:
        """The run as results and diagnostics name it: `semantic` for the query, `semantic#2` for its second
        expansion."""
        return self.path.value if self.expansion == 0 else f"{self.path.value}#{self.expansion}"

    def __str__(self) -> str:
        return self.label
