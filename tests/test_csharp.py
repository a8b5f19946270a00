"""C# with structure: classes, structs, interfaces, records and enums as entities with their methods, constructors
and properties; chunks at definition boundaries with `///` docs and `[Attributes]` kept with their definition;
`using` directives as imports; bases and interfaces as INHERITS; calls bound where the file proves them (the
enclosing type's members, `this.`/`base.`, the file's own types, the declared types of fields and locals), the rest
by name: a guess kept only where one entity
has the name, so a same-named method of an unrelated type is never a target. A small real-shaped project of two
files, indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.ingest.code import parse_code
from trident.ingest.walker import FILE_TYPES
from trident.retrieval.entities import resolve_entity
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind

GATEWAY = (
    "using System;\n"
    "\n"
    "namespace Acme.Billing.Gateways\n"
    "{\n"
    "    /// <summary>Talks to the card processor.</summary>\n"
    "    public interface IPaymentGateway\n"
    "    {\n"
    "        Receipt Charge(Money amount);\n"
    "    }\n"
    "\n"
    "    public class StripeGateway : GatewayBase, IPaymentGateway\n"
    "    {\n"
    "        public StripeGateway(string key) : base(key) { }\n"
    "\n"
    "        /// <summary>Charges the card once; retries are the caller's.</summary>\n"
    '        [Obsolete("use ChargeAsync")]\n'
    "        public Receipt Charge(Money amount)\n"
    "        {\n"
    "            Audit(amount);\n"
    "            return new Receipt(amount.Cents);\n"
    "        }\n"
    "\n"
    "        public int Retries { get { return Limits.MaxRetries(); } }\n"
    "    }\n"
    "\n"
    "    public abstract class GatewayBase\n"
    "    {\n"
    "        protected GatewayBase(string key) { }\n"
    "        protected void Audit(Money amount) { }\n"
    "    }\n"
    "\n"
    "    public static class Limits\n"
    "    {\n"
    "        public static int MaxRetries() => 3;\n"
    "    }\n"
    "\n"
    "    public class Till\n"
    "    {\n"
    '        private readonly StripeGateway _stripe = new StripeGateway("key");\n'
    "\n"
    "        public Receipt Pay(Money amount)\n"
    "        {\n"
    "            var auditor = new Auditor();\n"
    "            auditor.Audit(amount);\n"
    "            return _stripe.Charge(amount);\n"
    "        }\n"
    "    }\n"
    "\n"
    "    public class Auditor\n"
    "    {\n"
    "        public void Audit(Money amount) { }\n"
    "    }\n"
    "\n"
    "    public record Receipt(int Cents);\n"
    "    public struct Money { public int Cents; }\n"
    "    public enum Currency { Eur, Usd }\n"
    "}\n"
)
ORDERS = (
    "using Acme.Billing.Gateways;\n"
    "\n"
    "namespace Acme.Billing;\n"
    "\n"
    "public class OrderService\n"
    "{\n"
    "    private readonly IPaymentGateway _gateway;\n"
    "\n"
    "    public OrderService(IPaymentGateway gateway) { _gateway = gateway; }\n"
    "\n"
    "    public Receipt Checkout(Money total)\n"
    "    {\n"
    "        var receipt = _gateway.Charge(total);\n"
    "        Notify(receipt);\n"
    "        return receipt;\n"
    "    }\n"
    "\n"
    "    private void Notify(Receipt receipt) { }\n"
    "\n"
    '    public void Relay(dynamic any) { any.Notify("sent"); }\n'
    "}\n"
    "\n"
    "public class Mailer\n"
    "{\n"
    "    public void Notify(string to) { }\n"
    "}\n"
)
FILES = {"src/Billing/Gateways/StripeGateway.cs": GATEWAY, "src/Billing/OrderService.cs": ORDERS}
MODULE = "src.Billing.Gateways.StripeGateway"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("csharp"), {"shop": FILES}, ("shop",))
    yield cat
    cat.close()


def test_a_cs_file_is_code_with_a_grammar() -> None:
    assert FILE_TYPES[".cs"] == (DocumentKind.CODE, "csharp")


def test_definitions_are_entities_named_by_file_and_type() -> None:
    extraction = parse_code("shop", FILES_PATH, GATEWAY, "csharp", "doc")
    named = {(e.type, e.qualified_name.removeprefix(f"{MODULE}.")) for e in extraction.entities}
    assert {
        ("Class", "IPaymentGateway"),
        ("Method", "IPaymentGateway.Charge"),
        ("Class", "StripeGateway"),
        ("Method", "StripeGateway.StripeGateway"),  # the constructor
        ("Method", "StripeGateway.Charge"),
        ("Method", "StripeGateway.Retries"),  # a property runs code too
        ("Class", "GatewayBase"),
        ("Class", "Limits"),
        ("Method", "Limits.MaxRetries"),
        ("Class", "Receipt"),
        ("Class", "Money"),
        ("Class", "Currency"),
    } <= named, named
    charge = next(e for e in extraction.entities if e.qualified_name == f"{MODULE}.StripeGateway.Charge")
    assert "Charges the card once" in (charge.description or "")
    chunks = {c.title: c for c in extraction.chunks}
    assert chunks["IPaymentGateway"].text.lstrip().startswith("/// <summary>Talks to the card processor.")
    assert chunks["StripeGateway"].id == charge.chunk_id and "[Obsolete" in chunks["StripeGateway"].text
    assert [c.title for c in extraction.chunks][-3:] == ["Receipt", "Money", "Currency"], "one chunk a definition"


FILES_PATH = "src/Billing/Gateways/StripeGateway.cs"


def test_bases_imports_and_calls_are_read_as_written() -> None:
    references = parse_code("shop", FILES_PATH, GATEWAY, "csharp", "doc").references
    bases = {
        (r.source.rsplit(".", 1)[-1], r.target.removeprefix(f"{MODULE}.")) for r in references if r.type == "INHERITS"
    }
    assert bases == {("StripeGateway", "GatewayBase"), ("StripeGateway", "IPaymentGateway")}
    imports = {r.target for r in references if r.type == "IMPORTS"}
    assert imports == {"System"}
    calls = {
        (r.source.split(f"{MODULE}.")[-1], r.target.removeprefix(f"{MODULE}.")) for r in references if r.type == "CALLS"
    }
    assert {("StripeGateway.Charge", "Audit"), ("StripeGateway.Charge", "Receipt")} <= calls
    assert ("StripeGateway.Retries", "MaxRetries") in calls, "a call in a property's getter is the property's"


def test_the_index_binds_calls_and_bases_the_file_proves_and_guesses_only_unique_names(
    catalog: Catalog, views: GenerationViews
) -> None:
    gateway = f"class:shop:{MODULE}.StripeGateway"
    assert edges_out(catalog, views, gateway, relation_types=["INHERITS"]) == {
        ("INHERITS", f"class:shop:{MODULE}.GatewayBase"): "exact",
        ("INHERITS", f"class:shop:{MODULE}.IPaymentGateway"): "exact",
    }
    checkout = "method:shop:src.Billing.OrderService.OrderService.Checkout"
    # `Notify(receipt)` is OrderService's own, not Mailer's; `_gateway` is declared `IPaymentGateway` in another file
    # (named without its namespace: the one class of the project with that name), and StripeGateway overrides it
    assert edges_out(catalog, views, checkout, relation_types=["CALLS"]) == {
        ("CALLS", "method:shop:src.Billing.OrderService.OrderService.Notify"): "exact",
        ("CALLS", f"method:shop:{MODULE}.IPaymentGateway.Charge"): "inferred",
        ("CALLS", f"method:shop:{MODULE}.StripeGateway.Charge"): "dispatch",
    }
    # a `dynamic` receiver states no type: `any.Notify` (OrderService's or Mailer's?) is not guessed
    relay = "method:shop:src.Billing.OrderService.OrderService.Relay"
    assert edges_out(catalog, views, relay, relation_types=["CALLS"]) == {}
    charge = f"method:shop:{MODULE}.StripeGateway.Charge"
    assert edges_out(catalog, views, charge, relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{MODULE}.GatewayBase.Audit"): "exact",  # a bare call: a member, through the base
        ("CALLS", f"class:shop:{MODULE}.Receipt"): "exact",
    }
    # a field's and a local's declared types pick the one `Charge` and `Audit` of the several the names have
    assert edges_out(catalog, views, f"method:shop:{MODULE}.Till.Pay", relation_types=["CALLS"]) == {
        ("CALLS", f"class:shop:{MODULE}.Auditor"): "exact",
        ("CALLS", f"method:shop:{MODULE}.Auditor.Audit"): "inferred",
        ("CALLS", f"method:shop:{MODULE}.StripeGateway.Charge"): "inferred",
    }
    retries = f"method:shop:{MODULE}.StripeGateway.Retries"
    assert edges_out(catalog, views, retries, relation_types=["CALLS"]) == {
        ("CALLS", f"method:shop:{MODULE}.Limits.MaxRetries"): "exact",
    }


def test_a_definition_answers_to_the_name_its_namespace_gives_it(catalog: Catalog, views: GenerationViews) -> None:
    directory = views.directory(catalog)
    charge = resolve_entity(directory, "Acme.Billing.Gateways.StripeGateway.Charge")
    assert charge.id == f"method:shop:{MODULE}.StripeGateway.Charge"  # `namespace Acme.Billing.Gateways { ... }`
    orders = resolve_entity(directory, "Acme.Billing.OrderService")  # `namespace Acme.Billing;`, file-scoped
    assert orders.id == "class:shop:src.Billing.OrderService.OrderService"
