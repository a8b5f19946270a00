"""The graph tools' argument bounds, apart from the tools: the CLI states its options' ranges from them without
loading the retrieval stack the tools need (the server's schemas and the tools' own checks read the same values)."""

from __future__ import annotations

TRACE_MAX_HOPS = 4
TRACE_MAX_EDGES = 500
TRACE_MAX_OFFSET = 5_000
TRACE_MIN_MAX_TOKENS = 200  # the root and one edge
TRACE_MAX_MAX_TOKENS = 100_000

EXPLAIN_MAX_HOPS = 6
EXPLAIN_MAX_PATHS = 10
