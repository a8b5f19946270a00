"""A file the binder cannot read (an expression nested deeper than its walk goes: 3,000 parentheses) costs that
file's bindings, not the index: the run completes, the file's definitions are entities, its calls are read by name
as in a language with no binder, the other files bind as before, and a warning names the file. Indexed with the real
engines."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.projects import call_edges, indexed_projects

DEPTH = 3000
FILES = {
    "dp/__init__.py": "",
    "dp/shapes.py": (
        "class Shape:\n    def area(self):\n        return 0\n\n\ndef measure(shape: Shape):\n    return shape.area()\n"
    ),
    "dp/deep.py": (
        "from dp.shapes import Shape\n\n\n"
        f"def nested():\n    shape = {'(' * DEPTH}Shape(){')' * DEPTH}\n    return shape.area()\n"
    ),
}


def test_a_file_the_binder_fails_on_is_indexed_with_its_calls_by_name(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="trident.ingest.code"):
        catalog = indexed_projects(tmp_path, {"dp": FILES}, ("dp",))
    try:
        calls = {
            (s.rsplit(":", 1)[-1], t.rsplit(":", 1)[-1]): str(r.resolution) for (s, t), r in call_edges(catalog).items()
        }
    finally:
        catalog.close()
    assert calls[("dp.shapes.measure", "dp.shapes.Shape.area")] == "inferred"  # the other file binds as before
    assert calls[("dp.deep.nested", "dp.shapes.Shape.area")] == "name"  # read by name
    assert any("dp/deep.py" in r.getMessage() and "binder failed" in r.getMessage() for r in caplog.records)
