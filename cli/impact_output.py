"""`trident impact` rendered for a person: what changed, the verdict first (so a lower bound is never read as all),
then the callers, the tests, what no test reaches and the prose that names the change."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from trident.cli.hints import in_terminal
from trident.tools.impact import ImpactResult


def show_impact(out: Console, result: ImpactResult) -> None:
    for item in result.changed:
        renamed = f" -> {item.renamed_to}" if item.renamed_to else ""
        where = f" {item.path}" if item.path else ""
        out.print(f"[bold]changed[/bold] {escape(item.id or item.name)} ({item.change}{escape(renamed)}){where}")
    colour = "green" if result.verdict.status == "complete" else "yellow"
    out.print(f"[{colour}]verdict: {result.verdict.status}[/{colour}]")
    for reason in result.verdict.reasons:
        out.print(f"  [dim]{escape(reason.kind)}:[/dim] {escape(reason.detail)}")
    out.print(f"\n[bold]callers[/bold] ({result.callers_total})")
    for caller in result.callers:
        tested = "" if caller.tested else "  [red]untested[/red]"
        out.print(f"  {caller.hops} {caller.resolution.value:<8} {escape(caller.id)}{tested}")
        if caller.chain:
            out.print("      " + escape(" -> ".join(caller.chain)))
    out.print(f"\n[bold]tests[/bold] ({result.tests_total})")
    for test in result.tests:
        line = f":{test.line}" if test.line else ""
        out.print(f"  {escape(test.path or '')}{line} {escape(test.name)}  [dim]{escape(test.through)}[/dim]")
    if result.untested:
        out.print("\n[bold]no test reaches[/bold]")
        for entity_id in result.untested:
            out.print(f"  {escape(entity_id)}")
    if result.docs:
        out.print("\n[bold]docs[/bold]")
        for doc in result.docs:
            flag = f"  [yellow]{escape(doc.stale_reference)}[/yellow]" if doc.stale_reference else ""
            out.print(f"  {escape(doc.citation)}{flag}")
    if result.next_call:
        out.print(f"\nmore callers: {escape(in_terminal(result.next_call))}")
