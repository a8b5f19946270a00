"""Search, stage 4: the fused ranking made hits. Chunks fetched a window at a time, near-identical ones merged, the
first `offset` hits skipped (a page further on), and the list cut at top_k or at the token budget."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from pydantic import BaseModel, Field, PrivateAttr

from trident.retrieval.definitions import definition_key, definition_spans
from trident.retrieval.flags import EvidenceFlag
from trident.retrieval.fusion import FusedItem, Terms
from trident.retrieval.omitted import OmitReason, Omitted, breakdown
from trident.retrieval.path_names import PathName, PathRun
from trident.retrieval.source_kinds import SourceKind, source_kind
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import Chunk
from trident.store.tokens import json_tokens

SNIPPET_CHARS = 320
# The explanation's term for the score a hit shows beyond its paths' sum: the route ranked it above hits they scored
# higher (a primary path's head), and the scores shown never rise down the ranking.
RANKED_ABOVE = "ranked_above"


def _unset(value: object) -> bool:
    return value is None


def _empty(value: object) -> bool:
    return not value


FETCH_MARGIN = 5  # chunks fetched beyond top_k at first, for the duplicates and filtered ones a page may hold
CANDIDATES_PER_HIT = 3  # how deep into the fused ranking a search looks: (offset + top_k) times this
DUPLICATE_MARGIN_TOKENS = 30
# Set once the page is cut (they need git or the other hits): last_modified, and a flag or two on a few hits.
LATER_FIELDS_TOKENS = 15
HIT_DEPTH = 2  # a hit's place in the answer: {"hits": [{...}]}


class SearchHit(BaseModel):
    rank: int
    id: str
    project: str
    path: str
    start_line: int
    end_line: int
    score: float
    snippet: str
    title: str = ""
    citation: str
    sources: dict[str, int | None] = Field(description="Rank of this hit in each retrieval path, null if absent")
    entities: list[str] = Field(default_factory=list, description="Names of the symbols this chunk defines")
    duplicates: list[str] = Field(
        default_factory=list, description="Citations of near-identical chunks merged into this hit"
    )
    explanation: dict[str, float] | None = Field(
        default=None,
        description="With explain: each path's (and expansion's) contribution to the fused score, and "
        f"'{RANKED_ABOVE}' where the route placed the hit above hits the paths scored higher",
    )
    stale: bool | None = Field(
        default=None, exclude_if=_unset, description="True when the file changed on disk or is gone since indexing"
    )
    stale_reason: str | None = Field(
        default=None, exclude_if=_unset, description="When stale: what changed, and the command that refreshes it"
    )
    source_kind: SourceKind | None = Field(
        default=None,
        exclude_if=_unset,
        description="code, doc, config, passage (a corpus passage) or knowledge (written by add_knowledge)",
    )
    last_modified: str | None = Field(
        default=None,
        exclude_if=_unset,
        description="When the hit's lines last changed, ISO-8601 UTC: the last git commit touching them, else the "
        "file's modification time (left out for passages and knowledge)",
    )
    flags: list[EvidenceFlag] = Field(
        default_factory=list,
        exclude_if=_empty,
        description="Conflicts with other hits' statements of a setting, and references to code entities that are "
        "gone or called otherwise now (left out when none)",
    )
    _chunk: Chunk | None = PrivateAttr(default=None)  # the whole chunk, for the evidence checks after the cut

    def cover(self, start_line: int, end_line: int) -> None:
        """Cite these lines too: the span of the whole definition the hit is a piece of."""
        self.start_line, self.end_line = min(self.start_line, start_line), max(self.end_line, end_line)
        self.citation = f"{self.project}/{self.path}:L{self.start_line}-L{self.end_line}"

    @property
    def chunk(self) -> Chunk | None:
        """The chunk the hit shows (None for a hit not made from one)."""
        return self._chunk

    @classmethod
    def from_chunk(cls, chunk: Chunk, rank: int, score: float, sources: dict[str, int | None]) -> SearchHit:
        hit = cls(
            rank=rank,
            id=chunk.id,
            project=chunk.project,
            path=chunk.path,
            start_line=chunk.start_line,
            end_line=chunk.end_line,
            score=round(score, 6),
            snippet=snippet(chunk),
            title=chunk.title,
            citation=chunk.citation,
            sources=sources,
            entities=list(chunk.symbols[:10]),
            source_kind=source_kind(chunk),
        )
        hit._chunk = chunk
        return hit


def snippet(chunk: Chunk) -> str:
    text = chunk.text.strip()
    return text if len(text) <= SNIPPET_CHARS else text[:SNIPPET_CHARS].rstrip() + " …"


@dataclass
class Hits:
    """The hits so far, built one fused item at a time, and whether the token budget cut them short. A hit costs the
    tokens of its JSON as a client receives it; the first hit of a page is kept whatever it costs, so a page always
    moves on. Past the budget, the rest of the page's hits are counted (`unfit`), not kept."""

    paths: tuple[PathName, ...]
    top_k: int
    max_tokens: int | None
    terms: Terms | None  # with explain: each hit's terms per run
    offset: int = 0  # hits before this page: ranked and merged as usual, then left out
    hits: list[SearchHit] = field(default_factory=list)
    skipped: int = 0
    truncated: bool = False
    unfit: int = 0  # hits of this page the budget left out
    used_tokens: int = 0
    by_text: dict[str, SearchHit] = field(default_factory=dict)
    by_definition: dict[tuple[str, ...], SearchHit] = field(default_factory=dict)  # see `_definition`
    looked_at: int = 0  # items of the ranking looked at, in order
    elsewhere: Counter[str] = field(default_factory=Counter)  # candidates the project filter left out, by project

    @property
    def done(self) -> bool:
        return len(self.hits) + self.unfit == self.top_k

    def add(self, item: FusedItem, chunk: Chunk) -> None:
        """The item as the next hit, or as a duplicate of an earlier one; or, over the budget, one more left out."""
        sources = _path_ranks(item.ranks, self.paths)
        fingerprint = _fingerprint(chunk.text)
        first = self.by_text.get(fingerprint)
        if first is not None:
            # The same text in another file (a copy, a vendored module): one hit, the copy kept as corroboration
            # (past the budget, a hit shown takes no more room).
            if not self.truncated:
                first.duplicates.append(chunk.citation)
                first.sources = _best_ranks(first.sources, sources)
            return
        definition = definition_key(chunk)
        part_of = self.by_definition.get(definition) if definition is not None else None
        if part_of is not None:
            # Another piece of a definition too long for one chunk: the earlier hit cites the whole span instead.
            if not self.truncated:
                part_of.sources = _best_ranks(part_of.sources, sources)
            return
        hit = SearchHit.from_chunk(chunk, self.skipped + len(self.hits) + 1, item.score, sources)
        if self.terms is not None:
            terms = self.terms.get(item.id, {})
            hit.explanation = {run.label: round(value, 6) for run, value in terms.items()}
            lifted = item.score - sum(terms.values())
            if lifted > 1e-9:  # ranked above hits the paths scored higher (fusion._descending): by how much
                hit.explanation[RANKED_ABOVE] = round(lifted, 6)
        self.by_text[fingerprint] = hit
        if definition is not None:
            self.by_definition[definition] = hit
        if self.skipped < self.offset:
            self.skipped += 1
            return
        # Merged duplicates added later grow a hit a little: a margin of a citation's worth for each is kept free.
        self._admit(hit, DUPLICATE_MARGIN_TOKENS + LATER_FIELDS_TOKENS)

    def refit(self) -> None:
        """The page measured again once its hits are complete (flags and last_modified set after the cut can outgrow
        the margin kept for them): hits are dropped from the end, as `add` would have left them out, until it fits."""
        cut_before, page = self.truncated, self.hits
        self.hits, self.used_tokens, self.truncated = [], 0, False
        for hit in page:
            self._admit(hit, 0)
        self.truncated = self.truncated or cut_before

    def _admit(self, hit: SearchHit, margin: int) -> None:
        """The hit kept if the budget holds it (the page's first always is), else counted as left out."""
        if self.max_tokens is None:  # no budget: nothing to measure (the search tool always sets one)
            self.hits.append(hit)
            return
        cost = json_tokens(hit, depth=HIT_DEPTH) + margin
        if self.truncated or (self.hits and self.used_tokens + cost > self.max_tokens):
            self.truncated = True
            self.unfit += 1
            return
        self.used_tokens += cost
        self.hits.append(hit)

    def omitted(self, ranked: int) -> list[Omitted]:
        """What the project filter, the budget and top_k left out of this page (`ranked`: the ranking's length);
        the calls that show them are the search tool's to suggest."""
        omitted: list[Omitted] = []
        if self.skipped and not self.hits:
            detail = f"the {self.skipped} hit(s) the ranking holds, all before offset={self.offset}"
            omitted.append(Omitted(reason=OmitReason.OFFSET, count=self.skipped, detail=detail))
        if self.elsewhere:
            count = sum(self.elsewhere.values())
            detail = f"at least {count} candidate(s) in other projects ({breakdown(self.elsewhere)})"
            omitted.append(Omitted(reason=OmitReason.PROJECTS, count=count, at_least=True, detail=detail))
        if self.unfit:
            detail = f"{self.unfit} hit(s) of this page past max_tokens"
            omitted.append(Omitted(reason=OmitReason.MAX_TOKENS, count=self.unfit, detail=detail))
        elif self.done and ranked > self.looked_at:
            count = ranked - self.looked_at
            detail = f"{count} more ranked candidate(s) past top_k={self.top_k} (copies of a hit merge into it)"
            omitted.append(Omitted(reason=OmitReason.TOP_K, count=count, detail=detail))
        return omitted


def collect_hits(
    catalog: Catalog,
    views: GenerationViews,
    ranking: Sequence[FusedItem],
    *,
    paths: tuple[PathName, ...],
    top_k: int,
    projects: Sequence[str] | None,
    max_tokens: int | None,
    terms: Terms | None,
    offset: int = 0,
) -> Hits:
    """The ranking's chunks in the caller's projects as hits, after the first `offset` of them, up to top_k or the
    token budget; with `terms`, each hit explained by its terms per run. Counted on the way: the candidates in other
    projects, the hits past the budget, how far down the ranking the page went."""
    hits = Hits(paths, top_k, max_tokens, terms, offset)
    allowed = set(projects) if projects is not None else None
    considered = ranking[: (offset + top_k) * CANDIDATES_PER_HIT]
    # Chunks are fetched a window at a time: most searches need little more than offset + top_k of them, and each
    # costs a lookup; a window more is fetched only when duplicates or the project filter used some up.
    window = offset + top_k + FETCH_MARGIN
    for start in range(0, len(considered), window):
        block = considered[start : start + window]
        chunks = views.chunks(catalog, [item.id for item in block])
        for item in block:
            hits.looked_at += 1
            chunk = chunks.get(item.id)
            if chunk is None:
                continue
            if allowed is not None and chunk.project not in allowed:
                hits.elsewhere[chunk.project] += 1
                continue
            hits.add(item, chunk)
            if hits.done:
                return _whole_definitions(catalog, views, hits)
    return _whole_definitions(catalog, views, hits)


def _whole_definitions(catalog: Catalog, views: GenerationViews, hits: Hits) -> Hits:
    """Each hit that is a piece of a longer definition cites the whole definition."""
    documents = catalog.manifest.documents
    pieces = {
        hit.id: (hit.chunk, documents[hit.chunk.doc_id].chunk_ids)
        for hit in hits.hits
        if hit.chunk is not None and definition_key(hit.chunk) is not None and hit.chunk.doc_id in documents
    }
    spans = definition_spans(list(pieces.values()), partial(views.chunks, catalog)) if pieces else {}
    for hit in hits.hits:
        if hit.id in spans:
            hit.cover(*spans[hit.id])
    return hits


def _path_ranks(ranks: dict[PathRun, int | None], planned: Sequence[PathName]) -> dict[str, int | None]:
    """Each planned path's best rank for a hit over the query and its expansions; None where the path did not
    find it, failed or timed out."""
    out: dict[str, int | None] = dict.fromkeys(planned)
    for run, rank in ranks.items():
        current = out.get(run.path)
        if rank is not None and (current is None or rank < current):
            out[run.path] = rank
    return out


def _fingerprint(text: str) -> str:
    """Chunks equal up to whitespace and case count as one (copied or vendored code, duplicated docs): the text's
    words joined by single spaces, lower-cased."""
    return " ".join(text.split()).lower()


def _best_ranks(a: dict[str, int | None], b: dict[str, int | None]) -> dict[str, int | None]:
    return {k: min((r for r in (a.get(k), b.get(k)) if r is not None), default=None) for k in {**a, **b}}
