"""A local is what it was declared as where a call uses it: in the languages bound by rules (`scope_rules`), a name
declared again in an inner block with another type types the calls after that declaration in that block, and only
those."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.projects import project_calls

KOTLIN = """package shop

class Ledger {
    fun settle() {}
    fun close() {}
}

class Audit {
    fun settle() {}
    fun close() {}
}

fun close(paid: Boolean) {
    val entry = Ledger()
    entry.settle()
    if (paid) {
        val entry = Audit()
        entry.settle()
    }
    entry.close()
}
"""
SWIFT = """class Ledger {
    func settle() {}
    func close() {}
}
class Audit {
    func settle() {}
    func close() {}
}

func close(paid: Bool) {
    let entry = Ledger()
    entry.settle()
    if paid {
        let entry = Audit()
        entry.settle()
    }
    entry.close()
}
"""

CPP = """struct Ledger {
    void settle() {}
    void close() {}
};

struct Audit {
    void settle() {}
    void close() {}
};

void close(bool paid) {
    Ledger* entry = new Ledger();
    entry->settle();
    if (paid) {
        Audit* entry = new Audit();
        entry->settle();
    }
    entry->close();
}
"""


@pytest.mark.parametrize(
    ("path", "text"), [("shop/Close.kt", KOTLIN), ("shop/Close.swift", SWIFT), ("shop/Close.cpp", CPP)]
)
def test_a_local_declared_again_in_an_inner_block_types_only_the_calls_after_it_in_that_block(
    tmp_path: Path, path: str, text: str
) -> None:
    module = path.rsplit(".", 1)[0].replace("/", ".")
    calls = project_calls(tmp_path, "shop", {path: text})
    called = {callee for (caller, callee) in calls if caller == f"{module}.close" and callee.startswith(module)}
    assert called == {f"{module}.Ledger", f"{module}.Audit", *(f"{module}.{c}.settle" for c in ("Ledger", "Audit"))} | {
        f"{module}.Ledger.close"  # after the inner block: the outer `entry` again
    }
