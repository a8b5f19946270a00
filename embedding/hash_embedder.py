"""A stand-in embedder for plumbing tests and lexical-only benches: equal texts get equal vectors, nothing more (no
meaning: never for retrieval quality)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np


class HashEmbedder:
    """Each text's vector is a hash of its bytes, scaled to unit length."""

    model_name = "test/hash-embedder"
    dim = 16

    def __init__(self, model_name: str | None = None) -> None:
        if model_name is not None:
            self.model_name = model_name

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest()[: self.dim], dtype=np.uint8) for t in texts]
        matrix = np.array(rows, dtype=np.float32).reshape(len(texts), self.dim) + 1.0
        return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]
