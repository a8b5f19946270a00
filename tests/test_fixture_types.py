"""A test's parameter is the value of the pytest fixture of its name: one its own file defines, else one a `conftest.py`
in its folder or a folder above defines; what the fixture returns (`return Runner()`, read from its body when it
states no annotation) types it. The shapes are those of a real CLI library's suite (`def test_x(runner): result =
runner.invoke(...); assert result.output == ...`), written small and indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_named, indexed_projects
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.impact import impact

FILES: dict[str, str] = {
    "app/__init__.py": "",
    "app/cli.py": (
        "class Result:\n"
        "    def __init__(self, output):\n"
        "        self._output = output\n\n"
        "    @property\n"
        "    def output(self):\n"
        "        return self._output\n\n\n"
        "class Runner:\n"
        "    def invoke(self, args) -> Result:\n"
        "        return Result(' '.join(args))\n\n\n"
        "class Other:\n"
        "    def invoke(self, args):\n"
        "        return args\n"
    ),
    "tests/conftest.py": (
        "import pytest\n\nfrom app.cli import Runner\n\n\n@pytest.fixture\ndef runner(request):\n    return Runner()\n"
    ),
    "tests/unit/test_cli.py": (
        "import pytest\n\nfrom app.cli import Result\n\n\n"
        "@pytest.fixture\n"
        "def made():\n"
        "    yield Result('made')\n\n\n"
        "def test_output(runner, tmp_path):\n"
        "    result = runner.invoke(['a', 'b'])\n"
        "    assert result.output == 'a b'\n\n\n"
        "def test_made(made):\n"
        "    assert made.output == 'made'\n\n\n"
        "def test_unknown(missing):\n"
        "    assert missing.invoke([])\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("fixtures"), {"app": FILES}, ("app",))
    yield cat
    cat.close()


def test_what_an_unannotated_fixture_returns_is_read_from_its_body(catalog: Catalog, views: GenerationViews) -> None:
    returned = edges_named(catalog, views, "function:app:tests.conftest.runner", relation_types=["RETURNS"])
    assert returned == {("RETURNS", "app.cli.Runner"): "inferred"}
    # a fixture's `yield` is its value
    yielded = edges_named(catalog, views, "function:app:tests.unit.test_cli.made", relation_types=["RETURNS"])
    assert yielded == {("RETURNS", "app.cli.Result"): "inferred"}


def test_a_test_calls_methods_on_the_value_of_a_conftest_fixture_of_a_folder_above(
    catalog: Catalog, views: GenerationViews
) -> None:
    used = edges_named(
        catalog, views, "function:app:tests.unit.test_cli.test_output", relation_types=["CALLS", "REFERENCES"]
    )
    assert used[("CALLS", "app.cli.Runner.invoke")] == "inferred"  # not `Other.invoke`, which only shares the name
    assert ("CALLS", "app.cli.Other.invoke") not in used
    # `result.output`: a property of the class `invoke` says it returns
    assert used[("REFERENCES", "app.cli.Result.output")] == "inferred"
    # a parameter no fixture of the project gives binds nothing of `Runner`'s
    unknown = edges_named(catalog, views, "function:app:tests.unit.test_cli.test_unknown", relation_types=["CALLS"])
    assert not any(target.startswith("app.cli.Runner") for _, target in unknown)


def test_impact_of_a_property_finds_the_tests_reading_it_on_fixture_values(catalog: Catalog) -> None:
    answer = impact(catalog, GenerationViews(RetrievalSettings()).directory(catalog), entities=["Result.output"])
    assert {t.name for t in answer.tests} == {"test_output", "test_made"}
