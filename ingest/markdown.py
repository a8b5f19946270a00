"""Markdown: one chunk per heading section (heading path kept), front matter relations, and relative links."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import unquote

import yaml
from frontmatter.default_handlers import YAMLHandler
from markdown_it import MarkdownIt
from markdown_it.token import Token

from trident.ingest.model import Extraction, Reference
from trident.ingest.text import DESCRIPTION_CHARS, document_entity, group_blocks, make_chunks, paragraphs, source_lines
from trident.ingest.walker import classify
from trident.store.schema import Chunk, DocumentKind, Entity, EntityType, Relation, RelationType, entity_id


class PathBase(StrEnum):
    """Where a front matter path without ./ or ../ is read from."""

    ROOT = "root"  # `files: [billing/orders.py]` names files the way a repository listing does
    DOCUMENT = "document"  # `related: [payment-flow.md]` is written like a link, next to the document


@dataclass(frozen=True)
class FrontMatterRule:
    relation: RelationType
    paths_from: PathBase = PathBase.ROOT
    always_path: bool = False  # every value names a file, even `setup.py`; otherwise only path-like ones do


# Front matter keys that state relations. A value may be a string or a list of strings.
FRONT_MATTER_RELATIONS: dict[str, FrontMatterRule] = {
    "depends_on": FrontMatterRule(RelationType.DEPENDS_ON),
    "depends-on": FrontMatterRule(RelationType.DEPENDS_ON),
    "requires": FrontMatterRule(RelationType.DEPENDS_ON),
    "tags": FrontMatterRule(RelationType.TAGGED),
    "files": FrontMatterRule(RelationType.MENTIONS, always_path=True),
    "related": FrontMatterRule(RelationType.RELATED_TO, PathBase.DOCUMENT),
    "see_also": FrontMatterRule(RelationType.RELATED_TO, PathBase.DOCUMENT),
    "links": FrontMatterRule(RelationType.LINKS_TO, PathBase.DOCUMENT),
    "owner": FrontMatterRule(RelationType.RELATED_TO),
    "owners": FrontMatterRule(RelationType.RELATED_TO),
    "service": FrontMatterRule(RelationType.RELATED_TO),
}
FILE_TARGET_TYPES = (EntityType.MODULE.value, EntityType.DOCUMENT.value)
LINK_TARGET_TYPES = (EntityType.DOCUMENT.value, EntityType.MODULE.value)

_FENCE = re.compile(r"^-{3,}\s*$")
_FENCE_END = re.compile(r"^(-{3,}|\.{3})\s*$")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_MARKDOWN = MarkdownIt("commonmark")


@dataclass(frozen=True)
class _Heading:
    line: int  # 0-based, in the whole file
    end: int  # first line after the heading (a setext heading spans two)
    level: int
    text: str


def _split_front_matter(lines: list[str]) -> tuple[dict[str, Any], int]:
    """The front matter and how many lines it spans; invalid YAML still spans its lines but gives no data."""
    if not lines or not _FENCE.match(lines[0]):
        return {}, 0
    end = next((i for i in range(1, len(lines)) if _FENCE_END.match(lines[i])), None)
    if end is None:
        return {}, 0
    try:
        data = YAMLHandler().load("\n".join(lines[1:end]))
    except yaml.YAMLError:
        data = None
    return (data if isinstance(data, dict) else {}), end + 1


def front_matter(text: str) -> dict[str, Any]:
    """The YAML front matter of a markdown text; empty when absent or not valid YAML, never an error."""
    return _split_front_matter(source_lines(text))[0]


def slug(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens, so `#anchors` match."""
    return re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-") or "section"


def normalise_path(doc_path: str, target: str, base: PathBase = PathBase.DOCUMENT) -> str | None:
    """A link or file reference as a path from the project root; None for URLs, anchors and bare folders.

    ./ and ../ always start from the document's folder; a path that climbs out of the root keeps its
    leading ../ (`../auth/docs/x.md` names a sibling project).
    """
    target = unquote(target.split("#", 1)[0].split("?", 1)[0]).strip()
    if not target or target.startswith("//") or _SCHEME.match(target):
        return None
    if target.startswith("/"):
        target = target.lstrip("/")
    elif base == PathBase.DOCUMENT or target.startswith(("./", "../")):
        target = posixpath.join(posixpath.dirname(doc_path), target)
    normal = posixpath.normpath(target) if target else "."
    return None if normal == "." or normal.endswith("..") else normal


def normalise_link(doc_path: str, target: str) -> str | None:
    """A markdown link target as a path from the project root (links are relative to their document)."""
    return normalise_path(doc_path, target, PathBase.DOCUMENT)


def _plain(inline: Token) -> str:
    parts = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline", "image"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return " ".join("".join(parts).split())


def _values(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [str(v).strip() for v in items if isinstance(v, str | int | float) and str(v).strip()]


def _rel(source: str, type_: str, target: str, evidence: Chunk) -> Relation:
    return Relation(
        source=source,
        type=type_,
        target=target,
        evidence=evidence.id,
        project=evidence.project,
        doc_id=evidence.doc_id,
        tenant=evidence.tenant,
    )


def parse_markdown(project: str, path: str, text: str, doc_id: str, tenant: str = "default") -> Extraction:
    """Section chunks, Document and Section entities, front matter relations and link references.

    Line numbers count from the top of the file, front matter included. Empty text gives nothing.
    """
    lines = source_lines(text)
    meta, offset = _split_front_matter(lines)
    tokens = _MARKDOWN.parse("\n".join(lines[offset:]))
    headings = [
        _Heading(tok.map[0] + offset, tok.map[1] + offset, int(tok.tag[1:]), _plain(tokens[i + 1]))
        for i, tok in enumerate(tokens)
        if tok.type == "heading_open" and tok.level == 0 and tok.map
    ]
    first_h1 = next((h.text for h in headings if h.level == 1 and h.text), None)
    title = str(meta.get("title") or "").strip() or first_h1 or PurePosixPath(path).stem
    # (first line, plain text) of every paragraph, for descriptions
    paras = [
        (tok.map[0] + offset, _plain(tokens[i + 1]))
        for i, tok in enumerate(tokens)
        if tok.type == "paragraph_open" and tok.map
    ]

    def section_chunks(start: int, stop: int, section_title: str, ordinal: int) -> list[Chunk]:
        local = lines[start:stop]
        spans = [range(s.start + start, s.stop + start) for s in group_blocks(local, paragraphs(local))]
        return make_chunks(
            project, path, doc_id, lines, spans, DocumentKind.MARKDOWN, section_title, tenant, first_ordinal=ordinal
        )

    chunks = section_chunks(offset, headings[0].line if headings else len(lines), title, 0)
    sections: list[tuple[_Heading, Chunk]] = []
    trail: list[_Heading] = []
    for index, heading in enumerate(headings):
        stop = headings[index + 1].line if index + 1 < len(headings) else len(lines)
        trail = [h for h in trail if h.level < heading.level] + [heading]
        new = section_chunks(heading.line, stop, " > ".join(h.text for h in trail), len(chunks))
        chunks.extend(new)
        sections.append((heading, new[0]))
    if not chunks and offset:  # front matter only: still a document, found by its title and tags
        chunks = section_chunks(0, offset, title, 0)
    if not chunks:
        return Extraction()

    described = str(meta.get("description") or meta.get("summary") or "").strip()
    lead = next((p for _, p in paras if p), "")
    document = document_entity(project, path, doc_id, title, described or lead, chunks[0].id, tenant)
    extraction = Extraction(chunks=chunks, entities=[document])
    for section, (_, chunk) in zip(_section_entities(document, sections, paras, len(lines)), sections, strict=True):
        extraction.entities.append(section)
        extraction.relations.append(_rel(document.id, RelationType.CONTAINS, section.id, chunk))
    _front_matter_relations(extraction, meta, document, path, chunks[0])
    _link_references(extraction, tokens, offset, document, path)
    return extraction


def _section_entities(
    document: Entity, sections: list[tuple[_Heading, Chunk]], paras: list[tuple[int, str]], n_lines: int
) -> list[Entity]:
    """One entity per heading, keyed by its anchor; a repeated heading gets -1, -2 as on GitHub."""
    entities: list[Entity] = []
    slugs: dict[str, int] = {}
    for index, (heading, chunk) in enumerate(sections):
        stop = sections[index + 1][0].line if index + 1 < len(sections) else n_lines
        anchor = slug(heading.text)
        slugs[anchor] = slugs.get(anchor, -1) + 1
        if slugs[anchor]:
            anchor = f"{anchor}-{slugs[anchor]}"
        qualified = f"{document.path}#{anchor}"
        entities.append(
            Entity(
                id=entity_id(EntityType.SECTION, document.project, qualified),
                name=heading.text or anchor,
                type=EntityType.SECTION,
                project=document.project,
                qualified_name=qualified,
                description=next((p for line, p in paras if heading.end <= line < stop), "")[:DESCRIPTION_CHARS],
                chunk_id=chunk.id,
                doc_id=document.doc_id,
                path=document.path,
                tenant=document.tenant,
            )
        )
    return entities


def _front_matter_relations(
    extraction: Extraction, meta: dict[str, Any], document: Entity, path: str, evidence: Chunk
) -> None:
    """Tags become shared Tag entities with resolved edges; every other key becomes a reference to resolve."""
    tags: dict[str, Entity] = {}
    references: dict[tuple[str, str], Reference] = {}
    for key, rule in FRONT_MATTER_RELATIONS.items():
        for value in _values(meta.get(key)):
            if rule.relation == RelationType.TAGGED:
                tag = Entity(
                    id=entity_id(EntityType.TAG, document.project, value.lower()),
                    name=value,
                    type=EntityType.TAG,
                    project=document.project,
                    qualified_name=value.lower(),
                    tenant=document.tenant,
                )
                tags.setdefault(tag.id, tag)
                continue
            if rule.always_path or "/" in value or classify(value) is not None:
                target = normalise_path(path, value, rule.paths_from)
                if target is None or target == path:
                    continue
                types: tuple[str, ...] = FILE_TARGET_TYPES if rule.always_path else LINK_TARGET_TYPES
            else:
                target, types = value, ()
            ref = Reference(document.id, rule.relation, target, evidence.id, types)
            references.setdefault((ref.type, ref.target), ref)
    extraction.entities.extend(tags.values())
    extraction.relations.extend(_rel(document.id, RelationType.TAGGED, tag.id, evidence) for tag in tags.values())
    extraction.references.extend(references.values())


def _link_references(extraction: Extraction, tokens: list[Token], offset: int, document: Entity, path: str) -> None:
    """LINKS_TO references for relative links, evidenced by the chunk holding the link."""
    seen: set[tuple[str, str]] = set()
    for token in tokens:
        if token.type != "inline" or not token.map:
            continue
        first, last = token.map[0] + offset + 1, token.map[1] + offset  # 1-based, inclusive
        for child in token.children or []:
            href = child.attrGet("href") if child.type == "link_open" else None
            target = normalise_link(path, str(href)) if href else None
            if target is None or target == path:
                continue
            evidence = _chunk_at(extraction.chunks, first, last, unquote(str(href)).split("#", 1)[0])
            if (target, evidence.id) in seen:
                continue
            seen.add((target, evidence.id))
            extraction.references.append(
                Reference(document.id, RelationType.LINKS_TO, target, evidence.id, LINK_TARGET_TYPES)
            )


def _chunk_at(chunks: list[Chunk], first: int, last: int, needle: str) -> Chunk:
    """The chunk of a block that shows `needle`: an oversized paragraph spans several chunks."""
    overlapping = [c for c in chunks if c.start_line <= last and c.end_line >= first] or chunks[:1]
    return next((c for c in overlapping if needle and needle in c.text), overlapping[0])
