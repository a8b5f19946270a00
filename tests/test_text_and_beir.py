"""Plain text chunking by paragraphs, and BEIR collections: loading, passages as documents, titles as concepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED_EVAL, needs_shared
from trident.ingest.beir import (
    BeirDocument,
    is_beir_folder,
    iter_corpus,
    load_qrels,
    load_queries,
    parse_beir_document,
    shared_titles,
)
from trident.ingest.chunk_tokens import CHUNK_TOKEN_BUDGET, estimate_tokens
from trident.ingest.text import parse_text, source_lines
from trident.store.schema import DocumentKind, EntityType, chunk_id

SCIFACT = SHARED_EVAL / "scifact"
SCIFACT_EXCERPT = Path(__file__).resolve().parent / "data" / "scifact-excerpt"


def _words(n: int, prefix: str = "w") -> str:
    """`n` estimated tokens: each word is one letter run, separated by spaces."""
    return " ".join(prefix * (i % 5 + 1) for i in range(n))


def test_paragraphs_are_grouped_greedily_up_to_the_budget_with_exact_line_spans() -> None:
    lines = [
        "alpha beta",  # 1: 3 tokens with line 2
        "gamma",
        "",
        "delta",  # 4: 1 token, merged
        "",
        _words(197),  # 6: 4 + 197 > 200 starts a chunk
        "",
        "",
        "epsilon zeta eta",  # 9: 197 + 4 > 200 starts another
        "theta",
    ]
    ex = parse_text("p", "notes/todo.txt", "\n".join(lines) + "\n", "p/notes/todo.txt", DocumentKind.TEXT)
    assert [(c.start_line, c.end_line) for c in ex.chunks] == [(1, 4), (6, 6), (9, 10)]
    assert ex.chunks[0].text == "alpha beta\ngamma\n\ndelta"
    assert ex.chunks[0].id == chunk_id("p", "notes/todo.txt", 1, 4, 0)
    assert {c.title for c in ex.chunks} == {"notes/todo.txt"}


def test_an_oversized_paragraph_is_split_by_lines_with_overlap() -> None:
    text = "intro\n\n" + "\n".join(_words(60) for _ in range(5)) + "\n"
    ex = parse_text("p", "big.txt", text, "p/big.txt", DocumentKind.TEXT)
    assert [(c.start_line, c.end_line) for c in ex.chunks] == [(1, 1), (3, 5), (4, 6), (5, 7)]
    assert all(estimate_tokens(c.text) <= CHUNK_TOKEN_BUDGET for c in ex.chunks)


def test_text_gets_one_document_entity_named_after_the_file() -> None:
    ex = parse_text("p", "conf/app.toml", "# App settings\nport = 8080\n", "p/conf/app.toml", DocumentKind.CONFIG)
    [doc] = ex.entities
    assert (doc.id, doc.type, doc.name) == ("document:p:conf/app.toml", EntityType.DOCUMENT, "app.toml")
    assert doc.aliases == ("app", "conf/app.toml")
    assert doc.description == "# App settings port = 8080"
    assert doc.chunk_id == ex.chunks[0].id
    assert ex.chunks[0].kind == DocumentKind.CONFIG


def test_code_without_a_grammar_keeps_its_language_on_chunks() -> None:
    ex = parse_text("p", "a.rb", "def x\nend\n", "p/a.rb", DocumentKind.CODE, language="ruby")
    assert [(c.kind, c.language) for c in ex.chunks] == [(DocumentKind.CODE, "ruby")]


def test_form_feeds_and_crlf_do_not_shift_line_numbers() -> None:
    assert source_lines("a\r\nb\x0cc\n\nd") == ["a", "b\x0cc", "", "d"]
    ex = parse_text("p", "x.sql", "int a;\r\n\x0c\r\n\r\nint b;\r\n", "p/x.sql", DocumentKind.CODE)
    assert [(c.start_line, c.end_line) for c in ex.chunks] == [(1, 4)]


def test_blank_text_gives_nothing() -> None:
    ex = parse_text("p", "empty.txt", "\n  \n", "p/empty.txt", DocumentKind.TEXT)
    assert (ex.chunks, ex.entities) == ([], [])


def _beir(folder: Path) -> Path:
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(
        '{"_id": "d1", "title": "Ada Lovelace", "text": "Wrote the first program."}\n'
        '{"_id": 2, "title": "", "text": "Untitled passage."}\n'
        "\n"
        '{"_id": "d3", "title": "Ada Lovelace", "text": "Born in London."}\n'
    )
    (folder / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "who wrote", "metadata": {"type": "person"}}\n{"_id": "q2", "text": "where born"}\n'
    )
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td3\t2\nq2\td1\t0\n")
    return folder


def test_a_folder_with_a_corpus_is_a_beir_collection(tmp_path: Path) -> None:
    assert not is_beir_folder(tmp_path)
    assert is_beir_folder(_beir(tmp_path / "set"))


def test_the_corpus_streams_documents_in_file_order(tmp_path: Path) -> None:
    docs = list(iter_corpus(_beir(tmp_path)))
    assert [(d.id, d.title, d.text) for d in docs] == [
        ("d1", "Ada Lovelace", "Wrote the first program."),
        ("2", "", "Untitled passage."),
        ("d3", "Ada Lovelace", "Born in London."),
    ]


def test_a_passage_is_a_document_at_its_id_with_a_one_line_citation(tmp_path: Path) -> None:
    first = next(iter_corpus(_beir(tmp_path)))
    ex = parse_beir_document("wiki", first)
    [chunk] = ex.chunks
    assert chunk.citation == "wiki/d1:L1-L1"
    assert (chunk.doc_id, chunk.path, chunk.kind, chunk.title) == (
        "wiki/d1",
        "d1",
        DocumentKind.PASSAGE,
        "Ada Lovelace",
    )
    assert chunk.text == "Wrote the first program."


def test_a_title_becomes_a_concept_entity_and_passages_sharing_a_title_each_define_one(tmp_path: Path) -> None:
    folder = _beir(tmp_path)
    docs = list(iter_corpus(folder))
    first, untitled, second = (parse_beir_document("wiki", d) for d in docs)
    [concept] = first.entities
    assert (concept.id, concept.type, concept.name) == ("concept:wiki:Ada Lovelace", "Concept", "Ada Lovelace")
    assert (concept.description, concept.chunk_id, concept.doc_id) == (
        "Wrote the first program.",
        first.chunks[0].id,
        "wiki/d1",
    )
    assert untitled.entities == []
    # Two passages of the corpus are titled "Ada Lovelace": each defines an entity of that name.
    assert shared_titles(folder) == {"Ada Lovelace"}
    one, other = (parse_beir_document("wiki", d, shared_title=True).entities[0] for d in (docs[0], docs[2]))
    assert (one.id, other.id) == ("concept:wiki:Ada Lovelace#d1", "concept:wiki:Ada Lovelace#d3")
    assert one.name == other.name == "Ada Lovelace" and other.chunk_id == second.chunks[0].id


def test_a_long_multi_line_passage_is_split_within_budget() -> None:
    doc = BeirDocument(id="long", title="T", text="\n".join(_words(80) for _ in range(6)))
    ex = parse_beir_document("c", doc)
    assert [(c.start_line, c.end_line) for c in ex.chunks] == [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]
    assert {c.title for c in ex.chunks} == {"T"}
    assert all(estimate_tokens(c.text) <= CHUNK_TOKEN_BUDGET for c in ex.chunks)
    assert len({c.id for c in ex.chunks}) == len(ex.chunks)


def test_queries_keep_their_metadata_and_qrels_map_queries_to_graded_documents(tmp_path: Path) -> None:
    folder = _beir(tmp_path)
    queries = load_queries(folder)
    assert [(q.id, q.text, q.metadata) for q in queries] == [
        ("q1", "who wrote", {"type": "person"}),
        ("q2", "where born", {}),
    ]
    assert load_qrels(folder, "test") == {"q1": {"d1": 1}, "q2": {"d3": 2, "d1": 0}}


def test_a_missing_qrels_split_names_the_splits_there_are(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"splits here: \['test'\]"):
        load_qrels(_beir(tmp_path), "dev")


def test_a_malformed_corpus_line_is_reported_with_file_and_line_number(tmp_path: Path) -> None:
    (tmp_path / "corpus.jsonl").write_text('{"_id": "d1", "text": "ok"}\n\n{not json}\n')
    with pytest.raises(ValueError, match=r"corpus\.jsonl:3: not valid JSON"):
        list(iter_corpus(tmp_path))


def test_a_record_without_an_id_is_reported_with_its_line_number(tmp_path: Path) -> None:
    (tmp_path / "queries.jsonl").write_text('{"_id": "q1", "text": "a"}\n{"text": "no id"}\n')
    with pytest.raises(ValueError, match=r"queries\.jsonl:2: the record has no '_id'"):
        load_queries(tmp_path)


def test_a_qrels_row_with_a_bad_score_is_reported_with_its_line_number(tmp_path: Path) -> None:
    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\thigh\n")
    with pytest.raises(ValueError, match=r"test\.tsv:3: score 'high'"):
        load_qrels(tmp_path, "test")


def test_the_scifact_excerpt_in_the_repository_loads_whole() -> None:
    qrels = load_qrels(SCIFACT_EXCERPT, "test")
    assert (len(qrels), sum(len(docs) for docs in qrels.values())) == (8, 9)
    queries = {q.id: q for q in load_queries(SCIFACT_EXCERPT)}
    assert set(qrels) < set(queries), "every judged query has its text, and unjudged ones are kept"
    corpus = {doc.id: doc for doc in iter_corpus(SCIFACT_EXCERPT)}
    assert {doc for docs in qrels.values() for doc in docs} < set(corpus), "every judged abstract is in the corpus"
    assert all(doc.title and doc.text for doc in corpus.values())


@needs_shared
def test_the_shared_scifact_collection_has_300_judged_test_queries() -> None:
    assert SCIFACT.is_dir(), f"the SciFact evaluation set is expected at {SCIFACT}; see ../shared/eval"
    qrels = load_qrels(SCIFACT, "test")
    assert len(qrels) == 300
    assert sum(len(docs) for docs in qrels.values()) == 339
    queries = {q.id: q for q in load_queries(SCIFACT)}
    assert len(queries) == 1109
    assert set(qrels) <= set(queries), "every judged query has its text"
