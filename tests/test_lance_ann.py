"""The ANN index of the chunk vectors: built at publish time, searched by readers of the published version, close
to an exact search, filtered and deterministic (real LanceDB in temporary folders, random unit vectors)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest import HashEmbedder
from trident.store.catalog import Catalog, DocumentWrite
from trident.store.engines import ann, lance_index
from trident.store.engines.graph_vectors import GraphItem, GraphVectorIndex
from trident.store.engines.lance_index import LanceVectorIndex
from trident.store.protocols import SearchFilter
from trident.store.schema import Chunk, Document, DocumentKind

DIM = 32
ROWS = 3_000
THRESHOLD = 2_000
TINY = 12  # a project this small must still come back whole through the index's prefilter
BATCH = 100


class Corpus:
    """Random unit vectors with their ids, tenants and projects, and an exact search to compare with."""

    def __init__(self, rows: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        vectors = rng.standard_normal((rows + TINY, DIM)).astype(np.float32)
        self.vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        self.ids = np.array([f"c{i:05d}" for i in range(rows + TINY)])
        self.tenants = np.array(["globex" if i % 5 == 0 and i < rows else "acme" for i in range(rows + TINY)])
        self.projects = np.array([f"p{i % 4}" if i < rows else "tiny" for i in range(rows + TINY)])

    def chunks(self, rows: range) -> list[Chunk]:
        return [
            Chunk(
                id=str(self.ids[i]),
                doc_id=f"doc-{self.ids[i]}",
                project=str(self.projects[i]),
                path=f"{self.ids[i]}.py",
                text="",
                start_line=1,
                end_line=1,
                kind=DocumentKind.CODE,
                tenant=str(self.tenants[i]),
            )
            for i in rows
        ]

    def write(self, index: LanceVectorIndex, rows: range) -> None:
        for start in range(rows.start, rows.stop, BATCH):  # one fragment per batch, as the indexer writes
            batch = range(start, min(start + BATCH, rows.stop))
            index.upsert(self.chunks(batch), self.vectors[batch.start : batch.stop])

    def exact(self, query: np.ndarray, limit: int, where: SearchFilter) -> list[str]:
        keep = self.tenants == where.tenant
        if where.projects is not None:
            keep &= np.isin(self.projects, where.projects)
        scores, ids = self.vectors[keep] @ query, self.ids[keep]
        return [str(i) for i in ids[np.lexsort((ids, -scores))][:limit]]


def module(number: int) -> DocumentWrite:
    path = f"m{number}.py"
    doc = Document(id=f"p/{path}", project="p", path=path, kind=DocumentKind.CODE, content_hash=str(number))
    chunk = Chunk(
        id=f"chunk{number}",
        doc_id=doc.id,
        project="p",
        path=path,
        text=f"class Service{number}: pass",
        start_line=1,
        end_line=1,
        kind=DocumentKind.CODE,
    )
    return DocumentWrite(doc, [chunk])


def queries(count: int, seed: int = 1) -> np.ndarray:
    vectors = np.random.default_rng(seed).standard_normal((count, DIM)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


ACME = SearchFilter("acme")


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus(ROWS)


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory, corpus: Corpus) -> tuple[Path, int, int]:
    """A table written in batches and optimized, as a writer publishes it: (folder, version before, after)."""
    folder = tmp_path_factory.mktemp("semantic")
    writer = LanceVectorIndex(folder, DIM, ann_min_rows=THRESHOLD)
    corpus.write(writer, range(ROWS + TINY))
    before = writer.version()
    writer.optimize()
    return folder, before, writer.version()


@pytest.fixture
def reader(published: tuple[Path, int, int]) -> LanceVectorIndex:
    folder, _, version = published
    return LanceVectorIndex(folder, DIM, version=version)


def test_optimize_leaves_a_table_under_the_threshold_unindexed_and_unchanged(tmp_path: Path, corpus: Corpus) -> None:
    index = LanceVectorIndex(tmp_path, DIM, ann_min_rows=ROWS + TINY + 1)
    corpus.write(index, range(ROWS + TINY))
    version = index.version()
    index.optimize()
    assert index.ann_index() is None
    assert index.version() == version, "nothing to do writes no version"


def test_optimize_builds_the_ann_index_over_every_row_once_the_table_reaches_the_threshold(
    published: tuple[Path, int, int],
) -> None:
    folder, before, after = published
    index = LanceVectorIndex(folder, DIM, version=after)
    ann = index.ann_index()
    assert ann is not None
    assert (ann.num_indexed_rows, ann.num_unindexed_rows) == (ROWS + TINY, 0)
    assert LanceVectorIndex(folder, DIM, version=before).ann_index() is None


def test_a_reader_at_the_published_version_searches_through_the_index(published: tuple[Path, int, int]) -> None:
    folder, before, after = published
    query = queries(1)[0]
    assert "ANNSubIndex" in LanceVectorIndex(folder, DIM, version=after).explain(query, 10, ACME)
    assert "ANNSubIndex" not in LanceVectorIndex(folder, DIM, version=before).explain(query, 10, ACME)


def test_the_index_finds_the_exact_top_10_for_most_queries_with_exact_scores(
    reader: LanceVectorIndex, corpus: Corpus
) -> None:
    recalls = []
    for query in queries(40):
        hits = reader.search(query, 10, ACME)
        recalls.append(len({h.id for h in hits} & set(corpus.exact(query, 10, ACME))) / 10)
        by_id = dict(zip(corpus.ids, corpus.vectors, strict=True))
        for hit in hits:  # refined on the full vectors, so fusion sees true cosines, not quantized ones
            assert hit.score == pytest.approx(float(by_id[hit.id] @ query), abs=1e-4)
    assert np.mean(recalls) >= 0.9, f"recall@10 {np.mean(recalls):.3f}"


@pytest.mark.parametrize(
    "where",
    [SearchFilter("globex"), SearchFilter("acme", ("p1", "p2")), SearchFilter("globex", ("p3",))],
    ids=["other tenant", "two projects", "tenant and project"],
)
def test_tenant_and_project_filters_still_apply_through_the_index(
    reader: LanceVectorIndex, corpus: Corpus, where: SearchFilter
) -> None:
    tenants, projects = (
        dict(zip(corpus.ids, corpus.tenants, strict=True)),
        dict(zip(corpus.ids, corpus.projects, strict=True)),
    )
    for query in queries(5):
        hits = reader.search(query, 30, where)
        assert len(hits) == 30
        assert {tenants[h.id] for h in hits} == {where.tenant}
        if where.projects is not None:
            assert {projects[h.id] for h in hits} <= set(where.projects)


def test_a_project_smaller_than_the_limit_comes_back_whole(reader: LanceVectorIndex, corpus: Corpus) -> None:
    tiny = SearchFilter("acme", ("tiny",))
    hits = reader.search(queries(1)[0], 50, tiny)
    assert [h.id for h in hits] == corpus.exact(queries(1)[0], 50, tiny)
    assert len(hits) == TINY


def test_the_same_query_on_the_same_index_ranks_the_same(
    reader: LanceVectorIndex, published: tuple[Path, int, int]
) -> None:
    folder, _, version = published
    other = LanceVectorIndex(folder, DIM, version=version)
    for query in queries(10):
        first = reader.search(query, 50, ACME)
        assert reader.search(query, 50, ACME) == first
        assert other.search(query, 50, ACME) == first


def test_optimize_on_an_unchanged_table_writes_nothing_and_keeps_the_answers(tmp_path: Path, corpus: Corpus) -> None:
    index = LanceVectorIndex(tmp_path, DIM, ann_min_rows=THRESHOLD)
    corpus.write(index, range(ROWS))
    index.optimize()
    version, answers = index.version(), [index.search(q, 20, ACME) for q in queries(10)]
    index.optimize()
    assert index.version() == version
    assert [index.search(q, 20, ACME) for q in queries(10)] == answers


def test_rows_written_after_the_index_are_found_then_folded_in_without_a_rebuild(tmp_path: Path) -> None:
    big = Corpus(ROWS + 600, seed=2)
    index = LanceVectorIndex(tmp_path, DIM, ann_min_rows=THRESHOLD)
    big.write(index, range(ROWS))
    index.optimize()
    built = index.ann_index()
    assert built is not None

    big.write(index, range(ROWS, ROWS + 100))  # a few rows: searched exactly beside the index, not folded yet
    version = index.version()
    index.optimize()
    assert index.version() == version
    newest = big.vectors[ROWS + 51]
    assert index.search(newest, 1, ACME)[0].id == big.ids[ROWS + 51]

    big.write(index, range(ROWS + 100, ROWS + 600))  # more than REFRESH_FRACTION of the index: folded in
    index.optimize()
    folded = index.ann_index()
    assert folded is not None
    assert folded.num_unindexed_rows == 0
    assert folded.index_uuid == built.index_uuid, "folded into the index, not rebuilt"
    assert index.search(newest, 1, ACME)[0].id == big.ids[ROWS + 51]


def test_an_index_split_by_folds_is_rebuilt_in_one_segment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ann, "MAX_SEGMENTS", 1)
    big = Corpus(ROWS + 600, seed=3)
    index = LanceVectorIndex(tmp_path, DIM, ann_min_rows=THRESHOLD)
    big.write(index, range(ROWS))
    index.optimize()
    built = index.ann_index()
    big.write(index, range(ROWS, ROWS + 600))
    index.optimize()
    rebuilt = index.ann_index()
    assert built is not None and rebuilt is not None
    assert (rebuilt.num_segments, rebuilt.num_unindexed_rows) == (1, 0)
    assert rebuilt.index_uuid != built.index_uuid


def test_a_writer_dead_after_optimize_rolls_back_to_the_published_version_and_its_answers(
    tmp_path: Path, corpus: Corpus
) -> None:
    writer = LanceVectorIndex(tmp_path, DIM, ann_min_rows=THRESHOLD)
    corpus.write(writer, range(ROWS))
    published = writer.version()
    answers = [writer.search(q, 10, ACME) for q in queries(5)]
    writer.optimize()  # ...and the writer dies before replacing the manifest

    next_writer = LanceVectorIndex(tmp_path, DIM, ann_min_rows=THRESHOLD)
    next_writer.roll_back_to(published)
    assert next_writer.ann_index() is None
    assert [next_writer.search(q, 10, ACME) for q in queries(5)] == answers


def test_a_published_generation_pins_a_version_that_holds_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lance_index, "ANN_MIN_ROWS", 40)
    writer = Catalog(tmp_path, "default", HashEmbedder())
    with writer.writer() as w:
        w.write([module(i) for i in range(50)])
    reader = Catalog.open_reader(tmp_path, "default")
    assert reader.manifest.chunks_version == reader.vectors.version()
    assert reader.vectors.ann_index() is not None
    query = HashEmbedder().embed_query("class Service7: pass")
    assert "ANNSubIndex" in reader.vectors.explain(query, 10, SearchFilter("default"))
    writer.close()
    reader.close()


def test_the_entity_and_relation_vectors_get_the_same_index_and_answer_as_an_exact_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ann, "ANN_MIN_ROWS", THRESHOLD)
    corpus = Corpus(ROWS, seed=3)
    index = GraphVectorIndex(tmp_path / "graph_vectors", DIM)
    for start in range(0, ROWS, BATCH):
        batch = range(start, min(start + BATCH, ROWS))
        items = [
            GraphItem(str(corpus.ids[i]), "entity", (str(corpus.ids[i]),), "", str(corpus.tenants[i])) for i in batch
        ]
        index.add(items, corpus.vectors[batch.start : batch.stop])
    index.optimize()
    assert ann.vector_index(index._table) is not None
    rng = np.random.default_rng(7)
    found = 0
    for row in rng.choice(ROWS, 20, replace=False):
        query = corpus.vectors[row]
        hits = index.search(query, 10, "acme")
        assert hits == index.search(query, 10, "acme"), "deterministic"
        assert all(corpus.tenants[int(hit.key[1:])] == "acme" for hit in hits)
        found += len({hit.key for hit in hits} & set(corpus.exact(query, 10, SearchFilter("acme", None))))
    assert found / 200 >= 0.9
