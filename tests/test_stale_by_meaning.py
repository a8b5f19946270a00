"""A call in a project's prose of a name no definition carries is flagged even with no name of the same first word
near, when the sentence describes one callable of the project taking the same parameters; the names the standard
library, the builtins, another indexed project or the project's imports carry never are. Over real git repositories
indexed through the pipeline."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import HashEmbedder, index_into
from trident.retrieval.reader import Reader
from trident.retrieval.stale_meaning import CallArguments, sentence_of
from trident.store.catalog import Catalog
from trident.tools.stale import StaleReference, find_stale

CLIENT = '''"""The warehouse client."""

import json

from fastqueue import enqueue_items


def post_items(items):
    """Post the items to the warehouse server in one request."""
    return json.dumps(items)


def count_items(items):
    """How many items a request holds."""
    return len(items)


def requeue(items):
    enqueue_items(items)
'''
ROUTING = '''def route_parcel(items):
    """Route the parcel's items to a depot."""
    return items
'''


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args], check=True)


def repository(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", ".")
    git(folder, "commit", "-q", "-m", "first")
    return folder


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Catalog]:
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    yield catalog
    catalog.close()


def stale_of(catalog: Catalog, tmp_path: Path, readme: str) -> list[StaleReference]:
    """The stale references of a `shipping` repository (the client above and `readme`), indexed beside a `routing`
    one."""
    shipping = repository(tmp_path / "shipping", {"client.py": CLIENT, "README.md": readme})
    routing = repository(tmp_path / "routing", {"routing.py": ROUTING})
    index_into(catalog, shipping, "shipping")
    index_into(catalog, routing, "routing")
    return find_stale(Reader.open(catalog), wait=None).references


def test_a_call_of_a_missing_name_is_flagged_with_the_callable_its_sentence_describes(
    index: Catalog, tmp_path: Path
) -> None:
    found = stale_of(index, tmp_path, "# Shipping\n\nCall `send_batch(items)` to post the items to the server.\n")
    assert [r.name for r in found] == ["send_batch(items)"]
    assert "`post_items`" in found[0].detail and "no `send_batch` in project shipping" in found[0].detail
    assert found[0].see is not None and found[0].see.startswith("shipping/client.py:L8")
    assert found[0].citation.startswith("shipping/README.md:")


def test_a_sentence_that_names_part_of_a_callable_and_says_what_its_docstring_says_is_flagged_too(
    index: Catalog, tmp_path: Path
) -> None:
    readme = "# Shipping\n\nCall `send_batch(items)` to deliver the items to the warehouse server.\n"
    found = stale_of(index, tmp_path, readme)
    assert [r.name for r in found] == ["send_batch(items)"] and "`post_items`" in found[0].detail


@pytest.mark.parametrize(
    "sentence",
    [
        "Call `json.dumps(items)` to post the items to the server.",  # the standard library's, dotted
        "Call `os.path.join(folder, items)` to post the items to the server.",
        "Call `quote_plus(items)` to post the items to the server.",  # the standard library's, bare
        "Call `len(items)` to post the items to the server.",  # a builtin
        "Call `route_parcel(items)` to post the items to the server.",  # another indexed project's
        "Call `enqueue_items(items)` to post the items to the server.",  # imported from a dependency
        "Call `post_items(items)` to post the items to the server.",  # the project's own
        "Call `send_batch(batch)` to post the items to the server.",  # no callable takes `batch`
        "Call `send_batch(items)` to ship them.",  # the sentence describes none of the project's callables
        "Call `send_batch(items)` to deliver the items.",  # a name word, but nothing of the docstring
        "Call `send_batch(items)` to post or count the items.",  # it describes two: no telling which
        "Call `send_batch()` to post the items to the server.",  # no parameters to compare
    ],
)
def test_a_call_the_project_or_its_libraries_carry_or_that_describes_no_one_callable_is_not_flagged(
    index: Catalog, tmp_path: Path, sentence: str
) -> None:
    assert stale_of(index, tmp_path, f"# Shipping\n\n{sentence}\n") == []


def test_the_sentence_of_a_reference_stops_at_its_neighbours() -> None:
    prose = "Install it first. Then call `send_batch(items)` to post them.\n\n- Count with `count_items(items)`."
    assert sentence_of(prose, "send_batch(items)") == "Then call `send_batch(items)` to post them."
    assert sentence_of(prose, "absent(x)") == ""


def test_a_call_fits_a_definition_by_its_positional_names_in_order_and_its_keywords_by_name() -> None:
    called = CallArguments.of("send_batch(items, timeout=5)")
    assert called is not None
    assert called.fit(("items", "retries", "timeout")) and not called.fit(("batch", "timeout"))
    assert CallArguments.of("send_batch(*items)") is None and CallArguments.of("send_batch") is None
