"""A keyword looked up in a function's `**` parameter with a default (`kwargs.pop("sizeSpec", self.sizeSpec)`, a real
ASN.1 library's shape) is of the default's type: the default says what the function takes that keyword to be, so
`if sizeSpec:` runs the class's `__bool__` and `sizeSpec.check()` its method (`inferred`). A mapping that is no `**`
parameter, or a lookup with no default, types nothing this way. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

SPECS = {
    "asn/__init__.py": "",
    "asn/constraint.py": (
        "class Constraints:\n"
        "    def __bool__(self):\n"
        "        return True\n\n"
        "    def check(self, value):\n"
        "        return value\n"
    ),
    "asn/base.py": (
        "from asn.constraint import Constraints\n\n\n"
        "class Base:\n"
        "    sizeSpec = Constraints()\n\n"
        "    def moved(self, **kwargs):\n"
        "        sizeSpec = kwargs.pop('sizeSpec', self.sizeSpec)\n"
        "        if sizeSpec:\n"
        "            return sizeSpec.check(1)\n\n"
        "    def made(self, **options: object):\n"
        "        spec = options.get('spec', Constraints())\n"
        "        return spec.check(2)\n\n"
        "    def other(self, table, **kwargs):\n"
        "        spec = table.get('spec', self.sizeSpec)\n"
        "        bare = kwargs.get('spec')\n"
        "        return spec.check(3), bare.check(4)\n"
    ),
}


def test_a_keyword_taken_with_a_default_is_of_the_defaults_type(tmp_path: Path) -> None:
    calls = project_calls(tmp_path, "asn", SPECS)
    assert calls[("asn.base.Base.moved", "asn.constraint.Constraints.__bool__")] == "inferred"
    assert calls[("asn.base.Base.moved", "asn.constraint.Constraints.check")] == "inferred"
    assert calls[("asn.base.Base.made", "asn.constraint.Constraints.check")] == "inferred"
    # a mapping parameter that is not `**`, and a keyword taken with no default: nothing says what they hold
    assert calls.get(("asn.base.Base.other", "asn.constraint.Constraints.check"), "name") == "name"
