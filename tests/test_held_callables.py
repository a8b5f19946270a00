"""Calls through values the code states: a variable or attribute holding a class (`cls = Option`, `cls: type[Option]`,
`context_class = Context`, `type(self)(...)`, `cast(..., Command)`) constructs it; an instance called like a function
runs its `__call__`; a generic annotation (`ParamType[Any]`, `Base[T]`) types what it annotates; a member of a typed
value read in another file is how control reaches it. The shapes are those of a real CLI library (click's decorators,
`Command.make_context`, `Parameter.type_cast_value`), written small, indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.projects import edges_named, indexed_projects, project_calls, project_edges
from trident.retrieval.reader import Reader
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.impact import impact

FILES: dict[str, str] = {
    "cli/__init__.py": "from .core import Command, Context, Option\nfrom .decorators import command, option\n",
    "cli/types.py": (
        "import typing as t\n\n\n"
        "class ParamType(t.Generic[t.Any]):\n"
        "    def __call__(self, value):\n"
        "        return self.convert(value)\n\n"
        "    def convert(self, value):\n"
        "        return value\n\n\n"
        "class IntType(ParamType[int]):\n"
        "    def convert(self, value):\n"
        "        return int(value)\n\n\n"
        "class Plain:\n"
        "    def convert(self, value):\n"
        "        return value\n\n\n"
        "def convert_type(kind) -> ParamType:\n"
        "    return IntType() if kind is int else ParamType()\n"
    ),
    "cli/core.py": (
        "import typing as t\n\n"
        "from . import types\n\n\n"
        "class Context:\n"
        "    def __init__(self, command):\n"
        "        self.command = command\n\n"
        "    def child(self):\n"
        "        return type(self)(self.command)\n\n"
        "    @property\n"
        "    def depth(self):\n"
        "        return 1\n\n\n"
        "class Command:\n"
        "    context_class: type[Context] = Context\n\n"
        "    def __init__(self, name):\n"
        "        self.name = name\n\n"
        "    def make_context(self):\n"
        "        return self.context_class(self)\n\n"
        "    def depth_of(self, ctx: Context):\n"
        "        return getattr(ctx, 'depth', 0) + len(getattr(ctx, 'missing', ''))\n\n\n"
        "class Option:\n"
        "    def __init__(self, decls):\n"
        "        self.type: types.ParamType[t.Any] = types.ParamType()\n\n"
        "    def cast(self, value):\n"
        "        return self.type(value)\n"
    ),
    "cli/decorators.py": (
        "import typing as t\n\n"
        "from .core import Command, Option\n\n\n"
        "def command(name, cls: type[Command] | None = None):\n"
        "    if cls is None:\n"
        "        cls = t.cast('type[Command]', Command)\n"
        "    return cls(name)\n\n\n"
        "def option(decls, cls=None):\n"
        "    if cls is None:\n"
        "        cls = Option\n"
        "    return cls(decls)\n\n\n"
        "def prompt(value):\n"
        "    plain = Plain()\n"
        "    plain(value)  # no __call__: no edge\n"
        "    convert = ParamType()\n"
        "    return convert(value)\n\n\n"
        "from .types import ParamType, Plain\n"
    ),
    "cli/report.py": (
        "from .core import Command, Context\n\n\n"
        "def depth_of(context: Context, command: Command):\n"
        "    command.make_context()\n"
        "    return context.depth\n"
    ),
    "cli/visitor.py": (
        "class NodeVisitor:\n"
        "    def get_visitor(self, node):\n"
        '        return getattr(self, f"visit_{type(node).__name__}", None)\n\n'
        "    def visit(self, node):\n"
        "        f = self.get_visitor(node)\n"
        "        return f(node) if f is not None else None\n"
    ),
    "cli/render.py": (
        "from .visitor import NodeVisitor\n\n\n"
        "class Renderer(NodeVisitor):\n"
        "    def visit_Name(self, node):\n"
        "        return node\n\n"
        "    def visit_Const(self, node):\n"
        "        return node\n\n"
        "    def render(self, node):\n"
        "        return self.visit(node)\n\n\n"
        "class Unrelated:\n"
        "    def visit_Name(self, node):\n"
        "        return node\n"
    ),
    "cli/errors.py": (
        "class UsageError(Exception):\n"
        "    def __init__(self, message):\n"
        "        super().__init__(message)\n"
        "        self.message = message\n\n\n"
        "class NoSuchOption(UsageError):\n"
        "    def __init__(self, name):\n"
        "        super().__init__(f'no such option: {name}')\n\n\n"
        "class BadParameter(UsageError):\n"
        "    def __init__(self, message, param=None):\n"
        "        UsageError.__init__(self, message)\n"
        "        self.param = param\n"
    ),
    "cli/parser.py": (
        "class Parser:\n"
        "    def parse(self, kind):\n"
        '        return getattr(self, "parse_" + kind)()\n\n'
        "    def parse_if(self):\n"
        "        return 1\n\n"
        "    def parse_for(self):\n"
        "        return 2\n"
    ),
    # a module-level name holding what a closure factory returns (click's `_default_text_stdout =
    # _make_cached_stream_func(...)`), one holding a function, and one a function rebinds (`global`)
    "cli/streams.py": (
        "import sys\n\n\n"
        "def get_stdout():\n    return sys.stdout\n\n\n"
        "def get_stderr():\n    return sys.stderr\n\n\n"
        "def _cached(wrapper):\n"
        "    cache = {}\n\n"
        "    def func():\n"
        "        if 's' not in cache:\n"
        "            cache['s'] = wrapper()\n"
        "        return cache['s']\n\n"
        "    return func\n\n\n"
        "default_stdout = _cached(get_stdout)\n"
        "plain = get_stdout\n"
        "current = get_stdout\n\n\n"
        "def echo(message):\n    default_stdout().write(message)\n    plain().flush()\n\n\n"
        "def shadowed(default_stdout):\n    return default_stdout()\n\n\n"
        "def looped(streams):\n    for plain in streams:\n        plain()\n\n\n"
        # a factory of a decorated nested definition gives what the decorator made of it, no closure of its own
        "def registered():\n    @staticmethod\n    def run():\n        return 1\n\n    return run\n\n\n"
        "def use_registered():\n    made = registered()\n    return made.run()\n\n\n"
        "def redirect():\n    global current\n    current = get_stderr\n\n\n"
        "def write(message):\n    current().write(message)\n"
    ),
    "cli/output.py": (
        "from .streams import default_stdout, plain\n\n\n"
        "def show(message):\n    default_stdout().flush()\n    plain().flush()\n"
    ),
    # a union of one class and builtin values, named once (rich's `TextType = Union[str, "Text"]`) and written for
    # the class in another file's annotations
    "cli/text.py": (
        "from typing import Union\n\n"
        "TextType = Union[str, 'Text']\n\n\n"
        "class Text:\n    def copy(self):\n        return self\n"
    ),
    "cli/panel.py": (
        "from typing import Optional\n\n"
        "from .text import TextType\n\n\n"
        "class Panel:\n"
        "    def __init__(self, title: Optional[TextType] = None):\n        self.title = title\n\n"
        "    def heading(self):\n        return self.title if isinstance(self.title, str) else self.title.copy()\n\n\n"
        "def either(a: Union[str, int], b: 'Text | None' = None):\n    return a.copy()\n"
    ),
    # `*columns: Union[str, Column]` gathers Columns (rich's Progress): the attribute keeping them (`columns or
    # defaults`) holds Columns, and calling one runs its `__call__`
    "cli/progress.py": (
        "from typing import Union\n\n\n"
        "class Column:\n    def __call__(self, task):\n        return task\n\n\n"
        "class Progress:\n"
        "    def __init__(self, *columns: Union[str, Column]):\n        self.columns = columns or ()\n\n"
        "    def table(self, task):\n"
        "        return [c if isinstance(c, str) else c(task) for c in self.columns]\n"
    ),
    "tests/test_cli.py": (
        "from cli.decorators import command\n\n\n"
        "def test_command_makes_a_context():\n"
        "    cmd = command('go')\n"
        "    assert cmd.make_context() is not None\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("held"), {"cli": FILES}, ("cli",))
    yield cat
    cat.close()


def test_a_variable_holding_a_class_constructs_it_when_called(catalog: Catalog, views: GenerationViews) -> None:
    # `cls: type[Command] | None`, then `cls = cast('type[Command]', Command)`, then `cls(name)`
    made = edges_named(catalog, views, "function:cli:cli.decorators.command", relation_types=["CALLS"])
    assert made[("CALLS", "cli.core.Command")] == "inferred"
    assert made[("CALLS", "cli.core.Command.__init__")] == "inferred"
    assert not any("cast" in target for _, target in made)  # the cast is no call of the project's
    # an untyped parameter given a class in a branch (`cls = Option`)
    opted = edges_named(catalog, views, "function:cli:cli.decorators.option", relation_types=["CALLS"])
    assert opted[("CALLS", "cli.core.Option.__init__")] == "inferred"


def test_a_class_attribute_holding_a_class_and_the_class_of_self_construct_it(
    catalog: Catalog, views: GenerationViews
) -> None:
    made = edges_named(catalog, views, "method:cli:cli.core.Command.make_context", relation_types=["CALLS"])
    assert made[("CALLS", "cli.core.Context.__init__")] == "inferred"
    child = edges_named(catalog, views, "method:cli:cli.core.Context.child", relation_types=["CALLS"])
    assert child[("CALLS", "cli.core.Context.__init__")] == "inferred"


def test_an_instance_called_like_a_function_runs_its_call_method_only_when_it_has_one(
    catalog: Catalog, views: GenerationViews
) -> None:
    call = "cli.types.ParamType.__call__"
    # `self.type: types.ParamType[t.Any]`, a generic annotation, then `self.type(value)`
    assert edges_named(catalog, views, "method:cli:cli.core.Option.cast", relation_types=["CALLS"]) == {
        ("CALLS", call): "inferred"
    }
    prompted = edges_named(catalog, views, "function:cli:cli.decorators.prompt", relation_types=["CALLS"])
    assert prompted[("CALLS", call)] == "inferred"
    assert not any(target.startswith("cli.types.Plain.") for _, target in prompted)  # Plain has no __call__


def test_a_generic_base_is_a_base_and_its_overrides_are_dispatched_to(catalog: Catalog, views: GenerationViews) -> None:
    bases = edges_named(catalog, views, "class:cli:cli.types.IntType", relation_types=["INHERITS"])
    assert bases == {("INHERITS", "cli.types.ParamType"): "exact"}
    called = edges_named(catalog, views, "method:cli:cli.types.ParamType.__call__", relation_types=["CALLS"])
    assert called[("CALLS", "cli.types.IntType.convert")] == "dispatch"


def test_a_property_of_a_class_of_another_file_is_reached_from_where_it_is_read(
    catalog: Catalog, views: GenerationViews
) -> None:
    read = edges_named(catalog, views, "function:cli:cli.report.depth_of", relation_types=["CALLS", "REFERENCES"])
    assert read[("CALLS", "cli.core.Context.depth")] == "inferred"  # (the read runs the getter)
    assert ("REFERENCES", "cli.core.Context.depth") not in read
    assert read[("CALLS", "cli.core.Command.make_context")] == "inferred"


def test_a_property_read_through_getattr_with_its_name_written_runs_its_getter(
    catalog: Catalog, views: GenerationViews
) -> None:
    read = edges_named(catalog, views, "method:cli:cli.core.Command.depth_of", relation_types=["CALLS", "REFERENCES"])
    assert read == {("CALLS", "cli.core.Context.depth"): "inferred"}  # `missing` is no member: nothing guessed


def test_impact_finds_the_test_that_reaches_a_constructor_through_a_held_class(catalog: Catalog) -> None:
    answer = impact(Reader.open(catalog), entities=["Context.__init__"])
    assert [t.name for t in answer.tests] == ["test_command_makes_a_context"]


def test_a_method_looked_up_by_a_built_name_reaches_the_methods_so_named_in_derived_classes(
    catalog: Catalog, views: GenerationViews
) -> None:
    looked_up = edges_named(
        catalog, views, "method:cli:cli.visitor.NodeVisitor.get_visitor", relation_types=["REFERENCES"]
    )
    assert looked_up == {
        ("REFERENCES", "cli.render.Renderer.visit_Const"): "dispatch",
        ("REFERENCES", "cli.render.Renderer.visit_Name"): "dispatch",
    }  # not the `visit_Name` of a class that is no visitor
    answer = impact(Reader.open(catalog), entities=["Renderer.visit_Name"], max_hops=3)
    reached = {c.id: (c.hops, c.resolution.value) for c in answer.callers}
    # render -> visit (its base's), which calls the visit_Name that get_visitor looks up
    assert reached["method:cli:cli.render.Renderer.render"] == (2, "dispatch")
    assert reached["method:cli:cli.visitor.NodeVisitor.get_visitor"] == (1, "dispatch")


def test_calling_what_a_built_name_lookup_gave_calls_the_methods_so_named(
    catalog: Catalog, views: GenerationViews
) -> None:
    # `f = self.get_visitor(node)` (a method returning `getattr(self, f"visit_{...}", None)`), then `f(node)`
    visited = edges_named(catalog, views, "method:cli:cli.visitor.NodeVisitor.visit", relation_types=["CALLS"])
    assert visited == {
        ("CALLS", "cli.visitor.NodeVisitor.get_visitor"): "exact",
        ("CALLS", "cli.render.Renderer.visit_Const"): "dispatch",
        ("CALLS", "cli.render.Renderer.visit_Name"): "dispatch",
    }  # not the `visit_Name` of a class that is no visitor
    # `getattr(self, "parse_" + kind)()`: the lookup called where it is made
    assert edges_named(catalog, views, "method:cli:cli.parser.Parser.parse", relation_types=["CALLS"]) == {
        ("CALLS", "cli.parser.Parser.parse_for"): "dispatch",
        ("CALLS", "cli.parser.Parser.parse_if"): "dispatch",
    }


def test_a_base_initialiser_call_runs_the_base_s_own_not_its_subclasses(
    catalog: Catalog, views: GenerationViews
) -> None:
    # `super().__init__(...)` and `UsageError.__init__(self, ...)` run UsageError's, never a sibling class's
    for subclass in ("NoSuchOption", "BadParameter"):
        made = edges_named(catalog, views, f"method:cli:cli.errors.{subclass}.__init__", relation_types=["CALLS"])
        assert made == {("CALLS", "cli.errors.UsageError.__init__"): "exact"}


def test_a_module_level_name_holding_a_function_or_a_closure_calls_it(catalog: Catalog, views: GenerationViews) -> None:
    echo = edges_named(catalog, views, "function:cli:cli.streams.echo", relation_types=["CALLS"])
    # the closure `_cached` returns is its own code: calling what it gave calls `_cached`, which calls `get_stdout`
    assert echo[("CALLS", "cli.streams._cached")] == "inferred"
    assert echo[("CALLS", "cli.streams.get_stdout")] == "inferred"
    cached = edges_named(catalog, views, "function:cli:cli.streams._cached", relation_types=["CALLS"])
    assert ("CALLS", "cli.streams.get_stdout") in cached
    # a parameter of the same name is not the module's; a name a function rebinds holds no one function
    assert not edges_named(catalog, views, "function:cli:cli.streams.shadowed", relation_types=["CALLS"])
    assert not edges_named(catalog, views, "function:cli:cli.streams.looped", relation_types=["CALLS"])
    used = edges_named(catalog, views, "function:cli:cli.streams.use_registered", relation_types=["CALLS"])
    assert set(used) == {("CALLS", "cli.streams.registered")}
    assert not edges_named(catalog, views, "function:cli:cli.streams.write", relation_types=["CALLS"])


def test_a_module_level_name_imported_into_another_file_calls_what_it_holds(
    catalog: Catalog, views: GenerationViews
) -> None:
    # `from .streams import default_stdout`: the name holds `_cached`'s closure (inferred, as in its own file)
    show = edges_named(catalog, views, "function:cli:cli.output.show", relation_types=["CALLS"])
    assert show == {("CALLS", "cli.streams._cached"): "inferred", ("CALLS", "cli.streams.get_stdout"): "inferred"}


def test_a_union_of_one_class_and_builtin_values_types_as_that_class_through_its_alias(
    catalog: Catalog, views: GenerationViews
) -> None:
    heading = edges_named(catalog, views, "method:cli:cli.panel.Panel.heading", relation_types=["CALLS"])
    assert heading[("CALLS", "cli.text.Text.copy")] == "inferred"
    # a union of builtin values only names no class
    assert not edges_named(catalog, views, "function:cli:cli.panel.either", relation_types=["CALLS"])


def test_what_varargs_gather_types_the_attribute_keeping_them(catalog: Catalog, views: GenerationViews) -> None:
    table = edges_named(catalog, views, "method:cli:cli.progress.Progress.table", relation_types=["CALLS"])
    assert table[("CALLS", "cli.progress.Column.__call__")] == "inferred"


REPORTING = {
    "run/errors.py": (
        "class Failure(Exception):\n"
        "    def show(self) -> None:\n"
        "        pass\n\n"
        "    def __str__(self) -> str:\n"
        "        return 'failure'\n\n\n"
        "class Quiet:\n"
        "    def show(self) -> None:\n"
        "        pass\n"
    ),
    "run/main.py": (
        "from .errors import Failure\n\n\n"
        "class Abort(Exception):\n"
        "    pass\n\n\n"
        "def _echo_aborted() -> None:\n"
        "    pass\n\n\n"
        "def main(work) -> None:\n"
        "    report = None\n"
        "    try:\n"
        "        work()\n"
        "    except Abort:\n"
        "        report = _echo_aborted\n"
        "    except Failure as e:\n"
        "        print(str(e))\n"
        "        report = e.show\n"
        "    if report is not None:\n"
        "        report()\n"
    ),
}


def test_a_variable_given_different_functions_by_branches_calls_each_and_an_except_names_its_class(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # click's `Command.main`: `report = _echo_aborted` in one handler, `report = e.show` in another (e is the caught
    # Failure, of another file); after the `try`, `report()` may run either, and `str(e)` runs Failure's `__str__`
    main = "function:run:run.main.main"
    calls = project_edges(tmp_path_factory.mktemp("reporting"), "run", REPORTING, [main])[main]
    called = {target for (kind, target), _ in calls.items() if kind == "CALLS"}
    assert {"run.main._echo_aborted", "run.errors.Failure.show", "run.errors.Failure.__str__"} <= called
    assert "run.errors.Quiet.show" not in called


PARTIAL = {
    "jobs/run.py": (
        "import functools\n"
        "from functools import partial\n\n\n"
        "def work(a, b):\n"
        "    return a + b\n\n\n"
        "def rest(a):\n"
        "    return a\n\n\n"
        "def main():\n"
        "    f = partial(work, 1)\n"
        "    g = functools.partial(rest)\n"
        "    return f(2), g(3)\n"
    ),
}


def test_calling_a_partial_calls_the_function_it_was_made_of(tmp_path_factory: pytest.TempPathFactory) -> None:
    main = "function:jobs:jobs.run.main"
    calls = project_edges(tmp_path_factory.mktemp("partial"), "jobs", PARTIAL, [main])[main]
    assert calls[("CALLS", "jobs.run.work")] == calls[("CALLS", "jobs.run.rest")] == "inferred"


ROUTES = {
    "web/server.py": (
        "def on_get(req):\n"
        "    return req\n\n\n"
        "def on_put(req):\n"
        "    return req\n\n\n"
        "HANDLERS = {'get': on_get, 'put': on_put}\n\n\n"
        "class Server:\n"
        "    def __init__(self) -> None:\n"
        "        self.routes = {'get': self.do_get, 'put': self.do_put}\n"
        "        self.handlers = HANDLERS.copy()\n\n"
        "    def do_get(self, req):\n"
        "        return req\n\n"
        "    def do_put(self, req):\n"
        "        return req\n\n"
        "    def serve(self, kind, req):\n"
        "        return self.routes[kind](req)\n\n"
        "    def serve_get(self, req):\n"
        "        return self.routes['get'](req)\n\n"
        "    def handle(self, kind, req):\n"
        "        return self.handlers.get(kind)(req)\n"
    ),
}


def test_a_table_an_attribute_holds_calls_its_functions(tmp_path_factory: pytest.TempPathFactory) -> None:
    # a dispatch dict made in `__init__` of bound methods, or a copy of the module's table: a computed key reaches
    # every value (`dispatch`), a written one the value it holds
    server = "method:web:web.server.Server.{}".format
    names = ("serve", "serve_get", "handle")
    found = project_edges(
        tmp_path_factory.mktemp("routes"), "web", ROUTES, [server(n) for n in names], relation_types=["CALLS"]
    )
    calls = {name: found[server(name)] for name in names}
    method = "web.server.Server.do_{}".format
    assert calls["serve"] == {("CALLS", method("get")): "dispatch", ("CALLS", method("put")): "dispatch"}
    assert calls["serve_get"] == {("CALLS", method("get")): "inferred"}
    assert calls["handle"] == {("CALLS", "web.server.on_get"): "dispatch", ("CALLS", "web.server.on_put"): "dispatch"}


# jinja2's shape: a module's table of filters, re-exported by another module under another name, copied into an
# attribute of the environment, picked by a computed name in a method of its class and in another file's class
TEMPLATES = {
    "tpl/__init__.py": "",
    "tpl/filters.py": (
        "def do_upper(s):\n    return s.upper()\n\n\n"
        "def do_lower(s):\n    return s.lower()\n\n\n"
        "FILTERS = {'upper': do_upper, 'lower': do_lower, 'abs': abs}\n"
    ),
    "tpl/tests.py": "def test_odd(v):\n    return v % 2 == 1\n\n\nTESTS = {'odd': test_odd}\n",
    "tpl/defaults.py": (
        "from .filters import FILTERS as DEFAULT_FILTERS  # noqa: F401\n"
        "from .tests import TESTS as DEFAULT_TESTS  # noqa: F401\n"
    ),
    "tpl/environment.py": (
        "from .defaults import DEFAULT_FILTERS, DEFAULT_TESTS\n\n\n"
        "class Environment:\n"
        "    def __init__(self):\n"
        "        self.filters = DEFAULT_FILTERS.copy()\n"
        "        self.tests = DEFAULT_TESTS.copy()\n\n"
        "    def call(self, name, value, is_filter):\n"
        "        if is_filter:\n"
        "            env_map = self.filters\n"
        "        else:\n"
        "            env_map = self.tests\n"
        "        func = env_map.get(name)\n"
        "        return func(value)\n\n"
        "    def upper(self, value):\n"
        "        return self.filters['upper'](value)\n"
    ),
    "tpl/nodes.py": (
        "import typing as t\n\n"
        "if t.TYPE_CHECKING:\n"
        "    from .environment import Environment\n\n\n"
        "class EvalContext:\n"
        "    def __init__(self, environment: 'Environment'):\n"
        "        self.environment = environment\n\n\n"
        "class Filter:\n"
        "    def as_const(self, eval_ctx: EvalContext, name):\n"
        "        func = eval_ctx.environment.filters.get(name)\n"
        "        return func(1)\n"
    ),
}


def test_a_table_another_module_re_exports_and_an_attribute_copies_calls_its_functions(tmp_path: Path) -> None:
    calls = project_calls(tmp_path, "tpl", TEMPLATES)
    upper, lower, odd = "tpl.filters.do_upper", "tpl.filters.do_lower", "tpl.tests.test_odd"
    # the branches give `env_map` either table: a computed name picks any function of either
    called = {t: r for (s, t), r in calls.items() if s == "tpl.environment.Environment.call"}
    assert called == {upper: "dispatch", lower: "dispatch", odd: "dispatch"}
    # another file's class: what `environment.filters` holds is the environment's copy of the filters alone
    const = {t: r for (s, t), r in calls.items() if s == "tpl.nodes.Filter.as_const"}
    assert const == {upper: "dispatch", lower: "dispatch"}
    assert calls[("tpl.environment.Environment.upper", upper)] in ("inferred", "dispatch")


EXTENSIONS = {
    "tpl/__init__.py": "",
    "tpl/ext.py": (
        "class Extension:\n"
        "    tags: set = set()\n\n"
        "    def parse(self, parser):\n"
        "        raise NotImplementedError\n\n\n"
        "class I18n(Extension):\n"
        "    tags = {'trans'}\n\n"
        "    def parse(self, parser):\n"
        "        return parser\n"
    ),
    "tpl/env.py": (
        "import typing as t\n\n"
        "from .ext import Extension\n\n\n"
        "class Environment:\n"
        "    def __init__(self):\n"
        "        self.extensions: dict = {}\n\n"
        "    def iter_extensions(self) -> t.Iterator[Extension]:\n"
        "        return iter(self.extensions.values())\n"
    ),
    "tpl/parser.py": (
        "from .env import Environment\n\n\n"
        "class Parser:\n"
        "    def __init__(self, environment: Environment):\n"
        "        self.extensions = {}\n"
        "        self.handlers = {}\n"
        "        for extension in environment.iter_extensions():\n"
        "            for tag in extension.tags:\n"
        "                self.extensions[tag] = extension.parse\n"
        "        self.handlers['for'] = self.parse_for\n\n"
        "    def parse_for(self):\n"
        "        return None\n\n"
        "    def parse_statement(self, name):\n"
        "        ext = self.extensions.get(name)\n"
        "        if ext is not None:\n"
        "            return ext(self)\n"
        "        return self.handlers[name]()\n"
    ),
}


def test_a_table_a_method_fills_with_bound_methods_calls_them_in_the_classs_other_methods(tmp_path: Path) -> None:
    # jinja2's `Parser.__init__`: `self.extensions[tag] = extension.parse` for each extension the environment has,
    # then `ext = self.extensions.get(token.value)` and `ext(self)` in `parse_statement`: any extension's `parse`
    calls = project_calls(tmp_path, "tpl", EXTENSIONS)
    statement = {t: r for (s, t), r in calls.items() if s == "tpl.parser.Parser.parse_statement"}
    assert statement == {"tpl.ext.Extension.parse": "dispatch", "tpl.parser.Parser.parse_for": "dispatch"}
