"""A visitor's method named for a node class (`visitDefTag(self, node)` in a real template engine's code generator,
`visit_FuncDef(self, n)` in a real C parser's) is given an instance of that class: calls on its parameter bind to the
class's methods, where the file binds the name or a module it imports defines it; a visitor of the standard library's
`ast` nodes, an annotated parameter and a method named for no class of the project bind nothing so. Indexed with the
real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

TEMPLATES = {
    "tpl/__init__.py": "",
    "tpl/parsetree.py": (
        "class Node:\n"
        "    def get_children(self):\n"
        "        return []\n\n\n"
        "class DefTag(Node):\n"
        "    def get_argument_expressions(self):\n"
        "        return []\n\n\n"
        "class Name(Node):\n"
        "    def declared(self):\n"
        "        return []\n"
    ),
    "tpl/util.py": "def helper():\n    return 1\n",
    "tpl/codegen.py": (
        "import ast\n\n"
        "from tpl import parsetree, util\n\n\n"
        "class Generator:\n"
        "    def visitDefTag(self, node):\n"
        "        return node.get_argument_expressions(), node.get_children()\n\n"
        "    def visit_Name(self, node, extra=None):\n"
        "        return node.declared()\n\n"
        "    def visitMissing(self, node):\n"
        "        return node.declared()\n\n"
        "    def visitName(self, node: parsetree.DefTag):\n"
        "        return node.get_argument_expressions()\n\n\n"
        "class Finder(ast.NodeVisitor):\n"
        "    def visit_Name(self, node):\n"
        "        return node.declared()\n"
    ),
}


def test_a_visitor_method_types_its_node_by_the_class_it_is_named_for(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "tpl", TEMPLATES)
    gen, tree = "tpl.codegen.Generator", "tpl.parsetree"
    assert calls.get((f"{gen}.visitDefTag", f"{tree}.DefTag.get_argument_expressions")) == "inferred"
    assert calls.get((f"{gen}.visitDefTag", f"{tree}.Node.get_children")) == "inferred"
    assert calls.get((f"{gen}.visit_Name", f"{tree}.Name.declared")) == "inferred"
    assert calls.get((f"{gen}.visitName", f"{tree}.DefTag.get_argument_expressions")) == "inferred"  # (annotated)


def test_a_visitor_of_the_standard_librarys_nodes_or_of_no_class_binds_no_type(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "tpl", TEMPLATES)
    for caller in ("tpl.codegen.Finder.visit_Name", "tpl.codegen.Generator.visitMissing"):
        assert calls.get((caller, "tpl.parsetree.Name.declared")) in (None, "name"), caller
