"""Code is chunked at symbol boundaries in every grammar, with its entities, relations and references."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest

from trident.ingest.chunk_tokens import CHUNK_TOKEN_BUDGET, estimate_tokens
from trident.ingest.code import SUPPORTED_LANGUAGES, bindings, parse_code
from trident.ingest.model import Extraction

PYTHON = '''"""Orders and their checkout."""
from .gateway import PaymentGateway
import billing.tax as tax


# Orders know how to pay.
@dataclass
class OrderService(BaseService):
    """Checks orders out.

    Second paragraph."""

    def checkout(self, order):
        receipt = self.gateway.charge(order)
        return Receipt(print(len(receipt)))


def total(order):
    return OrderService().checkout(order)
'''

JAVASCRIPT = """import { PaymentGateway } from "./gateway.js";
const tax = require("../shared/tax");

/** Checks orders out. */
export class OrderService extends BaseService {
  checkout(order) {
    const receipt = this.gateway.charge(order);
    return new Receipt(receipt);
  }
}

export const total = (order) => new OrderService().checkout(order);
"""

TYPESCRIPT = """import { PaymentGateway } from "./gateway";
import type { Tax } from "../shared/tax";

/** Checks orders out. */
export class OrderService extends BaseService implements Checkout {
  checkout(order: Order): Receipt {
    const receipt = this.gateway.charge(order);
    return new Receipt(receipt);
  }
}

export function total(order: Order): Receipt {
  return new OrderService().checkout(order);
}
"""

GO = """package billing

import "example.com/shop/billing/gateway"

// OrderService checks orders out.
type OrderService struct {
	BaseService
	gateway gateway.Client
}

// Checkout charges the order.
func (s *OrderService) Checkout(order Order) Receipt {
	receipt := s.gateway.Charge(order)
	return Receipt{ID: receipt}
}

func Total(order Order) Receipt {
	return (&OrderService{}).Checkout(order)
}
"""

RUST = """use crate::billing::gateway::PaymentGateway;
use super::tax;

/// Checks orders out.
#[derive(Default)]
pub struct OrderService {
    gateway: PaymentGateway,
}

impl Checkout for OrderService {
    fn checkout(&self, order: &Order) -> Receipt {
        let receipt = self.gateway.charge(order);
        Receipt::from(receipt)
    }
}

pub fn total(order: &Order) -> Receipt {
    OrderService::default().checkout(order)
}
"""

JAVA = """package com.shop.billing;

import com.shop.billing.gateway.PaymentGateway;

/** Checks orders out. */
@Service
public class OrderService extends BaseService implements Checkout {
    public Receipt checkout(Order order) {
        String receipt = gateway.charge(order);
        return new Receipt(receipt);
    }
}

class Totals {
    static Receipt total(Order order) {
        return new OrderService().checkout(order);
    }
}
"""

CSHARP = """using Shop.Billing.Gateway;

namespace Shop.Billing;

/// <summary>Checks orders out.</summary>
[Service]
public class OrderService : BaseService, ICheckout {
    public Receipt Checkout(Order order) {
        var receipt = gateway.Charge(order);
        return new Receipt(receipt);
    }
}

class Totals {
    static Receipt Total(Order order) {
        return new OrderService().Checkout(order);
    }
}
"""

PHP = """<?php
namespace Shop\\Billing;
use Shop\\Billing\\Gateway\\PaymentGateway;

/** Checks orders out. */
#[Service]
class OrderService extends BaseService implements Checkout {
    public function checkout(Order $order): Receipt {
        $receipt = $this->gateway->charge($order);
        return new Receipt($receipt);
    }
}

function total(Order $order): Receipt {
    return (new OrderService())->checkout($order);
}

"""

RUBY = """require_relative "gateway/payment_gateway"

# Checks orders out.
class OrderService < BaseService
  include Checkout

  def checkout(order)
    receipt = gateway.charge(order)
    Receipt.new(receipt)
  end
end

def total(order)
  OrderService.new.checkout(order)
end
"""

KOTLIN = """package shop.billing

import shop.billing.gateway.PaymentGateway

/** Checks orders out. */
class OrderService : BaseService(), Checkout {
    fun checkout(order: Order): Receipt {
        val receipt = gateway.charge(order)
        return Receipt(receipt)
    }
}

fun total(order: Order): Receipt {
    return OrderService().checkout(order)
}
"""

SWIFT = """import Foundation
import Gateway

/// Checks orders out.
class OrderService: BaseService, Checkout {
    func checkout(order: Order) -> Receipt {
        let receipt = gateway.charge(order)
        return Receipt(receipt)
    }
}

func total(order: Order) -> Receipt {
    return OrderService().checkout(order: order)
}
"""

SCALA = """package shop.billing

import shop.billing.gateway.PaymentGateway

/** Checks orders out. */
class OrderService extends BaseService with Checkout {
  def checkout(order: Order): Receipt = {
    val receipt = gateway.charge(order)
    new Receipt(receipt)
  }
}

object Totals {
  def total(order: Order): Receipt = new OrderService().checkout(order)
}
"""

CPP = """#include "gateway/payment_gateway.h"

namespace shop {

/* Checks orders out. */
class OrderService : public BaseService, public Checkout {
 public:
  Receipt checkout(Order order) {
    auto receipt = gateway.charge(order);
    return Receipt(receipt);
  }
};

Receipt total(Order order) {
  return OrderService().checkout(order);
}

}  // namespace shop
"""


@dataclass(frozen=True)
class Sample:
    language: str
    path: str
    source: str
    spans: dict[str, tuple[int, int]]  # chunk title -> (first line, last line)
    method: str  # the method's Class.method alias
    callees: frozenset[str]  # what the method calls
    imports: frozenset[str]
    bases: frozenset[str]
    description: str  # the class's
    caller: str  # the top-level symbol that calls the method

    def parse(self) -> Extraction:
        return parse_code("shop", self.path, self.source, self.language, f"shop/{self.path}")


SAMPLES = [
    Sample(
        "python",
        "billing/orders.py",
        PYTHON,
        {"billing.orders": (1, 3), "OrderService": (6, 15), "total": (18, 19)},
        "OrderService.checkout",
        # `len(receipt)` runs `__len__` of what `self.gateway.charge` gives (`gateway` is no attribute this file's
        # class sets: a base of another file may state its class)
        frozenset({"charge", "Receipt", "__len__"}),
        frozenset({"billing.gateway", "billing.tax"}),
        frozenset({"BaseService"}),
        "Checks orders out.",
        "total",
    ),
    Sample(
        "javascript",
        "billing/orders.js",
        JAVASCRIPT,
        {"billing.orders": (1, 2), "OrderService": (4, 10), "total": (12, 12)},
        "OrderService.checkout",
        frozenset({"charge", "Receipt"}),
        frozenset({"billing/gateway", "shared/tax"}),
        frozenset({"BaseService"}),
        "Checks orders out.",
        "total",
    ),
    *(
        Sample(
            language,
            f"billing/orders.{ext}",
            TYPESCRIPT,
            {"billing.orders": (1, 2), "OrderService": (4, 10), "total": (12, 14)},
            "OrderService.checkout",
            frozenset({"charge", "Receipt"}),
            frozenset({"billing/gateway", "shared/tax"}),
            frozenset({"BaseService", "Checkout"}),
            "Checks orders out.",
            "total",
        )
        for language, ext in (("typescript", "ts"), ("tsx", "tsx"))
    ),
    Sample(
        "go",
        "billing/orders.go",
        GO,
        {"billing.orders": (1, 3), "OrderService": (5, 9), "OrderService.Checkout": (11, 15), "Total": (17, 19)},
        "OrderService.Checkout",
        frozenset({"Charge", "billing.Receipt"}),  # the package's types, named by its folder
        frozenset({"example.com/shop/billing/gateway"}),
        frozenset({"billing.BaseService"}),
        "OrderService checks orders out.",
        "Total",
    ),
    Sample(
        "rust",
        "src/billing/orders.rs",
        RUST,
        {"src.billing.orders": (1, 2), "OrderService": (4, 8), "total": (17, 19)},
        "OrderService.checkout",
        frozenset({"charge", "Receipt.from"}),
        frozenset({"src.billing.gateway", "src.billing.tax"}),
        frozenset({"Checkout"}),
        "Checks orders out.",
        "total",
    ),
    Sample(
        "java",
        "com/shop/billing/OrderService.java",
        JAVA,
        {"com.shop.billing.OrderService": (1, 3), "OrderService": (5, 12), "Totals": (14, 18)},
        "OrderService.checkout",
        frozenset({"charge", "com.shop.billing.Receipt"}),  # same-package types, named by the package
        frozenset({"com.shop.billing.gateway.PaymentGateway"}),
        frozenset({"com.shop.billing.BaseService", "com.shop.billing.Checkout"}),
        "Checks orders out.",
        "Totals.total",
    ),
    Sample(
        "csharp",
        "src/Billing/OrderService.cs",
        CSHARP,
        {"src.Billing.OrderService": (1, 3), "OrderService": (5, 12), "Totals": (14, 18)},
        "OrderService.Checkout",
        frozenset({"Charge", "Receipt"}),  # `gateway` has no type the file states; Receipt is another file's
        frozenset({"Shop.Billing.Gateway"}),
        frozenset({"BaseService", "ICheckout"}),
        "Checks orders out.",
        "Totals.Total",
    ),
    Sample(
        "php",
        "src/Billing/OrderService.php",
        PHP,
        {"src.Billing.OrderService": (1, 3), "OrderService": (5, 12), "total": (14, 16)},
        "OrderService.checkout",
        frozenset({"charge", "Shop.Billing.Receipt"}),  # a class by its namespace; `$this->gateway` is untyped
        frozenset({"Shop.Billing.Gateway.PaymentGateway"}),
        frozenset({"Shop.Billing.BaseService", "Shop.Billing.Checkout"}),
        "Checks orders out.",
        "total",
    ),
    Sample(
        "ruby",
        "src/billing/order_service.rb",
        RUBY,
        {"src.billing.order_service": (1, 1), "OrderService": (3, 11), "total": (13, 15)},
        "OrderService.checkout",
        frozenset({"charge", "Receipt"}),  # `gateway` is no variable the method makes; Receipt is another file's
        frozenset({"src.billing.gateway.payment_gateway"}),
        frozenset({"BaseService", "Checkout"}),
        "Checks orders out.",
        "total",
    ),
    Sample(
        "kotlin",
        "src/billing/OrderService.kt",
        KOTLIN,
        {"src.billing.OrderService": (1, 3), "OrderService": (5, 11), "total": (13, 15)},
        "OrderService.checkout",
        frozenset({"charge", "shop.billing.Receipt"}),  # a class of the package; `gateway` has no stated type
        frozenset({"shop.billing.gateway.PaymentGateway"}),
        frozenset({"shop.billing.BaseService", "shop.billing.Checkout"}),
        "Checks orders out.",
        "total",
    ),
    Sample(
        "swift",
        "Sources/Billing/OrderService.swift",
        SWIFT,
        {"Sources.Billing.OrderService": (1, 2), "OrderService": (4, 10), "total": (12, 14)},
        "OrderService.checkout",
        frozenset({"charge", "Receipt"}),  # `gateway` has no stated type; Receipt is the module's one of the name
        frozenset({"Foundation", "Gateway"}),  # modules, as Swift imports them
        frozenset({"BaseService", "Checkout"}),
        "Checks orders out.",
        "total",
    ),
    Sample(
        "scala",
        "src/billing/OrderService.scala",
        SCALA,
        {"src.billing.OrderService": (1, 3), "OrderService": (5, 11), "Totals": (13, 15)},
        "OrderService.checkout",
        frozenset({"charge", "shop.billing.Receipt"}),  # a class of the package; `gateway` has no stated type
        frozenset({"shop.billing.gateway.PaymentGateway"}),
        frozenset({"shop.billing.BaseService", "shop.billing.Checkout"}),
        "Checks orders out.",
        "Totals.total",
    ),
    Sample(
        "cpp",
        "src/billing/order_service.cpp",
        CPP,
        {"src.billing.order_service": (1, 3), "OrderService": (5, 12), "total": (14, 16)},
        "OrderService.checkout",
        frozenset({"charge", "Receipt"}),  # `gateway` is no variable the file declares; Receipt is another file's
        frozenset({"src.billing.gateway.payment_gateway.h", "gateway.payment_gateway.h"}),
        frozenset({"BaseService", "Checkout"}),
        "Checks orders out.",
        "total",
    ),
]
BY_LANGUAGE = pytest.mark.parametrize("sample", SAMPLES, ids=[s.language for s in SAMPLES])


def _by_id(ex: Extraction) -> dict[str, str]:
    """Entity id -> the in-file name a test can read: aliases[0] for members, else the name."""
    return {e.id: (e.aliases[0] if e.type in ("Method",) else e.name) for e in ex.entities}


# Languages with no methods or bases to sample: their own tests hold their samples (tests/test_c.py, test_bash.py,
# test_lua.py).
WITHOUT_CLASSES = frozenset({"c", "bash", "lua"})


def test_every_supported_language_has_a_sample() -> None:
    assert {s.language for s in SAMPLES} | WITHOUT_CLASSES == SUPPORTED_LANGUAGES


@BY_LANGUAGE
def test_chunks_start_and_end_at_symbol_boundaries(sample: Sample) -> None:
    spans: dict[str, tuple[int, int]] = {}
    for chunk in sample.parse().chunks:
        spans.setdefault(chunk.title, (chunk.start_line, chunk.end_line))
    for title, span in sample.spans.items():
        assert spans.get(title) == span, f"{title}: {spans}"


@BY_LANGUAGE
def test_chunk_text_is_exactly_its_lines_and_within_budget(sample: Sample) -> None:
    lines = sample.source.split("\n")
    chunks = sample.parse().chunks
    assert [(c.start_line, c.end_line) for c in chunks] == sorted((c.start_line, c.end_line) for c in chunks)
    for chunk in chunks:
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        assert estimate_tokens(chunk.text) <= CHUNK_TOKEN_BUDGET
        assert chunk.language == sample.language and chunk.kind == "code"


@BY_LANGUAGE
def test_the_module_entity_is_named_by_its_path(sample: Sample) -> None:
    ex = sample.parse()
    module = ex.entities[0]
    dotted = sample.path.rsplit(".", 1)[0].replace("/", ".")
    assert (module.type, module.qualified_name, module.name) == ("Module", dotted, dotted.rsplit(".", 1)[-1])
    assert module.id == f"module:shop:{dotted}"
    assert sample.path in module.aliases
    assert module.chunk_id == ex.chunks[0].id


@BY_LANGUAGE
def test_the_method_is_an_entity_contained_in_its_class(sample: Sample) -> None:
    ex = sample.parse()
    names = _by_id(ex)
    method = next(e for e in ex.entities if e.type == "Method" and e.aliases[0] == sample.method)
    class_name, short = sample.method.split(".")
    assert method.name == short
    assert method.qualified_name.endswith(f".{sample.method}")
    contains = {(names[r.source], names[r.target]) for r in ex.relations if r.type == "CONTAINS"}
    assert (class_name, sample.method) in contains
    defining = next(c for c in ex.chunks if c.id == method.chunk_id)
    assert sample.method in defining.symbols and short in defining.symbols


@BY_LANGUAGE
def test_the_module_defines_its_top_level_symbols(sample: Sample) -> None:
    ex = sample.parse()
    names = _by_id(ex)
    defines = {names[r.target] for r in ex.relations if r.type == "DEFINES"}
    top_level = {t for t in sample.spans if "." not in t}
    assert top_level <= defines
    chunk_ids = {c.id for c in ex.chunks}
    assert all(r.evidence in chunk_ids and r.doc_id == f"shop/{sample.path}" for r in ex.relations)


@BY_LANGUAGE
def test_calls_come_from_the_method_that_makes_them(sample: Sample) -> None:
    ex = sample.parse()
    names = _by_id(ex)
    calls = [r for r in ex.references if r.type == "CALLS"]
    made = {r.target for r in calls if names.get(r.source) == sample.method}
    assert made == sample.callees
    assert all(r.target_types == ("Function", "Method", "Class") for r in calls)


@BY_LANGUAGE
def test_the_top_level_code_calls_the_method_by_its_short_name(sample: Sample) -> None:
    ex = sample.parse()
    names = _by_id(ex)
    short = sample.method.split(".")[1]
    assert {names.get(r.source) for r in ex.references if r.type == "CALLS" and r.target == short} == {sample.caller}


@BY_LANGUAGE
def test_imports_are_references_from_the_module_with_relative_paths_resolved(sample: Sample) -> None:
    ex = sample.parse()
    imports = [r for r in ex.references if r.type == "IMPORTS"]
    assert {r.target for r in imports} == sample.imports
    assert all(r.source == ex.entities[0].id and r.target_types == ("Module",) for r in imports)


@BY_LANGUAGE
def test_bases_become_inherits_references_from_the_class(sample: Sample) -> None:
    ex = sample.parse()
    names = _by_id(ex)
    inherits = {(names[r.source], r.target) for r in ex.references if r.type == "INHERITS"}
    assert inherits == {("OrderService", base) for base in sample.bases}


@BY_LANGUAGE
def test_the_class_description_is_the_first_paragraph_of_its_doc(sample: Sample) -> None:
    order_service = next(e for e in sample.parse().entities if e.name == "OrderService" and e.type == "Class")
    assert order_service.description == sample.description


@BY_LANGUAGE
def test_every_reference_points_at_a_chunk(sample: Sample) -> None:
    ex = sample.parse()
    chunk_ids = {c.id for c in ex.chunks}
    assert ex.references and all(r.evidence in chunk_ids for r in ex.references)
    assert all(e.chunk_id in chunk_ids for e in ex.entities)


@BY_LANGUAGE
def test_parsing_is_deterministic(sample: Sample) -> None:
    first, second = sample.parse(), sample.parse()
    assert first == second
    assert len({c.id for c in first.chunks}) == len(first.chunks)


@pytest.mark.parametrize(
    ("language", "path", "source", "expected"),
    [
        (
            "python",
            "billing/orders.py",
            "from .gateway import Gateway\nfrom ..shared import tax\nfrom . import refunds\nimport os.path as p\n",
            {"billing.gateway", "shared", "billing", "billing.refunds", "os.path"},
        ),
        ("python", "billing/__init__.py", "from .gateway import Gateway\n", {"billing.gateway"}),
        ("python", "orders.py", "from ...far import x\n", {"...far"}),
        (
            "javascript",
            "web/billing/orders.js",
            'import a from "./gateway.js";\nimport b from "../shared/tax";\nconst c = require("lodash");\n',
            {"web/billing/gateway", "web/shared/tax", "lodash"},
        ),
        (
            "typescript",
            "billing/index.ts",
            'export * from "./refunds";\nimport fs = require("fs");\n',
            {"billing/refunds", "fs"},
        ),
        (
            "go",
            "cmd/main.go",
            'package main\n\nimport (\n\t"fmt"\n\tgw "example.com/gw"\n)\n',
            {"fmt", "example.com/gw"},
        ),
        (
            "rust",
            "src/billing/orders.rs",
            "use crate::billing::gateway::{PaymentGateway, retry::Policy};\nmod refunds;\nuse std::fmt;\n",
            {"src.billing.gateway", "src.billing.gateway.retry", "src.billing.orders.refunds", "std.fmt"},
        ),
        (
            "java",
            "A.java",
            "import static com.shop.Util.round;\nimport com.shop.model.*;\nclass A {}\n",
            {"com.shop.Util", "com.shop.model"},
        ),
        (
            "csharp",
            "A.cs",
            "using System.Text;\nusing static Shop.Util.Rounding;\nusing Json = Shop.Model.JsonWriter;\nclass A {}\n",
            {"System.Text", "Shop.Util.Rounding", "Shop.Model.JsonWriter"},
        ),
        (
            "php",
            "a.php",
            "<?php\nuse Shop\\Util\\{Money, Clock as C};\nuse function Shop\\helpers\\round;\nclass A {}\n",
            {"Shop.Util.Money", "Shop.Util.Clock", "Shop.helpers.round"},
        ),
        (
            "ruby",
            "app/models/order.rb",
            'require "json"\nrequire_relative "../lib/util"\nclass A; end\n',
            {"json", "app.lib.util"},
        ),
        (
            "c",
            "src/net/conn.c",
            '#include <zlib.h>\n#include "conn.h"\n#include "../util/buf.h"\nint a;\n',
            {"zlib.h", "src.net.conn.h", "conn.h", "src.util.buf.h"},  # beside the file, and from an include folder
        ),
    ],
)
def test_import_targets_are_absolute_module_names(language: str, path: str, source: str, expected: set[str]) -> None:
    ex = parse_code("shop", path, source, language, path)
    assert {r.target for r in ex.references if r.type == "IMPORTS"} == expected


# language -> (function header, one body line with {i}, closing lines); the function is named `big`
LONG_FUNCTIONS = {
    "python": ("def big(items):", "    total = total + compute_line_amount(item_{i}, rate_{i}, discount_{i})", ""),
    "javascript": ("function big(items) {", "  total = total + computeLine(item_{i}, rate_{i}, discount_{i});", "}"),
    "typescript": ("function big(items: Item[]) {", "  total += computeLine(item_{i}, rate_{i}, discount_{i});", "}"),
    "tsx": ("function big(items: Item[]) {", "  total += computeLine(item_{i}, rate_{i}, discount_{i});", "}"),
    "go": ("func big(items []Item) int {", "\ttotal += computeLine(item_{i}, rate_{i}, discount_{i})", "}"),
    "rust": ("fn big(items: &[Item]) -> i64 {", "    total += compute_line(item_{i}, rate_{i}, discount_{i});", "}"),
    "java": (
        "class Big { int big(Item[] items) {",
        "    total += computeLine(item_{i}, rate_{i}, discount_{i});",
        "} }",
    ),
    "csharp": (
        "class Big { int big(Item[] items) {",
        "    total += ComputeLine(item_{i}, rate_{i}, discount_{i});",
        "} }",
    ),
    "php": ("<?php function big($items) {", "    $total += computeLine($item_{i}, $rate_{i}, $discount_{i});", "}"),
    "ruby": ("def big(items)", "  total = total + compute_line(item_{i}, rate_{i}, discount_{i})", "end"),
    "c": ("int big(struct item *items) {", "    total += compute_line(item_{i}, rate_{i}, discount_{i});", "}"),
    "cpp": ("int big(const Items& items) {", "    total += computeLine(item_{i}, rate_{i}, discount_{i});", "}"),
    "kotlin": ("fun big(items: List<Item>): Int {", "    total += computeLine(item_{i}, rate_{i}, discount_{i})", "}"),
    "swift": ("func big(items: [Item]) -> Int {", "    total += computeLine(item_{i}, rate_{i}, discount_{i})", "}"),
    "scala": ("def big(items: Seq[Item]): Int = {", "    total += computeLine(item_{i}, rate_{i}, discount_{i})", "}"),
}


@pytest.mark.parametrize("language", sorted(LONG_FUNCTIONS))
def test_an_oversized_function_is_split_into_overlapping_pieces_within_budget(language: str) -> None:
    header, line, footer = LONG_FUNCTIONS[language]
    body = [line.format(i=i) for i in range(90)]
    source = "\n".join([header, *body, footer]) + "\n"
    ex = parse_code("shop", "work.x", source, language, "work.x")
    pieces = [c for c in ex.chunks if "big" in c.symbols]
    assert len(pieces) > 2
    assert all(estimate_tokens(c.text) <= CHUNK_TOKEN_BUDGET for c in ex.chunks)
    assert {c.title for c in pieces} == {"Big.big" if language in ("java", "csharp") else "big"}
    for before, after in itertools.pairwise(pieces):
        assert before.start_line < after.start_line <= before.end_line, "pieces must overlap and advance"
    assert pieces[0].start_line == 1 and pieces[-1].end_line >= len(body) + 1
    big = next(e for e in ex.entities if e.name == "big")
    assert big.chunk_id == pieces[0].id


# language -> (class opening lines, method template with {i} and {body}, body line with {j}, closing line)
BIG_CLASSES = {
    "python": (
        ["class Pipeline(Stage):", '    """Runs many steps."""', "    retries = 3", ""],
        "    def step_{i}(self, value):\n{body}\n        return value\n",
        "        value = transform_{j}(value, {j})",
        "",
    ),
    "javascript": (
        ["class Pipeline extends Stage {", "  retries = 3;"],
        "  step_{i}(value) {{\n{body}\n    return value;\n  }}",
        "    value = transform_{j}(value, {j});",
        "}",
    ),
    "typescript": (
        ["export class Pipeline extends Stage {", "  retries = 3;"],
        "  step_{i}(value: number): number {{\n{body}\n    return value;\n  }}",
        "    value = transform_{j}(value, {j});",
        "}",
    ),
    "java": (
        ["public class Pipeline extends Stage {", "    private int retries = 3;"],
        "    int step_{i}(int value) {{\n{body}\n        return value;\n    }}",
        "        value = transform_{j}(value, {j});",
        "}",
    ),
    "csharp": (
        ["public class Pipeline : Stage {", "    private int retries = 3;"],
        "    int step_{i}(int value) {{\n{body}\n        return value;\n    }}",
        "        value = Transform_{j}(value, {j});",
        "}",
    ),
    "php": (
        ["<?php", "class Pipeline extends Stage {", "    private $retries = 3;"],
        "    public function step_{i}($value) {{\n{body}\n        return $value;\n    }}",
        "        $value = transform_{j}($value, {j});",
        "}",
    ),
    "ruby": (
        ["class Pipeline < Stage", "  RETRIES = 3"],
        "  def step_{i}(value)\n{body}\n    value\n  end",
        "    value = transform_{j}(value, {j})",
        "end",
    ),
    "cpp": (
        ["class Pipeline : public Stage {", " public:", "  int retries = 3;"],
        "  int step_{i}(int value) {{\n{body}\n    return value;\n  }}",
        "    value = transform_{j}(value, {j});",
        "};",
    ),
    "kotlin": (
        ["class Pipeline : Stage() {", "    private val retries = 3"],
        "    fun step_{i}(value: Int): Int {{\n{body}\n        return value\n    }}",
        "        val v{j} = transform_{j}(value, {j})",
        "}",
    ),
    "swift": (
        ["class Pipeline: Stage {", "    private let retries = 3"],
        "    func step_{i}(value: Int) -> Int {{\n{body}\n        return value\n    }}",
        "        let v{j} = transform_{j}(value, {j})",
        "}",
    ),
    "scala": (
        ["class Pipeline extends Stage {", "  private val retries = 3"],
        "  def step_{i}(value: Int): Int = {{\n{body}\n    value\n  }}",
        "    val v{j} = transform_{j}(value, {j})",
        "}",
    ),
    "rust": (
        ["impl Pipeline {"],
        "    fn step_{i}(&self, value: i64) -> i64 {{\n{body}\n        value\n    }}",
        "        let value = transform_{j}(value, {j});",
        "}",
    ),
}


@pytest.mark.parametrize("language", sorted(BIG_CLASSES))
def test_a_big_class_is_split_into_a_header_and_one_chunk_per_method(language: str) -> None:
    opening, method, body_line, closing = BIG_CLASSES[language]
    methods = [method.format(i=i, body="\n".join(body_line.format(j=j) for j in range(10))) for i in range(6)]
    source = "\n".join([*opening, *methods, closing]) + "\n"
    ex = parse_code("shop", "pipeline.x", source, language, "pipeline.x")
    titles = [c.title for c in ex.chunks]
    assert [t for t in titles if t.startswith("Pipeline.")] == [f"Pipeline.step_{i}" for i in range(6)]
    if language == "rust":  # an impl block is no entity, and its lone `impl Pipeline {` line no chunk
        assert all(t.startswith("Pipeline.") for t in titles)
    else:
        assert titles[0] == "Pipeline"
        header = ex.chunks[0]
        opens = next(n for n, line in enumerate(opening, 1) if "Pipeline" in line)  # after PHP's `<?php` line
        assert header.start_line == opens and "Pipeline" in header.symbols and "step_0" not in header.text
    step_2 = next(c for c in ex.chunks if c.title == "Pipeline.step_2")
    lines = source.split("\n")
    assert lines[step_2.start_line - 1].lstrip().split("(")[0].endswith("step_2")
    assert "step_3" not in step_2.text and step_2.symbols[:2] == ("step_2", "Pipeline.step_2")
    method_entity = next(e for e in ex.entities if e.name == "step_2")
    assert method_entity.chunk_id == step_2.id
    assert all(estimate_tokens(c.text) <= CHUNK_TOKEN_BUDGET for c in ex.chunks)
    assert not any(c.text.strip() in ("}", "};") for c in ex.chunks), "a lone closing brace is no chunk"


BROKEN = {
    "python": "def ok():\n    return 1\n\ndef broken(:\n    pass\n",
    "javascript": "function ok() {\n  return 1;\n}\n\nfunction broken( {\n  return ;\n",
    "typescript": "function ok(): number {\n  return 1;\n}\n\nfunction broken( {\n  return ;\n",
    "tsx": "function ok(): number {\n  return 1;\n}\n\nconst x = <div>{broken(</div>;\n",
    "go": "package a\nfunc ok() int {\n\treturn 1\n}\n\nfunc broken( {\n",
    "rust": "fn ok() -> i32 {\n    1\n}\n\nfn broken( {\n",
    "java": "class A {\n    int ok() {\n        return 1;\n    }\n    void broken( {\n}\n",
    "csharp": "class A {\n    int ok() {\n        return 1;\n    }\n    void broken( {\n}\n",
    "php": "<?php\nfunction ok() {\n    return 1;\n}\n\nfunction broken( {\n",
    "ruby": "def ok\n  1\nend\n\ndef broken(\n",
    "c": "int ok(void) {\n    return 1;\n}\n\nint broken( {\n",
    "cpp": "class A {\n  int ok() {\n    return 1;\n  }\n  void broken( {\n};\n",
    "kotlin": "class A {\n    fun ok(): Int {\n        return 1\n    }\n    fun broken( {\n}\n",
    "swift": "class A {\n    func ok() -> Int {\n        return 1\n    }\n    func broken( {\n}\n",
    "scala": "class A {\n  def ok(): Int = {\n    1\n  }\n  def broken( = {\n}\n",
}


@pytest.mark.parametrize("language", sorted(BROKEN))
def test_broken_syntax_still_yields_chunks_for_what_parses(language: str) -> None:
    ex = parse_code("shop", "broken.x", BROKEN[language], language, "broken.x")
    assert ex.chunks
    assert any("ok" in c.symbols for c in ex.chunks)
    assert any("broken" in c.text for c in ex.chunks), "the broken part is still searchable"


@pytest.mark.parametrize("language", sorted(SUPPORTED_LANGUAGES))
def test_an_empty_file_yields_its_module_alone(language: str) -> None:
    ex = parse_code("shop", "pkg/empty.x", "\n\n  \n", language, "pkg/empty.x")
    assert (ex.chunks, ex.relations, ex.references) == ([], [], [])
    assert [(e.id, e.chunk_id, e.path) for e in ex.entities] == [("module:shop:pkg.empty", None, "pkg/empty.x")]


def test_an_unknown_language_is_refused_with_the_supported_ones() -> None:
    with pytest.raises(ValueError, match=r"cobol.*python"):
        parse_code("shop", "a.cbl", "x", "cobol", "a.cbl")


def test_one_reference_per_caller_and_callee_with_the_first_call_as_evidence() -> None:
    source = "def pay(order):\n    charge(order)\n    charge(order)\n\n\ncharge(1)\n"
    ex = parse_code("shop", "pay.py", source, "python", "pay.py")
    calls = [(r.source.rsplit(":", 1)[1], r.target) for r in ex.references if r.type == "CALLS"]
    assert calls == [("pay.pay", "charge"), ("pay", "charge")]
    first = next(r for r in ex.references if r.type == "CALLS")
    assert next(c for c in ex.chunks if c.id == first.evidence).start_line == 1


def test_python_builtins_and_recursion() -> None:
    source = "def walk(node):\n    print(len(node))\n    return [walk(c) for c in sorted(node)]\n"
    ex = parse_code("shop", "tree.py", source, "python", "tree.py")
    calls = [r for r in ex.references if r.type == "CALLS"]
    named = [(r.target, r.form, r.resolution) for r in calls if r.form != "member"]
    # no `print`, `len` or `sorted`; sorting `node` runs the body of any generator a caller passes `walk`
    assert sorted(named) == [("tree.walk", "qualified", "exact"), ("tree.walk@(node#0)<next>", "qualified", "inferred")]
    # what `len(node)` and sorting it run are the methods of whatever calls pass `walk`: the indexer's to look up
    run = {(r.target, r.owner) for r in calls if r.form == "member"}
    assert run == {(dunder, "tree.walk@(node#0)") for dunder in ("__len__", "__iter__", "__next__")}


def test_a_trailing_comment_stays_with_the_code_before_it() -> None:
    source = "LIMIT = 3  # orders per batch\ndef batch():\n    return LIMIT\n"
    chunks = parse_code("shop", "jobs.py", source, "python", "jobs.py").chunks
    assert [(c.title, c.start_line, c.end_line) for c in chunks] == [("jobs", 1, 1), ("batch", 2, 3)]


def test_nested_classes_are_qualified_by_their_outer_class() -> None:
    source = (
        "public class Order {\n    static class Builder {\n        Order build() { return new Order(); }\n    }\n}\n"
    )
    ex = parse_code("shop", "Order.java", source, "java", "Order.java")
    qualified = {e.qualified_name for e in ex.entities}
    assert {"Order.Order", "Order.Order.Builder", "Order.Order.Builder.build"} <= qualified
    names = {e.id: e.qualified_name for e in ex.entities}
    contains = {(names[r.source], names[r.target]) for r in ex.relations if r.type == "CONTAINS"}
    assert ("Order.Order", "Order.Order.Builder") in contains
    assert ("Order.Order.Builder", "Order.Order.Builder.build") in contains


def test_go_methods_of_a_type_declared_elsewhere_hang_on_the_module() -> None:
    source = "package billing\n\nfunc (s *Ledger) Post(e Entry) {\n\ts.entries = append(s.entries, e)\n}\n"
    ex = parse_code("shop", "billing/post.go", source, "go", "billing/post.go")
    post = next(e for e in ex.entities if e.name == "Post")
    assert (post.type, post.aliases[0]) == ("Method", "Ledger.Post")
    assert [(r.type, r.target) for r in ex.relations] == [("DEFINES", post.id)]
    assert not [r for r in ex.references if r.type == "CALLS"], "append is a builtin"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_line_numbers_follow_any_newline_convention(newline: str) -> None:
    source = newline.join(["def a():", "    return 1", "", "def b():", "    return 2", ""])
    chunks = parse_code("shop", "ab.py", source, "python", "ab.py").chunks
    assert [(c.title, c.start_line, c.end_line, c.text) for c in chunks] == [
        ("a", 1, 2, "def a():\n    return 1"),
        ("b", 4, 5, "def b():\n    return 2"),
    ]


@pytest.mark.parametrize(
    ("language", "path", "text"),
    [
        (
            "python",
            "shop/orders.py",
            "class Orders:\n    def pay(self):\n        self.charge()\n\n    def charge(self):\n        pass\n",
        ),
        ("java", "shop/Orders.java", "class Orders {\n    void pay() { charge(); }\n    void charge() {}\n}\n"),
        (
            "go",
            "shop/orders.go",
            "package shop\n\ntype Orders struct{}\n\nfunc (o *Orders) Pay() { o.Charge() }\n\n"
            "func (o *Orders) Charge() {}\n",
        ),
    ],
)
def test_a_file_s_bindings_are_what_its_parse_hands_the_indexer(language: str, path: str, text: str) -> None:
    bound = bindings(path, text, language)
    assert bound is not None
    charged = [c for c in bound.calls if c.target.name in ("charge", "Charge")]
    assert len(charged) == 1, bound.calls
    call = charged[0]
    references = [r for r in parse_code("shop", path, text, language, "doc").references if r.type == "CALLS"]
    assert any(r.target == call.target.name and r.resolution == call.target.resolution for r in references)
