"""A tenant's community reports as files a reader maps, so that a server searches them without LanceDB.

A sync that changes the report table writes the tenant's reports (ids and report texts, an Arrow file) and their
unit vectors (a float32 matrix) in a folder named by the tenant and the table's version (`community_rows/<tenant
key>-<version>/`), under a draft name renamed into place, removes the tenant's other versions' folders and names the
version it wrote (store/mapped/current_rows.py; withdrawn while it changes the table). A reader maps the folder so named
and searches it as the table would be searched (the same rows, the same scores); without one it opens the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import numpy as np
import pyarrow as pa
from pyarrow import ipc

from trident.store.engines.community_index import CommunityIndex, CommunityReport, TenantReports
from trident.store.mapped import current_rows
from trident.store.mapped.file_rows import write_array

COMMUNITY_ROWS_DIR = "community_rows"
REPORTS_FILE = "reports.arrow"
MATRIX_FILE = "matrix.npy"


class CommunitySearch(Protocol):
    """What the community path searches: a tenant's reports nearest a query vector."""

    def search(self, vector: np.ndarray, limit: int, tenant: str) -> list[tuple[CommunityReport, float]]: ...

    def changed_since_open(self) -> bool:
        """True once a sync has stored reports this reader does not see (open it again)."""
        ...


class MappedCommunities:
    """One tenant's reports as the last finished sync wrote them, mapped from its files."""

    def __init__(self, folder: Path, tenant: str, version: int, reports: TenantReports) -> None:
        self._folder = folder
        self._tenant = tenant
        self._version = version
        self._reports = reports

    @classmethod
    def open(cls, folder: Path, tenant: str) -> MappedCommunities | None:
        """The reports the last finished sync named; None when none did or its files are not whole."""
        version = current_rows.current(folder, tenant)
        if version is None:
            return None
        reports = _read_files(current_rows.version_folder(folder, tenant, version))
        return cls(folder, tenant, version, reports) if reports is not None else None

    @property
    def tenant(self) -> str:
        return self._tenant

    def search(self, vector: np.ndarray, limit: int, tenant: str) -> list[tuple[CommunityReport, float]]:
        """As `CommunityIndex.search` for the tenant the files were written for (another has none here)."""
        if limit <= 0 or tenant != self._tenant:
            return []
        return self._reports.nearest(np.asarray(vector, dtype=np.float32), limit)

    def changed_since_open(self) -> bool:
        return current_rows.current(self._folder, self._tenant) != self._version


def keep_report_rows(index: CommunityIndex, folder: Path, tenant: str) -> None:
    """Write the tenant's reports for the table's current version unless they are there, remove its other versions'
    folders and the drafts a writer that died left, and name the version written. What a sync does last, whether
    or not it changed the table (an index synced before these files gets them at its next sync)."""
    version = index.version()
    target = current_rows.version_folder(folder, tenant, version)
    if not target.is_dir():
        _write_files(target, index.tenant_reports(tenant))
    current_rows.settle(folder, tenant, version)


def _write_files(target: Path, reports: TenantReports) -> None:
    with current_rows.new_version(target, "sync.community_rows") as draft:
        write_array(draft / MATRIX_FILE, np.ascontiguousarray(reports.matrix, dtype=np.float32))
        table = pa.table({"id": reports.ids, "report": reports.texts})
        with ipc.new_file(str(draft / REPORTS_FILE), table.schema) as sink:
            sink.write_table(table)


def _read_files(where: Path) -> TenantReports | None:
    """The reports written in `where`, memory-mapped; None when the folder is not there (or not whole)."""
    try:
        matrix = np.load(where / MATRIX_FILE, mmap_mode="r", allow_pickle=False)
        table = ipc.open_file(pa.memory_map(str(where / REPORTS_FILE))).read_all().combine_chunks()
    except (OSError, ValueError):  # not there, or not whole (ArrowInvalid is a ValueError): open the table
        return None
    if table.num_rows != len(matrix):
        return None
    return TenantReports(table.column("id").chunk(0), table.column("report").chunk(0), matrix)
