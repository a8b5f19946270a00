"""A hit from a file edited or removed since indexing says so, with the command that refreshes it; checked at answer
time for the returned hits only."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import HashEmbedder, index_into
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.search import SearchResult
from trident.tools.search import search as tool_search

LEDGER = "def settle_ledger_quarterly(entries):\n    return sum(entries)\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "ledger"
    folder.mkdir()
    (folder / "ledger.py").write_text(LEDGER)
    (folder / "notes.md").write_text("# Notes\n\nThe quarterly ledger is settled by settle_ledger_quarterly.\n")
    return folder


@pytest.fixture
def catalog(tmp_path: Path, project: Path) -> Iterator[Catalog]:
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    index_into(catalog, project, "ledger")
    yield catalog
    catalog.close()


def _search(catalog: Catalog) -> SearchResult:
    views = GenerationViews(RetrievalSettings())
    return tool_search(Reader(catalog, views), "settle_ledger_quarterly", top_k=5, strategy="lexical")


def _code_hit(result: SearchResult) -> dict[str, object]:
    hits = json.loads(result.model_dump_json())["hits"]
    return next(hit for hit in hits if hit["path"] == "ledger.py")


def test_a_hit_from_an_unchanged_file_carries_no_stale_mark(catalog: Catalog) -> None:
    result = _search(catalog)
    assert "stale" not in _code_hit(result) and "stale_hits" not in json.loads(result.model_dump_json())["diagnostics"]


def test_an_edited_file_makes_its_hits_stale_with_the_command_that_refreshes_them(
    catalog: Catalog, project: Path
) -> None:
    (project / "ledger.py").write_text(LEDGER + "\n\ndef audit():\n    pass\n")
    result = _search(catalog)
    hit = _code_hit(result)
    assert hit["stale"] is True
    assert "changed on disk" in str(hit["stale_reason"]) and f"trident index {project}" in str(hit["stale_reason"])
    assert result.diagnostics.stale_hits == 1
    assert "stale" not in next(h for h in json.loads(result.model_dump_json())["hits"] if h["path"] == "notes.md")


def test_a_file_touched_but_unchanged_is_not_stale(catalog: Catalog, project: Path) -> None:
    path = project / "ledger.py"
    path.write_text(LEDGER)
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5_000_000_000))
    assert "stale" not in _code_hit(_search(catalog))


def test_a_removed_file_makes_its_hits_stale(catalog: Catalog, project: Path) -> None:
    (project / "ledger.py").unlink()
    hit = _code_hit(_search(catalog))
    assert hit["stale"] is True and "is gone" in str(hit["stale_reason"])


def test_reindexing_clears_the_mark(catalog: Catalog, project: Path) -> None:
    (project / "ledger.py").write_text(LEDGER.replace("sum(entries)", "sum(entries, 0)"))
    assert _code_hit(_search(catalog))["stale"] is True
    index_into(catalog, project, "ledger")
    assert "stale" not in _code_hit(_search(catalog))
