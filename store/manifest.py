"""The manifest: schema version, embedding model, and what each indexed document contributed."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from pydantic import BaseModel, Field
from trident.store.schema import SCHEMA_VERSION

MANIFEST_FILE = "manifest.json"


class ModelInfo(BaseModel):
    name: str
    dim: int


class PendingReference(BaseModel):
    """A reference whose target was not indexed yet (a link into a project indexed later); retried each run."""

    source: str
    type: str
    target: str
    evidence: str
    target_types: list[str] = Field(default_factory=list)


class DocumentEntry(BaseModel):
    project: str
    path: str
    kind: str
    content_hash: str
    chunk_ids: list[str] = Field(default_factory=list)
    entity_ids: list[str] = Field(default_factory=list)
    unresolved: list[PendingReference] = Field(default_factory=list)


class SkippedFile(BaseModel):
    path: str
    reason: str


class Manifest(BaseModel):
    schema_version: int = SCHEMA_VERSION
    model: ModelInfo | None = None
    generation: int = 0
    documents: dict[str, DocumentEntry] = Field(default_factory=dict)
    pending: list[str] = Field(
        default_factory=list, description="Documents being written when the last writer stopped; repaired on open"
    )
    skipped: dict[str, list[SkippedFile]] = Field(default_factory=dict, description="Per project: files refused")

    @classmethod
    def load(cls, index_dir: Path) -> Manifest:
        path = index_dir / MANIFEST_FILE
        if not path.exists():
            return cls()
        return cls.model_validate_json(path.read_text(encoding="utf-8"))

    def save(self, index_dir: Path) -> None:
        """Write atomically: a crash leaves either the old manifest or the new one, never half of one."""
        index_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=index_dir, prefix=".manifest-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.model_dump(mode="json"), handle, sort_keys=True)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, index_dir / MANIFEST_FILE)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def project_documents(self, project: str) -> dict[str, DocumentEntry]:
        return {doc_id: entry for doc_id, entry in self.documents.items() if entry.project == project}

    def projects(self) -> list[str]:
        return sorted({entry.project for entry in self.documents.values()})
