"""Cheap token estimates, so chunking stays near the embedding model's 256-token window without a tokenizer."""

from __future__ import annotations

from trident.store.tokens import estimate_tokens

# WordPiece splits long and mixed-case words further than this regex does; 200 estimated tokens lands close
# to 256 real ones on code and prose, and the embedder truncates the rare overflow at 256 anyway.
CHUNK_TOKEN_BUDGET = 200


def split_lines_by_budget(lines: list[str], budget: int = CHUNK_TOKEN_BUDGET, overlap: int = 2) -> list[range]:
    """Split line indices into consecutive windows of at most `budget` estimated tokens.

    Windows overlap by `overlap` lines, since a block split mid-way loses context at the cut. A single line
    over budget becomes its own window (the embedder truncates it).
    """
    windows: list[range] = []
    start = 0
    while start < len(lines):
        used = 0
        end = start
        while end < len(lines):
            cost = estimate_tokens(lines[end])
            if used + cost > budget and end > start:
                break
            used += cost
            end += 1
        windows.append(range(start, end))
        if end >= len(lines):
            break
        start = max(end - overlap, start + 1)
    return windows
