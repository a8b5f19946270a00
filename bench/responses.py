"""The largest response each MCP tool gives with its default arguments, on an index of code and docs.

Every tool is called through the MCP SDK's in-memory client, as a model's client calls it: `search` with each bench
query (default arguments, and `top_k=100`), the graph tools on the most connected entities (the largest answers),
`status` and `index_status`; then each again with the arguments that make its answer largest. A response's size is
the text content the client hands the model, in characters and in estimated tokens
(`trident.store.tokens.response_tokens`, three characters a token: JSON and code tokenize denser than prose).
Claude Code refuses a tool result above 25,000 tokens (and warns above 10,000).

Usage:
    TRIDENT_HOME=DIR python bench/responses.py [--queries bench/queries.jsonl] [--entities 10] [--json]
The index is the one TRIDENT_HOME holds (build it with `trident index ...`; see docs/benchmarks.md for the one
measured there).
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp.client import Client

from trident.cli.catalogs import open_catalog
from trident.server.app import build_server
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store.catalog import Catalog
from trident.store.tokens import response_tokens

QUERIES = Path(__file__).resolve().parent / "queries.jsonl"


@dataclass(frozen=True)
class Size:
    tool: str
    call: str
    chars: int
    tokens: int
    is_error: bool


def hubs(catalog: Catalog, count: int) -> list[str]:
    """The ids of the `count` entities with the most relations (ties by id): the largest graph answers."""
    degree: Counter[str] = Counter()
    for relation in catalog.graph.relations(catalog.tenant):
        degree[relation.source] += 1
        degree[relation.target] += 1
    defined = {entity.id for entity in catalog.graph.entities(catalog.tenant)}
    ranked = sorted((-n, entity) for entity, n in degree.items() if entity in defined)
    return [entity for _, entity in ranked[:count]]


# The arguments that make each tool's answer largest (beside its defaults).
LARGEST = {
    "search": {"top_k": 100, "explain": True},
    "trace_relationships": {"max_hops": 4, "limit": 500},
    "find_similar": {"top_k": 30},
    "explain_path": {"max_hops": 6, "max_paths": 10},
}


def calls(queries: list[str], entities: list[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every call measured, as (tool, arguments): with the defaults, and with the largest arguments allowed."""
    for extra in ({}, LARGEST["search"]):
        for query in queries:
            yield "search", {"query": query, **extra}
    for entity in entities:
        yield "get_entity", {"name_or_id": entity}
        for tool, key in (("trace_relationships", "entity"), ("find_similar", "entity")):
            yield tool, {key: entity}
            yield tool, {key: entity, **LARGEST[tool]}
    for source, target in itertools.pairwise(entities):
        yield "explain_path", {"source": source, "target": target}
        yield "explain_path", {"source": source, "target": target, **LARGEST["explain_path"]}
    yield "status", {}
    yield "index_status", {}


async def measure(settings: TridentSettings, catalog: Catalog, queries: list[str], entities: list[str]) -> list[Size]:
    server = build_server(settings, lambda: catalog, close_catalog=False)
    sizes = []
    async with Client(server) as client:
        for tool, arguments in calls(queries, entities):
            result = await client.call_tool(tool, arguments)
            text = "".join(getattr(block, "text", "") for block in result.content)
            call = ", ".join(f"{k}={v!r:.40}" for k, v in arguments.items())
            sizes.append(Size(tool, call, len(text), response_tokens(text), result.is_error))
    return sizes


def largest(sizes: list[Size]) -> dict[str, Size]:
    """Per tool, the largest response with the defaults and with the largest arguments."""
    out: dict[str, Size] = {}
    for size in sizes:
        extra = LARGEST.get(size.tool, {})
        widest = bool(extra) and all(f"{k}={v!r}" in size.call for k, v in extra.items())
        key = f"{size.tool}, largest args" if widest else size.tool
        if key not in out or size.tokens > out[key].tokens:
            out[key] = size
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=Path, default=QUERIES)
    parser.add_argument("--entities", type=int, default=10, help="How many of the most connected entities")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    settings = TridentSettings.from_env(ServerSettings(read_only=True))
    rows = [json.loads(line) for line in args.queries.read_text().splitlines() if line.strip()]
    queries = [row["query"] for row in rows if row.get("tool") == "search"]
    catalog = open_catalog(settings.store, settings.model)
    try:
        sizes = anyio.run(measure, settings, catalog, queries, hubs(catalog, args.entities))
        chunks = catalog.graph.counts(catalog.tenant)["chunks"]
    finally:
        catalog.close()
    errors = [s for s in sizes if s.is_error]
    top = largest(sizes)
    if args.json:
        print(json.dumps({"chunks": chunks, "calls": len(sizes), "largest": {k: asdict(v) for k, v in top.items()}}))
        return
    print(f"index: {chunks} chunks; {len(sizes)} calls, {len(errors)} error results")
    print(f"{'tool':<34} {'chars':>8} {'tokens':>7}  the call")
    for key, size in sorted(top.items()):
        print(f"{key:<34} {size.chars:>8} {size.tokens:>7}  {size.tool}({size.call})")


if __name__ == "__main__":
    main()
