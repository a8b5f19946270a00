"""Swift with structure: classes, structs, protocols and functions as entities (an extension's methods are its
type's), `///` comments as descriptions, the superclass and protocols as INHERITS; calls bound as the module sees its
names — a stored property's and a parameter's declared type, `Auditor()` constructing the module's one type of that
name, a bare call as the type's member through its bases (in an extension too), else the module's function — and a
call on a value no code types left alone, so a same-named method of an unrelated type is never a target. A small
real-shaped module of three files, indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.ingest.walker import FILE_TYPES
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind

GATEWAYS = """import Foundation

/// Talks to the card processor.
protocol PaymentGateway {
    func charge(amount: Int) -> Receipt
}

class GatewayBase {
    init(key: String) {}
    func audit(_ amount: Int) {}
}

final class StripeGateway: GatewayBase, PaymentGateway {
    /// Charges the card once; retries are the caller's.
    func charge(amount: Int) -> Receipt {
        audit(amount)
        return Receipt(cents: amount)
    }
}

struct Receipt {
    let cents: Int
}

func formatCents(_ cents: Int) -> String { "\\(cents)" }
"""
ORDERS = """import Foundation

/// Checks orders out.
final class OrderService {
    private let gateway: PaymentGateway
    private let auditor = Auditor()

    init(gateway: PaymentGateway) {
        self.gateway = gateway
    }

    func checkout(total: Int) -> Receipt {
        let receipt = gateway.charge(amount: total)
        notify(receipt)
        auditor.record(receipt)
        log(formatCents(total))
        return receipt
    }

    private func notify(_ receipt: Receipt) {}

    func relay(_ any: AnyObject, send: (String) -> Void) {
        send("x")
        any.notify("sent")
    }

    static func make(gateway: PaymentGateway) -> OrderService {
        return OrderService(gateway: gateway)
    }
}

final class Mailer {
    func notify(_ to: String) {}
}
"""
AUDIT = """final class Auditor {
    func record(_ receipt: Receipt) {
        log("recorded")
    }
}

func log(_ message: String) {}

extension OrderService {
    func checkoutTwice(total: Int) {
        _ = checkout(total: total)
        notify(Receipt(cents: total))
    }
}

enum Shop {
    static func open(gateway: PaymentGateway) -> OrderService { OrderService.make(gateway: gateway) }
}
"""
FILES = {"Sources/Billing/Gateways.swift": GATEWAYS, "Sources/Billing/OrderService.swift": ORDERS}
FILES["Sources/Billing/Audit.swift"] = AUDIT
GATEWAYS_MODULE = "Sources.Billing.Gateways"
ORDERS_MODULE = "Sources.Billing.OrderService"
AUDIT_MODULE = "Sources.Billing.Audit"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("swift"), {"shop": FILES}, ("shop",))
    yield cat
    cat.close()


def test_swift_files_are_code_with_a_grammar() -> None:
    assert FILE_TYPES[".swift"] == (DocumentKind.CODE, "swift")


def test_definitions_are_entities_with_their_doc_comments(catalog: Catalog) -> None:
    found = {e.id: e for e in catalog.entities() if e.project == "shop"}
    assert {
        f"class:shop:{GATEWAYS_MODULE}.PaymentGateway",
        f"method:shop:{GATEWAYS_MODULE}.PaymentGateway.charge",
        f"class:shop:{GATEWAYS_MODULE}.StripeGateway",
        f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge",
        f"method:shop:{GATEWAYS_MODULE}.GatewayBase.init",
        f"class:shop:{GATEWAYS_MODULE}.Receipt",  # a struct
        f"function:shop:{GATEWAYS_MODULE}.formatCents",
        f"method:shop:{ORDERS_MODULE}.OrderService.make",
        f"method:shop:{AUDIT_MODULE}.OrderService.checkoutTwice",  # an extension's method is its type's
        f"class:shop:{AUDIT_MODULE}.Shop",  # an enum
    } <= set(found)
    assert f"class:shop:{AUDIT_MODULE}.OrderService" not in found, "an extension defines no type"
    assert found[f"class:shop:{GATEWAYS_MODULE}.PaymentGateway"].description == "Talks to the card processor."
    charge = found[f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"]
    assert charge.description == "Charges the card once; retries are the caller's."


def test_bases(catalog: Catalog, views: GenerationViews) -> None:
    stripe = f"class:shop:{GATEWAYS_MODULE}.StripeGateway"
    assert edges_out(catalog, views, stripe, relation_types=["INHERITS"]) == {
        ("INHERITS", f"class:shop:{GATEWAYS_MODULE}.GatewayBase"): "exact",
        ("INHERITS", f"class:shop:{GATEWAYS_MODULE}.PaymentGateway"): "exact",
    }


def test_calls_bind_by_declared_type_member_and_the_modules_names(catalog: Catalog, views: GenerationViews) -> None:
    checkout = f"method:shop:{ORDERS_MODULE}.OrderService.checkout"
    assert edges_out(catalog, views, checkout, relation_types=["CALLS"]) == {
        # a stored property typed with another file's protocol, and the class that conforms to it
        ("CALLS", f"method:shop:{GATEWAYS_MODULE}.PaymentGateway.charge"): "inferred",
        ("CALLS", f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"): "dispatch",
        ("CALLS", f"method:shop:{ORDERS_MODULE}.OrderService.notify"): "exact",  # its own, not Mailer's
        ("CALLS", f"method:shop:{AUDIT_MODULE}.Auditor.record"): "inferred",  # `let auditor = Auditor()`
        ("CALLS", f"function:shop:{AUDIT_MODULE}.log"): "inferred",  # the module's one `log`
        ("CALLS", f"function:shop:{GATEWAYS_MODULE}.formatCents"): "inferred",
    }
    stripe_charge = f"method:shop:{GATEWAYS_MODULE}.StripeGateway.charge"
    assert edges_out(catalog, views, stripe_charge, relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{GATEWAYS_MODULE}.GatewayBase.audit"): "exact",  # a member, through the base
        ("CALLS", f"class:shop:{GATEWAYS_MODULE}.Receipt"): "exact",  # constructs the struct
    }
    # a parameter holding a function, and a method on a value no code types: nothing is guessed
    relay = f"method:shop:{ORDERS_MODULE}.OrderService.relay"
    assert edges_out(catalog, views, relay, relation_types=["CALLS"]) == {}
    twice = f"method:shop:{AUDIT_MODULE}.OrderService.checkoutTwice"
    assert edges_out(catalog, views, twice, relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{ORDERS_MODULE}.OrderService.checkout"): "exact",  # the extended type's members
        ("CALLS", f"method:shop:{ORDERS_MODULE}.OrderService.notify"): "exact",
        ("CALLS", f"class:shop:{GATEWAYS_MODULE}.Receipt"): "inferred",  # another file's type, by its name
    }
    open_ = f"method:shop:{AUDIT_MODULE}.Shop.open"
    assert edges_out(catalog, views, open_, relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{ORDERS_MODULE}.OrderService.make"): "inferred",  # a type's static function
    }
