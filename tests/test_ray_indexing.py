"""Index runs parse and embed on a Ray cluster (#18): a real head started with `ray start --head` on loopback, tasks
parsing exactly what a local parse makes, workers loading the real model, and vectors byte for byte the ones a local
run writes."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import EXAMPLES
from trident.embedding.embedder import EmbedderUnavailable
from trident.embedding.model_settings import ModelSettings
from trident.embedding.ray_embedder import RayEmbedder
from trident.host.ray_cluster import ClusterSettings, ClusterUnavailable
from trident.ingest.parsing import LocalParser
from trident.ingest.ray_parser import RayParser, groups_of
from trident.ingest.walker import walk
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder

RAY = Path(sys.executable).parent / "ray"
TRIDENT = Path(sys.executable).parent / "trident"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """A Ray head on loopback with two CPUs, no dashboard; its address. Ray's socket paths must stay short, so its
    folder is directly under /tmp."""
    folder = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    port = _free_port()
    started = subprocess.run(
        [
            str(RAY),
            "start",
            "--head",
            f"--port={port}",
            "--node-ip-address=127.0.0.1",
            "--num-cpus=2",
            "--include-dashboard=false",
            "--object-store-memory=100000000",
            "--disable-usage-stats",
            f"--temp-dir={folder}",
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert started.returncode == 0, f"ray start failed:\n{started.stdout}\n{started.stderr}"
    try:
        yield f"127.0.0.1:{port}"
    finally:
        import ray

        ray.shutdown()
        subprocess.run([str(RAY), "stop", "--force"], capture_output=True, timeout=120)
        shutil.rmtree(folder, ignore_errors=True)


def test_ray_workers_embed_exactly_the_vectors_the_local_model_does(ray_head: str, embedder: Embedder) -> None:
    settings = ModelSettings(vector_cache_mb=0)  # the workers' own model makes every vector, none read back
    texts = [f"{'ledger entry ' * (n % 23)}payment {n} settles against invoice {n * 7}" for n in range(150)]
    texts += ["", "a", "def charge(card, amount):\n    return gateway.charge(card, amount)"]
    distributed = RayEmbedder(settings, ClusterSettings(ray_address=ray_head, ray_workers=2), embedder, 8)
    try:
        assert distributed.workers == 2
        vectors = distributed.embed(texts)
    finally:
        distributed.close()
    assert vectors.shape == (len(texts), embedder.dim) and vectors.dtype == np.float32
    assert np.array_equal(vectors, embedder.embed(texts)), "every batch is the local model's, so every vector is"


def _chunk_vectors(home: Path) -> dict[str, bytes]:
    catalog = Catalog.open_reader(home / "tenants" / "default", "default")
    try:
        ids = sorted(catalog.vectors.ids("default"))
        return {i: v.tobytes() for i, v in catalog.vectors.vectors(ids).items()}
    finally:
        catalog.close()


def _index(home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    # Small batches, so the sample project's writes are more than one batch each and go to the workers; no vector
    # cache, so each run's vectors are what its own models make (not what the other run left).
    variables = {**os.environ, "TRIDENT_HOME": str(home), "TRIDENT_BATCH_SIZE": "4", "TRIDENT_VECTOR_CACHE_MB": "0"}
    variables |= env
    return subprocess.run(
        [str(TRIDENT), "index", str(EXAMPLES / "billing")], env=variables, capture_output=True, text=True, timeout=600
    )


def test_trident_index_on_a_ray_cluster_writes_what_a_local_run_writes(ray_head: str, tmp_path: Path) -> None:
    on_ray = _index(tmp_path / "ray", TRIDENT_RAY_ADDRESS=ray_head, TRIDENT_RAY_WORKERS="2")
    assert on_ray.returncode == 0, on_ray.stderr[-3000:]
    here = _index(tmp_path / "local")
    assert here.returncode == 0, here.stderr[-3000:]
    vectors = _chunk_vectors(tmp_path / "ray")
    assert len(vectors) > 8 and vectors == _chunk_vectors(tmp_path / "local")


def test_a_ray_address_nothing_answers_at_is_a_clear_error(tmp_path: Path) -> None:
    refused = _index(tmp_path / "home", TRIDENT_RAY_ADDRESS=f"127.0.0.1:{_free_port()}")
    assert refused.returncode == 2
    assert "no Ray cluster answers" in refused.stderr and "ray start --head" in refused.stderr
    assert not (tmp_path / "home" / "tenants" / "default" / "manifest.json").exists(), "it fails before opening"


def test_more_workers_than_the_cluster_has_cpus_is_a_clear_error_not_a_hang(ray_head: str, embedder: Embedder) -> None:
    cluster = ClusterSettings(ray_address=ray_head, ray_workers=3)  # the head has two CPUs
    with pytest.raises(EmbedderUnavailable, match=r"did not all start .* lower TRIDENT_RAY_WORKERS"):
        RayEmbedder(ModelSettings(), cluster, embedder, 8, start_seconds=5.0)


def test_ray_tasks_parse_exactly_what_a_local_parse_makes_in_the_files_order(ray_head: str) -> None:
    sources = walk(EXAMPLES, 1_000_000).files
    assert len(sources) > 20
    group_chars = 4_000  # many small groups: more than the tasks in flight, so results are collected as they come
    assert len(groups_of(sources, group_chars)) > 6
    parser = RayParser(ClusterSettings(ray_address=ray_head, ray_workers=2), group_chars=group_chars)
    on_ray = list(parser.parse("examples", sources, "default"))
    here = list(LocalParser().parse("examples", sources, "default"))
    assert [p.document.path for p in on_ray] == [s.rel for s in sources]
    assert on_ray == here, "every document, chunk, entity, relation and reference as a local parse makes them"


def test_files_are_grouped_in_order_by_their_text_and_a_large_file_goes_alone() -> None:
    sources = walk(EXAMPLES / "billing", 1_000_000).files
    sizes = [len(s.text) for s in sources]
    cap = max(sizes) - 1  # the largest file passes the cap: it makes a group of its own
    groups = groups_of(sources, cap)
    assert [s for g in groups for s in g] == sources
    assert all(len(g) == 1 or sum(len(s.text) for s in g) <= cap for g in groups)
    assert [max(sizes)] in [[len(s.text) for s in g] for g in groups]


def test_a_group_that_fails_on_a_worker_stops_the_parse_with_the_files_named(ray_head: str) -> None:
    sources = walk(EXAMPLES, 1_000_000).files
    broken = dataclasses.replace(sources[3], kind="no-such-kind")  # type: ignore[arg-type]  # refused by Document
    parser = RayParser(ClusterSettings(ray_address=ray_head, ray_workers=2), group_chars=4_000)
    named = rf"(?s)failed parsing .*{re.escape(broken.rel)}: ValidationError.*run it again"
    with pytest.raises(ClusterUnavailable, match=named):
        list(parser.parse("examples", [*sources[:3], broken, *sources[4:]], "default"))
