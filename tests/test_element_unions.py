"""Annotations read as a type checker reads them: one written whole in quotes (lark's `'Tuple[Union[Transformer,
TransformerChain], ...]'`, jinja2's `"t.Optional[Frame]"`), a tuple of any length (`Tuple[Foo, ...]`: each element a
Foo), and elements of a union (`list[A | B]`, `*transformers: Union[A, B]`: each element may be either, and a call on
one runs either's method, never a third class's). Indexed with the real engines."""

from __future__ import annotations

from pathlib import Path

from tests.projects import project_edges

CHAIN = {
    "tf/__init__.py": "",
    "tf/visitors.py": (
        "import typing as t\n"
        "from typing import List, Tuple, Union\n\n\n"
        "class Transformer:\n"
        "    def transform(self, tree):\n"
        "        return tree\n\n\n"
        "class Interpreter:\n"
        "    def transform(self, tree):\n"
        "        return tree\n\n\n"
        "class Frame:\n"
        "    def symbols(self):\n"
        "        return []\n\n\n"
        "class TransformerChain:\n"
        "    transformers: 'Tuple[Union[Transformer, TransformerChain], ...]'\n\n"
        "    def __init__(self, *transformers: 'Union[Transformer, TransformerChain]') -> None:\n"
        "        self.transformers = transformers\n\n"
        "    def transform(self, tree):\n"
        "        for t in self.transformers:\n"
        "            tree = t.transform(tree)\n"
        "        return tree\n\n\n"
        "class Pipeline:\n"
        "    def __init__(self, *stages: Union[Transformer, TransformerChain]) -> None:\n"
        "        self.stages = stages\n\n"
        "    def run(self, tree):\n"
        "        return [stage.transform(tree) for stage in self.stages]\n\n\n"
        "def run_each(steps: List[Transformer | Interpreter], tree):\n"
        "    for step in steps:\n"
        "        step.transform(tree)\n\n\n"
        "def run_all(steps: Tuple[Transformer, ...], tree):\n"
        "    for step in steps:\n"
        "        step.transform(tree)\n\n\n"
        'def visit(frame: "t.Optional[Frame]"):\n'
        "    return frame.symbols() if frame is not None else []\n"
    ),
}
MODULE = "tf.visitors"


def test_quoted_annotations_variadic_tuples_and_elements_of_a_union_type_the_calls_on_them(tmp_path: Path) -> None:
    callers = [
        f"method:tf:{MODULE}.TransformerChain.transform",
        f"method:tf:{MODULE}.Pipeline.run",
        f"function:tf:{MODULE}.run_each",
        f"function:tf:{MODULE}.run_all",
        f"function:tf:{MODULE}.visit",
    ]
    found = project_edges(tmp_path, "tf", CHAIN, callers, relation_types=["CALLS"])
    chain, pipeline, each, every, visit = (found[c] for c in callers)

    def bound(edges: dict[tuple[str, str], str], cls: str, method: str = "transform") -> bool:
        return edges.get(("CALLS", f"{MODULE}.{cls}.{method}"), "name") not in ("name",)

    # `for t in self.transformers` over `'Tuple[Union[Transformer, TransformerChain], ...]'`: either one
    assert bound(chain, "Transformer") and bound(chain, "TransformerChain") and not bound(chain, "Interpreter")
    # `*stages: Union[...]`, kept in `self.stages`, iterated in a comprehension
    assert bound(pipeline, "Transformer") and bound(pipeline, "TransformerChain")
    assert not bound(pipeline, "Interpreter")
    assert bound(each, "Transformer") and bound(each, "Interpreter") and not bound(each, "TransformerChain")
    assert bound(every, "Transformer") and not bound(every, "Interpreter")  # `Tuple[Transformer, ...]`
    assert bound(visit, "Frame", "symbols")  # `"t.Optional[Frame]"`
