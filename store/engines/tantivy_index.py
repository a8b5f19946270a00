"""BM25 over chunks with Tantivy: body, title, split identifiers and path as separately boosted fields."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import tantivy

from trident.store.crashpoints import crash_point
from trident.store.names.identifiers import identifier_words
from trident.store.protocols import ScoredId, SearchFilter
from trident.store.schema import Chunk

# Symbol names say most about what a chunk is about. Titles (headings, passage titles) help less than body text:
# at 2.0 they cost 0.08 nDCG@10 on SciFact train (0.617 -> 0.699 at 0.5); paths carry code folder words.
FIELD_BOOSTS = {"body": 1.0, "title": 0.5, "symbols": 2.5, "path": 0.7}
# Words a query writes apart that a name writes as one ("file name", `find_lexer_class_for_filename`) are looked for
# in the names of definitions and files only. Measured on the code questions of bench/code_search.py, MRR@10 0.644 ->
# 0.655 (held out 0.693 -> 0.707; "file name", "time stamp", "white space" in names); in every field instead, 0.656,
# but CoSQA lost 0.0045 MRR@10 (`linearregression`, `fullscreen`, `oneline` in bodies of other snippets). 2Wiki,
# SciFact and CoSQA are unchanged with names only.
NAME_BOOSTS = {name: FIELD_BOOSTS[name] for name in ("symbols", "path")}
PHRASE_BOOST = 1.5
WRITER_HEAP_BYTES = 64 * 1024 * 1024
TIE_MARGIN = 16

_QUERY_WORD = re.compile(r"[A-Za-z0-9]+")


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    for raw in ("id", "doc_id", "project", "tenant"):
        builder.add_text_field(raw, stored=raw == "id", tokenizer_name="raw")
    builder.add_text_field("body", tokenizer_name="en_stem")
    builder.add_text_field("title", tokenizer_name="en_stem")
    builder.add_text_field("symbols", tokenizer_name="en_stem")
    builder.add_text_field("path", tokenizer_name="default")
    return builder.build()


class TantivyTextIndex:
    """A Tantivy index of chunks; one writer at a time, opened only while writing.

    A read-only index is a published generation, which never changes: it reloads only when told to and refuses
    writes.
    """

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self._path = path
        self._read_only = read_only
        self._schema = _schema()
        self._index = tantivy.Index(self._schema, path=str(path), reuse=True)
        self._index.config_reader("Manual", 0)  # no watcher thread polling meta.json: commit() reloads
        self._writer: tantivy.IndexWriter | None = None

    def _get_writer(self) -> tantivy.IndexWriter:
        if self._read_only:
            raise RuntimeError(f"the lexical index at {self._path} is a published generation; it is read-only")
        if self._writer is None:
            self._writer = self._index.writer(heap_size=WRITER_HEAP_BYTES, num_threads=1)
        return self._writer

    def upsert(self, chunks: Sequence[Chunk]) -> None:
        writer = self._get_writer()
        for chunk in chunks:
            writer.delete_documents_by_term("id", chunk.id)
            writer.add_document(
                tantivy.Document(
                    id=chunk.id,
                    doc_id=chunk.doc_id,
                    project=chunk.project,
                    tenant=chunk.tenant,
                    body=chunk.text + "\n" + identifier_words(chunk.text),
                    title=chunk.title + " " + identifier_words(chunk.title),
                    symbols=identifier_words(" ".join(chunk.symbols)),
                    path=identifier_words(chunk.path),
                )
            )

    def delete_documents(self, doc_ids: Iterable[str]) -> None:
        writer = self._get_writer()
        for doc_id in doc_ids:
            writer.delete_documents_by_term("doc_id", doc_id)

    def commit(self) -> None:
        if self._writer is not None:
            crash_point("lexical.commit")
            self._writer.commit()
            self._writer.wait_merging_threads()
            self._writer = None
        self._index.reload()

    def rollback(self) -> None:
        if self._writer is not None:
            self._writer.rollback()
            self._writer = None

    def _text_query(self, query: str) -> tantivy.Query | None:
        words = identifier_words(" ".join(_QUERY_WORD.findall(query))).split()
        if not words:
            return None
        terms = self._index.parse_query(" ".join(words), list(FIELD_BOOSTS), field_boosts=FIELD_BOOSTS)
        joined = compounds(words)
        if joined:  # matched where code writes them as one word: in the names of definitions and files
            named = self._index.parse_query(" ".join(joined), list(NAME_BOOSTS), field_boosts=NAME_BOOSTS)
            terms = tantivy.Query.boolean_query([(tantivy.Occur.Should, terms), (tantivy.Occur.Should, named)])
        if len(words) < 2:
            return terms
        phrase = tantivy.Query.boost_query(
            self._index.parse_query('"' + " ".join(words) + '"', ["body", "title"]), PHRASE_BOOST
        )
        return tantivy.Query.boolean_query([(tantivy.Occur.Should, terms), (tantivy.Occur.Should, phrase)])

    def _filter(self, where: SearchFilter) -> list[tuple[tantivy.Occur, tantivy.Query]]:
        clauses = [(tantivy.Occur.Must, tantivy.Query.term_query(self._schema, "tenant", where.tenant))]
        if where.projects is not None:
            projects = [
                (tantivy.Occur.Should, tantivy.Query.term_query(self._schema, "project", project))
                for project in where.projects
            ]
            clauses.append((tantivy.Occur.Must, tantivy.Query.boolean_query(projects)))
        return clauses

    def search(self, query: str, limit: int, where: SearchFilter) -> list[ScoredId]:
        """BM25 hits, best first; equal scores are ordered by id so results never depend on segment layout."""
        text = self._text_query(query)
        if text is None or limit <= 0 or where.projects == ():
            return []
        full = tantivy.Query.boolean_query([(tantivy.Occur.Must, text), *self._filter(where)])
        searcher = self._index.searcher()
        # Over-fetch so that ties at the cut-off are broken by id, not by whichever segment Tantivy read first.
        hits = searcher.search(full, limit + TIE_MARGIN, count=False).hits
        scored = [ScoredId(searcher.doc(address)["id"][0], float(score)) for score, address in hits]
        return sorted(scored, key=lambda hit: (-hit.score, hit.id))[:limit]

    def matches(self, query: str, tenant: str, projects: Sequence[str]) -> dict[str, int]:
        """Project -> how many of its chunks match the query's words (what `search` would rank there), for each of
        `projects` that has any: a count per project, nothing ranked or read."""
        text = self._text_query(query)
        if text is None:
            return {}
        searcher, counts = self._index.searcher(), {}
        for project in projects:
            where = self._filter(SearchFilter(tenant, (project,)))
            found = searcher.search(tantivy.Query.boolean_query([(tantivy.Occur.Must, text), *where]), 1, count=True)
            if n := int(found.count or 0):  # type: ignore[attr-defined]  # stub lacks it
                counts[project] = n
        return counts

    def ids(self, tenant: str) -> set[str]:
        """Every chunk id of a tenant (for consistency checks, not for queries)."""
        searcher = self._index.searcher()
        query = tantivy.Query.term_query(self._schema, "tenant", tenant)
        hits = searcher.search(query, max(int(searcher.num_docs), 1), count=False).hits
        return {searcher.doc(address)["id"][0] for _, address in hits}

    def count(self, tenant: str | None = None) -> int:
        searcher = self._index.searcher()
        if tenant is None:
            return int(searcher.num_docs)
        query = tantivy.Query.term_query(self._schema, "tenant", tenant)
        return int(searcher.search(query, 1, count=True).count or 0)  # type: ignore[attr-defined]  # stub lacks it


_FUNCTION_WORDS = frozenset(
    {"the", "and", "for", "how", "does", "what", "where", "which", "when", "who", "why", "whom", "whose", "with"}
    | {"from", "that", "this", "these", "those", "into", "onto", "are", "was", "were", "can", "could", "not", "has"}
    | {"have", "had", "its", "their", "them", "they", "you", "your", "our", "all", "any", "some", "each"}
)


def compounds(words: list[str]) -> list[str]:
    """Adjacent words written apart that code writes as one ("file name" -> `filename`, "time out" -> `timeout`),
    for a query to match either form; a word of fewer than three letters or a function word joins nothing."""
    joinable = [w.isalpha() and len(w) >= 3 and w not in _FUNCTION_WORDS for w in words]
    pairs = zip(itertools.pairwise(words), itertools.pairwise(joinable), strict=True)
    return [a + b for (a, b), (ok_a, ok_b) in pairs if ok_a and ok_b]
