"""What the vector cache saves: the same folders indexed into two fresh indexes, each by a fresh process's model, the
second reading back what the first embedded (TRIDENT_VECTOR_CACHE, embedding/vector_cache.py).

Prints, for each run, the CPU seconds of the whole index run (every thread, ONNX Runtime's included), of the model's
runs within it, the texts the model embedded and the vectors read back; then whether both indexes hold the same
vectors, byte for byte. The cache is a file of its own in a temporary folder, so the user's is neither read nor filled.

    python bench/vector_cache.py [FOLDER ...]     (default: the sample projects in examples/)
    python bench/vector_cache.py --fill 100000    (the file's size a vector, and how fast vectors go in and out)
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from trident.embedding.embedder import FastEmbedEmbedder, open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.embedding.vector_cache import VectorCache
from trident.ingest.pipeline import index_folder
from trident.store.catalog import Catalog

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class ModelClock:
    """Counts the texts `embedder`'s model runs on and the CPU seconds those runs take."""

    def __init__(self, embedder: FastEmbedEmbedder) -> None:
        self.texts = 0
        self.seconds = 0.0
        model = embedder._embedded

        def timed(texts: Sequence[str]) -> np.ndarray:
            started = time.process_time()
            vectors = model(texts)
            self.seconds += time.process_time() - started
            self.texts += len(texts)
            return vectors

        embedder._embedded = timed  # type: ignore[method-assign]


def index_once(folders: Sequence[Path], home: Path, cache: Path) -> tuple[dict[str, object], dict[str, bytes]]:
    """Index `folders` into a new index at `home`; what it cost, and each chunk's vector."""
    embedder = open_embedder(ModelSettings(vector_cache=cache))
    assert isinstance(embedder, FastEmbedEmbedder)
    clock = ModelClock(embedder)
    asked = 0
    real_embed = embedder.embed

    def counted(texts: Sequence[str]) -> np.ndarray:
        nonlocal asked
        asked += len(texts)
        return real_embed(texts)

    embedder.embed = counted  # type: ignore[method-assign]
    catalog = Catalog(home, "default", embedder)
    started = time.process_time()
    with catalog.writer() as writer:
        for folder in folders:
            index_folder(writer, folder, folder.name, max_file_bytes=1_000_000)
    spent = time.process_time() - started
    table = catalog.vectors._table.to_arrow()
    rows = (np.asarray(v, dtype=np.float32).tobytes() for v in table["vector"].to_pylist())
    vectors = dict(zip(table["id"].to_pylist(), rows, strict=True))
    catalog.close()
    figures: dict[str, object] = {
        "index_cpu_s": round(spent, 2),
        "model_cpu_s": round(clock.seconds, 2),
        "texts_embedded": clock.texts,
        "vectors_read_back": asked - clock.texts,
    }
    return figures, vectors


def fill(count: int, dim: int = 384, batch: int = 1000) -> dict[str, object]:
    """`count` random vectors kept in a new cache file, `batch` a call, then one batch read back."""
    rows = np.random.default_rng(0).random((batch, dim), dtype=np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "vectors.sqlite"
        cache = VectorCache(path, "bench", dim, 1 << 40)
        started = time.perf_counter()
        for start in range(0, count, batch):
            cache.put([f"text {n}" for n in range(start, start + batch)], rows)
        put_s = time.perf_counter() - started
        started = time.perf_counter()
        read = cache.get([f"text {n}" for n in range(batch)])
        get_s = time.perf_counter() - started
        cache.close()
        size = path.stat().st_size
    return {
        "vectors": count,
        "file_mb": round(size / 1e6, 1),
        "bytes_a_vector": round(size / count),
        "put_per_s": round(count / put_s),
        "get_per_s": round(len(read) / get_s),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--fill", type=int, metavar="N", help="measure the file with N random vectors instead")
    args = parser.parse_args()
    if args.fill:
        print(json.dumps(fill(args.fill), indent=2))
        return
    folders = args.folders or [EXAMPLES / name for name in ("billing", "auth", "storefront")]
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "vectors.sqlite"
        first, first_vectors = index_once(folders, Path(tmp) / "first", cache)
        second, second_vectors = index_once(folders, Path(tmp) / "second", cache)
    print(json.dumps({"first": first, "second": second, "same_vectors": first_vectors == second_vectors}, indent=2))


if __name__ == "__main__":
    main()
