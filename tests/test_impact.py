"""`impact`: what a change affects — callers of callers, the tests that run the change (by calls, a fixture, a base
class's setUp), the prose naming it — and a verdict that says `complete` only when nothing could hide a caller, on
real git work trees and through a real MCP session."""

from __future__ import annotations

import os
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.projects import write_files
from tests.test_execution_graph import HTTP_HANDLE, PROJECTS, REDIRECTS, SEND, SINGLE
from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.errors import ArgumentError
from trident.store.schema import Resolution
from trident.tools.explain import explain_path
from trident.tools.impact import ImpactResult, impact

CALC = {
    "calc/__init__.py": "",
    "calc/ops.py": (
        "def add(a, b):\n"
        "    return a + b\n\n\n"
        "def total(values):\n"
        "    result = 0\n"
        "    for value in values:\n"
        "        result = add(result, value)\n"
        "    return result\n"
    ),
    "tests/test_ops.py": ("from calc.ops import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"),
    "docs/usage.md": "# Usage\n\nSum a list with `calc.ops.total`; it folds the values with `calc.ops.add`.\n",
}
# The client library of test_execution_graph with its own tests: one calling it, one through a fixture, one through
# the setUp of a base test class, and a helper whose receiver has no stated type.
WEB_TESTS = {
    "web/relay.py": "def relay(transport, request):\n    return transport.handle_request(request)\n",
    "tests/conftest.py": (
        "import pytest\n\nfrom web._client import Client\n\n\n"
        "@pytest.fixture\n"
        "def sent():\n"
        "    return Client().send('ping')\n\n\n"
        "@pytest.fixture\n"
        "def client():\n"
        "    return Client()\n"
    ),
    "tests/test_client.py": (
        "import unittest\n\nfrom web._client import Client\n\n\n"
        "def test_send():\n"
        "    assert Client().send('x')\n\n\n"
        "def test_through_fixture(sent):\n"
        "    assert sent\n\n\n"
        "def test_unrelated():\n"
        "    assert True\n\n\n"
        "def test_untyped_client(client):\n"
        "    assert client.send('z')\n\n\n"
        "class ClientCase(unittest.TestCase):\n"
        "    def setUp(self):\n"
        "        self.reply = Client().send('y')\n\n"
        "    def test_reply(self):\n"
        "        assert self.reply\n\n\n"
        "class MoreClientCase(ClientCase):\n"
        "    def test_more(self):\n"
        "        assert self.reply\n"
    ),
}


def _git(folder: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    env["GIT_COMMITTER_EMAIL"] = "t@t"
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, env=env)


def _committed(root: Path, files: dict[str, str]) -> Path:
    write_files(root, files)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")
    return root


def _index(home: Path, folders: dict[str, Path]) -> Catalog:
    catalog = Catalog(home, "default", HashEmbedder())
    with catalog.writer() as writer:
        for project, folder in folders.items():
            index_folder(writer, folder, project, max_file_bytes=1_000_000)
    return catalog


def _impact(catalog: Catalog, **arguments: Any) -> ImpactResult:
    views = GenerationViews(RetrievalSettings())
    return impact(Reader(catalog, views), **arguments)


@pytest.fixture
def calc(tmp_path: Path) -> tuple[Catalog, Path]:
    folder = _committed(tmp_path / "calc", CALC)
    return _index(tmp_path / "index", {"calc": folder}), folder


def test_an_entity_with_every_call_bound_gets_its_callers_tests_docs_and_a_complete_verdict(
    calc: tuple[Catalog, Path],
) -> None:
    catalog, _ = calc
    result = _impact(catalog, entities=["calc.ops.add"])
    assert [c.id for c in result.changed] == ["function:calc:calc.ops.add"]
    assert [(c.id, c.hops, c.tested) for c in result.callers] == [("function:calc:calc.ops.total", 1, True)]
    assert [(t.name, t.path, t.line, t.hops, t.through) for t in result.tests] == [
        ("test_total", "tests/test_ops.py", 4, 2, "calls")
    ]
    assert result.untested == [] and [d.citation.split(":")[0] for d in result.docs] == ["calc/docs/usage.md"]
    assert result.verdict.status == "complete" and result.verdict.reasons == []


def test_a_working_tree_edit_and_a_rename_map_to_the_definitions_they_touch(calc: tuple[Catalog, Path]) -> None:
    catalog, folder = calc
    ops = folder / "calc" / "ops.py"
    ops.write_text(ops.read_text().replace("return a + b", "return b + a"))
    body = _impact(catalog, changes="working-tree")
    assert [(c.id, c.change, c.lines) for c in body.changed] == [("function:calc:calc.ops.add", "body", [2])]
    assert [t.name for t in body.tests] == ["test_total"] and body.docs[0].stale_reference is None
    ops.write_text(ops.read_text().replace("def add(", "def plus(").replace("= add(", "= plus("))
    renamed = _impact(catalog, changes="working-tree")
    changes = {c.id: (c.change, c.renamed_to) for c in renamed.changed}
    assert changes["function:calc:calc.ops.add"] == ("renamed", "plus")
    assert changes["function:calc:calc.ops.total"] == ("body", None)  # its call was rewritten
    flagged = [d for d in renamed.docs if d.names == "function:calc:calc.ops.add"]
    assert flagged and flagged[0].stale_reference == "names add, which this change renames to plus"


def test_a_committed_range_and_bad_changes_get_clear_errors(calc: tuple[Catalog, Path]) -> None:
    catalog, folder = calc
    ops = folder / "calc" / "ops.py"
    ops.write_text(ops.read_text().replace("result = 0", "result = 0  # start"))
    _git(folder, "commit", "-qam", "second")
    ranged = _impact(catalog, changes="HEAD~1..HEAD")
    assert [(c.id, c.change) for c in ranged.changed] == [("function:calc:calc.ops.total", "body")]
    with pytest.raises(ArgumentError, match="git knows no commit 'nope'"):
        _impact(catalog, changes="nope..HEAD")
    with pytest.raises(ArgumentError, match="'working-tree' or a git range"):
        _impact(catalog, changes="yesterday")
    with pytest.raises(ArgumentError, match="exactly one of"):
        _impact(catalog)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    root = tmp_path_factory.mktemp("impact-web")
    write_files(root / "wire", PROJECTS["wire"])
    folder = _committed(root / "web", {**PROJECTS["web"], **WEB_TESTS})
    return _index(root / "index", {"web": folder, "wire": root / "wire"})


def test_tests_reach_a_change_through_calls_a_fixture_and_a_base_class_setup(web: Catalog) -> None:
    result = _impact(web, entities=[SINGLE])
    callers = {c.id: (c.hops, c.tested) for c in result.callers}
    assert callers[REDIRECTS] == (1, True) and callers[SEND] == (2, True)
    # the module's `__main__` block and a function passing `Client.send` on reach it, and no test runs them: the
    # riskiest, first
    untested = {"module:web:web._client", "function:web:web._callbacks.send_all"}
    assert {c.id for c in result.callers[:2]} == untested and not any(c.tested for c in result.callers[:2])
    assert untested <= set(result.untested)
    through = {t.name: (t.through, t.resolution.value) for t in result.tests}
    assert through == {
        "test_send": ("calls", "inferred"),
        "test_through_fixture": ("fixture sent", "inferred"),
        "test_reply": ("setUp setUp", "inferred"),
        "test_more": ("setUp setUp", "inferred"),
        # `client` is a fixture's value no single file types: the fixture returns a Client, the test calls send
        "test_untyped_client": ("calls", "inferred"),
    }
    assert all(t.reaches == SINGLE for t in result.tests)
    # each test cited by its own `def` line, also where several share a chunk
    lines = {t.name: t.line for t in result.tests}
    assert lines == {
        "test_send": 6,
        "test_through_fixture": 10,
        "test_untyped_client": 18,
        "test_reply": 26,
        "test_more": 31,
    }


def test_a_caller_with_an_untyped_receiver_makes_the_answer_a_lower_bound(web: Catalog) -> None:
    result = _impact(web, entities=[HTTP_HANDLE], max_hops=6)
    assert result.verdict.status == "lower_bound"
    unbound = [r for r in result.verdict.reasons if r.kind == "unbound_calls"]
    assert unbound and "web/web/relay.py" in unbound[0].detail
    assert SINGLE in {c.id for c in result.callers}  # the dispatch from the base method's call counts
    cut = _impact(web, entities=[HTTP_HANDLE], max_hops=1)
    assert any(r.kind == "max_hops" for r in cut.verdict.reasons)
    assert cut.callers_total == 1 and cut.next_call is None


@pytest.fixture
async def client(web: Catalog) -> AsyncIterator[Any]:
    from mcp.client import Client

    from trident.server.app import build_server
    from trident.server.server_settings import ServerSettings, TridentSettings

    settings = TridentSettings.from_env(ServerSettings(read_only=True))
    async with Client(build_server(settings, lambda: web, close_catalog=False)) as connected:
        yield connected


@pytest.mark.anyio
async def test_the_served_impact_tool_answers_and_refuses_bad_arguments_as_tool_errors(client: Any) -> None:
    result = await client.call_tool("impact", {"entities": ["Client._send_single"], "paths": True, "limit": 3})
    assert not result.is_error, result.content
    data = result.structured_content
    assert data["callers"][2]["chain"] == [REDIRECTS, SINGLE] and data["callers_total"] > 3
    assert (
        data["next_call"] == "impact(entities=['Client._send_single'], max_hops=3, min_resolution='dispatch', "
        "paths=True, offset=3, limit=3)"
    )
    assert {t["name"] for t in data["tests"]} >= {"test_send", "test_through_fixture"}
    assert data["verdict"]["status"] in ("complete", "lower_bound")
    neither = await client.call_tool("impact", {})
    assert neither.is_error and "exactly one of" in neither.content[0].text
    unknown = await client.call_tool("impact", {"entities": ["no_such_function_anywhere"]})
    assert unknown.is_error


def test_a_caller_reached_only_through_a_name_guess_never_reads_complete(tmp_path: Path) -> None:
    files = {
        "calc/__init__.py": "",
        "calc/ops.py": "def scale_all(values):\n    return [v * 2 for v in values]\n",
        # `engine` is untyped: its `scale_all()` is bound by the name alone (one function has it)
        "calc/run.py": "def run(engine, values):\n    return engine.scale_all(values)\n",
    }
    folder = _committed(tmp_path / "calc", files)
    catalog = _index(tmp_path / "index", {"calc": folder})
    surer = _impact(catalog, entities=["calc.ops.scale_all"])
    guessed = _impact(catalog, entities=["calc.ops.scale_all"], min_resolution=Resolution.NAME)
    assert [c.id for c in guessed.callers] == ["function:calc:calc.run.run"]
    assert [c.resolution for c in guessed.callers] == [Resolution.NAME]
    assert guessed.verdict.status == "lower_bound"
    assert "guesses_on_the_way" in {r.kind for r in guessed.verdict.reasons}
    assert surer.verdict.status == "lower_bound" and "weaker_calls" in {r.kind for r in surer.verdict.reasons}


def test_a_test_many_calls_above_a_change_is_found_and_surer_tests_come_first(tmp_path: Path) -> None:
    # twelve layers of calls, as a CLI test's `invoke -> main -> ... -> convert`; one test enters at the top, one
    # through a name guess (an untyped `engine`) one call above the change
    layers = "\n\n".join(f"def layer{i}(x):\n    return layer{i + 1}(x)\n" for i in range(11))
    files = {
        "calc/__init__.py": "",
        "calc/deep.py": layers + "\n\ndef layer11(x):\n    return x + 1\n",
        "calc/run.py": "def run(engine, x):\n    return engine.layer11(x)\n",
        "tests/test_deep.py": (
            "from calc.deep import layer0\nfrom calc.run import run\n\n\n"
            "def test_guessed():\n    assert run(object(), 1)\n\n\n"
            "def test_top():\n    assert layer0(1) == 2\n"
        ),
    }
    catalog = _index(tmp_path / "index", {"calc": _committed(tmp_path / "calc", files)})
    result = _impact(catalog, entities=["calc.deep.layer11"])
    found = [(t.name, t.hops, t.resolution) for t in result.tests]
    # the top test is 12 calls away, past the eight the walk once stopped at; bound calls only, so it comes first
    assert found == [("test_top", 12, Resolution.EXACT), ("test_guessed", 2, Resolution.NAME)]
    # tests are paged with the callers: a page of one, the total, and the call for the rest
    first = _impact(catalog, entities=["calc.deep.layer11"], limit=1)
    assert [t.name for t in first.tests] == ["test_top"] and first.tests_total == 2
    assert first.next_call is not None and "offset=1" in first.next_call
    rest = _impact(catalog, entities=["calc.deep.layer11"], limit=1, offset=1)
    assert [t.name for t in rest.tests] == ["test_guessed"] and rest.tests_total == 2


def test_a_special_method_on_the_way_or_a_construction_nothing_binds_never_reads_complete(tmp_path: Path) -> None:
    # tomlkit's shape: `_getstate` is called by `__reduce_ex__` alone, which `copy.copy(item)` and `pickle` run
    # without naming it; and a class built where no edge binds the call (`make(kind)(...)`, or `Box(...)` on an
    # untyped path) runs `__init__` unseen
    files = {
        "kit/__init__.py": "",
        "kit/items.py": (
            "class Item:\n"
            "    def __init__(self, value):\n"
            "        self.value = value\n\n"
            "    def _getstate(self):\n"
            "        return (self.value,)\n\n"
            "    def __reduce_ex__(self, protocol):\n"
            "        return self.__class__, self._getstate()\n\n"
            "    def shown(self):\n"
            "        return str(self.value)\n\n\n"
            "def show(item: Item):\n"
            "    return item.shown()\n"
        ),
        "kit/build.py": "from . import items\n\n\ndef build(module):\n    return module.Item(1)\n",
        "tests/test_items.py": (
            "import copy\n\nfrom kit.items import Item, show\n\n\n"
            "def test_copy():\n    assert copy.copy(Item(1)).value == 1\n\n\n"
            "def test_show():\n    assert show(Item(2)) == '2'\n"
        ),
    }
    catalog = _index(tmp_path / "index", {"kit": _committed(tmp_path / "kit", files)})
    state = _impact(catalog, entities=["kit.items.Item._getstate"])
    assert [c.name for c in state.callers] == ["__reduce_ex__"]
    assert state.verdict.status == "lower_bound"
    assert "implicit_calls" in {r.kind for r in state.verdict.reasons}
    built = _impact(catalog, entities=["kit.items.Item.__init__"])
    unbound = [r for r in built.verdict.reasons if r.kind == "unbound_calls"]
    assert built.verdict.status == "lower_bound" and unbound and "kit/build.py" in unbound[0].detail
    # a plain method reached by typed calls only stays complete
    shown = _impact(catalog, entities=["kit.items.Item.shown"])
    assert shown.verdict.status == "complete", shown.verdict.reasons


def test_a_call_bound_to_a_protocols_method_never_makes_an_implementation_complete(tmp_path: Path) -> None:
    # itsdangerous' shape: `self.serializer.dumps(...)` is bound to the `_PDataSerializer` Protocol's `dumps`; the
    # classes that implement it do not derive from it (a Protocol is structural), so no edge reaches theirs
    files = {
        "sig/__init__.py": "",
        "sig/serial.py": (
            "import typing as t\n\n\n"
            "class Serializer(t.Protocol):\n"
            "    def dumps(self, obj) -> str: ...\n\n\n"
            "class CompactJSON:\n"
            "    def dumps(self, obj):\n"
            "        return str(obj)\n\n"
            "    def loads(self, text):\n"
            "        return text\n\n\n"
            "class Signer:\n"
            "    def __init__(self, serializer: Serializer):\n"
            "        self.serializer = serializer\n\n"
            "    def sign(self, obj):\n"
            "        return self.serializer.dumps(obj)\n\n\n"
            "def read(text: str):\n"
            "    return CompactJSON().loads(text)\n"
        ),
        "tests/test_serial.py": (
            "from sig.serial import CompactJSON, Signer, read\n\n\n"
            "def test_sign():\n    assert Signer(CompactJSON()).sign(1) == '1'\n\n\n"
            "def test_read():\n    assert read('x') == 'x'\n"
        ),
    }
    catalog = _index(tmp_path / "index", {"sig": _committed(tmp_path / "sig", files)})
    dumps = _impact(catalog, entities=["sig.serial.CompactJSON.dumps"])
    unbound = [r for r in dumps.verdict.reasons if r.kind == "unbound_calls"]
    assert dumps.verdict.status == "lower_bound" and unbound and "sig/serial.py" in unbound[0].detail
    # a method reached by a call its class's own type binds stays complete
    loads = _impact(catalog, entities=["sig.serial.CompactJSON.loads"])
    assert loads.verdict.status == "complete", loads.verdict.reasons


def test_tests_are_not_looked_for_through_a_dispatch_among_many_functions_and_the_verdict_says_so(
    tmp_path: Path,
) -> None:
    # jinja2's shape: a table of twenty filters picked by name; which one a test runs depends on its template, so
    # the tests reaching the table are not each filter's tests (a table of three still is walked)
    many = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(20))
    table = ", ".join(f"'f{i}': f{i}" for i in range(20))
    files = {
        "calc/__init__.py": "",
        "calc/filters.py": many + f"FILTERS = {{{table}}}\n\n\ndef apply(name, x):\n    return FILTERS[name](x)\n",
        "calc/few.py": (
            "def a(x):\n    return x\n\n\ndef b(x):\n    return x\n\n\nFEW = {'a': a, 'b': b}\n\n\n"
            "def pick(name, x):\n    return FEW[name](x)\n"
        ),
        "tests/test_filters.py": (
            "from calc.filters import apply\nfrom calc.few import pick\n\n\n"
            "def test_apply():\n    assert apply('f1', 1) == 2\n\n\n"
            "def test_pick():\n    assert pick('a', 1) == 1\n"
        ),
    }
    catalog = _index(tmp_path / "index", {"calc": _committed(tmp_path / "calc", files)})
    wide = _impact(catalog, entities=["calc.filters.f3"])
    assert "apply" in [c.name for c in wide.callers]  # still a caller: it may run f3
    assert wide.tests == [] and wide.verdict.status == "lower_bound"
    assert "wide_dispatch" in {r.kind for r in wide.verdict.reasons}
    few = _impact(catalog, entities=["calc.few.b"])
    assert [t.name for t in few.tests] == ["test_pick"]


# A visitor base whose `visit` looks its handlers up on its own receiver (jinja2's NodeVisitor), a template method
# calling an override on its own receiver (marshmallow's Field.serialize), and tests that each make one subclass.
VISITORS = {
    "walk/__init__.py": "",
    "walk/visitor.py": (
        "class NodeVisitor:\n"
        "    def visit(self, node):\n"
        "        handler = getattr(self, f'visit_{type(node).__name__}', None)\n"
        "        return handler(node) if handler is not None else None\n\n\n"
        "class Printer(NodeVisitor):\n"
        "    def visit_Name(self, node):\n"
        "        return str(node)\n\n\n"
        "class Counter(NodeVisitor):\n"
        "    def visit_Name(self, node):\n"
        "        return 1\n\n\n"
        "def count(node):\n"
        "    return Counter().visit(node)\n\n\n"
        "def show(visitor: NodeVisitor, node):\n"
        "    return visitor.visit(node)\n"
    ),
    "walk/fields.py": (
        "class Field:\n"
        "    def serialize(self, value):\n"
        "        return self.prepare(value)\n\n"
        "    def prepare(self, value):\n"
        "        return self._serialize(value)\n\n"
        "    def _serialize(self, value):\n"
        "        return value\n\n\n"
        "class String(Field):\n"
        "    def _serialize(self, value):\n"
        "        return str(value)\n\n\n"
        "class Integer(Field):\n"
        "    def _serialize(self, value):\n"
        "        return int(value)\n"
    ),
    "tests/test_walk.py": (
        "from walk.fields import Integer, String\n"
        "from walk.visitor import Printer, count, show\n\n\n"
        "def test_count():\n    assert count('x') is None\n\n\n"
        "def test_show():\n    assert show(Printer(), 'x') is None\n\n\n"
        "def test_string():\n    assert String().serialize(1) == '1'\n\n\n"
        "def test_integer():\n"
        "    field = Integer()\n"
        "    assert field.serialize('1') == 1\n"
    ),
}


def test_a_dispatch_on_a_methods_own_receiver_reaches_only_the_tests_whose_receiver_may_be_of_that_class(
    tmp_path: Path,
) -> None:
    catalog = _index(tmp_path / "index", {"walk": _committed(tmp_path / "walk", VISITORS)})
    string = _impact(catalog, entities=["walk.fields.String._serialize"])
    assert [t.name for t in string.tests] == ["test_string"]  # not test_integer: its field is made an Integer
    integer = _impact(catalog, entities=["walk.fields.Integer._serialize"])
    assert [t.name for t in integer.tests] == ["test_integer"]
    assert {"serialize", "prepare"} <= {c.name for c in integer.callers}
    # `count` makes a Counter: it cannot run Printer's handler; `show`'s visitor may be any NodeVisitor
    printer = _impact(catalog, entities=["walk.visitor.Printer.visit_Name"])
    assert "count" not in {c.name for c in printer.callers}
    assert [t.name for t in printer.tests] == ["test_show"]
    counter = _impact(catalog, entities=["walk.visitor.Counter.visit_Name"])
    assert {"count", "show"} <= {c.name for c in counter.callers}
    # `show` may be handed a Counter, but test_show hands it a Printer and makes no Counter anywhere: it is left out
    assert [t.name for t in counter.tests] == ["test_count"]
    left = [r for r in counter.verdict.reasons if r.kind == "unmade_overrides"]
    assert counter.verdict.status == "lower_bound" and left and left[0].count == 1 and "test_show" in left[0].detail


# itsdangerous' `TestSigner`: fixtures defined as methods of a test class (`signer_factory` returns
# `partial(Signer, ...)`, `signer` calls it), seen by the class's tests and by a class deriving from it in another
# file, unless that class defines its own fixture of the name.
CLASS_FIXTURES = {
    "sig/__init__.py": "",
    "sig/signer.py": (
        "class Signer:\n"
        "    def __init__(self, key):\n"
        "        self.key = key\n\n"
        "    def sign(self, value):\n"
        "        return value\n"
    ),
    "tests/test_signer.py": (
        "from functools import partial\n\n"
        "import pytest\n\n"
        "from sig.signer import Signer\n\n\n"
        "class TestSigner:\n"
        "    @pytest.fixture()\n"
        "    def signer_factory(self):\n"
        "        return partial(Signer, key='k')\n\n"
        "    @pytest.fixture()\n"
        "    def signer(self, signer_factory):\n"
        "        return signer_factory()\n\n"
        "    def test_signer(self, signer):\n"
        "        assert signer.sign('x')\n\n\n"
        "class TestOther:\n"
        "    @pytest.fixture()\n"
        "    def signer(self):\n"
        "        return object()\n\n"
        "    def test_other(self, signer):\n"
        "        assert signer\n"
    ),
    "tests/test_timed.py": (
        "import pytest\n\n"
        "from tests.test_signer import TestSigner\n\n\n"
        "class TestTimed(TestSigner):\n"
        "    def test_timed(self, signer):\n"
        "        assert signer\n\n\n"
        "class TestOwn(TestSigner):\n"
        "    @pytest.fixture()\n"
        "    def signer(self):\n"
        "        return object()\n\n"
        "    def test_own(self, signer):\n"
        "        assert signer\n"
    ),
}


def test_a_fixture_a_test_class_defines_reaches_its_tests_and_those_of_classes_deriving_from_it(
    tmp_path: Path,
) -> None:
    folder = _committed(tmp_path / "sig", CLASS_FIXTURES)
    catalog = _index(tmp_path / "index", {"sig": folder})
    try:
        result = _impact(catalog, entities=["method:sig:sig.signer.Signer.__init__"])
    finally:
        catalog.close()
    through = {t.name: t.through for t in result.tests}
    assert through["test_signer"] in ("calls", "fixture signer")
    assert through["test_timed"] == "fixture signer"  # inherited from `TestSigner`, in another file
    assert "test_other" not in through  # an unrelated class's fixture of the same name
    assert "test_own" not in through  # a deriving class's own fixture of the name


def test_a_function_nothing_calls_never_reads_complete_and_the_verdict_says_why(tmp_path: Path) -> None:
    # PLY's shape: the parser runs each `p_` rule by its name, which no call in the index states
    files = {
        "gram/__init__.py": "",
        "gram/rules.py": (
            "class Grammar:\n"
            "    def p_expr(self, p):\n"
            "        p[0] = self.fold(p[1])\n\n"
            "    def fold(self, value):\n"
            "        return value\n"
        ),
    }
    folder = _committed(tmp_path / "gram", files)
    catalog = _index(tmp_path / "index", {"gram": folder})
    rule = _impact(catalog, entities=["gram.rules.Grammar.p_expr"])
    fold = _impact(catalog, entities=["gram.rules.Grammar.fold"])
    assert rule.callers_total == 0 and rule.verdict.status == "lower_bound"
    [uncalled] = [r for r in rule.verdict.reasons if r.kind == "no_callers"]
    assert uncalled.count == 1 and "gram.rules.Grammar.p_expr" in uncalled.detail
    # a function with a caller is not said to have none (its caller is the one nothing calls)
    assert [c.id for c in fold.callers] == ["method:gram:gram.rules.Grammar.p_expr"]
    assert "no_callers" not in {r.kind for r in fold.verdict.reasons}


def test_a_test_handed_a_function_by_its_cases_or_run_by_an_autouse_fixture_reaches_it(tmp_path: Path) -> None:
    # humanize's suite: `clamp(*test_args)` runs `intword` a case of `@pytest.mark.parametrize` gives the test, and a
    # module's `@pytest.fixture(autouse=True)` warming `naturaltime` up runs for each test of that module (a
    # conftest's, for each test in its folder), none of which names it
    files = {
        "num/__init__.py": "from .number import clamp, intword, naturaltime\n",
        "num/number.py": (
            "def intword(value):\n"
            "    return str(value)\n\n\n"
            "def naturaltime(value):\n"
            "    return str(value)\n\n\n"
            "def clamp(value, format=None):\n"
            "    return format(value) if callable(format) else str(value)\n"
        ),
        "tests/test_number.py": (
            "import pytest\n\nimport num\n\n\n"
            "@pytest.mark.parametrize(\n"
            "    'test_args, expected',\n"
            "    [([1], '1'), ([1, num.intword], '1')],\n"
            ")\n"
            "def test_clamp(test_args: list, expected: str):\n"
            "    assert num.clamp(*test_args) == expected\n\n\n"
            "def test_plain():\n"
            "    assert num.clamp(1) == '1'\n"
        ),
        "tests/bench/conftest.py": (
            "import pytest\n\nimport num\n\n\n"
            "@pytest.fixture(scope='session', autouse=True)\n"
            "def _warmup():\n"
            "    num.naturaltime(1)\n"
        ),
        "tests/bench/test_speed.py": "import num\n\n\ndef test_fast():\n    assert num.clamp(2) == '2'\n",
        "tests/test_other.py": "import num\n\n\ndef test_other():\n    assert num.clamp(3) == '3'\n",
    }
    folder = _committed(tmp_path / "num", files)
    catalog = _index(tmp_path / "index", {"num": folder})
    try:
        word = _impact(catalog, entities=["num.number.intword"])
        warm = _impact(catalog, entities=["num.number.naturaltime"])
    finally:
        catalog.close()
    assert {t.name for t in word.tests} == {"test_clamp"}
    assert {t.name: t.through for t in warm.tests} == {"test_fast": "autouse fixture _warmup"}


# What a test may hold: the fields it constructs, those a class body makes as its module is imported, and those a
# test class the runner makes constructs for its mixin's tests.
FIELDS = {
    "fmt/__init__.py": "",
    "fmt/fields.py": (
        "class Field:\n"
        "    def serialize(self, value):\n"
        "        return self._serialize(value)\n\n"
        "    def _serialize(self, value):\n"
        "        return value\n\n\n"
        "class String(Field):\n"
        "    def _serialize(self, value):\n"
        "        return str(value)\n\n\n"
        "class Integer(Field):\n"
        "    def _serialize(self, value):\n"
        "        return int(value)\n\n\n"
        "class Boolean(Field):\n"
        "    def _serialize(self, value):\n"
        "        return bool(value)\n\n\n"
        "def dump(field: Field, value):\n"
        "    return field.serialize(value)\n"
    ),
    "tests/__init__.py": "",
    "tests/schemas.py": "from fmt.fields import Integer\n\n\nclass UserSchema:\n    age = Integer()\n",
    "tests/test_fmt.py": (
        "from fmt.fields import Boolean, String, dump\n"
        "from tests.schemas import UserSchema\n\n\n"
        "def test_string():\n    assert dump(String(), 1) == '1'\n\n\n"
        "def test_schema():\n    assert dump(UserSchema.age, '1') == 1\n\n\n"
        "class FieldTests:\n"
        "    def test_dump(self):\n"
        "        assert dump(self.make(), 1) is not None\n\n\n"
        "class TestBoolean(FieldTests):\n"
        "    def make(self):\n"
        "        return Boolean()\n"
    ),
}


def test_a_test_never_constructing_an_overrides_class_is_left_out_and_the_verdict_says_so(tmp_path: Path) -> None:
    catalog = _index(tmp_path / "index", {"fmt": _committed(tmp_path / "fmt", FIELDS)})
    string = _impact(catalog, entities=["fmt.fields.String._serialize"])
    assert [t.name for t in string.tests] == ["test_string"]
    left = next(r for r in string.verdict.reasons if r.kind == "unmade_overrides")
    assert left.count == 2 and "test_dump" in left.detail and "test_schema" in left.detail
    assert string.verdict.status == "lower_bound"
    # the mixin's test holds a Boolean: its test class, which the runner makes, constructs one
    boolean = _impact(catalog, entities=["fmt.fields.Boolean._serialize"])
    assert [t.name for t in boolean.tests] == ["test_dump"]
    # an Integer is made as `tests.schemas` is imported: any test may hold one, none is left out
    integer = _impact(catalog, entities=["fmt.fields.Integer._serialize"])
    assert {"test_schema", "test_string", "test_dump"} <= {t.name for t in integer.tests}
    assert not any(r.kind == "unmade_overrides" for r in integer.verdict.reasons)


# itsdangerous' serializers: `self.signer(...)` constructs whichever signer class a subclass's `default_signer` names;
# `TestTimed` derives from `TestSerializer`, whose tests run again with `TestTimed`'s fixture.
SIGNERS = {
    "sg/__init__.py": "",
    "sg/signer.py": (
        "def stamp(value):\n"
        "    return value\n\n\n"
        "class Signer:\n"
        "    def sign(self, value):\n"
        "        return self.derive(value)\n\n"
        "    def derive(self, value):\n"
        "        return value\n\n\n"
        "class TimestampSigner(Signer):\n"
        "    def derive(self, value):\n"
        "        return stamp(value)\n\n\n"
        "class Serializer:\n"
        "    default_signer: type[Signer] = Signer\n\n"
        "    def __init__(self):\n"
        "        self.signer = self.default_signer\n\n"
        "    def dumps(self, value):\n"
        "        return self.signer().sign(value)\n\n\n"
        "class TimedSerializer(Serializer):\n"
        "    default_signer = TimestampSigner\n"
    ),
    "tests/__init__.py": "",
    "tests/test_serializer.py": (
        "import pytest\n\nfrom sg.signer import Serializer\n\n\n"
        "class TestSerializer:\n"
        "    @pytest.fixture()\n"
        "    def serializer(self):\n"
        "        return Serializer()\n\n"
        "    def test_dumps(self, serializer: Serializer):\n"
        "        assert serializer.dumps(1)\n"
    ),
    "tests/test_signer.py": (
        "from sg.signer import TimestampSigner\n\n\ndef test_sign():\n    assert TimestampSigner().sign(1)\n"
    ),
    "tests/test_timed.py": (
        "import pytest\n\nfrom sg.signer import TimedSerializer\nfrom tests.test_serializer import TestSerializer\n\n\n"
        "class TestTimed(TestSerializer):\n"
        "    @pytest.fixture()\n"
        "    def serializer(self):\n"
        "        return TimedSerializer()\n"
    ),
}


def test_a_base_test_class_test_run_with_a_subclass_fixture_making_a_class_through_an_attribute_reaches_it(
    tmp_path: Path,
) -> None:
    catalog = _index(tmp_path / "index", {"sg": _committed(tmp_path / "sg", SIGNERS)})
    stamped = _impact(catalog, entities=["sg.signer.stamp"])
    assert sorted(t.name for t in stamped.tests) == ["test_dumps", "test_sign"]
    assert not any(r.kind == "unmade_overrides" for r in stamped.verdict.reasons)


def test_a_fixture_a_derived_test_class_overrides_reaches_the_tests_it_inherits(tmp_path: Path) -> None:
    # itsdangerous' `TestTimedSerializer(TestSerializer)` overrides `serializer_factory` and defines no test of its
    # own: `TestSerializer`'s tests run again as `TestTimedSerializer`'s, with its fixture
    files = {
        "w/__init__.py": "",
        "w/core.py": "def make_widget():\n    return 1\n",
        "tests/__init__.py": "",
        "tests/test_w.py": (
            "import pytest\n\nfrom w.core import make_widget\n\n\n"
            "class TestBase:\n"
            "    @pytest.fixture()\n"
            "    def thing(self):\n"
            "        return None\n\n"
            "    def test_run(self, thing):\n"
            "        assert thing is None or thing\n\n\n"
            "class TestWidget(TestBase):\n"
            "    @pytest.fixture()\n"
            "    def thing(self):\n"
            "        return make_widget()\n"
        ),
    }
    catalog = _index(tmp_path / "index", {"w": _committed(tmp_path / "w", files)})
    made = _impact(catalog, entities=["w.core.make_widget"])
    assert [(t.name, t.through) for t in made.tests] == [("test_run", "fixture thing")]


# pyasn1's shape: the base class's `__init__` runs `self.prettyIn(value)`, which each type overrides; `clone` makes
# another object of the receiver's own class (`self.__class__(value)`), a classmethod one of the class it is called on
ASN = {
    "asn/__init__.py": "",
    "asn/base.py": (
        "class Asn1Type:\n"
        "    def __init__(self, value=None):\n"
        "        self._value = self.prettyIn(value)\n\n"
        "    def prettyIn(self, value):\n"
        "        return value\n\n"
        "    def clone(self, value):\n"
        "        return self.__class__(value)\n\n"
        "    @classmethod\n"
        "    def create(cls, value):\n"
        "        return cls(value)\n"
    ),
    "asn/univ.py": (
        "from asn.base import Asn1Type\n\n\n"
        "class Integer(Asn1Type):\n"
        "    def prettyIn(self, value):\n"
        "        return int(value)\n\n"
        "    def plus(self, value):\n"
        "        return self.clone(value)\n\n\n"
        "class OctetString(Asn1Type):\n"
        "    def prettyIn(self, value):\n"
        "        return bytes(value)\n\n\n"
        "def integer(value):\n"
        "    return Integer(value)\n\n\n"
        "def recloned(value):\n"
        "    return Integer(value).clone(value)\n\n\n"
        "def octets(value):\n"
        "    return OctetString.create(value)\n\n\n"
        "class Wrapped:\n"
        "    def __init__(self):\n"
        "        self.value = None\n\n\n"
        "def resolve(kind: type[Wrapped] | Wrapped) -> Wrapped:\n"
        "    if isinstance(kind, type) and issubclass(kind, Wrapped):\n"
        "        return kind()\n"
        "    return kind\n\n\n"
        "def resolve_all(kinds):\n"
        "    return [resolve(kind) for kind in kinds]\n"
    ),
    "tests/__init__.py": "",
    "tests/test_univ.py": (
        "from typing import cast\n\n"
        "from asn.univ import Integer, Wrapped, integer, octets, recloned, resolve, resolve_all\n\n\n"
        "def test_integer():\n"
        "    assert integer(1)\n\n\n"
        "def test_recloned():\n"
        "    assert recloned(2)\n\n\n"
        "def test_octets():\n"
        "    assert octets(b'')\n\n\n"
        "def test_both():\n"
        "    assert Integer(3) and octets(b'x')\n\n\n"
        "def test_made():\n"
        "    assert resolve(Wrapped)\n\n\n"
        "def test_listed():\n"
        "    assert resolve_all([Integer, Wrapped])\n\n\n"
        "def test_other():\n"
        "    assert resolve(Integer) and resolve(Integer(1)) and isinstance(resolve(Integer), Wrapped)\n"
        "    assert cast(Wrapped, resolve(Integer))\n"
    ),
}


def test_a_clone_runs_the_hooks_of_its_receivers_class_and_a_class_passed_on_is_made_where_it_is_called(
    tmp_path: Path,
) -> None:
    catalog = _index(tmp_path / "index", {"asn": _committed(tmp_path / "asn", ASN)})
    octet = _impact(catalog, entities=["asn.univ.OctetString.prettyIn"], max_hops=4)
    # an Integer's `self.clone(value)` makes another Integer, whose `__init__` runs Integer's prettyIn only
    assert {"test_both", "test_octets"} <= {t.name for t in octet.tests}
    callers = {c.name for c in octet.callers}
    assert {"octets", "create", "clone"} <= callers and "plus" not in callers
    integer = _impact(catalog, entities=["asn.univ.Integer.prettyIn"], max_hops=4)
    assert {"test_both", "test_integer", "test_recloned"} <= {t.name for t in integer.tests}
    assert {"integer", "recloned", "clone", "create", "plus"} <= {c.name for c in integer.callers}
    reader = Reader(catalog, GenerationViews(RetrievalSettings()))
    plus, octet_hook = "asn.univ.Integer.plus", "asn.univ.OctetString.prettyIn"
    assert not any(p.call_chain for p in explain_path(reader, plus, octet_hook, max_hops=4).paths)
    # a class handed on, alone or in a list, is made by the parameter the callee calls: the callers naming it
    # reach its `__init__`, those handing on another class or an instance do not
    made = _impact(catalog, entities=["asn.univ.Wrapped.__init__"], max_hops=4)
    assert sorted(t.name for t in made.tests) == ["test_listed", "test_made"]
