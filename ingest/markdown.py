"""Markdown: one chunk per heading section (heading path kept), front matter relations, and relative links."""

from __future__ import annotations

import posixpath
import re
from pathlib import PurePosixPath
from typing import Any

import yaml
from markdown_it import MarkdownIt
from trident.ingest.model import Extraction, Reference
from trident.ingest.text import document_entity, group_blocks, make_chunks, paragraphs
from trident.store.schema import Chunk, DocumentKind, Entity, EntityType, Relation, RelationType, entity_id

# Front matter keys that state relations, and the relation each becomes.
FRONT_MATTER_RELATIONS: dict[str, str] = {
    "depends_on": RelationType.DEPENDS_ON,
    "depends-on": RelationType.DEPENDS_ON,
    "requires": RelationType.DEPENDS_ON,
    "tags": RelationType.TAGGED,
    "files": RelationType.MENTIONS,
    "related": RelationType.RELATED_TO,
    "see_also": RelationType.RELATED_TO,
    "links": RelationType.LINKS_TO,
    "owner": RelationType.RELATED_TO,
    "owners": RelationType.RELATED_TO,
    "service": RelationType.RELATED_TO,
}
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)
_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_PARSER = MarkdownIt("commonmark")


def front_matter(text: str) -> tuple[dict[str, Any], int]:
    """The YAML front matter as a dict (empty if absent or invalid) and how many lines it spans."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, 0
    span = match.group(0).count("\n") + (0 if match.group(0).endswith("\n") else 1)
    try:
        data = yaml.safe_load(match.group(1) or "") or {}
    except yaml.YAMLError:
        return {}, span
    return (data if isinstance(data, dict) else {}), span


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _values(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value if v is not None and str(v).strip()]
    return [str(value)] if value is not None and str(value).strip() else []


def normalise_link(doc_path: str, target: str) -> str | None:
    """A link target as a project-relative path; None for external links and in-page anchors."""
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
        return None
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(doc_path), target))


def _sections(lines: list[str], offset: int) -> list[tuple[int, int, str]]:
    """(heading line, level, text) for each heading, line numbers 0-based in the whole file."""
    body = "\n".join(lines[offset:])
    tokens = _PARSER.parse(body)
    out = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            out.append((token.map[0] + offset, int(token.tag[1:]), tokens[i + 1].content.strip()))
    return out


def parse_markdown(project: str, path: str, text: str, doc_id: str, tenant: str = "default") -> Extraction:
    """Sections, Document and Section entities, front-matter relations and link references."""
    lines = text.splitlines()
    meta, fm_lines = front_matter(text)
    headings = _sections(lines, fm_lines)
    title = str(meta.get("title") or next((h[2] for h in headings if h[1] == 1), PurePosixPath(path).stem))
    bounds = [fm_lines, *[h[0] for h in headings], len(lines)]
    chunks: list[Chunk] = []
    section_entities: list[Entity] = []
    relations: list[Relation] = []
    trail: list[tuple[int, str]] = []
    doc_entity_id = entity_id(EntityType.DOCUMENT, project, path)
    for index in range(len(bounds) - 1):
        start, stop = bounds[index], bounds[index + 1]
        heading = headings[index - 1] if index > 0 else None
        if heading is not None:
            trail = [t for t in trail if t[0] < heading[1]] + [(heading[1], heading[2])]
        section_title = " > ".join(t[1] for t in trail) if heading else title
        local = lines[start:stop]
        spans = group_blocks(local, paragraphs(local))
        shifted = [range(s.start + start, s.stop + start) for s in spans]
        new = make_chunks(project, path, doc_id, lines, shifted, DocumentKind.MARKDOWN, section_title, tenant)
        new = [c.model_copy(update={"id": _unique_id(c, len(chunks) + i)}) for i, c in enumerate(new)]
        chunks.extend(new)
        if heading is not None and new:
            section = Entity(
                id=entity_id(EntityType.SECTION, project, f"{path}#{_slug(heading[2])}"),
                name=heading[2],
                type=EntityType.SECTION,
                project=project,
                qualified_name=f"{path}#{_slug(heading[2])}",
                chunk_id=new[0].id,
                doc_id=doc_id,
                path=path,
                tenant=tenant,
                description=" ".join(line.strip() for line in local[1:4] if line.strip())[:300],
            )
            section_entities.append(section)
            relations.append(_rel(doc_entity_id, RelationType.CONTAINS, section.id, new[0].id, project, doc_id, tenant))
    if not chunks:
        return Extraction()
    description = str(meta.get("description") or meta.get("summary") or _first_paragraph(lines, fm_lines))
    document = document_entity(project, path, doc_id, title, description, chunks[0].id, tenant)
    extraction = Extraction(chunks=chunks, entities=[document, *section_entities], relations=relations)
    _front_matter_relations(extraction, meta, document, path, chunks[0].id, tenant)
    for chunk in chunks:
        for target in _LINK.findall(chunk.text):
            resolved = normalise_link(path, target)
            if resolved and resolved != path:
                extraction.references.append(
                    Reference(document.id, RelationType.LINKS_TO, resolved, chunk.id, ("Document", "Module"))
                )
    return extraction


def _unique_id(chunk: Chunk, ordinal: int) -> str:
    from trident.store.schema import chunk_id

    return chunk_id(chunk.project, chunk.path, chunk.start_line, chunk.end_line, ordinal)


def _first_paragraph(lines: list[str], offset: int) -> str:
    for block in paragraphs(lines[offset:]):
        text = " ".join(lines[offset + i].strip() for i in block)
        if not text.startswith("#"):
            return text
    return ""


def _rel(source: str, type_: str, target: str, evidence: str, project: str, doc_id: str, tenant: str) -> Relation:
    return Relation(
        source=source, type=type_, target=target, evidence=evidence, project=project, doc_id=doc_id, tenant=tenant
    )


def _front_matter_relations(
    extraction: Extraction, meta: dict[str, Any], document: Entity, path: str, evidence: str, tenant: str
) -> None:
    project = document.project
    for key, rel_type in FRONT_MATTER_RELATIONS.items():
        for value in _values(meta.get(key)):
            if rel_type == RelationType.TAGGED:
                tag = Entity(
                    id=entity_id(EntityType.TAG, project, value.lower()),
                    name=value,
                    type=EntityType.TAG,
                    project=project,
                    qualified_name=value.lower(),
                    tenant=tenant,
                )
                extraction.entities.append(tag)
                extraction.relations.append(
                    _rel(document.id, rel_type, tag.id, evidence, project, document.doc_id or "", tenant)
                )
            elif rel_type == RelationType.MENTIONS or "/" in value or value.endswith(".md"):
                target = normalise_link(path, value) if value.startswith(".") else value
                extraction.references.append(
                    Reference(document.id, rel_type, target or value, evidence, ("Module", "Document"))
                )
            else:
                extraction.references.append(Reference(document.id, rel_type, value, evidence))
