"""A question about code is answered by the definition first: tests, examples and change logs that share its words
follow it, unless the question asks for them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import write_files
from trident.ingest.pipeline import index_folder
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import search
from trident.retrieval.supporting_files import Supporting, asked_for, supporting_kind
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder

FILES = {
    "src/backoff/delays.py": (
        "import random\n\n\n"
        "def next_delay(attempt: int, base: float = 0.5, cap: float = 30.0) -> float:\n"
        "    '''Wait before the next attempt: exponential in the attempt number, capped, with full jitter.'''\n"
        "    ceiling = min(cap, base * 2 ** attempt)\n"
        "    return random.uniform(0, ceiling)\n"
    ),
    "tests/test_delays.py": (
        "from backoff.delays import next_delay\n\n\n"
        "def test_the_delay_before_the_next_attempt_grows_exponentially_and_is_capped_with_jitter():\n"
        "    '''The wait before the next attempt: exponential, capped, with jitter.'''\n"
        "    for attempt in range(10):\n"
        "        assert 0 <= next_delay(attempt, base=0.5, cap=30.0) <= min(30.0, 0.5 * 2 ** attempt)\n"
    ),
    "examples/retry_loop.py": (
        "from backoff.delays import next_delay\n\n\n"
        "def retry(call, attempts=5):\n"
        "    '''Example: wait an exponential, capped, jittered delay before the next attempt.'''\n"
        "    for attempt in range(attempts):\n"
        "        try:\n"
        "            return call()\n"
        "        except OSError:\n"
        "            time.sleep(next_delay(attempt))\n"
    ),
    "CHANGELOG.md": "# Changes\n\n## 2.0\n\n- The delay before the next attempt is exponential, capped, with jitter.\n",
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[Catalog]:
    root = tmp_path_factory.mktemp("supporting")
    write_files(root / "backoff", FILES)
    catalog = Catalog(root / "index", "default", embedder)
    with catalog.writer() as writer:
        index_folder(writer, root / "backoff", "backoff", max_file_bytes=1_000_000)
    yield catalog
    catalog.close()


def _paths(catalog: Catalog, query: str) -> list[str]:
    hits = search(catalog, query, views=GenerationViews(RetrievalSettings()), top_k=4).hits
    return [hit.path for hit in hits]


def test_where_something_is_done_is_answered_by_its_definition_before_tests_examples_and_changes(
    catalog: Catalog,
) -> None:
    paths = _paths(catalog, "Where is the delay before the next attempt computed, exponential with jitter?")
    assert paths[0] == "src/backoff/delays.py", paths


def test_a_question_asking_for_tests_gets_them_first(catalog: Catalog) -> None:
    paths = _paths(catalog, "Which tests check that the delay before the next attempt is capped with jitter?")
    assert paths[0] == "tests/test_delays.py", paths


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("tests/test_delays.py", Supporting.TEST),
        ("src/pkg/conftest.py", Supporting.TEST),
        ("docs/examples/quick.py", Supporting.EXAMPLE),
        ("benchmarks/run.py", Supporting.EXAMPLE),
        ("CHANGELOG.md", Supporting.CHANGELOG),
        ("CHANGES.rst", Supporting.CHANGELOG),
        ("HISTORY.md", Supporting.CHANGELOG),
        ("src/pkg/history.py", None),  # a module named history is code
        ("src/pkg/delays.py", None),
        ("README.md", None),
    ],
)
def test_supporting_files_are_known_by_their_paths(path: str, kind: Supporting | None) -> None:
    assert supporting_kind(path) == kind


def test_the_words_of_a_question_say_which_supporting_files_it_asks_for() -> None:
    assert asked_for("where is the delay computed?") == frozenset()
    assert asked_for("which tests cover the delay?") == {Supporting.TEST}
    assert asked_for("show me an example of a retry loop") == {Supporting.EXAMPLE}
    assert asked_for("when did the delay change? which release?") == {Supporting.CHANGELOG}


def test_a_code_chunk_that_defines_nothing_is_a_preamble_unless_asked_for() -> None:
    from trident.retrieval.supporting_files import chunk_kind
    from trident.store.schema import Chunk, DocumentKind

    def chunk(path: str, symbols: tuple[str, ...], kind: DocumentKind = DocumentKind.CODE) -> Chunk:
        return Chunk(
            id="c", doc_id=path, project="p", path=path, text="x", start_line=1, end_line=1, kind=kind, symbols=symbols
        )

    assert chunk_kind(chunk("src/pkg/delays.py", ())) == Supporting.PREAMBLE
    assert chunk_kind(chunk("src/pkg/delays.py", ("next_delay",))) is None
    assert chunk_kind(chunk("README.md", (), DocumentKind.MARKDOWN)) is None
    assert chunk_kind(chunk("tests/test_delays.py", ())) == Supporting.TEST
    assert asked_for("which module-level constants set the default delay?") == {Supporting.PREAMBLE}
