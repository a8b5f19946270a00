"""Ruby with structure: classes and modules with their methods (`def m`, `def self.m`, names ending in `!`, `?`,
`=`), top-level methods, `#` comments above a definition as its description (the first statement of a body too),
`require`/`require_relative` as imports, included modules and the superclass as bases (included first, as Ruby's
ancestors are); calls bound where the file proves them (a bare call and `self.` on the class, `super` to the same
method of the bases, `Foo.new`), a class of another file by its short name, the class an instance variable is made
from (`@audit = Auditor.new`); the rest by name, a guess kept only where one entity has the name. A small
real-shaped project of two files, indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.ingest.walker import FILE_TYPES
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind

AUDIT = """module Shop
  # Writes what happened to the log.
  module Auditing
    def audit!(event)
      write_line(event)
    end

    def write_line(event)
      event.to_s
    end
  end

  class Auditor
    def record(event)
      event
    end
  end

  class Mailer
    def deliver(message)
      message
    end
  end
end
"""
ORDERS = """require_relative "audit"

module Shop
  class BaseService
    def checkout(order)
      order
    end
  end

  # Checks orders out.
  class OrderService < BaseService
    include Auditing

    def initialize(gateway)
      @gateway = gateway
      @auditor = Auditor.new
    end

    def checkout(order)
      audit!(order)
      @auditor.record(order)
      @gateway.deliver(order)
      super(order)
    end

    def paid?(order)
      self.checkout(order)
    end
  end
end
"""
FILES = {"lib/shop/audit.rb": AUDIT, "lib/shop/order_service.rb": ORDERS}
AUDIT_MODULE = "lib.shop.audit.Shop"
ORDERS_MODULE = "lib.shop.order_service.Shop"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("ruby"), {"shop": FILES}, ("shop",))
    yield cat
    cat.close()


def _calls(catalog: Catalog, views: GenerationViews, entity: str) -> dict[tuple[str, str], str]:
    return edges_out(catalog, views, entity, relation_types=["CALLS"])


def test_a_rb_file_is_code_with_a_grammar() -> None:
    assert FILE_TYPES[".rb"] == (DocumentKind.CODE, "ruby")


def test_classes_modules_and_methods_are_entities_with_their_comments(catalog: Catalog) -> None:
    found = {e.qualified_name: e for e in catalog.entities() if e.qualified_name.startswith("lib.")}
    assert {
        f"{AUDIT_MODULE}.Auditing",
        f"{AUDIT_MODULE}.Auditing.audit!",
        f"{AUDIT_MODULE}.Auditor.record",
        f"{ORDERS_MODULE}.OrderService.initialize",
        f"{ORDERS_MODULE}.OrderService.paid?",
    } <= set(found)
    assert found[f"{AUDIT_MODULE}.Auditing"].description == "Writes what happened to the log."
    assert found[f"{ORDERS_MODULE}.OrderService"].description == "Checks orders out."


def test_calls_bind_through_mixins_super_and_what_instance_variables_are_made_from(
    catalog: Catalog, views: GenerationViews
) -> None:
    assert _calls(catalog, views, f"method:shop:{ORDERS_MODULE}.OrderService.checkout") == {
        ("CALLS", f"method:shop:{AUDIT_MODULE}.Auditing.audit!"): "exact",  # a bare call, through `include`
        ("CALLS", f"method:shop:{AUDIT_MODULE}.Auditor.record"): "inferred",  # `@auditor = Auditor.new`
        # `super`, which runs the base's own method only: no dispatch back to this override (or any other)
        ("CALLS", f"method:shop:{ORDERS_MODULE}.BaseService.checkout"): "exact",
        # `@gateway.deliver`: @gateway is whatever was passed in, so only a guess (one `deliver` in the project)
        ("CALLS", f"method:shop:{AUDIT_MODULE}.Mailer.deliver"): "name",
    }
    assert _calls(catalog, views, f"method:shop:{ORDERS_MODULE}.OrderService.paid?") == {
        ("CALLS", f"method:shop:{ORDERS_MODULE}.OrderService.checkout"): "exact",
    }
    assert _calls(catalog, views, f"method:shop:{AUDIT_MODULE}.Auditing.audit!") == {
        ("CALLS", f"method:shop:{AUDIT_MODULE}.Auditing.write_line"): "exact",
    }


def test_bases_are_the_included_modules_then_the_superclass(catalog: Catalog, views: GenerationViews) -> None:
    assert edges_out(catalog, views, f"class:shop:{ORDERS_MODULE}.OrderService", relation_types=["INHERITS"]) == {
        ("INHERITS", f"class:shop:{AUDIT_MODULE}.Auditing"): "inferred",  # another file's: the one of the name
        ("INHERITS", f"class:shop:{ORDERS_MODULE}.BaseService"): "exact",
    }
