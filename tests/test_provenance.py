"""Every hit says what kind of source it comes from and when its lines last changed: the last git commit touching
them, else the file's modification time."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import HashEmbedder, index_into
from trident.host.git_blame import parse_porcelain
from trident.ingest.knowledge import KNOWLEDGE_PROJECT
from trident.retrieval import last_modified
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.source_kinds import KNOWLEDGE_PROJECT as KNOWN_AS
from trident.retrieval.source_kinds import SourceKind, source_kind
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import Chunk, DocumentKind
from trident.tools.search import search as tool_search
from trident.tools.similar import find_similar

CODE = "RETRY_LIMIT_QUARTERLY = 3\n\n\ndef settle_ledger_quarterly(entries):\n    return sum(entries)\n"
NOTES = "# Notes\n\nThe quarterly ledger is settled by settle_ledger_quarterly.\n"
CONFIG = "ledger:\n  quarterly: true\n  settle_ledger_quarterly: on\n"
COMMITTED_AT = 1_700_000_000  # 2023-11-14T22:13:20Z
TOUCHED_AT = 1_750_000_000  # 2025-06-15T15:06:40Z


def _write(folder: Path) -> Path:
    folder.mkdir()
    (folder / "ledger.py").write_text(CODE)
    (folder / "notes.md").write_text(NOTES)
    (folder / "ledger.yaml").write_text(CONFIG)
    for name in ("ledger.py", "notes.md", "ledger.yaml"):
        os.utime(folder / name, (TOUCHED_AT, TOUCHED_AT))
    return folder


def _git(folder: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_AUTHOR_DATE": f"@{COMMITTED_AT} +0000",
        "GIT_COMMITTER_DATE": f"@{COMMITTED_AT} +0000",
    }
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def catalog(tmp_path: Path) -> Iterator[Catalog]:
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    yield catalog
    catalog.close()


def _hits(catalog: Catalog) -> dict[str, dict[str, object]]:
    views = GenerationViews(RetrievalSettings())
    result = tool_search(Reader(catalog, views), "settle_ledger_quarterly", top_k=10, strategy="lexical")
    return {hit["path"]: hit for hit in json.loads(result.model_dump_json())["hits"]}


def test_hits_outside_git_carry_their_kind_and_the_file_modification_time(catalog: Catalog, tmp_path: Path) -> None:
    index_into(catalog, _write(tmp_path / "ledger"), "ledger")
    hits = _hits(catalog)
    assert {path: hit["source_kind"] for path, hit in hits.items()} == {
        "ledger.py": "code",
        "notes.md": "doc",
        "ledger.yaml": "config",
    }
    assert {hit["last_modified"] for hit in hits.values()} == {"2025-06-15T15:06:40Z"}


def test_committed_lines_carry_their_commit_time_and_uncommitted_ones_the_file_time(
    catalog: Catalog, tmp_path: Path
) -> None:
    folder = _write(tmp_path / "ledger")
    _git(folder, "init", "-q")
    _git(folder, "add", ".")
    _git(folder, "commit", "-q", "-m", "ledger")
    (folder / "notes.md").write_text(NOTES + "\nSettled again by settle_ledger_quarterly.\n")
    os.utime(folder / "notes.md", (TOUCHED_AT, TOUCHED_AT))
    index_into(catalog, folder, "ledger")
    hits = _hits(catalog)
    assert hits["ledger.py"]["last_modified"] == "2023-11-14T22:13:20Z"
    assert hits["notes.md"]["last_modified"] == "2025-06-15T15:06:40Z"


def test_files_git_does_not_blame_in_time_fall_back_to_their_modification_time_and_say_so(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    folder = _write(tmp_path / "ledger")
    _git(folder, "init", "-q")  # in a work tree: git is asked (a folder outside one is settled without it)
    index_into(catalog, folder, "ledger")
    views = GenerationViews(RetrievalSettings())
    hits = tool_search(Reader(catalog, views), "settle_ledger_quarterly", top_k=10, strategy="lexical").hits
    for name in ("ledger.py", "notes.md", "ledger.yaml"):  # new file versions: none blamed yet
        os.utime(folder / name, (COMMITTED_AT, COMMITTED_AT))
    released = threading.Event()

    def stuck_git(path: Path) -> list[int | None] | None:
        released.wait()
        return [TOUCHED_AT] * 10

    monkeypatch.setattr(last_modified, "line_times", stuck_git)
    try:
        with caplog.at_level(logging.WARNING, logger=last_modified.__name__):
            last_modified.stamp_last_modified(catalog, hits, views.state, deadline=0.05)
    finally:
        released.set()
    assert hits and {hit.last_modified for hit in hits} == {"2023-11-14T22:13:20Z"}
    assert "deadline for 3 file(s)" in caplog.text


def test_find_similar_hits_carry_kind_and_time(catalog: Catalog, tmp_path: Path) -> None:
    index_into(catalog, _write(tmp_path / "ledger"), "ledger")
    views = GenerationViews(RetrievalSettings())
    result = find_similar(Reader(catalog, views), text="settle the quarterly ledger", top_k=3)
    assert result.result
    assert all(hit.source_kind is not None and hit.last_modified == "2025-06-15T15:06:40Z" for hit in result.result)


def _chunk(project: str, path: str, kind: DocumentKind) -> Chunk:
    return Chunk(
        id="c", doc_id=f"{project}/{path}", project=project, path=path, text="x", start_line=1, end_line=1, kind=kind
    )


@pytest.mark.parametrize(
    ("project", "path", "kind", "expected"),
    [
        ("p", "a.py", DocumentKind.CODE, SourceKind.CODE),
        ("p", "README.md", DocumentKind.MARKDOWN, SourceKind.DOC),
        ("p", "notes.rst", DocumentKind.TEXT, SourceKind.DOC),
        ("p", "setup.cfg", DocumentKind.CONFIG, SourceKind.CONFIG),
        ("p", "deploy/.env.production", DocumentKind.TEXT, SourceKind.CONFIG),
        ("scifact", "corpus.jsonl", DocumentKind.PASSAGE, SourceKind.PASSAGE),
        (KNOWLEDGE_PROJECT, "facts/0a1b.md", DocumentKind.TEXT, SourceKind.KNOWLEDGE),
    ],
)
def test_source_kind_follows_document_kind_project_and_file_name(
    project: str, path: str, kind: DocumentKind, expected: SourceKind
) -> None:
    assert source_kind(_chunk(project, path, kind)) is expected


def test_the_query_side_names_the_knowledge_project_as_ingestion_does() -> None:
    assert KNOWN_AS == KNOWLEDGE_PROJECT


def test_blame_porcelain_gives_each_line_its_commit_time_and_none_when_uncommitted() -> None:
    a, zero = "a" * 40, "0" * 40
    out = "\n".join(
        [
            f"{a} 1 1 2",
            "author x",
            "committer-time 100",
            "\tline one",
            f"{a} 2 2",
            "\tline two",
            f"{zero} 3 3 1",
            "committer-time 999",
            "\tline three",
        ]
    )
    assert parse_porcelain(out) == [100, 100, None]


def test_knowledge_and_passage_hits_carry_their_kind_and_no_time(catalog: Catalog, tmp_path: Path) -> None:
    from trident.ingest.knowledge import NewEntity, add_knowledge
    from trident.ingest.pipeline import index_beir
    from trident.retrieval.entities import resolve_entity
    from trident.store.names.directory import EntityDirectory

    with catalog.writer() as writer:
        index_beir(writer, Path(__file__).parent / "data" / "scifact-excerpt", "scifact")
        note = NewEntity(name="Ledger team", type="Team", description="Settles the quarterly ledger every quarter")
        add_knowledge(writer, EntityDirectory(writer.entities()), [note], [], find_entity=resolve_entity, author="t")
    views = GenerationViews(RetrievalSettings())
    note_hits = tool_search(Reader(catalog, views), "quarterly ledger team", top_k=3, strategy="lexical").hits
    assert [(h.source_kind, h.last_modified) for h in note_hits if h.project == KNOWLEDGE_PROJECT] == [
        (SourceKind.KNOWLEDGE, None)
    ]
    passages = tool_search(Reader(catalog, views), "cells", top_k=3, strategy="lexical").hits
    assert passages and {(h.source_kind, h.last_modified) for h in passages} == {(SourceKind.PASSAGE, None)}


def test_a_folder_outside_git_is_stamped_without_starting_git(
    catalog: Catalog, tmp_path: Path, record_commands: Callable[[], list[list[str]]]
) -> None:
    folder = _write(tmp_path / "ledger")
    index_into(catalog, folder, "ledger")
    views = GenerationViews(RetrievalSettings())
    hits = tool_search(Reader(catalog, views), "settle_ledger_quarterly", top_k=10, strategy="lexical").hits
    for name in ("ledger.py", "notes.md", "ledger.yaml"):  # new file versions: none blamed yet
        os.utime(folder / name, (COMMITTED_AT, COMMITTED_AT))
    started = record_commands()
    last_modified.stamp_last_modified(catalog, hits, views.state)
    assert hits and {hit.last_modified for hit in hits} == {"2023-11-14T22:13:20Z"}
    assert [command for command in started if command[0] == "git"] == []


def test_lines_in_a_linked_work_tree_carry_their_commit_time(catalog: Catalog, tmp_path: Path) -> None:
    """A linked work tree (and a submodule) has a `.git` file, not a folder: git still knows its files."""
    folder = _write(tmp_path / "ledger")
    _git(folder, "init", "-q")
    _git(folder, "add", ".")
    _git(folder, "commit", "-q", "-m", "ledger")
    _git(folder, "worktree", "add", "-q", str(tmp_path / "linked"))
    assert (tmp_path / "linked" / ".git").is_file()
    index_into(catalog, tmp_path / "linked", "linked")
    hits = _hits(catalog)
    assert hits["ledger.py"]["last_modified"] == "2023-11-14T22:13:20Z"
