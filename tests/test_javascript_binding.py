"""JavaScript, TypeScript and TSX calls bound by scope and stated type: each call names what the file says it is."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.projects import call_edges, indexed_projects
from trident.ingest.code import parse_code
from trident.store.catalog import Catalog
from trident.store.schema import Resolution

EXACT, INFERRED, NAME = Resolution.EXACT, Resolution.INFERRED, Resolution.NAME


@dataclass(frozen=True)
class Call:
    caller: str  # the caller's name within its file ("" is the module)
    form: str
    target: str
    resolution: Resolution
    owner: str = ""
    after_owner: bool = False


def _refs(
    source: str, path: str = "src/billing/orders.ts", language: str = "typescript", kind: str = "CALLS"
) -> list[Call]:
    extraction = parse_code("shop", path, source, language, f"shop/{path}")
    module = extraction.entities[0].qualified_name
    locals_ = {e.id: e.qualified_name.removeprefix(module).lstrip(".") for e in extraction.entities}
    return [
        Call(locals_[r.source], r.form, r.target, r.resolution, r.owner, r.after_owner)
        for r in extraction.references
        if r.type == kind
    ]


def _calls_from(
    caller: str, source: str, path: str = "src/billing/orders.ts", language: str = "typescript"
) -> list[Call]:
    return [c for c in _refs(source, path, language) if c.caller == caller]


def _member(caller: str, name: str, owner: str, resolution: Resolution, after_owner: bool = False) -> Call:
    return Call(caller, "member", name, resolution, owner, after_owner)


def _qualified(caller: str, name: str, resolution: Resolution = EXACT) -> Call:
    return Call(caller, "qualified", name, resolution)


def _name(caller: str, name: str) -> Call:
    return Call(caller, "name", name, NAME)


ORDERS = "src.billing.orders"

TWINS = """
export class Client {
  send(request) {
    return this.sendSingle(request);
  }
  sendSingle(request) {
    return request;
  }
}

export class AsyncClient {
  async send(request) {
    return [request].map((r) => this.sendSingle(r));
  }
  async sendSingle(request) {
    return request;
  }
}
"""


@pytest.mark.parametrize(
    ("language", "path"), [("javascript", "src/billing/orders.js"), ("tsx", "src/billing/orders.tsx")]
)
def test_a_call_on_this_is_a_member_of_the_enclosing_class_through_arrow_functions(language: str, path: str) -> None:
    calls = _refs(TWINS, path, language)
    assert _member("Client.send", "sendSingle", f"{ORDERS}.Client", EXACT) in calls
    assert _member("AsyncClient.send", "sendSingle", f"{ORDERS}.AsyncClient", EXACT) in calls
    assert [c for c in calls if c.target == "map"] == []  # an array's method


def test_this_in_a_function_expression_is_not_the_class_and_in_an_object_literal_neither() -> None:
    source = """
class Widget {
  render() {
    setTimeout(function () { this.draw(); }, 0);
    const handlers = { click() { this.paint(); } };
  }
  draw() {}
  paint() {}
}
"""
    assert _calls_from("Widget.render", source) == [_name("Widget.render", "draw"), _name("Widget.render", "paint")]


def test_super_is_a_member_looked_up_after_the_class_and_a_super_constructor_call_is_dropped() -> None:
    source = """
import { Base } from './base';

export class Service extends Base {
  constructor() {
    super();
  }
  close() {
    super.close();
  }
}
"""
    assert _calls_from("Service.constructor", source) == []
    assert _calls_from("Service.close", source) == [
        _member("Service.close", "close", f"{ORDERS}.Service", EXACT, after_owner=True)
    ]


def test_imports_bind_named_aliased_default_and_namespace_calls_to_their_modules() -> None:
    source = """
import Gateway, { charge as pay, refund } from './gateway.js';
import * as tax from '../shared/tax';
import { connect } from '@acme/db/pool';

export function checkout(order) {
  pay(order);
  refund(order);
  Gateway(order);
  tax.rate(order);
  tax.rules.apply(order);
  connect();
}
"""
    assert _calls_from("checkout", source) == [
        _qualified("checkout", "src.billing.gateway.charge"),
        _qualified("checkout", "src.billing.gateway.refund"),
        _qualified("checkout", "src.billing.gateway.Gateway", INFERRED),  # the exported name is not in the file
        _qualified("checkout", "src.shared.tax.rate"),
        _qualified("checkout", "src.shared.tax.rules.apply"),
        _qualified("checkout", "acme.db.pool.connect"),
    ]


def test_commonjs_require_binds_modules_destructured_names_and_members() -> None:
    source = """
const util = require('./util');
const { format, parse: parseDate } = require('../shared/dates');
const Service = require('./service').Service;

function main() {
  util.log('x');
  format(1);
  parseDate('x');
  new Service();
  require('./other').run();
}
"""
    assert _calls_from("main", source, "lib/main.js", "javascript") == [
        _qualified("main", "lib.util.log"),
        _qualified("main", "shared.dates.format"),
        _qualified("main", "shared.dates.parse"),
        _qualified("main", "lib.service.Service"),
        _qualified("main", "lib.other.run"),
    ]


def test_definitions_of_the_module_are_qualified_arrow_functions_included() -> None:
    source = """
export const total = (order) => order.sum;

export function checkout(order) {
  return total(order) + discount.call(null, order);
}

function discount(order) {
  return 0;
}
"""
    assert _calls_from("checkout", source) == [
        _qualified("checkout", f"{ORDERS}.total"),
        _qualified("checkout", f"{ORDERS}.discount"),
    ]


def test_a_constructor_call_names_the_class_and_types_the_variable_it_is_assigned_to() -> None:
    source = """
import { Repo } from './repo';

class Order {
  save() {}
  static load() {}
}

function run() {
  const order = new Order();
  order.save();
  const repo = new Repo<Order>();
  repo.find();
  new Order().save();
  Order.load();
}
"""
    assert _calls_from("run", source) == [
        _qualified("run", f"{ORDERS}.Order"),
        _member("run", "save", f"{ORDERS}.Order", INFERRED),
        _qualified("run", "src.billing.repo.Repo"),
        _member("run", "find", "src.billing.repo.Repo", INFERRED),
        _member("run", "load", f"{ORDERS}.Order", EXACT),  # a static call on a class of the file
    ]


def test_typed_parameters_locals_and_casts_give_inferred_members() -> None:
    source = """
import type { Gateway } from './gateway';
import * as models from './models';

export function pay(gateway: Gateway | null, order: models.Order, items: string[], raw: unknown) {
  gateway.charge(order);
  order.validate();
  items.includes('x');
  let current: Gateway;
  current.refund();
  (raw as Gateway).void();
}
"""
    assert _calls_from("pay", source) == [
        _member("pay", "charge", "src.billing.gateway.Gateway", INFERRED),
        _member("pay", "validate", "src.billing.models.Order", INFERRED),
        _member("pay", "refund", "src.billing.gateway.Gateway", INFERRED),
        _member("pay", "void", "src.billing.gateway.Gateway", INFERRED),
    ]


def test_a_loop_over_an_array_of_a_stated_type_types_its_variable() -> None:
    source = """
import { Observer } from './observer';

export class Subject {
  private observers: Observer[] = [];

  next(value, others: ReadonlyArray<Observer>, untyped) {
    for (const observer of this.observers) {
      observer.next(value);
    }
    for (const other of others) other.complete();
    for (const item of untyped) item.close();
    this.observers.find((o) => o).error();
  }
}
"""
    assert _calls_from("Subject.next", source) == [
        _member("Subject.next", "next", "src.billing.observer.Observer", INFERRED),
        _member("Subject.next", "complete", "src.billing.observer.Observer", INFERRED),
        _name("Subject.next", "close"),
    ]


def test_fields_typed_by_declaration_parameter_property_or_constructor_assignment_give_inferred_members() -> None:
    source = """
import { Pool } from './pool';
import { Gateway } from './gateway';
import { Cache } from './cache';
import { Logger } from './logger';

export class OrderService {
  private pool: Pool;
  private cache = new Cache();

  constructor(private readonly gateway: Gateway, logger: Logger) {
    this.logger = logger;
    this.audit = new Logger();
  }

  checkout(order) {
    this.pool.query(order);
    this.gateway.charge(order);
    this.cache.put(order);
    this.logger.info(order);
    this.audit.info(order);
    const pool = this.pool;
    pool.release();
  }
}
"""
    owner = "src.billing.{}".format
    assert _calls_from("OrderService.checkout", source) == [
        _member("OrderService.checkout", "query", owner("pool.Pool"), INFERRED),
        _member("OrderService.checkout", "charge", owner("gateway.Gateway"), INFERRED),
        _member("OrderService.checkout", "put", owner("cache.Cache"), INFERRED),
        _member("OrderService.checkout", "info", owner("logger.Logger"), INFERRED),
        _member("OrderService.checkout", "release", owner("pool.Pool"), INFERRED),
    ]


def test_a_javascript_field_assigned_a_new_instance_in_the_constructor_gives_an_inferred_member() -> None:
    source = """
const { Pool } = require('./pool');

class Store {
  constructor() {
    this.pool = new Pool();
  }
  get(key) {
    return this.pool.query(key);
  }
}
"""
    assert _calls_from("Store.get", source, "lib/store.js", "javascript") == [
        _member("Store.get", "query", "lib.pool.Pool", INFERRED)
    ]


def test_an_untyped_receiver_gives_only_the_name_and_builtins_give_nothing() -> None:
    source = """
export function flush(stream, items) {
  stream.drain();
  console.log('x');
  JSON.stringify(items);
  Math.max(1, 2);
  Object.keys(items).forEach((k) => k);
  items.push(1);
  items.map((x) => x).filter(Boolean).join(',');
  fetch('/x').then(() => 1).catch(() => 2);
  setTimeout(() => stream.close(), 10);
  expect(items).toEqual([]);
  parseInt('1');
}
"""
    assert _calls_from("flush", source) == [_name("flush", "drain"), _name("flush", "close")]


def test_what_a_package_call_returns_is_the_packages_and_what_a_project_function_returns_is_guessed() -> None:
    source = """
import { z } from 'zod';
import { expect } from 'vitest';
import { makeOrder } from './orders';

export function check(input) {
  z.string().min(1).parse(input);
  expect(input).toEqual({});
  makeOrder().submit();
}
"""
    assert _calls_from("check", source, "src/check.ts") == [
        _qualified("check", "zod.z.string"),
        _qualified("check", "vitest.expect"),
        _name("check", "submit"),
        _qualified("check", "src.orders.makeOrder"),
    ]


def test_a_call_of_a_parameter_or_local_function_is_not_a_name_guess_and_locals_shadow_imports() -> None:
    source = """
import { charge } from './gateway';

export function run(callback, charge2) {
  const local = () => 1;
  function inner() {}
  callback();
  local();
  inner();
  helperNobodyImported();
}

export function shadow(charge) {
  charge();
  charge.refund();
}
"""
    assert _calls_from("run", source) == [_name("run", "helperNobodyImported")]
    assert _calls_from("shadow", source) == [_name("shadow", "refund")]


def test_functions_defined_in_a_top_level_callback_are_the_modules() -> None:
    source = """
describe('orders', () => {
  function makeOrder() {
    return {};
  }
  it('totals', () => {
    const order = makeOrder();
    order.total();
  });
});
"""
    assert _calls_from("", source, "src/orders.test.ts") == [
        _qualified("", "src.orders.test.makeOrder"),
        _name("", "total"),
    ]


def test_bases_are_qualified_through_imports_and_unknown_ones_stay_names() -> None:
    source = """
import { Base } from './base';
import * as contracts from '../contracts';
import React from 'react';

export class A extends Base implements contracts.Checkout, Unknown {}
export class B extends React.Component<Props> {}
export class C extends Error {}
export interface D extends contracts.Named {}
"""
    assert _refs(source, kind="INHERITS") == [
        Call("A", "qualified", "src.billing.base.Base", EXACT),
        Call("A", "qualified", "src.contracts.Checkout", EXACT),
        Call("A", "name", "Unknown", NAME),
        Call("B", "qualified", "react.React.Component", INFERRED),
        Call("D", "qualified", "src.contracts.Named", EXACT),
    ]


def test_a_specifier_above_the_project_root_binds_nothing_qualified() -> None:
    source = "import { charge } from '../../gateway';\n\nexport function pay() {\n  charge();\n}\n"
    assert _calls_from("pay", source, "src/pay.ts") == []


# --- end to end: the real engines, as the indexer links references across files and projects ---

PROJECTS: dict[str, dict[str, str]] = {
    "pool": {
        "package.json": '{"name": "pool"}\n',
        "pool/index.ts": "export { ConnectionPool } from './connection';\n",
        "pool/connection.ts": (
            "export class ConnectionPool {\n"
            "  handleRequest(request: string): string {\n"
            "    return this.assign(request);\n"
            "  }\n\n"
            "  assign(request: string): string {\n"
            "    return request;\n"
            "  }\n"
            "}\n"
        ),
    },
    "client": {
        "src/client.ts": TWINS,
        "src/transport.ts": (
            "import { ConnectionPool } from 'pool';\n\n"
            "export class Transport {\n"
            "  constructor(private pool: ConnectionPool) {}\n\n"
            "  handleRequest(request: string): string {\n"
            "    return this.pool.handleRequest(request);\n"
            "  }\n"
            "}\n"
        ),
        # a barrel that is no `index`: a name imported from it is one of the modules it re-exports
        "src/internal.ts": "export * from './util/strings';\nexport * from './transport';\n",
        "src/util/strings.ts": "export function normalize(request: string): string {\n  return request.trim();\n}\n",
        "src/gateway.ts": (
            "import { normalize } from './internal';\n\n"
            "export function prepare(request: string): string {\n"
            "  return normalize(request);\n"
            "}\n"
        ),
        "src/app.js": (
            "const { Transport } = require('./transport');\n\n"
            "class App {\n"
            "  constructor(pool) {\n"
            "    this.transport = new Transport(pool);\n"
            "  }\n\n"
            "  run(request) {\n"
            "    return this.transport.handleRequest(request);\n"
            "  }\n"
            "}\n"
        ),
    },
}
SEND = "method:client:src.client.Client.send"
SEND_SINGLE = "method:client:src.client.Client.sendSingle"
ASYNC_SEND = "method:client:src.client.AsyncClient.send"
ASYNC_SEND_SINGLE = "method:client:src.client.AsyncClient.sendSingle"
TRANSPORT_HANDLE = "method:client:src.transport.Transport.handleRequest"
APP_RUN = "method:client:src.app.App.run"
POOL_HANDLE = "method:pool:pool.connection.ConnectionPool.handleRequest"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    # the client first: its calls into the pool resolve when the pool arrives
    cat = indexed_projects(tmp_path_factory.mktemp("javascript"), PROJECTS, ("client", "pool"))
    yield cat
    cat.close()


def test_each_twin_class_calls_only_its_own_method(catalog: Catalog) -> None:
    edges = call_edges(catalog)
    assert edges[(SEND, SEND_SINGLE)].resolution == Resolution.EXACT
    assert edges[(ASYNC_SEND, ASYNC_SEND_SINGLE)].resolution == Resolution.EXACT
    assert (SEND, ASYNC_SEND_SINGLE) not in edges and (ASYNC_SEND, SEND_SINGLE) not in edges


def test_a_typed_field_calls_across_files_and_into_another_project(catalog: Catalog) -> None:
    edges = call_edges(catalog)
    assert edges[(APP_RUN, TRANSPORT_HANDLE)].resolution == Resolution.INFERRED  # this.transport = new Transport()
    assert edges[(TRANSPORT_HANDLE, POOL_HANDLE)].resolution == Resolution.INFERRED  # private pool: ConnectionPool
    assert (TRANSPORT_HANDLE, TRANSPORT_HANDLE) not in edges


def test_a_name_imported_from_a_barrel_is_the_definition_it_re_exports(catalog: Catalog) -> None:
    edges = call_edges(catalog)
    prepare, normalize = "function:client:src.gateway.prepare", "function:client:src.util.strings.normalize"
    assert edges[(prepare, normalize)].resolution == Resolution.EXACT


def test_the_surest_of_two_calls_to_the_same_method_is_kept() -> None:
    text = (
        "export class Order {\n"
        "  total() { return 1; }\n"
        "  check(other: Order) { other.total(); return this.total(); }\n"
        "}\n"
    )
    calls = [r for r in parse_code("shop", "src/order.ts", text, "typescript", "doc").references if r.type == "CALLS"]
    assert [(r.target, r.owner, r.resolution) for r in calls] == [("total", "src.order.Order", Resolution.EXACT)]
