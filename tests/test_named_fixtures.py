"""A fixture named by its decorator (`@pytest.fixture(name="proxy")` over `def _proxy()`, structlog's tests) is what
a test's parameter of that name gets: its value types the parameter, and `impact` finds the tests asking for it.
Indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import indexed_projects, project_calls
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.tools.impact import impact

LOGGING = {
    "slog/__init__.py": "",
    "slog/config.py": (
        "class Proxy:\n"
        "    def __init__(self, logger):\n"
        "        self._logger = logger\n\n"
        "    def bind(self, **values):\n"
        "        return dict(values)\n\n\n"
        "class Other:\n"
        "    def bind(self, **values):\n"
        "        return values\n"
    ),
    "tests/__init__.py": "",
    "tests/test_config.py": (
        "import pytest\n\n"
        "from slog.config import Other, Proxy\n\n\n"
        '@pytest.fixture(name="proxy")\n'
        "def _proxy():\n"
        "    return Proxy(None)\n\n\n"
        "@pytest.fixture\n"
        "def _other():\n"
        "    return Other()\n\n\n"
        "def test_bind(proxy):\n"
        "    assert proxy.bind(a=1) == {'a': 1}\n\n\n"
        "def test_other(_other):\n"
        "    assert _other.bind() == {}\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("fixtures"), {"slog": LOGGING}, ("slog",))
    yield cat
    cat.close()


def test_a_parameter_gets_the_fixture_its_decorator_names(tmp_path_factory: pytest.TempPathFactory) -> None:
    calls = project_calls(tmp_path_factory.mktemp("named"), "slog", LOGGING)
    assert calls.get(("tests.test_config.test_bind", "slog.config.Proxy.bind")) == "inferred"
    assert ("tests.test_config.test_bind", "slog.config.Other.bind") not in calls
    # a fixture without a `name=` is asked for by its function's name, as before
    assert calls.get(("tests.test_config.test_other", "slog.config.Other.bind")) == "inferred"


def test_impact_finds_the_test_asking_for_a_fixture_by_the_name_its_decorator_gives(catalog: Catalog) -> None:
    answer = impact(Reader.open(catalog), entities=["Proxy.__init__"])
    assert [t.name for t in answer.tests] == ["test_bind"]
