"""A new generation's graph file written afresh instead of copied, once write sessions have grown it well past what
it was when last written afresh.

Kùzu rewrites what a session changes into new pages and reuses freed pages only in part, so a file that has taken
many large writes holds far more than its rows: the 100K-chunk bench index, built over some 770 write sessions, was
1,158 MB, and the same rows exported and imported into an empty database 120 MB (after one more write session 258
MB, where it then stays). Every write session copies the file and Kùzu's checkpoint at its end grows with it (copy 0.75
against 0.04 s, checkpoint 2.0 against 0.4 s for a one-function edit). Writing it afresh (Kùzu's `EXPORT DATABASE`
from the published file, `IMPORT DATABASE` into the new one: 3.5 s at 100K) costs a few copies, so it is done only
when the file has doubled since the last time: a cost that stays proportional to the writes.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

from trident.store.crashpoints import crash_point
from trident.store.engines.kuzu_graph import open_database

# Write a file afresh once it is this many times its size as published by the session that last did so (any size,
# for a file never written afresh)...
GROWTH_FACTOR = 2.0
# ...and only past this size: a small file copies in no time whatever it holds.
MIN_BYTES = 64 * 1024 * 1024
_EXPORT_SUFFIX = ".export"
# Beside a published generation's graph file: its rows written afresh after the publication, for the next write
# session to take instead of writing them afresh as it opens (where the edit that opened it waits).
SPARE_FILE = "graph.afresh.kuzu"
# A spare being written: snapshots leave out `.tmp` files, and folders whose name starts with a dot (its export)
_PARTIAL_SPARE = "." + SPARE_FILE + ".tmp"
log = logging.getLogger(__name__)


def worth_compacting(source: Path, baseline: int | None) -> bool:
    """Whether the graph file `source` should be written afresh: past MIN_BYTES and GROWTH_FACTOR times `baseline`,
    its size after the write session that last wrote it afresh (None: never, so any size past MIN_BYTES)."""
    size = source.stat().st_size
    if size < MIN_BYTES:
        return False
    return baseline is None or size > GROWTH_FACTOR * baseline


def compacted_or_copied(source: Path, target: Path, copy: Callable[[], None], engine: str) -> bool:
    """Write `source`'s rows afresh at `target` (`compact_graph`), or, where Kùzu fails to (an export it cannot
    write, a file it cannot read back), fall back to `copy()`: a session must never be kept from starting by this.
    True when written afresh."""
    try:
        compact_graph(source, target, engine)
        return True
    except RuntimeError as exc:  # what Kùzu raises for a statement it could not run
        log.warning("could not write the graph %s afresh (%s); copying it instead", source, exc)
        _remove_database(target)  # the half-written file and Kùzu's files beside it
        copy()
        return False


def write_spare(graph: Path, baseline: int | None, engine: str) -> bool:
    """After a run has published: when the published graph file `graph` is worth writing afresh, write its rows
    afresh beside it (SPARE_FILE) for the next write session, which then opens at once instead of after the export
    and import (2.9 s at 100K chunks, paid by whichever edit opened it). Returns whether a spare was written; where
    Kùzu fails, none is (the next session writes the file afresh or copies it, as without a spare)."""
    spare = graph.with_name(SPARE_FILE)
    if spare.exists() or not worth_compacting(graph, baseline):
        return False
    partial = graph.with_name(_PARTIAL_SPARE)
    _remove_database(partial)
    try:
        compact_graph(graph, partial, engine)
    except RuntimeError as exc:  # what Kùzu raises for a statement it could not run
        log.warning("could not write the graph %s afresh for the next session (%s)", graph, exc)
        _remove_database(partial)
        return False
    crash_point("graph.spare_written")
    partial.replace(spare)
    return True


def take_spare(graph: Path, target: Path) -> bool:
    """Move the spare written beside `graph` (`write_spare`) to `target`, a new session's graph file; whether there
    was one. The spare holds the rows of `graph` as published, which never changes."""
    spare = graph.with_name(SPARE_FILE)
    if not spare.exists():
        return False
    spare.replace(target)
    return True


def _remove_database(path: Path) -> None:
    """A Kùzu database file and whatever of Kùzu's lies beside it (its write-ahead log, an export folder)."""
    for leftover in path.parent.glob(path.name + "*"):
        if leftover.is_dir():
            shutil.rmtree(leftover)
        else:
            leftover.unlink()


def compact_graph(source: Path, target: Path, engine: str = "kuzu") -> None:
    """Write the rows of the closed Kùzu database `source` into a new database at `target` (which must not exist):
    the same nodes, relations and schema in a file of their own size. `source` is only read (readers may have it
    open); a crash part-way leaves a half-written `target`, which the caller's generation folder holds and removes."""
    dump = target.with_name(target.name + _EXPORT_SUFFIX)
    shutil.rmtree(dump, ignore_errors=True)
    try:
        _run(source, f"EXPORT DATABASE '{_quoted(dump)}' (format='parquet')", read_only=True, engine=engine)
        crash_point("graph.exported")
        _run(target, f"IMPORT DATABASE '{_quoted(dump)}'", read_only=False, engine=engine)
    finally:
        shutil.rmtree(dump, ignore_errors=True)


def _run(path: Path, statement: str, *, read_only: bool, engine: str) -> None:
    """One statement on the database at `path`, of the graph engine module named `engine`."""
    module = import_module(engine)
    database = open_database(path, read_only=read_only, engine=module)
    try:
        connection = module.Connection(database)
        try:
            connection.execute(statement)
        finally:
            connection.close()
    finally:
        database.close()


def _quoted(path: Path) -> str:
    """A path inside a Cypher string literal."""
    return str(path).replace("\\", "\\\\").replace("'", "\\'")
