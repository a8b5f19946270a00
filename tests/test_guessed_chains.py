"""`explain_path` between two callables no bound chain of calls joins: the chain through a call guessed by name comes
before any structural path when min_resolution is left out, says so, and is held to min_resolution when given."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.projects import indexed_projects
from trident.retrieval.reader import Reader
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import Resolution
from trident.tools.explain import explain_path

# The shape of intervaltree's `Node.remove -> prune -> pop_greatest_child`: a child read out of an untyped dict is
# called by name alone, and one class states that name.
PROJECTS = {
    "tree": {
        "tree/__init__.py": "",
        "tree/node.py": (
            "class Node:\n"
            "    def __init__(self):\n"
            "        self.children = {}\n\n"
            "    def remove(self, key):\n"
            "        return self.prune(key)\n\n"
            "    def prune(self, key):\n"
            "        child = self.children[key]\n"
            "        return child.pop_greatest_child()\n\n"
            "    def pop_greatest_child(self):\n"
            "        return self\n\n"
            "    def size(self):\n"
            "        return 1\n"
        ),
    }
}
REMOVE, PRUNE = "method:tree:tree.node.Node.remove", "method:tree:tree.node.Node.prune"
POP, SIZE = "method:tree:tree.node.Node.pop_greatest_child", "method:tree:tree.node.Node.size"


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Catalog]:
    cat = indexed_projects(tmp_path_factory.mktemp("guessed"), PROJECTS, ("tree",))
    yield cat
    cat.close()


def test_without_min_resolution_the_chain_through_a_guessed_call_comes_before_the_structural_path(
    catalog: Catalog, views: GenerationViews
) -> None:
    result = explain_path(Reader(catalog, views), REMOVE, POP)
    first = result.paths[0]
    assert first.call_chain and [(h.target, h.resolution.value) for h in first.hops] == [
        (PRUNE, "exact"),
        (POP, "name"),
    ]
    assert [h.call_site for h in first.hops] == ["tree/tree/node.py:L6", "tree/tree/node.py:L10"]
    assert result.message is not None and "guessed by name" in result.message
    # the structural connection follows it, as the next paths
    assert any("CONTAINS" in p.relation_types for p in result.paths[1:])


@pytest.mark.parametrize("given", [Resolution.DISPATCH, Resolution.NAME])
def test_a_min_resolution_given_is_held_to(catalog: Catalog, views: GenerationViews, given: Resolution) -> None:
    result = explain_path(Reader(catalog, views), REMOVE, POP, min_resolution=given)
    first = result.paths[0]
    if given is Resolution.DISPATCH:
        assert not any(p.call_chain for p in result.paths)
        assert result.message is not None and "nearest structural connection" in result.message
    else:  # asked for guesses: the chain, with nothing to say about it
        assert first.call_chain and result.message is None


def test_a_bound_chain_needs_no_guess_and_two_callables_no_call_joins_get_structure(
    catalog: Catalog, views: GenerationViews
) -> None:
    bound = explain_path(Reader(catalog, views), REMOVE, PRUNE)
    assert bound.paths[0].call_chain and bound.message is None
    apart = explain_path(Reader(catalog, views), REMOVE, SIZE)
    assert not any(p.call_chain for p in apart.paths)
    assert apart.message is not None and apart.message.startswith("no call chain")


@pytest.mark.anyio
async def test_a_served_explain_path_without_min_resolution_gives_the_guessed_chain(client: Any) -> None:
    result = await client.call_tool("explain_path", {"source": "Node.remove", "target": "Node.pop_greatest_child"})
    assert not result.is_error, result.content
    first = result.structured_content["paths"][0]
    assert first["call_chain"] is True and [h["resolution"] for h in first["hops"]] == ["exact", "name"]
    strict = await client.call_tool(
        "explain_path",
        {"source": "Node.remove", "target": "Node.pop_greatest_child", "min_resolution": "dispatch"},
    )
    assert not any(p["call_chain"] for p in strict.structured_content["paths"])
    wrong = await client.call_tool(
        "explain_path", {"source": "Node.remove", "target": "Node.prune", "min_resolution": "surely"}
    )
    assert wrong.is_error
