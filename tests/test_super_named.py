"""`super(Foo, self).m()` looks `m` up after the class it names, not after the method's own class: parso's
`PEP8Normalizer.add_issue` calls `super().add_issue(...)` for some codes (ErrorFinder's) and
`super(ErrorFinder, self).add_issue(...)` for the rest, skipping ErrorFinder's to run Normalizer's. The class named is
asked about, never handed on. Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import edges_named, indexed_projects
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews

NORMALIZERS = {
    "ps/__init__.py": "",
    "ps/normalizer.py": (
        "class Normalizer:\n"
        "    def add_issue(self, node, code):\n"
        "        return node, code\n\n"
        "    @property\n"
        "    def issues(self):\n"
        "        return []\n\n\n"
        "class ErrorFinder(Normalizer):\n"
        "    def add_issue(self, node, code):\n"
        "        return None\n\n"
        "    @property\n"
        "    def issues(self):\n"
        "        return [1]\n"
    ),
    "ps/pep8.py": (
        "from ps.normalizer import ErrorFinder\n\n\n"
        "class PEP8Normalizer(ErrorFinder):\n"
        "    def add_issue(self, node, code):\n"
        "        if code in (901, 903):\n"
        "            return super().add_issue(node, code)\n"
        "        return super(ErrorFinder, self).add_issue(node, code)\n\n"
        "    def base_issues(self):\n"
        "        return super(ErrorFinder, self).issues\n"
    ),
}
PEP8 = "method:ps:ps.pep8.PEP8Normalizer"


def test_super_naming_a_class_looks_the_member_up_after_that_class(tmp_path: Path) -> None:
    catalog = indexed_projects(tmp_path, {"ps": NORMALIZERS}, ("ps",))
    try:
        views = GenerationViews(RetrievalSettings())
        calls = edges_named(catalog, views, f"{PEP8}.add_issue", relation_types=["CALLS", "REFERENCES"])
        read = edges_named(catalog, views, f"{PEP8}.base_issues", relation_types=["CALLS"])
    finally:
        catalog.close()
    assert calls == {
        ("CALLS", "ps.normalizer.ErrorFinder.add_issue"): "exact",  # `super()`
        ("CALLS", "ps.normalizer.Normalizer.add_issue"): "exact",  # `super(ErrorFinder, self)`: past ErrorFinder's
    }  # (and no reference to the class ErrorFinder: super asks about it, it does not hand it on)
    assert read == {("CALLS", "ps.normalizer.Normalizer.issues"): "exact"}  # a property read past ErrorFinder's
