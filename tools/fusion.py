"""Fusing ranked lists: Reciprocal Rank Fusion, with a stable tie-break by id."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# k=60 is the value of the original RRF paper (Cormack et al., 2009): it damps the head of each list so that
# agreement between lists outweighs one list's top rank.
DEFAULT_RRF_K = 60.0


@dataclass(frozen=True)
class FusedItem:
    id: str
    score: float
    ranks: dict[str, int | None]


@dataclass(frozen=True)
class RRF:
    k: float = DEFAULT_RRF_K

    def __post_init__(self) -> None:
        if self.k <= 0:
            raise ValueError(f"RRF k must be > 0, got {self.k}")

    def __str__(self) -> str:
        return f"rrf(k={self.k:g})"

    def fuse(self, lists: Mapping[str, Sequence[str]], weights: Mapping[str, float] | None = None) -> list[FusedItem]:
        """Sum of weight / (k + rank) over the lists each id appears in; rank is 1-based."""
        scores: dict[str, float] = {}
        ranks: dict[str, dict[str, int | None]] = {}
        for name, ids in lists.items():
            weight = 1.0 if weights is None else weights.get(name, 1.0)
            for rank, id_ in enumerate(ids, start=1):
                scores[id_] = scores.get(id_, 0.0) + weight / (self.k + rank)
                ranks.setdefault(id_, dict.fromkeys(lists))[name] = rank
        fused = [FusedItem(id_, score, ranks[id_]) for id_, score in scores.items()]
        return sorted(fused, key=lambda item: (-item.score, item.id))
