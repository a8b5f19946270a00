"""What setting or deleting an attribute runs: `x.a = v` runs the `__setattr__` of x's class (as pyasn1's
`Asn1Type.__setattr__` runs for every `self._value = ...` its types' constructors write), `del x.a` its
`__delattr__`; a read runs neither, a class defining neither gets no edge, and `cls.a = v` in `__new__` sets an
attribute of the class (its metaclass's `__setattr__`), not of an instance. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

TYPES = {
    "asn/__init__.py": "",
    "asn/base.py": (
        "class Asn1Type:\n"
        "    readOnly = ()\n\n"
        "    def __setattr__(self, name, value):\n"
        "        if name in self.readOnly:\n"
        "            raise AttributeError(name)\n"
        "        self.__dict__[name] = value\n\n"
        "    def __delattr__(self, name):\n"
        "        del self.__dict__[name]\n\n\n"
        "class Plain:\n"
        "    def __init__(self):\n"
        "        self.value = 0\n"
    ),
    "asn/univ.py": (
        "from asn.base import Asn1Type, Plain\n\n\n"
        "class Integer(Asn1Type):\n"
        "    _instance = None\n\n"
        "    def __new__(cls, *args):\n"
        "        if cls._instance is None:\n"
        "            cls._instance = object.__new__(cls)\n"
        "        return cls._instance\n\n"
        "    def __init__(self, value=0):\n"
        "        self._value, self.tag = value, None\n\n"
        "    def grow(self):\n"
        "        self._value += 1\n\n"
        "    def forget(self):\n"
        "        del self._value\n\n"
        "    def read(self):\n"
        "        return self._value\n\n\n"
        "def label(number: Integer, plain: Plain):\n"
        "    number.name = 'n'\n"
        "    plain.value = 1\n"
    ),
}


def test_setting_or_deleting_an_attribute_runs_the_classes_own_hooks(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "asn", TYPES)
    integer, hooks = "asn.univ.Integer", "asn.base.Asn1Type"
    assert calls.get((f"{integer}.__init__", f"{hooks}.__setattr__")) == "exact"  # `self._value, self.tag = ...`
    assert calls.get((f"{integer}.grow", f"{hooks}.__setattr__")) == "exact"  # `+=` sets it again
    assert calls.get((f"{integer}.forget", f"{hooks}.__delattr__")) == "exact"
    assert calls.get(("asn.univ.label", f"{hooks}.__setattr__")) == "inferred"  # on a parameter typed Integer
    assert (f"{integer}.read", f"{hooks}.__setattr__") not in calls  # a read sets nothing
    assert (f"{integer}.forget", f"{hooks}.__setattr__") not in calls
    assert (f"{integer}.__new__", f"{hooks}.__setattr__") not in calls  # the class's attribute, not an instance's
    assert not any(callee.startswith("asn.base.Plain") for _, callee in calls)
