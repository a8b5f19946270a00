"""Search, stage 4b: the returned hits' evidence checked against each other and against the code, without a model.
Each hit gets when its lines last changed; facts the hits state are compared (conflicts); prose naming code that is
gone or called otherwise is marked (stale references). Nothing is dropped, only flagged."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from trident.retrieval.conflicts import Statement, flag_conflicts
from trident.retrieval.fact_readers import facts_of
from trident.retrieval.last_modified import stamp_last_modified
from trident.retrieval.search_hits import SearchHit
from trident.retrieval.stale_references import Citations, Definitions, stale_references
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory


@dataclass(frozen=True)
class EvidenceSummary:
    conflicts: int  # settings stated with disagreeing values (one per setting and kind of conflict)
    stale_references: int
    source_agreement: float | None  # None: no hits


def check_evidence(
    catalog: Catalog, directory: EntityDirectory | None, hits: Sequence[SearchHit], views: GenerationViews
) -> EvidenceSummary:
    """Stamp each hit's last change, then flag conflicts and stale references on the hits (blocking: git, the
    definitions' chunks); references only with the directory (None while it is still being built). The reader's
    `views` read the definitions' chunks (its mapped rows: a tenth of a millisecond where the graph store's lookups
    took milliseconds) and hold the pool and memories git blame runs in and fills (`GenerationViews.state`)."""
    stamp_last_modified(catalog, hits, views.state)
    statements: list[Statement] = []
    stale = 0
    definitions, citations = chunk_readers(catalog, views)
    for hit in hits:
        chunk = hit.chunk
        if chunk is None or hit.source_kind is None:
            continue
        statements += [Statement(hit, fact) for fact in facts_of(chunk, hit.source_kind)]
        if directory is not None:
            flags = stale_references(chunk, hit.source_kind, directory, definitions, citations)
            hit.flags.extend(flags)
            stale += len(flags)
    conflicts = flag_conflicts(statements)
    agreed = [hit for hit in hits if _corroborated(hit) or hit.id in conflicts.corroborated]
    agreement = round(len(agreed) / len(hits), 3) if hits else None
    return EvidenceSummary(len(conflicts.found), stale, agreement)


def chunk_readers(catalog: Catalog, views: GenerationViews) -> tuple[Definitions, Citations]:
    """How the definitions' chunks and citations are read: from the reader's mapped chunk rows."""
    chunks = partial(views.chunks, catalog)

    def citations(ids: Sequence[str]) -> dict[str, str]:
        return {chunk_id: chunk.citation for chunk_id, chunk in chunks(ids).items()}

    return chunks, citations


def _corroborated(hit: SearchHit) -> bool:
    """Found by two paths or more, or merged with a copy in another file."""
    return sum(rank is not None for rank in hit.sources.values()) >= 2 or bool(hit.duplicates)
