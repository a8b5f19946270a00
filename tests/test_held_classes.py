"""Classes reached through what holds them: a type variable bound to a class (`cls: type[T]` with `T =
TypeVar("T", bound="Environment")`, `def copy(self: T) -> T`), and a class attribute holding a class (`context_class =
Context`) called on a typed value, not only on `self` (`environment.context_class(...)`). The shapes of real template
engines and web frameworks, indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_named, indexed_projects
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog

FILES: dict[str, str] = {
    "tmpl/__init__.py": "",
    "tmpl/env.py": (
        "import typing as t\n\n\n"
        "class Context:\n"
        "    def __init__(self, environment):\n"
        "        self.environment = environment\n\n"
        "    def resolve(self, key):\n"
        "        return key\n\n\n"
        "class Generator:\n"
        "    def __init__(self, environment):\n"
        "        self.environment = environment\n\n\n"
        '_env_bound = t.TypeVar("_env_bound", bound="Environment")\n'
        "T = t.TypeVar('T')\n\n\n"
        "class Environment:\n"
        "    context_class: t.Type[Context] = Context\n"
        "    code_generator_class = Generator\n\n"
        "    def overlay(self: _env_bound) -> _env_bound:\n"
        "        return self\n\n"
        "    def render(self):\n"
        "        return 'ok'\n\n\n"
        "def spontaneous(cls: t.Type[_env_bound], *args: t.Any) -> _env_bound:\n"
        "    env = cls(*args)\n"
        "    return env\n\n\n"
        "def unbound(cls: t.Type[T]) -> T:\n"
        "    return cls()\n\n\n"
        "def new_context(environment: Environment, name: str) -> Context:\n"
        "    return environment.context_class(environment)\n\n\n"
        "def generate(environment: Environment) -> None:\n"
        "    environment.code_generator_class(environment)\n"
        "    environment.overlay().render()\n"
    ),
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("held"), {"tmpl": FILES}, ("tmpl",))
    yield cat
    cat.close()


def _calls(catalog: Catalog, views: GenerationViews, entity: str) -> dict[tuple[str, str], str]:
    return edges_named(catalog, views, entity, relation_types=["CALLS"])


def test_a_type_variable_bound_to_a_class_stands_for_that_class(catalog: Catalog, views: GenerationViews) -> None:
    assert _calls(catalog, views, "function:tmpl:tmpl.env.spontaneous") == {
        ("CALLS", "tmpl.env.Environment"): "inferred",  # `cls: type[_env_bound]`, then `cls(*args)` (no call here
        # passes a class: the bound alone says what it is)
    }
    assert _calls(catalog, views, "function:tmpl:tmpl.env.unbound") == {}, "an unbound type variable is no class"


def test_a_class_attribute_holding_a_class_is_called_on_a_typed_value(catalog: Catalog, views: GenerationViews) -> None:
    assert _calls(catalog, views, "function:tmpl:tmpl.env.new_context") == {
        ("CALLS", "tmpl.env.Context"): "inferred",
        ("CALLS", "tmpl.env.Context.__init__"): "inferred",
    }
    generated = _calls(catalog, views, "function:tmpl:tmpl.env.generate")
    assert generated == {
        ("CALLS", "tmpl.env.Generator"): "inferred",  # `code_generator_class = Generator`, no annotation
        ("CALLS", "tmpl.env.Generator.__init__"): "inferred",
        ("CALLS", "tmpl.env.Environment.overlay"): "inferred",
        ("CALLS", "tmpl.env.Environment.render"): "inferred",  # `overlay` returns `_env_bound`: an Environment
    }, generated
