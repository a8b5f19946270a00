"""Plain text, config files and code without a grammar: paragraphs grouped up to the chunk budget."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from trident.ingest.chunk_tokens import CHUNK_TOKEN_BUDGET, estimate_tokens, split_lines_by_budget
from trident.ingest.model import Extraction
from trident.store.schema import Chunk, DocumentKind, Entity, EntityType, chunk_id, entity_id

DESCRIPTION_CHARS = 300

# The line breaks of Python's universal-newline reading and of markdown-it. `str.splitlines` also breaks on
# form feeds, U+2028 and other separators, which would shift every later line number of a citation.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def source_lines(text: str) -> list[str]:
    """The lines of `text` as an editor numbers them (index 0 is line 1), without their line breaks."""
    if not text:
        return []
    lines = _LINE_BREAK.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines


def paragraphs(lines: list[str]) -> list[range]:
    """Blank-line separated blocks as 0-based line ranges."""
    blocks: list[range] = []
    start: int | None = None
    for i, line in enumerate(lines):
        if line.strip():
            if start is None:
                start = i
        elif start is not None:
            blocks.append(range(start, i))
            start = None
    if start is not None:
        blocks.append(range(start, len(lines)))
    return blocks


def group_blocks(lines: list[str], blocks: list[range], budget: int = CHUNK_TOKEN_BUDGET) -> list[range]:
    """Consecutive blocks merged greedily up to `budget`; a block over budget is split by lines.

    A merged span runs from its first block's first line to its last block's last line, so the blank lines
    between paragraphs stay inside the chunk and its line span is what an editor shows.
    """
    spans: list[range] = []
    current: range | None = None
    used = 0
    for block in blocks:
        cost = estimate_tokens("\n".join(lines[i] for i in block))
        if cost > budget:
            if current is not None:
                spans.append(current)
                current, used = None, 0
            sub = split_lines_by_budget([lines[i] for i in block], budget)
            spans.extend(range(block.start + r.start, block.start + r.stop) for r in sub)
            continue
        if current is not None and used + cost <= budget:
            current, used = range(current.start, block.stop), used + cost
        else:
            if current is not None:
                spans.append(current)
            current, used = block, cost
    if current is not None:
        spans.append(current)
    return spans


def make_chunks(
    project: str,
    path: str,
    doc_id: str,
    lines: list[str],
    spans: list[range],
    kind: DocumentKind,
    title: str,
    tenant: str,
    language: str | None = None,
    first_ordinal: int = 0,
) -> list[Chunk]:
    """Chunks for 0-based line ranges; `first_ordinal` keeps ids unique when a document is chunked in parts."""
    chunks: list[Chunk] = []
    for ordinal, span in enumerate(spans, start=first_ordinal):
        start, end = span.start + 1, span.stop
        chunks.append(
            Chunk(
                id=chunk_id(project, path, start, end, ordinal),
                doc_id=doc_id,
                project=project,
                path=path,
                text="\n".join(lines[span.start : span.stop]),
                start_line=start,
                end_line=end,
                kind=kind,
                language=language,
                title=title,
                tenant=tenant,
            )
        )
    return chunks


def document_entity(
    project: str, path: str, doc_id: str, name: str, description: str, chunk: str | None, tenant: str
) -> Entity:
    """The entity standing for a whole file, findable by its name, its file stem and its path."""
    return Entity(
        id=entity_id(EntityType.DOCUMENT, project, path),
        name=name,
        type=EntityType.DOCUMENT,
        project=project,
        qualified_name=path,
        aliases=(PurePosixPath(path).stem, path),
        description=description[:DESCRIPTION_CHARS],
        chunk_id=chunk,
        doc_id=doc_id,
        path=path,
        tenant=tenant,
    )


def first_paragraph(lines: list[str]) -> str:
    """The first blank-line separated block, joined into one line."""
    block = next(iter(paragraphs(lines)), range(0))
    return " ".join(lines[i].strip() for i in block)


def parse_text(
    project: str,
    path: str,
    text: str,
    doc_id: str,
    kind: DocumentKind,
    tenant: str = "default",
    language: str | None = None,
) -> Extraction:
    """Chunks by paragraph and one Document entity named after the file; blank text gives nothing."""
    lines = source_lines(text)
    spans = group_blocks(lines, paragraphs(lines))
    if not spans:
        return Extraction()
    chunks = make_chunks(project, path, doc_id, lines, spans, kind, path, tenant, language)
    name = PurePosixPath(path).name
    document = document_entity(project, path, doc_id, name, first_paragraph(lines), chunks[0].id, tenant)
    return Extraction(chunks=chunks, entities=[document])
