"""A search answer in full or compact: with detail='compact' each hit is its citation, the import name of what it
defines, a one-line summary and the few lines that hold the query's words (a ten-hit answer in about a third of
the full one's characters, so that an agent can afford several searches); `omitted`, `next_call` and `message`
stay as in full answers."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from pydantic import BaseModel, Field

from trident.retrieval.definitions import ChunkReader
from trident.retrieval.omitted import Omitted
from trident.retrieval.search_engine import Diagnostics, SearchHit, SearchResult
from trident.retrieval.source_kinds import SourceKind
from trident.retrieval.written_names import WrittenNames
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Chunk, Entity
from trident.tools.compact_text import best_lines, cut, query_words, summarize

SCORE_DIGITS = 3
# A compact answer's characters (its JSON as sent): a share for the fields beside the hits (the query, the calls of
# `omitted`), and one for each hit: a ten-hit answer within 2,500. Past it their text is cut, from the last hit up.
ANSWER_CHARS = 400
HIT_CHARS = 210
SHORT_SUMMARY_CHARS = 60  # a summary cut to this, with its hit's lines past the best one, when the answer is over
_FULL = SearchResult.model_fields  # the fields both shapes share keep the full answer's descriptions


def _unset(value: object) -> bool:
    return value is None


def _empty(value: object) -> bool:
    return not value


class CompactHit(BaseModel):
    rank: int
    citation: str
    name: str = Field(description="Import name of the symbol the chunk defines (code), else its title or heading")
    kind: SourceKind
    score: float
    summary: str = Field(description="First line of the definition's docs, else its signature; a document's first line")
    lines: list[str] = Field(
        default_factory=list,
        exclude_if=_empty,
        description="The lines holding most query words, best first, as `L<number>: <line>` (left out when none)",
    )


class SearchAnswer(BaseModel):
    """The search tool's answer: the engine's (SearchResult) with its hits in full, or with detail='compact' its hits
    compact and neither diagnostics nor entities."""

    query: str
    hits: list[SearchHit] | list[CompactHit]
    diagnostics: Diagnostics | None = Field(None, exclude_if=_unset, description="In full answers: what the search did")
    entities: list[str] | None = Field(None, exclude_if=_unset, description=_FULL["entities"].description)
    truncated: bool = Field(False, description=_FULL["truncated"].description)
    next_call: str | None = Field(None, description=_FULL["next_call"].description)
    omitted: list[Omitted] = Field(default_factory=list, description=_FULL["omitted"].description)
    message: str | None = Field(None, description=_FULL["message"].description)

    @classmethod
    def full(cls, result: SearchResult) -> SearchAnswer:
        return cls.model_validate(dict(result))

    @classmethod
    def compact(cls, result: SearchResult, hits: list[CompactHit]) -> SearchAnswer:
        kept = {name: getattr(result, name) for name in ("query", "truncated", "next_call", "omitted", "message")}
        return cls(hits=hits, **kept)


def compact_answer(result: SearchResult, directory: EntityDirectory | None, read: ChunkReader) -> SearchAnswer:
    """The answer with its hits compact, within ANSWER_CHARS + HIT_CHARS a hit: each names what it defines by import
    name when the entity directory is built (else by title), and a piece of a longer definition is summed up by the
    definition's first piece (`read` fetches those)."""
    answer = SearchAnswer.compact(result, CompactHits(directory, read).of(result.hits, result.query))
    fit(answer, ANSWER_CHARS + HIT_CHARS * len(answer.hits))
    return answer


def fit(answer: SearchAnswer, limit: int) -> None:
    """Cut the compact hits' text until the answer's JSON is within `limit` characters, from the last hit up (the
    lower a hit ranks, the less of it is kept): each hit to its best line and a summary of SHORT_SUMMARY_CHARS, then,
    if that was not enough, each hit to its summary alone."""
    hits = [hit for hit in answer.hits if isinstance(hit, CompactHit)]
    sizes = [len(hit.model_dump_json()) for hit in hits]
    beside = len(answer.model_dump_json()) - sum(sizes)  # the other fields, and the commas between the hits
    for shorten in (_best_line_only, _summary_only):
        for i in reversed(range(len(hits))):
            if beside + sum(sizes) <= limit:
                return
            shorten(hits[i])
            sizes[i] = len(hits[i].model_dump_json())


def _best_line_only(hit: CompactHit) -> None:
    del hit.lines[1:]
    hit.summary = cut(hit.summary, SHORT_SUMMARY_CHARS)


def _summary_only(hit: CompactHit) -> None:
    hit.lines.clear()


class CompactHits:
    """Hits made compact, over one entity directory (which names what a chunk defines) and one chunk reader."""

    def __init__(self, directory: EntityDirectory | None, read: ChunkReader) -> None:
        self.directory = directory
        self.names = WrittenNames(directory) if directory is not None else None
        self.read = read

    def of(self, hits: Sequence[SearchHit], query: str) -> list[CompactHit]:
        wanted = query_words(query)
        defined = {hit.id: self.defined(hit.chunk) for hit in hits if hit.chunk is not None}
        # A piece of a longer definition shows its own lines, and the signature of the definition's first piece.
        heads = self.read(sorted({e.chunk_id for i, e in defined.items() if e and e.chunk_id and e.chunk_id != i}))
        compact = []
        for hit in hits:
            entity = defined.get(hit.id)
            head_id = entity.chunk_id if entity is not None else None
            head = heads.get(head_id) if head_id and head_id != hit.id else None
            compact.append(self.hit(hit, wanted, entity, head))
        return compact

    def hit(self, hit: SearchHit, wanted: frozenset[str], entity: Entity | None, head: Chunk | None) -> CompactHit:
        text, first = (hit.chunk.text, hit.chunk.start_line) if hit.chunk is not None else (hit.snippet, hit.start_line)
        code = hit.source_kind is SourceKind.CODE
        own = summarize(text, code)
        summary = summarize(head.text, code) if head is not None else own
        return CompactHit(
            rank=hit.rank,
            citation=hit.citation,
            name=self.name(hit, entity),
            kind=hit.source_kind or SourceKind.DOC,  # every hit is made from a chunk, which sets it
            score=round(hit.score, SCORE_DIGITS),
            summary=summary.text,
            lines=best_lines(text, first, wanted, own.shown if head is None else ()),
        )

    def name(self, hit: SearchHit, entity: Entity | None) -> str:
        """What the hit is: the import name of the entity it defines, else its title, else its file's name."""
        if entity is not None and self.names is not None:
            return self.names.import_name(entity)
        return hit.title or posixpath.basename(hit.path)

    def defined(self, chunk: Chunk | None) -> Entity | None:
        """The entity a chunk defines: the one its title names (`Client.send`) in its file; None for a chunk that
        defines nothing, or without a directory."""
        if chunk is None or self.directory is None or not chunk.symbols or not chunk.title:
            return None
        local = chunk.title
        found = [
            e
            for e in self.directory.named(local.rsplit(".", 1)[-1])
            if e.project == chunk.project
            and e.path == chunk.path
            and (e.qualified_name == local or e.qualified_name.endswith(f".{local}"))
        ]
        return min(found, key=lambda e: (e.chunk_id != chunk.id, len(e.qualified_name), e.id), default=None)
