"""The catalog keeps the three real engines in step, and writes only through a writer block that publishes on success
and drops on error (plumbing only: a hash embedder stands in for the model)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from tests.conftest import HashEmbedder
from trident.store import locking
from trident.store.catalog import (
    Catalog,
    DocumentWrite,
    IndexLockedError,
    ModelMismatchError,
    ReadOnlyIndexError,
    SchemaMismatchError,
    TridentIndexError,
)
from trident.store.engines.kuzu_graph import KuzuGraphStore
from trident.store.generations import GENERATIONS_DIR
from trident.store.manifest import Manifest, manifest_identity
from trident.store.protocols import SearchFilter
from trident.store.schema import Chunk, Document, DocumentKind, Entity, Relation, chunk_id, entity_id


def _doc(project: str, path: str, body: str, symbol: str) -> DocumentWrite:
    doc = Document(id=f"{project}/{path}", project=project, path=path, kind=DocumentKind.CODE, content_hash=body)
    cid = chunk_id(project, path, 1, 2)
    chunk = Chunk(
        id=cid,
        doc_id=doc.id,
        project=project,
        path=path,
        text=body,
        start_line=1,
        end_line=2,
        kind=DocumentKind.CODE,
        title=symbol,
        symbols=(symbol,),
    )
    module = Entity(
        id=entity_id("Module", project, path),
        name=path,
        type="Module",
        project=project,
        chunk_id=cid,
        doc_id=doc.id,
        path=path,
    )
    cls = Entity(
        id=entity_id("Class", project, symbol),
        name=symbol,
        type="Class",
        project=project,
        chunk_id=cid,
        doc_id=doc.id,
        path=path,
    )
    rel = Relation(source=module.id, type="DEFINES", target=cls.id, evidence=cid, project=project, doc_id=doc.id)
    return DocumentWrite(doc, [chunk], [module, cls], [rel])


def _counts(cat: Catalog) -> tuple[int, int, int]:
    return cat.text.count("default"), cat.vectors.count("default"), cat.graph.counts("default")["chunks"]


def _write(cat: Catalog, *writes: DocumentWrite) -> None:
    with cat.writer() as writer:
        writer.write(list(writes))


def _generations(index_dir: Path) -> list[str]:
    return sorted(p.name for p in (index_dir / GENERATIONS_DIR).iterdir())


def test_a_write_lands_in_all_three_engines_and_the_manifest(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    _write(cat, _doc("p", "a.py", "class PaymentGateway: pass", "PaymentGateway"))
    assert _counts(cat) == (1, 1, 1)
    assert cat.graph.counts("default") == {"chunks": 1, "entities": 2, "relations": 1}
    assert cat.manifest.documents["p/a.py"].chunk_ids == [chunk_id("p", "a.py", 1, 2)]
    hits = cat.text.search("payment gateway", 5, SearchFilter("default"))
    assert [h.id for h in hits] == [chunk_id("p", "a.py", 1, 2)]


def test_rewriting_a_document_replaces_it_rather_than_duplicating(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    with cat.writer() as writer:
        writer.write([_doc("p", "a.py", "class A: pass", "A")])
        writer.write([_doc("p", "a.py", "class B: pass", "B")])
    assert _counts(cat) == (1, 1, 1)
    assert sorted(e.name for e in cat.entities()) == ["B", "a.py"]


def test_deleting_a_document_removes_it_from_every_engine(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    _write(cat, _doc("p", "a.py", "class A: pass", "A"), _doc("p", "b.py", "class B: pass", "B"))
    with cat.writer() as writer:
        writer.delete(["p/a.py"])
    assert _counts(cat) == (1, 1, 1)
    assert "p/a.py" not in cat.manifest.documents
    remaining = {h.id for h in cat.text.search("class", 5, SearchFilter("default"))}
    assert remaining == {chunk_id("p", "b.py", 1, 2)}


def test_the_writer_reads_its_own_writes_while_the_catalog_reads_only_what_is_published(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    with cat.writer() as writer:
        assert not writer.session_open and writer.manifest is cat.manifest
        writer.write([_doc("p", "a.py", "class A: pass", "A")])
        assert writer.session_open
        assert _counts(cat) == (0, 0, 0) and cat.manifest.documents == {}
        assert (writer.text.count("default"), writer.graph.counts("default")["chunks"]) == (1, 1)
        assert "p/a.py" in writer.manifest.documents
    assert _counts(cat) == (1, 1, 1) and "p/a.py" in cat.manifest.documents


def test_a_writer_block_that_raises_publishes_nothing_and_drops_its_generation(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    _write(cat, _doc("p", "a.py", "class A: pass", "A"))
    published, folders = manifest_identity(tmp_path), _generations(tmp_path)
    with pytest.raises(KeyboardInterrupt), cat.writer() as writer:
        writer.write([_doc("p", "b.py", "class B: pass", "B")])
        writer.delete(["p/a.py"])
        raise KeyboardInterrupt
    assert manifest_identity(tmp_path) == published and _generations(tmp_path) == folders
    assert sorted(cat.manifest.documents) == ["p/a.py"] and _counts(cat) == (1, 1, 1)
    reopened = Catalog.open_reader(tmp_path, "default")
    assert sorted(reopened.manifest.documents) == ["p/a.py"] and _counts(reopened) == (1, 1, 1)
    reopened.close()


def test_a_write_that_failed_half_way_is_dropped_even_when_the_block_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    published = manifest_identity(tmp_path)

    def broken(*_: object) -> None:
        raise OSError("disk full")

    with cat.writer() as writer:
        monkeypatch.setattr(KuzuGraphStore, "upsert", broken)  # after Tantivy and LanceDB took the write
        with pytest.raises(OSError, match="disk full"):
            writer.write([_doc("p", "a.py", "class A: pass", "A")])
        monkeypatch.undo()
    assert manifest_identity(tmp_path) == published and _counts(cat) == (0, 0, 0)
    assert _generations(tmp_path) == ["g00000000"]


def test_a_writer_that_writes_nothing_publishes_nothing(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    published = manifest_identity(tmp_path)
    with cat.writer() as writer:
        writer.write([])
        writer.delete([])
        writer.record_skipped("p", [])
    assert manifest_identity(tmp_path) == published and _generations(tmp_path) == ["g00000000"]


def test_a_write_on_a_read_view_is_refused_and_says_how_to_write(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    _write(cat, _doc("p", "a.py", "class A: pass", "A"))
    module = cat.entities()[0]
    with pytest.raises(ReadOnlyIndexError, match=r"open a writer: `with catalog\.writer\(\) as w:`"):
        cat.graph.upsert([], [module.model_copy(update={"description": "changed"})], [])
    with pytest.raises(ReadOnlyIndexError, match="open a writer"):
        cat.graph.delete_documents(["p/a.py"])
    assert cat.entities()[0] == module


def test_a_catalog_opened_read_only_refuses_to_open_a_writer(tmp_path: Path) -> None:
    Catalog(tmp_path, "default", HashEmbedder()).close()
    reader = Catalog.open_reader(tmp_path, "default")
    with pytest.raises(ReadOnlyIndexError, match="read-only"), reader.writer():
        pass
    reader.close()


def test_a_writer_used_after_its_block_refuses_to_write(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    with cat.writer() as writer:
        pass
    with pytest.raises(TridentIndexError, match="block has ended"):
        writer.write([_doc("p", "a.py", "class A: pass", "A")])
    assert _counts(cat) == (0, 0, 0)


def test_opening_a_catalog_while_a_writer_is_open_publishes_nothing(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    with cat.writer() as writer:
        writer.write([_doc("p", "a.py", "class A: pass", "A")])
        published = manifest_identity(tmp_path)
        other = Catalog(tmp_path, "default", HashEmbedder())
        assert manifest_identity(tmp_path) == published
        assert other.manifest.documents == {} and _counts(other) == (0, 0, 0)
        writer.write([_doc("p", "b.py", "class B: pass", "B")])
    assert sorted(other.manifest.documents) == ["p/a.py", "p/b.py"], "the other catalog follows the publication"
    other.close()


def test_opening_an_index_with_another_model_says_how_to_rebuild(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    _write(cat, _doc("p", "a.py", "class A: pass", "A"))
    cat.close()

    class OtherModel(HashEmbedder):
        model_name = "other/model"

    with pytest.raises(ModelMismatchError, match=r"trident reset") as excinfo:
        Catalog(tmp_path, "default", OtherModel())
    assert "test/hash-embedder" in str(excinfo.value)


def test_an_index_of_an_older_schema_is_refused_with_how_to_reindex_it(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    _write(cat, _doc("p", "a.py", "class A: pass", "A"))
    cat.close()
    older = Manifest.load(tmp_path)
    older.schema_version -= 1
    older.save(tmp_path)
    before = manifest_identity(tmp_path)
    for opening in (lambda: Catalog(tmp_path, "default", HashEmbedder()), lambda: Catalog.open_reader(tmp_path, "x")):
        with pytest.raises(SchemaMismatchError) as excinfo:
            opening()
        message = str(excinfo.value)
        assert f"schema version {older.schema_version}" in message
        assert "`trident reset --yes`, then `trident index PATH` for each project" in message
    assert manifest_identity(tmp_path) == before, "the refused index is left as it was"


def test_a_second_writer_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    with locking.exclusive(tmp_path), pytest.raises(IndexLockedError, match="another process"), cat.writer():
        pass


def test_a_second_writer_in_the_same_process_fails_at_once_instead_of_waiting_forever(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    other = Catalog(tmp_path, "default", HashEmbedder())
    with cat.writer() as writer:
        writer.write([_doc("p", "a.py", "class A: pass", "A")])
        with pytest.raises(IndexLockedError, match="already open in this thread"), cat.writer(wait_seconds=600):
            pass
        with pytest.raises(IndexLockedError, match="this same process"), other.writer():
            pass
    assert sorted(cat.manifest.documents) == ["p/a.py"], "the first writer still publishes"
    with other.writer():  # and lets go of the lock
        pass


def test_a_generation_a_publish_replaces_is_freed_when_no_reader_holds_it(tmp_path: Path) -> None:
    """Dropped by the catalog, the first generation of a new index is freed at once, not when the garbage collector
    next runs: each graph database holds a terabyte of address space, and a process that set up many indexes ran
    out of it."""
    gc.disable()  # what holds on only through a reference cycle stays held while the collector does not run
    try:
        catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
        first = weakref.ref(catalog.graph)  # the first generation's graph store
        _write(catalog, _doc("p", "a.py", "def a(): pass", "a"))
        alive = first() is not None
        catalog.close()
    finally:
        gc.enable()
    assert not alive, "the generation the publish replaced is still held"
