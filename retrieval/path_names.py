"""The retrieval paths by name: what the router plans, the search runs and each hit says found it."""

from __future__ import annotations

from enum import StrEnum


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
        try:
            return cls(name)
        except ValueError:
            raise ValueError(f"unknown retrieval path {name!r}; known: {', '.join(cls)}") from None
