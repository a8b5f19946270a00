"""The chunk files a search reads its vectors and hits from are checked against what their publish wrote: missing,
damaged, of an older format or of another generation, they are an error that names the file and `trident repair`
(in the library, as a tool result the model can read, and in the CLI), never something served in their place; and
`trident repair` writes them again so every answer is what it was."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from mcp.client import Client
from typer.testing import CliRunner

from tests.conftest import EXAMPLES, SAMPLE_PROJECTS, HashEmbedder, index_into
from tests.test_chunk_rows import assert_rows_are_the_graphs
from trident.cli.main import app as cli_app
from trident.ingest.pipeline import index_folder
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import search
from trident.retrieval.views import GenerationViews
from trident.server.app import build_server
from trident.server.server_settings import ServerSettings, TridentSettings
from trident.store.catalog import Catalog
from trident.store.mapped.chunk_files import ChunkFilesError, read_chunk_files
from trident.store.mapped.chunk_matrix import CHUNK_MATRIX_DIR

QUERIES = ["charge a card", "what calls refund", "verify a token"]


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with the sample projects indexed (plumbing: which files, not what the vectors mean)."""
    home = tmp_path_factory.mktemp("published") / "home"
    catalog = Catalog(home / "tenants" / "default", "default", HashEmbedder())
    try:
        with catalog.writer() as writer:  # one publish: one segment, s0.
            for project in SAMPLE_PROJECTS:
                index_folder(writer, EXAMPLES / project, project, max_file_bytes=1_000_000)
    finally:
        catalog.close()
    return home


@pytest.fixture
def home(published: Path, tmp_path: Path) -> Path:
    shutil.copytree(published, tmp_path / "home", ignore=shutil.ignore_patterns("write.lock"))
    return tmp_path / "home"


@pytest.fixture
def catalog(home: Path) -> Iterator[Catalog]:
    opened = Catalog(home / "tenants" / "default", "default", HashEmbedder())
    yield opened
    opened.close()


def _answers(catalog: Catalog) -> list[list[dict[str, object]]]:
    views = GenerationViews(RetrievalSettings())
    return [[hit.model_dump() for hit in search(catalog, q, top_k=8, views=views).hits] for q in QUERIES]


def _folder(catalog: Catalog) -> Path:
    return catalog.generation_folder / CHUNK_MATRIX_DIR


def _meta(folder: Path, **changes: object) -> None:
    meta = json.loads((folder / "meta.json").read_text())
    (folder / "meta.json").write_text(json.dumps(meta | changes))


def _other_ids(folder: Path) -> None:
    ids = np.load(folder / "s0.ids.npy")
    ids[0] = ids[0][:-1] + ("x" if ids[0][-1] != "x" else "y")  # as many rows, one id not the one written
    np.save(folder / "s0.ids.npy", ids)


def _fewer_rows(folder: Path) -> None:
    np.save(folder / "s0.matrix.npy", np.load(folder / "s0.matrix.npy")[:-1])


def _cut_short(folder: Path) -> None:
    data = (folder / "s0.matrix.npy").read_bytes()
    (folder / "s0.matrix.npy").write_bytes(data[: len(data) // 2])


DAMAGES: dict[str, tuple[Callable[[Path], None], str]] = {
    "no meta": (lambda f: (f / "meta.json").unlink(), r"meta\.json: missing"),
    "meta not JSON": (lambda f: (f / "meta.json").write_text("{not json"), r"meta\.json: not readable JSON"),
    "older format": (lambda f: _meta(f, format=3), r"meta\.json: of format 3; this Trident reads format 4"),
    "another generation": (lambda f: _meta(f, generation=1), r"meta\.json: written for generation 1; the manifest"),
    "no segments": (lambda f: _meta(f, segments=[]), r"meta\.json: its segment list is missing"),
    "ids changed": (_other_ids, r"s0\.ids\.npy: its ids are not those its segment was written with"),
    "rows missing from the matrix": (_fewer_rows, r"s0\.matrix\.npy: holds \d+ rows; its segment was written with"),
    "matrix cut short": (_cut_short, r"s0\.matrix\.npy: not a readable array"),
    "no chunk rows": (lambda f: (f / "s0.rows.arrow").unlink(), r"s0\.rows\.arrow: missing"),
    "no folder": (shutil.rmtree, r"meta\.json: missing"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_damaged_chunk_files_are_an_error_naming_the_file_and_repair_mends_them(catalog: Catalog, damage: str) -> None:
    before = _answers(catalog)
    harm, problem = DAMAGES[damage]
    folder = _folder(catalog)
    harm(folder)
    with pytest.raises(ChunkFilesError, match=problem) as raised:
        _answers(catalog)
    message = str(raised.value)
    assert str(folder) in message and "run `trident repair`" in message
    with catalog.writer() as writer:
        writer.rewrite_chunk_files()
    assert _answers(catalog) == before
    (segment,) = read_chunk_files(catalog.generation_folder, "default").segments  # every row written afresh
    assert segment.prefix == "s0."


def test_a_publish_after_damage_writes_every_row_again(catalog: Catalog, home: Path, tmp_path: Path) -> None:
    """An index run on damaged chunk files does not add a segment to them: it writes them whole."""
    _other_ids(_folder(catalog))
    project = tmp_path / "extra"
    project.mkdir()
    (project / "notes.md").write_text("# Notes\n\nNothing about cards.\n")
    index_into(catalog, project, "extra")
    (segment,) = read_chunk_files(catalog.generation_folder, "default").segments
    assert "extra" in segment.chunks.project_names
    assert segment.chunks.ids.tolist() == sorted(catalog.vectors.matrix_with_documents("default")[0])
    assert_rows_are_the_graphs(catalog)


@pytest.mark.anyio
async def test_a_tool_call_on_damaged_files_is_an_error_result_and_the_cli_repairs_them(home: Path) -> None:
    catalog = Catalog.open_reader(home / "tenants" / "default", "default", HashEmbedder())
    settings = TridentSettings.from_env(ServerSettings(read_only=True, warm_up=False))
    try:
        async with Client(build_server(settings, lambda: catalog, close_catalog=False)) as client:
            before = (await client.call_tool("search", {"query": QUERIES[0]})).structured_content
            assert before is not None and before["hits"]
        _other_ids(_folder(catalog))
        async with Client(build_server(settings, lambda: catalog, close_catalog=False)) as client:
            damaged = await client.call_tool("search", {"query": QUERIES[0]})
            assert damaged.is_error
            text = " ".join(getattr(part, "text", "") for part in damaged.content)
            assert "s0.ids.npy" in text and "trident repair" in text, text
        result = CliRunner().invoke(cli_app, ["repair"], env={"TRIDENT_HOME": str(home)})
        assert result.exit_code == 0, result.output
        async with Client(build_server(settings, lambda: catalog, close_catalog=False)) as client:
            after = (await client.call_tool("search", {"query": QUERIES[0]})).structured_content
            assert after is not None
            assert [h["id"] for h in after["hits"]] == [h["id"] for h in before["hits"]]
    finally:
        catalog.close()


def test_repair_without_an_index_says_so_and_creates_none(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli_app, ["repair"], env={"TRIDENT_HOME": str(tmp_path / "nowhere")})
    assert result.exit_code == 2 and "nothing to repair" in result.output
    assert not (tmp_path / "nowhere").exists()


class _PublishedMeanwhile:
    """A catalog as a request sees it when a writer publishes a newer generation (and removes the one read) between
    the request taking its generation and opening that generation's files: the first answer names the removed one."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog, self.tenant, self.asked = catalog, catalog.tenant, 0

    def published_folder(self) -> tuple[int, Path]:
        self.asked += 1
        generation, folder = self.catalog.published_folder()
        return (generation - 1, folder.parent / "removed") if self.asked == 1 else (generation, folder)


def test_a_generation_removed_before_its_files_are_read_is_followed_to_the_one_published(catalog: Catalog) -> None:
    views = GenerationViews(RetrievalSettings())
    files = views._files(_PublishedMeanwhile(catalog))  # type: ignore[arg-type]
    assert files.generation == catalog.published_folder()[0]
    # the generation still published, its files missing: the error, not another generation's files
    shutil.rmtree(catalog.published_folder()[1] / CHUNK_MATRIX_DIR)
    with pytest.raises(ChunkFilesError):
        GenerationViews(RetrievalSettings())._files(catalog)
