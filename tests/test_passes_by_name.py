"""What a method call bound by the method's name alone passes, where one class's method (or an override of it) is the
only method of that name: mako's `n.accept_visitor(self)` on nodes nothing types runs `Node.accept_visitor`, which
looks the visitor's `visit<Kind>` method up by a built name, so it runs the methods of the visitor classes that pass
themselves. Where two unrelated classes define the name, which one runs is a guess, and so is what it is passed.
Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_calls

TEMPLATES = {
    "mk/__init__.py": "",
    "mk/parsetree.py": (
        "class Node:\n"
        "    def get_children(self):\n"
        "        return []\n\n"
        "    def accept_visitor(self, visitor):\n"
        "        def traverse(node):\n"
        "            for n in node.get_children():\n"
        "                n.accept_visitor(visitor)\n\n"
        '        method = getattr(visitor, "visit" + self.__class__.__name__, traverse)\n'
        "        method(self)\n\n\n"
        "class Code(Node):\n"
        "    pass\n\n\n"
        "class Tag(Node):\n"
        "    def accept_visitor(self, visitor):\n"
        "        visitor.visitTag(self)\n\n\n"
        "class Reader:\n"
        "    def read(self, source):\n"
        "        return source.visitCode(self)\n\n\n"
        "class Stream:\n"
        "    def read(self, source):\n"
        "        return source\n"
    ),
    "mk/codegen.py": (
        "class LoopVariable:\n"
        "    def visitCode(self, node):\n"
        "        return node\n\n"
        "    def visitTag(self, node):\n"
        "        return node\n\n"
        "    def check(self, nodes, inputs):\n"
        "        for n in nodes:\n"
        "            n.accept_visitor(self)\n"
        "        for i in inputs:\n"
        "            i.read(self)\n"
    ),
}


def test_a_call_bound_by_a_name_one_class_defines_passes_what_it_is_given(tmp_path: Path) -> None:
    calls = project_calls(tmp_path / "home", "mk", TEMPLATES)
    loop = "mk.codegen.LoopVariable"
    assert calls.get(("mk.parsetree.Node.accept_visitor", f"{loop}.visitCode")) == "dispatch"  # `"visit" + kind`
    assert calls.get(("mk.parsetree.Tag.accept_visitor", f"{loop}.visitTag")) == "inferred"  # the override's too
    # `read` is Reader's and Stream's, unrelated: which runs is a guess, and so is what its `source` is
    assert calls.get(("mk.parsetree.Reader.read", f"{loop}.visitCode")) == "name"
