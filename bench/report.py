"""Plots and tables for docs/benchmarks.md from the JSON the other bench scripts wrote.

Usage: python bench/report.py        (needs matplotlib: pip install -e '.[bench]')
Reads ~/.cache/trident/bench/results/*.json and the 100K build log; writes docs/bench-latency-vs-size.png and
docs/bench-index-stages.png and prints the markdown tables.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import bench_home, index_dir

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIZES = ("1k", "10k", "100k")
INT8 = "sentence-transformers/all-MiniLM-L6-v2:int8"


def load(name: str) -> dict[str, Any] | None:
    path = bench_home() / "results" / name
    return json.loads(path.read_text()) if path.exists() else None


def latency_series(results: dict[str, dict[str, Any]]) -> dict[str, list[tuple[int, float, float]]]:
    series: dict[str, list[tuple[int, float, float]]] = {}
    for size in SIZES:
        r = results.get(size)
        if r is None:
            continue
        n = r["chunks"]
        rows = {f"search {k}": v for k, v in r["in_process"]["search"].items()}
        rows.update(r["in_process"]["tools"])
        for peer in (
            "lancedb hybrid (vector+FTS+RRF), incl. embedding",
            "numpy brute-force dot product, incl. embedding",
        ):
            if "peers" in r and peer in r["peers"]:
                rows[f"peer: {peer}"] = r["peers"][peer]
        if "stdio" in r:
            rows["stdio MCP: search auto"] = r["stdio"]["tools"]["search auto"]
        for name, s in rows.items():
            if s.get("n"):
                series.setdefault(name, []).append((n, s["p50"], s["p95"]))
    return series


def plot_latency(series: dict[str, list[tuple[int, float, float]]]) -> Path:
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.5), sharey=True)
    colours = plt.get_cmap("tab20")
    for ax, column, title in ((axes[0], 1, "p50"), (axes[1], 2, "p95")):
        for i, (name, points) in enumerate(sorted(series.items())):
            style = "--" if name.startswith("peer") else (":" if name.startswith("stdio") else "-")
            xs, ys = [p[0] for p in points], [p[column] for p in points]
            ax.plot(xs, ys, style, marker="o", color=colours(i), label=name)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("chunks in the index")
        ax.set_title(f"{title} latency, ms (2 cores, shared)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("ms")
    axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    out = DOCS / "bench-latency-vs-size.png"
    fig.savefig(out, dpi=110)
    return out


def build_stages() -> tuple[dict[str, float], int]:
    log = index_dir("100k", INT8) / "bench-build.jsonl"
    totals: dict[str, float] = {}
    chunks = 0
    for line in log.read_text().splitlines():
        record = json.loads(line)
        chunks = record["total_chunks"]
        for stage, seconds in record["stages"].items():
            totals[stage] = totals.get(stage, 0.0) + seconds
    return totals, chunks


def plot_stages(runs: dict[str, dict[str, float]]) -> Path:
    fig, ax = plt.subplots(figsize=(12, 1.2 + 0.8 * len(runs)))
    names = sorted({s for stages in runs.values() for s in stages}, key=lambda s: (not s.startswith("embed"), s))
    colours = plt.get_cmap("tab20")
    for row, stages in enumerate(runs.values()):
        left = 0.0
        total = sum(stages.values())
        for i, name in enumerate(names):
            share = 100 * stages.get(name, 0.0) / total
            ax.barh(row, share, left=left, color=colours(i % 20), label=name if row == 0 else None)
            if share > 4:
                ax.text(left + share / 2, row, f"{share:.0f}%", ha="center", va="center", fontsize=7)
            left += share
    ax.set_yticks(range(len(runs)), list(runs))
    ax.set_xlabel("% of indexing time (2-core machine); embed: other = chunk embedding")
    ax.legend(fontsize=7, ncol=5, loc="upper center", bbox_to_anchor=(0.5, -0.6))
    fig.tight_layout()
    out = DOCS / "bench-index-stages.png"
    fig.savefig(out, dpi=110, bbox_inches="tight")
    return out


def table(rows: dict[str, dict[str, Any]]) -> str:
    lines = ["| what | p50 ms | p95 ms | n |", "|---|---:|---:|---:|"]
    lines += [f"| {k} | {v['p50']} | {v['p95']} | {v['n']} |" for k, v in rows.items() if v.get("n")]
    return "\n".join(lines)


def main() -> None:
    results = {size: r for size in SIZES if (r := load(f"latency-{size}.json")) is not None}
    print(f"latency plot: {plot_latency(latency_series(results))}")
    runs: dict[str, dict[str, float]] = {}
    try:
        stages, chunks = build_stages()
        runs[f"{chunks} chunks, int8 (build)"] = stages
    except OSError:
        pass
    for model in ("all-MiniLM-L6-v2", "all-MiniLM-L6-v2-int8"):
        r = load(f"index-throughput-{model}.json")
        if r is not None:
            runs[f"{r['chunks']} chunks, {model}"] = r["stages_s"]
    if runs:
        print(f"stage plot: {plot_stages(runs)}")
        for label, stages in runs.items():
            total = sum(stages.values())
            embed = sum(v for k, v in stages.items() if k.startswith("embed"))
            print(
                f"{label}: total {total:.0f}s, embedding {embed:.0f}s, rest {total - embed:.0f}s "
                f"({(total - embed) / embed:.1%} of embedding)"
            )
            print("  " + ", ".join(f"{k} {v:.1f}" for k, v in sorted(stages.items(), key=lambda kv: -kv[1])))
    for size, r in results.items():
        print(f"\n### {size}: {r['chunks']} chunks ({r['model']})\n")
        print(table({f"search {k}": v for k, v in r["in_process"]["search"].items()} | r["in_process"]["tools"]))
        if "peers" in r:
            print()
            print(table({k: v for k, v in r["peers"].items() if isinstance(v, dict)}))
        if "stdio" in r:
            print()
            print(table(r["stdio"]["tools"]))
            print(
                f"cold start to first answer (s): {r['stdio']['cold_start_s']}; "
                f"server peak RSS {r['stdio']['server_peak_rss_mb']} MiB"
            )
        print("\nby query type (auto):")
        print(table(r["in_process"]["search_by_type"]))
        if r["in_process"]["errors"]:
            print("errors:", r["in_process"]["errors"])


if __name__ == "__main__":
    main()
