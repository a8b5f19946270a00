"""A nested `def` is part of the code of the function it is in (it has no entity of its own): where it calls itself
(parso's `scan` yielding from `scan(child)` inside `iter_raise_stmts`), the function's code runs itself again, a
recursion edge from the function to itself; a nested helper that only the function calls is no recursion. Indexed with
the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_edges

TREE = {
    "ps/__init__.py": "",
    "ps/tree.py": (
        "def leaves(node):\n"
        "    return [node]\n\n\n"
        "def iter_raise_stmts(children):\n"
        "    def scan(children):\n"
        "        for element in children:\n"
        "            yield element\n"
        "            yield from scan(element)\n\n"
        "    return list(scan(children))\n\n\n"
        "class Dumper:\n"
        "    def dump(self, node):\n"
        "        def _format_dump(node, indent=''):\n"
        "            return indent + ''.join(_format_dump(c, indent + ' ') for c in node)\n\n"
        "        return _format_dump(node)\n\n\n"
        "def flat(children):\n"
        "    def one(child):\n"
        "        return leaves(child)\n\n"
        "    return [one(c) for c in children]\n"
    ),
}


def test_a_nested_def_calling_itself_is_a_recursion_of_the_function_it_is_in(tmp_path: Path) -> None:
    ids = ["function:ps:ps.tree.iter_raise_stmts", "method:ps:ps.tree.Dumper.dump", "function:ps:ps.tree.flat"]
    found = project_edges(tmp_path, "ps", TREE, ids, relation_types=["CALLS"])
    scan, dump, flat = (found[i] for i in ids)
    assert scan.get(("CALLS", "ps.tree.iter_raise_stmts")) == "exact"
    assert dump.get(("CALLS", "ps.tree.Dumper.dump")) == "exact"
    assert flat == {("CALLS", "ps.tree.leaves"): "exact"}  # `one` does not call itself: no recursion
