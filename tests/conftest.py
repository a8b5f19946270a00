"""Shared fixtures: the real embedding model, a plumbing-only fake, and real stores in temporary folders."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from trident.embedding.embedder import open_embedder
from trident.embedding.hash_embedder import HashEmbedder
from trident.embedding.model_settings import ModelSettings
from trident.embedding.offline_model import build_offline_model, default_offline_dir, read_build_record
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder

if TYPE_CHECKING:
    from trident.ingest.pipeline import IndexReport

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SAMPLE_PROJECTS = ("billing", "auth", "storefront")
# The evaluation data lives beside the workspace's clone (../shared), not in the repository: a clone on its own has
# none. Tests of it run wherever ../shared is present (the workspace, CI), where a missing data set still fails.
SHARED_EVAL = Path(__file__).resolve().parents[2] / "shared" / "eval"
needs_shared = pytest.mark.skipif(not SHARED_EVAL.parent.is_dir(), reason="no ../shared beside this clone")


@pytest.fixture
def projects(tmp_path: Path) -> Path:
    """The sample projects copied to a folder of their own (`<it>/billing`, ...), for tests that edit them."""
    root = tmp_path / "src"
    for project in SAMPLE_PROJECTS:
        shutil.copytree(EXAMPLES / project, root / project)
    return root


def index_into(catalog: Catalog, folder: Path, project: str, **options: Any) -> IndexReport:
    """Index a folder as one project in a writer block of its own: one publication, as one `trident index` run."""
    from trident.ingest.pipeline import index_folder

    options.setdefault("max_file_bytes", 1_000_000)
    with catalog.writer() as writer:
        return index_folder(writer, folder, project, **options)


@pytest.fixture
def record_commands(monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[list[str]]]:
    """Call it to record, from then on, every command `subprocess.run` starts (each still runs): to assert which
    processes a step starts, e.g. none of git's."""

    def start() -> list[list[str]]:
        started: list[list[str]] = []
        real_run = subprocess.run

        def recording_run(command: list[str], *args: object, **kwargs: object) -> object:
            started.append(command)
            return real_run(command, *args, **kwargs)  # type: ignore[call-overload]

        monkeypatch.setattr(subprocess, "run", recording_run)
        return started

    return start


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    settings = ModelSettings()
    if settings.model_dir is None and read_build_record(default_offline_dir(settings.model_cache)) is None:
        # No hub here: the tests use the offline build of the default model.
        build_offline_model(default_offline_dir(settings.model_cache))
    return open_embedder(settings)


@pytest.fixture
def fake_embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture
def catalog(tmp_path: Path, embedder: Embedder) -> Iterator[Catalog]:
    cat = Catalog(tmp_path / "index", "default", embedder)
    yield cat
    cat.close()


@pytest.fixture(scope="session")
def sample_catalog(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Iterator[Catalog]:
    """The three sample projects indexed once with the real model; tests must only read it."""
    from trident.ingest.pipeline import index_folder

    cat = Catalog(tmp_path_factory.mktemp("sample") / "index", "default", embedder)
    with cat.writer() as writer:
        for project in SAMPLE_PROJECTS:
            index_folder(writer, EXAMPLES / project, project, max_file_bytes=1_000_000)
    yield cat
    cat.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@asynccontextmanager
async def read_only_session(catalog: Catalog) -> AsyncIterator[Any]:
    """An MCP client session, in memory, with a read-only server over `catalog` (left open for the caller)."""
    from mcp.client import Client

    from trident.server.app import build_server
    from trident.server.server_settings import ServerSettings, TridentSettings

    settings = TridentSettings.from_env(ServerSettings(read_only=True))
    async with Client(build_server(settings, lambda: catalog, close_catalog=False)) as connected:
        yield connected


@pytest.fixture
async def sample_client(sample_catalog: Catalog) -> AsyncIterator[Any]:
    """An MCP client session, in memory, with a read-only server over the sample index."""
    async with read_only_session(sample_catalog) as connected:
        yield connected


@pytest.fixture
async def client(catalog: Catalog) -> AsyncIterator[Any]:
    """An MCP client session, in memory, with a read-only server over the module's own `catalog` fixture."""
    async with read_only_session(catalog) as connected:
        yield connected


@pytest.fixture(scope="module")
def views() -> GenerationViews:
    """The read-side views a server holds, one per test module (each module indexes its own catalog)."""
    return GenerationViews(RetrievalSettings())


@pytest.fixture(scope="module")
def httpx_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The installed httpx package, copied as a project holds it (`httpx/_client.py`: imported as httpx._client)."""
    import httpx

    root = tmp_path_factory.mktemp("code") / "src"
    shutil.copytree(Path(httpx.__file__).parent, root / "httpx", ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def code_catalog(httpx_source: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    """The httpx package indexed as the project `httpx` with the plumbing embedder; tests must only read it."""
    catalog = Catalog(tmp_path_factory.mktemp("code-index") / "index", "default", HashEmbedder())
    index_into(catalog, httpx_source, "httpx")
    yield catalog
    catalog.close()


@pytest.fixture
async def code_client(code_catalog: Catalog) -> AsyncIterator[Any]:
    """An MCP client session, in memory, with a read-only server over the httpx index."""
    async with read_only_session(code_catalog) as connected:
        yield connected
