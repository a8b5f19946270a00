"""The seams between Trident and its engines: one small Protocol each."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import pyarrow as pa

from trident.store.engines.graph_memory import GraphMemory
from trident.store.schema import Chunk, Entity, Relation


@dataclass(frozen=True)
class ScoredId:
    id: str
    score: float


@dataclass(frozen=True)
class SearchFilter:
    """Restricts a search to some projects (None = all) inside one tenant."""

    tenant: str
    projects: tuple[str, ...] | None = None


class Embedder(Protocol):
    @property
    def model_name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed documents; returns a float32 array of shape (len(texts), dim), rows L2-normalised."""
        ...

    def embed_query(self, text: str) -> np.ndarray: ...


@runtime_checkable
class LoadingEmbedder(Protocol):
    """An embedder whose model may still be loading (a server's, embedding/background.py): its `embed_query` waits
    for the model, `embed_query_now` does not."""

    def embed_query_now(self, text: str) -> np.ndarray:
        """The query's vector; raises a RuntimeError at once while the model is still loading."""
        ...


class TextIndex(Protocol):
    """The lexical index a generation keeps (`store/engines/tantivy_index.py`)."""

    def upsert(self, chunks: Sequence[Chunk]) -> None: ...

    def delete_documents(self, doc_ids: Iterable[str]) -> None: ...

    def search(self, query: str, limit: int, where: SearchFilter) -> list[ScoredId]: ...

    def ids(self, tenant: str) -> set[str]: ...

    def count(self, tenant: str | None = None) -> int: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...


class VectorIndex(Protocol):
    """The vector index every generation shares, pinned to a version per generation (`store/engines/lance_index.py`)."""

    changed_documents: set[str] | None  # the documents this session's writes touched (None: not tracked)

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> None: ...

    def delete_documents(self, doc_ids: Iterable[str]) -> None: ...

    def search(self, vector: np.ndarray, limit: int, where: SearchFilter) -> list[ScoredId]: ...

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]: ...

    def document_rows(
        self, tenant: str, doc_ids: Sequence[str]
    ) -> tuple[list[str], list[str], list[str], np.ndarray]: ...

    def matrix_with_documents(self, tenant: str) -> tuple[list[str], list[str], list[str], np.ndarray]: ...

    def ids(self, tenant: str) -> set[str]: ...

    def count(self, tenant: str | None = None) -> int: ...

    def version(self) -> int: ...

    def pin(self, version: int) -> None: ...

    def roll_back_to(self, version: int) -> None: ...

    def optimize(self) -> None: ...


class GraphStore(Protocol):
    """The property graph a generation keeps (`store/engines/kuzu_graph.py`, with Kùzu or its fork behind it): chunks
    and entities as nodes, relations between entities, and the attribute facts writers bind by (`HOLDS`)."""

    @property
    def read_only(self) -> bool: ...

    def memory(self) -> GraphMemory: ...

    def reopen_read_only(self) -> None: ...

    def close(self) -> None: ...

    # writes
    def upsert(self, chunks: Sequence[Chunk], entities: Sequence[Entity], relations: Sequence[Relation]) -> None: ...

    def delete_documents(self, doc_ids: Iterable[str], keep_entities: Iterable[str] = ()) -> None: ...

    def delete_relations(self, doc_ids: Iterable[str]) -> None: ...

    def delete_orphans(self, entity_types: Sequence[str]) -> None: ...

    # entities and relations
    def entities(self, tenant: str) -> list[Entity]: ...

    def get_entities(self, ids: Sequence[str]) -> list[Entity]: ...

    def neighbours(self, entity_ids: Sequence[str], tenant: str, limit: int) -> list[Relation]: ...

    def relations(self, tenant: str) -> list[Relation]: ...

    def relation_table(self, tenant: str) -> pa.Table: ...

    def links(self, tenant: str, type_: str) -> list[tuple[str, str]]: ...

    def holds(self, tenant: str) -> list[tuple[str, str, str]]: ...

    # chunks
    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]: ...

    def chunk_table(self, tenant: str, doc_ids: Sequence[str] | None = None) -> pa.Table: ...

    def chunk_ids(self, tenant: str) -> set[str]: ...

    def chunks_of_files(self, tenant: str, names: Sequence[str], projects: Sequence[str] | None) -> list[str]: ...

    def citations(self, chunk_ids: Sequence[str]) -> dict[str, str]: ...

    def all_citations(self, tenant: str) -> dict[str, str]: ...

    # counts
    def counts(self, tenant: str) -> dict[str, int]: ...

    def project_counts(self, tenant: str) -> dict[str, dict[str, int]]: ...
