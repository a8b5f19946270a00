"""Entities found by the names people write for them: the import name of a `src/`-layout package, a re-export from
the package, a tail (`Class.method`, `module.function`), the qualified name the index keeps; an ambiguous name lists
its candidates by import name, and a name that matches nothing suggests the entity holding most of what was written.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.projects import indexed_projects
from trident.retrieval.entities import EntityNotFoundError, resolve_entity
from trident.retrieval.written_names import Match, match, written_parts
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory

PROJECTS: dict[str, dict[str, str]] = {
    "shop": {  # a src/ layout: the package is `shop`, the folder is not part of any import
        "src/shop/__init__.py": "from .orders import Order\n\n__all__ = ['Order']\n",
        "src/shop/orders.py": (
            "class Order:\n"
            "    def total(self):\n"
            "        return sum(self.lines())\n\n"
            "    def lines(self):\n"
            "        return []\n"
        ),
        "src/shop/cart.py": "from .orders import Order\n\n\ndef checkout(order: Order):\n    return order.total()\n",
        "tests/test_orders.py": "from shop import Order\n\n\ndef test_total():\n    assert Order().total() == 0\n",
        "src/shop/view.py": "class View:\n    def highlight(self):\n        return 1\n",
        "docs/_static/demo.py": "def highlight():\n    return 0\n",
        "tests/helpers.py": "def highlight():\n    return 2\n\n\ndef checkout():\n    return 2\n",
    },
    "ledger": {
        "ledger/__init__.py": "",
        "ledger/orders.py": "class Order:\n    def total(self):\n        return 0\n",
        "ledger/render.py": "def highlight(text):\n    return text\n",
        "ledger/billing.py": "def checkout():\n    return 0\n",
    },
}
SHOP_TOTAL = "method:shop:src.shop.orders.Order.total"
LEDGER_TOTAL = "method:ledger:ledger.orders.Order.total"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    catalog = indexed_projects(tmp_path_factory.mktemp("written"), PROJECTS, ["shop", "ledger"])
    yield catalog
    catalog.close()


@pytest.fixture(scope="module")
def directory(catalog: Catalog) -> EntityDirectory:
    return EntityDirectory(catalog.entities())


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("shop.orders.Order.total", SHOP_TOTAL),  # the import name: no src/ folder
        ("shop.Order.total", SHOP_TOTAL),  # re-exported by the package
        ("src.shop.orders.Order.total", SHOP_TOTAL),  # the qualified name as kept
        ("shop.orders.Order.total()", SHOP_TOTAL),  # written as a call
        ("ledger.orders.Order.total", LEDGER_TOTAL),
        ("ledger.Order.total", LEDGER_TOTAL),
        ("cart.checkout", "function:shop:src.shop.cart.checkout"),  # module.function
        ("shop.cart", "module:shop:src.shop.cart"),
        ("shop", "module:shop:src.shop"),
        ("Shop.Orders.order.total", SHOP_TOTAL),  # case as misremembered, when nothing matches as written
    ],
)
def test_a_name_written_as_people_write_it_finds_its_entity(
    directory: EntityDirectory, written: str, expected: str
) -> None:
    assert resolve_entity(directory, written).id == expected


def test_an_ambiguous_name_lists_each_candidate_by_its_import_name_and_a_project_settles_it(
    directory: EntityDirectory,
) -> None:
    with pytest.raises(EntityNotFoundError) as raised:
        resolve_entity(directory, "Order.total")
    message = str(raised.value)
    assert "shop.orders.Order.total" in message and "ledger.orders.Order.total" in message
    assert "src.shop" not in message.split(" (")[0]  # listed by import name, the id follows in parentheses
    assert set(raised.value.suggestions) == {SHOP_TOTAL, LEDGER_TOTAL}
    assert resolve_entity(directory, "Order.total", ["ledger"]).id == LEDGER_TOTAL


def test_a_short_name_several_entities_share_is_the_one_a_person_means_when_one_stands_out(
    directory: EntityDirectory,
) -> None:
    # `highlight` is a function of ledger's, a method of shop's View (written `View.highlight`), a test helper and a
    # function under a private docs folder: the library's module-level function
    assert resolve_entity(directory, "highlight").id == "function:ledger:ledger.render.highlight"
    assert resolve_entity(directory, "View.highlight").id == "method:shop:src.shop.view.View.highlight"
    assert resolve_entity(directory, "highlight", ["shop"]).id == "method:shop:src.shop.view.View.highlight"
    # two module-level functions of two libraries stay ambiguous (a test helper of the name listed after them)
    with pytest.raises(EntityNotFoundError) as raised:
        resolve_entity(directory, "checkout")
    listed = raised.value.suggestions  # each candidate, the libraries' first
    assert set(listed[:2]) == {"function:shop:src.shop.cart.checkout", "function:ledger:ledger.billing.checkout"}
    assert listed[2:] == ["function:shop:tests.helpers.checkout"]


@pytest.mark.parametrize(
    ("written", "first"),
    [
        ("shop.orders.Invoice.total", "shop.orders.Order.total"),  # the written package and module decide
        ("ledger.Invoice.total", "ledger.orders.Order.total"),
        ("shop.orders.Order.totl", "shop.orders.Order.total"),  # a misspelt last part, read as the nearest name
    ],
)
def test_a_name_that_matches_nothing_suggests_the_entity_holding_most_of_it_first(
    directory: EntityDirectory, written: str, first: str
) -> None:
    with pytest.raises(EntityNotFoundError) as raised:
        resolve_entity(directory, written)
    assert raised.value.suggestions[0] == first
    assert resolve_entity(directory, raised.value.suggestions[0]).id in (SHOP_TOTAL, LEDGER_TOTAL)  # it resolves


def test_matching_tiers_prefer_the_whole_name_then_a_tail_then_the_package() -> None:
    name = ["httpx", "_client", "Client", "send"]
    assert match(written_parts("httpx._client.Client.send"), name) == Match.WHOLE
    assert match(written_parts("Client.send"), name) == Match.TAIL
    assert match(written_parts("httpx.Client.send"), name) == Match.PACKAGE
    assert match(written_parts("_client.send"), name) == Match.PARTS
    assert match(written_parts("Client.get"), name) is None
    assert match(written_parts("Client.httpx.send"), name) is None  # out of order
    assert written_parts("a::b::C#run()") == ["a", "b", "C", "run"]


@pytest.mark.anyio
async def test_served_tools_take_the_import_name_and_an_ambiguous_one_is_a_result_the_model_can_correct(
    client: Any,
) -> None:
    found = await client.call_tool("get_entity", {"name_or_id": "shop.Order.total"})
    assert not found.is_error, found.content
    assert found.structured_content["entity"]["id"] == SHOP_TOTAL
    callers = await client.call_tool("trace_relationships", {"entity": "shop.orders.Order.total", "direction": "in"})
    assert not callers.is_error, callers.content
    ambiguous = await client.call_tool("trace_relationships", {"entity": "Order.total"})
    assert ambiguous.is_error
    assert "ledger.orders.Order.total" in ambiguous.content[0].text
