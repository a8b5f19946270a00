"""One folder of `trident index`: its run, with its progress bars and its report on stderr."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from trident.cli.progress_bar import RichProgress
from trident.ingest.beir import is_beir_folder
from trident.ingest.ingest_settings import IngestSettings
from trident.ingest.parsing import Parser
from trident.ingest.pipeline import index_beir, index_folder
from trident.ingest.run_syncs import BlockSyncs
from trident.ingest.vector_fill import Publishing
from trident.store.catalog import Writer


def index_one(
    err: Console,
    writer: Writer,
    path: Path,
    name: str,
    limits: IngestSettings,
    publishing: Publishing,
    parser: Parser,
    syncs: BlockSyncs | None,
) -> None:
    """Index one folder (or BEIR collection) in the block of `writer` (`syncs`: the block's, when it indexes several),
    its progress and then its report printed to `err`."""
    with RichProgress(err, name) as progress:
        if is_beir_folder(path):
            report = index_beir(
                writer,
                path,
                name,
                progress=progress,
                community_seconds=limits.community_seconds,
                publishing=publishing,
                syncs=syncs,
            )
        else:
            report = index_folder(
                writer,
                path,
                name,
                max_file_bytes=limits.max_file_bytes,
                progress=progress,
                community_seconds=limits.community_seconds,
                publishing=publishing,
                parser=parser,
                syncs=syncs,
            )
    err.print(
        f"[bold]{name}[/bold]: {report.files_seen} files, {report.indexed} indexed, {report.unchanged} "
        f"unchanged, {report.deleted} removed, {len(report.skipped)} skipped; {report.chunks} chunks, "
        f"{report.entities} entities, {report.relations} relations in {report.seconds:.1f}s"
    )
    for skipped in report.skipped[:10]:
        err.print(f"  skipped {skipped.path}: {skipped.reason}")
    if len(report.skipped) > 10:
        err.print(f"  … and {len(report.skipped) - 10} more (see `trident status`)")
