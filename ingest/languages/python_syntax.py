"""Python syntax the binder reads: statements through `if`/`try`/`with`, nodes of a kind outside nested
definitions, `super()`, `@staticmethod`, and the one name a type annotation states."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from trident.ingest.languages import node_text

FUNCTIONS = ("function_definition",)
DEFINITIONS = ("function_definition", "class_definition", "decorated_definition")
OPTIONAL = frozenset({"Optional", "Final", "ClassVar", "Annotated", "Type", "type"})
# Containers whose one type argument is the type of each element a `for` loop takes from them.
CONTAINERS = frozenset(
    {"list", "List", "set", "Set", "frozenset", "FrozenSet", "AbstractSet", "MutableSet", "Sequence", "Collection"}
    | {"MutableSequence", "Iterable", "Iterator", "AsyncIterable", "AsyncIterator", "deque", "Deque"}
)
# Methods of the builtin types: called on a receiver of unknown type, the receiver is most likely one of them.
BUILTIN_METHODS = frozenset(
    name
    for kind in (str, bytes, bytearray, list, dict, set, frozenset, tuple, int, float, complex, object)
    for name in dir(kind)
)


def statements(block: ts.Node) -> Iterator[ts.Node]:
    """The statements of a block, looking through `if`/`try`/`with` at the same level (TYPE_CHECKING imports)."""
    for node in block.named_children:
        if node.type == "decorated_definition":
            definition = node.child_by_field_name("definition")
            if definition is not None:
                yield definition
        elif node.type in ("if_statement", "try_statement", "with_statement", "else_clause", "elif_clause"):
            for child in node.named_children:
                if child.type == "block" or child.type.endswith("_clause"):
                    yield from statements(child)
        elif node.type == "block":
            yield from statements(node)
        else:
            yield node


def descendants(node: ts.Node, kind: str) -> Iterator[ts.Node]:
    """Nodes of one type under `node` (itself included), not inside nested definitions; iterative."""
    pending = [node]
    while pending:
        current = pending.pop()
        if current.type == kind:
            yield current
        if current is not node and current.type in ("class_definition", *FUNCTIONS):
            continue
        pending.extend(reversed(current.named_children))


def is_super(call: ts.Node) -> bool:
    function = call.child_by_field_name("function")
    return function is not None and function.type == "identifier" and node_text(function) == "super"


def is_static(function: ts.Node) -> bool:
    parent = function.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    return any(node_text(d).strip() == "@staticmethod" for d in parent.named_children if d.type == "decorator")


def _declared(node: ts.Node | None) -> ts.Node | None:
    """The one type an annotation declares, past `X | None`, `Optional[X]`, `Final[X]` and the like; None when it
    declares a union of several types."""
    while node is not None:
        if node.type == "type":
            node = node.named_children[0] if node.named_child_count else None
        elif node.type == "binary_operator":
            sides = [node.child_by_field_name("left"), node.child_by_field_name("right")]
            real = [s for s in sides if s is not None and s.type != "none"]
            node = real[0] if len(real) == 1 else None
        elif (
            node.type == "generic_type"
            and node.named_child_count == 2
            and node_text(node.named_children[0]) in OPTIONAL
        ):
            args = node.named_children[1]
            node = args.named_children[0] if args.named_child_count == 1 else None
        else:
            return node
    return None


def annotated_name(node: ts.Node | None) -> str:
    """`Foo`, `mod.Foo`, `"Foo"`, `Foo | None`, `Optional[Foo]` -> the name as written; "" otherwise."""
    node = _declared(node)
    if node is not None and node.type == "string":
        return "".join(node_text(c) for c in node.named_children if c.type == "string_content").strip()
    return node_text(node) if node is not None and node.type in ("identifier", "attribute") else ""


def element_name(node: ts.Node | None) -> str:
    """`list[Foo]`, `Sequence["Foo"]`, `list[Foo] | None` -> the element type as written; "" otherwise."""
    node = _declared(node)
    if node is None or node.type != "generic_type" or node.named_child_count != 2:
        return ""
    head, args = node.named_children
    if node_text(head) not in CONTAINERS or args.named_child_count != 1:
        return ""
    return annotated_name(args.named_children[0])


def is_optional(node: ts.Node | None) -> bool:
    """`Foo | None` or `Optional[Foo]`: a declared slot that may be empty."""
    while node is not None and node.type == "type" and node.named_child_count:
        node = node.named_children[0]
    if node is None:
        return False
    if node.type == "binary_operator":
        return any(
            side is not None and side.type == "none"
            for side in (node.child_by_field_name("left"), node.child_by_field_name("right"))
        )
    head = node.named_children[0] if node.type == "generic_type" and node.named_child_count else None
    return head is not None and node_text(head) in ("Optional", "typing.Optional")
