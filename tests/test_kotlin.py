"""Kotlin with structure: classes, interfaces, objects and functions as entities (a companion object's functions are
its class's), KDoc as descriptions, `import` as imports, the superclass and interfaces as INHERITS; calls bound where
the file proves them — a constructor parameter's and a property's declared type, `Auditor()` constructing the class
of the file's package, a bare call as the class's member through its bases, else an imported function, else the
package's function — and a call on a value no code types left alone, so a same-named method of an unrelated class
is never a target. A small real-shaped project of three files in two packages, indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.projects import call_edges, edges_out, indexed_projects
from trident.ingest.walker import FILE_TYPES
from trident.retrieval.entities import resolve_entity
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind

GATEWAYS = """package com.acme.gateways

/** Talks to the card processor. */
interface PaymentGateway {
    fun charge(amount: Int): Receipt
}

abstract class GatewayBase(val key: String) {
    protected fun audit(amount: Int) {}
}

@Suppress("unused")
class StripeGateway @JvmOverloads constructor(key: String = "k") : GatewayBase(key), PaymentGateway {
    /** Charges the card once; retries are the caller's. */
    override fun charge(amount: Int): Receipt {
        audit(amount)
        return Receipt(amount)
    }
}

data class Receipt(val cents: Int)

fun formatCents(cents: Int): String = "$cents"
"""
ORDERS = """package com.acme.billing

import com.acme.gateways.PaymentGateway
import com.acme.gateways.Receipt
import com.acme.gateways.formatCents

/** Checks orders out. */
class OrderService(private val gateway: PaymentGateway) {
    private val auditor = Auditor()

    fun checkout(total: Int): Receipt {
        val receipt = gateway.charge(total)
        notify(receipt)
        auditor.record(receipt)
        log(formatCents(total))
        return receipt
    }

    private fun notify(receipt: Receipt) {}

    fun relay(any: Any, send: (String) -> Unit) {
        send("x")
        any.toString().let { it.notify("sent") }
    }

    companion object {
        fun create(gateway: PaymentGateway): OrderService = OrderService(gateway)
    }
}

class Mailer {
    fun notify(to: String) {}
}
"""
AUDIT = """package com.acme.billing

class Auditor {
    fun record(receipt: Any) {
        log("recorded")
    }
}

fun log(message: String) {}

object Shop {
    fun open(gateway: PaymentGateway): OrderService = OrderService.create(gateway)
}
"""
GATEWAYS_PATH = "src/main/kotlin/com/acme/gateways/Gateways.kt"
ORDERS_PATH = "src/main/kotlin/com/acme/billing/OrderService.kt"
FILES = {GATEWAYS_PATH: GATEWAYS, ORDERS_PATH: ORDERS, "src/main/kotlin/com/acme/billing/Audit.kt": AUDIT}
GATEWAYS_MODULE = "src.main.kotlin.com.acme.gateways.Gateways"
ORDERS_MODULE = "src.main.kotlin.com.acme.billing.OrderService"
AUDIT_MODULE = "src.main.kotlin.com.acme.billing.Audit"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("kotlin"), {"shop": FILES}, ("shop",))
    yield cat
    cat.close()


def test_kotlin_files_are_code_with_a_grammar() -> None:
    assert FILE_TYPES[".kt"] == (DocumentKind.CODE, "kotlin")
    assert FILE_TYPES[".kts"] == (DocumentKind.CODE, "kotlin")


def test_definitions_are_entities_with_their_kdoc(catalog: Catalog) -> None:
    found = {e.id: e for e in catalog.entities() if e.project == "shop"}
    assert {
        f"class:shop:{GATEWAYS_MODULE}.PaymentGateway",
        f"method:shop:{GATEWAYS_MODULE}.PaymentGateway.charge",
        f"class:shop:{GATEWAYS_MODULE}.StripeGateway",
        f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge",
        f"class:shop:{GATEWAYS_MODULE}.Receipt",
        f"function:shop:{GATEWAYS_MODULE}.formatCents",
        f"method:shop:{ORDERS_MODULE}.OrderService.create",  # a companion object's function is its class's
        f"class:shop:{AUDIT_MODULE}.Shop",  # an object
        f"method:shop:{AUDIT_MODULE}.Shop.open",
    } <= set(found)
    assert found[f"class:shop:{GATEWAYS_MODULE}.PaymentGateway"].description == "Talks to the card processor."
    charge = found[f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"]
    assert charge.description == "Charges the card once; retries are the caller's."


def test_a_definition_answers_to_its_package_name(catalog: Catalog, views: GenerationViews) -> None:
    directory = views.directory(catalog)
    charge = resolve_entity(directory, "com.acme.gateways.StripeGateway.charge")
    assert charge.id == f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"


def test_imports_and_bases(catalog: Catalog, views: GenerationViews) -> None:
    # a definition imported by its package name: the module that defines it (its file is named otherwise)
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
        # a constructor parameter typed with an imported interface, and the class that overrides it
        ("CALLS", f"method:shop:{GATEWAYS_MODULE}.PaymentGateway.charge"): "inferred",
        ("CALLS", f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"): "dispatch",
        ("CALLS", f"method:shop:{ORDERS_MODULE}.OrderService.notify"): "exact",  # its own, not Mailer's
        ("CALLS", f"method:shop:{AUDIT_MODULE}.Auditor.record"): "inferred",  # `val auditor = Auditor()`
        ("CALLS", f"function:shop:{AUDIT_MODULE}.log"): "inferred",  # the package's function
        ("CALLS", f"function:shop:{GATEWAYS_MODULE}.formatCents"): "exact",  # imported
    }
    stripe_charge = f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"
    assert edges_out(catalog, views, stripe_charge, relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{GATEWAYS_MODULE}.GatewayBase.audit"): "exact",  # a member, through the base
        ("CALLS", f"class:shop:{GATEWAYS_MODULE}.Receipt"): "exact",  # constructs the class
    }
    # a parameter holding a function, and a method on a value no code types: nothing is guessed
    relay = f"method:shop:{ORDERS_MODULE}.OrderService.relay"
    assert edges_out(catalog, views, relay, relation_types=["CALLS"]) == {}
    assert edges_out(catalog, views, f"method:shop:{AUDIT_MODULE}.Shop.open", relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{ORDERS_MODULE}.OrderService.create"): "exact",  # the companion's, by class name
    }
    create = f"method:shop:{ORDERS_MODULE}.OrderService.create"
    assert edges_out(catalog, views, create, relation_types=["CALLS"]) == {
        ("CALLS", f"class:shop:{ORDERS_MODULE}.OrderService"): "exact",
    }


ONE_LINE = """package shop

class Ledger { fun settle() {} }
class Audit { val kept = 1 }

fun close() {
    val entry = Ledger()
    entry.settle()
}
"""


def test_bodies_closed_on_their_own_line_are_read(tmp_path: Path) -> None:
    # tree-sitter-kotlin 1.1 rejects `{ fun settle() {} }` (no newline or `;` after its last declaration): the file
    # is read with a `;` there, on the same rows and columns
    catalog = indexed_projects(tmp_path, {"shop": {"shop/Close.kt": ONE_LINE}}, ("shop",))
    try:
        found = {e.id for e in catalog.entities()}
        calls = {(s, t) for (s, t) in call_edges(catalog)}
    finally:
        catalog.close()
    assert {
        "class:shop:shop.Close.Ledger",
        "method:shop:shop.Close.Ledger.settle",
        "class:shop:shop.Close.Audit",
    } <= found
    assert ("function:shop:shop.Close.close", "method:shop:shop.Close.Ledger.settle") in calls
