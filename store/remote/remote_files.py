"""Putting files in place in an index folder the way a pull must: a reader finds the old file or the new one, never
part of one, and what is in place is on disk before the manifest that names it."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

log = logging.getLogger(__name__)

PARTIAL_SUFFIX = ".pull.tmp"  # a file being put in place (snapshots leave out *.tmp; a later pull removes it)


def remove_partials(index_dir: Path) -> None:
    """The files a pull that died left half-placed."""
    for partial in index_dir.glob(f"*/*/**/*{PARTIAL_SUFFIX}"):
        partial.unlink()


def place(staged: Path, target: Path) -> None:
    """Put a staged file at `target`, atomically: a reader finds the old file or the new one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}{PARTIAL_SUFFIX}")
    link_or_copy(staged, partial)
    os.replace(partial, target)


def drop_unlisted_versions(index_dir: Path, listed: set[str]) -> None:
    """Remove LanceDB versions the snapshot does not have: versions a local write made that was never published
    (a writer's folder brought back to what is published). A reader's cache has none."""
    for version in index_dir.glob("*/*.lance/_versions/*.manifest"):
        path = version.relative_to(index_dir).as_posix()
        if path not in listed:
            log.info("removing %s: a version never published", path)
            version.unlink()


def write_durably(path: Path, data: bytes, *, replace: bool = True) -> None:
    """Write beside, flush to disk, rename into place (and make the rename durable when replacing)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(partial, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(partial, path)
    if replace:
        sync_folder(path.parent)


def fsync_file(path: Path) -> None:
    """Flush a file written by someone else (a download) to disk."""
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def sync_folder(folder: Path) -> None:
    """Make the renames into `folder` durable (a power cut, not only a crash, keeps them)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def link_or_copy(source: Path, target: Path) -> None:
    """A hard link (the files placed are never written in place, so sharing the inode is safe), else a copy."""
    try:
        os.link(source, target)
    except OSError:  # another file system, or links not supported
        shutil.copy2(source, target)
