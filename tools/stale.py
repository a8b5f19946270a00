"""The find_stale tool: prose in the index (documents, docstrings, comments) naming code its project no longer has,
or calling it with an argument count no definition takes, a page at a time, each with the current definition or the
nearest existing name to see instead."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from trident.retrieval.reader import Reader
from trident.retrieval.stale_scan import SCAN_CHUNKS, StaleScan, stale_scan
from trident.tools.calls import check_range, suggest_call

MAX_LIMIT = 200  # a reference costs about 80 tokens: 200 stay within the answer budget of every tool
MAX_OFFSET = 100_000
# How long find_stale waits for its index generation's scan (about 4 s at its 20,000 chunks, measured) before it
# answers that the scan is still under way: well within a client's tool timeout, with room for a loaded machine.
WAIT_SECONDS = 20.0


class StaleReference(BaseModel):
    project: str
    citation: str = Field(description="Where the prose names the code")
    name: str = Field(description="The name as written, with the call's arguments when it calls it")
    detail: str = Field(description="What no longer matches")
    see: str | None = Field(None, description="Citation of the current definition or of the nearest existing name")


class FindStaleResult(BaseModel):
    references: list[StaleReference] = Field(description="The stale references of this page, by project and path")
    counts: dict[str, int] = Field(description="Stale references per project (in the projects asked for)")
    total: int = Field(description="Stale references in the projects asked for")
    checked: int = Field(description="Chunks of documents and code read (the whole index's)")
    unchecked: int = Field(0, description=f"Chunks not read: one scan reads at most {SCAN_CHUNKS:,}")
    still_counting: bool = Field(
        False,
        description=f"True when the index generation's scan was still under way after {WAIT_SECONDS:.0f} s: nothing "
        "is listed yet, next_call asks again",
    )
    truncated: bool = Field(False, description="True when more references follow this page")
    next_call: str | None = Field(None, description="When truncated (or still counting), the call for the next page")


def find_stale(
    reader: Reader,
    *,
    projects: Sequence[str] | None = None,
    offset: int = 0,
    limit: int = 50,
    wait: float | None = WAIT_SECONDS,
) -> FindStaleResult:
    """The index's stale references in `projects` (all when None), from `offset`, at most `limit`; the scan of the
    index generation waited for at most `wait` seconds (None: until it ends). The scan runs in the reader's
    views (a server's: one scan a generation).

    Raises:
        ArgumentError: offset outside 0..MAX_OFFSET or limit outside 1..MAX_LIMIT.
    """
    check_range("offset", offset, 0, MAX_OFFSET)
    check_range("limit", limit, 1, MAX_LIMIT)
    scan = stale_scan(reader.catalog, reader.directory(), wait, reader.views)
    if scan is None:
        given = list(projects) if projects is not None else None
        again = suggest_call("find_stale", projects=given, offset=offset, limit=limit)
        return FindStaleResult(references=[], counts={}, total=0, checked=0, still_counting=True, next_call=again)
    return _page(scan, projects, offset, limit)


def _page(scan: StaleScan, projects: Sequence[str] | None, offset: int, limit: int) -> FindStaleResult:
    wanted = [f for f in scan.findings if projects is None or f.project in projects]
    page = wanted[offset : offset + limit]
    truncated = offset + len(page) < len(wanted)
    given = list(projects) if projects is not None else None
    return FindStaleResult(
        references=[StaleReference(**vars(f)) for f in page],
        counts={p: n for p, n in scan.counts().items() if projects is None or p in projects},
        total=len(wanted),
        checked=scan.checked,
        unchecked=scan.unchecked,
        truncated=truncated,
        next_call=suggest_call("find_stale", projects=given, offset=offset + len(page), limit=limit)
        if truncated
        else None,
    )
