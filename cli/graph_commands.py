"""`trident trace`, `explain`, `impact`, `similar` and `entity`: the MCP tools `trace_relationships`,
`explain_path`, `impact`, `find_similar` and `get_entity` from the command line, with the tools' argument names (in
kebab-case), defaults and limits.

`--json` prints exactly what an MCP client gets as the tool's structured content; without it the result is rendered
for a person. The result goes to stdout, nothing else does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.markup import escape

from trident.cli.hints import in_terminal
from trident.retrieval.direction import Direction
from trident.store.schema import DocumentKind, Resolution
from trident.tools import bounds
from trident.tools.calls import RESPONSE_TOKENS

# The tools and the retrieval stack under them load when a command of this module runs, not when the CLI starts:
# every other command (status, search, index, ...) starts without them.
if TYPE_CHECKING:
    from trident.retrieval.entities import EntityRef
    from trident.retrieval.omitted import Omitted
    from trident.retrieval.reader import Reader
    from trident.retrieval.search_engine import SearchHit
    from trident.server.server_settings import TridentSettings
    from trident.store.catalog import Catalog
    from trident.tools.explain import CompactPath, ExplainResult, Hop, PathResult
    from trident.tools.get_entity import EntityResult
    from trident.tools.similar import SimilarResult
    from trident.tools.trace import Edge, TraceResult

T = TypeVar("T")

MIN_RESOLUTION_HELP = (
    "Only calls and bases bound at least this surely: exact, inferred (from a stated type), dispatch (an override "
    "the bound call may run) or name (a guess from the name alone). Other relations are always walked."
)
RelationTypes = Annotated[
    list[str] | None, typer.Option("--relation-type", help="Only this relation type, e.g. CALLS (repeatable).")
]
MinResolution = Annotated[Resolution, typer.Option(help=MIN_RESOLUTION_HELP)]
PathResolution = Annotated[
    Resolution | None,
    typer.Option(
        help=MIN_RESOLUTION_HELP + " Left out: dispatch, and where no surer chain of calls joins two callables, a "
        "chain through name guesses before any structural path."
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print the tool's structured output as JSON.")]
GraphDetail = Annotated[
    str, typer.Option(help="full, or compact: one line an edge or path, entities by the names code imports them by.")
]


def register(
    app: typer.Typer,
    *,
    settings: Callable[[], TridentSettings],
    catalog: Callable[[TridentSettings, bool], AbstractContextManager[Catalog]],
    user_errors: Callable[[], AbstractContextManager[None]],
    err: Console,
) -> None:
    """Add the five commands to `app`, over the CLI's own ways to read the settings, open the index and end a
    command on an error the user can fix (handed in, so this module never imports the CLI's entry module)."""
    commands = GraphCommands(settings, catalog, user_errors, err)
    app.command("trace")(commands.trace)
    app.command("explain")(commands.explain)
    app.command("similar")(commands.similar)
    app.command("entity")(commands.entity)
    app.command("impact")(commands.impact)


def _top_k_in_range(value: int) -> int:
    """find_similar's own bound on top_k, checked before any work; read here rather than at start-up because the
    tool's module loads the search pipeline (SciPy included), which only this command needs."""
    from trident.tools.similar import MAX_TOP_K

    if not 1 <= value <= MAX_TOP_K:
        bound = "greater than or equal to 1" if value < 1 else f"less than or equal to {MAX_TOP_K}"
        raise typer.BadParameter(f"Input should be {bound}")
    return value


class GraphCommands:
    """The commands; each opens the index, calls the tool's function as the server does (the directory and the
    relations of `GenerationViews`), and prints the result."""

    def __init__(
        self,
        settings: Callable[[], TridentSettings],
        catalog: Callable[[TridentSettings, bool], AbstractContextManager[Catalog]],
        user_errors: Callable[[], AbstractContextManager[None]],
        err: Console,
    ) -> None:
        self._settings = settings
        self._catalog = catalog
        self._user_errors = user_errors
        self._err = err

    def _answer(self, with_embedder: bool, answer: Callable[[Reader], T]) -> T:
        """`answer` over the index as the command reads it (one generation, `read_once`); an error the user can fix
        (a bad argument, an unknown or ambiguous entity, an index problem) ends the command with its message and
        exit code 2."""
        from trident.retrieval.reader import Reader, read_once

        settings = self._settings()
        with self._catalog(settings, with_embedder) as catalog, self._user_errors(), self._entity_errors():
            return read_once(Reader.open(catalog, settings.retrieval), answer)

    @contextmanager
    def _entity_errors(self) -> Iterator[None]:
        """An entity the index does not know, or several it could be: the message names it and what to ask for."""
        from trident.retrieval.entities import EntityNotFoundError

        try:
            yield
        except EntityNotFoundError as exc:
            self._err.print(f"[red]error:[/red] {escape(str(exc))}")
            raise typer.Exit(2) from None

    def trace(
        self,
        entity: Annotated[str, typer.Argument(help="Entity name, qualified name or id.")],
        direction: Annotated[Direction, typer.Option(help="Relations out of it, into it, or both.")] = Direction.BOTH,
        relation_type: RelationTypes = None,
        max_hops: Annotated[
            int | None,
            typer.Option(min=1, max=bounds.TRACE_MAX_HOPS, help="How far to walk (default 2, 1 around a hub)."),
        ] = None,
        limit: Annotated[int, typer.Option(min=1, max=bounds.TRACE_MAX_EDGES, help="Most edges to return.")] = 50,
        min_resolution: MinResolution = Resolution.DISPATCH,
        offset: Annotated[
            int, typer.Option(min=0, max=bounds.TRACE_MAX_OFFSET, help="Edges of the walk to skip: a further page.")
        ] = 0,
        max_tokens: Annotated[
            int,
            typer.Option(
                min=bounds.TRACE_MIN_MAX_TOKENS,
                max=bounds.TRACE_MAX_MAX_TOKENS,
                help="Cap on the answer's size in tokens; a cut answer says how to get the next page.",
            ),
        ] = RESPONSE_TOKENS,
        detail: GraphDetail = "full",
        as_json: AsJson = False,
    ) -> None:
        """What an entity calls, uses, imports or depends on, or is used by (the MCP tool trace_relationships).

        A bounded walk of the graph, with the evidence and resolution of every edge.
        """
        from trident.tools.trace import trace_relationships

        result = self._answer(
            False,
            lambda reader: trace_relationships(
                reader,
                entity,
                direction=direction,
                relation_types=relation_type,
                max_hops=max_hops,
                limit=limit,
                min_resolution=min_resolution,
                offset=offset,
                max_tokens=max_tokens,
                detail=detail,
            ),
        )
        _emit(result, as_json, _show_trace)

    def explain(
        self,
        source: Annotated[str, typer.Argument(help="Start entity: name, qualified name or id.")],
        target: Annotated[str, typer.Argument(help="End entity: name, qualified name or id.")],
        max_hops: Annotated[int, typer.Option(min=1, max=bounds.EXPLAIN_MAX_HOPS, help="Longest path considered.")] = 4,
        max_paths: Annotated[int, typer.Option(min=1, max=bounds.EXPLAIN_MAX_PATHS, help="Most paths returned.")] = 3,
        relation_type: RelationTypes = None,
        min_resolution: PathResolution = None,
        detail: GraphDetail = "full",
        as_json: AsJson = False,
    ) -> None:
        """How two things connect: the best paths between two entities (the MCP tool explain_path).

        Each path as a sentence you can quote, then its hops with their evidence.
        """
        from trident.tools.explain import explain_path

        result = self._answer(
            False,
            lambda reader: explain_path(
                reader,
                source,
                target,
                max_hops=max_hops,
                max_paths=max_paths,
                relation_types=relation_type,
                min_resolution=min_resolution,
                detail=detail,
            ),
        )
        _emit(result, as_json, _show_explain)

    def impact(
        self,
        entity: Annotated[
            list[str] | None, typer.Argument(help="Changed entities: names, qualified names or ids.")
        ] = None,
        changes: Annotated[
            str | None,
            typer.Option(help="A git change instead: working-tree, or a range BASE..HEAD of the indexed projects."),
        ] = None,
        project: Annotated[list[str] | None, typer.Option(help="Only these projects' changes (repeatable).")] = None,
        max_hops: Annotated[int, typer.Option(min=1, max=6, help="How many calls away a caller may be.")] = 3,
        min_resolution: MinResolution = Resolution.DISPATCH,
        paths: Annotated[bool, typer.Option(help="Show each caller's chain of calls to the change.")] = False,
        offset: Annotated[int, typer.Option(min=0, help="Callers and tests to skip: a further page.")] = 0,
        limit: Annotated[int, typer.Option(min=1, max=200, help="Most callers and tests shown (each).")] = 50,
        as_json: AsJson = False,
    ) -> None:
        """What a change affects: callers, tests, prose, and whether that is complete (the MCP tool impact)."""
        from trident.cli.impact_output import show_impact
        from trident.tools.impact import impact

        result = self._answer(
            False,
            lambda reader: impact(
                reader,
                entities=entity or None,
                changes=changes,
                projects=project,
                max_hops=max_hops,
                min_resolution=min_resolution,
                paths=paths,
                offset=offset,
                limit=limit,
            ),
        )
        _emit(result, as_json, show_impact)

    def similar(
        self,
        text: Annotated[str | None, typer.Option(help="An example text or snippet.")] = None,
        chunk_id: Annotated[str | None, typer.Option(help="Id of an indexed chunk (from search hits).")] = None,
        entity: Annotated[str | None, typer.Option(help="An entity whose definition is the example.")] = None,
        top_k: Annotated[
            int, typer.Option("--top-k", "-k", callback=_top_k_in_range, help="Number of hits, up to the tool's limit.")
        ] = 10,
        project: Annotated[list[str] | None, typer.Option(help="Only these projects (repeatable).")] = None,
        kind: Annotated[list[DocumentKind] | None, typer.Option(help="Only chunks of this kind (repeatable).")] = None,
        as_json: AsJson = False,
    ) -> None:
        """Chunks most like an example (the MCP tool find_similar).

        Give exactly one of --text, --chunk-id or --entity; the example itself is left out.
        """
        from trident.tools.similar import find_similar

        result = self._answer(
            True,
            lambda reader: find_similar(
                reader,
                text=text,
                chunk_id=chunk_id,
                entity=entity,
                top_k=top_k,
                projects=project,
                kinds=[k.value for k in kind] if kind else None,
            ),
        )
        _emit(result, as_json, _show_similar)

    def entity(
        self,
        name_or_id: Annotated[str, typer.Argument(help="Entity name, qualified name, alias or id.")],
        as_json: AsJson = False,
    ) -> None:
        """Describe one named thing (the MCP tool get_entity).

        What it is, where it is defined, its aliases and how many relations of each type it has.
        """
        from trident.tools.get_entity import get_entity

        result = self._answer(False, lambda reader: get_entity(reader, name_or_id))
        _emit(result, as_json, _show_entity)


def _emit(result: Any, as_json: bool, show: Callable[[Console, Any], None]) -> None:
    """The result as the tool's structured content (`--json`), or rendered for a person."""
    if as_json:
        _echo_json(result)
    else:
        show(Console(soft_wrap=True), result)


def _echo_json(result: BaseModel | list[SearchHit]) -> None:
    """What an MCP client gets as the tool's structured content: a model as JSON, a list wrapped as `{"result": [...]}`
    (the SDK wraps any output that is not an object)."""
    structured: Any
    if isinstance(result, BaseModel):
        structured = result.model_dump(mode="json", by_alias=True)
    else:
        structured = {"result": [hit.model_dump(mode="json", by_alias=True) for hit in result]}
    typer.echo(json.dumps(structured, indent=2, ensure_ascii=False))


def _show_trace(out: Console, result: TraceResult) -> None:
    """The root, then the edges hop by hop (in the walk's order within a hop), then what was cut or left out."""
    from trident.tools.trace import Edge

    out.print(_ref(result.root))
    if not result.edges:
        out.print("no relations found")
    depth = {result.root.id: 0} | {path[-1]: len(path) - 1 for path in result.paths or [] if path}
    shown = 0
    for line in (e for e in result.edges if isinstance(e, str)):  # a compact answer's edges, in the walk's order
        out.print("  " + escape(line))
    for edge in sorted((e for e in result.edges if isinstance(e, Edge)), key=lambda e: _hop(e, depth)):
        if (hop := _hop(edge, depth)) != shown:
            shown = hop
            out.print(f"[bold]hop {hop}[/bold]")
        out.print("  " + _relation(edge))
    if result.truncated and result.next_call:
        rest = escape(in_terminal(result.next_call))
        out.print(f"[yellow]truncated[/yellow] after {len(result.edges)} edges; the rest: {rest}")
    _show_omitted(out, result.omitted if result.edges else [])
    if result.message:
        out.print(f"[yellow]note:[/yellow] {escape(in_terminal(result.message))}")


def _hop(edge: Edge, depth: dict[str, int]) -> int:
    """How many hops from the root the walk took this edge: one more than its nearer end."""
    known = [depth[end] for end in (edge.source, edge.target) if end in depth]
    return min(known) + 1 if known else 0


def _show_explain(out: Console, result: ExplainResult) -> None:
    """Each path's sentence, then its hops with their evidence."""
    from trident.tools.explain import PathResult

    out.print(f"{_ref(result.source)}\n→ {_ref(result.target)}")
    paths: list[PathResult | CompactPath] = list(result.paths)
    for number, path in enumerate(paths, 1):
        code = "  [dim](code relations only)[/dim]" if isinstance(path, PathResult) and path.code_only else ""
        out.print(f"\n[bold]{number}.[/bold] {escape(path.sentence)}{code}")
        for hop in path.hops if isinstance(path, PathResult) else []:
            out.print("   " + _relation(hop))
    _show_omitted(out, result.omitted if result.paths else [])
    if result.message:
        out.print(f"[yellow]note:[/yellow] {escape(in_terminal(result.message))}")


def _relation(edge: Edge | Hop) -> str:
    """`source —TYPE→ target  (resolution)  citation` of one relation, as stored (whichever way a path walks it)."""
    where = escape(edge.evidence) if edge.evidence else "[dim]no evidence[/dim]"
    return (
        f"{escape(edge.source)} [cyan]—{escape(edge.type)}→[/cyan] {escape(edge.target)}  "
        f"[dim]({edge.resolution.value})[/dim]  {where}"
    )


def _ref(ref: EntityRef) -> str:
    where = escape(ref.citation) if ref.citation else "no definition indexed"
    return f"[bold]{escape(ref.name)}[/bold] [dim]{escape(ref.type)} {escape(ref.id)}[/dim]  {where}"


def _show_hits(out: Console, hits: list[SearchHit]) -> None:
    """Hits as `trident search` prints them: rank, citation, title, score, then the snippet."""
    if not hits:
        out.print("no hits")
    for hit in hits:
        out.print(
            f"[bold]{hit.rank:>2}. {escape(hit.citation)}[/bold]  {escape(hit.title)}  [dim]{hit.score:.4f}[/dim]"
        )
        out.print("    " + hit.snippet.replace("\n", "\n    ")[:400], markup=False, highlight=False)
        if hit.stale:
            out.print(f"    [yellow]stale:[/yellow] {escape(hit.stale_reason or '')}")


def _show_similar(out: Console, result: SimilarResult) -> None:
    """The hits, then what the filters left out (an empty answer's message names them all)."""
    _show_hits(out, result.result)
    _show_omitted(out, result.omitted if result.result else [])
    if result.message:
        out.print(f"[yellow]note:[/yellow] {escape(in_terminal(result.message))}")


def _show_omitted(out: Console, omitted: Sequence[Omitted]) -> None:
    """One line per filter or limit that left something out, with the call that shows it."""
    for entry in omitted:
        shows = f"; {escape(in_terminal(entry.next_call))}" if entry.next_call else ""
        out.print(f"[yellow]left out by {entry.reason.value}:[/yellow] {escape(entry.detail)}{shows}")


def _show_entity(out: Console, result: EntityResult) -> None:
    """Name and kind, where it is defined, what it is, its aliases and how many relations of each type it has."""
    ref = result.entity
    out.print(f"[bold]{escape(ref.name)}[/bold]  {escape(ref.type)} in {escape(ref.project)}")
    out.print(f"  id: {escape(ref.id)}")
    out.print(f"  qualified name: {escape(result.qualified_name)}")
    out.print(f"  defined at: {escape(ref.citation) if ref.citation else 'no definition indexed'}")
    if result.description:
        out.print(f"  {escape(result.description)}")
    if result.aliases:
        out.print(f"  aliases: {escape(', '.join(result.aliases))}")
    out.print(f"  relations out: {_counts(result.relations_out)}")
    out.print(f"  relations in: {_counts(result.relations_in)}")


def _counts(counts: dict[str, int]) -> str:
    return escape(", ".join(f"{kind} {n}" for kind, n in counts.items())) or "none"
