"""Pending references live in their generation's folder, not in the manifest every reader parses: a writer of
another process finds them there, a publish that changes none of them keeps the file, and an index written before
the file existed keeps the ones its manifest carries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.projects import call_edges, indexed_projects, write_files
from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.store.catalog import Catalog
from trident.store.manifest import MANIFEST_FILE
from trident.store.pending_file import PENDING_FILE

RUN = "function:app:app.main.run"
GET = "method:lib:lib.core.Pool.get"
APP_DOC = "app/app/main.py"
POOL = "class Pool:\n    def get(self):\n        return 1\n"
CALLER = "from lib.core import Pool\n\n\ndef run(pool: Pool):\n    return pool.get()\n"


def _app_waiting_for_lib(root: Path) -> Path:
    """The app indexed alone (its call into lib waits), the catalog closed; the index folder."""
    write_files(root / "lib", {"lib/__init__.py": "", "lib/core.py": POOL})
    indexed_projects(root, {"app": {"app/main.py": CALLER}}, ("app",)).close()
    return root / "index"


def _index(catalog: Catalog, root: Path, project: str) -> None:
    with catalog.writer() as writer:
        index_folder(writer, root / project, project, max_file_bytes=1_000_000)


def _generation(index_dir: Path) -> Path:
    return index_dir / json.loads((index_dir / MANIFEST_FILE).read_text())["generation_dir"]


def _stored_pending(index_dir: Path) -> dict[str, list[dict[str, object]]]:
    return json.loads((_generation(index_dir) / PENDING_FILE).read_text())


def _calls_waiting(index_dir: Path) -> list[tuple[object, ...]]:
    """The app's calls the stored pending references hold: (source, target, owner)."""
    stored = _stored_pending(index_dir).get(APP_DOC, [])
    return [(p["source"], p["target"], p.get("owner", "")) for p in stored if p["type"] == "CALLS"]


def test_a_writer_of_another_process_binds_the_references_stored_beside_the_generation(tmp_path: Path) -> None:
    index_dir = _app_waiting_for_lib(tmp_path)
    assert "unresolved" not in (index_dir / MANIFEST_FILE).read_text()
    assert _calls_waiting(index_dir) == [(RUN, "get", "lib.core.Pool")]
    catalog = Catalog(index_dir, "default", HashEmbedder())  # reads the manifest from its file: no references
    try:
        assert not catalog.manifest.documents[APP_DOC].unresolved
        _index(catalog, tmp_path, "lib")
        assert (RUN, GET) in call_edges(catalog)
        assert _calls_waiting(index_dir) == []
    finally:
        catalog.close()


def test_a_publish_that_changes_no_pending_reference_keeps_the_file_it_was_copied_from(tmp_path: Path) -> None:
    index_dir = _app_waiting_for_lib(tmp_path)
    before = _generation(index_dir) / PENDING_FILE
    inode, text = before.stat().st_ino, before.read_text()
    catalog = Catalog(index_dir, "default", HashEmbedder())
    try:
        write_files(tmp_path / "notes", {"README.md": "# Notes\n\nNothing here calls anything.\n"})
        _index(catalog, tmp_path, "notes")
        after = _generation(index_dir) / PENDING_FILE
        assert after != before
        assert (after.stat().st_ino, after.read_text()) == (inode, text)
    finally:
        catalog.close()


def test_an_index_whose_manifest_carries_its_pending_references_keeps_them(tmp_path: Path) -> None:
    """Written before the file existed: the references are in the manifest's entries and no file is beside the
    generation. The next write binds them and moves what is left to the file."""
    index_dir = _app_waiting_for_lib(tmp_path)
    stored = _stored_pending(index_dir)
    manifest = json.loads((index_dir / MANIFEST_FILE).read_text())
    for doc_id, references in stored.items():
        manifest["documents"][doc_id]["unresolved"] = references
    (index_dir / MANIFEST_FILE).write_text(json.dumps(manifest))
    (_generation(index_dir) / PENDING_FILE).unlink()
    catalog = Catalog(index_dir, "default", HashEmbedder())
    try:
        assert catalog.manifest.documents[APP_DOC].unresolved
        _index(catalog, tmp_path, "lib")
        assert (RUN, GET) in call_edges(catalog)
        assert "unresolved" not in (index_dir / MANIFEST_FILE).read_text()
        assert (_generation(index_dir) / PENDING_FILE).is_file()
    finally:
        catalog.close()


def test_a_damaged_file_is_logged_and_the_index_stays_writable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    index_dir = _app_waiting_for_lib(tmp_path)
    pending = _generation(index_dir) / PENDING_FILE
    pending.unlink()  # a link: the damage must not reach another generation's copy
    pending.write_text('{"app/app/main.py": [{"source": ')
    catalog = Catalog(index_dir, "default", HashEmbedder())
    try:
        with caplog.at_level("WARNING", logger="trident.store.pending_file"):
            _index(catalog, tmp_path, "lib")
        assert any("pending references" in r.getMessage() and "damaged" in r.getMessage() for r in caplog.records)
        assert {e.name for e in catalog.entities()} >= {"Pool", "get"}, "lib was indexed"
        assert json.loads((_generation(index_dir) / PENDING_FILE).read_text()) is not None
    finally:
        catalog.close()
