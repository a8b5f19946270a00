"""A reader answers from one index generation: an answer read while a writer published another is read again from
the newest, and a tool's answer through a reader is what the newest generation holds."""

from __future__ import annotations

from pathlib import Path

from tests.projects import indexed_projects, write_files
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import READS, Reader, read_once
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.get_entity import get_entity

FIRST = {"shop/orders.py": "def checkout(cart):\n    return total(cart)\n\n\ndef total(cart):\n    return sum(cart)\n"}
SECOND = {"shop/refunds.py": "from shop.orders import total\n\n\ndef refund(cart):\n    return -total(cart)\n"}


def _publish(catalog: Catalog, root: Path, files: dict[str, str]) -> None:
    write_files(root / "shop-project", files)
    with catalog.writer() as writer:
        index_folder(writer, root / "shop-project", "shop-project", max_file_bytes=1_000_000)


def test_an_answer_read_while_a_generation_was_published_is_read_again_from_the_newest(tmp_path: Path) -> None:
    catalog = indexed_projects(tmp_path, {"shop-project": FIRST}, ["shop-project"])
    reader = Reader(catalog, GenerationViews(RetrievalSettings()))
    opened_on = reader.generation
    read: list[tuple[int, dict[str, int]]] = []

    def callers_of_total(current: Reader) -> dict[str, int]:
        found = get_entity(current, "shop.orders.total").relations_in
        read.append((current.generation, found))
        if len(read) == 1:  # a writer publishes while this answer is read
            _publish(catalog, tmp_path, SECOND)
        return found

    answer = read_once(reader, callers_of_total)
    assert [generation for generation, _ in read] == [opened_on, catalog.manifest.generation]
    assert catalog.manifest.generation > opened_on
    assert answer == read[-1][1] and answer["CALLS"] == read[0][1]["CALLS"] + 1  # refund's call is there
    assert not Reader(catalog, reader.views).moved()


def test_a_writer_publishing_without_pause_gets_the_last_answer_read(tmp_path: Path) -> None:
    catalog = indexed_projects(tmp_path, {"shop-project": FIRST}, ["shop-project"])
    reader = Reader(catalog, GenerationViews(RetrievalSettings()))
    generations: list[int] = []

    def publishing(current: Reader) -> int:
        generations.append(current.generation)
        files = {f"shop/step_{len(generations)}.py": f"def step_{len(generations)}():\n    return 1\n"}
        _publish(catalog, tmp_path, files)
        return current.generation

    assert read_once(reader, publishing) == generations[-1]
    assert len(generations) == READS and generations == sorted(set(generations))
