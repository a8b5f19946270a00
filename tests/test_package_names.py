"""What a name imported from a Python package means: the definition the package's `__init__` imports by it, where the
package's folder holds several definitions of that name (jinja2's `environment.Template` and `nodes.Template`,
`from .environment import Template as Template`), or the `__init__` defines a stand-in for when its import fails
(httpcore's `AsyncHTTP2Connection` without `h2`). Indexed with the real engines; the shapes are those two packages'.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.projects import call_edges, indexed_projects

LIBRARY = {
    "src/tmpl/__init__.py": (
        "from .environment import Environment as Environment\nfrom .environment import Template as Template\n"
    ),
    "src/tmpl/environment.py": (
        "from . import nodes\n\n\n"
        "class Environment:\n"
        "    def parse(self):\n"
        "        return nodes.Template()\n\n\n"
        "class Template:\n"
        "    def render(self):\n"
        "        return 1\n"
    ),
    "src/tmpl/nodes.py": "class Template:\n    def render(self):\n        return 0\n",
    "src/wire/__init__.py": "from ._async import H2Connection\n",
    "src/wire/_async/__init__.py": (
        "try:\n"
        "    from .http2 import H2Connection\n"
        "except ImportError:\n\n"
        "    class H2Connection:\n"
        "        def __init__(self, *args):\n"
        "            raise RuntimeError('install h2')\n"
    ),
    "src/wire/_async/http2.py": (
        "class H2Connection:\n"
        "    def __init__(self, origin):\n"
        "        self.origin = origin\n\n"
        "    def request(self):\n"
        "        return 1\n"
    ),
}
USER = {
    "app/main.py": (
        "from tmpl import Template\n"
        "from wire import H2Connection\n"
        "from wire._async import H2Connection as Direct\n\n\n"
        "def page():\n"
        "    return Template().render()\n\n\n"
        "def fetch():\n"
        "    return H2Connection('x').request() + Direct('y').request()\n"
    ),
}


@pytest.mark.parametrize("order", [("lib", "app"), ("app", "lib")])
def test_a_name_a_package_imports_is_the_definition_it_imports(tmp_path: Path, order: tuple[str, str]) -> None:
    catalog = indexed_projects(tmp_path, {"lib": LIBRARY, "app": USER}, order)
    try:
        calls = {(s.rsplit(":", 1)[-1], t.rsplit(":", 1)[-1]) for s, t in call_edges(catalog)}
    finally:
        catalog.close()
    page, fetch = "app.main.page", "app.main.fetch"
    assert {(page, "src.tmpl.environment.Template"), (page, "src.tmpl.environment.Template.render")} <= calls
    assert not {t for s, t in calls if s == page and "nodes" in t}
    http2 = "src.wire._async.http2.H2Connection"
    assert {(fetch, http2), (fetch, f"{http2}.request")} <= calls
    assert not {t for s, t in calls if s == fetch and t.startswith("src.wire._async.H2Connection")}  # the stand-in
