"""Live re-indexing: watch project folders and re-index each one as soon as a burst of changes settles."""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from watchfiles import Change, DefaultFilter, watch

from trident.ingest.ingest_settings import IngestSettings
from trident.ingest.kept_resolver import KeptResolver
from trident.ingest.parsing import Parser
from trident.ingest.pipeline import IndexReport, index_folder
from trident.ingest.vector_fill import Publishing
from trident.ingest.walker import ALWAYS_IGNORED
from trident.store.catalog import Catalog, IndexLockedError, Writer

log = logging.getLogger(__name__)

# A burst of edits (a save, a git checkout, a rename) is over when nothing has changed for QUIET_MS; changes are
# never held longer than MAX_WAIT_MS, so a folder that changes constantly is still re-indexed every few seconds.
QUIET_MS = 300
MAX_WAIT_MS = 2_000
# A new watch's first timeout: whatever changed before the watch began (after the caller's first run) is indexed
# then, since no event will come for it.
CATCH_UP_MS = 500
# Another writer (`trident index`, an index_path job) holds the lock: try again this often until it is free.
RETRY_SECONDS = 1.0
# Any other failure (an engine that another process has open, a file vanishing mid-run) is retried this many times,
# a little later each time, before the watch waits for the next change.
FAILED_RUN_ATTEMPTS = 5
# Another writer holding the lock longer than this is stuck or far bigger than a change: give up until the next one.
WRITER_WAIT_SECONDS = 30 * 60.0
IGNORED_DIRS = frozenset({*DefaultFilter.ignore_dirs, *ALWAYS_IGNORED})
_EDITOR_NOISE = tuple(re.compile(p) for p in DefaultFilter.ignore_entity_patterns)


class _Stop:
    """Set when its own watch is forgotten or when the whole watcher stops (watchfiles polls `is_set`)."""

    def __init__(self, everything: threading.Event) -> None:
        self._everything = everything
        self._mine = threading.Event()

    def set(self) -> None:
        self._mine.set()

    def is_set(self) -> bool:
        return self._mine.is_set() or self._everything.is_set()


@dataclass(frozen=True)
class WatchedFolder:
    root: Path
    project: str


Reindex = Callable[[WatchedFolder], IndexReport]
OnReport = Callable[[WatchedFolder, IndexReport], None]


def index_watched(
    writer: Writer,
    folder: WatchedFolder,
    limits: IngestSettings,
    parser: Parser | None = None,
    readers_first: Callable[[int], object] | None = None,
    kept: KeptResolver | None = None,
) -> IndexReport:
    """One index run over a watched folder, within the ingest limits, through the caller's writer (parsing with
    `parser`, default here); it publishes before its syncs, and first calls `readers_first` with the generation
    published (see `Publishing.readers_first`). `kept`: the watcher's resolver, kept from its last run."""
    return index_folder(
        writer,
        folder.root,
        folder.project,
        max_file_bytes=limits.max_file_bytes,
        community_seconds=limits.community_seconds,
        publishing=Publishing.from_settings(limits, before_syncs=True, readers_first=readers_first),
        parser=parser,
        kept=kept,
    )


def catalog_reindexer(
    catalog: Catalog, limits: IngestSettings, readers_first: Callable[[int], object] | None = None
) -> Reindex:
    """Re-index a folder into an open catalog, one writer block a run (the server's catalog, shared with queries,
    which see each run once it is published; `readers_first` as for `index_watched`). A run finding another writer
    at work fails at once with IndexLockedError, which the watcher retries."""

    kept = KeptResolver()

    def reindex(folder: WatchedFolder) -> IndexReport:
        with catalog.writer() as writer:
            return index_watched(writer, folder, limits, readers_first=readers_first, kept=kept)

    return reindex


def _relevant(root: Path, exclude: tuple[Path, ...]) -> Callable[[Change, str], bool]:
    """Changes that can alter what is indexed: not in version-control, cache or dependency folders, not editor
    swap files, and never inside the index itself (an index under the watched folder would re-trigger forever)."""

    def keep(_change: Change, raw: str) -> bool:
        path = Path(raw)
        if any(path == e or e in path.parents for e in exclude):
            return False
        try:
            parts = path.relative_to(root).parts
        except ValueError:
            return False
        if any(part in IGNORED_DIRS for part in parts[:-1]) or (parts and parts[-1] in IGNORED_DIRS):
            return False
        return not (parts and any(r.search(parts[-1]) for r in _EDITOR_NOISE))

    return keep


class FolderWatcher:
    """Keeps projects current as their files change: one thread per folder collects changes until they settle,
    then re-indexes that project with the incremental indexer (only changed files are parsed and embedded).

    Re-index runs are serialised, so the index keeps one writer; queries are not blocked, because they never
    wait for the writer. A run refused because another process holds the write lock is retried until it
    succeeds, so edits made during a `trident index` are not lost.
    """

    def __init__(
        self,
        reindex: Reindex,
        *,
        exclude: Iterable[Path] = (),
        on_report: OnReport | None = None,
        quiet_ms: int = QUIET_MS,
        max_wait_ms: int = MAX_WAIT_MS,
    ) -> None:
        self._reindex = reindex
        self._exclude = tuple(p.resolve() for p in exclude)
        self._on_report = on_report
        self._quiet_ms = quiet_ms
        self._max_wait_ms = max_wait_ms
        self._stop = threading.Event()
        self._writing = threading.Lock()
        self._lock = threading.Lock()
        self._threads: dict[Path, tuple[WatchedFolder, threading.Thread, _Stop]] = {}

    def add(self, root: Path, project: str) -> WatchedFolder:
        """Start watching `root` as `project` (again, if its watch ended); a folder already watched is kept.

        Raises:
            NotADirectoryError: `root` is not a folder.
        """
        root = root.resolve()
        if not root.is_dir():
            raise NotADirectoryError(f"not a folder: {root}")
        folder = WatchedFolder(root, project)
        with self._lock:
            current = self._threads.get(root)
            if current is not None and current[1].is_alive() and current[0] == folder:
                return folder
            if current is not None:
                current[2].set()  # the same folder under another project name: the new name wins
            stop = _Stop(self._stop)
            name = f"trident-watch-{project}"
            thread = threading.Thread(target=self.run, args=(folder, stop), name=name, daemon=True)
            self._threads[root] = (folder, thread, stop)
            thread.start()
        log.info("watching %s as project %s", root, project)
        return folder

    def forget(self, project: str) -> list[WatchedFolder]:
        """Stop watching the folders of a project (it is being removed from the index); returns them once no
        re-index of theirs is under way, so that none can write the project back after it is removed."""
        with self._lock:
            gone = [root for root, (folder, _, _) in self._threads.items() if folder.project == project]
            entries = [self._threads.pop(root) for root in gone]
        for _, _, stop in entries:
            stop.set()
        if entries:
            with self._writing:  # a re-index under way ends (a stopped watch starts no other)
                pass
        return [folder for folder, _, _ in entries]

    def folders(self) -> list[WatchedFolder]:
        with self._lock:
            return [folder for folder, thread, _ in self._threads.values() if thread.is_alive()]

    def run(self, folder: WatchedFolder, stop: _Stop | None = None) -> None:
        """Watch one folder until `stop()` (blocking; `add` runs this in a thread, the CLI in its main thread)."""
        stop = stop or _Stop(self._stop)
        caught_up = False
        for changes in watch(
            folder.root,
            watch_filter=_relevant(folder.root, self._exclude),
            debounce=self._max_wait_ms,
            step=self._quiet_ms,
            stop_event=stop,
            rust_timeout=CATCH_UP_MS,
            yield_on_timeout=True,
            raise_interrupt=False,
        ):
            if stop.is_set():  # forgotten while the changes settled: the project is no longer indexed
                return
            if not changes and caught_up:
                continue
            log.debug("%d changes under %s", len(changes), folder.root)
            self.reindex_now(folder, stop, quiet=not caught_up)
            caught_up = True

    def reindex_now(
        self, folder: WatchedFolder, stop: _Stop | None = None, *, quiet: bool = False
    ) -> IndexReport | None:
        """Re-index one folder, waiting out other writers; None when stopped first or the run failed. A `quiet` run
        (the watch's catch-up) that finds nothing changed is not reported."""
        stop = stop or _Stop(self._stop)
        failures = 0
        waiting_since: float | None = None
        while not stop.is_set():
            try:
                with self._writing:
                    if stop.is_set():
                        return None
                    report = self._reindex(folder)
            except IndexLockedError as exc:
                waiting_since = waiting_since or time.monotonic()
                if time.monotonic() - waiting_since > WRITER_WAIT_SECONDS:
                    log.warning(
                        "re-index of %s gave up after %.0f s waiting for another writer (%s); the next change retries",
                        folder.project,
                        WRITER_WAIT_SECONDS,
                        exc,
                    )
                    return None
                log.info("re-index of %s waits: %s", folder.project, exc)
                self._stop.wait(RETRY_SECONDS)
                continue
            except Exception:  # the watch thread's top-level handler: one failed run must not end the watch
                failures += 1
                if failures >= FAILED_RUN_ATTEMPTS:
                    log.exception("re-indexing %s failed %d times; the next change retries", folder.root, failures)
                    return None
                log.warning("re-indexing %s failed; retrying", folder.root, exc_info=True)
                self._stop.wait(RETRY_SECONDS * failures)
                continue
            if self._on_report is not None and not (quiet and not (report.indexed or report.deleted)):
                self._on_report(folder, report)
            return report
        return None

    def request_stop(self) -> None:
        """Ask every watch to stop after the re-index in progress (safe to call from a signal handler)."""
        self._stop.set()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop every watch and wait for a re-index in progress to finish."""
        self._stop.set()
        with self._lock:
            threads = [thread for _, thread, _ in self._threads.values()]
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(timeout)
