"""Sixty tiny projects indexed in one run (as `trident index` over a folder of small repositories): the run
ends, the three engines agree, and every project is searchable."""

from __future__ import annotations

import threading
from pathlib import Path

from tests.conftest import HashEmbedder
from tests.many_projects import marker, project_name, write_projects
from trident.ingest.community_reports import open_communities
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import search
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.status import status

PROJECTS = 60  # more than one status page holds
DEADLINE_SECONDS = 1_200.0  # about 40 s here; a hang fails the test instead of stalling the suite


class _Stages:
    """Remembers the stage under way, so a run that does not end says where it stopped."""

    def __init__(self) -> None:
        self.now = "starting"

    def stage(self, name: str, total: int) -> None:
        self.now = name

    def advance(self, n: int = 1) -> None:
        pass

    def published(self, chunks_waiting: int) -> None:
        pass


def test_sixty_tiny_projects_index_in_one_run_and_each_is_searchable(tmp_path: Path) -> None:
    folders = write_projects(tmp_path / "src", PROJECTS)
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())  # plumbing: lexical search finds the markers
    stages, failures, finished = _Stages(), [], threading.Event()

    def index_all() -> None:
        try:
            with catalog.writer() as writer:  # one writer's block over the whole run, as `trident index` opens
                for folder in folders:
                    stages.now = f"{folder.name}: starting"
                    index_folder(writer, folder, folder.name, max_file_bytes=1_000_000, progress=stages)
        except BaseException as exc:  # reported by the test below, not lost in the thread
            failures.append(exc)
        finally:
            finished.set()

    try:
        threading.Thread(target=index_all, name="many-projects", daemon=True).start()
        assert finished.wait(DEADLINE_SECONDS), f"indexing did not end within {DEADLINE_SECONDS:g} s ({stages.now})"
        assert not failures, failures
        result = status(Reader.open(catalog))
        projects = list(result.projects)
        assert len(projects) < result.projects_total, "the projects fit one page: the paging below goes untested"
        while len(projects) < result.projects_total:  # status pages its projects within the answer budget
            projects.extend(status(Reader.open(catalog), offset=len(projects)).projects)
        assert [p.name for p in projects] == [project_name(i) for i in range(PROJECTS)]
        assert result.consistent and all(p.chunks > 0 and p.entities > 0 for p in projects)
        assert result.stale == {}
        assert open_communities(catalog).count(catalog.tenant) > 0
        for index in range(PROJECTS):
            hits = search(catalog, marker(index), top_k=3, views=GenerationViews(RetrievalSettings())).hits
            assert hits and hits[0].project == project_name(index), (marker(index), [h.project for h in hits])
    finally:
        if finished.is_set():
            catalog.close()
