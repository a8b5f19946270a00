"""Functions reached through the values that hold them: a dispatch table (`_DUMPERS[kind](data)`, a dict or list
literal of the module or the function, keys added later, forgotten once it is mutated), what a function returns
called (`get_handler()()`, a method returning a bound method), chained and unpacking assignments, `raise NotFound`
(the class is called), and a `for` over an iterator (its `__iter__` and `__next__` run). The shapes of real code
(serialisers keyed by format, event handlers, iterator classes), indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_named, indexed_projects
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog

FILES: dict[str, str] = {
    "ser/__init__.py": "",
    "ser/dump.py": (
        "class NotFound(Exception):\n"
        "    def __init__(self, kind):\n"
        "        super().__init__(kind)\n\n\n"
        "def to_json(data):\n"
        "    return '{}'\n\n\n"
        "def to_yaml(data):\n"
        "    return '---'\n\n\n"
        "def to_toml(data):\n"
        "    return ''\n\n\n"
        "_DUMPERS = {'json': to_json, 'yaml': to_yaml}\n\n\n"
        "def dump(kind, data):\n"
        "    if kind not in _DUMPERS:\n"
        "        raise NotFound\n"
        "    return _DUMPERS[kind](data)\n\n\n"
        "def dump_json(data):\n"
        "    return _DUMPERS['json'](data)\n\n\n"
        "def local_table(data):\n"
        "    table = {}\n"
        "    table['toml'] = to_toml\n"
        "    first, second = to_json, to_yaml\n"
        "    third = fourth = to_toml\n"
        "    second(data)\n"
        "    fourth(data)\n"
        "    return table['toml'](data)\n\n\n"
        "def mutated(data, extra):\n"
        "    table = {'json': to_json}\n"
        "    table.update(extra)\n"
        "    return table['json'](data)\n"
    ),
    "ser/events.py": (
        "class Countdown:\n"
        "    def __init__(self, start):\n"
        "        self.current = start\n\n"
        "    def __iter__(self):\n"
        "        return self\n\n"
        "    def __next__(self):\n"
        "        if self.current <= 0:\n"
        "            raise StopIteration\n"
        "        self.current -= 1\n"
        "        return self.current\n\n\n"
        "def on_click(event):\n"
        "    return event\n\n\n"
        "def handler_for(name):\n"
        "    return on_click\n\n\n"
        "class Button:\n"
        "    def pressed(self, event):\n"
        "        return event\n\n"
        "    def callback(self):\n"
        "        return self.pressed\n\n\n"
        "def fire(button: Button, event):\n"
        "    handler_for('click')(event)\n"
        "    handle = button.callback()\n"
        "    handle(event)\n"
        "    for tick in Countdown(3):\n"
        "        on_click(tick)\n"
    ),
    "ser/pipeline.py": (
        "from .dump import to_json, to_toml, to_yaml\n\n"
        "STEPS = [\n"
        "    to_json,  # the default\n"
        "    to_toml,\n"
        "]\n"
        "NOTED = {\n"
        "    # by format\n"
        "    'json': to_json,\n"
        "    'yaml': to_yaml,\n"
        "}\n\n\n"
        "def run_written(data):\n"
        "    for step in [\n"
        "        # in this order\n"
        "        to_json,\n"
        "        to_yaml,\n"
        "    ]:\n"
        "        step(data)\n\n\n"
        "def run_steps(data):\n"
        "    for step in STEPS:\n"
        "        step(data)\n\n\n"
        "def run_with(data, other):\n"
        "    for step in (to_toml, other):\n"
        "        step(data)\n\n\n"
        "def run_noted(kind, data):\n"
        "    return NOTED[kind](data)\n"
    ),
    "ser/reindent.py": (
        "class Reindent:\n"
        "    def process(self, node):\n"
        "        func_name = '_process_{kind}'.format(kind=type(node).__name__)\n"
        "        func = getattr(self, func_name.lower(), self._process_default)\n"
        "        return func(node)\n\n"
        "    def _process_where(self, node):\n"
        "        return node\n\n"
        "    def _process_default(self, node):\n"
        "        return node\n\n"
        "    def helper(self, node):\n"
        "        return node\n\n\n"
        "class Checker:\n"
        "    def handler_for(self, node_class):\n"
        "        kind = node_class.__name__.upper()\n"
        "        handler = getattr(self, kind, self.unknown)\n"
        "        return handler\n\n"
        "    def handle(self, node):\n"
        "        self.handler_for(node.__class__)(node)\n"
        "        found = self.handler_for(type(node))\n"
        "        return found(node)\n\n"
        "    def unknown(self, node):\n"
        "        return node\n\n"
        "    def ASSIGN(self, node):\n"
        "        return node\n\n"
        "    def CALL(self, node):\n"
        "        return node\n"
    ),
    "ser/styles.py": (
        "from enum import Enum\n\n"
        "from ser import dump, events\n\n\n"
        "class Style(Enum):\n"
        "    JSON = 1\n"
        "    EVENTS = 2\n\n\n"
        "_STYLE_MAP = {\n"
        "    Style.JSON: dump,\n"
        "    Style.EVENTS: events,\n"
        "}\n\n\n"
        "def by_style(style, data):\n"
        "    return _STYLE_MAP[style].handler_for(data)\n\n\n"
        "def every_style(data):\n"
        "    for module in _STYLE_MAP.values():\n"
        "        module.to_json(data)\n"
    ),
    "ser/sections.py": (
        "class Section:\n"
        "    def parse(self, text):\n"
        "        return text\n\n\n"
        "class ParamSection(Section):\n"
        "    pass\n\n\n"
        "class Examples(Section):\n"
        "    def parse(self, text):\n"
        "        return [text]\n\n\n"
        "class Unrelated:\n"
        "    def parse(self, text):\n"
        "        return None\n\n\n"
        "DEFAULT_SECTIONS = [\n"
        "    ParamSection(),  # parameters\n"
        "    Examples(),\n"
        "]\n\n\n"
        "def parse_all(text):\n"
        "    for section in DEFAULT_SECTIONS:\n"
        "        section.parse(text)\n\n\n"
        "def parse_written(text):\n"
        "    for section in (ParamSection(), Examples()):\n"
        "        section.parse(text)\n"
    ),
    "ser/util.py": (
        "class memoized_property:\n"
        "    def __init__(self, fget):\n"
        "        self.fget = fget\n\n"
        "    def __get__(self, obj, cls):\n"
        "        return self.fget(obj)\n"
    ),
    "ser/props.py": (
        "from functools import partial\n\n"
        "from ser import util\n\n\n"
        "class InstanceProperty(property):\n"
        "    def __get__(self, obj, type=None):\n"
        "        return property.__get__(self, obj, type)\n\n\n"
        "def instanceproperty(fget=None, classval=None):\n"
        "    if fget is None:\n"
        "        return partial(instanceproperty, classval=classval)\n"
        "    return InstanceProperty(fget=fget)\n\n\n"
        "class Curry:\n"
        "    def __init__(self, func):\n"
        "        self._func = func\n\n"
        "    @instanceproperty\n"
        "    def func(self):\n"
        "        return self._func\n\n"
        "    def name(self):\n"
        "        return self.func.__name__\n\n"
        "    @util.memoized_property\n"
        "    def code(self):\n"
        "        return self._func\n\n"
        "    def source(self):\n"
        "        return self.code\n\n\n"
        "class Compose:\n"
        "    def __call__(self, value):\n"
        "        return value\n\n\n"
        "def compose(*funcs):\n"
        "    if not funcs:\n"
        "        return None\n"
        "    return Compose()\n\n\n"
        "def complement(func):\n"
        "    return compose(func)\n\n\n"
        "def negate(value):\n"
        "    return complement(value)(value)\n"
    ),
    "ser/children.py": (
        "def children_of_tree(node):\n"
        "    return node.get_children()\n\n\n"
        "def children_of_ast(node):\n"
        "    return list(node.body)\n\n\n"
        "def fallback_children(node):\n"
        "    return []\n\n\n"
        "def children_func(node):\n"
        "    return children_of_tree if hasattr(node, 'get_children') else children_of_ast\n\n\n"
        "def handler_or_fallback(handler):\n"
        "    return handler or fallback_children\n\n\n"
        "def walk(node):\n"
        "    iter_children = children_func(node)\n"
        "    return list(iter_children(node))\n\n\n"
        "def walk_default(node):\n"
        "    return handler_or_fallback(None)(node)\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("values"), {"ser": FILES}, ("ser",))
    yield cat
    cat.close()


def _calls(catalog: Catalog, views: GenerationViews, entity: str) -> dict[tuple[str, str], str]:
    return edges_named(catalog, views, entity, relation_types=["CALLS"])


def test_a_dispatch_table_calls_what_the_key_holds(catalog: Catalog, views: GenerationViews) -> None:
    # a key computed at run time picks one of the table's functions; `raise NotFound` calls the class
    assert _calls(catalog, views, "function:ser:ser.dump.dump") == {
        ("CALLS", "ser.dump.to_json"): "dispatch",
        ("CALLS", "ser.dump.to_yaml"): "dispatch",
        ("CALLS", "ser.dump.NotFound"): "exact",
        ("CALLS", "ser.dump.NotFound.__init__"): "exact",
    }
    assert _calls(catalog, views, "function:ser:ser.dump.dump_json") == {("CALLS", "ser.dump.to_json"): "inferred"}


def test_local_tables_and_assignments_hold_what_is_written_for_them(catalog: Catalog, views: GenerationViews) -> None:
    assert _calls(catalog, views, "function:ser:ser.dump.local_table") == {
        ("CALLS", "ser.dump.to_yaml"): "inferred",  # `first, second = to_json, to_yaml; second(data)`
        ("CALLS", "ser.dump.to_toml"): "inferred",  # `third = fourth = to_toml`, and `table['toml']`
    }


def test_a_table_mutated_by_a_method_holds_nothing_known(catalog: Catalog, views: GenerationViews) -> None:
    assert _calls(catalog, views, "function:ser:ser.dump.mutated") == {}


def test_what_a_function_returns_is_called(catalog: Catalog, views: GenerationViews) -> None:
    assert _calls(catalog, views, "function:ser:ser.events.fire") == {
        ("CALLS", "ser.events.handler_for"): "exact",
        ("CALLS", "ser.events.on_click"): "exact",  # in the loop; `handler_for('click')(event)` the same function
        ("CALLS", "ser.events.Button.callback"): "inferred",
        ("CALLS", "ser.events.Button.pressed"): "inferred",  # `handle = button.callback(); handle(event)`
        ("CALLS", "ser.events.Countdown"): "exact",
        ("CALLS", "ser.events.Countdown.__init__"): "exact",
        ("CALLS", "ser.events.Countdown.__iter__"): "inferred",
        ("CALLS", "ser.events.Countdown.__next__"): "inferred",
    }


def test_a_loop_over_functions_written_out_calls_each(catalog: Catalog, views: GenerationViews) -> None:
    # sqlparse's `group`: `for func in [group_comments, ...]: func(stmt)`, comments between the items
    assert _calls(catalog, views, "function:ser:ser.pipeline.run_written") == {
        ("CALLS", "ser.dump.to_json"): "inferred",
        ("CALLS", "ser.dump.to_yaml"): "inferred",
    }
    assert _calls(catalog, views, "function:ser:ser.pipeline.run_steps") == {
        ("CALLS", "ser.dump.to_json"): "inferred",
        ("CALLS", "ser.dump.to_toml"): "inferred",
    }
    # a parameter among the items: what the loop gives is not all known, so nothing is bound to the loop's call
    assert ("CALLS", "ser.dump.to_toml") not in _calls(catalog, views, "function:ser:ser.pipeline.run_with")


def test_a_table_with_comments_between_its_items_is_a_table(catalog: Catalog, views: GenerationViews) -> None:
    assert _calls(catalog, views, "function:ser:ser.pipeline.run_noted") == {
        ("CALLS", "ser.dump.to_json"): "dispatch",
        ("CALLS", "ser.dump.to_yaml"): "dispatch",
    }


def test_a_method_looked_up_by_a_name_formatted_then_lowered_is_each_so_named(
    catalog: Catalog, views: GenerationViews
) -> None:
    # sqlparse's filters: `func_name = '_process_{cls}'.format(...)`, `getattr(self, func_name.lower(), default)`
    called = _calls(catalog, views, "method:ser:ser.reindent.Reindent.process")
    assert called == {
        ("CALLS", "ser.reindent.Reindent._process_where"): "dispatch",
        ("CALLS", "ser.reindent.Reindent._process_default"): "dispatch",
    }


def test_a_method_looked_up_by_a_name_put_in_capitals_is_each_method_named_so(
    catalog: Catalog, views: GenerationViews
) -> None:
    # pyflakes' `getNodeHandler`: `getattr(self, node_class.__name__.upper(), ...)`, returned and then called
    assert _calls(catalog, views, "method:ser:ser.reindent.Checker.handle") == {
        ("CALLS", "ser.reindent.Checker.handler_for"): "exact",
        ("CALLS", "ser.reindent.Checker.ASSIGN"): "dispatch",
        ("CALLS", "ser.reindent.Checker.CALL"): "dispatch",
    }


def test_a_method_a_property_class_of_the_file_decorates_runs_when_read(
    catalog: Catalog, views: GenerationViews
) -> None:
    # toolz's `@instanceproperty`: a function returning an `InstanceProperty(property)` with its own `__get__`
    called = _calls(catalog, views, "method:ser:ser.props.Curry.name")
    assert called[("CALLS", "ser.props.InstanceProperty.__get__")] == "inferred"
    assert called[("CALLS", "ser.props.Curry.func")] == "exact"


def test_what_a_function_returns_by_returning_another_functions_result_is_called(
    catalog: Catalog, views: GenerationViews
) -> None:
    # toolz's `complement(f)` returns `compose(...)`, which returns a `Compose`: calling the result runs `__call__`
    assert _calls(catalog, views, "function:ser:ser.props.negate") == {
        ("CALLS", "ser.props.complement"): "exact",
        ("CALLS", "ser.props.Compose.__call__"): "inferred",
    }


def test_a_member_of_a_module_a_table_holds_is_called_through_the_table(
    catalog: Catalog, views: GenerationViews
) -> None:
    # docstring_parser's `_STYLE_MAP[style].parse(text)` and `for module in _STYLE_MAP.values(): module.parse(text)`
    assert _calls(catalog, views, "function:ser:ser.styles.by_style") == {
        ("CALLS", "ser.events.handler_for"): "dispatch",  # (the dump module has none of that name)
    }
    assert _calls(catalog, views, "function:ser:ser.styles.every_style") == {("CALLS", "ser.dump.to_json"): "inferred"}


def test_the_elements_of_a_list_of_instances_of_several_classes_are_of_the_base_they_share(
    catalog: Catalog, views: GenerationViews
) -> None:
    # docstring_parser's `DEFAULT_SECTIONS = [ParamSection(...), ...]`: a call on an element runs the base's method or
    # an override (dispatch), never the same-named method of an unrelated class
    for function in ("parse_all", "parse_written"):
        called = _calls(catalog, views, f"function:ser:ser.sections.{function}")
        assert called[("CALLS", "ser.sections.Section.parse")] == "inferred"
        assert called[("CALLS", "ser.sections.Examples.parse")] == "dispatch"
        assert ("CALLS", "ser.sections.Unrelated.parse") not in called


def test_a_method_a_decorator_named_as_a_property_decorates_runs_when_read(
    catalog: Catalog, views: GenerationViews
) -> None:
    # mako's `@util.memoized_property`, a descriptor of another file: reading the method runs it
    assert _calls(catalog, views, "method:ser:ser.props.Curry.source") == {("CALLS", "ser.props.Curry.code"): "exact"}


def test_what_a_function_returns_on_either_side_of_a_condition_is_called(
    catalog: Catalog, views: GenerationViews
) -> None:
    # asttokens' `iter_children_func(node)`: `return iter_children_astroid if hasattr(node, "get_children") else
    # iter_children_ast`, whose result the walk calls; `return handler or default`: the default (a parameter: unknown)
    assert _calls(catalog, views, "function:ser:ser.children.walk") == {
        ("CALLS", "ser.children.children_func"): "exact",
        ("CALLS", "ser.children.children_of_tree"): "inferred",
        ("CALLS", "ser.children.children_of_ast"): "inferred",
    }
    assert ("CALLS", "ser.children.fallback_children") not in _calls(
        catalog, views, "function:ser:ser.children.walk_default"
    )
