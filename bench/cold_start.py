"""Cold start over stdio on any index: spawn `trident serve`, time the MCP handshake, the first `search` answered,
the first answer that includes the semantic path (the model loads in the background meanwhile) and the first with
every planned path (`complete_search_s`: on a large index the walk's views are also built in the background).

`first_search_s` is when the server's answer arrives; `first_checked_s` is when the Python SDK's client has also
checked it against the tool's output schema (its first check compiles the schema: a few hundred milliseconds that
are the client's, and that another client's validator spends differently). Then every `search` query of
bench/queries.jsonl is asked once and the server's resident memory read from /proc: `serving_rss_mb` (then),
`serving_peak_rss_mb` (its high-water mark since the spawn, warm-up included), and the resident split into
`serving_anon_mb` and `serving_file_mb` (pages of mapped files).

Usage:
    python bench/cold_start.py --index ~/.cache/trident/eval/2wiki-0e2328ceb27d [--runs 5] [--persist] [--reader-files]
The index is copied to a temporary TRIDENT_HOME first (the cached one is never written). `--persist` writes the
chunk-vector file of the copy's published generation, as a publish by this version would have (an index published
before the file existed is served from LanceDB instead); `--reader-files` writes the graph vectors' and community
reports' reader files and names their versions, as this version's syncs do. The package's bytecode is written first
(`bench/instrument.py`, `compile_package`), as an installed wheel has it. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))
from instrument import compile_package

TENANT = "default"
QUERY = "Who directed the film that won the award?"
QUERIES = Path(__file__).resolve().parent / "queries.jsonl"
SEMANTIC_WAIT_SECONDS = 120.0


def copy_home(index: Path, root: Path) -> Path:
    """A TRIDENT_HOME whose default tenant is a copy of `index`."""
    home = root / "home"
    shutil.copytree(index, home / "tenants" / TENANT, ignore=shutil.ignore_patterns("write.lock"))
    return home


def persist_matrix(index_dir: Path) -> None:
    """Write the chunk-vector file of the published generation, as this version's publish does."""
    from trident.store.catalog import Catalog
    from trident.store.mapped.chunk_files import write_chunk_files

    catalog = Catalog.open_reader(index_dir, TENANT)
    rows = catalog.graph.chunk_table(TENANT)
    write_chunk_files(catalog.generation_folder, catalog.vectors, TENANT, None, rows)
    catalog.close()


def persist_reader_files(index_dir: Path, model: str) -> None:
    """Write the entity and relation vectors' and the community reports' reader files and name their versions, as
    this version's syncs do (an index synced before them is read through LanceDB)."""
    from trident.embedding.embedder import open_embedder
    from trident.embedding.model_settings import ModelSettings
    from trident.store.catalog import Catalog
    from trident.store.engines.community_index import open_communities
    from trident.store.engines.graph_vectors import open_graph_vectors
    from trident.store.mapped.community_rows import COMMUNITY_ROWS_DIR, keep_report_rows
    from trident.store.mapped.graph_vector_rows import GRAPH_VECTOR_ROWS_DIR, keep_rows

    catalog = Catalog.open_reader(index_dir, TENANT, open_embedder(ModelSettings(model=model)))
    keep_rows(open_graph_vectors(catalog), index_dir / GRAPH_VECTOR_ROWS_DIR, TENANT)
    keep_report_rows(open_communities(catalog), index_dir / COMMUNITY_ROWS_DIR, TENANT)
    catalog.close()


def _answered_paths(result: Any) -> tuple[list[str], list[str]]:
    diagnostics = (result.structured_content or {}).get("diagnostics", {})
    return sorted(diagnostics.get("candidates", {})), sorted(diagnostics.get("failed_paths") or {})


async def one_start(home: Path, model: str, query: str) -> dict[str, Any]:
    from mcp import types
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    trident = str(Path(sys.executable).parent / "trident")
    env = {**os.environ, "TRIDENT_HOME": str(home), "TRIDENT_MODEL": model}
    params = StdioServerParameters(command=trident, args=["serve", "--read-only"], env=env)
    out: dict[str, Any] = {}
    started = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            out["initialized_s"] = round(time.perf_counter() - started, 3)
            arguments = {"query": query}
            request = types.CallToolRequest(params=types.CallToolRequestParams(name="search", arguments=arguments))
            result = await session.send_request(request, types.CallToolResult)
            out["first_search_s"] = round(time.perf_counter() - started, 3)
            await session.validate_tool_result("search", result)
            out["first_checked_s"] = round(time.perf_counter() - started, 3)
            out["first_paths"], out["first_failed"] = _answered_paths(result)
            deadline = time.perf_counter() + SEMANTIC_WAIT_SECONDS
            while "semantic" not in _answered_paths(result)[0] and time.perf_counter() < deadline:
                await anyio.sleep(0.05)
                result = await session.call_tool("search", {"query": query})
            out["semantic_search_s"] = round(time.perf_counter() - started, 3)
            while _answered_paths(result)[1] and time.perf_counter() < deadline:
                await anyio.sleep(0.05)
                result = await session.call_tool("search", {"query": query})
            out["complete_search_s"] = round(time.perf_counter() - started, 3)
            for line in QUERIES.read_text().splitlines():
                row = json.loads(line)
                if row["tool"] == "search":
                    await session.call_tool("search", {"query": row["query"]})
            out.update(_server_memory_mb())
    return out


def _server_memory_mb() -> dict[str, float]:
    """Memory of this process's child (the server the stdio client spawned), in MB: resident, its high-water mark
    since the spawn, and the resident split into anonymous memory and mapped files' pages (the mapped vectors and
    rows a search reads: the kernel's cache, which it can reclaim)."""
    fields_mb = {"VmRSS": "serving_rss_mb", "VmHWM": "serving_peak_rss_mb", "RssAnon": "serving_anon_mb"}
    fields_mb["RssFile"] = "serving_file_mb"
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        except OSError:  # the process ended meanwhile
            continue
        if int(fields["PPid"]) == os.getpid():
            return {name: round(int(fields[key].split()[0]) / 1024, 1) for key, name in fields_mb.items()}
    raise RuntimeError("the server process was not found among this process's children")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", type=Path, required=True, help="an index folder (a tenant's, with manifest.json)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--model", default=os.environ.get("TRIDENT_MODEL", "sentence-transformers/all-MiniLM-L6-v2"))
    parser.add_argument("--query", default=QUERY)
    parser.add_argument("--persist", action="store_true", help="write the chunk-vector file first")
    parser.add_argument(
        "--reader-files", action="store_true", help="write the graph vectors' and communities' reader files first"
    )
    args = parser.parse_args()
    manifest = json.loads((args.index / "manifest.json").read_text())
    chunks = sum(len(doc["chunk_ids"]) for doc in manifest["documents"].values())
    compile_package()
    with tempfile.TemporaryDirectory(prefix="trident-cold-") as root:
        home = copy_home(args.index.expanduser(), Path(root))
        if args.persist:
            persist_matrix(home / "tenants" / TENANT)
        if args.reader_files:
            persist_reader_files(home / "tenants" / TENANT, args.model)
        runs = [anyio.run(one_start, home, args.model, args.query) for _ in range(args.runs)]
    result: dict[str, Any] = {
        "index": str(args.index),
        "chunks": chunks,
        "persisted": args.persist,
        "reader_files": args.reader_files,
        "runs": runs,
    }
    figures = ("initialized_s", "first_search_s", "first_checked_s", "semantic_search_s", "complete_search_s")
    for figure in (*figures, "serving_rss_mb", "serving_peak_rss_mb", "serving_anon_mb", "serving_file_mb"):
        values = [run[figure] for run in runs]
        result[figure] = {"median": round(statistics.median(values), 3), "min": min(values), "max": max(values)}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
