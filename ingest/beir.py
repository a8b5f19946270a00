"""BEIR collections (corpus.jsonl, queries.jsonl, qrels/*.tsv): loading them, and passages as documents."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from trident.ingest.chunk_tokens import split_lines_by_budget
from trident.ingest.model import Extraction
from trident.ingest.text import DESCRIPTION_CHARS, make_chunks, source_lines
from trident.store.schema import DocumentKind, Entity, EntityType, document_id, entity_id

CORPUS_FILE = "corpus.jsonl"
QUERIES_FILE = "queries.jsonl"
QRELS_FOLDER = "qrels"


class BeirDocument(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    title: str = ""
    text: str = ""


class BeirQuery(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    metadata: dict[str, Any] = Field(default_factory=dict)


def is_beir_folder(path: Path) -> bool:
    """A folder is a BEIR collection when it holds a corpus.jsonl; queries and qrels are only needed to score."""
    return (path / CORPUS_FILE).is_file()


def _jsonl(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(id, record) for each non-blank line; every failure names the file and the 1-based line."""
    with path.open(encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not valid JSON ({exc.msg} at column {exc.colno})") from None
            if not isinstance(record, dict):
                raise ValueError(f"{path}:{number}: expected a JSON object, got {type(record).__name__}")
            raw_id = record.get("_id")
            if raw_id is None or str(raw_id).strip() == "":
                raise ValueError(f"{path}:{number}: the record has no '_id'")
            yield str(raw_id), record


def _text(record: dict[str, Any], key: str) -> str:
    value = record.get(key)
    return value if isinstance(value, str) else ""


def iter_corpus(folder: Path) -> Iterator[BeirDocument]:
    """Documents of `corpus.jsonl` in file order, read lazily since corpora run to millions of lines.

    Raises:
        FileNotFoundError: the folder has no corpus.jsonl.
        ValueError: a line is not a JSON object with an `_id` (the message gives file and line number).
    """
    for doc_id, record in _jsonl(folder / CORPUS_FILE):
        yield BeirDocument(id=doc_id, title=_text(record, "title"), text=_text(record, "text"))


def load_queries(folder: Path) -> list[BeirQuery]:
    """Every query of `queries.jsonl`; `metadata` is kept when it is an object (some sets carry answers there).

    Raises:
        FileNotFoundError: the folder has no queries.jsonl.
        ValueError: a line is not a JSON object with an `_id` (the message gives file and line number).
    """
    queries = []
    for query_id, record in _jsonl(folder / QUERIES_FILE):
        metadata = record.get("metadata")
        queries.append(
            BeirQuery(id=query_id, text=_text(record, "text"), metadata=metadata if isinstance(metadata, dict) else {})
        )
    return queries


def load_qrels(folder: Path, split: str) -> dict[str, dict[str, int]]:
    """query id -> {corpus id: relevance} from `qrels/<split>.tsv`; a header line is skipped when present.

    Raises:
        FileNotFoundError: no such split (the message lists the splits there are).
        ValueError: a row without three tab-separated columns or with a non-integer score (file and line given).
    """
    path = folder / QRELS_FOLDER / f"{split}.tsv"
    if not path.is_file():
        splits = sorted(p.stem for p in path.parent.glob("*.tsv")) if path.parent.is_dir() else []
        raise FileNotFoundError(f"no judgments at {path}; splits here: {splits}")
    qrels: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            row = line.rstrip("\r\n").split("\t")
            if len(row) < 3:
                raise ValueError(f"{path}:{number}: expected query-id, corpus-id and score separated by tabs")
            try:
                score = int(row[2])
            except ValueError:
                if number == 1:
                    continue  # the header: query-id, corpus-id, score
                raise ValueError(f"{path}:{number}: score {row[2]!r} is not an integer") from None
            qrels.setdefault(row[0], {})[row[1]] = score
    return qrels


def shared_titles(folder: Path) -> set[str]:
    """The titles more than one passage of the corpus has (a pass over `corpus.jsonl`).

    Raises:
        FileNotFoundError: the folder has no corpus.jsonl.
        ValueError: a line is not a JSON object with an `_id`.
    """
    seen: set[str] = set()
    shared: set[str] = set()
    for doc in iter_corpus(folder):
        title = doc.title.strip()
        if title:
            (shared if title in seen else seen).add(title)
    return shared


def parse_beir_document(
    project: str, doc: BeirDocument, tenant: str = "default", *, shared_title: bool = False
) -> Extraction:
    """A passage as a document at path = its id, so its citation is `project/<id>:L1-L1` for one-line text.

    The passage is split by lines only when over budget; a single long line stays one chunk, which the
    embedder truncates. A non-empty title becomes a Concept entity named by it, defined by the passage. Where
    several passages share a title (`shared_title`: paragraphs of one article), each passage defines an entity of
    its own under that name (qualified by the passage id), so a walk or a mention of the title reaches every one
    of them, and removing one passage leaves the others' entities in place.
    """
    path = doc.id
    doc_id = document_id(project, path)
    if not doc.text.strip() and not doc.title.strip():
        return Extraction()
    lines = source_lines(doc.text) or [""]
    spans = split_lines_by_budget(lines)
    chunks = make_chunks(project, path, doc_id, lines, spans, DocumentKind.PASSAGE, doc.title, tenant)
    entities = []
    if doc.title.strip():
        qualified = f"{doc.title}#{doc.id}" if shared_title else doc.title
        entities.append(
            Entity(
                id=entity_id(EntityType.CONCEPT, project, qualified),
                name=doc.title,
                type=EntityType.CONCEPT,
                project=project,
                qualified_name=qualified,
                description=doc.text[:DESCRIPTION_CHARS],
                chunk_id=chunks[0].id,
                doc_id=doc_id,
                path=path,
                tenant=tenant,
            )
        )
    return Extraction(chunks=chunks, entities=entities)
