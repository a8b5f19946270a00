"""Fusing the ranked lists of a search's path runs behind one Fuser protocol: RRF (default), weighted sum, max,
intersection, the primary path leading, and a primary path too unsure to lead adding only what it alone found."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple, Protocol

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


class FusedItem(NamedTuple):
    """One id of the fused ranking and its fused score. A tuple, and its ranks looked up when asked: a search fuses
    hundreds of ids and shows ten."""

    id: str
    score: float
    found: RunRanks | None = None  # the fused lists' ranks, shared by the ranking's items

    @property
    def ranks(self) -> dict[PathRun, int | None]:
        """The id's first rank in each fused list (None where the list does not hold it)."""
        return self.found.of(self.id) if self.found is not None else {}


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


class RunRanks:
    """Each fused list's first rank (1-based) of every id it holds."""

    def __init__(self, lists: Lists) -> None:
        self._runs = list(lists)
        self._firsts: list[dict[str, int]] = []
        for hits in lists.values():
            first: dict[str, int] = {}
            for rank, hit in enumerate(hits, start=1):
                first.setdefault(hit.id, rank)  # a later repeat does not move it
            self._firsts.append(first)

    def of(self, id_: str) -> dict[PathRun, int | None]:
        return {run: first.get(id_) for run, first in zip(self._runs, self._firsts, strict=True)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RunRanks) and (self._runs, self._firsts) == (other._runs, other._firsts)

    __hash__ = None  # type: ignore[assignment]  # mutable lists inside, as the dict it stands for


def _ranked(lists: Lists, scores: dict[str, float]) -> list[FusedItem]:
    """The scored ids best first, ties by id."""
    found = RunRanks(lists)
    return [FusedItem(id_, scores[id_], found) for id_ in sorted(scores, key=lambda id_: (-scores[id_], id_))]


def _normalised(hits: Sequence[ScoredId]) -> dict[str, float]:
    """Scores mapped to 0..1 within their list; engines' raw scales (BM25, cosine) are not comparable."""
    if not hits:
        return {}
    high, low = max(h.score for h in hits), min(h.score for h in hits)
    span = high - low
    return {h.id: (h.score - low) / span if span > 0 else 1.0 for h in hits}


# One list's term for each id it holds, given the list's weight.
ListTerms = Callable[[Sequence[ScoredId], float], dict[str, float]]


def _weighted(hits: Sequence[ScoredId], weight: float) -> dict[str, float]:
    return {id_: weight * value for id_, value in _normalised(hits).items()}


def _terms(lists: Lists, weights: Weights | None, of_list: ListTerms) -> Terms:
    """Each id's term from every list holding it."""
    out: Terms = {}
    for name, hits in lists.items():
        for id_, term in of_list(hits, 1.0 if weights is None else weights.get(name, 1.0)).items():
            out.setdefault(id_, {})[name] = term
    return out


def _summed(lists: Lists, weights: Weights | None, of_list: ListTerms) -> dict[str, float]:
    """Each id's terms added up, list by list (one pass: no table of terms per id)."""
    scores: dict[str, float] = {}
    for name, hits in lists.items():
        for id_, term in of_list(hits, 1.0 if weights is None else weights.get(name, 1.0)).items():
            scores[id_] = scores.get(id_, 0) + term
    return scores


@dataclass(frozen=True)
class RRF:
    k: float = DEFAULT_RRF_K

    def __post_init__(self) -> None:
        if self.k <= 0:
            raise ValueError(f"RRF k must be > 0, got {self.k}")

    def __str__(self) -> str:
        return f"rrf(k={self.k:g})"

    def _list_terms(self, hits: Sequence[ScoredId], weight: float) -> dict[str, float]:
        """weight / (k + rank) at each id's first rank in the list (1-based)."""
        out: dict[str, float] = {}
        for rank, hit in enumerate(hits, start=1):
            if hit.id not in out:
                out[hit.id] = weight / (self.k + rank)
        return out

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        return _terms(lists, weights, self._list_terms)

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        """Sum of weight / (k + rank) over the lists each id appears in; rank is 1-based."""
        return _ranked(lists, _summed(lists, weights, self._list_terms))


@dataclass(frozen=True)
class WeightedSum:
    def __str__(self) -> str:
        return "weighted_sum(min-max normalised)"

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        return _terms(lists, weights, _weighted)

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        return _ranked(lists, _summed(lists, weights, _weighted))


@dataclass(frozen=True)
class MaxScore:
    def __str__(self) -> str:
        return "max(min-max normalised)"

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        return _terms(lists, weights, _weighted)

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        scores = {id_: max(t.values()) for id_, t in self.terms(lists, weights).items()}
        return _ranked(lists, scores)


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
        return _head(lists, self.primary, self.depth)

    def unsure(self) -> PrimaryMerged:
        """The fuser for a search whose primary run is not sure of its head (a walk from guessed seeds)."""
        return PrimaryMerged(self.inner, self.primary, self.depth)

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        fused = self.inner.fuse(lists, weights)
        head = self.head(lists)
        if not head:
            return fused
        chosen = set(head)
        if self.reorder:
            leading = [item for item in fused if item.id in chosen]
        else:
            # The inner fusion may have dropped some of the head (an intersection keeps only what every list found):
            # what it dropped stays dropped, the rest of the head leads in the primary's order.
            by_id = {item.id: item for item in fused}
            leading = [by_id[id_] for id_ in head if id_ in by_id]
        return _descending(leading + [item for item in fused if item.id not in chosen])


def _head(lists: Lists, path: PathName, depth: int) -> list[str]:
    """A path's top `depth` ids over the query and its expansions, in rank order (first ranks of every run first)."""
    firsts = [hits[:depth] for run, hits in lists.items() if run.path == path]
    by_rank = [hits[rank].id for rank in range(depth) for hits in firsts if rank < len(hits)]
    return list(dict.fromkeys(by_rank))


@dataclass(frozen=True)
class PrimaryMerged:
    """A primary path not sure enough to lead (a walk from seeds the text does not surely name): the inner
    fusion's order stands, and only what the primary alone found near its top is merged in. Those are the ids in
    its top `depth` that no other run holds in its own top `depth` (for a walk seeded from the lexical and dense
    heads: the second hops it reached from them); each goes before the first fused id the primary scores lower.

    A sum of min-max normalised scores sinks exactly those ids: the other lists' heads score near 1 there, and a
    walk's second hop scores a fraction of its top seed. Every other id keeps the inner fusion's order.
    """

    inner: Fuser
    primary: PathName
    depth: int = 5

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"primary depth must be >= 1, got {self.depth}")

    def __str__(self) -> str:
        return f"{self.inner} with what only {self.primary} found in its top {self.depth} merged in"

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        return self.inner.terms(lists, weights)

    def own(self, lists: Lists) -> list[str]:
        """The ids in the primary's head that no other run has in its head, in the primary's order."""
        others = {hit.id for run, hits in lists.items() if run.path != self.primary for hit in hits[: self.depth]}
        return [id_ for id_ in _head(lists, self.primary, self.depth) if id_ not in others]

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        fused = self.inner.fuse(lists, weights)
        own = set(self.own(lists))
        if not own:
            return fused
        scores: dict[str, float] = {}
        for run, hits in lists.items():
            if run.path == self.primary:
                for hit in hits:
                    scores[hit.id] = max(scores.get(hit.id, hit.score), hit.score)
        pending = [item for item in fused if item.id in own]
        pending.sort(key=lambda item: (-scores[item.id], item.id))
        merged: list[FusedItem] = []
        for item in (item for item in fused if item.id not in own):
            while pending and scores[pending[0].id] > scores.get(item.id, float("-inf")):
                merged.append(pending.pop(0))
            merged.append(item)
        return _descending(merged + pending)


def _descending(items: list[FusedItem]) -> list[FusedItem]:
    """The ranking with the scores it is ordered by: an item placed above others that the inner fusion scored
    higher (a primary path's head, a walk's own find merged in) shows the highest score below it, so the scores
    shown never rise down the ranking (each path's own scores stay in `terms`, what `explain` shows)."""
    out = list(items)
    floor = float("-inf")
    for i in range(len(out) - 1, -1, -1):
        floor = max(floor, out[i].score)
        if out[i].score < floor:
            out[i] = out[i]._replace(score=floor)
    return out


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
