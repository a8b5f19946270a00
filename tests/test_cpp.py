"""C++ with structure: classes in namespaces with their methods, defined in the class or outside it (`double
Circle::area() const`, `void geo::Logger::write(int)`), which meet the class their header declares by its
namespace-qualified name; free functions and templates; base classes as bases; calls bound where the file states them
— `this->`, a bare call in a method (its class's member, through the bases), a qualified call, `new Foo`, the
declared type of a local (`Logger l;`, `auto p = new Printer();`) — and a same-named method of an unrelated class
never linked; an export macro between `class` and its name is no name. A small real-shaped project of five
files, indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.ingest.code import parse_code
from trident.ingest.walker import FILE_TYPES
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind

SHAPE = """#pragma once

namespace geo {

/* Anything with an area. */
class Shape {
 public:
  virtual ~Shape() {}
  virtual double area() const = 0;
  double scaled(double k) const { return area() * k; }
};

class Logger {
 public:
  void write(int n);
};

}  // namespace geo
"""
CIRCLE_H = """#pragma once
#include "shape.h"

namespace geo {

/* A circle of a radius. */
class Circle : public Shape {
 public:
  explicit Circle(double r);
  double area() const override;
  double perimeter() const;
  double diameter() const;

 private:
  double r_;
};

}  // namespace geo
"""
CIRCLE = """#include "circle.h"
#include "printer.h"

namespace geo {

static double square(double x) { return x * x; }

Circle::Circle(double r) : r_(r) {}

double Circle::area() const { return 3.14 * square(r_); }

double Circle::diameter() const { return perimeter() / 3.14; }

/* Twice pi r, logged. */
double Circle::perimeter() const {
  Logger l;
  l.write(1);
  auto p = new Printer();
  p->print();
  return this->area() + scaled(2.0);
}

}  // namespace geo
"""
LOGGER = """#include "shape.h"

void geo::Logger::write(int n) {}
"""
PRINTER = """#pragma once

class GEO_EXPORT Printer {  // an export macro before the name
 public:
  void print() {}
};

class Report {
 public:
  void print() {}
};

template <typename T>
T twice(T x) { return x + x; }
"""
FILES = {
    "src/shape.h": SHAPE,
    "src/circle.h": CIRCLE_H,
    "src/circle.cpp": CIRCLE,
    "src/logger.cpp": LOGGER,
    "src/printer.h": PRINTER,
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("cpp"), {"geo": FILES}, ("geo",))
    yield cat
    cat.close()


def test_cpp_files_are_code_with_a_grammar() -> None:
    for suffix in (".cpp", ".cc", ".cxx", ".hpp", ".hh"):
        assert FILE_TYPES[suffix] == (DocumentKind.CODE, "cpp")


def test_classes_and_methods_defined_in_or_outside_the_class_are_entities(catalog: Catalog) -> None:
    found = {e.id: e for e in catalog.entities() if e.project == "geo"}
    assert {
        "class:geo:src.shape.h.Shape",
        "method:geo:src.shape.h.Shape.scaled",
        "method:geo:src.shape.h.Shape.~Shape",
        "method:geo:src.shape.h.Shape.area",  # pure virtual: its one declaration is its entity
        "class:geo:src.circle.h.Circle",
        "method:geo:src.circle.Circle.area",  # defined outside its class
        "method:geo:src.circle.Circle.perimeter",
        "method:geo:src.logger.geo.Logger.write",
        "function:geo:src.circle.square",
        "function:geo:src.printer.h.twice",  # a template
        "method:geo:src.printer.h.Report.print",
    } <= set(found)
    assert found["class:geo:src.circle.h.Circle"].description == "A circle of a radius."
    assert found["method:geo:src.circle.Circle.perimeter"].description == "Twice pi r, logged."


def test_a_class_s_bases_are_found_by_their_namespace_qualified_name(catalog: Catalog, views: GenerationViews) -> None:
    assert edges_out(catalog, views, "class:geo:src.circle.h.Circle", relation_types=["INHERITS"]) == {
        ("INHERITS", "class:geo:src.shape.h.Shape"): "exact"
    }


def test_calls_bind_to_members_declared_types_and_the_class_s_bases(catalog: Catalog, views: GenerationViews) -> None:
    calls = edges_out(catalog, views, "method:geo:src.circle.Circle.perimeter", relation_types=["CALLS"])
    assert calls == {
        ("CALLS", "method:geo:src.logger.geo.Logger.write"): "inferred",  # `Logger l;` then `l.write(1)`
        ("CALLS", "class:geo:src.printer.h.Printer"): "exact",  # `new Printer()`
        ("CALLS", "method:geo:src.printer.h.Printer.print"): "inferred",  # `auto p = new Printer()`: not Report's
        ("CALLS", "method:geo:src.circle.Circle.area"): "exact",  # `this->area()`, defined outside the class
        ("CALLS", "method:geo:src.shape.h.Shape.scaled"): "exact",  # a bare call: a member of a base
    }
    assert edges_out(catalog, views, "method:geo:src.circle.Circle.area", relation_types=["CALLS"]) == {
        ("CALLS", "function:geo:src.circle.square"): "exact",
    }


def test_a_bare_call_of_a_method_the_file_defines_outside_its_class_is_that_method(
    catalog: Catalog, views: GenerationViews
) -> None:
    assert edges_out(catalog, views, "method:geo:src.circle.Circle.diameter", relation_types=["CALLS"]) == {
        ("CALLS", "method:geo:src.circle.Circle.perimeter"): "exact",
    }


def test_a_call_of_a_pure_virtual_method_reaches_its_overrides(catalog: Catalog, views: GenerationViews) -> None:
    assert edges_out(catalog, views, "method:geo:src.shape.h.Shape.scaled", relation_types=["CALLS"]) == {
        ("CALLS", "method:geo:src.shape.h.Shape.area"): "exact",
        ("CALLS", "method:geo:src.circle.Circle.area"): "dispatch",  # the override in another file
    }


def test_an_anonymous_namespace_s_definitions_are_named_in_the_namespace_around_it() -> None:
    source = (
        "namespace leveldb {\n"
        "namespace {\n"
        "int helper() { return 1; }\n"
        "}  // namespace\n"
        "int run() { return helper(); }\n"
        "}  // namespace leveldb\n"
    )
    entities = {e.name: e for e in parse_code("db", "db/util.cc", source, "cpp", "doc").entities}
    assert entities["helper"].aliases == ("leveldb.helper",)  # as code in `leveldb` writes it
    assert entities["run"].aliases == ("leveldb.run",)
