"""pytest fixtures as the binder reads them. A test's parameter is the value of the fixture of that name: one the
test's own file defines, else one a `conftest.py` in its folder or a folder above defines (the indexer finds the
nearest that does). What the fixture returns types the parameter, so `runner.invoke(...)` in a test binds to the
method of the class the `runner` fixture returns.

Only the syntax is read here: which functions are fixtures and tests, and which of their parameters receive
fixtures; `python_types` reads what a fixture returns."""

from __future__ import annotations

from collections.abc import Iterable

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.python_syntax import literal_key
from trident.store.names.code_paths import is_test_path

CONFTEST = "conftest"
# pytest's own fixtures and the common plugins': no project defines them.
BUILTIN_FIXTURES = frozenset(
    {"request", "tmp_path", "tmp_path_factory", "tmpdir", "tmpdir_factory", "monkeypatch", "pytestconfig", "cache"}
    | {"capsys", "capfd", "capsysbinary", "capfdbinary", "caplog", "recwarn", "doctest_namespace", "pytester"}
    | {"testdir", "record_property", "record_xml_attribute", "record_testsuite_property", "subtests", "mocker"}
)


def is_fixture(function: ts.Node) -> bool:
    """Decorated `@fixture`, `@pytest.fixture` or `@pytest.fixture(...)`."""
    decorated = function.parent
    if decorated is None or decorated.type != "decorated_definition":
        return False
    for decorator in (d for d in decorated.named_children if d.type == "decorator"):
        expression = decorator.named_children[0] if decorator.named_child_count else None
        if expression is not None and expression.type == "call":
            expression = expression.child_by_field_name("function")
        if expression is not None and node_text(expression).rsplit(".", 1)[-1] == "fixture":
            return True
    return False


def fixture_name(function: ts.Node) -> str:
    """The name tests ask for a fixture by: the `name=` its decorator gives (`@pytest.fixture(name="proxy")` over
    `def _proxy()`), else the function's own."""
    value = _fixture_keyword(function, "name")
    written = (literal_key(value) or "").strip("'") if value is not None else ""
    return written if written.isidentifier() else node_text(function.child_by_field_name("name"))


def fixture_params(function: ts.Node) -> list[ts.Node]:
    """The values a fixture is parametrized over (`@pytest.fixture(params=(A, B))`): what `request.param` is."""
    value = _fixture_keyword(function, "params")
    return list(value.named_children) if value is not None and value.type in ("tuple", "list") else []


def _fixture_keyword(function: ts.Node, keyword: str) -> ts.Node | None:
    """The value a keyword of the `@pytest.fixture(...)` decorating a function is given; None where the function is
    no fixture or its decorator does not give that keyword."""
    decorated = function.parent
    if decorated is None or decorated.type != "decorated_definition" or not is_fixture(function):
        return None
    for decorator in (d for d in decorated.named_children if d.type == "decorator"):
        call = decorator.named_children[0] if decorator.named_child_count else None
        called = call.child_by_field_name("function") if call is not None and call.type == "call" else None
        if called is None or node_text(called).rsplit(".", 1)[-1] != "fixture":
            continue
        arguments = call.child_by_field_name("arguments") if call is not None else None
        for argument in arguments.named_children if arguments is not None else []:
            if _keyword(argument) == keyword:
                return argument.child_by_field_name("value")
    return None


def parametrized(function: ts.Node) -> dict[str, list[ts.Node]]:
    """The parameters `@pytest.mark.parametrize` gives a test, each with the values written for it in every case
    (`("a, b", [(1, A), (2, B)])`: b -> [A, B]; `pytest.param(A, id=...)`: A); a parameter whose cases are not
    written out (a name of a list) has none. A parameter it passes on to a fixture (`indirect=`) is the fixture's."""
    decorated = function.parent
    if decorated is None or decorated.type != "decorated_definition":
        return {}
    given: dict[str, list[ts.Node]] = {}
    for decorator in (d for d in decorated.named_children if d.type == "decorator"):
        call = decorator.named_children[0] if decorator.named_child_count else None
        callee = call.child_by_field_name("function") if call is not None and call.type == "call" else None
        arguments = call.child_by_field_name("arguments") if call is not None else None
        if callee is None or arguments is None or node_text(callee).rpartition(".")[2] != "parametrize":
            continue
        positional = [a for a in arguments.named_children if a.type != "keyword_argument"]
        if len(positional) < 2 or any(_keyword(a) == "indirect" for a in arguments.named_children):
            continue
        names = _argument_names(positional[0])
        cases = list(positional[1].named_children) if positional[1].type in ("list", "tuple") else None
        for at, name in enumerate(names):
            given[name] = [v for case in cases or () if (v := _case_value(case, at, len(names))) is not None]
    return given


def case_items(values: list[ts.Node]) -> list[ts.Node]:
    """The values the cases of a parameter give, and the items of the lists, tuples and dicts among them, nested
    (`[1, humanize.intword, 1e6]`: 1, humanize.intword, 1e6), in the order written."""
    found: list[ts.Node] = []
    pending = list(reversed(values))
    while pending:
        value = pending.pop()
        if value.type in ("list", "tuple", "dictionary", "pair", "parenthesized_expression", "set"):
            pending.extend(reversed(value.named_children))
        else:
            found.append(value)
    return found


def _keyword(argument: ts.Node) -> str:
    name = argument.child_by_field_name("name") if argument.type == "keyword_argument" else None
    return node_text(name) if name is not None else ""


def _argument_names(node: ts.Node) -> list[str]:
    """`"a, b"` or `("a", "b")` -> [a, b]."""
    if node.type == "string":
        return [n.strip() for n in node_text(node).strip("\"'").split(",") if n.strip()]
    if node.type in ("list", "tuple"):
        return [node_text(n).strip("\"'") for n in node.named_children if n.type == "string"]
    return []


def _case_value(case: ts.Node, at: int, width: int) -> ts.Node | None:
    """The value one case gives the `at`-th of `width` parameters (`pytest.param(...)` unwrapped)."""
    callee = case.child_by_field_name("function") if case.type == "call" else None
    if callee is not None and node_text(callee).rpartition(".")[2] == "param":
        arguments = case.child_by_field_name("arguments")
        values = [a for a in arguments.named_children if a.type != "keyword_argument"] if arguments else []
        return values[at] if at < len(values) else None
    if width == 1:
        return case
    values = list(case.named_children) if case.type in ("tuple", "list") else []
    return values[at] if at < len(values) else None


def receives_fixtures(function: ts.Node, path: str) -> bool:
    """A test (`test*`) or a fixture, in test code: pytest passes its parameters the fixtures of their names."""
    name = node_text(function.child_by_field_name("name"))
    return is_test_path(path) and (name.startswith("test") or is_fixture(function))


def fixture_names(parameters: Iterable[tuple[str, ts.Node | None]], receiver: str) -> list[str]:
    """The parameters pytest fills with a project's fixture: unannotated, not the receiver, not pytest's own."""
    return [p for p, annotation in parameters if annotation is None and p != receiver and p not in BUILTIN_FIXTURES]


def conftest_fixture(module: str, name: str) -> str:
    """The qualified name of fixture `name` in the `conftest.py` beside the module (the indexer looks further up)."""
    package = module.rpartition(".")[0]
    return f"{package}.{CONFTEST}.{name}" if package else f"{CONFTEST}.{name}"


def wider_conftests(name: str) -> list[str]:
    """`a.b.conftest.f.m` -> [`a.conftest.f.m`, `conftest.f.m`]: the same fixture's name in each folder above."""
    parts = name.split(".")
    if CONFTEST not in parts:
        return []
    at = parts.index(CONFTEST)
    return [".".join([*parts[:i], *parts[at:]]) for i in range(at - 1, -1, -1)]
