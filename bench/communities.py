"""Community detection on real indexes: how many Leiden passes each partition needs to settle, the modularity after
each pass, and a digest of the communities detection publishes (to compare igraph releases).

Usage: python bench/communities.py INDEX_DIR [INDEX_DIR ...] [--max-passes N] [--json]
    e.g. python bench/communities.py ~/.cache/trident/eval/*    (the indexes `trident eval` built)
       python bench/communities.py --folders DIR [DIR ...]     (index the folders first, one project each, with
                                                                 TRIDENT_MODEL's model, into a temporary index)
Run it under two igraph releases (one venv each) and compare the `digest` lines: equal digests mean equal
communities. Prints one block per index; nothing here is timed inside the test suite.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
import time
from pathlib import Path

import igraph

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.ingest.community_reports import (
    LEIDEN_PASSES,
    SEED,
    SPLIT_SIZE,
    _Deadline,
    _EntityGraph,
    _partition,
    _seeded,
    detect_communities,
)
from trident.ingest.pipeline import index_folder
from trident.store.catalog import Catalog


def _modularity(graph: igraph.Graph, groups: list[list[int]]) -> float:
    membership = [0] * graph.vcount()
    for label, members in enumerate(groups):
        for vertex in members:
            membership[vertex] = label
    weights = graph.es["weight"] if graph.ecount() else None
    return round(float(graph.modularity(membership, weights=weights)), 6)


def _settling(graph: igraph.Graph, max_passes: int) -> dict[str, object]:
    """Partitions after 1..max_passes passes (each from the same seed): the pass after which nothing changed, and
    the modularity at each count."""
    by_passes = []
    for passes in range(1, max_passes + 1):
        with _seeded(SEED):
            by_passes.append(_partition(graph, _Deadline.after(3600), passes=passes))
    settled = next((i + 1 for i in range(len(by_passes) - 1) if by_passes[i] == by_passes[i + 1]), None)
    return {
        "vertices": graph.vcount(),
        "edges": graph.ecount(),
        "settled_after": settled,
        "modularity": [_modularity(graph, groups) for groups in by_passes],
        "communities": len(by_passes[-1]),
    }


def measure(index_dir: Path, max_passes: int) -> dict[str, object]:
    catalog = Catalog(index_dir, "default", None, read_only=True)
    try:
        entities, relations = catalog.entities(), catalog.graph.relations(catalog.tenant)
    finally:
        catalog.close()
    built = _EntityGraph.build(entities, relations)
    level0 = _settling(built.graph, max_passes)
    with _seeded(SEED):
        top = _partition(built.graph, _Deadline.after(3600))
    inner = [_settling(built.graph.induced_subgraph(m), max_passes) for m in top if len(m) > SPLIT_SIZE]
    started = time.perf_counter()
    reports = detect_communities(entities, relations)
    seconds = time.perf_counter() - started
    digest = hashlib.sha1(json.dumps([r.members for r in reports]).encode()).hexdigest()[:16]
    return {
        "index": index_dir.name,
        "igraph": igraph.__version__,
        "passes_bound": LEIDEN_PASSES,
        "level0": level0,
        "level1_split": len(inner),
        "level1_settled_after_max": max((s["settled_after"] or max_passes + 1) for s in inner) if inner else 0,
        "level1_not_settled": sum(1 for s in inner if s["settled_after"] is None),
        "reports": len(reports),
        "detection_seconds": round(seconds, 3),
        "digest": digest,
    }


def index_folders(folders: list[Path], index_dir: Path) -> Path:
    catalog = Catalog(index_dir, "default", open_embedder(ModelSettings()))
    try:
        with catalog.writer() as writer:
            for folder in folders:
                index_folder(writer, folder, folder.name, max_file_bytes=1_000_000)
    finally:
        catalog.close()
    return index_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("indexes", nargs="*", type=Path)
    parser.add_argument("--folders", nargs="*", type=Path, default=[])
    parser.add_argument("--max-passes", type=int, default=12)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    indexes = list(args.indexes)
    if args.folders:
        indexes.append(index_folders(args.folders, Path(tempfile.mkdtemp(prefix="communities-")) / "folders"))
        print(f"indexed {len(args.folders)} folders into {indexes[-1]}")
    for index_dir in indexes:
        result = measure(index_dir, args.max_passes)
        if args.json:
            print(json.dumps(result))
            continue
        level0 = result["level0"]
        assert isinstance(level0, dict)
        print(
            f"{result['index']} (igraph {result['igraph']}): {level0['vertices']:,} entities, {level0['edges']:,} edges"
        )
        print(f"  level 0 settled after {level0['settled_after']} passes; modularity by passes {level0['modularity']}")
        print(
            f"  level 1: {result['level1_split']} communities split, slowest settled after "
            f"{result['level1_settled_after_max']} passes, {result['level1_not_settled']} never within the bound"
        )
        print(f"  {result['reports']} reports in {result['detection_seconds']} s; digest {result['digest']}")


if __name__ == "__main__":
    main()
