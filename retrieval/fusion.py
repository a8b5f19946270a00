"""Fusing the ranked lists of a search's path runs behind one Fuser protocol: RRF (default), weighted sum, max,
intersection, and the primary path leading."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from trident.retrieval.enums import parse_member
from trident.retrieval.path_names import PathName, PathRun
from trident.store.protocols import ScoredId

# k=60 is the value of the original RRF paper (Cormack et al., 2009): it damps the head of each list so that
# agreement between lists outweighs one list's top rank.
DEFAULT_RRF_K = 60.0


class FusionMethod(StrEnum):
    RRF = "rrf"
    WEIGHTED_SUM = "weighted_sum"
    MAX = "max"
    INTERSECTION = "intersection"

    @classmethod
    def parse(cls, name: str) -> FusionMethod:
        """The method a name means.

        Raises:
            ArgumentError: no method has that name; the message lists the known ones.
        """
        return parse_member(cls, name, "fusion")


@dataclass(frozen=True)
class FusedItem:
    id: str
    score: float
    ranks: dict[PathRun, int | None]


# Each path run's ranked hits, and the weight of each run's list in the fusion (1.0 when absent).
Lists = Mapping[PathRun, Sequence[ScoredId]]
Weights = Mapping[PathRun, float]
# Per hit id, each run's term in its fused score.
Terms = dict[str, dict[PathRun, float]]


class Fuser(Protocol):
    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]: ...

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        """Per id, each list's term in its fused score (what `explain` shows)."""
        ...


def _ranks(lists: Lists) -> dict[str, dict[PathRun, int | None]]:
    ranks: dict[str, dict[PathRun, int | None]] = {}
    for name, hits in lists.items():
        for rank, hit in enumerate(hits, start=1):
            entry = ranks.setdefault(hit.id, dict.fromkeys(lists))
            if entry[name] is None:
                entry[name] = rank
    return ranks


def _sorted(scores: dict[str, float], ranks: dict[str, dict[PathRun, int | None]]) -> list[FusedItem]:
    return sorted((FusedItem(i, s, ranks[i]) for i, s in scores.items()), key=lambda item: (-item.score, item.id))


def _normalised(hits: Sequence[ScoredId]) -> dict[str, float]:
    """Scores mapped to 0..1 within their list; engines' raw scales (BM25, cosine) are not comparable."""
    if not hits:
        return {}
    high, low = max(h.score for h in hits), min(h.score for h in hits)
    span = high - low
    return {h.id: (h.score - low) / span if span > 0 else 1.0 for h in hits}


def _normalised_terms(lists: Lists, weights: Weights | None) -> Terms:
    out: Terms = {}
    for name, hits in lists.items():
        weight = 1.0 if weights is None else weights.get(name, 1.0)
        for id_, value in _normalised(hits).items():
            out.setdefault(id_, {})[name] = weight * value
    return out


@dataclass(frozen=True)
class RRF:
    k: float = DEFAULT_RRF_K

    def __post_init__(self) -> None:
        if self.k <= 0:
            raise ValueError(f"RRF k must be > 0, got {self.k}")

    def __str__(self) -> str:
        return f"rrf(k={self.k:g})"

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        out: Terms = {}
        for name, hits in lists.items():
            weight = 1.0 if weights is None else weights.get(name, 1.0)
            for rank, hit in enumerate(hits, start=1):
                out.setdefault(hit.id, {}).setdefault(name, weight / (self.k + rank))
        return out

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        """Sum of weight / (k + rank) over the lists each id appears in; rank is 1-based."""
        scores = {id_: sum(t.values()) for id_, t in self.terms(lists, weights).items()}
        return _sorted(scores, _ranks(lists))


@dataclass(frozen=True)
class WeightedSum:
    def __str__(self) -> str:
        return "weighted_sum(min-max normalised)"

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        return _normalised_terms(lists, weights)

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        scores = {id_: sum(t.values()) for id_, t in self.terms(lists, weights).items()}
        return _sorted(scores, _ranks(lists))


@dataclass(frozen=True)
class MaxScore:
    def __str__(self) -> str:
        return "max(min-max normalised)"

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        return _normalised_terms(lists, weights)

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        scores = {id_: max(t.values()) for id_, t in self.terms(lists, weights).items()}
        return _sorted(scores, _ranks(lists))


@dataclass(frozen=True)
class Intersection:
    """Only items every non-empty list found, ordered by RRF."""

    inner: RRF = RRF()

    def __str__(self) -> str:
        return f"intersection({self.inner})"

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        return self.inner.terms(lists, weights)

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        present = [{h.id for h in hits} for hits in lists.values() if hits]
        common = set.intersection(*present) if present else set()
        return [item for item in self.inner.fuse(lists, weights) if item.id in common]


@dataclass(frozen=True)
class PrimaryFirst:
    """The route's primary path leads: its top `depth` hits (over the query and its expansions) come first, in its
    own order, then everything else in the inner fusion's order.

    No second list can push a hit the primary path is sure of below one it never found (RRF's flat 1/(k+rank) does
    exactly that to a precise graph walk). With `reorder`, the head is ordered by the inner fusion instead, so the
    other paths may reorder, but never displace, the primary's head. A primary path that found nothing (the graph
    when the query names no indexed entity) leaves the inner fusion unchanged.
    """

    inner: Fuser
    primary: PathName
    depth: int = 5
    reorder: bool = False

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"primary depth must be >= 1, got {self.depth}")

    def __str__(self) -> str:
        order = ", reordered" if self.reorder else ""
        return f"{self.inner} with {self.primary} leading (top {self.depth}{order})"

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        return self.inner.terms(lists, weights)

    def head(self, lists: Lists) -> list[str]:
        """The primary path's top ids, over the query and its expansions, in rank order."""
        firsts = [hits[: self.depth] for run, hits in lists.items() if run.path == self.primary]
        by_rank = [hits[rank].id for rank in range(self.depth) for hits in firsts if rank < len(hits)]
        return list(dict.fromkeys(by_rank))

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        fused = self.inner.fuse(lists, weights)
        head = self.head(lists)
        if not head:
            return fused
        chosen = set(head)
        if self.reorder:
            leading = [item for item in fused if item.id in chosen]
        else:
            by_id = {item.id: item for item in fused}
            leading = [by_id[id_] for id_ in head]
        return leading + [item for item in fused if item.id not in chosen]


def make_fuser(method: FusionMethod | str = FusionMethod.RRF, *, k: float = DEFAULT_RRF_K) -> Fuser:
    """The fuser for a method name.

    Raises:
        ArgumentError: an unknown method (the message lists the known ones).
        ValueError: k <= 0.
    """
    chosen = FusionMethod.parse(method)
    if chosen is FusionMethod.RRF:
        return RRF(k)
    if chosen is FusionMethod.WEIGHTED_SUM:
        return WeightedSum()
    if chosen is FusionMethod.MAX:
        return MaxScore()
    return Intersection(RRF(k))
