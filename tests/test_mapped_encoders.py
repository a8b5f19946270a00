"""A module's mapping written out with instances of one family of classes (pyasn1's `TYPE_MAP = {univ.Integer.typeId:
IntegerEncoder(), ...}`) gives what a subscript of it gives, also through a class attribute holding it and an attribute
given it or a parameter (`self._typeMap = typeMap if typeMap is not _MISSING else self.TYPE_MAP`); and what callers
pass a base method's parameter reaches the overrides a call of it runs (`encodeFun`, the encoder that called
`encode`, called in `IntegerEncoder.encodeValue`). Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_edges

ENCODERS = {
    "asn/__init__.py": "",
    "asn/encoder.py": (
        "class AbstractItemEncoder(object):\n"
        "    def encode(self, value, encodeFun):\n"
        "        return self.encodeValue(value, encodeFun)\n\n"
        "    def encodeValue(self, value, encodeFun):\n"
        "        raise NotImplementedError()\n\n\n"
        "class IntegerEncoder(AbstractItemEncoder):\n"
        "    def encodeValue(self, value, encodeFun):\n"
        "        return str(value)\n\n\n"
        "class ListEncoder(AbstractItemEncoder):\n"
        "    def encodeValue(self, value, encodeFun):\n"
        "        return ''.join(encodeFun(item) for item in value)\n\n\n"
        "class Printer(object):\n"
        "    def encode(self, value, encodeFun):\n"
        "        return repr(value)\n\n\n"
        "TYPE_MAP = {\n"
        "    int: IntegerEncoder(),\n"
        "    list: ListEncoder(),\n"
        "}\n"
        "MIXED = {int: IntegerEncoder(), str: Printer()}\n\n\n"
        "class SingleItemEncoder(object):\n"
        "    TYPE_MAP = TYPE_MAP\n\n"
        "    def __init__(self, typeMap=None):\n"
        "        self._typeMap = typeMap if typeMap is not None else self.TYPE_MAP\n\n"
        "    def __call__(self, value):\n"
        "        concreteEncoder = self._typeMap[type(value)]\n"
        "        return concreteEncoder.encode(value, self)\n\n\n"
        "def encode_one(value):\n"
        "    return TYPE_MAP[type(value)].encode(value, repr)\n\n\n"
        "def encode_mixed(value):\n"
        "    return MIXED[type(value)].encode(value, repr)\n"
    ),
}
ENCODER = "asn.encoder"


def test_a_mapping_of_one_family_of_encoders_types_what_its_subscript_gives(tmp_path: Path) -> None:
    callers = {
        "single": f"method:asn:{ENCODER}.SingleItemEncoder.__call__",
        "one": f"function:asn:{ENCODER}.encode_one",
        "mixed": f"function:asn:{ENCODER}.encode_mixed",
        "listed": f"method:asn:{ENCODER}.ListEncoder.encodeValue",
    }
    found = project_edges(tmp_path, "asn", ENCODERS, list(callers.values()), relation_types=["CALLS"])
    single, one, mixed, listed = (found[callers[k]] for k in ("single", "one", "mixed", "listed"))
    encode, printed = ("CALLS", f"{ENCODER}.AbstractItemEncoder.encode"), ("CALLS", f"{ENCODER}.Printer.encode")
    assert single.get(encode) == "inferred"  # through the class attribute and the attribute given it in __init__
    assert one.get(encode) == "inferred"  # a subscript of the module's mapping
    assert printed not in single and printed not in one
    # values of two unrelated classes: what a subscript gives is neither, surely
    assert mixed.get(encode, "name") == "name" and mixed.get(printed, "name") == "name"
    # the encoder handed to `encode` is passed on to `encodeValue`, whose call runs ListEncoder's: calling it runs
    # SingleItemEncoder.__call__
    assert listed.get(("CALLS", f"{ENCODER}.SingleItemEncoder.__call__")) not in (None, "name")


CLIENTS = {
    "hx/__init__.py": "",
    "hx/client.py": (
        "class BaseClient:\n"
        "    def __init__(self, default_encoding=None):\n"
        "        self.default_encoding = default_encoding\n\n\n"
        "class Client(BaseClient):\n"
        "    def __init__(self, default_encoding=None):\n"
        "        super().__init__(default_encoding=default_encoding)\n\n\n"
        "class AsyncClient(BaseClient):\n"
        "    def __init__(self, default_encoding=None):\n"
        "        default_encoding('probe')\n"
        "        super().__init__(default_encoding=default_encoding)\n\n\n"
        "def autodetect(content):\n"
        "    return 'utf-8'\n\n\n"
        "def use():\n"
        "    return Client(default_encoding=autodetect)\n"
    ),
}


def test_what_a_constructor_of_the_base_is_passed_reaches_no_subclass_constructor(tmp_path: Path) -> None:
    sibling = "method:hx:hx.client.AsyncClient.__init__"
    found = project_edges(tmp_path, "hx", CLIENTS, [sibling], relation_types=["CALLS", "REFERENCES"])
    # Client's `super().__init__(default_encoding=...)` runs BaseClient's own constructor: what `use` gives Client is
    # never AsyncClient's (httpx's `Client(default_encoding=autodetect)`, a test's function)
    assert all(target != "hx.client.autodetect" for _, target in found[sibling])
    assert found[sibling].get(("CALLS", "hx.client.BaseClient.__init__")) == "exact"
