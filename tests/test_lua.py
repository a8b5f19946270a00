"""Lua with structure: functions (`local function f`, a module table's `function M.f` and `function M:m`) with the
comment above as description, `require` as imports; calls of the file's functions (`helper(x)`, `M.round(t)`,
`self:total()`) and of a required module's (`util.sum(xs)`, its table's function by the module's name) bound exactly,
a library's (`string.format`) linking nothing, a method on an untyped value a name guess. A small real-shaped project
of two modules, indexed with the real engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.projects import edges_out, indexed_projects
from trident.ingest.walker import FILE_TYPES
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import DocumentKind

UTIL = """local M = {}

-- Adds the numbers of a list.
function M.sum(xs)
  local t = 0
  for _, x in ipairs(xs) do t = t + x end
  return t
end

return M
"""
ORDERS = """local util = require("shop.util")
local M = {}

local function helper(x)
  return string.format("%d", x)
end

function M.round(t)
  return math.floor(t + 0.5)
end

-- Totals an order.
function M.total(order)
  local t = util.sum(order.items)
  order.log:write(t)
  return M.round(t) .. helper(t)
end

function M:show(order)
  return self:total(order)
end

return M
"""
FILES = {"src/shop/util.lua": UTIL, "src/shop/orders.lua": ORDERS}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("lua"), {"shop": FILES}, ("shop",))
    yield cat
    cat.close()


def test_a_lua_file_is_code_with_a_grammar() -> None:
    assert FILE_TYPES[".lua"] == (DocumentKind.CODE, "lua")


def test_functions_are_entities_with_their_comments(catalog: Catalog) -> None:
    found = {e.id: e for e in catalog.entities() if e.project == "shop"}
    assert {
        "function:shop:src.shop.orders.helper",
        "method:shop:src.shop.orders.M.total",
        "method:shop:src.shop.orders.M.show",
        "method:shop:src.shop.util.M.sum",
    } <= set(found)
    assert found["method:shop:src.shop.orders.M.total"].description == "Totals an order."


def test_require_is_an_import(catalog: Catalog, views: GenerationViews) -> None:
    assert edges_out(catalog, views, "module:shop:src.shop.orders", relation_types=["IMPORTS"]) == {
        ("IMPORTS", "module:shop:src.shop.util"): "exact",
    }


def test_calls_bind_to_the_file_s_and_the_required_module_s_functions(catalog: Catalog, views: GenerationViews) -> None:
    assert edges_out(catalog, views, "method:shop:src.shop.orders.M.total", relation_types=["CALLS"]) == {
        ("CALLS", "method:shop:src.shop.util.M.sum"): "exact",  # `util.sum`: the required module's `M.sum`
        ("CALLS", "method:shop:src.shop.orders.M.round"): "exact",
        ("CALLS", "function:shop:src.shop.orders.helper"): "exact",
        # `order.log:write(t)`: no function of the project is named `write`; `string.format`, `math.floor` neither
    }
    assert edges_out(catalog, views, "method:shop:src.shop.orders.M.show", relation_types=["CALLS"]) == {
        ("CALLS", "method:shop:src.shop.orders.M.total"): "exact",  # `self:total()` in a function of M
    }
