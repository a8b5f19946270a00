"""A test's parameter is the value of the pytest fixture of its name: one its own file defines, else one a `conftest.py`
in its folder or a folder above defines; what the fixture returns (`return Runner()`, read from its body when it
states no annotation) types it. The shapes are those of a real CLI library's suite (`def test_x(runner): result =
runner.invoke(...); assert result.output == ...`), written small and indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_named, indexed_projects
from trident.retrieval.reader import Reader
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
    # `result.output`: a property of the class `invoke` says it returns, whose getter the read runs
    assert used[("CALLS", "app.cli.Result.output")] == "inferred"
    # a parameter no fixture of the project gives binds nothing of `Runner`'s
    unknown = edges_named(catalog, views, "function:app:tests.unit.test_cli.test_unknown", relation_types=["CALLS"])
    assert not any(target.startswith("app.cli.Runner") for _, target in unknown)


def test_impact_of_a_property_finds_the_tests_reading_it_on_fixture_values(catalog: Catalog) -> None:
    answer = impact(Reader.open(catalog), entities=["Result.output"])
    assert {t.name for t in answer.tests} == {"test_output", "test_made"}


SIGNING = {
    "sign/__init__.py": "",
    "sign/serializer.py": (
        "class Serializer:\n"
        "    def __init__(self, secret_key, serializer=None):\n"
        "        self.secret_key = secret_key\n\n"
        "    def dumps(self, value):\n"
        "        return value\n\n\n"
        "class TimedSerializer(Serializer):\n"
        "    def dumps(self, value):\n"
        "        return value\n"
    ),
    "tests/test_serializer.py": (
        "import pickle\n"
        "from functools import partial\n\n"
        "import pytest\n\n"
        "from sign.serializer import Serializer, TimedSerializer\n\n\n"
        "class TestSerializer:\n"
        "    @pytest.fixture(params=(Serializer, partial(Serializer, serializer=pickle)))\n"
        "    def serializer_factory(self, request):\n"
        "        return partial(request.param, secret_key='secret')\n\n"
        "    @pytest.fixture()\n"
        "    def serializer(self, serializer_factory):\n"
        "        return serializer_factory()\n\n"
        "    def test_kwargs(self, serializer_factory):\n"
        "        assert serializer_factory(serializer=None).dumps(1) == 1\n\n"
        "    def test_dumps(self, serializer):\n"
        "        assert serializer.dumps(1) == 1\n\n\n"
        "class TestTimed:\n"
        "    @pytest.fixture()\n"
        "    def serializer_factory(self):\n"
        "        return partial(TimedSerializer, secret_key='secret')\n\n"
        "    def test_timed(self, serializer_factory):\n"
        "        assert serializer_factory().dumps(2) == 2\n"
    ),
}


def test_a_test_classs_fixture_parametrized_over_classes_makes_its_parameter_those_classes(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # itsdangerous's suite: a class's fixture over `params=(Serializer, partial(Serializer, ...))` returns
    # `partial(request.param, ...)`: calling the test's parameter constructs a Serializer; another fixture of the
    # class calls it, and a subclass's suite returns a partial of its own class
    cls = "tests.test_serializer.TestSerializer"
    ids = [
        f"method:sign:{cls}.test_kwargs",
        f"method:sign:{cls}.test_dumps",
        "method:sign:tests.test_serializer.TestTimed.test_timed",
    ]
    catalog = indexed_projects(tmp_path_factory.mktemp("signing"), {"sign": SIGNING}, ("sign",))
    try:
        views = GenerationViews(RetrievalSettings())
        kwargs, dumps, timed = (edges_named(catalog, views, i) for i in ids)
    finally:
        catalog.close()
    assert kwargs[("CALLS", "sign.serializer.Serializer.dumps")] == "inferred"
    assert dumps[("CALLS", "sign.serializer.Serializer.dumps")] == "inferred"
    assert timed[("CALLS", "sign.serializer.TimedSerializer.dumps")] == "inferred"


INHERITED = {
    "sign/__init__.py": "",
    "sign/signer.py": (
        "class Signer:\n"
        "    def sign(self, value):\n"
        "        return value\n\n\n"
        "class TimestampSigner(Signer):\n"
        "    def sign(self, value):\n"
        "        return value\n\n\n"
        "class Store:\n"
        "    def put(self, value):\n"
        "        return value\n"
    ),
    "tests/__init__.py": "",
    "tests/conftest.py": (
        "import pytest\n\nfrom sign.signer import Store\n\n\n@pytest.fixture()\ndef store():\n    return Store()\n"
    ),
    "tests/test_signer.py": (
        "import pytest\n\n"
        "from sign.signer import Signer\n\n\n"
        "class TestSigner:\n"
        "    @pytest.fixture()\n"
        "    def signer_factory(self):\n"
        "        return Signer\n\n"
        "    @pytest.fixture()\n"
        "    def signer(self, signer_factory):\n"
        "        return signer_factory()\n\n"
        "    def test_sign(self, signer):\n"
        "        assert signer.sign(1) == 1\n"
    ),
    "tests/test_timed.py": (
        "import pytest\n\n"
        "from sign.signer import TimestampSigner\n"
        "from tests.test_signer import TestSigner\n\n\n"
        "class TestTimestampSigner(TestSigner):\n"
        "    @pytest.fixture()\n"
        "    def signer_factory(self):\n"
        "        return TimestampSigner\n\n"
        "    def test_timed(self, signer, store):\n"
        "        assert signer.sign(2) == store.put(2)\n"
    ),
}


def test_a_fixture_a_base_test_class_defines_in_another_file_types_the_parameter(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # itsdangerous's suite: `class TestTimestampSigner(FreezeMixin, TestSigner)` in test_timed.py takes `signer` from
    # test_signer.py's TestSigner; a parameter no class of the lineage has a fixture for is a conftest's
    test = "method:sign:tests.test_timed.TestTimestampSigner.test_timed"
    catalog = indexed_projects(tmp_path_factory.mktemp("inherited"), {"sign": INHERITED}, ("sign",))
    try:
        timed = edges_named(catalog, GenerationViews(RetrievalSettings()), test)
    finally:
        catalog.close()
    assert timed[("CALLS", "sign.signer.Signer.sign")] == "inferred"
    assert timed[("CALLS", "sign.signer.TimestampSigner.sign")] == "dispatch"
    assert timed[("CALLS", "sign.signer.Store.put")] == "inferred"


LOCAL = {
    "lib/__init__.py": "",
    "lib/schema.py": (
        "class Schema:\n"
        "    def dump(self, data):\n"
        "        return data\n\n\n"
        "class Field:\n"
        "    def dump(self, data):\n"
        "        return data\n"
    ),
    "tests/__init__.py": "",
    "tests/test_nested.py": (
        "import pytest\n\nfrom lib.schema import Schema\n\n\n"
        "class TestNested:\n"
        "    @pytest.fixture\n"
        "    def schema(self):\n"
        "        class ParentSchema(Schema):\n"
        "            title = 'parent'\n\n"
        "        return ParentSchema()\n\n"
        "    @pytest.fixture\n"
        "    def custom(self):\n"
        "        class Custom(Schema):\n"
        "            def dump(self, data):\n"
        "                return None\n\n"
        "        made = Custom()\n"
        "        return made\n\n"
        "    def test_dump(self, schema):\n"
        "        assert schema.dump(1)\n\n"
        "    def test_custom(self, custom):\n"
        "        assert custom.dump(1) is None\n"
    ),
}


def test_a_fixture_returning_an_instance_of_a_class_it_defines_gives_one_of_the_classs_base(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # marshmallow's suite: `class ParentSchema(Schema): ...` defined in a fixture that returns `ParentSchema(...)`, a
    # test then calls `schema.dump(data)`; a class defining a method of its own runs that one, the fixture's own code
    catalog = indexed_projects(tmp_path_factory.mktemp("local"), {"t": LOCAL}, ("t",))
    try:
        views = GenerationViews(RetrievalSettings())
        dumped = edges_named(catalog, views, "method:t:tests.test_nested.TestNested.test_dump")
        custom = edges_named(catalog, views, "method:t:tests.test_nested.TestNested.test_custom")
    finally:
        catalog.close()
    assert dumped[("CALLS", "lib.schema.Schema.dump")] == "inferred"
    assert ("CALLS", "lib.schema.Schema.dump") not in custom
