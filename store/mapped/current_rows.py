"""Which version of a vector table a tenant's row files were written from, known without opening the table.

A sync that changes a vector table (the entity and relation vectors, the community reports) writes the tenant's rows
for the table's new version as files a reader maps (store/mapped/graph_vector_rows.py, store/mapped/community_rows.py).
A reader used to open the table only to learn its version, which loads LanceDB into a server that otherwise never needs
it (about 45 MB resident for the library and 20 MB more per table opened, at 100K chunks). Now the sync also names the
version it wrote in a small file beside the folders: withdrawn before it changes the table, written once the rows of
the new version are in place. A reader that finds the name maps that version's folder; one that does not (an index
synced before these files, a sync still running, one that died between the two) reads the table as before. Both
stores write their versions' folders the same way, here: under a draft name renamed into place, then the older
versions removed and the new one named.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from trident.store.crashpoints import crash_point
from trident.store.schema import stable_hash

SUFFIX = ".version"


def tenant_key(tenant: str) -> str:
    """A file name for any tenant name."""
    return stable_hash(tenant, length=16)


def version_folder(folder: Path, tenant: str, version: int) -> Path:
    """Where the tenant's rows of one table version are written: `<folder>/<tenant key>-<version>/`."""
    return folder / f"{tenant_key(tenant)}-{version}"


@contextmanager
def new_version(target: Path, crash: str) -> Iterator[Path]:
    """A version's folder, written in a draft folder the caller fills and renamed into place once whole (`crash`
    names the crash point between the two)."""
    draft = target.with_name(f".{target.name}-{os.getpid()}")
    shutil.rmtree(draft, ignore_errors=True)
    draft.mkdir(parents=True)
    yield draft
    crash_point(crash)
    os.rename(draft, target)


def settle(folder: Path, tenant: str, version: int) -> None:
    """Once the rows of `version` are in place: remove the tenant's other versions' folders and the drafts a writer
    that died left (one writer at a time holds the index's lock), and name `version` for readers."""
    keep = version_folder(folder, tenant, version)
    prefix = f"{tenant_key(tenant)}-"
    for old in folder.iterdir():
        if old.is_dir() and old.name.lstrip(".").startswith(prefix) and old != keep:
            shutil.rmtree(old, ignore_errors=True)
    if current(folder, tenant) != version:
        publish(folder, tenant, version)


def withdraw(folder: Path, tenant: str) -> None:
    """Before a sync changes the table: readers read the table (or the files they already mapped) until it is done."""
    _pointer(folder, tenant).unlink(missing_ok=True)


def publish(folder: Path, tenant: str, version: int) -> None:
    """Once the rows of `version` are in place: readers map them from now on."""
    folder.mkdir(parents=True, exist_ok=True)
    pointer = _pointer(folder, tenant)
    draft = pointer.with_name(f".{pointer.name}-{os.getpid()}")
    draft.write_text(str(version), encoding="utf-8")
    os.replace(draft, pointer)


def current(folder: Path, tenant: str) -> int | None:
    """The version whose rows the last finished sync wrote, or None when unknown (read the table)."""
    try:
        return int(_pointer(folder, tenant).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _pointer(folder: Path, tenant: str) -> Path:
    return folder / f"{tenant_key(tenant)}{SUFFIX}"
