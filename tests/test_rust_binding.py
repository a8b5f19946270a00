"""Rust calls and trait impls bound by `use`, module and stated type: what the binder says, and the edges it gives."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import call_edges, indexed_projects
from trident.ingest.code import parse_code
from trident.ingest.model import Reference, TargetForm
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.store.schema import Resolution
from trident.tools.trace import Direction, trace_relationships

EXACT, INFERRED, NAME = Resolution.EXACT, Resolution.INFERRED, Resolution.NAME
MEMBER, QUALIFIED, BARE = TargetForm.MEMBER, TargetForm.QUALIFIED, TargetForm.NAME


def _references(text: str, path: str = "src/billing/orders.rs", kind: str = "CALLS") -> list[Reference]:
    return [r for r in parse_code("shop", path, text, "rust", "doc").references if r.type == kind]


def _calls(text: str, path: str = "src/billing/orders.rs") -> set[tuple[str, TargetForm, Resolution, str, str]]:
    """(caller's local name, form, resolution, owner, target) for each call; the caller without its module."""
    module = path.removesuffix(".rs").replace("/", ".")
    return {
        (r.source.split(":", 2)[-1].removeprefix(f"{module}."), r.form, r.resolution, r.owner, r.target)
        for r in _references(text, path)
    }


def _targets(text: str, caller: str, path: str = "src/billing/orders.rs") -> set[str]:
    return {f"{owner}::{target}" if owner else target for c, _, _, owner, target in _calls(text, path) if c == caller}


TWINS = """
pub struct SyncClient;
pub struct AsyncClient;

impl SyncClient {
    pub fn send(&self) { self.send_single(); }
    fn send_single(&self) {}
}

impl AsyncClient {
    pub fn send(&self) { Self::send_single(); }
    fn send_single() {}
}
"""


def test_self_and_self_type_calls_are_members_of_their_own_impl_type() -> None:
    calls = _calls(TWINS)
    assert ("SyncClient.send", MEMBER, EXACT, "src.billing.orders.SyncClient", "send_single") in calls
    assert ("AsyncClient.send", MEMBER, EXACT, "src.billing.orders.AsyncClient", "send_single") in calls


def test_a_crate_root_names_its_definitions_by_its_folder() -> None:
    text = "pub struct Order;\nimpl Order {\n    fn total(&self) { self.sum(); helper(); }\n}\nfn helper() {}\n"
    assert _calls(text, "src/lib.rs") == {
        ("Order.total", MEMBER, EXACT, "src.Order", "sum"),
        ("Order.total", QUALIFIED, EXACT, "", "src.helper"),
    }


def test_a_trait_impl_for_an_imported_type_hangs_its_own_methods_here_and_finds_the_others_at_home() -> None:
    text = (
        "use crate::model::Order;\nuse crate::checkout::Checkout;\n\n"
        "impl Checkout for Order {\n"
        "    fn checkout(&self) { self.validate(); self.total(); }\n"
        "    fn validate(&self) {}\n"
        "}\n"
    )
    calls = _calls(text)
    assert ("Order.checkout", MEMBER, EXACT, "src.billing.orders.Order", "validate") in calls
    assert ("Order.checkout", MEMBER, EXACT, "src.model.Order", "total") in calls


def test_a_default_method_calling_self_is_a_member_of_its_trait() -> None:
    text = "pub trait Gateway {\n    fn charge(&self);\n    fn retry(&self) { self.charge(); }\n}\n"
    assert _calls(text) == {("Gateway.retry", MEMBER, EXACT, "src.billing.orders.Gateway", "charge")}


def test_use_declarations_bind_names_to_module_paths() -> None:
    text = (
        "use crate::gateway::stripe::charge;\n"
        "use super::audit;\n"
        "use self::events::Event as Ev;\n"
        "use crate::util::{self, fmt::{money, pad as padded}};\n"
        "use crate::prelude::*;\n\n"
        "fn run() {\n"
        "    charge();\n"
        "    audit::record();\n"
        "    Ev::emit();\n"
        "    util::clamp();\n"
        "    money();\n"
        "    padded();\n"
        "    unknown();\n"
        "}\n"
    )
    assert _calls(text) == {
        ("run", QUALIFIED, EXACT, "", "src.gateway.stripe.charge"),
        ("run", QUALIFIED, EXACT, "", "src.billing.audit.record"),
        ("run", MEMBER, EXACT, "src.billing.orders.events.Event", "emit"),
        ("run", QUALIFIED, EXACT, "", "src.util.clamp"),
        ("run", QUALIFIED, EXACT, "", "src.util.fmt.money"),
        ("run", QUALIFIED, EXACT, "", "src.util.fmt.pad"),
        # the one glob's module's function of the name (the indexer falls back to a name guess)
        ("run", TargetForm.LINKED, Resolution.INFERRED, "src.prelude", "unknown"),
    }


def test_crate_super_and_module_paths_are_qualified_and_a_mod_declaration_binds_its_module() -> None:
    text = "mod tax;\n\nfn run() {\n    crate::ledger::post();\n    super::notify();\n    tax::rate();\n}\n"
    assert _targets(text, "run", "src/billing/mod.rs") == {"src.ledger.post", "src.notify", "src.billing.tax.rate"}


def test_an_associated_call_on_a_named_type_is_an_exact_member() -> None:
    text = "use crate::gateway::Gateway;\n\nfn run() {\n    Gateway::connect();\n    Order::<u8>::draft();\n}\n"
    assert _calls(text) == {
        ("run", MEMBER, EXACT, "src.gateway.Gateway", "connect"),
        ("run", QUALIFIED, NAME, "", "Order.draft"),  # Order is not bound here: a guess by the type's name
    }


RECEIVERS = """
use std::sync::Arc;
use crate::gateway::{Gateway, Receipt};
use crate::store::Store;

pub struct Order {
    gateway: Arc<Gateway>,
    store: Store,
    items: Vec<u32>,
}

impl Order {
    pub fn new(gateway: Arc<Gateway>) -> Self {
        Order { gateway, store: Store::open(), items: Vec::new() }
    }

    fn load(id: u32) -> Result<Self, String> { todo(id) }

    fn pay(&self, backup: &Gateway, store: &mut Store) -> Receipt {
        self.gateway.charge();
        self.store.save();
        backup.refund();
        store.flush();
        let receipt: Receipt = self.gateway.last();
        receipt.print();
        let order = Order::new(self.gateway.clone());
        order.total();
        let loaded = Order::load(1)?;
        loaded.confirm();
        let built = Gateway { key: 1 };
        built.verify();
        let spare = Gateway::with_key(2);
        spare.rotate();
        receipt
    }
}
"""


def test_stated_types_of_fields_parameters_and_lets_give_inferred_members() -> None:
    calls = {(owner, target) for _, _, resolution, owner, target in _calls(RECEIVERS) if resolution is INFERRED}
    assert calls >= {
        ("src.gateway.Gateway", "charge"),  # a field through Arc<..>
        ("src.store.Store", "save"),  # a field
        ("src.gateway.Gateway", "refund"),  # a &Gateway parameter
        ("src.store.Store", "flush"),  # a &mut Store parameter
        ("src.gateway.Receipt", "print"),  # let x: T
        ("src.billing.orders.Order", "total"),  # let x = T::new(..) returning Self
        ("src.billing.orders.Order", "confirm"),  # T::load(..)? returning Result<Self, _>
        ("src.gateway.Gateway", "verify"),  # let x = T { .. }
        ("src.gateway.Gateway", "rotate"),  # T::with_*
    }


def test_a_struct_literal_constructs_its_type() -> None:
    targets = _targets(RECEIVERS, "Order.new")
    assert "src.billing.orders.Order" in targets
    assert "src.store.Store::open" in targets


def test_an_untyped_receiver_gives_the_bare_name_and_std_methods_on_it_give_nothing() -> None:
    text = (
        "fn flush(stream: impl Sink, rows: Vec<Row>) {\n"
        "    let s = open();\n    s.settle();\n    s.clone().unwrap();\n"
        "    stream.write_batch(rows.len());\n    rows.iter().map(|r| r.cells()).count();\n}\n"
    )
    assert _calls(text) == {
        ("flush", BARE, NAME, "", "open"),
        ("flush", BARE, NAME, "", "settle"),
        ("flush", BARE, NAME, "", "write_batch"),  # Sink is not bound here
        ("flush", BARE, NAME, "", "cells"),
    }


def test_std_paths_prelude_functions_macros_and_variants_are_not_calls() -> None:
    text = (
        "use std::collections::HashMap;\nuse std::fs;\n\n"
        "fn run(x: u32) {\n"
        "    let m: HashMap<u32, u32> = HashMap::new();\n"
        "    let v = Vec::<u8>::with_capacity(4);\n"
        '    fs::read_to_string("a");\n'
        "    std::mem::swap(&mut 1, &mut 2);\n"
        "    drop(v);\n"
        "    Some(x);\n"
        "    Shape::Circle(1.0);\n"
        '    println!("{}", x);\n'
        "    u32::from(x);\n"
        "}\n"
    )
    assert _calls(text) == set()


def test_calls_inside_a_standard_expression_macro_are_calls_and_the_macro_is_none() -> None:
    text = (
        "fn compute(x: u32) -> u32 { x }\n"
        "fn check(x: u32) -> bool { x > 1 }\n\n"
        "fn run(x: u32) {\n"
        '    println!("{}", compute(x));\n'
        "    assert_eq!(compute(1), 1);\n"
        "    assert!(matches!(x, 1 | 2));\n"
        '    debug_assert!(check(x), "x is {}", x);\n'
        "}\n"
    )
    assert _targets(text, "run") == {"src.billing.orders.compute", "src.billing.orders.check"}


def test_a_closure_held_in_a_variable_is_not_a_call_and_its_typed_parameter_is_known() -> None:
    text = (
        "use crate::gateway::Gateway;\n\n"
        "fn run(callback: fn()) {\n"
        "    let apply = |g: &Gateway| g.charge();\n"
        "    apply(todo());\n"
        "    callback();\n"
        "}\n"
    )
    assert _calls(text) == {
        ("run", MEMBER, INFERRED, "src.gateway.Gateway", "charge"),
        ("run", BARE, NAME, "", "todo"),
    }


def test_a_pattern_binding_shadows_a_stated_type_only_where_it_is_in_scope() -> None:
    text = (
        "use crate::gateway::Gateway;\n\n"
        "fn run(g: Gateway, other: Option<Gateway>) {\n"
        "    if let Some(g) = other { g.refund(); }\n"
        "    g.charge();\n"
        "}\n"
    )
    assert _calls(text) == {
        ("run", BARE, NAME, "", "refund"),
        ("run", MEMBER, INFERRED, "src.gateway.Gateway", "charge"),
    }


def test_a_type_parameter_stands_for_its_one_project_bound() -> None:
    text = (
        "use crate::gateway::Gateway;\n\n"
        "fn run<G: Gateway + Send, C>(g: G, c: &C) where C: Clone {\n    g.charge();\n    c.cloned_thing();\n}\n"
    )
    assert _calls(text) == {
        ("run", MEMBER, INFERRED, "src.gateway.Gateway", "charge"),
        ("run", BARE, NAME, "", "cloned_thing"),
    }


def test_an_inline_test_module_sees_its_parents_names_through_use_super_glob() -> None:
    text = (
        "use crate::gateway::Gateway;\n\nfn helper() {}\n\n"
        "#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
        "    fn make() -> Gateway { Gateway::new() }\n\n"
        "    #[test]\n    fn pays() {\n        helper();\n        let g = make();\n        g.charge();\n    }\n}\n"
    )
    assert _calls(text) >= {
        ("tests.pays", QUALIFIED, EXACT, "", "src.billing.orders.helper"),
        ("tests.pays", QUALIFIED, EXACT, "", "src.billing.orders.tests.make"),
        ("tests.pays", MEMBER, INFERRED, "src.gateway.Gateway", "charge"),
    }


def test_an_item_declared_inside_a_function_is_no_entity_so_its_calls_name_nothing() -> None:
    text = "fn run() {\n    fn step() {}\n    struct Guard(u8);\n    step();\n    Guard(1);\n    later();\n}\n"
    assert _calls(text) == {("run", BARE, NAME, "", "later")}


def test_a_use_inside_a_function_binds_the_calls_after_it() -> None:
    text = "fn run() {\n    use crate::gateway::charge;\n    charge();\n}\n"
    assert _calls(text) == {("run", QUALIFIED, EXACT, "", "src.gateway.charge")}


def test_trait_impls_and_supertraits_are_bases_bound_through_use_and_the_module() -> None:
    text = (
        "use std::fmt;\nuse crate::checkout::Checkout;\n\n"
        "pub trait Audited: Logged + Send {}\npub trait Logged {}\n\n"
        "pub struct Order;\n"
        "impl Checkout for Order {}\nimpl fmt::Display for Order {}\n"
        "impl Default for Order {}\nimpl Mystery for Order {}\n"
    )
    bases = {(r.source.split(":", 2)[-1], r.form, r.target) for r in _references(text, kind="INHERITS")}
    assert bases == {
        ("src.billing.orders.Audited", QUALIFIED, "src.billing.orders.Logged"),
        ("src.billing.orders.Order", QUALIFIED, "src.checkout.Checkout"),
        ("src.billing.orders.Order", BARE, "Mystery"),
    }


# --- end to end: a crate and a client crate indexed with the real engines ---

PROJECTS: dict[str, dict[str, str]] = {
    "pool": {
        "src/lib.rs": "pub mod api;\npub mod conn;\npub mod twins;\n",
        "src/api.rs": "pub trait Handler {\n    fn describe(&self) -> u32 { 1 }\n}\n",
        "src/conn.rs": (
            "use crate::api::Handler;\n\n"
            "pub struct Pool { size: u32 }\n\n"
            "impl Pool {\n"
            "    pub fn new() -> Self { Pool { size: 1 } }\n"
            "    pub fn handle(&self) -> u32 { self.describe() + self.size }\n"
            "}\n\n"
            "impl Handler for Pool {}\n"
        ),
        "src/twins.rs": (
            "pub struct Sync;\npub struct Async;\n\n"
            "impl Sync {\n    pub fn send(&self) { self.dispatch(); }\n    fn dispatch(&self) {}\n}\n\n"
            "impl Async {\n    pub fn send(&self) { self.dispatch(); }\n    fn dispatch(&self) {}\n}\n"
        ),
    },
    "client": {
        "src/lib.rs": "pub mod glob;\npub mod transport;\n",
        "src/glob.rs": "use pool::conn::*;\n\npub fn make() {\n    Pool::new();\n}\n",
        "src/transport.rs": (
            "use pool::conn::Pool;\n\n"
            "pub struct Transport { pool: Pool }\n\n"
            "impl Transport {\n"
            "    pub fn send(&self) -> u32 { self.pool.handle() }\n"
            "}\n"
        ),
    },
}

SYNC_SEND, SYNC_DISPATCH = "method:pool:src.twins.Sync.send", "method:pool:src.twins.Sync.dispatch"
ASYNC_SEND, ASYNC_DISPATCH = "method:pool:src.twins.Async.send", "method:pool:src.twins.Async.dispatch"
POOL_HANDLE, POOL_NEW = "method:pool:src.conn.Pool.handle", "method:pool:src.conn.Pool.new"
DESCRIBE = "method:pool:src.api.Handler.describe"
TRANSPORT_SEND = "method:client:src.transport.Transport.send"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    # the client first: its call into the pool resolves when the pool arrives
    cat = indexed_projects(tmp_path_factory.mktemp("rust"), PROJECTS, ("client", "pool"))
    yield cat
    cat.close()


def test_each_twin_impls_self_call_links_to_its_own_method_only(catalog: Catalog) -> None:
    callers = trace_relationships(
        Reader.open(catalog), SYNC_DISPATCH, direction=Direction.IN, relation_types=["CALLS"], max_hops=1
    )
    assert [(e.source, e.resolution) for e in callers.edges] == [(SYNC_SEND, Resolution.EXACT)]
    edges = call_edges(catalog)
    assert edges[(ASYNC_SEND, ASYNC_DISPATCH)].resolution == Resolution.EXACT
    assert (ASYNC_SEND, SYNC_DISPATCH) not in edges


def test_a_typed_field_call_links_across_crates_to_the_right_method(catalog: Catalog) -> None:
    edge = call_edges(catalog)[(TRANSPORT_SEND, POOL_HANDLE)]  # self.pool: pool::conn::Pool
    assert edge.resolution == Resolution.INFERRED


def test_a_self_call_finds_a_default_method_through_the_trait_the_type_implements(catalog: Catalog) -> None:
    inherits = {(r.source, r.target) for r in catalog.graph.relations(catalog.tenant) if r.type == "INHERITS"}
    assert ("class:pool:src.conn.Pool", "class:pool:src.api.Handler") in inherits
    assert call_edges(catalog)[(POOL_HANDLE, DESCRIBE)].resolution == Resolution.EXACT


def test_a_type_from_a_glob_import_is_found_by_its_name_and_labelled_a_guess(catalog: Catalog) -> None:
    assert call_edges(catalog)[("function:client:src.glob.make", POOL_NEW)].resolution == Resolution.NAME


def test_an_impl_inside_an_inline_module_hangs_its_methods_and_trait_on_that_modules_type() -> None:
    text = (
        "pub trait Greet { fn hi(&self); }\n"
        "mod inner {\n"
        "    use super::Greet;\n"
        "    pub struct Foo;\n"
        "    impl Foo { pub fn m(&self) { self.n() } fn n(&self) {} }\n"
        "    impl Greet for Foo { fn hi(&self) {} }\n"
        "}\n"
    )
    extraction = parse_code("shop", "src/lib.rs", text, "rust", "doc")
    assert {"method:shop:src.lib.inner.Foo.m", "method:shop:src.lib.inner.Foo.hi"} <= {
        e.id for e in extraction.entities
    }
    assert _calls(text, "src/lib.rs") == {("inner.Foo.m", MEMBER, Resolution.EXACT, "src.inner.Foo", "n")}
    bases = {(r.source, r.target) for r in _references(text, "src/lib.rs", "INHERITS")}
    assert bases == {("class:shop:src.lib.inner.Foo", "src.Greet")}


def test_a_result_held_in_a_local_is_its_value_once_unwrapped_and_an_impl_const_knows_self() -> None:
    text = (
        "pub struct Order;\n"
        "impl Order {\n"
        "    const EMPTY: u8 = Self::zero();\n"
        "    fn load() -> Result<Order, String> { todo() }\n"
        "    fn run() -> Result<(), String> {\n"
        "        let loaded = Order::load();\n        loaded?.confirm();\n        loaded.settle();\n        Ok(())\n"
        "    }\n"
        "}\n"
    )
    calls = _calls(text)
    assert ("src.billing.orders", MEMBER, EXACT, "src.billing.orders.Order", "zero") in calls  # (the module calls)
    assert ("Order.run", MEMBER, INFERRED, "src.billing.orders.Order", "confirm") in calls
    assert ("Order.run", BARE, NAME, "", "settle") in calls  # a method of the Result, not of an Order
