"""What a function's untyped parameter holds is what calls in other files pass it (cachetools' `cached(cache)` handing
the cache to `_cached_wrapper` in another module): a call on the parameter binds to that class's method, never to a
same-named method of an unrelated class; a value passed on through another function's parameter counts; several
classes passed give the base they share; and when the callers change, the functions they call bind again without
their own files changing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.projects import call_edges, indexed_projects, write_files
from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest.pipeline import IndexReport, index_folder
from trident.ingest.rebinding import remove_documents
from trident.retrieval.callers import walk_callers
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import Resolution, document_id
from trident.tools.explain import explain_path
from trident.tools.impact import impact

STORES = (
    "class Store:\n"
    "    def fetch(self, key):\n"
    "        return key\n\n\n"
    "class LocalStore(Store):\n"
    "    def fetch(self, key):\n"
    "        return key * 2\n\n\n"
    "class Other:\n"
    "    def fetch(self, key):\n"
    "        return None\n"
)
RUNNER = (
    "def run(store, key):\n"
    "    return store.fetch(key)\n\n\n"
    "def outer(cache):\n"
    "    return run(cache, 1)\n\n\n"
    "def keyed(*, store):\n"
    "    return store.fetch(2)\n\n\n"
    "class Job:\n"
    "    def __init__(self, store):\n"
    "        self.ok = store.fetch(3)\n\n\n"
    "class Holder:\n"
    "    def __init__(self, store):\n"
    "        self.store = store\n\n"
    "    def go(self):\n"
    "        return self.store.fetch(4)\n"
)
APP = (
    "from pkg.runner import Holder, Job, keyed, outer, run\n"
    "from pkg.stores import LocalStore, Store\n\n\n"
    "def main():\n"
    "    run(Store(), 1)\n"
    "    outer(LocalStore())\n"
    "    keyed(store=Store())\n"
    "    Job(LocalStore())\n"
    "    Holder(LocalStore()).go()\n"
)
FILES = {"pkg/__init__.py": "", "pkg/stores.py": STORES, "pkg/runner.py": RUNNER, "pkg/app.py": APP}


def _called(catalog: Catalog, caller: str) -> dict[str, Resolution]:
    """What `caller` (a qualified name) calls: callee's qualified name -> resolution."""
    found = call_edges(catalog)
    return {t.rsplit(":", 1)[-1]: Resolution(r.resolution) for (s, t), r in found.items() if s.endswith(f":{caller}")}


def test_a_parameter_holds_what_calls_in_other_files_pass_it(tmp_path: Path) -> None:
    catalog = indexed_projects(tmp_path, {"p": FILES}, ("p",))
    try:
        run, keyed = _called(catalog, "pkg.runner.run"), _called(catalog, "pkg.runner.keyed")
        job = _called(catalog, "pkg.runner.Job.__init__")
        go = _called(catalog, "pkg.runner.Holder.go")
    finally:
        catalog.close()
    # `run` is passed a Store here and, through `outer`'s own parameter, a LocalStore: the base both share
    assert run.get("pkg.stores.Store.fetch") is Resolution.INFERRED
    assert "pkg.stores.Other.fetch" not in run  # same name, unrelated class
    assert keyed.get("pkg.stores.Store.fetch") is Resolution.INFERRED  # by keyword
    assert job.get("pkg.stores.LocalStore.fetch") is Resolution.INFERRED  # a constructor's parameter
    assert "pkg.stores.Other.fetch" not in keyed and "pkg.stores.Other.fetch" not in job
    assert go.get("pkg.stores.LocalStore.fetch") is Resolution.INFERRED  # an attribute given the parameter
    assert "pkg.stores.Other.fetch" not in go


def test_when_the_callers_change_the_functions_they_pass_to_bind_again(tmp_path: Path) -> None:
    # only the caller's file changes: `run` and `keyed` are now passed an Other, and `outer` is no longer called
    changed = APP.replace("Store()", "Other()").replace("    outer(LocalStore())\n", "")
    changed = changed.replace("LocalStore, Store", "LocalStore, Other")
    before, report, (run, keyed) = _app_changed(tmp_path, FILES, changed, "pkg.runner.run", "pkg.runner.keyed")
    assert "pkg.stores.Store.fetch" in before
    assert report.indexed == 1 and report.rebound >= 1  # runner.py was bound again, not indexed again
    assert run.get("pkg.stores.Other.fetch") is Resolution.INFERRED
    assert keyed.get("pkg.stores.Other.fetch") is Resolution.INFERRED
    assert "pkg.stores.Store.fetch" not in run and "pkg.stores.Store.fetch" not in keyed


def _app_changed(
    tmp_path: Path, files: dict[str, str], app: str, caller: str, *more: str
) -> tuple[dict[str, Resolution], IndexReport, list[dict[str, Resolution]]]:
    """Index `files`, write `pkg/app.py` anew, index again: what `caller` calls before, the second run's report, and
    what `caller` and `more` call after."""
    root = tmp_path / "p"
    write_files(root, files)
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    try:
        with catalog.writer() as writer:
            index_folder(writer, root, "p", max_file_bytes=1_000_000)
        before = _called(catalog, caller)
        (root / "pkg/app.py").write_text(app)
        with catalog.writer() as writer:
            report = index_folder(writer, root, "p", max_file_bytes=1_000_000)
        return before, report, [_called(catalog, c) for c in (caller, *more)]
    finally:
        catalog.close()


def test_removing_the_callers_file_leaves_the_parameter_untyped(tmp_path: Path) -> None:
    catalog = indexed_projects(tmp_path, {"p": FILES}, ("p",))
    try:
        assert "pkg.stores.Store.fetch" in _called(catalog, "pkg.runner.run")
        with catalog.writer() as writer:
            rebound = remove_documents(writer, [document_id("p", "pkg/app.py")], max_file_bytes=1_000_000)
        run = _called(catalog, "pkg.runner.run")
    finally:
        catalog.close()
    assert rebound >= 1  # runner.py, whose functions app.py's calls typed
    assert not any(callee.endswith(".fetch") for callee in run)  # no call passes `run` a store now


@pytest.mark.anyio
async def test_a_served_trace_names_the_function_that_calls_a_method_on_what_its_callers_pass(tmp_path: Path) -> None:
    from mcp.client import Client

    from trident.server.app import build_server
    from trident.server.server_settings import ServerSettings, TridentSettings

    catalog = indexed_projects(tmp_path, {"p": FILES}, ("p",))
    settings = TridentSettings.from_env(ServerSettings(read_only=True))
    try:
        async with Client(build_server(settings, lambda: catalog, close_catalog=False)) as client:
            result = await client.call_tool(
                "trace_relationships",
                {"entity": "pkg.stores.Other.fetch", "direction": "in", "relation_types": ["CALLS"]},
            )
            assert not result.is_error, result.content
            other = {e["source"] for e in result.structured_content["edges"]}
            result = await client.call_tool(
                "trace_relationships",
                {"entity": "pkg.stores.Store.fetch", "direction": "in", "relation_types": ["CALLS"], "max_hops": 1},
            )
            assert not result.is_error, result.content
            store = {e["source"]: e["resolution"] for e in result.structured_content["edges"]}
    finally:
        catalog.close()
    assert store.get("function:p:pkg.runner.run") == "inferred"  # `store.fetch(key)`, its callers pass a Store
    assert store.get("function:p:pkg.runner.keyed") == "inferred"
    assert not any(source.startswith("function:p:pkg.runner.") for source in other)  # nobody passes them an Other


def test_a_value_passed_down_a_long_chain_of_functions_ends_untyped_without_failing(tmp_path: Path) -> None:
    # each function hands its parameter to the next, 300 deep, in a file of its own each: a lookup reads the value
    # through a bounded number of them and gives nothing past that (without the bound: a RecursionError)
    files = {"chain/__init__.py": "", "chain/stores.py": STORES}
    for n in range(300):
        body = f"    return step{n + 1}.f{n + 1}(value)\n" if n < 299 else "    return value.fetch(1)\n"
        head = f"from chain import step{n + 1}\n\n\n" if n < 299 else ""
        files[f"chain/step{n}.py"] = f"{head}def f{n}(value):\n{body}"
    files["chain/app.py"] = "from chain.step0 import f0\nfrom chain.stores import Store\n\n\nf0(Store())\n"
    catalog = indexed_projects(tmp_path, {"c": files}, ("c",))
    try:
        near, far = _called(catalog, "chain.step1.f1"), _called(catalog, "chain.step299.f299")
    finally:
        catalog.close()
    assert "chain.step2.f2" in near  # indexed whole
    assert "chain.stores.Store.fetch" not in far and "chain.stores.Other.fetch" not in far


KEYS = (
    "def hashkey(*args):\n"
    "    return args\n\n\n"
    "def typedkey(*args):\n"
    "    return hashkey(*args)\n\n\n"
    "def key(*args):\n"  # named as the parameter is: a name guess, never what a call of the parameter runs
    "    return None\n\n\n"
    "def callback(value):\n"
    "    return value\n\n\n"
    "class Model:\n"
    "    def __init__(self, *args):\n"
    "        self.args = args\n"
)
WRAPPERS = (
    "def _wrapped(func, key):\n"
    "    def wrapper(*args):\n"
    "        return func(*args), key(*args)\n"
    "    return wrapper\n\n\n"
    "def wrap(func, key):\n"
    "    return _wrapped(func, key)\n\n\n"
    "def later(value, callback):\n"  # no call passes `callback` a function: what its name guesses
    "    return callback(value)\n\n\n"
    "def first(pred, values):\n"  # the builtin `filter` calls what callers pass `pred`
    "    return next(filter(pred, values), None)\n"
)
API = (
    "from pkg import keys\n"
    "from pkg.wrappers import wrap\n\n\n"
    "def cached(func, key=keys.hashkey):\n"
    "    return wrap(func, key)\n"
)
CALLERS = (
    "from pkg import keys\n"
    "from pkg.api import cached\n"
    "from pkg.keys import Model, typedkey\n"
    "from pkg.wrappers import first\n\n\n"
    "def compute(x):\n"
    "    return x\n\n\n"
    "def main():\n"
    "    cached(compute)\n"
    "    cached(compute, key=typedkey)\n"
    "    cached(compute, key=Model)\n"
    "    first(compute, [1])\n\n\n"
    "def plain():\n"
    "    return cached(compute)\n\n\n"
    "def picked(typed):\n"  # (cachetools' `func._cache`: the key function picked, then passed)
    "    key = keys.typedkey if typed else keys.hashkey\n"
    "    return cached(compute, key=key)\n"
)
MAIN = "function:p:pkg.app.main"
HELD_FILES = {
    "pkg/__init__.py": "",
    "pkg/keys.py": KEYS,
    "pkg/wrappers.py": WRAPPERS,
    "pkg/api.py": API,
    "pkg/app.py": CALLERS,
}


def test_a_parameter_called_runs_the_functions_and_classes_callers_in_other_files_pass_it_or_its_default(
    tmp_path: Path,
) -> None:
    """cachetools' `cached(cache, key=keys.hashkey)` hands `key` to `_cached_wrapper` in another module, whose
    wrapper calls `key(*args)`: that runs the default, or the function or class a caller passes instead."""
    catalog = indexed_projects(tmp_path, {"p": HELD_FILES}, ("p",))
    try:
        wrapped, later = _called(catalog, "pkg.wrappers._wrapped"), _called(catalog, "pkg.wrappers.later")
        cached = _called(catalog, "pkg.api.cached")
        first = {
            (r.target, r.resolution)
            for r in catalog.graph.relations(catalog.tenant)
            if r.type == "REFERENCES" and r.source == "function:p:pkg.wrappers.first"
        }
        relations = GenerationViews(RetrievalSettings()).relations(catalog)
        typed = walk_callers(relations, ["function:p:pkg.keys.typedkey"], 3, Resolution.NAME).reached
        hashed = walk_callers(relations, ["function:p:pkg.keys.hashkey"], 3, Resolution.NAME).reached
        verdict = impact(Reader(catalog, GenerationViews(RetrievalSettings())), entities=["pkg.keys.typedkey"]).verdict
    finally:
        catalog.close()
    assert wrapped.get("pkg.keys.hashkey") is Resolution.INFERRED  # the default, passed on through two files
    assert wrapped.get("pkg.keys.typedkey") is Resolution.INFERRED  # what a caller passes by keyword
    assert wrapped.get("pkg.keys.Model") is Resolution.INFERRED  # a class passed: calling the parameter makes one
    assert wrapped.get("pkg.app.compute") is Resolution.INFERRED  # `func(*args)`: the function passed by place
    assert "pkg.keys.key" not in wrapped and "pkg.keys.callback" not in wrapped  # the parameter's name guesses nothing
    assert later.get("pkg.keys.callback") is Resolution.NAME  # nothing passed: the name's guess, as before
    assert "pkg.keys.hashkey" not in cached  # `cached` passes `key` on, it does not call it
    assert first == {("function:p:pkg.app.compute", Resolution.INFERRED)}  # handed to `filter`, which calls it
    # walked back, the wrapper runs what it is given, and reaches a caller only through that caller's own reference:
    # `main` passes `typedkey`, `plain` passes nothing, so it runs the default `cached` references
    assert typed["function:p:pkg.wrappers._wrapped"].hops == 1 and MAIN in typed
    assert "function:p:pkg.app.plain" not in typed
    passing = {"function:p:pkg.wrappers.wrap", "function:p:pkg.api.cached"}  # (they hand `key` on: reached, no further)
    picked = "function:p:pkg.app.picked"  # it gives a variable the function it passes
    assert typed.keys() - passing == {"function:p:pkg.keys.typedkey", "function:p:pkg.wrappers._wrapped", MAIN, picked}
    assert {"function:p:pkg.api.cached", "function:p:pkg.app.plain", "function:p:pkg.app.main"} <= hashed.keys()
    # a caller passing on what another call returned would not be listed: never `complete` through such a stop
    assert verdict.status == "lower_bound" and "given_values" in {r.kind for r in verdict.reasons}


def test_when_the_callers_pass_another_function_the_parameters_call_binds_again(tmp_path: Path) -> None:
    changed = CALLERS.replace("key=typedkey", "key=hash").replace("Model, typedkey", "Model")
    before, report, (wrapped,) = _app_changed(tmp_path, HELD_FILES, changed, "pkg.wrappers._wrapped")
    assert "pkg.keys.typedkey" in before
    assert report.indexed == 1 and report.rebound >= 1  # wrappers.py bound again, not indexed again
    assert "pkg.keys.typedkey" not in wrapped  # no caller passes it now (the builtin `hash` is no project's)
    assert wrapped.get("pkg.keys.hashkey") is Resolution.INFERRED
    assert wrapped.get("pkg.keys.Model") is Resolution.INFERRED


RECIPES = (
    "from itertools import islice\n\n\n"
    "def take(n, iterable):\n"
    "    return list(islice(iterable, n))\n\n\n"
    "def first(iterable, default=None):\n"
    "    return next(iter(iterable), default)\n\n\n"
    "def drain(iterable):\n"
    "    for _ in iterable:\n"
    "        pass\n\n\n"
    "def joined(parts):\n"
    "    return ', '.join(parts)\n"
)
MORE = (
    "from pkg.recipes import drain, first, joined, take\n\n\n"
    "def repeat_last(values):\n"
    "    for value in values:\n"
    "        yield value\n\n\n"
    "def count_up(n):\n"
    "    yield from range(n)\n\n\n"
    "def unrelated():\n"
    "    yield 1\n\n\n"
    "class Stream:\n"
    "    def __iter__(self):\n"
    "        return self\n\n"
    "    def __next__(self):\n"
    "        raise StopIteration\n\n\n"
    "class Bar:\n"
    "    def __iter__(self):\n"
    "        return self.steps()\n\n"
    "    def steps(self):\n"
    "        yield 1\n\n"
    "    def __next__(self):\n"
    "        return next(iter(self))\n\n\n"
    "def chunks(items):\n"
    "    return take(2, repeat_last(items))\n\n\n"
    "def head(n):\n"
    "    return first(count_up(n))\n\n\n"
    "def relay(iterable):\n"
    "    return drain(iterable)\n\n\n"
    "def main():\n"
    "    joined(unrelated())\n"
    "    relay(count_up(3))\n"
    "    take(1, Stream())\n"
    "    take(2, [1, 2, 3])\n"
)
USES = (
    "import pkg.more as mi\n"
    "from pkg.recipes import first, take\n\n\n"
    "def test_take():\n"
    "    assert take(2, mi.repeat_last([1]))\n\n\n"
    "def test_first():\n"
    "    assert first(mi.odds(4)) == 1\n"
    "    assert take(1, mi.later_odds(4))\n"
    "    assert take(1, mi.listed(2))\n"
)
MORE_ODDS = (
    "\n\ndef odds(n):\n"
    "    yield from range(1, n, 2)\n\n\n"
    "def later_odds(n):\n"
    "    return odds(n)\n\n\n"
    "def listed(n):\n"
    "    return [n]\n"
)
ODDS, REPEAT_LAST = "function:p:pkg.more.odds", "function:p:pkg.more.repeat_last"
GENERATOR_FILES = {
    "pkg/__init__.py": "",
    "pkg/recipes.py": RECIPES,
    "pkg/more.py": MORE + MORE_ODDS,
    "tests/test_uses.py": USES,
}


def test_a_generator_passed_to_another_files_function_runs_its_body_where_that_function_consumes_it(
    tmp_path: Path,
) -> None:
    """more-itertools' `take(n, repeat_last(x))`: `take` (another module) runs `repeat_last`'s body as it consumes
    `islice(iterable, n)`; so do `next(iter(it), default)` and a `for` over a generator passed on through a caller's
    own parameter. A test module's call passing a generator of a third module counts (`mi.later_odds(4)` returns
    `odds(n)`'s generator: that body runs). An instance passed is iterated through `islice` too."""
    catalog = indexed_projects(tmp_path, {"p": GENERATOR_FILES}, ("p",))
    try:
        take, first = _called(catalog, "pkg.recipes.take"), _called(catalog, "pkg.recipes.first")
        drain, joined = _called(catalog, "pkg.recipes.drain"), _called(catalog, "pkg.recipes.joined")
        bar_next = _called(catalog, "pkg.more.Bar.__next__")
        views = GenerationViews(RetrievalSettings())
        walk = walk_callers(views.relations(catalog), [ODDS], 3, Resolution.NAME)
        unmade = explain_path(Reader(catalog, views), "function:p:pkg.more.main", ODDS, max_hops=4)
        made = explain_path(Reader(catalog, views), "function:p:pkg.more.chunks", REPEAT_LAST, max_hops=4)
    finally:
        catalog.close()
    assert take.get("pkg.more.repeat_last") is Resolution.INFERRED  # consumed through `islice`
    assert first.get("pkg.more.count_up") is Resolution.INFERRED  # `next(iter(iterable), default)`
    assert first.get("pkg.more.odds") is Resolution.INFERRED  # passed from a test module
    assert take.get("pkg.more.odds") is Resolution.INFERRED  # ... as what `later_odds` returns
    assert drain.get("pkg.more.count_up") is Resolution.INFERRED  # passed on through `relay`'s parameter
    assert joined == {"pkg.more.unrelated": Resolution.INFERRED}  # `", ".join(parts)` consumes it
    assert take.get("pkg.more.Stream.__next__") is Resolution.INFERRED  # an instance's iteration, through `islice`
    assert "pkg.more.count_up" not in take and "pkg.more.unrelated" not in take  # never passed to `take`
    assert "pkg.more.listed" not in take and "pkg.more.later_odds" not in take  # no generator function's body
    # walked back from `odds`: `take` runs it, but reaches it from a caller only where that caller made it (the test
    # calling `later_odds`); `main` passes `take` a Stream and a list, and reaches `odds` through no call
    assert {"function:p:pkg.recipes.take", "function:p:tests.test_uses.test_first"} <= walk.reached.keys()
    assert walk.reached["function:p:pkg.recipes.take"].hops == 1
    assert "function:p:pkg.more.main" not in walk.reached
    # a chain through `take` into a generator's body only after the call that made the generator
    assert not any(p.call_chain for p in unmade.paths)
    assert [h.target for h in made.paths[0].hops] == [REPEAT_LAST]  # `chunks` calls it, and `take` runs its body:
    assert ["function:p:pkg.recipes.take", REPEAT_LAST] in [[h.target for h in p.hops] for p in made.paths]
    # `next(iter(self))`: `__iter__` runs and returns another iterator, whose `__next__` runs (not this one's)
    assert bar_next.get("pkg.more.Bar.__iter__") is Resolution.EXACT and "pkg.more.Bar.__next__" not in bar_next
    assert "pkg.more.repeat_last" not in first and "pkg.more.repeat_last" not in drain


# sqlparse's shape: a splitter's generator yields statements (no annotation says so), a stack passes each to
# `grouping.group`, which hands it to every grouping function of a list it loops over
PIPELINE = {
    "sq/__init__.py": "",
    "sq/sql.py": (
        "class TokenList:\n"
        "    def token_next(self):\n"
        "        return 1\n\n\n"
        "class Statement(TokenList):\n"
        "    pass\n\n\n"
        "class Other:\n"
        "    def token_next(self):\n"
        "        return 2\n"
    ),
    "sq/splitter.py": (
        "from sq import sql\n\n\n"
        "class Splitter:\n"
        "    def process(self, stream):\n"
        "        for text in stream:\n"
        "            yield sql.Statement()\n\n"
        "    def delegate(self, stream):\n"
        "        yield from self.process(stream)\n"
    ),
    "sq/grouping.py": (
        "def group_where(tlist):\n"
        "    tlist.token_next()\n\n\n"
        "def group_case(tlist):\n"
        "    tlist.token_next()\n\n\n"
        "def group(stmt):\n"
        "    for func in [\n"
        "        group_where,  # first\n"
        "        group_case,\n"
        "    ]:\n"
        "        func(stmt)\n"
        "    return stmt\n"
    ),
    "sq/stack.py": (
        "from sq import grouping\n"
        "from sq.splitter import Splitter\n\n\n"
        "class Stack:\n"
        "    def run(self, sql):\n"
        "        for stmt in Splitter().process(sql):\n"
        "            yield grouping.group(stmt)\n"
    ),
}


def test_what_a_generator_yields_passed_on_through_a_loop_over_functions_types_their_parameters(
    tmp_path: Path,
) -> None:
    catalog = indexed_projects(tmp_path, {"sq": PIPELINE}, ("sq",))
    try:
        where, case = _called(catalog, "sq.grouping.group_where"), _called(catalog, "sq.grouping.group_case")
        group = _called(catalog, "sq.grouping.group")
    finally:
        catalog.close()
    assert group == {"sq.grouping.group_where": Resolution.INFERRED, "sq.grouping.group_case": Resolution.INFERRED}
    # each element the generator yields is a Statement: its inherited method, not the unrelated class's
    assert where.get("sq.sql.TokenList.token_next") is Resolution.INFERRED
    assert case.get("sq.sql.TokenList.token_next") is Resolution.INFERRED
    assert "sq.sql.Other.token_next" not in where and "sq.sql.Other.token_next" not in case


REGISTRY = {
    "md/__init__.py": "",
    "md/core.py": (
        "class Parser:\n"
        "    def __init__(self):\n"
        "        self._methods = {}\n\n"
        "    def register(self, name, func):\n"
        "        self._methods[name] = lambda m, state: func(self, m, state)\n\n"
        "    def parse_method(self, m, state):\n"
        "        func = self._methods[m.lastgroup]\n"
        "        return func(m, state)\n\n\n"
        "class Renderer:\n"
        "    def __init__(self):\n"
        "        self.__methods = {}\n\n"
        "    def register(self, name, method):\n"
        "        self.__methods[name] = method\n\n"
        "    def render(self, name, token):\n"
        "        return self.__methods[name](token)\n\n\n"
        "class Compose:\n"
        "    def __init__(self, funcs):\n"
        "        self.funcs = funcs\n\n"
        "    def __call__(self, value):\n"
        "        return value\n\n\n"
        "def compose(*funcs):\n"
        "    if not funcs:\n"
        "        return None\n"
        "    return Compose(funcs)\n"
    ),
    "md/plugin.py": (
        "from md.core import Parser, Renderer, compose\n\n\n"
        "def parse_abbr(parser, m, state):\n"
        "    return m\n\n\n"
        "def render_abbr(renderer, text):\n"
        "    return text\n\n\n"
        "def unused(text):\n"
        "    return text\n\n\n"
        "def abbr(parser: Parser, renderer: Renderer):\n"
        "    parser.register('abbr', parse_abbr)\n"
        "    renderer.register('abbr', render_abbr)\n"
        "    return compose(unused)('x')\n"
    ),
}


def test_a_table_a_method_fills_with_what_its_callers_register_calls_each_and_a_returned_instance_is_called(
    tmp_path: Path,
) -> None:
    # mistune's rule and renderer registries: `self._methods[name] = lambda m, state: func(self, m, state)`
    catalog = indexed_projects(tmp_path, {"md": REGISTRY}, ("md",))
    try:
        parse, render = _called(catalog, "md.core.Parser.parse_method"), _called(catalog, "md.core.Renderer.render")
        abbr = _called(catalog, "md.plugin.abbr")
    finally:
        catalog.close()
    assert parse == {"md.plugin.parse_abbr": Resolution.DISPATCH}
    assert render == {"md.plugin.render_abbr": Resolution.DISPATCH}
    assert abbr.get("md.core.Compose.__call__") is Resolution.INFERRED  # `compose(unused)('x')`


# pathspec's shape: a parameter annotated only as callable (`Union[str, Callable[[str], Pattern]]`) runs what callers
# in other files pass it, a class or a function, `super().from_lines(...)` included
CALLBACKS = {
    "ps/__init__.py": "",
    "ps/pattern.py": (
        "class RegexPattern:\n"
        "    def __init__(self, text):\n"
        "        self.text = text\n\n\n"
        "class GitWildMatchPattern(RegexPattern):\n"
        "    pass\n\n\n"
        "def shout(text):\n"
        "    return text\n\n\n"
        "def whisper(text):\n"
        "    return text\n"
    ),
    "ps/spec.py": (
        "from typing import Callable, Optional, Union\n\n"
        "from ps.pattern import RegexPattern\n\n\n"
        "class PathSpec:\n"
        "    @classmethod\n"
        "    def from_lines(cls, pattern_factory: Union[str, Callable[[str], RegexPattern]], lines):\n"
        "        return [pattern_factory(line) for line in lines]\n\n"
        "    def each(self, hook: Optional[Callable[..., str]] = None):\n"
        "        return hook('x')\n\n"
        "    def typed(self, pattern: RegexPattern):\n"
        "        return pattern.text\n"
    ),
    "ps/gitignore.py": (
        "from ps.pattern import GitWildMatchPattern, shout\n"
        "from ps.spec import PathSpec\n\n\n"
        "class GitIgnoreSpec(PathSpec):\n"
        "    @classmethod\n"
        "    def from_lines(cls, lines):\n"
        "        return super().from_lines(GitWildMatchPattern, lines)\n\n\n"
        "def use(spec: PathSpec):\n"
        "    spec.each(hook=shout)\n"
    ),
}


def test_a_parameter_annotated_only_as_callable_runs_what_callers_in_other_files_pass_it(tmp_path: Path) -> None:
    catalog = indexed_projects(tmp_path, {"ps": CALLBACKS}, ("ps",))
    try:
        from_lines, each = _called(catalog, "ps.spec.PathSpec.from_lines"), _called(catalog, "ps.spec.PathSpec.each")
    finally:
        catalog.close()
    assert from_lines.get("ps.pattern.GitWildMatchPattern") is Resolution.INFERRED  # the class `super()` passes
    assert each == {"ps.pattern.shout": Resolution.INFERRED}  # by keyword; `whisper` is passed by no one


# mako's shape: a node's `accept_visitor(visitor)` looks a method up on the visitor by a built name, and the visitors
# its callers in another file pass (`node.accept_visitor(self)`) share no base
VISITORS = {
    "mk/__init__.py": "",
    "mk/parsetree.py": (
        "class Node:\n"
        "    def accept_visitor(self, visitor):\n"
        "        method = getattr(visitor, 'visit' + self.__class__.__name__, None)\n"
        "        method(self)\n\n\n"
        "class Text(Node):\n"
        "    pass\n"
    ),
    "mk/codegen.py": (
        "from mk.parsetree import Node\n\n\n"
        "class Generator:\n"
        "    def render(self, node: Node):\n"
        "        node.accept_visitor(self)\n\n"
        "    def visitText(self, node):\n"
        "        return 1\n\n"
        "    def helper(self):\n"
        "        return 2\n\n\n"
        "class FindTop:\n"
        "    def find(self, node: Node):\n"
        "        node.accept_visitor(self)\n\n"
        "    def visitCode(self, node):\n"
        "        return 3\n"
    ),
}


def test_a_method_looked_up_by_a_built_name_on_a_parameter_is_each_so_named_of_the_classes_callers_pass(
    tmp_path: Path,
) -> None:
    catalog = indexed_projects(tmp_path, {"mk": VISITORS}, ("mk",))
    try:
        accept = _called(catalog, "mk.parsetree.Node.accept_visitor")
    finally:
        catalog.close()
    assert accept == {
        "mk.codegen.Generator.visitText": Resolution.DISPATCH,
        "mk.codegen.FindTop.visitCode": Resolution.DISPATCH,
    }
