"""Per project, status says when it was indexed, from which git commit, what HEAD is now and how many indexed files
changed or are gone since; a search says once which of its projects have changes pending. Over a real git
repository in a temporary folder."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import HashEmbedder, index_into
from trident.cli.main import app as cli_app
from trident.retrieval.diagnostics import Diagnostics
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.manifest import MANIFEST_FILE, Manifest
from trident.tools import freshness
from trident.tools import status as status_tool
from trident.tools.freshness import ProjectFreshness, project_freshness
from trident.tools.search import search as tool_search

LEDGER = "def settle_ledger_quarterly(entries):\n    return sum(entries)\n"
NOTES = "# Notes\n\nThe quarterly ledger is settled by settle_ledger_quarterly.\n"
UTIL = "def round_cents(amount):\n    return round(amount, 2)\n"


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args],
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = tmp_path / "ledger"
    folder.mkdir()
    (folder / "ledger.py").write_text(LEDGER)
    (folder / "notes.md").write_text(NOTES)
    (folder / "util.py").write_text(UTIL)
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", ".")
    git(folder, "commit", "-q", "-m", "first")
    return folder


@pytest.fixture
def catalog(tmp_path: Path, repo: Path) -> Iterator[Catalog]:
    catalog = Catalog(tmp_path / "home" / "tenants" / "default", "default", HashEmbedder())
    index_into(catalog, repo, "ledger")
    yield catalog
    catalog.close()


def fresh(catalog: Catalog, project: str = "ledger") -> ProjectFreshness:
    found = next(p for p in status_tool.status(Reader.open(catalog)).projects if p.name == project)
    assert found.freshness is not None
    return found.freshness


def test_a_fresh_index_of_a_repository_was_taken_from_its_head_and_nothing_changed(
    catalog: Catalog, repo: Path
) -> None:
    state = fresh(catalog)
    assert state.commit == state.head == git(repo, "rev-parse", "HEAD") and state.branch == "main"
    assert not state.head_moved
    assert (state.changed, state.removed, state.checked, state.unchecked) == (0, 0, 3, 0)
    assert datetime.fromisoformat(state.indexed_at or "").tzinfo is not None
    assert state.refresh == f"trident index {repo} --project ledger (or index_path)"


def test_projects_of_one_repository_share_one_question_to_git_about_head(
    tmp_path: Path, repo: Path, monkeypatch: pytest.MonkeyPatch, record_commands: Callable[[], list[list[str]]]
) -> None:
    catalog = Catalog(tmp_path / "home" / "tenants" / "default", "default", HashEmbedder())
    (repo / "tools").mkdir()
    (repo / "tools" / "rounding.py").write_text(UTIL)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "tools")
    index_into(catalog, repo, "ledger")
    index_into(catalog, repo / "tools", "tools")  # a second project inside the same work tree
    started = record_commands()
    heads = {
        p.name: p.freshness.head for p in status_tool.status(Reader.open(catalog)).projects if p.freshness is not None
    }
    monkeypatch.undo()
    catalog.close()
    assert heads == {"ledger": git(repo, "rev-parse", "HEAD"), "tools": git(repo, "rev-parse", "HEAD")}
    assert len([command for command in started if "rev-parse" in command]) == 1


def test_an_edited_file_counts_as_changed_and_a_touched_but_unchanged_one_does_not(
    catalog: Catalog, repo: Path
) -> None:
    util = repo / "util.py"
    util.write_text(UTIL)
    os.utime(util, ns=(util.stat().st_atime_ns, util.stat().st_mtime_ns + 5_000_000_000))
    assert fresh(catalog).changed == 0
    (repo / "ledger.py").write_text(LEDGER + "\n\ndef audit():\n    pass\n")
    assert (fresh(catalog).changed, fresh(catalog).removed) == (1, 0)


def test_a_same_size_edit_that_keeps_the_indexed_time_is_still_found_by_its_hash(catalog: Catalog, repo: Path) -> None:
    # Written again within the clock tick the indexing run read it in: size and time alone cannot tell.
    ledger = repo / "ledger.py"
    entry = catalog.manifest.documents["ledger/ledger.py"]
    ledger.write_text(LEDGER.replace("sum", "max"))
    os.utime(ledger, ns=(ledger.stat().st_atime_ns, entry.mtime_ns or 0))
    assert (ledger.stat().st_size, ledger.stat().st_mtime_ns) == (entry.size, entry.mtime_ns)
    assert fresh(catalog).changed == 1


def test_a_deleted_file_counts_as_removed(catalog: Catalog, repo: Path) -> None:
    (repo / "notes.md").unlink()
    assert (fresh(catalog).changed, fresh(catalog).removed) == (0, 1)


def test_switching_to_a_branch_moves_head_and_counts_the_files_the_switch_changed(catalog: Catalog, repo: Path) -> None:
    indexed_from = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "ledger.py").write_text(LEDGER.replace("sum(entries)", "sum(entries, 0)"))
    git(repo, "rm", "-q", "notes.md")
    git(repo, "commit", "-q", "-am", "feature work")
    state = fresh(catalog)
    assert state.head_moved and state.commit == indexed_from and state.head == git(repo, "rev-parse", "HEAD")
    assert (state.changed, state.removed) == (1, 1)
    assert "refresh: trident index" in _cli_status(catalog)
    index_into(catalog, repo, "ledger")
    state = fresh(catalog)
    assert not state.head_moved and state.commit == state.head and state.branch == "feature"
    assert (state.changed, state.removed, state.checked) == (0, 0, 2)


def test_switching_back_to_the_indexed_commit_leaves_nothing_changed(catalog: Catalog, repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "util.py").write_text(UTIL.replace("2", "4"))
    git(repo, "commit", "-q", "-am", "feature work")
    assert fresh(catalog).changed == 1
    git(repo, "checkout", "-q", "main")  # the file is written again, with the content indexed
    state = fresh(catalog)
    assert not state.head_moved and (state.changed, state.removed) == (0, 0)


def test_a_commit_of_what_was_indexed_is_recorded_by_the_next_run(catalog: Catalog, repo: Path) -> None:
    (repo / "util.py").write_text(UTIL + "\n\ndef floor_cents(amount):\n    return int(amount)\n")
    index_into(catalog, repo, "ledger")
    git(repo, "commit", "-q", "-am", "what was indexed")
    assert fresh(catalog).head_moved
    report = index_into(catalog, repo, "ledger")
    assert report.indexed == 0 and not fresh(catalog).head_moved


def test_a_folder_outside_git_has_no_commit_and_no_head(catalog: Catalog, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "readme.md").write_text("# Plain\n\nNot a repository.\n")
    index_into(catalog, plain, "plain")
    state = fresh(catalog, "plain")
    assert (state.commit, state.head, state.branch, state.head_moved) == (None, None, None, False)
    assert (state.changed, state.checked) == (0, 1)


def test_one_status_call_checks_a_bounded_number_of_files_and_counts_the_rest(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.md").write_text("# A\n\nalpha\n")
    index_into(catalog, other, "other")
    monkeypatch.setattr(status_tool, "CHECKED_FILES", 2)
    states = {p.name: p.freshness for p in status_tool.status(Reader.open(catalog)).projects}
    assert states["ledger"] is not None and (states["ledger"].checked, states["ledger"].unchecked) == (2, 1)
    assert states["other"] is not None and (states["other"].checked, states["other"].unchecked) == (0, 1)


def test_a_manifest_written_before_sizes_were_kept_loads_and_its_files_are_checked_by_hash(
    catalog: Catalog, repo: Path, tmp_path: Path
) -> None:
    data = json.loads((catalog.index_dir / MANIFEST_FILE).read_text())
    data.pop("sources")
    for entry in data["documents"].values():
        del entry["size"], entry["mtime_ns"]
    old = tmp_path / "old"
    old.mkdir()
    (old / MANIFEST_FILE).write_text(json.dumps(data))
    manifest = Manifest.load(old)
    assert manifest.documents["ledger/ledger.py"].size is None and manifest.sources == {}
    state = project_freshness(manifest, "ledger")
    assert state is not None and state.indexed_at is None and state.commit is None and not state.head_moved
    assert state.changed == 0
    (repo / "ledger.py").write_text(LEDGER.replace("sum", "max"))
    assert (project_freshness(manifest, "ledger") or state).changed == 1


def _search(catalog: Catalog, views: GenerationViews) -> dict[str, Any]:
    result = tool_search(Reader(catalog, views), "settle_ledger_quarterly", top_k=5, strategy="lexical")
    return json.loads(result.model_dump_json())


def test_a_search_says_once_which_projects_have_changes_pending(
    catalog: Catalog, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = GenerationViews(RetrievalSettings())  # one reader, as a server holds: it remembers the counts
    monkeypatch.setattr(freshness, "PENDING_SECONDS", 0.0)  # counted afresh (in the background) on every search
    assert "pending_changes" not in _search(catalog, views)["diagnostics"]
    (repo / "util.py").write_text(UTIL.replace("2", "3"))  # a file no hit comes from
    _search(catalog, views)  # reports the last count, and counts again
    assert views.state.pending.settled(120)
    answer = _search(catalog, views)
    assert answer["diagnostics"]["pending_changes"] == {"ledger": 1}
    assert "stale_hits" not in answer["diagnostics"]
    index_into(catalog, repo, "ledger")
    assert "pending_changes" not in _search(catalog, views)["diagnostics"]


def test_a_search_remembers_the_count_until_the_index_moves_on(
    catalog: Catalog, repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = GenerationViews(RetrievalSettings())
    monkeypatch.setattr(freshness, "PENDING_SECONDS", 1e9)
    assert "pending_changes" not in _search(catalog, views)["diagnostics"]
    assert views.state.pending.settled(120)
    (repo / "util.py").write_text(UTIL.replace("2", "3"))
    assert "pending_changes" not in _search(catalog, views)["diagnostics"], "remembered for this generation"
    (repo / "ledger.py").write_text(LEDGER.replace("sum", "max"))
    diagnostics = _search(catalog, views)["diagnostics"]
    assert diagnostics["stale_hits"] == 1 and diagnostics["pending_changes"] == {"ledger": 1}, "never below stale"
    index_into(catalog, repo, "ledger")
    assert "pending_changes" not in _search(catalog, views)["diagnostics"]


def test_the_search_diagnostics_state_the_bounds_the_count_is_made_with() -> None:
    described = Diagnostics.model_fields["pending_changes"].description or ""
    assert f"{freshness.CHECKED_FILES:,} files" in described
    assert f"{freshness.PENDING_SECONDS:g} s" in described


def _cli_status(catalog: Catalog) -> str:
    home = catalog.index_dir.parent.parent
    result = CliRunner().invoke(cli_app, ["status"], env={"TRIDENT_HOME": str(home)})
    assert result.exit_code == 0, result.output
    return result.output


def test_the_cli_prints_each_projects_freshness(catalog: Catalog, repo: Path) -> None:
    output = _cli_status(catalog)
    assert f"ledger: indexed {fresh(catalog).indexed_at} from main@{git(repo, 'rev-parse', 'HEAD')[:12]}" in output
    assert "0 changed, 0 removed of 3 files checked" in output and "refresh:" not in output


@pytest.mark.anyio
async def test_the_status_tool_and_the_project_resource_show_freshness_through_the_sdk(
    catalog: Catalog, repo: Path
) -> None:
    from mcp.client import Client

    from trident.server.app import build_server
    from trident.server.server_settings import ServerSettings, TridentSettings

    (repo / "notes.md").unlink()
    settings = TridentSettings.from_env(ServerSettings(read_only=True))
    async with Client(build_server(settings, lambda: catalog, close_catalog=False)) as client:
        answer = (await client.call_tool("status", {})).structured_content
        resource = json.loads((await client.read_resource("trident://projects/ledger")).contents[0].text)
    (project,) = answer["projects"]
    head = git(repo, "rev-parse", "HEAD")
    assert project["freshness"]["commit"] == project["freshness"]["head"] == head
    assert (project["freshness"]["removed"], project["freshness"]["changed"]) == (1, 0)
    assert resource["freshness"] == project["freshness"]
