"""A lambda or a function defined inside another, passed on and called where it is passed, runs the code of the
function it is written in (its own code), so the call is an edge to that function; but what the call passes fills the
lambda's parameters, not that function's. pyasn1's `SingleItemDecoder.__call__` passes a nested `def substrateFun`
on to the payload decoders, which call `substrateFun(asn1Object, substrate, length, options)`: the stream is not the
`asn1Spec` of `__call__`, whose callers pass ASN.1 types. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

DECODER = {
    "dec/__init__.py": "",
    "dec/types.py": (
        "class Spec:\n"
        "    def clone(self):\n"
        "        return self\n\n\n"
        "class Stream:\n"
        "    def read(self):\n"
        "        return b''\n"
    ),
    "dec/payload.py": (
        "from dec.types import Stream\n\n\n"
        "def decode_value(substrate, spec, substrate_fun):\n"
        "    return substrate_fun(spec.clone(), substrate)\n"
    ),
    "dec/decoder.py": (
        "from dec.payload import decode_value\n\n\n"
        "def decode(substrate, spec):\n"
        "    def collect(obj, stream):\n"
        "        return stream.read()\n\n"
        "    decode_value(substrate, spec, collect)\n"
        "    decode_value(substrate, spec, lambda obj, stream: stream.read())\n"
        "    return spec.clone()\n"
    ),
    "dec/api.py": (
        "from dec.decoder import decode\n"
        "from dec.types import Spec, Stream\n\n\n"
        "def load():\n"
        "    return decode(Stream(), Spec())\n"
    ),
}


def test_a_nested_function_called_where_it_is_passed_passes_nothing_to_the_function_around_it(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "dec", DECODER)
    # calling the passed function runs decode's own code
    assert calls.get(("dec.payload.decode_value", "dec.decoder.decode")) in ("inferred", "exact")
    # and decode's `spec` is what its callers pass (a Spec), not the Stream the nested function is given
    assert calls.get(("dec.decoder.decode", "dec.types.Spec.clone")) in ("inferred", "exact")


ONE_FILE = {
    "dec/__init__.py": "",
    "dec/types.py": DECODER["dec/types.py"],
    "dec/decoder.py": (
        "from dec.types import Stream\n\n\n"
        "def decode_value(substrate, spec, substrate_fun):\n"
        "    return substrate_fun(spec.clone(), substrate)\n\n\n"
        "def decode(substrate, spec):\n"
        "    decode_value(substrate, spec, lambda obj, stream: stream.read())\n"
        "    return spec.clone()\n"
    ),
    "dec/api.py": DECODER["dec/api.py"],
}


def test_a_lambda_called_in_its_own_file_passes_nothing_to_the_function_around_it(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "dec", ONE_FILE)
    assert calls.get(("dec.decoder.decode_value", "dec.decoder.decode")) in ("inferred", "exact")
    assert calls.get(("dec.decoder.decode", "dec.types.Spec.clone")) in ("inferred", "exact")


FILTERS = {  # jinja2's `do_select`/`do_reject` and `select_or_reject`, `prepare_select_or_reject`
    "jj/__init__.py": "",
    "jj/filters.py": (
        "import typing as t\n\n\n"
        "def prepare(args, modfunc: t.Callable[[t.Any], t.Any]):\n"
        "    def func(item):\n"
        "        return item\n\n"
        "    return lambda item: modfunc(func(item))\n\n\n"
        "def select_or_reject(value, args, modfunc: t.Callable[[t.Any], t.Any]):\n"
        "    if value:\n"
        "        func = prepare(args, modfunc)\n"
        "        for item in value:\n"
        "            if func(item):\n"
        "                yield item\n\n\n"
        "def do_select(value, *args):\n"
        "    return select_or_reject(value, args, lambda x: x)\n\n\n"
        "def do_reject(value, *args):\n"
        "    return select_or_reject(value, args, lambda x: not x)\n"
    ),
}


def test_a_parameter_its_file_passes_several_lambdas_is_passed_on_as_whatever_callers_pass(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "jj", FILTERS)
    # `modfunc` is given do_select's lambda or do_reject's: passed on to `prepare`, whose lambda calls it
    assert calls.get(("jj.filters.prepare", "jj.filters.do_select")) == "inferred"
    assert calls.get(("jj.filters.prepare", "jj.filters.do_reject")) == "inferred"
