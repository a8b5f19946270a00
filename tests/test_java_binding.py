"""Java calls and base types bound by scope, import, package and stated type: what the binder says, and the edges
the index makes of it across files and projects."""

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
PATH = "src/main/java/com/acme/billing/Orders.java"
MODULE = "src.main.java.com.acme.billing.Orders"


def _references(text: str, kind: str = "CALLS", path: str = PATH) -> list[Reference]:
    return [r for r in parse_code("shop", path, text, "java", "doc").references if r.type == kind]


def _calls(text: str, path: str = PATH) -> set[tuple[str, TargetForm, Resolution, str, str]]:
    """(caller's local name, form, resolution, owner, target) for each call; the caller without its module."""
    module = path.removesuffix(".java").replace("/", ".")
    return {
        (r.source.split(":", 2)[-1].removeprefix(f"{module}."), r.form, r.resolution, r.owner, r.target)
        for r in _references(text, path=path)
    }


def _targets(text: str, caller: str) -> set[str]:
    """What one method calls: `owner::member` for members, the name for the rest."""
    return {f"{owner}::{target}" if owner else target for c, _, _, owner, target in _calls(text) if c == caller}


TWINS = """package com.acme.billing;

class SyncClient {
    void send() { this.sendSingle(); }
    void sendSingle() {}
}

class AsyncClient {
    void send() { sendSingle(); }
    void sendSingle() {}
}
"""


def test_this_and_unqualified_calls_are_members_of_their_own_class() -> None:
    calls = _calls(TWINS)
    assert ("SyncClient.send", MEMBER, EXACT, f"{MODULE}.SyncClient", "sendSingle") in calls
    assert ("AsyncClient.send", MEMBER, EXACT, f"{MODULE}.AsyncClient", "sendSingle") in calls
    assert len(calls) == 2


def test_super_looks_in_the_bases_of_the_enclosing_class_only() -> None:
    text = (
        "package com.acme.billing;\n\nimport com.acme.core.BaseService;\n\n"
        "class Checkout extends BaseService {\n    void close() { super.close(); }\n}\n"
    )
    [call] = _references(text)
    assert (call.form, call.resolution, call.owner, call.target) == (MEMBER, EXACT, f"{MODULE}.Checkout", "close")
    assert call.after_owner


def test_a_super_call_in_a_class_that_extends_only_the_jdk_binds_to_nothing() -> None:
    text = "class Failure extends RuntimeException {\n    String text() { return super.getMessage(); }\n}\n"
    assert _references(text) == []


def test_imports_bind_constructors_static_imports_and_static_calls() -> None:
    text = (
        "package com.acme.billing;\n\n"
        "import com.acme.pool.Pool;\nimport static com.acme.util.Money.round;\n\n"
        "class Orders {\n"
        "    void pay() {\n"
        "        new Pool();\n"
        "        round(1);\n"
        "        Pool.shared();\n"
        "    }\n"
        "}\n"
    )
    assert _calls(text) == {
        ("Orders.pay", QUALIFIED, EXACT, "", "com.acme.pool.Pool"),
        ("Orders.pay", MEMBER, EXACT, "com.acme.util.Money", "round"),
        ("Orders.pay", MEMBER, EXACT, "com.acme.pool.Pool", "shared"),
    }


def test_a_package_qualified_call_names_its_type_in_full() -> None:
    text = "class Orders {\n    void pay() { com.acme.util.Money.round(1); }\n}\n"
    assert _calls(text) == {("Orders.pay", MEMBER, EXACT, "com.acme.util.Money", "round")}


def test_types_of_the_same_package_and_of_the_file_itself_are_qualified_by_each_rule() -> None:
    text = (
        "package com.acme.billing;\n\n"
        "class Orders {\n"
        "    static class Line {}\n"
        "    void build() { new Invoice(); new Line(); new Orders(); }\n"
        "}\n"
    )
    assert _targets(text, "Orders.build") == {
        "com.acme.billing.Invoice",  # same package, another file
        f"{MODULE}.Orders.Line",
        f"{MODULE}.Orders",
    }


POOLED = """package com.acme.billing;

import com.acme.pool.Pool;
import com.acme.pool.Lease;

class Orders {
    private final Pool pool;
    private Pool backup = new Pool();

    Orders(Pool pool) { this.pool = pool; }

    Lease lease(Pool given) {
        Pool local = given;
        var made = new Pool();
        pool.get();
        this.backup.drain();
        given.open();
        local.close();
        made.reset();
        return ((Pool) null).lease();
    }

    void renew() { lease(pool).extend(); }
}
"""


def test_fields_parameters_typed_and_var_locals_and_casts_give_inferred_members() -> None:
    pool = "com.acme.pool.Pool"
    assert {(c, t) for c, _, r, o, t in _calls(POOLED) if c == "Orders.lease" and r is INFERRED and o == pool} == {
        ("Orders.lease", name) for name in ("get", "drain", "open", "close", "reset", "lease")
    }


def test_a_method_of_the_file_with_a_stated_return_type_types_the_chain_after_it() -> None:
    assert ("Orders.renew", MEMBER, INFERRED, "com.acme.pool.Lease", "extend") in _calls(POOLED)
    assert ("Orders.renew", MEMBER, EXACT, f"{MODULE}.Orders", "lease") in _calls(POOLED)


def test_an_untyped_receiver_gives_the_bare_name() -> None:
    text = (
        "import com.acme.pool.Pool;\n\nclass Orders {\n"
        "    private Pool pool;\n"
        "    void ship(Iterable<Order> orders) {\n"
        "        orders.forEach(pool -> pool.dispatch());\n"  # the lambda's pool hides the field
        "        registry().lookup().dispatch();\n"
        "    }\n"
        "}\n"
    )
    calls = _calls(text)
    assert ("Orders.ship", BARE, NAME, "", "dispatch") in calls
    assert not any(owner == "com.acme.pool.Pool" for _, _, _, owner, _ in calls)


def test_jdk_types_and_jdk_method_names_on_unknown_receivers_bind_to_nothing() -> None:
    text = (
        "import java.util.*;\nimport java.util.concurrent.ConcurrentHashMap;\n"
        "import static java.util.Objects.requireNonNull;\n\n"
        "class Orders {\n"
        "    private final List<Order> orders = new ArrayList<>();\n"
        "    void report(String title, Map<String, Order> byId, int[] counts) {\n"
        "        title.trim();\n"
        "        orders.add(null);\n"
        "        byId.values().stream().map(o -> o.toString()).forEach(System.out::println);\n"
        "        System.out.println(title);\n"
        "        Math.max(1, 2);\n"
        "        new ConcurrentHashMap<String, Order>();\n"
        "        requireNonNull(title);\n"
        '        "x".isEmpty();\n'
        "        counts.clone();\n"
        "        unknown.get();\n"
        "        toString();\n"
        "    }\n"
        "}\n"
    )
    assert _calls(text) == set()


def test_a_variable_is_typed_by_the_declaration_visible_where_it_is_used() -> None:
    text = (
        "class Orders {\n"
        "    void walk(java.util.List<Object> xs) {\n"
        "        for (Invoice item : invoices()) { item.settle(); }\n"
        "        for (Refund item : refunds()) { item.settle(); }\n"
        "        try (Ledger ledger = open()) { ledger.post(); } catch (LedgerError e) { e.report(); }\n"
        "        for (Object o : xs) { if (o instanceof Receipt r) { r.print(); } }\n"
        "    }\n"
        "}\n"
    )
    owners = {owner for _, _, _, owner, _ in _calls(text, "src/Orders.java")}
    assert {"src.Invoice", "src.Refund", "src.Ledger", "src.LedgerError", "src.Receipt"} <= owners


def test_a_type_not_imported_by_name_is_the_package_s_own_before_a_wildcard_import_s() -> None:
    # Java looks a simple name up in the file's own package before `import a.b.*`: where the package has no `Order`,
    # the indexer finds nothing by this name (no guess among the wildcard packages)
    text = (
        "package com.acme.billing;\n\nimport com.acme.model.*;\n\nclass Orders {\n    void make() { new Order(); }\n}\n"
    )
    assert _calls(text) == {("Orders.make", QUALIFIED, EXACT, "", "com.acme.billing.Order")}


def test_a_type_parameter_stands_for_its_bound() -> None:
    text = (
        "import com.acme.pool.Pool;\n\n"
        "class Holder<T extends Pool, U> {\n"
        "    private T pool;\n    private U other;\n"
        "    void use() { pool.get(); other.spin(); }\n"
        "}\n"
    )
    assert _calls(text) == {
        ("Holder.use", MEMBER, INFERRED, "com.acme.pool.Pool", "get"),
        ("Holder.use", BARE, NAME, "", "spin"),
    }


def test_enums_records_and_nested_classes_bind_to_their_own_members() -> None:
    text = (
        "package com.acme.billing;\n\nimport com.acme.pool.Pool;\n\n"
        "class Orders {\n"
        "    enum Status {\n"
        "        OPEN, CLOSED;\n"
        "        String label() { return describe(); }\n"
        "        String describe() { return null; }\n"
        "    }\n"
        "    record Line(Pool pool) {\n"
        "        void drain() { pool.get(); }\n"
        "    }\n"
        "    class Inner {\n"
        "        void work() { flush(); Status.OPEN.label(); }\n"
        "    }\n"
        "    void flush() {}\n"
        "}\n"
    )
    calls = _calls(text)
    assert ("Orders.Status.label", MEMBER, EXACT, f"{MODULE}.Orders.Status", "describe") in calls
    assert ("Orders.Line.drain", MEMBER, INFERRED, "com.acme.pool.Pool", "get") in calls
    assert ("Orders.Inner.work", MEMBER, EXACT, f"{MODULE}.Orders", "flush") in calls
    assert ("Orders.Inner.work", MEMBER, INFERRED, f"{MODULE}.Orders.Status", "label") in calls


def test_an_anonymous_class_calls_its_own_methods_for_nothing_and_the_outer_class_by_name() -> None:
    text = (
        "class Orders {\n"
        "    void schedule() {\n"
        "        new Runnable() {\n"
        "            public void run() { tick(); flush(); }\n"
        "            void tick() {}\n"
        "        };\n"
        "    }\n"
        "    void flush() {}\n"
        "}\n"
    )
    assert _calls(text, "src/Orders.java") == {("Orders.schedule", MEMBER, EXACT, "src.Orders.Orders", "flush")}


def test_an_inherited_method_is_asked_of_the_class_that_extends_something_and_object_final_methods_are_not() -> None:
    text = (
        "package com.acme.billing;\n\nimport com.acme.core.BaseService;\n\n"
        "class Checkout extends BaseService {\n    void run() { validate(); notifyAll(); getClass(); }\n}\n\n"
        "class Plain {\n    void run() { validate(); }\n}\n"
    )
    assert _calls(text) == {("Checkout.run", MEMBER, EXACT, f"{MODULE}.Checkout", "validate")}


def test_a_default_method_called_through_its_interface_and_a_static_wildcard_import() -> None:
    text = (
        "import com.acme.core.Auditable;\nimport static com.acme.util.Money.*;\n\n"
        "class Orders implements Auditable {\n"
        "    public void audit() { Auditable.super.audit(); }\n"
        "}\n\n"
        "class Totals {\n    int sum() { return round(2); }\n}\n"
    )
    calls = _calls(text)
    assert ("Orders.audit", MEMBER, EXACT, "com.acme.core.Auditable", "audit") in calls
    assert ("Totals.sum", MEMBER, INFERRED, "com.acme.util.Money", "round") in calls


def test_calls_in_field_initializers_and_static_blocks_come_from_the_class() -> None:
    text = (
        "import com.acme.pool.Pool;\n\n"
        "class Orders {\n"
        "    private final Pool pool = Pool.create();\n"
        "    static { register(); }\n"
        "    static void register() {}\n"
        "}\n"
    )
    assert _calls(text) == {
        ("Orders", MEMBER, EXACT, "com.acme.pool.Pool", "create"),
        ("Orders", MEMBER, EXACT, f"{MODULE}.Orders", "register"),
    }


def test_bases_are_qualified_through_imports_package_and_file_and_jdk_bases_are_dropped() -> None:
    text = (
        "package com.acme.billing;\n\nimport com.acme.core.BaseService;\n\n"
        "class Orders extends BaseService implements Checkout, Runnable, Comparable<Orders> {\n"
        "    static class Fast extends Orders {}\n"
        "    public void run() {}\n"
        "}\n"
        "class Failure extends Exception {}\n"
    )
    bases = {(r.source.rsplit(".", 1)[-1], r.form, r.resolution, r.target) for r in _references(text, "INHERITS")}
    assert bases == {
        ("Orders", QUALIFIED, EXACT, "com.acme.core.BaseService"),
        ("Orders", QUALIFIED, EXACT, "com.acme.billing.Checkout"),
        ("Fast", QUALIFIED, EXACT, f"{MODULE}.Orders"),
    }


def test_a_project_folder_named_java_is_not_taken_for_the_jdk() -> None:
    text = "class Orders {\n    void pay() { charge(); new Orders(); }\n    void charge() {}\n}\n"
    assert _calls(text, "java/core/Orders.java") == {
        ("Orders.pay", MEMBER, EXACT, "java.core.Orders.Orders", "charge"),
        ("Orders.pay", QUALIFIED, EXACT, "", "java.core.Orders.Orders"),
    }


def test_a_broken_method_leaves_the_others_bound() -> None:
    text = (
        "class Orders {\n    void pay( {\n        int x = ;\n    }\n"
        "    void settle() { this.charge(); }\n    void charge() {}\n}\n"
    )
    assert _calls(text, "src/Orders.java") == {("Orders.settle", MEMBER, EXACT, "src.Orders.Orders", "charge")}


# --- end to end: the edges the index makes of these references ---

PROJECTS: dict[str, dict[str, str]] = {
    "pool": {
        "src/main/java/com/acme/pool/ConnectionPool.java": (
            "package com.acme.pool;\n\n"
            "public class ConnectionPool extends BasePool {\n"
            "    public Response handleRequest(Request request) { return assign(request); }\n"
            "    Response assign(Request request) { return null; }\n"
            "}\n"
        ),
        "src/main/java/com/acme/pool/BasePool.java": (
            "package com.acme.pool;\n\npublic abstract class BasePool {\n    public void close() {}\n}\n"
        ),
    },
    "client": {
        "src/main/java/com/acme/client/SyncClient.java": (
            "package com.acme.client;\n\n"
            "import com.acme.pool.ConnectionPool;\n\n"
            "public class SyncClient {\n"
            "    private final ConnectionPool pool = new ConnectionPool();\n"
            "    private final Transport transport;\n\n"
            "    public SyncClient(Transport transport) { this.transport = transport; }\n\n"
            "    public Response send(Request request) { return this.sendSingle(request); }\n\n"
            "    Response sendSingle(Request request) {\n"
            "        transport.flush();\n"
            "        pool.close();\n"
            "        return pool.handleRequest(request);\n"
            "    }\n"
            "}\n"
        ),
        "src/main/java/com/acme/client/AsyncClient.java": (
            "package com.acme.client;\n\n"
            "public class AsyncClient {\n"
            "    public Response send(Request request) { return sendSingle(request); }\n\n"
            "    Response sendSingle(Request request) { return null; }\n"
            "}\n"
        ),
        "src/main/java/com/acme/client/Transport.java": (
            "package com.acme.client;\n\npublic class Transport {\n    void flush() {}\n}\n"
        ),
        # a builder declared in one file, used in another that also imports a package with `*`
        "src/main/java/com/acme/client/Options.java": (
            "package com.acme.client;\n\n"
            "public class Options {\n"
            "    public static Builder newBuilder() { return new Builder(); }\n"
            "    public static class Builder {\n"
            "        public Builder retries(int n) { return this; }\n"
            "        public Options build() { return new Options(); }\n"
            "    }\n"
            "    public int timeout() { return 1; }\n"
            "}\n"
        ),
        "src/main/java/com/acme/client/Setup.java": (
            "package com.acme.client;\n\n"
            "import com.acme.pool.*;\n\n"
            "public class Setup {\n"
            "    int configure() {\n"
            "        Options options = Options.newBuilder().retries(3).build();\n"
            "        return options.timeout();\n"
            "    }\n"
            "}\n"
        ),
    },
}

CLIENT = "src.main.java.com.acme.client"
POOL = "src.main.java.com.acme.pool"
SEND = f"method:client:{CLIENT}.SyncClient.SyncClient.send"
SEND_SINGLE = f"method:client:{CLIENT}.SyncClient.SyncClient.sendSingle"
ASYNC_SEND = f"method:client:{CLIENT}.AsyncClient.AsyncClient.send"
ASYNC_SEND_SINGLE = f"method:client:{CLIENT}.AsyncClient.AsyncClient.sendSingle"
FLUSH = f"method:client:{CLIENT}.Transport.Transport.flush"
HANDLE = f"method:pool:{POOL}.ConnectionPool.ConnectionPool.handleRequest"
CLOSE = f"method:pool:{POOL}.BasePool.BasePool.close"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    # the client first: its calls into the pool resolve when the pool arrives
    cat = indexed_projects(tmp_path_factory.mktemp("java"), PROJECTS, ("client", "pool"))
    yield cat
    cat.close()


def test_each_twin_class_calls_its_own_method_of_the_shared_name(catalog: Catalog) -> None:
    callers = trace_relationships(
        Reader.open(catalog), SEND_SINGLE, direction=Direction.IN, relation_types=["CALLS"], max_hops=1
    )
    assert [(e.source, e.resolution) for e in callers.edges] == [(SEND, EXACT)]
    assert call_edges(catalog)[(ASYNC_SEND, ASYNC_SEND_SINGLE)].resolution == EXACT


def test_a_typed_field_call_links_to_the_method_of_another_file_and_project(catalog: Catalog) -> None:
    edges = call_edges(catalog)
    assert edges[(SEND_SINGLE, FLUSH)].resolution == INFERRED  # a field of a type in the same package
    assert edges[(SEND_SINGLE, HANDLE)].resolution == INFERRED  # a field of an imported type, another project
    assert edges[(SEND_SINGLE, CLOSE)].resolution == INFERRED  # found through the pool's base class


def test_a_constructor_call_and_a_base_class_link_to_their_classes(catalog: Catalog) -> None:
    relations = catalog.graph.relations(catalog.tenant)
    calls = {(r.source, r.target) for r in relations if r.type == "CALLS"}
    assert (f"class:client:{CLIENT}.SyncClient.SyncClient", f"class:pool:{POOL}.ConnectionPool.ConnectionPool") in calls
    bases = {(r.source, r.target) for r in relations if r.type == "INHERITS"}
    assert (f"class:pool:{POOL}.ConnectionPool.ConnectionPool", f"class:pool:{POOL}.BasePool.BasePool") in bases


def test_a_chain_of_calls_into_another_file_is_typed_by_what_each_method_returns(catalog: Catalog) -> None:
    edges = call_edges(catalog)
    configure, options = f"method:client:{CLIENT}.Setup.Setup.configure", f"{CLIENT}.Options.Options"
    # `Options` is the package's own though the file imports `com.acme.pool.*`; `newBuilder()` returns a Builder,
    # whose `retries` returns a Builder, whose `build()` returns Options
    assert edges[(configure, f"method:client:{options}.newBuilder")].resolution == Resolution.EXACT
    assert edges[(configure, f"method:client:{options}.Builder.retries")].resolution == Resolution.INFERRED
    assert edges[(configure, f"method:client:{options}.Builder.build")].resolution == Resolution.INFERRED
    assert edges[(configure, f"method:client:{options}.timeout")].resolution == Resolution.INFERRED


def test_a_local_class_hides_a_nested_class_of_its_name_and_binds_to_nothing() -> None:
    text = (
        "class Orders {\n"
        "    static class Template { void fill() {} }\n"
        "    void shared() { new Template().fill(); }\n"
        "    void own() {\n"
        "        class Template { void fill() {} }\n"
        "        new Template().fill();\n"
        "    }\n"
        "}\n"
    )
    calls = _calls(text, "src/Orders.java")
    assert ("Orders.shared", QUALIFIED, EXACT, "", "src.Orders.Orders.Template") in calls
    assert ("Orders.shared", MEMBER, INFERRED, "src.Orders.Orders.Template", "fill") in calls
    assert not any(caller == "Orders.own" for caller, *_ in calls), "the local class is no entity's"
