"""`impact` on a plugin made from a name given at run time: only the tests whose code names its module (or makes one at
its top level) can run its overrides; a plugin a library default list names stays reachable from every test."""

from __future__ import annotations

from pathlib import Path

from tests.projects import write_files
from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.impact import ImpactResult, impact

HOST = {
    "host/__init__.py": "",
    "host/core.py": (
        "import importlib\n\n"
        "from .defaults import DEFAULTS\n\n\n"
        "class Pattern:\n"
        "    def run(self, text):\n"
        "        return text\n\n\n"
        "class Extension:\n"
        "    def extend(self, host):\n"
        "        pass\n\n\n"
        "def load(name):\n"
        "    return importlib.import_module(name).make_extension()\n\n\n"
        "class Host:\n"
        "    def __init__(self, extensions=(), defaults=False):\n"
        "        self.patterns: list[Pattern] = []\n"
        "        for name in [*extensions, *(DEFAULTS if defaults else [])]:\n"
        "            load(name).extend(self)\n\n"
        "    def convert(self, text):\n"
        "        for pattern in self.patterns:\n"
        "            text = pattern.run(text)\n"
        "        return text\n"
    ),
    "host/defaults.py": "DEFAULTS = ['host.exts.table']\n",
    "host/exts/__init__.py": "",
    "host/exts/smart.py": (
        "from ..core import Extension, Pattern\n\n\n"
        "class SmartPattern(Pattern):\n"
        "    def run(self, text):\n"
        "        return text.replace('--', '-')\n\n\n"
        "class SmartExtension(Extension):\n"
        "    def extend(self, host):\n"
        "        host.patterns.append(SmartPattern())\n\n\n"
        "def make_extension():\n"
        "    return SmartExtension()\n"
    ),
    "host/exts/table.py": (
        "from ..core import Extension, Pattern\n\n\n"
        "class TablePattern(Pattern):\n"
        "    def run(self, text):\n"
        "        return text.replace('|', ' ')\n\n\n"
        "class TableExtension(Extension):\n"
        "    def extend(self, host):\n"
        "        host.patterns.append(TablePattern())\n\n\n"
        "def make_extension():\n"
        "    return TableExtension()\n"
    ),
    "tests/__init__.py": "",
    "tests/test_smart.py": (
        "from host.core import Host\n\n\n"
        "def test_smart():\n"
        "    assert Host(extensions=['host.exts.smart']).convert('a--b') == 'a-b'\n"
    ),
    "tests/test_table.py": (
        "from host.core import Host\n\n\n"
        "def test_table():\n"
        "    assert Host(extensions=['host.exts.table']).convert('a|b') == 'a b'\n\n\n"
        "def test_defaults():\n"
        "    assert Host(defaults=True).convert('a|b') == 'a b'\n"
    ),
    "tests/test_plain.py": (
        "from host.core import Host\n\n\ndef test_plain():\n    assert Host().convert('a') == 'a'\n"
    ),
    "tests/test_imported.py": (
        "import importlib\n\n"
        "from host.core import Host\n\n\n"
        "def test_imported():\n"
        "    smart = importlib.import_module('host.exts' + '.smart')\n"
        "    host = Host()\n"
        "    host.patterns.append(smart.SmartPattern())\n"
        "    assert host.convert('a--b') == 'a-b'\n"
    ),
    "tests/test_direct.py": (
        "from host.exts.smart import SmartPattern\n\n"
        "PATTERN = SmartPattern()\n\n\n"
        "def test_direct():\n"
        "    assert PATTERN.run('--') == '-'\n"
    ),
}


def _impact(tmp_path: Path, entity: str) -> ImpactResult:
    write_files(tmp_path / "host", HOST)
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    try:
        with catalog.writer() as writer:
            index_folder(writer, tmp_path / "host", "host", max_file_bytes=1_000_000)
        return impact(Reader(catalog, GenerationViews(RetrievalSettings())), entities=[entity])
    finally:
        catalog.close()


def test_a_plugin_made_from_a_name_is_run_only_by_tests_naming_its_module_or_making_one_at_their_top(
    tmp_path: Path,
) -> None:
    # `host.exts.smart` is loaded only by its name: the test writing it runs SmartPattern.run, as do the test module
    # making a SmartPattern at its top level and the test constructing one through a module no binding follows (found
    # by the class name its code calls); the other tests reach the override through `pattern.run` but never make one,
    # and the answer says it left them out
    result = _impact(tmp_path, "host.exts.smart.SmartPattern.run")
    assert {t.name for t in result.tests} == {"test_smart", "test_direct", "test_imported"}
    left = next(r for r in result.verdict.reasons if r.kind == "unmade_overrides")
    assert left.count == 3 and "plugin" in left.detail
    assert result.verdict.status == "lower_bound"


def test_a_plugin_a_library_default_list_names_stays_reachable_from_every_test(tmp_path: Path) -> None:
    # `host.defaults` (imported by the library's core) names `host.exts.table`: any test may load it
    result = _impact(tmp_path, "host.exts.table.TablePattern.run")
    assert {t.name for t in result.tests} >= {"test_table", "test_defaults", "test_plain", "test_smart"}
