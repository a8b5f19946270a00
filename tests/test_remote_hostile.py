"""A file list read from the bucket is untrusted: one naming a place outside the index folder, its lock or another
generation is refused before anything is written; and a server's refresher outlives a pull that fails in any way."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from trident.store.remote import remote_catalog
from trident.store.remote.remote_catalog import Refresher
from trident.store.remote.snapshot import Snapshot

SHA = "0" * 64
GENERATION = "generations/p00000002-abcdef012345"


def _listing(generation_dir: str, *paths: str) -> dict[str, Any]:
    return {"generation_dir": generation_dir, "files": [{"path": p, "sha256": SHA, "size": 1} for p in paths]}


@pytest.mark.parametrize(
    "path",
    [
        "../outside.txt",
        "/home/user/.bashrc",
        "semantic/../../outside.txt",
        "semantic//chunks.lance",
        "./manifest.json",
        "write.lock",
        ".remote/synced.json",
        ".manifest-draft.json",
        "semantic\\..\\..\\x",
        "generations/g00000001/graph.kuzu",  # another generation, which a reader may hold
    ],
)
def test_a_listing_that_would_write_outside_its_place_is_refused(path: str) -> None:
    with pytest.raises(ValidationError):
        Snapshot.model_validate(_listing(GENERATION, "manifest.json", path))


@pytest.mark.parametrize("generation_dir", ["../generations/x", "generations/../..", "generations/a/b", "other/g1"])
def test_a_listing_naming_a_generation_folder_outside_generations_is_refused(generation_dir: str) -> None:
    with pytest.raises(ValidationError):
        Snapshot.model_validate(_listing(generation_dir, "manifest.json"))


def test_a_well_formed_listing_is_read() -> None:
    paths = ["manifest.json", f"{GENERATION}/lexical/.managed.json", "semantic/chunks.lance/data/a.lance"]
    listing = Snapshot.model_validate(_listing(GENERATION, *paths))
    assert [f.path for f in listing.files] == paths
    with pytest.raises(ValidationError):  # a digest is 64 hex digits
        Snapshot.model_validate({"generation_dir": GENERATION, "files": [{"path": "x", "sha256": "../x", "size": 1}]})


def test_the_refresher_keeps_pulling_after_an_unexpected_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    second = threading.Event()

    def pull(remote: object, index_dir: Path, **_: object) -> Any:
        calls.append(len(calls))
        if len(calls) == 1:
            raise ValueError("a manifest this version cannot read")
        second.set()
        return type("Pulled", (), {"changed": False})()

    monkeypatch.setattr(remote_catalog, "pull", pull)
    refresher = Refresher(object(), tmp_path, seconds=0.01).start()  # type: ignore[arg-type]
    try:
        deadline = time.monotonic() + 30
        while not second.is_set() and time.monotonic() < deadline:
            second.wait(0.05)
        assert second.is_set(), "the refresher stopped after the first failure"
    finally:
        refresher.stop()
