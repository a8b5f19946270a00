"""How `trident search` prints its hits as text: each hit's citation, score and ranks, where it comes from and when
it last changed, its snippet, and the flags of evidence that disagrees (one line a flag); a compact hit as its
citation, name and score, its summary and its best lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

from trident.cli.hints import in_terminal
from trident.retrieval.flags import ConflictFlag, EvidenceFlag
from trident.retrieval.search_engine import SearchHit

if TYPE_CHECKING:
    from trident.tools.search_compact import CompactHit, SearchAnswer

SNIPPET_SHOWN = 400  # characters of a hit's snippet printed


def print_hits(out: Console, result: SearchAnswer, offset: int, top_k: int) -> None:
    """The hits of `result` one after the other, then the next page's options when the token budget cut it."""
    if not result.hits:
        out.print(escape(in_terminal(result.message or "no hits")), soft_wrap=True, highlight=False)
    for hit in result.hits:
        if isinstance(hit, SearchHit):
            print_hit(out, hit)
        else:
            print_compact_hit(out, hit)
    if result.hits and result.message:  # a partial answer says what it lacks
        out.print(f"[yellow]note:[/yellow] {escape(in_terminal(result.message))}", soft_wrap=True, highlight=False)
    if result.truncated:
        shown = offset + len(result.hits)
        out.print(f"[dim]cut at the token budget; the next page: --offset {shown} --top-k {top_k - len(result.hits)}")


def print_hit(out: Console, hit: SearchHit) -> None:
    """One hit: a heading line (rank, citation, title, score, each path's rank, source kind, last change date), its
    snippet indented, then a line for a stale file and one per flag."""
    ranks = " ".join(f"{name[:3]}={rank}" for name, rank in hit.sources.items() if rank is not None)
    origin = "".join(f" · {part}" for part in (_kind(hit), _date(hit.last_modified)) if part)
    heading = f"[bold]{hit.rank:>2}. {escape(hit.citation)}[/bold]  {escape(hit.title)}  [dim]{hit.score:.4f} {ranks}"
    out.print(f"{heading}{escape(origin)}[/dim]", soft_wrap=True)
    out.print("    " + hit.snippet.replace("\n", "\n    ")[:SNIPPET_SHOWN], markup=False, highlight=False)
    if hit.stale:
        out.print(f"    [yellow]stale:[/yellow] {escape(hit.stale_reason or '')}")
    for flag in hit.flags:
        label, text = flag_line(flag)
        out.print(f"    [yellow]{label}:[/yellow] {escape(text)}", soft_wrap=True, highlight=False)


def print_compact_hit(out: Console, hit: CompactHit) -> None:
    """One compact hit: a heading line (rank, citation, name, score), then its summary and its lines indented."""
    out.print(
        f"[bold]{hit.rank:>2}. {escape(hit.citation)}[/bold]  {escape(hit.name)}  [dim]{hit.score:.3f}", soft_wrap=True
    )
    for line in (hit.summary, *hit.lines):
        out.print(f"    {line}", markup=False, highlight=False, soft_wrap=True)


def flag_line(flag: EvidenceFlag) -> tuple[str, str]:
    """A flag as a label and one line of text: a conflict's type, key, values by citation and the source to prefer
    (or why none is); a stale reference's name, what no longer matches and where to look instead."""
    if isinstance(flag, ConflictFlag):
        values = ", ".join(f"{value} at {citation}" for citation, value in flag.values.items())
        verdict = f"prefer {flag.preferred} ({flag.why})" if flag.preferred else f"none preferred ({flag.why})"
        return f"conflict {flag.type}", f"{flag.key}: {values}; {verdict}"
    see = f"; see {flag.see}" if flag.see else ""
    return "stale reference", f"{flag.name}: {flag.detail}{see}"


def _kind(hit: SearchHit) -> str:
    return str(hit.source_kind) if hit.source_kind is not None else ""


def _date(last_modified: str | None) -> str:
    """The day of an ISO-8601 time (`2023-11-14T22:13:20Z` -> `2023-11-14`): enough to weigh a hit by its age."""
    return f"changed {last_modified[:10]}" if last_modified else ""
