"""Query latency on a cached bench index: every tool in-process and through a real stdio MCP session, with peers.

Peers run in the same process on the same chunks and vectors: LanceDB's own hybrid search (vector + its native FTS
+ its RRF reranker, on a side table holding the chunk texts), raw Tantivy BM25 on Trident's own lexical index, a
NumPy brute-force dot product over every chunk vector, and the bare query embedding.

The floor is what any search of both kinds must do for a query (embed it, a NumPy top-k over every chunk vector,
raw Tantivy BM25), timed one query at a time; stdio is measured twice, with the Python SDK's client (which checks
every answer against the tool's output schema, several milliseconds for a page of hits) and with bare JSON-RPC lines
(the server and the pipe alone).

Usage:
    python bench/latency.py [--sizes 1k,10k,100k] [--repeat 3] [--no-stdio] [--ann] [--seen]
Writes ~/.cache/trident/bench/results/latency-<size>[-ann][-seen].json per size and prints a table of the sizes (`--size
100k` is one size). `--ann` first copies the index and builds an IVF_HNSW_SQ index on the copy's chunk vectors
(what a threshold in store/engines/lance_index.py would do); the shipped index scans flat.
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
from trident.embedding.model_settings import ModelSettings
from trident.retrieval.entities import EntityNotFoundError
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import GenerationViews, Strategy, search_async
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder, SearchFilter
from trident.tools.explain import explain_path
from trident.tools.similar import find_similar
from trident.tools.trace import trace_relationships

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import bench_home, index_dir
from instrument import compile_package, peak_rss_mb

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
    catalog: Catalog,
    views: GenerationViews,
    repeat: int,
    by_tool: dict[str, list[dict[str, Any]]],
    seen: bool = False,
) -> dict[str, Any]:
    views.directory(catalog)
    results: dict[str, Any] = {"search": {}, "search_by_type": {}, "tools": {}, "errors": []}
    searches = by_tool["search"]
    # Warm every lazily built structure (PageRank graph, community table, graph vectors) once, untimed.
    for strategy in Strategy:
        await search_async(catalog, searches[0]["query"], strategy=strategy, views=views)
    for item in searches if seen else []:  # --seen: no query's hits are seen for the first time while timed
        await search_async(catalog, item["query"], views=views)
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
    reader = Reader(catalog, views)
    reader.relations()  # what a server walks (built once per generation, like the directory)
    per_tool: dict[str, list[float]] = {}
    for figure, tool, args in tool_args(by_tool):
        fn: Callable[[], Any]
        if tool == "trace_relationships":
            fn = lambda a=args: trace_relationships(reader, a["entity"], max_hops=a["max_hops"])  # noqa: E731
        elif tool == "explain_path":
            fn = lambda a=args: explain_path(reader, a["source"], a["target"])  # noqa: E731
        else:
            fn = lambda a=args: find_similar(reader, **a)  # noqa: E731
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
    # The floor: what any search of both kinds must do, one query at a time (embed, NumPy top-k, raw BM25).
    out["floor (embedding + numpy top-k + raw tantivy)"] = summary(
        timed_each(lambda q: (embedder.embed_query(q), brute(q), bm25(q)), searches, repeat)
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


# What a search says of a path not ready yet: the model still loading, the walk's views still being built.
NOT_READY = ("still loading", "still being built")


def _still_loading(result: Any) -> bool:
    failed = ((result.structured_content or {}).get("diagnostics") or {}).get("failed_paths") or {}
    return any(words in reason for reason in failed.values() for words in NOT_READY)


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
        deadline = time.perf_counter() + 120
        for strategy in Strategy:  # every path ready (the model loaded, the walk's views built) before timing
            arguments = {"query": searches[0]["query"], "strategy": strategy.value}
            while _still_loading(await session.call_tool("search", arguments)) and time.perf_counter() < deadline:
                await anyio.sleep(0.05)
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


def raw_stdio(home: Path, model: str, repeat: int, searches: list[str]) -> dict[str, Any]:
    """`search` over stdio with bare JSON-RPC lines (what any client's transport does), so the figure is the
    server's and the pipe's, without the Python SDK client's validation of each answer against the output schema."""
    import subprocess

    trident = str(Path(sys.executable).parent / "trident")
    env = {**os.environ, "TRIDENT_HOME": str(home), "TRIDENT_MODEL": model}
    server = subprocess.Popen(
        [trident, "serve", "--read-only"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    ids = iter(range(1, 1_000_000))

    def call(method: str, params: dict[str, Any]) -> dict[str, Any]:
        number = next(ids)
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": number, "method": method, "params": params}) + "\n")
        server.stdin.flush()
        while True:  # notifications may come first
            message = json.loads(server.stdout.readline())
            if message.get("id") == number:
                return message

    def search(query: str) -> dict[str, Any]:
        return call("tools/call", {"name": "search", "arguments": {"query": query}})

    try:
        client = {"name": "bench", "version": "0"}
        call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client})
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        deadline = time.perf_counter() + 120

        def waiting() -> bool:  # a path of some query is not ready yet
            answers = (json.dumps(search(query)) for query in searches)
            return any(words in answer for answer in answers for words in NOT_READY)

        while time.perf_counter() < deadline and waiting():
            time.sleep(0.05)
        for query in searches[:3]:
            search(query)
        return {"search auto (raw JSON-RPC)": summary(timed_each(search, searches, repeat))}
    finally:
        server.kill()
        server.wait()


def ann_copy(index: Path) -> Path:
    """A copy of the index whose chunk table has an IVF_HNSW_SQ index (cosine)."""
    import lancedb

    copy = index.parent / f"{index.name}-ann"
    if not copy.exists():
        shutil.copytree(index, copy, ignore=shutil.ignore_patterns("write.lock"))
        table = lancedb.connect(str(copy / "semantic")).open_table("chunks")
        table.create_index(metric="cosine", vector_column_name="vector", index_type="IVF_HNSW_SQ")
    return copy


def measure(size: str, args: argparse.Namespace, settings: ModelSettings) -> dict[str, Any]:
    """Every figure for the bench index of one size."""
    index = index_dir(size, settings.model)
    if args.ann:
        index = ann_copy(index)
    embedder = open_embedder(settings)
    catalog = Catalog(index, TENANT, embedder)
    result: dict[str, Any] = {
        "size": size,
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
    result["in_process"] = anyio.run(in_process, catalog, views, args.repeat, by_tool, args.seen)
    result["in_process_peak_rss_mb"] = round(peak_rss_mb())
    if not args.no_peers:
        result["peers"] = peers(catalog, embedder, size, settings.model, args.repeat)
    catalog.close()
    if not args.no_stdio:
        compile_package()  # a spawned server reads the package's bytecode, as an installed one does
        home = serving_home(index)
        result["stdio"] = anyio.run(stdio, home, settings.model, args.repeat, args.cold_starts, by_tool)
        searches = [q["query"] for q in by_tool["search"]]
        result["stdio"]["tools"].update(raw_stdio(home, settings.model, args.repeat, searches))
    result["load_after"] = os.getloadavg()
    return result


def table(results: list[dict[str, Any]]) -> str:
    """The headline figures of each size, side by side (milliseconds, p50 / p95)."""

    def cell(figure: dict[str, Any] | None) -> str:
        return f"{figure['p50']:.1f} / {figure['p95']:.1f}" if figure and figure.get("n") else "-"

    rows = {
        "search auto, in-process": lambda r: r["in_process"]["search"].get("auto"),
        "search auto, stdio (raw JSON-RPC)": lambda r: (
            r.get("stdio", {}).get("tools", {}).get("search auto (raw JSON-RPC)")
        ),
        "search auto, stdio (Python SDK client)": lambda r: r.get("stdio", {}).get("tools", {}).get("search auto"),
        "floor (embedding + numpy top-k + raw tantivy)": lambda r: r.get("peers", {}).get(
            "floor (embedding + numpy top-k + raw tantivy)"
        ),
        "LanceDB hybrid incl. embedding": lambda r: r.get("peers", {}).get(
            "lancedb hybrid (vector+FTS+RRF), incl. embedding"
        ),
        "query embedding": lambda r: r.get("peers", {}).get("query embedding"),
    }
    lines = ["| p50 / p95 ms | " + " | ".join(f"{r['size']} ({r['chunks']:,} chunks)" for r in results) + " |"]
    lines.append("|---|" + "---:|" * len(results))
    lines += [f"| {name} | " + " | ".join(cell(get(r)) for r in results) + " |" for name, get in rows.items()]
    ratios = []
    for r in results:
        auto, floor = rows["search auto, in-process"](r), rows["floor (embedding + numpy top-k + raw tantivy)"](r)
        ratios.append(f"{auto['p50'] / floor['p50']:.2f}x" if auto and floor and floor.get("n") else "-")
    lines.append("| auto p50 / floor p50 | " + " | ".join(ratios) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1k,10k,100k", help="comma-separated; a size not built is skipped")
    parser.add_argument("--size", dest="sizes", help="one size (as --sizes)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cold-starts", type=int, default=3)
    parser.add_argument("--no-stdio", action="store_true")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--ann", action="store_true")
    parser.add_argument(
        "--seen",
        action="store_true",
        help="search every query once, untimed, before timing: no hit's file is seen for the first time (its git "
        "blame, remembered per file version, is then not timed)",
    )
    args = parser.parse_args()
    settings = ModelSettings()
    results = []
    for size in args.sizes.split(","):
        if not (index_dir(size, settings.model) / "manifest.json").exists():
            print(f"{size}: no bench index at {index_dir(size, settings.model)} (bench/corpus.py builds it); skipped")
            continue
        result = measure(size, args, settings)
        suffix = ("-ann" if args.ann else "") + ("-seen" if args.seen else "")
        out = bench_home() / "results" / f"latency-{size}{suffix}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"{size}: figures in {out}")
        results.append(result)
    if results:
        print(table(results))


if __name__ == "__main__":
    main()
