"""The manifest: schema version, embedding model, what each indexed document contributed, and where the published
generation of the engines lives. Replacing this file is how a writer publishes a generation."""

from __future__ import annotations

import copy
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from trident.store.schema import SCHEMA_VERSION

MANIFEST_FILE = "manifest.json"
# Beside the graph vectors and communities (which live outside generations): which graph they were last synced for.
SYNC_STAMP_FILE = "synced.json"
# Beside it: the derived stores a run's sync could not bring in step (one over its time bound), and why.
STALE_FILE = "stale.json"


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
    form: str = Field("name", description="How `target` names it: name, qualified or member (see ingest.model)")
    resolution: str = Field("name", description="exact, inferred or name: how surely the source binds it")
    owner: str = Field("", description="For a member: the qualified name of its class")
    after_owner: bool = Field(False, description="For a member via super(): looked up in the class's bases only")
    virtual: bool = Field(True, description="False: the call runs the method it names, none of its overrides")
    place: int = Field(-1, description="INHERITS: the base's place among the class's bases as written; -1 not known")


class DocumentEntry(BaseModel):
    """Frozen: a writer's copy of the manifest shares the entries with the published one, and replaces an entry
    (`Manifest.replace_entry`) rather than change it."""

    model_config = ConfigDict(frozen=True)

    project: str
    path: str
    kind: str
    content_hash: str
    size: int | None = Field(None, description="Bytes of the file as indexed (None: indexed before sizes were kept)")
    mtime_ns: int | None = Field(None, description="The file's modification time then, in nanoseconds")
    chunk_ids: list[str] = Field(default_factory=list)
    entity_ids: list[str] = Field(default_factory=list)
    unresolved: list[PendingReference] = Field(
        default_factory=list,
        exclude=True,
        description="The document's references still pending: kept in its generation's pending file (not written "
        "here) and attached to a writer's copy only (store/pending_file.py); a manifest written before that file "
        "existed carries them here",
    )


class ProjectSource(BaseModel):
    """What a project's index was last taken from: set by each run that writes the project."""

    indexed_at: str = Field(description="When that run began, ISO-8601 UTC; it read the files after this")
    commit: str | None = Field(None, description="The git HEAD of the project's folder then (None: not a repository)")
    branch: str | None = Field(None, description="The branch checked out then (None: detached or not a repository)")


class SyncMark(BaseModel):
    """Set in a write session's manifest once the graph vectors and communities are in step with its graph."""

    token: str = Field(description="Random; the sync stamp records it too, so a sync never published is told apart")
    generation: int = Field(description="The session's generation when the syncs finished; publishing adds one")


class SkippedFile(BaseModel):
    path: str
    reason: str


ManifestIdentity = tuple[int, int, int]


def _empty(value: list[str]) -> bool:
    return not value


class Manifest(BaseModel):
    schema_version: int = SCHEMA_VERSION
    model: ModelInfo | None = None
    generation: int = Field(default=0, description="Moves on every change, so caches keyed by it are rebuilt")
    generation_dir: str | None = Field(
        default=None, description="Folder (relative to the index) of the published graph and lexical engines"
    )
    chunks_version: int | None = Field(
        default=None, description="LanceDB version of the chunk vectors of this generation"
    )
    documents: dict[str, DocumentEntry] = Field(default_factory=dict)
    skipped: dict[str, list[SkippedFile]] = Field(default_factory=dict, description="Per project: files refused")
    roots: dict[str, str] = Field(
        default_factory=dict,
        description="Per project: the folder it was last indexed from, read again to bind its references anew when "
        "a project they point into changes",
    )
    sources: dict[str, ProjectSource] = Field(
        default_factory=dict, description="Per project: when and from which commit it was last indexed"
    )
    synced: SyncMark | None = Field(default=None, description="The syncs done for this generation's graph, if any")
    graph_backend: str = Field(
        "kuzu",
        description="The engine the graph is kept in (store/engines/graph_backends.py), chosen when the index is made",
    )
    graph_baseline_bytes: int | None = Field(
        default=None,
        description="The graph file's size when published by the write session that last wrote it afresh (None: "
        "never); a session writes it afresh again once it has doubled (store/engines/graph_compaction.py)",
    )
    pending_attached: bool = Field(
        default=False,
        exclude=True,
        description="Whether the entries carry their pending references (a writer's copy, and the manifest of what "
        "it published); a manifest read from its file does not",
    )
    vectors_pending: list[str] = Field(
        default_factory=list,
        exclude_if=_empty,
        description="Documents in the lexical and graph engines whose chunk vectors are still to come, in id order: a "
        "large run publishes those two first and fills the vectors in behind (left out of the file when none)",
    )

    @classmethod
    def load(cls, index_dir: Path) -> Manifest:
        return cls.load_with_identity(index_dir)[0]

    @classmethod
    def load_with_identity(cls, index_dir: Path) -> tuple[Manifest, ManifestIdentity | None]:
        """The manifest and the identity of the file it was read from (None: there is no manifest yet)."""
        try:
            with open(index_dir / MANIFEST_FILE, "rb") as handle:
                identity = _identity(os.fstat(handle.fileno()))
                text = handle.read()
        except FileNotFoundError:
            return cls(), None
        return cls.model_validate_json(text), identity

    def writable_copy(self) -> Manifest:
        """A copy a writer may change without touching this one: every container new, the document entries (frozen,
        thousands of them) shared. Copying them all took seconds per write at a few thousand documents."""
        fields = {name: copy.deepcopy(getattr(self, name)) for name in type(self).model_fields if name != "documents"}
        return type(self).model_construct(documents=dict(self.documents), **fields)

    def _ordered(self) -> Manifest:
        """This manifest with its maps in key order, so equal manifests are written byte for byte the same (written
        by pydantic's encoder: four times faster than sorting a dump through the json module)."""
        fields = {name: getattr(self, name) for name in type(self).model_fields}
        for name in ("documents", "skipped", "roots", "sources"):
            fields[name] = dict(sorted(fields[name].items()))
        return type(self).model_construct(**fields)

    def replace_entry(self, doc_id: str, **changes: Any) -> None:
        """The document's entry with these fields changed (entries are frozen and may be shared with another copy)."""
        self.documents[doc_id] = self.documents[doc_id].model_copy(update=changes)

    def save(self, index_dir: Path) -> None:
        """Write atomically: a crash leaves either the old manifest or the new one, never half of one."""
        index_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=index_dir, prefix=".manifest-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(self._ordered().model_dump_json())
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, index_dir / MANIFEST_FILE)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _sync_folder(index_dir)

    def project_documents(self, project: str) -> dict[str, DocumentEntry]:
        return {doc_id: entry for doc_id, entry in self.documents.items() if entry.project == project}

    def documents_by_project(self) -> dict[str, dict[str, DocumentEntry]]:
        """Every project's documents (as `project_documents` gives them), in one pass over the documents: asking
        `project_documents` of each project in turn read every document once per project (0.15 s a `status` call
        for the 29 projects of a 100K-chunk index)."""
        grouped: dict[str, dict[str, DocumentEntry]] = {}
        for doc_id, entry in self.documents.items():
            grouped.setdefault(entry.project, {})[doc_id] = entry
        return grouped

    def projects(self) -> list[str]:
        return sorted({entry.project for entry in self.documents.values()})

    def pending_chunks(self) -> int:
        """How many chunks wait for their vectors (those of `vectors_pending`)."""
        return sum(len(self.documents[d].chunk_ids) for d in self.vectors_pending if d in self.documents)

    def chunk_count(self) -> int:
        return sum(len(entry.chunk_ids) for entry in self.documents.values())


def manifest_identity(index_dir: Path) -> ManifestIdentity | None:
    """Inode, size and modification time of the manifest: one stat tells a reader whether it changed (every save
    replaces the file, so the inode changes even within one clock tick)."""
    try:
        return _identity(os.stat(index_dir / MANIFEST_FILE))
    except FileNotFoundError:
        return None


def read_sync_stamp(index_dir: Path, tenant: str) -> str | None:
    """What the graph vectors and communities of a tenant were last synced for (None: unknown, or a sync was cut
    short): a `SyncMark` token, or `published_stamp` of the generation they were synced against."""
    value = _read_tenant_entries(index_dir / SYNC_STAMP_FILE).get(tenant)
    return value if isinstance(value, str) else None


def write_sync_stamp(index_dir: Path, tenant: str, stamp: str | None) -> None:
    """Record (or, with None, forget) what a tenant's syncs are in step with. Durable before it returns: a sync
    forgets the stamp before it changes the stores, and that must not be undone by a power cut."""
    _write_tenant_entry(index_dir / SYNC_STAMP_FILE, tenant, stamp)


def read_stale(index_dir: Path, tenant: str) -> dict[str, str]:
    """The derived stores (by name) whose last sync was given up, each with what the run was doing then."""
    value = _read_tenant_entries(index_dir / STALE_FILE).get(tenant)
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def write_stale(index_dir: Path, tenant: str, stale: dict[str, str]) -> None:
    """Record the derived stores a sync gave up on (an empty mapping: none)."""
    _write_tenant_entry(index_dir / STALE_FILE, tenant, dict(sorted(stale.items())) or None)


def _read_tenant_entries(path: Path) -> dict[str, object]:
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}  # a damaged file only costs one sync
    return entries if isinstance(entries, dict) else {}


def _write_tenant_entry(path: Path, tenant: str, value: object | None) -> None:
    """Replace one tenant's entry (None removes it), durably: written beside, flushed, renamed."""
    entries = _read_tenant_entries(path)
    if value is None:
        entries.pop(tenant, None)
    else:
        entries[tenant] = value
    partial = path.with_name(f".{path.name}.tmp")
    with open(partial, "w", encoding="utf-8") as handle:
        json.dump(entries, handle, sort_keys=True)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(partial, path)
    _sync_folder(path.parent)


def published_stamp(manifest: Manifest) -> str:
    """The stamp of syncs done against a published generation: published generations never repeat a number."""
    return f"published:{manifest.generation_dir}:{manifest.generation}"


def _identity(stat: os.stat_result) -> ManifestIdentity:
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (a power cut, not only a crash of the process, keeps the new manifest)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
