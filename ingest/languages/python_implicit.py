"""The methods Python runs without a call naming them: `next(x)` runs `x.__next__`, `x[k]` runs `x.__getitem__`,
`a == b` runs `a.__eq__`, `k in x` runs `x.__contains__`, `if x:` runs `x.__bool__`, `with x:` runs `x.__enter__` and
`x.__exit__`, `for _ in x:` runs `x.__iter__` (and `__next__` on what that gives: the value itself, for an iterator),
as do a comprehension's `for`, `yield from x`, unpacking (`a, b = x`, `f(*x)`, `[*x]`) and the builtins that consume
an iterable (`list(x)`, `sorted(x)`, `sum(x)`, `zip(x, y)`, `map(f, x)`, ...; `list`, `tuple` and `sorted` ask its
`__len__` first); `async for` and `async with` run their `__aiter__`/`__anext__` and `__aenter__`/`__aexit__`;
`int(x)`, `float(x)`, `round(x)` run `__int__`, `__float__`, `__round__`, `x.a = v` and `del x.a` run `__setattr__` and
`__delattr__`, formatting runs what each conversion of
its format asks (`"%r" % x`, `"{}".format(x)`: `python_formatting`), and a unittest assertion the operator it applies
(`self.assertEqual(a, b)`: `a == b`).

This module only reads the syntax: each run is the value it runs on and the method's name. The binder types the
value; only a value whose class the code states gets an edge, and only to a method that class or a base defines
(the indexer looks it up)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.python_formatting import format_runs, percent_runs
from trident.ingest.languages.python_parameters import standard

# A builtin called on one value -> the method it runs on that value.
BUILTIN_RUNS = {
    "next": "__next__",
    "iter": "__iter__",
    "len": "__len__",
    "str": "__str__",
    "repr": "__repr__",
    "bool": "__bool__",
    "hash": "__hash__",
    "reversed": "__reversed__",
    "abs": "__abs__",
    "bytes": "__bytes__",
    "int": "__int__",
    "float": "__float__",
    "complex": "__complex__",
    "round": "__round__",
    "anext": "__anext__",
    "aiter": "__aiter__",
}
# ... which also take a second argument: a default (`next(it, None)`), the digits to round to (`round(x, 2)`)
WITH_DEFAULT = frozenset({"next", "anext", "round"})
# Builtins that iterate their first argument; `min` and `max` only when given one; the others every positional
# argument from the place given (`zip(a, b)`, `map(f, xs, ys)`).
ITERATING_FIRST = frozenset({"list", "tuple", "sorted", "set", "frozenset", "sum", "any", "all", "enumerate"})
ONE_ARGUMENT = frozenset({"min", "max"})
ITERATING_FROM = {"zip": 0, "map": 1, "filter": 1}
HASHING_BUILTINS = frozenset({"set", "frozenset"})  # builtins that hash each element of what they are given
MEASURED = frozenset({"list", "tuple", "sorted"})  # builtins that ask an iterable's length first (a length hint)
# Methods of a mapping or set that look their first argument up by its hash.
KEYED_METHODS = frozenset({"get", "pop", "setdefault", "add", "discard", "remove"})
ITERATION = ("__iter__", "__next__")  # an iterator's `__iter__` gives itself (a class defining no `__next__`: none)
ASYNC_ITERATION = ("__aiter__", "__anext__")
# A comparison -> the method it runs on its left operand (`in` and `not in`: on the right one).
COMPARISON_RUNS = {"==": "__eq__", "!=": "__ne__", "<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__"}
# ... and on its right operand where the left one declines (`object.__eq__` does for any other object)
REFLECTED_RUNS = {"==": "__eq__", "!=": "__ne__"}
CONTAINMENT = frozenset({"in", "not in"})
# A binary operator -> the method it runs on its left operand.
BINARY_RUNS = {
    "+": "__add__",
    "-": "__sub__",
    "*": "__mul__",
    "@": "__matmul__",
    "/": "__truediv__",
    "//": "__floordiv__",
    "%": "__mod__",
    "**": "__pow__",
    "<<": "__lshift__",
    ">>": "__rshift__",
    "&": "__and__",
    "|": "__or__",
    "^": "__xor__",
}
# A unary operator -> the method it runs on its operand.
UNARY_RUNS = {"-": "__neg__", "+": "__pos__", "~": "__invert__"}
TRUTH = "__bool__"
ATTRIBUTE_HOOKS = frozenset({"__setattr__", "__delattr__"})  # what setting or deleting an attribute runs
# The methods the standard library's container bases give a class deriving from them, each by the class's own method
# it runs (`collections.abc.MutableMapping.update` sets each item with `self[key] = value`): a call of one on the class
# runs the class's own, where it defines that and not the method itself. By the base's last name; the generic names
# (`Mapping`, `Sequence`) only from the standard library's modules. (`UserDict`'s `in` asks its `data`, no method.)
_MAPPING = {"get": "__getitem__", "__contains__": "__getitem__", "setdefault": "__getitem__"}
_MUTABLE_MAPPING = {**_MAPPING, "update": "__setitem__", "pop": "__delitem__", "popitem": "__delitem__"}
_SEQUENCE = {"__contains__": "__getitem__", "__iter__": "__getitem__", "index": "__getitem__", "count": "__getitem__"}
# `a | b`, `a & b`, `a - b`, `a ^ b` on a `collections.abc.Set` make a new set of the class (`_from_iterable`)
_SET = {"__or__": "__init__", "__and__": "__init__", "__sub__": "__init__", "__xor__": "__init__"}
LIBRARY_MIXINS = {
    "Mapping": _MAPPING,
    "MutableMapping": _MUTABLE_MAPPING,
    "UserDict": {
        **{m: runs for m, runs in _MUTABLE_MAPPING.items() if m != "__contains__"},
        "__getitem__": "__missing__",
    },
    "Sequence": _SEQUENCE,
    "MutableSequence": {**_SEQUENCE, "append": "insert", "extend": "insert", "remove": "__delitem__"},
    "MutableSet": {
        **_SET,
        "remove": "discard",
        "pop": "discard",
        "clear": "discard",
        "__ior__": "add",
        "__iand__": "discard",
        "__isub__": "discard",
    },
    "Set": _SET,
    "dict": {"__getitem__": "__missing__"},  # a key it lacks: `__missing__` answers (`UserDict`'s asks it too)
}
DISTINCT_MIXINS = frozenset({"MutableMapping", "UserDict", "MutableSequence", "MutableSet"})
BUILTIN_BASES = frozenset({"dict"})  # builtin classes a class derives from by their bare name
# What iterating, entering or indexing a value runs: on a call's result, the methods worth looking up.
CONTAINER_RUNS = frozenset(
    {"__iter__", "__aiter__", "__next__", "__anext__", "__enter__", "__exit__", "__aenter__", "__aexit__"}
    | {"__len__", "__contains__"}
    | {"__getitem__", "__setitem__", "__delitem__"}
)
# what holds several targets of one assignment or `del` (`a, x[k] = pair`, `del a[i], x[k]`)
TARGET_LISTS = frozenset(
    {"pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list", "parenthesized_expression"}
)
CONDITIONED = frozenset({"if_statement", "while_statement", "elif_clause"})
# unittest's assertions on `self` -> the operator each applies to its arguments (`self.assertEqual(a, b)` runs
# `a == b`, `self.assertIn(k, m)` runs `k in m`, `self.assertTrue(x)` tests x for truth)
_EQUAL = ("assertEqual", "assertEquals", "assertListEqual", "assertTupleEqual", "assertSequenceEqual")
ASSERTED = {
    **dict.fromkeys((*_EQUAL, "assertDictEqual", "assertSetEqual"), "=="),
    **dict.fromkeys(("assertNotEqual", "assertNotEquals"), "!="),
    **dict.fromkeys(("assertIn", "assertNotIn"), "in"),
    **dict.fromkeys(("assertTrue", "assertFalse", "assert_"), "bool"),
    **{"assertLess": "<", "assertLessEqual": "<=", "assertGreater": ">", "assertGreaterEqual": ">="},
}


class Run(NamedTuple):
    """A method run on `value` without being named; `builtin` is the builtin call that runs it ("" for syntax),
    which runs it only while the file does not bind that name to something else."""

    value: ts.Node
    method: str
    builtin: str = ""
    # the left operand of a comparison whose right operand this runs on (`a == b` runs b's `__eq__` where a's class
    # declines, as a builtin value and a plain object do a value of another class): run only where a's is not known
    reflecting: ts.Node | None = None


def library_mixins(base: str) -> Mapping[str, str]:
    """The methods a standard-library container base (`collections.abc.MutableMapping`, `typing.Mapping`,
    `collections.UserDict`) gives a class, each by the class's method it runs; {} for any other base."""
    name = base.rpartition(".")[2]
    if name not in LIBRARY_MIXINS or not (standard(base) or name in DISTINCT_MIXINS or base in BUILTIN_BASES):
        return {}
    return LIBRARY_MIXINS[name]


def statement_runs(node: ts.Node) -> Iterator[Run]:
    """What a compound statement itself runs: `with` items enter and exit, a `for` iterates, a condition is
    tested for truth."""
    if node.type == "with_statement":
        entered = ("__aenter__", "__aexit__") if _is_async(node) else ("__enter__", "__exit__")
        for item in _under(node, "with_item"):
            value = item.named_children[0] if item.named_child_count else None
            if value is not None and value.type == "as_pattern" and value.named_child_count:
                value = value.named_children[0]
            if value is not None:
                yield from (Run(value, method) for method in entered)
    elif node.type == "for_statement" and (right := node.child_by_field_name("right")) is not None:
        yield from _iterated(right, node)
    elif node.type in CONDITIONED and (condition := node.child_by_field_name("condition")) is not None:
        yield from _truth(condition)
    elif node.type == "assert_statement" and node.named_child_count:
        yield from _truth(node.named_children[0])


def expression_runs(nodes: Iterable[ts.Node]) -> Iterator[Run]:
    """What the operators and builtin calls among an expression's nodes (`python_syntax.expression_nodes`) run."""
    for node in nodes:
        yield from _runs(node)


def _runs(node: ts.Node) -> Iterator[Run]:
    if node.type == "call":
        yield from _builtin_runs(node)
        yield from _consumed(node)
        yield from _asserted(node)
        yield from (Run(value, method) for value, method in format_runs(node))
    elif node.type == "for_in_clause" and (right := node.child_by_field_name("right")) is not None:
        yield from _iterated(right, node)
    elif node.type == "yield" and _is_delegating(node) and node.named_child_count:
        yield from _iterated(node.named_children[0], node)
    elif node.type == "list_splat" and node.named_child_count:  # `f(*xs)`, `[*xs]`
        yield Run(node.named_children[0], "__iter__")
    elif node.type == "assignment" and (left := node.child_by_field_name("left")) is not None:
        right = node.child_by_field_name("right")
        if left.type in ("pattern_list", "tuple_pattern", "list_pattern") and right is not None:
            yield Run(right, "__iter__")  # `a, b = pair`
    elif node.type == "subscript" and (value := node.child_by_field_name("value")) is not None:
        yield from (Run(value, method) for method in _subscript_methods(node))
    elif node.type == "attribute" and (value := node.child_by_field_name("object")) is not None:
        yield from (Run(value, method) for method in _attribute_methods(node))
    elif node.type == "comparison_operator":
        yield from _compared(node)
    elif node.type == "binary_operator":
        left, operator = node.child_by_field_name("left"), node.child_by_field_name("operator")
        method = BINARY_RUNS.get(node_text(operator)) if operator is not None else None
        if left is not None and method:
            yield Run(left, method)
        if left is not None and method == "__mod__" and (right := node.child_by_field_name("right")) is not None:
            yield from (Run(value, runs) for value, runs in percent_runs(left, right))  # `"%s" % x`
    elif node.type == "unary_operator" and (argument := node.child_by_field_name("argument")) is not None:
        operator = node.child_by_field_name("operator")
        if operator is not None and (method := UNARY_RUNS.get(node_text(operator))):
            yield Run(argument, method)
    elif node.type == "augmented_assignment" and (left := node.child_by_field_name("left")) is not None:
        operator = node.child_by_field_name("operator")
        method = BINARY_RUNS.get(node_text(operator).removesuffix("=")) if operator is not None else None
        if method:  # `s |= more` runs `__ior__`, or where the class has none, `__or__` (the indexer falls back)
            yield Run(left, f"__i{method[2:]}")
    elif node.type == "not_operator" and (argument := node.child_by_field_name("argument")) is not None:
        yield from _truth(argument)
    elif node.type == "boolean_operator" and (left := node.child_by_field_name("left")) is not None:
        yield from _truth(left)  # `a or b` tests a; b is tested only where the whole is
    elif node.type == "conditional_expression" and node.named_child_count == 3:
        yield from _truth(node.named_children[1])
    elif node.type == "if_clause" and node.named_child_count:  # `[g for g in groups if g]`
        yield from _truth(node.named_children[0])
    elif node.type == "interpolation" and (expression := node.child_by_field_name("expression")) is not None:
        conversion = node.child_by_field_name("type_conversion")
        yield Run(expression, "__repr__" if conversion is not None and node_text(conversion) == "!r" else "__str__")


def keyed_containers(nodes: Iterable[ts.Node]) -> Iterator[ts.Node]:
    """The containers an expression's nodes look a key up in: `m[k]` (read, set or deleted), `k in m`, and
    `m.get(k)`, `m.pop(k)`, `m.setdefault(k, v)`, `s.add(k)`, `s.discard(k)`, `s.remove(k)`."""
    for node in nodes:
        if node.type == "subscript" and (value := node.child_by_field_name("value")) is not None:
            yield value
        elif node.type == "comparison_operator":
            operands, operators = node.named_children, node.children_by_field_name("operators")
            for i, operator in enumerate(operators[: len(operands) - 1]):
                if " ".join(node_text(operator).split()) in CONTAINMENT:
                    yield operands[i + 1]
        elif node.type == "call" and (function := node.child_by_field_name("function")) is not None:
            method = function.child_by_field_name("attribute") if function.type == "attribute" else None
            owner = function.child_by_field_name("object") if method is not None else None
            if owner is not None and node_text(method) in KEYED_METHODS:
                yield owner


def _builtin_runs(call: ts.Node) -> Iterator[Run]:
    """`next(x)`, `len(x)`, `str(x)`: the method the builtin runs on its one argument (`next(x, default)` too)."""
    function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    name = node_text(function) if function is not None and function.type == "identifier" else ""
    given = arguments.named_child_count if arguments is not None else 0
    if name in BUILTIN_RUNS and arguments is not None and (given == 1 or (given == 2 and name in WITH_DEFAULT)):
        value = arguments.named_children[0]
        if value.type not in ("keyword_argument", "list_splat", "dictionary_splat"):
            yield Run(value, BUILTIN_RUNS[name], name)


def _asserted(call: ts.Node) -> Iterator[Run]:
    """`self.assertEqual(a, b)`, `self.assertIn(k, m)`, `self.assertTrue(x)`: the operator a unittest assertion
    applies to its arguments runs what it would written out (`a == b`, `k in m`, `if x:`)."""
    function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    owner = function.child_by_field_name("object") if function is not None and function.type == "attribute" else None
    if owner is None or function is None or node_text(owner) != "self" or arguments is None:
        return
    operator = ASSERTED.get(node_text(function.child_by_field_name("attribute")))
    given = [a for a in arguments.named_children if a.type not in ("keyword_argument", "comment")]
    if operator is None or any(a.type in ("list_splat", "dictionary_splat") for a in given):
        return
    if operator == "bool" and given:
        yield from _truth(given[0])
    elif operator in CONTAINMENT and len(given) >= 2:
        yield Run(given[1], "__contains__")
    elif operator in COMPARISON_RUNS and len(given) >= 2:
        yield Run(given[0], COMPARISON_RUNS[operator])
        if operator in REFLECTED_RUNS:
            yield Run(given[1], REFLECTED_RUNS[operator], reflecting=given[0])


def _consumed(call: ts.Node) -> Iterator[Run]:
    """`list(x)`, `sorted(x, key=k)`, `zip(a, b)`, `map(f, xs)`, `max(xs)`: the iteration a builtin runs on the
    arguments it consumes (and the length `list`, `tuple` and `sorted` ask first); `", ".join(x)` on a string
    written out iterates x too."""
    function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    name = node_text(function) if function is not None and function.type == "identifier" else ""
    if arguments is None or arguments.type != "argument_list":
        return
    positional = [a for a in arguments.named_children if a.type not in ("keyword_argument", "comment")]
    if any(a.type in ("list_splat", "dictionary_splat") for a in positional):
        return
    if function is not None and _joins_text(function) and len(positional) == 1:
        yield from (Run(positional[0], method) for method in ITERATION)
        return
    if name in ITERATING_FIRST or (name in ONE_ARGUMENT and len(positional) == 1):
        consumed = positional[:1]
    else:
        consumed = positional[ITERATING_FROM[name] :] if name in ITERATING_FROM else []
    for value in consumed:
        if name in MEASURED:
            yield Run(value, "__len__", name)
        yield from (Run(value, method, name) for method in ITERATION)


def _joins_text(function: ts.Node) -> bool:
    """Whether a call's function is `.join` of a string literal (`"".join`, `", ".join`): str's, whatever the file."""
    owner = function.child_by_field_name("object") if function.type == "attribute" else None
    method = function.child_by_field_name("attribute") if owner is not None else None
    return owner is not None and owner.type in ("string", "concatenated_string") and node_text(method) == "join"


def _iterated(value: ts.Node, loop: ts.Node) -> Iterator[Run]:
    """What a `for` (a statement or a comprehension's clause) or `yield from` runs on the value it iterates."""
    yield from (Run(value, method) for method in (ASYNC_ITERATION if _is_async(loop) else ITERATION))


def _is_async(node: ts.Node) -> bool:
    return any(child.type == "async" for child in node.children)


def _is_delegating(node: ts.Node) -> bool:
    return any(child.type == "from" for child in node.children)


def _subscript_methods(node: ts.Node) -> tuple[str, ...]:
    """What a subscript runs on its value: `x[k]` reads (`__getitem__`), `x[k] = v` and `a, x[k] = pair` write
    (`__setitem__`), `x[k] += 1` reads then writes, `del x[k]` and `del a[i], x[k]` delete (`__delitem__`)."""
    inner, holder = node, node.parent
    while holder is not None and holder.type in TARGET_LISTS:
        inner, holder = holder, holder.parent
    if holder is not None and holder.type == "delete_statement":
        return ("__delitem__",)
    if holder is not None and holder.type == "assignment" and holder.child_by_field_name("left") == inner:
        return ("__setitem__",)
    if holder is not None and holder.type == "augmented_assignment" and holder.child_by_field_name("left") == inner:
        return ("__getitem__", "__setitem__")
    return ("__getitem__",)


def _attribute_methods(node: ts.Node) -> tuple[str, ...]:
    """What naming an attribute as a target runs on its object: `x.a = v`, `a, x.b = pair` and `x.a += 1` set it
    (`__setattr__`), `del x.a` deletes it (`__delattr__`); a read runs neither."""
    inner, holder = node, node.parent
    while holder is not None and holder.type in TARGET_LISTS:
        inner, holder = holder, holder.parent
    if holder is not None and holder.type == "delete_statement":
        return ("__delattr__",)
    if holder is not None and holder.type in ("assignment", "augmented_assignment"):
        return ("__setattr__",) if holder.child_by_field_name("left") == inner else ()
    return ()


def _compared(node: ts.Node) -> Iterator[Run]:
    """`a == b < c`: each operator runs its method on the operand before it (`in`: on the one after)."""
    operands = node.named_children
    operators = node.children_by_field_name("operators")
    for i, operator in enumerate(operators[: len(operands) - 1]):
        written = " ".join(node_text(operator).split())
        if written in CONTAINMENT:
            yield Run(operands[i + 1], "__contains__")
        elif written in COMPARISON_RUNS:
            yield Run(operands[i], COMPARISON_RUNS[written])
            if written in REFLECTED_RUNS:
                yield Run(operands[i + 1], REFLECTED_RUNS[written], reflecting=operands[i])


def _truth(node: ts.Node) -> Iterator[Run]:
    """A variable or attribute tested for truth runs `__bool__` (a call's result is most often a bool already); an
    operator's result is tested by its own runs."""
    if node.type in ("identifier", "attribute"):
        yield Run(node, TRUTH)
    elif node.type == "parenthesized_expression" and node.named_child_count == 1:
        yield from _truth(node.named_children[0])
    elif node.type == "boolean_operator" and (right := node.child_by_field_name("right")) is not None:
        yield from _truth(right)  # `if a and b:` tests b too (a is tested by the operator)


def _under(node: ts.Node, kind: str) -> Iterator[ts.Node]:
    pending = list(reversed(node.named_children))
    while pending:
        current = pending.pop()
        if current.type == kind:
            yield current
        elif current.type != "block":
            pending.extend(reversed(current.named_children))
