"""A subscript of a `dict` subclass runs dict's `__getitem__`, which asks the class's `__missing__` for a key it lacks:
pyflakes's `iter_child_nodes(node, omit=None, _fields_order=_FieldsOrder())` reads `_fields_order[node.__class__]`,
and `_FieldsOrder.__missing__` computes and stores the fields (a parameter holds the instance its default makes, where
no caller passes another). Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

CHECKER = {
    "pf/__init__.py": "",
    "pf/checker.py": (
        "class _FieldsOrder(dict):\n"
        "    def _get_fields(self, node_class):\n"
        "        return tuple(sorted(node_class._fields))\n\n"
        "    def __missing__(self, node_class):\n"
        "        self[node_class] = fields = self._get_fields(node_class)\n"
        "        return fields\n\n\n"
        "class Plain(dict):\n"
        "    pass\n\n\n"
        "def iter_child_nodes(node, omit=None, _fields_order=_FieldsOrder()):\n"
        "    for name in _fields_order[node.__class__]:\n"
        "        yield getattr(node, name)\n\n\n"
        "def lookup(table: Plain, key):\n"
        "    return table[key]\n\n\n"
        "def typed(order: _FieldsOrder, key):\n"
        "    return order[key]\n"
    ),
}


def test_a_subscript_of_a_dict_subclass_runs_its_missing(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "pf", CHECKER)
    # (`_fields_order` holds the instance its default makes)
    assert calls.get(("pf.checker.iter_child_nodes", "pf.checker._FieldsOrder.__missing__")) == "inferred"
    assert calls.get(("pf.checker.typed", "pf.checker._FieldsOrder.__missing__")) == "inferred"
    assert not {callee for caller, callee in calls if caller == "pf.checker.lookup"}  # Plain defines no __missing__
