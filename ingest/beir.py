"""BEIR collections (corpus.jsonl, queries.jsonl, qrels/*.tsv): loading them, and passages as documents."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field
from trident.ingest.model import Extraction
from trident.ingest.text import make_chunks
from trident.ingest.tokens import split_lines_by_budget
from trident.store.schema import DocumentKind, Entity, EntityType, document_id, entity_id

DESCRIPTION_CHARS = 300


class BeirDocument(BaseModel):
    id: str
    title: str = ""
    text: str = ""


class BeirQuery(BaseModel):
    id: str
    text: str
    metadata: dict[str, Any] = Field(default_factory=dict)


def is_beir_folder(path: Path) -> bool:
    return (path / "corpus.jsonl").is_file()


def _jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not valid JSON ({exc.msg})") from None
            if not isinstance(record, dict) or "_id" not in record:
                raise ValueError(f"{path}:{number}: each line must be an object with an '_id'")
            yield number, record


def iter_corpus(folder: Path) -> Iterator[BeirDocument]:
    """Documents of `corpus.jsonl` in file order.

    Raises:
        ValueError: a malformed line (the message gives file and line number).
    """
    for _, record in _jsonl(folder / "corpus.jsonl"):
        yield BeirDocument(id=str(record["_id"]), title=record.get("title") or "", text=record.get("text") or "")


def load_queries(folder: Path) -> list[BeirQuery]:
    return [
        BeirQuery(id=str(r["_id"]), text=r.get("text") or "", metadata=r.get("metadata") or {})
        for _, r in _jsonl(folder / "queries.jsonl")
    ]


def load_qrels(folder: Path, split: str) -> dict[str, dict[str, int]]:
    """query id -> {corpus id: relevance} from `qrels/<split>.tsv` (header line skipped)."""
    path = folder / "qrels" / f"{split}.tsv"
    if not path.is_file():
        raise FileNotFoundError(
            f"no judgments at {path}; splits here: {sorted(p.stem for p in path.parent.glob('*.tsv'))}"
        )
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        rows = csv.reader(handle, delimiter="\t")
        next(rows, None)
        for row in rows:
            if len(row) >= 3:
                qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    return qrels


def parse_beir_document(project: str, doc: BeirDocument, tenant: str = "default") -> Extraction:
    """A passage as a document at path = its id; its title, when present, becomes a Concept entity."""
    path = doc.id
    doc_id = document_id(project, path)
    lines = doc.text.splitlines() or [""]
    spans = split_lines_by_budget(lines)
    chunks = make_chunks(project, path, doc_id, lines, spans, DocumentKind.PASSAGE, doc.title, tenant)
    if not doc.text.strip() and not doc.title:
        return Extraction()
    entities = []
    if doc.title:
        entities.append(
            Entity(
                id=entity_id(EntityType.CONCEPT, project, doc.title),
                name=doc.title,
                type=EntityType.CONCEPT,
                project=project,
                qualified_name=doc.title,
                description=doc.text[:DESCRIPTION_CHARS],
                chunk_id=chunks[0].id,
                doc_id=doc_id,
                path=path,
                tenant=tenant,
            )
        )
    return Extraction(chunks=chunks, entities=entities)
