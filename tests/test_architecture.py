"""What docs/architecture.md promises a newcomer: a retrieval path is one runner function and one registry line, and
the search pipeline runs it like any other (cited hits, its rank in each hit's sources)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import HashEmbedder, index_into
from trident.retrieval.path_names import PathName
from trident.retrieval.paths import PATH_RUNNERS, PathHits, PathQuery, run_path
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import search
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import ScoredId, SearchFilter

NOTES = {
    "alpha.md": "# Alpha\n\nThe payment gateway charges cards.\n",
    "beta.md": "# Beta\n\nThe payment gateway retries failed charges twice.\n",
    "gamma.md": "# Gamma\n\nThe payment gateway refunds charges on request, then notifies the ledger.\n",
}


@pytest.fixture
def notes_catalog(tmp_path: Path) -> Catalog:
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, text in NOTES.items():
        (folder / name).write_text(text, encoding="utf-8")
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    index_into(catalog, folder, "notes")
    return catalog


def longest_first(q: PathQuery) -> PathHits:
    """The toy path: the chunks BM25 finds, longest text first (a ranking no built-in path gives)."""
    found = q.catalog.text.search(q.text, 50, q.where)
    chunks = q.catalog.graph.get_chunks([hit.id for hit in found])
    ranked = sorted(found, key=lambda hit: (-len(chunks[hit.id].text), hit.id))
    return PathHits([ScoredId(hit.id, 1.0 / rank) for rank, hit in enumerate(ranked, start=1)])


def test_a_toy_path_registered_with_one_line_answers_a_search(
    notes_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = GenerationViews(RetrievalSettings())
    before = search(notes_catalog, "payment gateway charges", views=views, strategy="lexical")
    monkeypatch.setitem(PATH_RUNNERS, PathName.LEXICAL, longest_first)  # the one registry line
    after = search(notes_catalog, "payment gateway charges", views=views, strategy="lexical")
    assert [hit.path for hit in after.hits] == ["gamma.md", "beta.md", "alpha.md"]
    assert [hit.path for hit in before.hits] != [hit.path for hit in after.hits], "the toy path really ran"
    assert [hit.sources["lexical"] for hit in after.hits] == [1, 2, 3]
    assert all(hit.citation.startswith("notes/") for hit in after.hits)


def test_every_path_name_has_a_runner_and_an_unknown_name_is_refused(notes_catalog: Catalog) -> None:
    assert set(PATH_RUNNERS) == set(PathName)
    query = PathQuery(
        notes_catalog,
        "payment",
        where=SearchFilter("default", None),
        views=GenerationViews(RetrievalSettings()),
        projects=None,
        embed=HashEmbedder().embed_query,
    )
    with pytest.raises(ValueError, match="unknown retrieval path 'toy'; known: lexical, semantic"):
        run_path("toy", query)


PACKAGES = ("cli", "server", "tools", "retrieval", "store", "host", "ingest", "embedding", "evaluation")


def test_no_module_name_repeats_across_packages() -> None:
    """`search`, `settings`, `errors`: a name in two packages makes a reader ask which one an import means."""
    root = Path(__file__).resolve().parent.parent
    where: dict[str, list[str]] = {}
    for package in PACKAGES:
        for module in sorted((root / package).rglob("*.py")):
            if module.name != "__init__.py":
                where.setdefault(module.stem, []).append(str(module.parent.relative_to(root)))
    repeated = {name: packages for name, packages in where.items() if len(packages) > 1}
    assert repeated == {}, f"module names in more than one package: {repeated}"
    assert len(where) > 100, "the packages were found"
