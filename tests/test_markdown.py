"""Markdown: sections with original line numbers, heading paths, front matter relations and relative links."""

from __future__ import annotations

from trident.ingest.chunk_tokens import CHUNK_TOKEN_BUDGET, estimate_tokens
from trident.ingest.markdown import front_matter, normalise_link, parse_markdown
from trident.ingest.model import Extraction
from trident.store.schema import Entity, EntityType

DESIGN = """---
title: Payments design
description: How money moves.
tags: [payments, Billing]
depends_on: [auth-service, PaymentGateway]
files: [./src/pay.py, billing/gateway.py]
related: retries.md
owner: team-payments
---
Read this first.

# Payments design

Intro with [the auth notes](../auth/tokens.md#keys), [the site](https://example.com),
[mail](mailto:a@b.c), [here](#retries) and [a sibling project](../../ledger/docs/x.md).

## Retries

See [the flow](./flow.md) and [the same flow again](flow.md).

```
# not a heading, and [not a link](ignored.md)
```

### Backoff

Exponential.

## Limits
"""


def _parse(text: str = DESIGN, path: str = "docs/design.md") -> Extraction:
    return parse_markdown("p", path, text, f"p/{path}")


def _document(ex: Extraction) -> Entity:
    return next(e for e in ex.entities if e.type == EntityType.DOCUMENT)


def test_sections_keep_line_numbers_of_the_original_file_including_front_matter() -> None:
    ex = _parse()
    spans = [(c.start_line, c.end_line) for c in ex.chunks]
    assert spans == [(10, 10), (12, 15), (17, 23), (25, 27), (29, 29)]
    lines = DESIGN.splitlines()
    for chunk in ex.chunks:
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
    assert ex.chunks[1].text.startswith("# Payments design")


def test_chunk_titles_are_heading_paths_and_the_preamble_takes_the_document_title() -> None:
    titles = [c.title for c in _parse().chunks]
    assert titles == [
        "Payments design",
        "Payments design",
        "Payments design > Retries",
        "Payments design > Retries > Backoff",
        "Payments design > Limits",
    ]


def test_a_heading_inside_a_code_fence_is_not_a_section() -> None:
    names = [e.name for e in _parse().entities if e.type == EntityType.SECTION]
    assert names == ["Payments design", "Retries", "Backoff", "Limits"]


def test_setext_headings_and_crlf_line_breaks_keep_line_numbers() -> None:
    text = "Title\r\n=====\r\n\r\nBody.\r\n\r\nPart\r\n----\r\nMore.\r\n"
    ex = _parse(text, "notes.md")
    assert [(c.start_line, c.end_line, c.title) for c in ex.chunks] == [(1, 4, "Title"), (6, 8, "Title > Part")]
    assert _document(ex).name == "Title"


def test_the_document_entity_takes_title_description_aliases_and_first_chunk() -> None:
    ex = _parse()
    doc = _document(ex)
    assert doc.id == "document:p:docs/design.md"
    assert (doc.name, doc.qualified_name, doc.description) == ("Payments design", "docs/design.md", "How money moves.")
    assert doc.aliases == ("design", "docs/design.md")
    assert doc.chunk_id == ex.chunks[0].id
    assert doc.doc_id == "p/docs/design.md"


def test_without_front_matter_the_first_h1_names_the_document_and_the_first_paragraph_describes_it() -> None:
    doc = _document(_parse("## Minor\n\nA *short* `intro`\nover two lines.\n\n# Main\n", "guide.md"))
    assert doc.name == "Main"
    assert doc.description == "A short intro over two lines."


def test_without_title_or_h1_the_file_stem_names_the_document() -> None:
    assert _document(_parse("just text\n", "docs/notes.md")).name == "notes"


def test_sections_become_entities_contained_by_the_document_with_unique_anchors() -> None:
    ex = _parse("# Guide\n\n## Usage\n\nOne.\n\n## Usage\n\nTwo.\n", "guide.md")
    sections = [e for e in ex.entities if e.type == EntityType.SECTION]
    assert [e.id for e in sections] == [
        "section:p:guide.md#guide",
        "section:p:guide.md#usage",
        "section:p:guide.md#usage-1",
    ]
    assert [e.description for e in sections] == ["", "One.", "Two."]
    assert [e.chunk_id for e in sections] == [c.id for c in ex.chunks]
    contains = {(r.source, r.target) for r in ex.relations if r.type == "CONTAINS"}
    assert contains == {("document:p:guide.md", e.id) for e in sections}


def test_front_matter_depends_on_becomes_references_by_name() -> None:
    refs = {(r.type, r.target, r.target_types) for r in _parse().references}
    assert ("DEPENDS_ON", "auth-service", ()) in refs
    assert ("DEPENDS_ON", "PaymentGateway", ()) in refs
    assert ("RELATED_TO", "team-payments", ()) in refs


def test_front_matter_files_are_mentions_of_paths_from_the_root_or_from_the_document_with_dot_slash() -> None:
    ex = _parse()
    mentions = {(r.target, r.target_types) for r in ex.references if r.type == "MENTIONS"}
    assert mentions == {("docs/src/pay.py", ("Module", "Document")), ("billing/gateway.py", ("Module", "Document"))}
    doc = _document(ex)
    assert all(r.source == doc.id and r.evidence == ex.chunks[0].id for r in ex.references if r.type == "MENTIONS")


def test_a_related_file_name_is_read_next_to_the_document() -> None:
    related = {r.target for r in _parse().references if r.type == "RELATED_TO"}
    assert related == {"docs/retries.md", "team-payments"}


def test_front_matter_tags_become_shared_tag_entities_with_resolved_edges() -> None:
    ex = _parse()
    tags = {e.id: e for e in ex.entities if e.type == EntityType.TAG}
    assert set(tags) == {"tag:p:payments", "tag:p:billing"}
    assert tags["tag:p:billing"].name == "Billing"
    assert all(t.doc_id is None for t in tags.values())
    tagged = {(r.source, r.target) for r in ex.relations if r.type == "TAGGED"}
    assert tagged == {("document:p:docs/design.md", t) for t in tags}
    assert not [r for r in ex.references if r.type == "TAGGED"]


def test_a_single_string_value_is_accepted_where_a_list_is_usual() -> None:
    ex = _parse("---\ntags: ops\nrequires: KeyStore\n---\n# X\n", "x.md")
    assert [e.name for e in ex.entities if e.type == EntityType.TAG] == ["ops"]
    assert [(r.type, r.target) for r in ex.references] == [("DEPENDS_ON", "KeyStore")]


def test_relative_links_become_links_to_references_normalised_from_the_project_root() -> None:
    ex = _parse()
    links = {r.target for r in ex.references if r.type == "LINKS_TO"}
    assert links == {"auth/tokens.md", "../ledger/docs/x.md", "docs/flow.md"}
    assert all(r.target_types == ("Document", "Module") for r in ex.references if r.type == "LINKS_TO")


def test_each_link_is_evidenced_by_the_chunk_that_contains_it() -> None:
    ex = _parse()
    evidence = {r.target: r.evidence for r in ex.references if r.type == "LINKS_TO"}
    assert evidence["auth/tokens.md"] == ex.chunks[1].id
    assert evidence["docs/flow.md"] == ex.chunks[2].id
    assert len([r for r in ex.references if r.target == "docs/flow.md"]) == 1


def test_link_normalisation_handles_anchors_climbing_and_external_targets() -> None:
    assert normalise_link("docs/design.md", "../auth/tokens.md#keys") == "auth/tokens.md"
    assert normalise_link("design.md", "../other-project/x.md") == "../other-project/x.md"
    assert normalise_link("a/b/c.md", "../../../other/./y/../x.md") == "../other/x.md"
    assert normalise_link("docs/a.md", "/README.md") == "README.md"
    assert normalise_link("docs/a.md", "my%20notes.md") == "docs/my notes.md"
    for external in ("https://x.org/a.md", "http://x", "mailto:a@b.c", "#anchor", "//cdn.example/x.js", "../", ".."):
        assert normalise_link("docs/a.md", external) is None


def test_reference_style_links_are_followed_too() -> None:
    ex = _parse("# A\n\nSee [the spec][spec].\n\n[spec]: ../spec/v2.md\n", "docs/a.md")
    assert [(r.type, r.target) for r in ex.references] == [("LINKS_TO", "spec/v2.md")]


def test_bad_yaml_front_matter_is_treated_as_absent_but_its_lines_still_count() -> None:
    text = "---\ntitle: [unclosed\ntags: {\n---\n# Heading\n\nBody.\n"
    assert front_matter(text) == {}
    ex = _parse(text, "x.md")
    assert [(c.start_line, c.end_line, c.title) for c in ex.chunks] == [(5, 7, "Heading")]
    assert not [e for e in ex.entities if e.type == EntityType.TAG]


def test_front_matter_helper_returns_the_mapping_and_ignores_non_mappings() -> None:
    assert front_matter("---\ntitle: X\ntags: [a]\n---\nbody\n") == {"title": "X", "tags": ["a"]}
    assert front_matter("---\n- just\n- a list\n---\nbody\n") == {}
    assert front_matter("no front matter\n---\n") == {}


def test_an_oversized_section_is_split_within_budget_keeping_its_title() -> None:
    paragraphs = "\n\n".join(" ".join(f"w{i}" for i in range(60)) for _ in range(6))
    ex = _parse(f"# Long\n\n{paragraphs}\n\n## Next\n\nShort.\n", "long.md")
    long_chunks = [(c.start_line, c.end_line) for c in ex.chunks if c.title == "Long"]
    assert long_chunks == [(1, 3), (5, 5), (7, 7), (9, 9), (11, 11), (13, 13)], "one 120-token paragraph each"
    assert all(estimate_tokens(c.text) <= CHUNK_TOKEN_BUDGET for c in ex.chunks)
    assert len({c.id for c in ex.chunks}) == len(ex.chunks)
    assert ex.chunks[-1].title == "Long > Next"


def test_a_document_with_only_front_matter_is_still_one_chunk() -> None:
    ex = _parse("---\ntitle: Stub\ntags: [draft]\n---\n", "stub.md")
    assert [(c.start_line, c.end_line, c.title) for c in ex.chunks] == [(1, 4, "Stub")]
    assert _document(ex).name == "Stub"


def test_an_empty_file_gives_nothing() -> None:
    ex = _parse("", "empty.md")
    assert (ex.chunks, ex.entities, ex.relations, ex.references) == ([], [], [], [])
