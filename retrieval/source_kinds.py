"""What kind of source a hit comes from: code, a document, configuration, a corpus passage, or knowledge an agent
wrote through the write tools. Conflicting facts are weighed by it (code and configuration over prose)."""

from __future__ import annotations

import posixpath
from enum import StrEnum

from trident.store.schema import Chunk, DocumentKind

# The project the add_knowledge tool writes into (ingest/knowledge.py KNOWLEDGE_PROJECT; the query side does not
# import ingestion, a test keeps the two equal).
KNOWLEDGE_PROJECT = "knowledge"
CONFIG_SUFFIXES = frozenset({".yaml", ".yml", ".toml", ".json", ".ini", ".cfg", ".env"})


class SourceKind(StrEnum):
    CODE = "code"
    DOC = "doc"
    CONFIG = "config"
    PASSAGE = "passage"
    KNOWLEDGE = "knowledge"

    @property
    def is_prose(self) -> bool:
        return self in (SourceKind.DOC, SourceKind.PASSAGE, SourceKind.KNOWLEDGE)


def source_kind(chunk: Chunk) -> SourceKind:
    """The chunk's kind of source, from its document's kind, its project and its file name."""
    if chunk.kind is DocumentKind.PASSAGE:
        return SourceKind.PASSAGE
    if chunk.project == KNOWLEDGE_PROJECT and chunk.path.startswith("facts/"):
        return SourceKind.KNOWLEDGE
    if chunk.kind is DocumentKind.CONFIG or _config_name(chunk.path):
        return SourceKind.CONFIG
    if chunk.kind is DocumentKind.CODE:
        return SourceKind.CODE
    return SourceKind.DOC


def _config_name(path: str) -> bool:
    name = posixpath.basename(path).lower()
    suffix = posixpath.splitext(name)[1]
    return suffix in CONFIG_SUFFIXES or name == ".env" or name.startswith(".env.")
