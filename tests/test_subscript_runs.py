"""What a subscript runs where it is one target of several or is written in place: `heir, self[0] = ...` writes
(`__setitem__`, as a real interval tree's node does when it prunes), `x[k] += 1` reads then writes, `del a[i], x[k]`
deletes; a subscript on the right of an assignment only reads. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

NODES = {
    "tree/__init__.py": "",
    "tree/node.py": (
        "class Node:\n"
        "    def __init__(self):\n"
        "        self.branches = [None, None]\n\n"
        "    def __getitem__(self, index):\n"
        "        return self.branches[index]\n\n"
        "    def __setitem__(self, index, value):\n"
        "        self.branches[index] = value\n\n"
        "    def __delitem__(self, index):\n"
        "        self.branches[index] = None\n\n"
        "    def pop_greatest(self):\n"
        "        return self, None\n\n"
        "    def prune(self):\n"
        "        heir, self[0] = self.pop_greatest()\n"
        "        return heir\n\n"
        "    def grow(self):\n"
        "        self[1] += 1\n\n"
        "    def clear(self, other: 'Node'):\n"
        "        del other.branches[0], self[1]\n\n"
        "    def pair(self):\n"
        "        return (self[0], self.branches)\n"
    ),
}


def test_a_subscript_written_among_several_targets_or_in_place_runs_setitem(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "tree", NODES)
    node = "tree.node.Node"
    assert calls.get((f"{node}.prune", f"{node}.__setitem__")) == "exact"
    assert (f"{node}.prune", f"{node}.__getitem__") not in calls  # (`self[0]` is written there, not read)
    assert calls.get((f"{node}.grow", f"{node}.__getitem__")) == "exact"
    assert calls.get((f"{node}.grow", f"{node}.__setitem__")) == "exact"
    assert calls.get((f"{node}.clear", f"{node}.__delitem__")) == "exact"
    assert calls.get((f"{node}.pair", f"{node}.__getitem__")) == "exact"
    assert (f"{node}.pair", f"{node}.__setitem__") not in calls
