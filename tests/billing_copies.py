"""Fixtures of the shared-index tests: the billing example indexed once per module (hash embedder: the plumbing,
not the model, is under test) and a copy of it per test that writes. Named in `pytest_plugins`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, HashEmbedder, index_into
from trident.store.catalog import Catalog

TENANT = "default"


@pytest.fixture(scope="module")
def billing_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The billing example indexed once, copied by each test that writes."""
    folder = tmp_path_factory.mktemp("billing") / "index"
    catalog = Catalog(folder, TENANT, HashEmbedder())
    index_into(catalog, EXAMPLES / "billing", "billing")
    catalog.close()
    return folder


@pytest.fixture
def writer_dir(billing_index: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "writer"
    shutil.copytree(billing_index, folder)
    return folder
