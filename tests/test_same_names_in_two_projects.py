"""Two indexed projects that define the same qualified names (a fork beside its upstream, two versions of one
library): a call in one binds to its own project's methods, never to the other's class of the same name. Indexed
with the real engines, read as a server reads them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog

SHAPES = (
    "class Shape:\n"
    "    def area(self):\n"
    "        return 0\n\n"
    "    def describe(self):\n"
    "        return self.label() + str(self.area())\n\n"
    "    def label(self):\n"
    "        return 'shape'\n\n\n"
    "class Square(Shape):\n"
    "    def __init__(self, side):\n"
    "        self.side = side\n\n"
    "    def area(self):\n"
    "        return self.side * self.side\n\n\n"
    "def total(side):\n"
    "    square = Square(side)\n"
    "    return square.area() + len(square.describe())\n"
)


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    projects = {"upstream": {"shapes.py": SHAPES}, "fork": {"shapes.py": SHAPES}}
    cat = indexed_projects(tmp_path_factory.mktemp("two"), projects, ("fork", "upstream"))
    yield cat
    cat.close()


@pytest.mark.parametrize("project", ["upstream", "fork"])
def test_calls_bind_to_the_callers_own_project(catalog: Catalog, views: GenerationViews, project: str) -> None:
    called = edges_out(catalog, views, f"function:{project}:shapes.total", relation_types=["CALLS"])
    assert called == {
        ("CALLS", f"class:{project}:shapes.Square"): "exact",
        ("CALLS", f"method:{project}:shapes.Square.__init__"): "exact",
        ("CALLS", f"method:{project}:shapes.Square.area"): "inferred",
        ("CALLS", f"method:{project}:shapes.Shape.describe"): "inferred",
    }
    described = edges_out(catalog, views, f"method:{project}:shapes.Shape.describe", relation_types=["CALLS"])
    assert described == {
        ("CALLS", f"method:{project}:shapes.Shape.label"): "exact",
        ("CALLS", f"method:{project}:shapes.Shape.area"): "exact",
        ("CALLS", f"method:{project}:shapes.Square.area"): "dispatch",
    }
