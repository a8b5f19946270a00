"""Scala with structure: classes, case classes, traits and objects as entities (a companion object's definitions
answer to its class's name), Scaladoc as descriptions, `import` (selectors and renames) as imports, the superclass and
traits as INHERITS; calls bound where the file proves them — a class parameter's declared type, `new Auditor()`
constructing the class of the file's package, a bare call as the class's member through its bases, an object's
method through an import's new name — and a call on a value no code types left alone, so a same-named method of an
unrelated class is never a target. A small real-shaped project of three files in two packages, indexed with the real
engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.ingest.walker import FILE_TYPES
from trident.retrieval.entities import resolve_entity
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind

GATEWAYS = """package com.acme.gateways

/** Talks to the card processor. */
trait PaymentGateway {
  def charge(amount: Int): Receipt
}

abstract class GatewayBase(val key: String) {
  protected def audit(amount: Int): Unit = ()
}

class StripeGateway(key: String) extends GatewayBase(key) with PaymentGateway {
  /** Charges the card once; retries are the caller's. */
  override def charge(amount: Int): Receipt = {
    audit(amount)
    Receipt(amount)
  }
}

case class Receipt(cents: Int)

object Money {
  def formatCents(cents: Int): String = s"$cents"
}
"""
ORDERS = """package com.acme.billing

import com.acme.gateways.{PaymentGateway, Receipt}
import com.acme.gateways.{Money => M}

/** Checks orders out. */
class OrderService(gateway: PaymentGateway) {
  private val auditor = new Auditor()

  def checkout(total: Int): Receipt = {
    val receipt = gateway.charge(total)
    notify(receipt)
    auditor.record(receipt)
    Logs.log(M.formatCents(total))
    receipt
  }

  private def notify(receipt: Receipt): Unit = ()

  def relay(any: AnyRef, send: String => Unit): Unit = {
    send("x")
    any.toString.foreach(c => c.notify())
  }
}

object OrderService {
  def create(gateway: PaymentGateway): OrderService = new OrderService(gateway)
}

class Mailer {
  def notify(to: String): Unit = ()
}
"""
AUDIT = """package com.acme.billing

import com.acme.gateways.PaymentGateway

class Auditor {
  def record(receipt: Any): Unit = Logs.log("recorded")
}

object Logs {
  def log(message: String): Unit = ()
}

object Shop {
  def open(gateway: PaymentGateway): OrderService = OrderService.create(gateway)
}
"""
GATEWAYS_PATH = "src/main/scala/com/acme/gateways/Gateways.scala"
ORDERS_PATH = "src/main/scala/com/acme/billing/OrderService.scala"
FILES = {GATEWAYS_PATH: GATEWAYS, ORDERS_PATH: ORDERS, "src/main/scala/com/acme/billing/Audit.scala": AUDIT}
GATEWAYS_MODULE = "src.main.scala.com.acme.gateways.Gateways"
ORDERS_MODULE = "src.main.scala.com.acme.billing.OrderService"
AUDIT_MODULE = "src.main.scala.com.acme.billing.Audit"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("scala"), {"shop": FILES}, ("shop",))
    yield cat
    cat.close()


def test_scala_files_are_code_with_a_grammar() -> None:
    assert FILE_TYPES[".scala"] == (DocumentKind.CODE, "scala")


def test_definitions_are_entities_with_their_scaladoc(catalog: Catalog) -> None:
    found = {e.id: e for e in catalog.entities() if e.project == "shop"}
    assert {
        f"class:shop:{GATEWAYS_MODULE}.PaymentGateway",
        f"method:shop:{GATEWAYS_MODULE}.PaymentGateway.charge",
        f"class:shop:{GATEWAYS_MODULE}.StripeGateway",
        f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge",
        f"class:shop:{GATEWAYS_MODULE}.Receipt",
        f"method:shop:{GATEWAYS_MODULE}.Money.formatCents",
        f"method:shop:{ORDERS_MODULE}.OrderService.create",  # the companion object's, by the class's name
        f"class:shop:{AUDIT_MODULE}.Shop",  # an object
    } <= set(found)
    assert found[f"class:shop:{GATEWAYS_MODULE}.PaymentGateway"].description == "Talks to the card processor."
    charge = found[f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"]
    assert charge.description == "Charges the card once; retries are the caller's."


def test_a_definition_answers_to_its_package_name(catalog: Catalog, views: GenerationViews) -> None:
    directory = views.directory(catalog)
    charge = resolve_entity(directory, "com.acme.gateways.StripeGateway.charge")
    assert charge.id == f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"


def test_imports_and_bases(catalog: Catalog, views: GenerationViews) -> None:
    # definitions imported by their package name (selectors and a rename): the module that defines them
    assert edges_out(catalog, views, f"module:shop:{ORDERS_MODULE}", relation_types=["IMPORTS"]) == {
        ("IMPORTS", f"module:shop:{GATEWAYS_MODULE}"): "exact",
    }
    stripe = f"class:shop:{GATEWAYS_MODULE}.StripeGateway"
    assert edges_out(catalog, views, stripe, relation_types=["INHERITS"]) == {
        ("INHERITS", f"class:shop:{GATEWAYS_MODULE}.GatewayBase"): "exact",
        ("INHERITS", f"class:shop:{GATEWAYS_MODULE}.PaymentGateway"): "exact",
    }


def test_calls_bind_by_declared_type_member_import_and_package(catalog: Catalog, views: GenerationViews) -> None:
    checkout = f"method:shop:{ORDERS_MODULE}.OrderService.checkout"
    assert edges_out(catalog, views, checkout, relation_types=["CALLS"]) == {
        # a class parameter typed with an imported trait, and the class that overrides it
        ("CALLS", f"method:shop:{GATEWAYS_MODULE}.PaymentGateway.charge"): "inferred",
        ("CALLS", f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"): "dispatch",
        ("CALLS", f"method:shop:{ORDERS_MODULE}.OrderService.notify"): "exact",  # its own, not Mailer's
        ("CALLS", f"method:shop:{AUDIT_MODULE}.Auditor.record"): "inferred",  # `val auditor = new Auditor()`
        ("CALLS", f"method:shop:{AUDIT_MODULE}.Logs.log"): "exact",  # an object of the package
        ("CALLS", f"method:shop:{GATEWAYS_MODULE}.Money.formatCents"): "exact",  # imported as `M`
    }
    stripe_charge = f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"
    assert edges_out(catalog, views, stripe_charge, relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{GATEWAYS_MODULE}.GatewayBase.audit"): "exact",  # a member, through the base
        ("CALLS", f"class:shop:{GATEWAYS_MODULE}.Receipt"): "exact",  # a case class's apply
    }
    # a parameter holding a function, and a method on a value no code types: nothing is guessed
    relay = f"method:shop:{ORDERS_MODULE}.OrderService.relay"
    assert edges_out(catalog, views, relay, relation_types=["CALLS"]) == {}
    assert edges_out(catalog, views, f"method:shop:{AUDIT_MODULE}.Shop.open", relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{ORDERS_MODULE}.OrderService.create"): "exact",  # the companion's
    }
    create = f"method:shop:{ORDERS_MODULE}.OrderService.create"
    assert edges_out(catalog, views, create, relation_types=["CALLS"]) == {
        ("CALLS", f"class:shop:{ORDERS_MODULE}.OrderService"): "exact",
    }
