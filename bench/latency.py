"""Query latency on a cached bench index: every tool in-process and through a real stdio MCP session, with peers.

Peers run in the same process on the same chunks and vectors: LanceDB's own hybrid search (vector + its native FTS
+ its RRF reranker, on a side table holding the chunk texts), raw Tantivy BM25 on Trident's own lexical index, a
NumPy brute-force dot product over every chunk vector, and the bare query embedding.

Usage:
    python bench/latency.py --size 100k [--repeat 3] [--no-stdio] [--ann]
Writes ~/.cache/trident/bench/results/latency-<size>[-ann].json and prints a summary. `--ann` first copies the
index and builds an IVF_HNSW_SQ index on the copy's chunk vectors (what a threshold in store/lance_index.py would
do); the shipped index scans flat.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import numpy as np

from trident.embedding.embedder import open_embedder
from trident.retrieval.entities import EntityNotFoundError
from trident.retrieval.search import GenerationViews, Strategy, search_async
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder, SearchFilter
from trident.store.settings import ModelSettings, RetrievalSettings
from trident.tools.explain import explain_path
from trident.tools.similar import find_similar
from trident.tools.trace import trace_relationships

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import bench_home, index_dir
from instrument import peak_rss_mb

QUERIES = Path(__file__).resolve().parent / "queries.jsonl"
TENANT = "default"


def summary(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples)
    if not ms:
        return {"n": 0}
    return {
        "n": len(ms),
        "p50": round(statistics.median(ms), 2),
        "p95": round(ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))], 2),
        "mean": round(statistics.fmean(ms), 2),
        "max": round(ms[-1], 2),
    }


def load_queries() -> dict[str, list[dict[str, Any]]]:
    by_tool: dict[str, list[dict[str, Any]]] = {}
    for line in QUERIES.read_text().splitlines():
        if line.strip():
            item = json.loads(line)
            by_tool.setdefault(item["tool"], []).append(item)
    return by_tool


def timed(fn: Callable[[], Any], repeat: int) -> tuple[list[float], Any]:
    samples: list[float] = []
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - started)
    return samples, result


GRAPH_INPUTS = 8
STRUCTURAL = ("CALLS", "INHERITS", "IMPORTS", "DEFINES")


def _stable(*parts: str) -> str:
    return hashlib.sha1("\0".join(parts).encode()).hexdigest()


def graph_inputs(catalog: Catalog, by_tool: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The committed trace/explain/similar inputs that this index holds, topped up to GRAPH_INPUTS each with a
    deterministic pick from its own graph (subsets lack most committed entities): entities with the most edges for
    trace and find_similar, ends of two-hop structural chains for explain_path."""
    entities = {e.id: e for e in catalog.entities()}
    relations = [r for r in catalog.graph.relations(catalog.tenant) if r.type in STRUCTURAL]
    degree: dict[str, int] = {}
    for r in relations:
        degree[r.source] = degree.get(r.source, 0) + 1
        degree[r.target] = degree.get(r.target, 0) + 1
    hubs = sorted(
        (e for e in entities if e.startswith(("class:", "function:", "method:"))), key=lambda e: (-degree.get(e, 0), e)
    )
    out: dict[str, list[dict[str, Any]]] = {"trace_relationships": [], "explain_path": [], "find_similar": []}
    for item in by_tool.get("trace_relationships", []):
        if item["entity"] in entities:
            out["trace_relationships"].append(item)
    for hub in hubs:
        if len(out["trace_relationships"]) >= GRAPH_INPUTS:
            break
        if not any(i["entity"] == hub for i in out["trace_relationships"]):
            out["trace_relationships"].append({"tool": "trace_relationships", "entity": hub, "picked": True})
    for item in by_tool.get("explain_path", []):
        if item["source"] in entities and item["target"] in entities:
            out["explain_path"].append(item)
    outgoing: dict[str, list[str]] = {}
    for r in relations:
        if r.source != r.target:
            outgoing.setdefault(r.source, []).append(r.target)
    chains = sorted(
        {(a, c) for a, bs in outgoing.items() for b in bs for c in outgoing.get(b, ()) if c != a and c not in bs},
        key=lambda pair: _stable(*pair),
    )
    for a, c in chains[: max(0, GRAPH_INPUTS - len(out["explain_path"]))]:
        out["explain_path"].append({"tool": "explain_path", "source": a, "target": c, "picked": True})
    out["find_similar"] = [
        item for item in by_tool.get("find_similar", []) if "entity" not in item or item["entity"] in entities
    ]
    out["find_similar"] += [
        {"tool": "find_similar", "entity": i["entity"], "picked": True} for i in out["trace_relationships"][:3]
    ]
    return out


def tool_args(by_tool: dict[str, list[dict[str, Any]]]) -> list[tuple[str, str, dict[str, Any]]]:
    """(figure name, MCP tool name, arguments) for the graph and similarity tools."""
    calls: list[tuple[str, str, dict[str, Any]]] = []
    for item in by_tool.get("trace_relationships", []):
        calls.append(("trace_relationships (2 hops)", "trace_relationships", {"entity": item["entity"], "max_hops": 2}))
    for item in by_tool.get("explain_path", []):
        calls.append(("explain_path", "explain_path", {"source": item["source"], "target": item["target"]}))
    for item in by_tool.get("find_similar", []):
        args = {k: item[k] for k in ("text", "entity", "chunk_id") if k in item}
        calls.append(("find_similar", "find_similar", args))
    return calls


async def in_process(
    catalog: Catalog, views: GenerationViews, repeat: int, by_tool: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    views.directory(catalog)
    results: dict[str, Any] = {"search": {}, "search_by_type": {}, "tools": {}, "errors": []}
    searches = by_tool["search"]
    # Warm every lazily built structure (PageRank graph, community table, graph vectors) once, untimed.
    for strategy in Strategy:
        await search_async(catalog, searches[0]["query"], strategy=strategy, views=views)
    for strategy in Strategy:
        samples: list[float] = []
        per_type: dict[str, list[float]] = {}
        per_path: dict[str, list[float]] = {}
        for item in searches:
            for _ in range(repeat):
                started = time.perf_counter()
                found = await search_async(catalog, item["query"], strategy=strategy, views=views)
                spent = time.perf_counter() - started
                samples.append(spent)
                per_type.setdefault(item["type"], []).append(spent)
                for path, ms in found.diagnostics.timings_ms.items():
                    per_path.setdefault(path, []).append(ms / 1000)
        results["search"][strategy.value] = summary(samples)
        if strategy is Strategy.AUTO:
            results["search_by_type"] = {t: summary(s) for t, s in per_type.items()}
            results["auto_path_timings"] = {p: summary(s) for p, s in per_path.items()}
    directory = views.directory(catalog)
    relations = views.relations(catalog)  # what a server walks (built once per generation, like the directory)
    per_tool: dict[str, list[float]] = {}
    for figure, tool, args in tool_args(by_tool):
        fn: Callable[[], Any]
        if tool == "trace_relationships":
            fn = lambda a=args: trace_relationships(  # noqa: E731
                catalog, directory, a["entity"], max_hops=a["max_hops"], relations=relations
            )
        elif tool == "explain_path":
            fn = lambda a=args: explain_path(  # noqa: E731
                catalog, directory, a["source"], a["target"], relations=relations
            )
        else:
            fn = lambda a=args: find_similar(catalog, directory, **a)  # noqa: E731
        try:
            fn()
            samples, _ = timed(fn, repeat)
        except (EntityNotFoundError, ValueError, TypeError) as exc:  # TypeError: a bug in explain_path, reported
            results["errors"].append(f"{tool} {args}: {exc}")
            continue
        per_tool.setdefault(figure, []).extend(samples)
    results["tools"] = {figure: summary(s) for figure, s in per_tool.items()}
    return results


def lance_hybrid_table(catalog: Catalog, size: str, model: str) -> Any:
    """A LanceDB table with the same chunk ids, texts and vectors as the index, plus LanceDB's native FTS index."""
    import lancedb
    import pyarrow as pa

    path = bench_home() / f"peer-lancedb-{size}-{model.rsplit('/', 1)[-1].replace(':', '-')}"
    db = lancedb.connect(str(path))
    if "chunks" in db.table_names():
        return db.open_table("chunks")
    arrow = catalog.vectors._table.to_arrow().select(["id", "vector"])
    ids = arrow["id"].to_pylist()
    texts: list[str] = []
    for start in range(0, len(ids), 2000):
        got = catalog.graph.get_chunks(ids[start : start + 2000])
        texts.extend(got[i].text if i in got else "" for i in ids[start : start + 2000])
    table = db.create_table("chunks", pa.table({"id": ids, "text": texts, "vector": arrow["vector"]}))
    table.create_fts_index("text", use_tantivy=False)
    if len(ids) >= 50_000:
        table.create_index(metric="cosine", vector_column_name="vector", index_type="IVF_HNSW_SQ")
    return table


def peers(catalog: Catalog, embedder: Embedder, size: str, model: str, repeat: int) -> dict[str, Any]:
    from lancedb.rerankers import RRFReranker

    searches = [q["query"] for q in load_queries()["search"]]
    out: dict[str, Any] = {}
    vectors = {q: embedder.embed_query(q) for q in searches}
    out["query embedding"] = summary(timed_each(lambda q: embedder.embed_query(q), searches, repeat))

    table = lance_hybrid_table(catalog, size, model)
    reranker = RRFReranker()

    def hybrid(q: str, embed: bool) -> Any:
        vector = embedder.embed_query(q) if embed else vectors[q]
        return table.search(query_type="hybrid").vector(vector).text(q).rerank(reranker).limit(10).to_list()

    for q in searches[:3]:
        hybrid(q, False)
    out["lancedb hybrid (vector+FTS+RRF), incl. embedding"] = summary(
        timed_each(lambda q: hybrid(q, True), searches, repeat)
    )
    out["lancedb hybrid (vector+FTS+RRF), search only"] = summary(
        timed_each(lambda q: hybrid(q, False), searches, repeat)
    )
    out["lancedb vector only (Trident's table), search only"] = summary(
        timed_each(lambda q: catalog.vectors.search(vectors[q], 10, SearchFilter(TENANT, None)), searches, repeat)
    )

    import tantivy

    raw = catalog.text._index
    raw.reload()
    searcher = raw.searcher()

    def bm25(q: str) -> Any:
        words = " ".join(w for w in q.replace("\n", " ").split() if w.isalnum())
        query = raw.parse_query(words or "x", ["body", "title"])
        return searcher.search(query, 10).hits

    _ = tantivy
    out["raw tantivy BM25"] = summary(timed_each(bm25, searches, repeat))
    out["trident lexical adapter (TextIndex.search)"] = summary(
        timed_each(lambda q: catalog.text.search(q, 50, SearchFilter(TENANT, None)), searches, repeat)
    )

    matrix = np.stack(catalog.vectors._table.to_arrow()["vector"].to_numpy(zero_copy_only=False)).astype(np.float32)

    def brute(q: str) -> Any:
        scores = matrix @ vectors[q]
        top = np.argpartition(-scores, 10)[:10]
        return top[np.argsort(-scores[top])]

    out["numpy brute-force dot product, search only"] = summary(timed_each(brute, searches, repeat))
    out["numpy brute-force dot product, incl. embedding"] = summary(
        timed_each(lambda q: (embedder.embed_query(q), brute(q)), searches, repeat)
    )
    out["chunks"] = int(matrix.shape[0])
    return out


def timed_each(fn: Callable[[str], Any], items: list[str], repeat: int) -> list[float]:
    samples: list[float] = []
    for item in items:
        for _ in range(repeat):
            started = time.perf_counter()
            fn(item)
            samples.append(time.perf_counter() - started)
    return samples


def serving_home(index: Path) -> Path:
    """A TRIDENT_HOME whose default tenant is the bench index (a symlink), so `trident serve` opens it as is."""
    home = index.parent / f"home-{index.name}"
    link = home / "tenants" / TENANT
    if not link.exists():
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(index)
    return home


def _children_hwm_mb() -> float:
    """Peak RSS of this process's child processes (the server), from /proc (Linux)."""
    best = 0.0
    me = str(os.getpid())
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if fields[1] != me:
                continue
            for line in (stat.parent / "status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    best = max(best, int(line.split()[1]) / 1024)
        except (OSError, IndexError):
            continue
    return best


def _still_loading(result: Any) -> bool:
    failed = ((result.structured_content or {}).get("diagnostics") or {}).get("failed_paths") or {}
    return any("still loading" in reason for reason in failed.values())


async def stdio(
    home: Path, model: str, repeat: int, cold_starts: int, by_tool: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    trident = str(Path(sys.executable).parent / "trident")
    env = {**os.environ, "TRIDENT_HOME": str(home), "TRIDENT_MODEL": model}
    params = StdioServerParameters(command=trident, args=["serve", "--read-only"], env=env)
    searches = by_tool["search"]
    # The first answer may come before the model has loaded (in the background): `cold_start_s` times it, and
    # `cold_start_semantic_s` the first answer with no path still waiting for the model.
    out: dict[str, Any] = {"cold_start_s": [], "cold_start_semantic_s": []}
    for _ in range(cold_starts):
        started = time.perf_counter()
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("search", {"query": searches[0]["query"]})
            out["cold_start_s"].append(round(time.perf_counter() - started, 2))
            deadline = time.perf_counter() + 120
            while _still_loading(result) and time.perf_counter() < deadline:
                await anyio.sleep(0.05)
                result = await session.call_tool("search", {"query": searches[0]["query"]})
            out["cold_start_semantic_s"].append(round(time.perf_counter() - started, 2))

    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for strategy in Strategy:
            await session.call_tool("search", {"query": searches[0]["query"], "strategy": strategy.value})
        samples: dict[str, list[float]] = {}
        for strategy in (Strategy.AUTO, Strategy.HYBRID):
            for item in searches:
                for _ in range(repeat):
                    started = time.perf_counter()
                    result = await session.call_tool("search", {"query": item["query"], "strategy": strategy.value})
                    samples.setdefault(f"search {strategy.value}", []).append(time.perf_counter() - started)
                    if result.is_error:
                        out.setdefault("errors", []).append(str(result.content)[:200])
        for figure, tool, args in tool_args(by_tool):
            for _ in range(repeat):
                started = time.perf_counter()
                result = await session.call_tool(tool, args)
                if result.is_error:
                    out.setdefault("errors", []).append(f"{tool} {args}: {str(result.content)[:200]}")
                else:
                    samples.setdefault(figure, []).append(time.perf_counter() - started)
        out["tools"] = {figure: summary(s) for figure, s in samples.items()}
        out["server_peak_rss_mb"] = round(_children_hwm_mb())
    return out


def ann_copy(index: Path) -> Path:
    """A copy of the index whose chunk table has an IVF_HNSW_SQ index (cosine)."""
    import lancedb

    copy = index.parent / f"{index.name}-ann"
    if not copy.exists():
        shutil.copytree(index, copy, ignore=shutil.ignore_patterns("write.lock"))
        table = lancedb.connect(str(copy / "semantic")).open_table("chunks")
        table.create_index(metric="cosine", vector_column_name="vector", index_type="IVF_HNSW_SQ")
    return copy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="100k")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold-starts", type=int, default=3)
    parser.add_argument("--no-stdio", action="store_true")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--ann", action="store_true")
    args = parser.parse_args()
    settings = ModelSettings()
    index = index_dir(args.size, settings.model)
    if args.ann:
        index = ann_copy(index)
    embedder = open_embedder(settings)
    catalog = Catalog(index, TENANT, embedder)
    result: dict[str, Any] = {
        "size": args.size,
        "index": str(index),
        "model": settings.model,
        "chunks": sum(len(e.chunk_ids) for e in catalog.manifest.documents.values()),
        "cpus": os.cpu_count(),
        "load_before": os.getloadavg(),
    }
    by_tool = load_queries()
    by_tool.update(graph_inputs(catalog, by_tool))
    result["graph_inputs"] = {k: v for k, v in by_tool.items() if k != "search"}
    views = GenerationViews(RetrievalSettings())
    result["in_process"] = anyio.run(in_process, catalog, views, args.repeat, by_tool)
    result["in_process_peak_rss_mb"] = round(peak_rss_mb())
    if not args.no_peers:
        result["peers"] = peers(catalog, embedder, args.size, settings.model, args.repeat)
    catalog.close()
    if not args.no_stdio:
        result["stdio"] = anyio.run(stdio, serving_home(index), settings.model, args.repeat, args.cold_starts, by_tool)
    result["load_after"] = os.getloadavg()
    out = bench_home() / "results" / f"latency-{args.size}{'-ann' if args.ann else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
