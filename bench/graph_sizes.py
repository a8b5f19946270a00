"""How many characters `explain_path` and `trace_relationships` answers take, in full and with detail='compact', on
the agent call questions' real projects (`bench/call_questions/`, the four projects of the code-search set indexed
as four projects of one home).

Each "How does A end up calling B?" question is asked of `explain_path(A, B)` with its defaults, each "What calls X?"
and "What could break if I change X?" question of `trace_relationships(X)` with its defaults (both directions, two
hops or one around a hub), once in full and once compact; the size is the answer's JSON as a server sends it
(compact separators, UTF-8). The compact answer must hold the same paths and edges: the script checks their counts.

Usage:
    python bench/graph_sizes.py [--hash-embedder] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path
from typing import Any

from agent_calls import HERE, Home, open_home
from code_search import fetch_projects
from corpus import bench_home

from trident.embedding.embedder import Embedder, open_embedder
from trident.embedding.hash_embedder import HashEmbedder
from trident.embedding.model_settings import ModelSettings
from trident.tools.explain import explain_path
from trident.tools.trace import trace_relationships


def _chars(answer: Any) -> int:
    return len(json.dumps(answer.model_dump(mode="json"), separators=(",", ":"), ensure_ascii=False))


def sizes(home: Home, questions: list[dict[str, Any]]) -> dict[str, list[tuple[int, int]]]:
    """Per tool, (full, compact) characters of each answer."""
    out: dict[str, list[tuple[int, int]]] = {"explain_path": [], "trace_relationships": []}
    for q in questions:
        if q["kind"] == "path":
            chain = q["chains"][0]
            ends = [home.id_of(q["project"], chain[0]), home.id_of(q["project"], chain[-1])]
            if None in ends:
                continue
            full = explain_path(home.reader, str(ends[0]), str(ends[1]))
            compact = explain_path(home.reader, str(ends[0]), str(ends[1]), detail="compact")
            assert len(full.paths) == len(compact.paths), q["id"]
            out["explain_path"].append((_chars(full), _chars(compact)))
        else:
            target = home.id_of(q["project"], q["symbol"])
            if target is None:
                continue
            full_trace = trace_relationships(home.reader, target)
            compact_trace = trace_relationships(home.reader, target, detail="compact")
            assert len(full_trace.edges) == len(compact_trace.edges), q["id"]
            out["trace_relationships"].append((_chars(full_trace), _chars(compact_trace)))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hash-embedder", action="store_true", help="index with the hashing embedder (no model)")
    parser.add_argument("--keep", type=Path, help="index into this folder and keep it; reuse it when it is there")
    args = parser.parse_args(argv)
    spec = json.loads((HERE / "projects.json").read_text())
    cache = bench_home() / "code-search" / "+".join(sorted(spec["sdists"].values()))
    roots = fetch_projects(spec["sdists"], cache)
    embedder: Embedder = HashEmbedder() if args.hash_embedder else open_embedder(ModelSettings())
    questions = [json.loads(line) for line in (HERE / "questions.jsonl").read_text().splitlines() if line.strip()]
    with tempfile.TemporaryDirectory(prefix="graph-sizes-") as tmp:
        home = open_home(roots, args.keep or Path(tmp) / "index", embedder, spec["library"])
        try:
            measured = sizes(home, sorted(questions, key=lambda q: q["id"]))
        finally:
            home.reader.catalog.close()
    print(f"{'tool':<20} {'answers':>7} {'full median':>12} {'compact median':>15} {'full max':>9} {'compact max':>12}")
    for tool, pairs in measured.items():
        full, compact = [f for f, _ in pairs], [c for _, c in pairs]
        print(
            f"{tool:<20} {len(pairs):>7} {statistics.median(full):>12,.0f} {statistics.median(compact):>15,.0f}"
            f" {max(full):>9,} {max(compact):>12,}"
        )


if __name__ == "__main__":
    main()
