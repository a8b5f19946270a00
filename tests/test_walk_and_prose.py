"""Walking folders, and chunking markdown, plain text and BEIR passages."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from trident.ingest.beir import iter_corpus, load_qrels, load_queries, parse_beir_document
from trident.ingest.chunk_tokens import CHUNK_TOKEN_BUDGET, estimate_tokens
from trident.ingest.markdown import parse_markdown
from trident.ingest.text import parse_text
from trident.ingest.walker import walk
from trident.store.schema import DocumentKind


def _tree(root: Path, files: dict[str, bytes | str]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())


def test_walk_honours_nested_gitignores_and_the_default_ignores(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".gitignore": "*.log\n",
            "app.py": "x = 1\n",
            "debug.log": "noise\n",
            "node_modules/lib/index.js": "x\n",
            "web/.gitignore": "generated/\n",
            "web/generated/out.ts": "x\n",
            "web/main.ts": "x\n",
        },
    )
    result = walk(tmp_path, 1_000_000)
    assert [f.rel for f in result.files] == ["app.py", "web/main.ts"]
    assert not [s for s in result.skipped if "log" in s.rel or "node_modules" in s.rel]


def test_walk_skips_binary_oversized_and_non_utf8_files_with_reasons(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "ok.md": "# fine\n",
            "blob.txt": b"abc\x00def",
            "big.txt": "word " * 400,
            "latin.txt": "caf\xe9".encode("latin-1"),
            "image.png": b"\x89PNG\r\n\x1a\n\x00\x00",
        },
    )
    result = walk(tmp_path, 1_000)
    reasons = {s.rel: s.reason for s in result.skipped}
    assert reasons == {
        "big.txt": "larger than 1000 bytes",
        "blob.txt": "binary file",
        "image.png": "binary file",
        "latin.txt": "not UTF-8 text",
    }
    assert [f.rel for f in result.files] == ["ok.md"]


def test_walk_refuses_symlinks_that_leave_the_root_or_loop(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    root = tmp_path / "root"
    _tree(outside, {"secret.py": "x = 1\n"})
    _tree(root, {"a.py": "x = 1\n"})
    os.symlink(outside, root / "escape")
    os.symlink(root, root / "loop")
    result = walk(root, 1_000_000)
    assert [f.rel for f in result.files] == ["a.py"]
    reasons = {s.rel: s.reason for s in result.skipped}
    assert reasons["escape"] == "symlink outside the root"
    assert "loop" in reasons


def test_walk_classifies_files_by_kind_and_language(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.go": "package a\n", "b.tsx": "x\n", "c.yaml": "a: 1\n", "README": "hi\n", "d.hs": "x\n"})
    kinds = {f.rel: (f.kind, f.language) for f in walk(tmp_path, 1_000_000).files}
    assert kinds == {
        "README": (DocumentKind.TEXT, None),
        "a.go": (DocumentKind.CODE, "go"),
        "b.tsx": (DocumentKind.CODE, "tsx"),
        "c.yaml": (DocumentKind.CONFIG, None),
        "d.hs": (DocumentKind.CODE, None),
    }


DESIGN = """---
title: Payments design
tags: [payments, billing]
depends_on: [auth-service]
files: [./src/pay.py]
---
# Payments design

Intro.

## Retries

See [the auth notes](../auth/tokens.md#keys) and [the site](https://example.com).

### Backoff

Exponential.
"""


def test_markdown_sections_keep_heading_paths_and_original_line_numbers() -> None:
    ex = parse_markdown("p", "docs/design.md", DESIGN, "p/docs/design.md")
    spans = [(c.start_line, c.end_line, c.title) for c in ex.chunks]
    assert spans == [
        (7, 9, "Payments design"),
        (11, 13, "Payments design > Retries"),
        (15, 17, "Payments design > Retries > Backoff"),
    ]


def test_markdown_front_matter_and_links_become_relations() -> None:
    ex = parse_markdown("p", "docs/design.md", DESIGN, "p/docs/design.md")
    refs = {(r.type, r.target) for r in ex.references}
    assert ("DEPENDS_ON", "auth-service") in refs
    assert ("MENTIONS", "docs/src/pay.py") in refs
    assert ("LINKS_TO", "auth/tokens.md") in refs
    assert not [t for _, t in refs if t.startswith("http")]
    tagged = {r.target for r in ex.relations if r.type == "TAGGED"}
    assert tagged == {"tag:p:payments", "tag:p:billing"}
    document = next(e for e in ex.entities if e.type == "Document")
    assert document.name == "Payments design"


def test_markdown_with_broken_front_matter_is_still_indexed() -> None:
    ex = parse_markdown("p", "x.md", "---\ntitle: [unclosed\n---\n# Heading\n\nBody.\n", "p/x.md")
    assert [c.title for c in ex.chunks] == ["Heading"]


def test_an_oversized_markdown_section_is_split_within_budget() -> None:
    paragraphs = "\n\n".join("word " * 120 for _ in range(6))
    ex = parse_markdown("p", "long.md", f"# Long\n\n{paragraphs}\n", "p/long.md")
    assert len(ex.chunks) >= 3
    assert all(estimate_tokens(c.text) <= CHUNK_TOKEN_BUDGET for c in ex.chunks)


def test_text_paragraphs_are_grouped_with_exact_line_spans() -> None:
    text = "one\ntwo\n\nthree\n\n\n" + "\n".join(["long " * 60] * 4) + "\n"
    ex = parse_text("p", "notes.txt", text, "p/notes.txt", DocumentKind.TEXT)
    assert (ex.chunks[0].start_line, ex.chunks[0].end_line) == (1, 4)
    assert ex.chunks[-1].end_line == 10


def test_beir_corpus_loads_and_titles_become_entities(tmp_path: Path) -> None:
    (tmp_path / "qrels").mkdir()
    (tmp_path / "corpus.jsonl").write_text(
        '{"_id": "d1", "title": "Ada Lovelace", "text": "Wrote the first program."}\n'
        '{"_id": "d2", "title": "", "text": "Untitled passage."}\n'
    )
    (tmp_path / "queries.jsonl").write_text('{"_id": "q1", "text": "who wrote", "metadata": {"type": "x"}}\n')
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    docs = list(iter_corpus(tmp_path))
    assert [d.id for d in docs] == ["d1", "d2"]
    ex = parse_beir_document("wiki", docs[0])
    assert [e.name for e in ex.entities] == ["Ada Lovelace"]
    assert ex.chunks[0].citation == "wiki/d1:L1-L1"
    assert parse_beir_document("wiki", docs[1]).entities == []
    assert load_queries(tmp_path)[0].metadata == {"type": "x"}
    assert load_qrels(tmp_path, "test") == {"q1": {"d1": 1}}


def test_a_malformed_beir_line_is_reported_with_its_line_number(tmp_path: Path) -> None:
    (tmp_path / "corpus.jsonl").write_text('{"_id": "d1", "text": "ok"}\n{not json}\n')
    with pytest.raises(ValueError, match=r"corpus.jsonl:2"):
        list(iter_corpus(tmp_path))
