"""Embedding on a Ray cluster (#18): the part of an index run that takes the time, spread over many machines, while
the run's writes still go through the one writer on this machine.

`RayEmbedder` is an `Embedder`: the pipeline does not know where its vectors come from. A large `embed` call is cut
into exactly the batches the local model would run (texts longest first, `batch_size` a batch), and the batches are
dealt to the workers in turn; each worker is a Ray actor that loaded the same model once, on one CPU. The same batch
through the same model gives the same vector, so an index built on a cluster holds the bytes a local run writes
(`tests/test_ray_indexing.py` compares them). Queries and small calls stay local.

Parsing goes to the same cluster as Ray tasks (`ingest/ray_parser.py`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from trident.embedding.embedder import EmbedderUnavailable, open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.host.ray_cluster import ClusterSettings, ClusterUnavailable, connect_ray
from trident.store.protocols import Embedder

log = logging.getLogger(__name__)


# Bounds on waiting for the cluster: workers starting and loading the model, and one batch of texts on one worker
# (a few seconds on a CPU; the bound only ends a cluster that stopped answering).
START_TIMEOUT_S = 300.0
BATCH_TIMEOUT_S = 120.0


class EmbedWorker:
    """One worker: the model, loaded once in its own process, with one ONNX thread (one CPU, as Ray schedules it)."""

    def __init__(self, settings_json: str) -> None:
        settings = ModelSettings.model_validate_json(settings_json).model_copy(update={"threads": 1})
        self._embedder = open_embedder(settings)

    def model_name(self) -> str:
        return self._embedder.model_name

    def embed(self, batch: list[str]) -> np.ndarray:
        return self._embedder.embed(batch)


class RayEmbedder:
    """Embeds large calls on `cluster.ray_workers` Ray actors, the rest (and queries) with `local`, which must be
    the same model loaded here."""

    def __init__(
        self,
        model: ModelSettings,
        cluster: ClusterSettings,
        local: Embedder,
        batch_size: int,
        *,
        start_seconds: float = START_TIMEOUT_S,
    ) -> None:
        """
        Raises:
            EmbedderUnavailable: ray is not installed, the cluster cannot be reached, or the workers did not all
                start and load the model within `start_seconds` (the message says which).
        """
        self._local = local
        self._batch_size = batch_size
        try:
            self._ray = connect_ray(cluster)
        except ClusterUnavailable as exc:
            raise EmbedderUnavailable(str(exc)) from exc
        worker = self._ray.remote(num_cpus=1)(EmbedWorker)
        self._workers = [worker.remote(model.model_dump_json()) for _ in range(cluster.ray_workers)]
        try:
            names = self._ray.get([w.model_name.remote() for w in self._workers], timeout=start_seconds)
        except self._ray.exceptions.GetTimeoutError as exc:
            self.close()
            raise EmbedderUnavailable(
                f"{cluster.ray_workers} Ray workers did not all start and load {local.model_name} within "
                f"{start_seconds:g} s: each needs a free CPU on the cluster (`ray status` lists them); lower "
                "TRIDENT_RAY_WORKERS or add machines"
            ) from exc
        except self._ray.exceptions.RayError as exc:  # a worker's own failure comes back wrapped in Ray's types
            self.close()
            raise EmbedderUnavailable(f"a Ray worker could not load the model {local.model_name}: {exc}") from exc
        if any(name != local.model_name for name in names):
            raise EmbedderUnavailable(f"Ray workers loaded {sorted(set(names))}, not {local.model_name}")
        log.info("embedding on %d Ray workers at %s", len(self._workers), cluster.ray_address)

    @property
    def model_name(self) -> str:
        return self._local.model_name

    @property
    def dim(self) -> int:
        return self._local.dim

    @property
    def workers(self) -> int:
        return len(self._workers)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Float32 (len(texts), dim), rows L2-normalised, in input order: the local model's batches, run by the
        workers in turn."""
        if len(texts) <= self._batch_size:
            return self._local.embed(texts)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]), reverse=True)  # as the local model orders
        batches = [
            [texts[i] for i in order[start : start + self._batch_size]]
            for start in range(0, len(order), self._batch_size)
        ]
        pending = [self._workers[n % len(self._workers)].embed.remote(batch) for n, batch in enumerate(batches)]
        rounds = -(-len(batches) // len(self._workers))  # batches each worker runs, one after another
        try:
            done = self._ray.get(pending, timeout=BATCH_TIMEOUT_S * rounds)
        except self._ray.exceptions.RayError as exc:  # a worker died, or the cluster stopped answering
            raise EmbedderUnavailable(
                f"the Ray workers did not embed {len(texts)} texts ({len(batches)} batches) within "
                f"{BATCH_TIMEOUT_S * rounds:g} s: {exc}; the run is not published, run it again"
            ) from exc
        vectors = np.empty((len(texts), self.dim), dtype=np.float32)
        vectors[order] = np.concatenate(done)
        return vectors

    def embed_query(self, text: str) -> np.ndarray:
        return self._local.embed_query(text)

    def close(self) -> None:
        """Stop the workers (the cluster stays up for others)."""
        for worker in self._workers:
            self._ray.kill(worker)
        self._workers = []
