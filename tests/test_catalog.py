"""The catalog keeps the three real engines in step (plumbing only: a hash embedder stands in for the model)."""

from __future__ import annotations

from pathlib import Path

import pytest
from trident.store.catalog import Catalog, DocumentWrite, IndexLockedError, ModelMismatchError, write_lock
from trident.store.protocols import SearchFilter
from trident.store.schema import Chunk, Document, DocumentKind, Entity, Relation, chunk_id, entity_id

from tests.conftest import HashEmbedder


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


def test_a_write_lands_in_all_three_engines_and_the_manifest(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    cat.write([_doc("p", "a.py", "class PaymentGateway: pass", "PaymentGateway")])
    assert _counts(cat) == (1, 1, 1)
    assert cat.graph.counts("default") == {"chunks": 1, "entities": 2, "relations": 1}
    assert cat.manifest.documents["p/a.py"].chunk_ids == [chunk_id("p", "a.py", 1, 2)]
    hits = cat.text.search("payment gateway", 5, SearchFilter("default"))
    assert [h.id for h in hits] == [chunk_id("p", "a.py", 1, 2)]


def test_rewriting_a_document_replaces_it_rather_than_duplicating(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    cat.write([_doc("p", "a.py", "class A: pass", "A")])
    cat.write([_doc("p", "a.py", "class B: pass", "B")])
    assert _counts(cat) == (1, 1, 1)
    assert sorted(e.name for e in cat.entities()) == ["B", "a.py"]


def test_deleting_a_document_removes_it_from_every_engine(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    cat.write([_doc("p", "a.py", "class A: pass", "A"), _doc("p", "b.py", "class B: pass", "B")])
    cat.delete(["p/a.py"])
    assert _counts(cat) == (1, 1, 1)
    assert "p/a.py" not in cat.manifest.documents
    remaining = {h.id for h in cat.text.search("class", 5, SearchFilter("default"))}
    assert remaining == {chunk_id("p", "b.py", 1, 2)}


def test_opening_an_index_with_another_model_says_how_to_rebuild(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    cat.write([_doc("p", "a.py", "class A: pass", "A")])
    cat.close()

    class OtherModel(HashEmbedder):
        model_name = "other/model"

    with pytest.raises(ModelMismatchError, match=r"trident reset") as excinfo:
        Catalog(tmp_path, "default", OtherModel())
    assert "test/hash-embedder" in str(excinfo.value)


def test_a_write_interrupted_mid_way_is_undone_on_the_next_open(tmp_path: Path) -> None:
    cat = Catalog(tmp_path, "default", HashEmbedder())
    cat.write([_doc("p", "a.py", "class A: pass", "A")])
    # Simulate a crash after the engines were written but before the manifest was committed.
    cat.manifest.pending = ["p/a.py"]
    cat.manifest.save(tmp_path)
    cat.close()
    reopened = Catalog(tmp_path, "default", HashEmbedder())
    assert _counts(reopened) == (0, 0, 0)
    assert reopened.manifest.documents == {}
    assert reopened.manifest.pending == []


def test_a_second_writer_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    with write_lock(tmp_path), pytest.raises(IndexLockedError, match="another process"), write_lock(tmp_path):
        pass
