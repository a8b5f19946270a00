"""A changed project binds anew the references other documents make into it, without re-indexing them."""

from __future__ import annotations

from pathlib import Path

from tests.projects import call_edges, indexed_projects, write_files
from trident.ingest.pipeline import index_folder
from trident.ingest.rebinding import remove_documents
from trident.store.catalog import Catalog
from trident.store.schema import Resolution

RUN = "function:app:app.main.run"


POOL = "class Pool:\n    def get(self):\n        return 1\n"
TYPED_CALL = "from lib.core import Pool\n\n\ndef run(pool: Pool):\n    return pool.get()\n"


def _lib_and_app(root: Path, lib: dict[str, str], app: str) -> Catalog:
    """The library indexed, then the app whose `run` calls into it."""
    return indexed_projects(root, {"lib": lib, "app": {"app/main.py": app}}, ("lib", "app"))


def _callees(catalog: Catalog, source: str) -> dict[str, str]:
    return {target: str(r.resolution) for (caller, target), r in call_edges(catalog).items() if caller == source}


def _index(catalog: Catalog, root: Path, project: str) -> int:
    with catalog.writer() as writer:
        return index_folder(writer, root / project, project, max_file_bytes=1_000_000).rebound


def test_a_class_moved_behind_its_reexport_keeps_its_callers_in_another_project(tmp_path: Path) -> None:
    catalog = _lib_and_app(
        tmp_path,
        {"lib/__init__.py": "from .core import Pool\n", "lib/core.py": POOL},
        "import lib\n\n\ndef run():\n    return lib.Pool().get()\n",
    )
    try:
        assert _callees(catalog, RUN)["method:lib:lib.core.Pool.get"] == Resolution.INFERRED
        (tmp_path / "lib/lib/core.py").unlink()  # the class moves; the package still exports it
        write_files(tmp_path, {"lib/lib/pool.py": "class Pool:\n    def get(self):\n        return 2\n"})
        write_files(tmp_path, {"lib/lib/__init__.py": "from .pool import Pool\n"})
        assert _index(catalog, tmp_path, "lib") == 1  # app/main.py, read again, not re-embedded
        assert _callees(catalog, RUN) == {
            "class:lib:lib.pool.Pool": Resolution.EXACT,
            "method:lib:lib.pool.Pool.get": Resolution.INFERRED,
        }
    finally:
        catalog.close()


def test_a_call_into_a_removed_method_waits_and_binds_when_the_method_returns(tmp_path: Path) -> None:
    catalog = _lib_and_app(tmp_path, {"lib/__init__.py": "", "lib/core.py": POOL}, TYPED_CALL)
    try:
        get = "method:lib:lib.core.Pool.get"
        assert get in _callees(catalog, RUN)
        write_files(tmp_path, {"lib/lib/core.py": "class Pool:\n    def put(self):\n        return 1\n"})
        _index(catalog, tmp_path, "lib")
        assert get not in _callees(catalog, RUN)
        pending = catalog.manifest.documents["app/app/main.py"].unresolved
        assert [(p.source, p.target) for p in pending if p.type == "CALLS"] == [(RUN, "get")]  # kept, to retry
        write_files(tmp_path, {"lib/lib/core.py": POOL})
        _index(catalog, tmp_path, "lib")
        assert _callees(catalog, RUN)[get] == Resolution.INFERRED
    finally:
        catalog.close()


def test_calls_into_a_removed_project_wait_and_bind_again_when_it_is_indexed_again(tmp_path: Path) -> None:
    catalog = _lib_and_app(tmp_path, {"lib/__init__.py": "", "lib/core.py": POOL}, TYPED_CALL)
    try:
        get = "method:lib:lib.core.Pool.get"
        with catalog.writer() as writer:
            lib_docs = list(writer.manifest.project_documents("lib"))
            assert remove_documents(writer, lib_docs, max_file_bytes=1_000_000) == 1
        assert _callees(catalog, RUN) == {}
        _index(catalog, tmp_path, "lib")
        assert _callees(catalog, RUN)[get] == Resolution.INFERRED
    finally:
        catalog.close()
