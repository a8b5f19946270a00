"""The community path for broad questions: the community reports nearest the query, then the chunks that define
each community's central entities (community rank first, then centrality inside the community)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from trident.store.engines.community_index import CommunityReport
from trident.store.mapped.community_rows import CommunitySearch
from trident.store.protocols import ScoredId

# A broad question usually spans a few parts of the system; more than three and the list is the whole index.
COMMUNITIES_PER_QUERY = 3
# Looked at before the project filter, so that a filter still leaves some communities to choose from.
COMMUNITY_CANDIDATES = 20


@dataclass(frozen=True)
class CommunityMatch:
    """A community the path drew chunks from: what search diagnostics show."""

    report: CommunityReport
    score: float
    chunks: tuple[str, ...]

    def summary(self) -> dict[str, object]:
        return {
            "id": self.report.id,
            "title": self.report.title,
            "level": self.report.level,
            "size": self.report.size,
            "score": round(self.score, 4),
            "projects": self.report.projects,
            "chunks": list(self.chunks),
        }


def community_hits(
    index: CommunitySearch,
    query_vector: np.ndarray,
    tenant: str,
    projects: Sequence[str] | None,
    limit: int,
) -> tuple[list[ScoredId], list[CommunityMatch]]:
    """Representative chunks of the nearest communities (with members in `projects`, when given), scored 1/rank
    in order of community rank, then centrality; a chunk already drawn from a better community is not repeated."""
    wanted = set(projects) if projects is not None else None
    matches: list[CommunityMatch] = []
    seen: set[str] = set()
    for report, score in index.search(query_vector, COMMUNITY_CANDIDATES, tenant):
        if wanted is not None and not wanted.intersection(report.projects):
            continue
        fresh = tuple(c for c in report.chunks if c not in seen)
        seen.update(fresh)
        matches.append(CommunityMatch(report, score, fresh))
        if len(matches) == COMMUNITIES_PER_QUERY:
            break
    ordered = [chunk for match in matches for chunk in match.chunks][:limit]
    return [ScoredId(chunk, 1.0 / rank) for rank, chunk in enumerate(ordered, start=1)], matches


def community_of(matches: Sequence[CommunityMatch], chunk_id: str) -> CommunityMatch | None:
    """The matched community a chunk was drawn from, if any."""
    return next((m for m in matches if chunk_id in m.chunks), None)
