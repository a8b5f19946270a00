"""Code is chunked at symbol boundaries in every supported language, with its symbols and relations."""

from __future__ import annotations

import itertools
import threading

import pytest

from trident.ingest.chunk_tokens import CHUNK_TOKEN_BUDGET, estimate_tokens
from trident.ingest.code import parse_code
from trident.ingest.languages import parser_for
from trident.ingest.model import Extraction

PYTHON = '''import os
from .gateway import PaymentGateway


class Adapter(Base):
    """Adapts orders."""

    def process(self, order):
        return self.gateway.charge(order)


def helper():
    return Adapter()
'''

JAVASCRIPT = """import { charge } from "./gateway";

class Adapter extends Base {
  process(order) {
    return this.gateway.charge(order);
  }
}

function helper() {
  return new Adapter();
}
"""

TYPESCRIPT = """import { charge } from "./gateway";

export class Adapter extends Base implements Processor {
  process(order: Order): string {
    return this.gateway.charge(order);
  }
}

export function helper(): Adapter {
  return new Adapter();
}
"""

GO = """package billing

import "example.com/gateway"

type Adapter struct {
	gateway gateway.Gateway
}

func (a *Adapter) Process(order string) string {
	return a.gateway.Charge(order)
}

func helper() *Adapter {
	return newAdapter()
}
"""

RUST = """use crate::gateway::Gateway;

pub struct Adapter {
    gateway: Gateway,
}

impl Processor for Adapter {
    fn process(&self, order: &str) -> String {
        self.gateway.charge(order)
    }
}

fn helper() -> Adapter {
    make_adapter()
}
"""

JAVA = """import com.acme.gateway.Gateway;

public class Adapter extends Base {
    public String process(String order) {
        return gateway.charge(order);
    }
}

class Helper {
    Adapter helper() {
        return new Adapter();
    }
}
"""

# language, source, path, the (first line, last line) of the class chunk, method qualified name, caller of charge
CASES = [
    ("python", PYTHON, "billing/adapter.py", (5, 9), "Adapter.process"),
    ("javascript", JAVASCRIPT, "src/adapter.js", (3, 7), "Adapter.process"),
    ("typescript", TYPESCRIPT, "src/adapter.ts", (3, 7), "Adapter.process"),
    ("tsx", TYPESCRIPT, "src/adapter.tsx", (3, 7), "Adapter.process"),
    ("go", GO, "billing/adapter.go", (5, 7), "Adapter.Process"),
    ("rust", RUST, "src/adapter.rs", (3, 5), "Adapter.process"),
    ("java", JAVA, "src/Adapter.java", (3, 7), "Adapter.process"),
]


def _parse(language: str, source: str, path: str) -> Extraction:
    return parse_code("p", path, source, language, f"p/{path}")


@pytest.mark.parametrize(("language", "source", "path", "class_span", "method"), CASES)
def test_the_class_is_one_chunk_from_its_first_to_its_last_line(
    language: str, source: str, path: str, class_span: tuple[int, int], method: str
) -> None:
    chunks = _parse(language, source, path).chunks
    spans = {(c.start_line, c.end_line) for c in chunks if "Adapter" in c.symbols}
    assert class_span in spans


@pytest.mark.parametrize(("language", "source", "path", "class_span", "method"), CASES)
def test_the_method_is_an_entity_contained_in_its_class(
    language: str, source: str, path: str, class_span: tuple[int, int], method: str
) -> None:
    ex = _parse(language, source, path)
    by_id = {e.id: e for e in ex.entities}
    methods = [e for e in ex.entities if e.type == "Method"]
    assert method in {m.aliases[0] for m in methods}
    contains = {(by_id[r.source].name, by_id[r.target].name) for r in ex.relations if r.type == "CONTAINS"}
    assert ("Adapter", method.split(".")[1]) in contains


@pytest.mark.parametrize(("language", "source", "path", "class_span", "method"), CASES)
def test_the_call_to_charge_comes_from_the_method_that_makes_it(
    language: str, source: str, path: str, class_span: tuple[int, int], method: str
) -> None:
    ex = _parse(language, source, path)
    by_id = {e.id: e for e in ex.entities}
    callers = {by_id[r.source].aliases[0] for r in ex.references if r.type == "CALLS" and r.target.lower() == "charge"}
    assert callers == {method}
    assert all(r.evidence in {c.id for c in ex.chunks} for r in ex.references)


@pytest.mark.parametrize(("language", "source", "path", "class_span", "method"), CASES)
def test_imports_are_references_from_the_module(
    language: str, source: str, path: str, class_span: tuple[int, int], method: str
) -> None:
    ex = _parse(language, source, path)
    imports = [r for r in ex.references if r.type == "IMPORTS"]
    assert imports and all(r.source.startswith("module:p:") for r in imports)


def test_relative_imports_resolve_to_absolute_names() -> None:
    py = {r.target for r in _parse("python", PYTHON, "billing/adapter.py").references if r.type == "IMPORTS"}
    assert py == {"os", "billing.gateway"}
    js = {r.target for r in _parse("javascript", JAVASCRIPT, "src/adapter.js").references if r.type == "IMPORTS"}
    assert js == {"src/gateway"}


@pytest.mark.parametrize(
    ("language", "source", "path", "bases"),
    [
        ("python", PYTHON, "a.py", {"Base"}),
        ("typescript", TYPESCRIPT, "a.ts", {"Base", "Processor"}),
        ("java", JAVA, "A.java", {"Base"}),
        ("rust", RUST, "a.rs", {"Processor"}),
    ],
)
def test_inheritance_becomes_inherits_references(language: str, source: str, path: str, bases: set[str]) -> None:
    refs = {r.target for r in _parse(language, source, path).references if r.type == "INHERITS"}
    assert refs == bases


def test_an_oversized_function_is_split_into_overlapping_pieces_within_budget() -> None:
    body = "\n".join(f"    total = total + compute_line_amount(item_{i}, rate_{i}, discount_{i})" for i in range(120))
    source = f"def big(items):\n    total = 0\n{body}\n    return total\n"
    chunks = _parse("python", source, "big.py").chunks
    assert len(chunks) > 1
    assert all(estimate_tokens(c.text) <= CHUNK_TOKEN_BUDGET for c in chunks)
    assert all(c.title == "big" for c in chunks)
    for before, after in itertools.pairwise(chunks):
        assert after.start_line <= before.end_line, "split pieces must overlap"
    assert chunks[0].start_line == 1 and chunks[-1].end_line == source.count("\n")


def test_a_big_class_is_split_into_a_header_and_one_chunk_per_method() -> None:
    methods = "\n".join(
        f"    def step_{i}(self, value):\n"
        + "\n".join(f"        value = transform_{j}(value, {j})" for j in range(12))
        + "\n        return value\n"
        for i in range(6)
    )
    source = f'class Pipeline:\n    """Many steps."""\n\n{methods}'
    chunks = _parse("python", source, "pipeline.py").chunks
    titles = [c.title for c in chunks]
    assert titles[0] == "Pipeline"
    assert [t for t in titles if t.startswith("Pipeline.step_")] == [f"Pipeline.step_{i}" for i in range(6)]


def test_broken_syntax_still_yields_chunks() -> None:
    ex = _parse("python", "def ok():\n    return 1\n\ndef broken(:\n    pass\n", "broken.py")
    assert ex.chunks and any("ok" in c.symbols for c in ex.chunks)


def test_parsing_is_deterministic() -> None:
    first = _parse("go", GO, "a.go")
    second = _parse("go", GO, "a.go")
    assert first == second


def test_a_parser_is_built_once_per_language_and_thread() -> None:
    first = parser_for("go")
    assert parser_for("go") is first
    assert parser_for("java") is not first
    elsewhere: list[object] = []
    worker = threading.Thread(target=lambda: elsewhere.append(parser_for("go")))
    worker.start()
    worker.join()
    assert elsewhere and elsewhere[0] is not first, "threads that parse at once need parsers of their own"
    assert first.parse(b"package a\nfunc f() {}\n").root_node.type == "source_file"
