"""A read of a property of another file's class runs its getter: a call, as a read in the class's own file is. The
binder of the reading file sees no `@property`, so the class's file states its getters (`GETTER_MARK`) and the
indexer makes the read a call where the member resolves to one: on a typed value, on a subclass inheriting the
property, and on an untyped parameter its callers pass an instance to; a method read as a value stays a reference.
A write to a property with a setter runs the setter (a real logging library's `self.columns = columns`). The shapes
are those of real libraries (an ASN.1 codec's `namedType.name`), indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls, project_edges

TYPES = {
    "asn/__init__.py": "",
    "asn/namedtype.py": (
        "class NamedType:\n"
        "    def __init__(self, name):\n"
        "        self.__name = name\n\n"
        "    @property\n"
        "    def name(self):\n"
        "        return self.__name\n\n"
        "    def show(self):\n"
        "        return 1\n\n\n"
        "class OptionalNamedType(NamedType):\n"
        "    pass\n"
    ),
    "asn/encoder.py": (
        "from asn.namedtype import NamedType, OptionalNamedType\n\n\n"
        "def read(named: NamedType):\n"
        "    return named.name\n\n\n"
        "def taken(named: NamedType):\n"
        "    return named.show\n\n\n"
        "def inherited(named: OptionalNamedType):\n"
        "    return named.name\n\n\n"
        "def untyped(named):\n"
        "    return named.name\n\n\n"
        "def encode():\n"
        "    return untyped(NamedType('x'))\n"
    ),
}
GETTER = "asn.namedtype.NamedType.name"


def test_a_property_read_in_another_file_runs_its_getter(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "asn", TYPES)
    for reader in ("read", "inherited", "untyped"):
        assert calls.get((f"asn.encoder.{reader}", GETTER)) == "inferred", reader
    assert ("asn.encoder.taken", "asn.namedtype.NamedType.show") not in calls  # a method taken as a value


def test_a_method_read_as_a_value_in_another_file_stays_a_reference(tmp_path: Path) -> None:
    edges = project_edges(tmp_path / "home", "asn", TYPES, ["asn.encoder.taken", "asn.encoder.read"])
    assert ("REFERENCES", "asn.namedtype.NamedType.show") in edges["asn.encoder.taken"]
    assert ("CALLS", GETTER) in edges["asn.encoder.read"]
    assert ("REFERENCES", GETTER) not in edges["asn.encoder.read"]


RENDERERS = {
    "logs/__init__.py": "",
    "logs/dev.py": (
        "class Renderer:\n"
        "    def __init__(self, columns):\n"
        "        self.columns = columns\n"
        "        self._sort = True\n\n"
        "    @property\n"
        "    def columns(self):\n"
        "        return self._columns\n\n"
        "    @columns.setter\n"
        "    def columns(self, value):\n"
        "        self._columns = value\n\n"
        "    @property\n"
        "    def width(self):\n"
        "        return 80\n\n\n"
        "class Plain(Renderer):\n"
        "    def reset(self):\n"
        "        self.columns = []\n\n\n"
        "def configure(renderer: Renderer):\n"
        "    renderer.columns = [1]\n"
        "    renderer.width = 100\n"
    ),
}


def test_a_write_to_a_property_with_a_setter_runs_it(tmp_path: Path) -> None:
    # structlog's `ConsoleRenderer.__init__`: `self.columns = columns`, `columns` a property with `@columns.setter`;
    # a write to a plain attribute, or to a property with no setter (an error at run time), runs nothing
    calls = project_calls(tmp_path / "home", "logs", RENDERERS)
    dev = "logs.dev"
    assert calls.get((f"{dev}.Renderer.__init__", f"{dev}.Renderer.columns")) == "exact"
    assert calls.get((f"{dev}.Plain.reset", f"{dev}.Renderer.columns")) == "exact"
    assert calls.get((f"{dev}.configure", f"{dev}.Renderer.columns")) == "inferred"
    assert (f"{dev}.configure", f"{dev}.Renderer.width") not in calls
    assert (f"{dev}.Renderer.columns", f"{dev}.Renderer.columns") not in calls  # (`self._columns = value`)
