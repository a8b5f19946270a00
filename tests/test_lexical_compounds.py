"""Words a question writes apart that code writes as one ("file name" for `filename`, "time stamp" for `timestamp`)
match the code's form too, so the lexical path finds the definition whose name holds the compound."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import HashEmbedder, index_into
from trident.store.catalog import Catalog
from trident.store.engines import tantivy_index
from trident.store.engines.tantivy_index import compounds
from trident.store.protocols import SearchFilter

SOURCE = {
    "lookup.py": (
        "def find_lexer_for_filename(filename, code=None):\n"
        '    """The lexer class whose patterns match the filename best."""\n'
        "    return best_match(patterns_of(filename))\n\n\n"
        "def find_lexer_by_name(name):\n"
        '    """A lexer by its name or one of its aliases: the name as users write it."""\n'
        "    return lexers_named(name) or lexers_aliased(name)\n"
    ),
    "clock.py": (
        "def parse_timestamp(text):\n"
        '    """Read a timestamp written as ISO 8601."""\n'
        "    return iso_8601(text)\n\n\n"
        "def parse_date(text):\n"
        '    """Parse a date and its time as people write them."""\n'
        "    return date_of(text)\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("compounds")
    project = root / "tools"
    project.mkdir()
    for name, text in SOURCE.items():
        (project / name).write_text(text)
    catalog = Catalog(root / "index", "default", HashEmbedder())  # the lexical path only: no meaning involved
    index_into(catalog, project, "tools")
    yield catalog
    catalog.close()


def _first(catalog: Catalog, query: str) -> str:
    hits = catalog.text.search(query, 5, SearchFilter("default"))
    rows = catalog.graph.get_chunks([hits[0].id])
    return rows[hits[0].id].text.split("(")[0].removeprefix("def ")


@pytest.mark.parametrize(
    ("query", "definition"),
    [
        ("find the lexer for a file name", "find_lexer_for_filename"),
        ("parse a time stamp from text", "parse_timestamp"),
    ],
)
def test_words_written_apart_find_the_code_that_writes_them_as_one(
    catalog: Catalog, query: str, definition: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _first(catalog, query) == definition
    monkeypatch.setattr(tantivy_index, "compounds", lambda words: [])
    assert _first(catalog, query) != definition, "without the compound the other definition's words win"


def test_only_content_words_of_three_letters_or_more_join() -> None:
    assert compounds(["a", "file", "name", "for", "the", "time", "out"]) == ["filename", "timeout"]
    assert compounds(["how", "does", "it", "work"]) == []
    assert compounds(["utf8", "data"]) == []  # not letters only
    assert compounds(["name"]) == []


def test_a_compound_no_chunk_holds_changes_no_score(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    query = "lexer name users"  # joins as "lexername" and "nameusers": neither is in any chunk
    joined = catalog.text.search(query, 5, SearchFilter("default"))
    monkeypatch.setattr(tantivy_index, "compounds", lambda words: [])
    assert catalog.text.search(query, 5, SearchFilter("default")) == joined and joined


def test_the_matches_per_project_are_the_chunks_a_search_of_each_project_ranks(catalog: Catalog) -> None:
    counted = catalog.text.matches("lexer name", "default", ["tools", "elsewhere"])
    ranked = catalog.text.search("lexer name", 100, SearchFilter("default", ("tools",)))
    assert counted == {"tools": len(ranked)} and len(ranked) > 0  # a project with no match is left out
    assert catalog.text.matches("zqxvjw", "default", ["tools"]) == {}
