"""Python syntax the binder reads: statements through `if`/`try`/`with`, nodes of a kind outside nested
definitions, `super()`, `@staticmethod`, and the one name a type annotation states."""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from functools import lru_cache

import tree_sitter as ts

from trident.ingest.languages import node_text, parser_for
from trident.ingest.languages.python import relative_package

FUNCTIONS = ("function_definition",)
DEFINITIONS = ("function_definition", "class_definition", "decorated_definition")
OPTIONAL = frozenset({"Optional", "Final", "ClassVar", "Annotated", "Type", "type"})
HELD_CLASS = frozenset({"type", "Type", "typing.Type", "t.Type"})  # `type[Foo]`: the class itself
MIN_PREFIX = 3  # `visit_`, `do_`, `on_`: shorter starts name too much
CASTS = frozenset({"cast", "typing.cast", "t.cast"})  # `cast(T, value)` is `value` at run time
# A mapping's (or list's) methods that give one of its values: `self._short_opt.get(opt)`, `self._stack.pop()`
MAPPING_LOOKUPS = frozenset({"get", "pop", "setdefault"})
# Builtins whose result holds the elements of their argument: `for x in reversed(self.items)`
SAME_ELEMENTS = frozenset({"reversed", "sorted", "list", "tuple", "iter", "set", "frozenset"})
SAME_ELEMENTS_MADE = frozenset({"collections.deque"})  # standard classes made of their argument's elements
UNWRAPPING = frozenset({"__func__", "__wrapped__"})  # attributes holding the function a wrapper runs
# decorators whose result runs the function as written when called (a class body's name for it holds it so)
RUN_AS_WRITTEN = frozenset({"staticmethod", "classmethod", "wraps", "functools.wraps"})
LEAVING = frozenset({"raise_statement", "return_statement", "continue_statement", "break_statement"})  # a block
TYPE_VARS = frozenset({"TypeVar", "typing.TypeVar", "t.TypeVar", "typing_extensions.TypeVar"})
# Containers whose one type argument is the type of each element a `for` loop takes from them.
CONTAINERS = frozenset(
    {"list", "List", "set", "Set", "frozenset", "FrozenSet", "AbstractSet", "MutableSet", "Sequence", "Collection"}
    | {"MutableSequence", "Iterable", "Iterator", "AsyncIterable", "AsyncIterator", "deque", "Deque"}
)
# A value of these has no method any project defines: in a union beside one class, the union is that class.
SCALARS = frozenset({"str", "bytes", "int", "float", "bool", "complex", "None"})
GENERATORS = frozenset({"Generator", "AsyncGenerator"})  # the first of their arguments is what they yield
# Generic types of one argument that hold no elements of it: any other class of one argument a `for` loop takes
# elements from is a container of them (markdown's `util.Registry[BlockProcessor]`, a `Generic[_T]` with `__iter__`)
NO_ELEMENTS = frozenset(
    {"Optional", "Union", "Type", "type", "ClassVar", "Final", "Annotated", "Literal", "Callable", "Awaitable"}
    | {"Coroutine", "Future", "Task", "ContextManager", "AsyncContextManager", "AbstractContextManager", "Pattern"}
    | {"Match", "IO", "TypeGuard", "TypeIs", "Required", "NotRequired", "ReadOnly", "ContextVar", "Unpack", "Ref"}
    | {"ReferenceType", "WeakMethod", "Queue", "SimpleQueue", "LifoQueue", "PriorityQueue", "PathLike"}
)
# Mappings: their second type argument is what a subscript of them gives (`self._long_opt[opt]`).
MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping", "defaultdict", "DefaultDict", "OrderedDict"})
TUPLES = frozenset({"tuple", "Tuple"})  # their elements are stated where every one is of one type (`tuple[Foo, ...]`)
HASHED = frozenset({"set", "Set", "frozenset", "FrozenSet", "AbstractSet", "MutableSet"})  # members found by hash
SEQUENCES = frozenset({"list", "List", "Sequence", "MutableSequence", "deque", "Deque"})  # `xs[0]`: an element
# Methods of the builtin types: called on a receiver of unknown type, the receiver is most likely one of them.
BUILTIN_METHODS = frozenset(
    name
    for kind in (str, bytes, bytearray, list, dict, set, frozenset, tuple, int, float, complex, object)
    for name in dir(kind)
)

_WORD = re.compile(r"(?<![\w.])[^\W\d]\w*")  # a name as written, not an attribute (`x.name`)


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


def expression_nodes(node: ts.Node) -> list[ts.Node]:
    """Every node under `node` (itself included), in source order, not inside nested definitions: one walk for all
    the binder looks for in an expression."""
    found: list[ts.Node] = []
    pending = [node]
    while pending:
        current = pending.pop()
        found.append(current)
        if current is not node and current.type in ("class_definition", *FUNCTIONS):
            continue
        pending.extend(reversed(current.named_children))
    return found


def returned_values(function: ts.Node) -> tuple[list[ts.Node], list[ts.Node]]:
    """The values a function's `return` statements and its `yield`s give (not those of nested definitions)."""
    body = function.child_by_field_name("body")
    nodes = expression_nodes(body) if body is not None else []
    returned = [n.named_children[0] for n in nodes if n.type == "return_statement" and n.named_child_count]
    yielded = [n.named_children[0] for n in nodes if n.type == "yield" and n.named_child_count]
    return returned, yielded


def built_prefix(node: ts.Node) -> str:
    """The constant start of a name built at run time: `f"visit_{kind}"`, `"do_" + name`, `"on_%s" % name`,
    `"_process_{}".format(kind)` -> `visit_`, `do_`, `on_`, `_process_`; "" when it has none a method name could
    start with (a few letters at least)."""
    if node.type == "binary_operator" and node.child_by_field_name("operator") is not None:
        operator = node_text(node.child_by_field_name("operator"))
        left = node.child_by_field_name("left")
        if operator == "+" and left is not None and left.type == "string":
            return _name_start("".join(node_text(c) for c in left.named_children if c.type == "string_content"))
        if operator == "%" and left is not None and left.type == "string":
            text = "".join(node_text(c) for c in left.named_children if c.type == "string_content")
            return _name_start(text.split("%", 1)[0]) if "%" in text else ""
        return ""
    if node.type == "call" and (formatted := _formatted_text(node)) is not None:
        return _name_start(formatted.split("{", 1)[0]) if "{" in formatted else ""
    if node.type != "string" or not node_text(node).lower().startswith(("f'", 'f"')):
        return ""
    parts = [c for c in node.named_children if c.type in ("string_content", "interpolation")]
    if len(parts) < 2 or parts[0].type != "string_content" or parts[1].type != "interpolation":
        return ""
    return _name_start(node_text(parts[0]))


def _formatted_text(call: ts.Node) -> str | None:
    """The text of a plain string `.format(...)` is called on (`'_process_{cls}'.format(cls=kind)`); None for any
    other call."""
    function = call.child_by_field_name("function")
    if function is None or function.type != "attribute":
        return None
    owner = function.child_by_field_name("object")
    if owner is None or owner.type != "string" or node_text(function.child_by_field_name("attribute")) != "format":
        return None
    if node_text(owner).lower().startswith(("f", "b")):
        return None
    return "".join(node_text(c) for c in owner.named_children if c.type == "string_content")


def _name_start(text: str) -> str:
    return text if len(text) >= MIN_PREFIX and text.replace("_", "a").isidentifier() else ""


def unwrapped(node: ts.Node) -> ts.Node:
    """An expression without the parentheses around it (`(a if c else b)`)."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def either_side(node: ts.Node) -> list[ts.Node]:
    """The values `a or b` and `a if c else b` may be: a and b."""
    if node.type == "conditional_expression":
        return [node.named_children[0], node.named_children[-1]] if node.named_child_count == 3 else []
    sides = (node.child_by_field_name("left"), node.child_by_field_name("right"))
    return [side for side in sides if side is not None]


def call_arguments(call: ts.Node) -> list[ts.Node]:
    """A call's arguments as written, in order (comments left out); [] for anything that is no call."""
    arguments = call.child_by_field_name("arguments") if call.type == "call" else None
    return written(arguments) if arguments is not None else []


def written(node: ts.Node) -> list[ts.Node]:
    """A node's named children, the comments between them left out (the items of a list, the pairs of a dict)."""
    return [c for c in node.named_children if c.type != "comment"]


# `itertools` functions that wrap one iterable lazily -> its place: consuming what they give consumes it
ITERTOOLS_WRAPPING = {
    "islice": 0,
    "takewhile": 1,
    "dropwhile": 1,
    "filterfalse": 1,
    "compress": 0,
    "starmap": 1,
    "accumulate": 0,
    "pairwise": 0,
    "batched": 0,
    "cycle": 0,
    "groupby": 0,
}


def iterated(call: ts.Node, bound: Callable[[str], str], through_iter: bool = True) -> ts.Node | None:
    """What a call's iterator draws on as it is consumed: x of `iter(x)` with the builtin `iter` (not where `bound`
    says the file rebinds the name; not unless `through_iter`), whose iterator a generator is itself, or the iterable
    an `itertools` function wraps lazily (`islice(x, n)`, `itertools.takewhile(p, x)`); None for any other call."""
    function, given = call.child_by_field_name("function"), call_arguments(call)
    written = node_text(function) if function is not None and function.type in ("identifier", "attribute") else ""
    if written == "iter" and not bound("iter"):
        place = 0 if len(given) == 1 and through_iter else None
    else:
        module, _, name = written.rpartition(".")
        module, name = (bound(module) or module, name) if module else bound(written).rpartition(".")[::2]
        place = ITERTOOLS_WRAPPING.get(name) if module == "itertools" else None
    if place is None or place >= len(given) or given[place].type in ("keyword_argument", "list_splat"):
        return None
    return given[place]


def class_asked(node: ts.Node) -> ts.Node | None:
    """The value whose class `type(x)` or `x.__class__` asks for (x); None for anything else."""
    if node.type == "call" and node_text(node.child_by_field_name("function")) == "type":
        given = call_arguments(node)
        return given[0] if len(given) == 1 and given[0].type != "keyword_argument" else None
    if node.type == "attribute" and node_text(node.child_by_field_name("attribute")) == "__class__":
        return node.child_by_field_name("object")
    return None


def named_as_class(qualified: str) -> bool:
    """Whether a qualified name's last part is written as Python names classes: CapWords, after any underscores
    (`LRUCache`, `_InstanceOfValidator`)."""
    return qualified.rpartition(".")[2].lstrip("_")[:1].isupper()


def is_index(node: ts.Node) -> bool:
    """Whether an argument is an integer written out (`0`, `-1`): a list's position, not a mapping's key of a name."""
    if node.type == "unary_operator" and node.named_child_count == 1:
        node = node.named_children[0]
    return node.type == "integer"


def is_empty_list(node: ts.Node | None) -> bool:
    """`[]` or `list()`: a list whose elements what is added to it says."""
    return node is not None and node_text(node) in ("[]", "list()")


def is_empty_mapping(node: ts.Node | None) -> bool:
    """`{}`, `dict()`, `OrderedDict()`: a mapping whose items what is stored in it says."""
    return node is not None and node_text(node) in ("{}", "dict()", "OrderedDict()", "collections.OrderedDict()")


def elements_kept(node: ts.Node, bound: Callable[[str], str] = lambda name: "") -> ts.Node:
    """What `list(reversed(children))`, `sorted(xs)`, `tuple(xs)`, `deque([self])` take their elements from
    (`children`, `xs`, `[self]`): the first argument through calls of the builtins that keep their argument's elements
    (not where `bound`, what the file binds a name to, says it rebinds the builtin's) and of the standard containers
    that do; the node itself otherwise."""
    while (function := node.child_by_field_name("function") if node.type == "call" else None) is not None:
        given = call_arguments(node)
        written = node_text(function) if function.type in ("identifier", "attribute") else ""
        head, dot, rest = written.partition(".")
        binding = bound(head) if head.isidentifier() else ""
        keeps = f"{binding}{dot}{rest}" in SAME_ELEMENTS_MADE if binding else written in SAME_ELEMENTS
        if not keeps or not given or given[0].type == "keyword_argument":
            break
        node = given[0]
    return node


def is_super(call: ts.Node) -> bool:
    function = call.child_by_field_name("function")
    return function is not None and function.type == "identifier" and node_text(function) == "super"


def super_named(call: ts.Node) -> str:
    """The class `super(Foo, self)` names as written (`Foo`): the lookup starts after it; "" for `super()` and any
    other call."""
    arguments = call.child_by_field_name("arguments") if is_super(call) else None
    given = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    return node_text(given[0]) if len(given) == 2 and given[0].type in ("identifier", "attribute") else ""


def is_static(function: ts.Node) -> bool:
    return _decorated_with(function, "@staticmethod")


def is_classmethod(function: ts.Node) -> bool:
    return _decorated_with(function, "@classmethod")


def _decorated_with(function: ts.Node, decorator: str) -> bool:
    parent = function.parent
    if parent is None or parent.type != "decorated_definition":
        return False
    return any(node_text(d).strip() == decorator for d in parent.named_children if d.type == "decorator")


def _declared(node: ts.Node | None) -> ts.Node | None:
    """The one type an annotation declares, past `X | None`, `Optional[X]`, `Final[X]` and the like; None when it
    declares a union of several types."""
    while node is not None:
        if node.type == "type":
            node = node.named_children[0] if node.named_child_count else None
        elif node.type == "string" and (parsed := unquoted(node)) is not node:
            node = parsed
        elif node.type in ("binary_operator", "union_type"):
            node = _one_side(node)
        elif (head := _generic_head(node)) is not None and head.rsplit(".", 1)[-1] in OPTIONAL:
            args = _generic_arguments(node)
            node = args[0] if len(args) == 1 else None
        elif head is not None and head.rsplit(".", 1)[-1] == "Union":  # `Union[str, Text]`: a Text
            args = [a for a in _generic_arguments(node) if not _scalar(a)]
            node = args[0] if len(args) == 1 else None
        else:
            return node
    return None


QUOTED_NAME = re.compile(r"[A-Za-z_][\w.]*")  # `'Foo'`, `"mod.Foo"`: a name quoted, read as written


def unquoted(node: ts.Node) -> ts.Node:
    """The annotation a string writes out whole (`'Optional[Foo]'`, `"t.List[Item]"`, `'A | B'`), parsed; the node
    itself for anything else (a quoted name, `'Foo'`, is read as written)."""
    if node.type != "string":
        return node
    text = "".join(node_text(c) for c in node.named_children if c.type == "string_content").strip()
    if not text or QUOTED_NAME.fullmatch(text):
        return node
    return _parsed_annotation(text) or node


@lru_cache(maxsize=4096)
def _parsed_annotation(text: str) -> ts.Node | None:
    """The annotation `text` writes, parsed as one (`_: <text>`); None where it does not parse so."""
    tree = parser_for("python").parse(f"_: {text}\n".encode())
    root = tree.root_node
    statement = root.named_children[0] if root.named_child_count == 1 and not root.has_error else None
    assignment = statement.named_children[0] if statement is not None and statement.named_child_count == 1 else None
    is_annotated = assignment is not None and assignment.type == "assignment"
    return assignment.child_by_field_name("type") if assignment is not None and is_annotated else None


def _one_side(union: ts.Node) -> ts.Node | None:
    """`X | None` -> X; None for a union of two real types."""
    real = [s for s in union.named_children if not _scalar(s)]
    return real[0] if len(real) == 1 else None


def _scalar(node: ts.Node) -> bool:
    """`None`, `str`, `int`, ... (bare, in a `type` node or as a string): a builtin value no project's class is."""
    if node.type == "type" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type == "string":
        return "".join(node_text(c) for c in node.named_children if c.type == "string_content").strip() in SCALARS
    return node.type == "none" or (node.type == "identifier" and node_text(node) in SCALARS)


def _generic_head(node: ts.Node) -> str | None:
    """`Foo[...]` / `mod.Foo[...]` -> "Foo" / "mod.Foo"; None for anything else."""
    if node.type == "generic_type" and node.named_child_count == 2:
        return node_text(node.named_children[0])
    value = node.child_by_field_name("value") if node.type == "subscript" else None
    return node_text(value) if value is not None and value.type in ("identifier", "attribute") else None


# What an annotation may wrap a `Callable[...]` in and still say only that the value is callable
CALLABLE_WRAPPERS = frozenset({"Callable", "Optional", "Union", "str", "bytes", "AnyStr"})


def callable_only(annotation: ts.Node | None, aliases: Collection[str] = ()) -> bool:
    """Whether an annotation says only that a value is callable (`Callable[[str], Pattern]`, `Optional[Callable]`,
    `Union[str, Callable[..., T]]`, and `Optional[F]` where `aliases` holds F, a name the file gives such an
    annotation or a type variable bound by one): it names no class whose methods calling the value runs, so what
    callers pass says what that runs (`PASSES`), as for a parameter with no annotation."""
    if annotation is None or (not aliases and "Callable" not in node_text(annotation)):
        return False
    names = ["Callable" if name in aliases else name for name in _outside_callable(annotation)]
    return "Callable" in names and all(name in CALLABLE_WRAPPERS for name in names)


def name_alone(annotation: ts.Node | None) -> str:
    """The one name an annotation writes, alone or optional (`F`, `Optional[F]`, `F | None`) -> `F`; "" for anything
    else (a generic, a union of several, a container, a dotted name)."""
    written = annotated_name(annotation)
    names = set(_outside_callable(annotation)) - {"Optional"} if annotation is not None else set()
    return written if written.isidentifier() and names == {written} else ""


def _outside_callable(node: ts.Node) -> list[str]:
    """The names an annotation writes, a `Callable[...]` counted as the one name `Callable` (`typing.X`: X)."""
    head = _generic_head(node)
    if head is not None and head.rpartition(".")[2] == "Callable":
        return ["Callable"]
    if node.type in ("identifier", "attribute"):
        return [node_text(node).rpartition(".")[2]]
    return [name for child in node.named_children for name in _outside_callable(child)]


def _generic_arguments(node: ts.Node) -> list[ts.Node]:
    if node.type == "generic_type":
        return list(node.named_children[1].named_children)
    return [c for c in node.named_children[1:]]


def annotated_name(node: ts.Node | None) -> str:
    """`Foo`, `mod.Foo`, `"Foo"`, `Foo | None`, `Optional[Foo]`, `Foo[T]` -> the name as written; "" otherwise."""
    node = _declared(node)
    if node is not None and node.type == "string":
        return "".join(node_text(c) for c in node.named_children if c.type == "string_content").strip()
    if node is not None and (head := _generic_head(node)) is not None:
        return "" if head.rsplit(".", 1)[-1] in CONTAINERS else head  # `Base[T]` is a Base
    return node_text(node) if node is not None and node.type in ("identifier", "attribute") else ""


def union_names(node: ts.Node | None) -> list[str]:
    """`A | B`, `Union[A, "B"]`, `Optional[A | B]`, `A | B | None` -> each class written, as written, in order; []
    for fewer than two, or when a member is no class's name (a container, a `Callable`: the union then says nothing
    of one member). None and builtin scalars are no classes here."""
    found: list[str] = []
    pending = [node] if node is not None else []
    while pending:
        at = unquoted(pending.pop())
        head = _generic_head(at)
        if at.type == "type" and at.named_child_count:
            pending.append(at.named_children[0])
        elif at.type in ("binary_operator", "union_type"):
            pending.extend(reversed(at.named_children))
        elif head is not None and head.rsplit(".", 1)[-1] in ("Union", "Optional"):
            pending.extend(reversed(_generic_arguments(at)))
        elif not _scalar(at):
            name = annotated_name(at)
            if not name:
                return []
            found.append(name)
    unique = list(dict.fromkeys(found))
    return unique if len(unique) > 1 else []


def union_alias(statement: ts.Node) -> tuple[str, str] | None:
    """`TextType = Union[str, "Text"]`, `Node = Leaf | None`, `X: TypeAlias = ...` -> ("TextType", "Text"): a name for
    a union of one class and builtin values, which annotations may write for the class; None otherwise."""
    sides = _union_assigned(statement)
    named = annotated_name(sides[1]) if sides is not None else ""
    return (sides[0], named) if sides is not None and named else None


def union_alias_members(statement: ts.Node) -> tuple[str, list[str]] | None:
    """`Tree: TypeAlias = Union["Element", "Hash", ...]`, `Node = Leaf | Branch` -> ("Tree", ["Element", "Hash",
    ...]): a name for a union of several classes, as written, which annotations write for any of them; None
    otherwise."""
    sides = _union_assigned(statement)
    members = union_names(sides[1]) if sides is not None else []
    return (sides[0], members) if sides is not None and members else None


def callable_alias(statement: ts.Node) -> str:
    """`_HookExec: TypeAlias = Callable[[str, list], object]` -> "_HookExec": a name for an annotation that says only
    that a value is callable (`callable_only`), as a type variable bound so does (`C = TypeVar("C", bound=Callable[...,
    Any])`); "" for any other statement."""
    assignment = statement.named_children[0] if statement.named_child_count == 1 else None
    if assignment is None or assignment.type != "assignment":
        return ""
    left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    if left is None or left.type != "identifier" or right is None:
        return ""
    return node_text(left) if callable_only(right) or callable_only(_type_var_bound(right)) else ""


def callback_protocol(definition: ts.Node) -> str:
    """`class _TPEscape(t.Protocol): def __call__(self, s) -> Markup: ...` -> "_TPEscape": a protocol whose one
    member is `__call__` (a callback protocol) says only that a value is callable, as `Callable[...]` does; "" for
    any other class."""
    bases = definition.child_by_field_name("superclasses")
    body = definition.child_by_field_name("body")
    written = [node_text(b).rpartition(".")[2] for b in bases.named_children] if bases is not None else []
    if definition.type != "class_definition" or body is None or "Protocol" not in written:
        return ""
    members = [
        n.child_by_field_name("definition") or n if n.type == "decorated_definition" else n for n in body.named_children
    ]
    named = [
        node_text(m.child_by_field_name("name"))
        for m in members
        if m.type in ("function_definition", "class_definition")
    ]
    return node_text(definition.child_by_field_name("name")) if named == ["__call__"] else ""


def _type_var_bound(value: ts.Node) -> ts.Node | None:
    """The bound a `TypeVar(...)` call states (`TypeVar("C", bound=Callable[..., Any])`: `Callable[..., Any]`)."""
    arguments = value.child_by_field_name("arguments") if value.type == "call" else None
    if arguments is None or node_text(value.child_by_field_name("function")) not in TYPE_VARS:
        return None
    for argument in arguments.named_children:
        if argument.type == "keyword_argument" and node_text(argument.child_by_field_name("name")) == "bound":
            return argument.child_by_field_name("value")
    return None


def assigned_names(statement: ts.Node) -> list[str]:
    """The names an assignment statement binds (`a = b = 1`, `x, y = pair`, `n += 1`, `T: TypeAlias = int`); [] for
    any other statement."""
    found: list[str] = []
    written = statement.type == "expression_statement" and statement.named_child_count
    node = statement.named_children[0] if written else None
    while node is not None and node.type in ("assignment", "augmented_assignment"):
        left = node.child_by_field_name("left")
        if left is not None:
            names = descendants(left, "identifier")
            found.extend(node_text(n) for n in names if n.parent is None or n.parent.type != "attribute")
        node = node.child_by_field_name("right")
    return found


def _union_assigned(statement: ts.Node) -> tuple[str, ts.Node] | None:
    """(name, value) of a statement giving a name a union (`X = A | B`, `X: TypeAlias = Union[A, B]`); None for any
    other statement."""
    assignment = statement.named_children[0] if statement.named_child_count == 1 else None
    if assignment is None or assignment.type != "assignment":
        return None
    left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    if left is None or left.type != "identifier" or right is None:
        return None
    head = _generic_head(right) if right.type in ("subscript", "generic_type") else None
    union = right.type == "binary_operator" or (head is not None and head.rsplit(".", 1)[-1] in ("Union", "Optional"))
    return (node_text(left), right) if union else None


def type_var_bound(statement: ts.Node) -> tuple[str, str] | None:
    """`T = TypeVar("T", bound=Foo)` (or `bound="Foo"`) -> ("T", "Foo") as written; None for any other statement, and
    for a type variable with no bound (it may be anything)."""
    assignment = statement.named_children[0] if statement.named_child_count == 1 else None
    if assignment is None or assignment.type != "assignment":
        return None
    left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    if left is None or left.type != "identifier" or right is None or right.type != "call":
        return None
    bound = annotated_name(_type_var_bound(right))
    return (node_text(left), bound) if bound else None


def held_class_name(node: ts.Node | None) -> str:
    """`type[Foo]`, `Type["Foo"] | None`, `Optional[type[Foo]]`, `Union[str, Type[Foo]]` (a class, not an instance) ->
    `Foo` as written; "" otherwise."""
    while node is not None:
        if node.type == "type":
            node = node.named_children[0] if node.named_child_count else None
        elif node.type in ("binary_operator", "union_type"):
            node = _one_side(node)
        elif (head := _generic_head(node)) is not None:
            args = _generic_arguments(node)
            if head.rsplit(".", 1)[-1] == "Union":  # `Union[str, Type["Extension"]]`: the one that is no builtin value
                args = [a for a in args if not _scalar(a)]
            if len(args) != 1:
                return ""
            if head in HELD_CLASS:
                return annotated_name(args[0])
            node = args[0] if head.rsplit(".", 1)[-1] in ("Optional", "Union") else None
        else:
            return ""
    return ""


def element_items(node: ts.Node | None) -> list[ts.Node]:
    """`list[tuple[Key | None, Item]]`, `Iterable[Tuple[str, Foo]]` -> the annotation of each item of the tuples it
    holds, in order; [] for anything else."""
    node = _declared(node)
    head = _generic_head(node) if node is not None else None
    last = head.rsplit(".", 1)[-1] if head is not None else ""
    if node is None or last not in CONTAINERS | GENERATORS:
        return []
    args = _generic_arguments(node)
    return tuple_items(args[0]) if len(args) == 1 or (args and last in GENERATORS) else []


def element_name(node: ts.Node | None) -> str:
    """`list[Foo]`, `Sequence["Foo"]`, `list[Foo] | None`, `Iterator[Foo]`, `Generator[Foo, None, None]` -> the
    element type as written; "" otherwise, and for elements that are classes (`held_element_name`)."""
    element = element_annotation(node)
    return annotated_name(element) if element is not None and not held_class_name(element) else ""


def held_element_name(node: ts.Node | None) -> str:
    """`Sequence[type[Foo]]`, `list[Type["Foo"]]` (classes, not instances) -> `Foo` as written; "" otherwise."""
    return held_class_name(element_annotation(node))


def element_annotation(node: ts.Node | None) -> ts.Node | None:
    """The annotation of the elements a container or generator annotation states, as written (`list[Foo]`: `Foo`,
    `list[A | B]`: `A | B`); None."""
    node = _declared(node)
    head = _generic_head(node) if node is not None else None
    last = head.rsplit(".", 1)[-1] if head is not None else ""
    project_generic = last[:1].isupper() and last not in NO_ELEMENTS | MAPPINGS | TUPLES
    if node is None or (last not in CONTAINERS | GENERATORS | TUPLES and not project_generic):
        return None
    args = _generic_arguments(node)
    if last in TUPLES and len(args) == 2 and _unwrapped_type(args[1]).type == "ellipsis":
        return args[0]  # `tuple[Foo, ...]`: a tuple of any length, each a Foo
    return args[0] if len(args) == 1 or (args and last in GENERATORS) else None


def _unwrapped_type(node: ts.Node) -> ts.Node:
    """What a `type` node wraps (`...` in `tuple[Foo, ...]`); the node itself otherwise."""
    return node.named_children[0] if node.type == "type" and node.named_child_count == 1 else node


def tuple_items(node: ts.Node | None) -> list[ts.Node]:
    """`tuple[Foo, list[Bar]]`, `Tuple[Foo, Bar] | None` -> the annotation of each item, in order; [] for anything
    else (a tuple of any length, `tuple[Foo, ...]`, says no item's place)."""
    node = _declared(node)
    head = _generic_head(node) if node is not None else None
    if node is None or head is None or head.rsplit(".", 1)[-1] not in ("tuple", "Tuple"):
        return []
    items = _generic_arguments(node)
    return [] if any(node_text(item) == "..." for item in items) else items


def item_name(node: ts.Node | None) -> str:
    """`dict[str, Foo]`, `Mapping[str, "Foo"] | None`, `list[Foo]` -> the type a subscript of it gives (`Foo`) as
    written; "" otherwise."""
    node = _declared(node)
    head = _generic_head(node) if node is not None else None
    last = head.rsplit(".", 1)[-1] if head is not None else ""
    args = _generic_arguments(node) if node is not None and head is not None else []
    if last in MAPPINGS and len(args) == 2:
        return annotated_name(args[1])
    return annotated_name(args[0]) if last in SEQUENCES and len(args) == 1 else ""


def key_name(node: ts.Node | None) -> str:
    """`dict[Key, int]`, `Mapping["Key", Foo] | None`, `set[Key]` -> the type of its keys (its members) as written;
    "" otherwise."""
    node = _declared(node)
    head = _generic_head(node) if node is not None else None
    last = head.rsplit(".", 1)[-1] if head is not None else ""
    args = _generic_arguments(node) if node is not None and head is not None else []
    if (last in MAPPINGS and len(args) == 2) or (last in HASHED and len(args) == 1):
        return annotated_name(args[0])
    return ""


def is_optional(node: ts.Node | None) -> bool:
    """`Foo | None` or `Optional[Foo]`: a declared slot that may be empty."""
    while node is not None and node.type == "type" and node.named_child_count:
        node = node.named_children[0]
    if node is None:
        return False
    if node.type in ("binary_operator", "union_type"):
        return any(s.type == "none" or (s.type == "type" and node_text(s) == "None") for s in node.named_children)
    head = _generic_head(node)
    return head is not None and head.rsplit(".", 1)[-1] == "Optional"


def isinstance_test(condition: ts.Node | None) -> tuple[ts.Node, ts.Node] | None:
    """`isinstance(x, Foo)` (alone or one side of an `and`) as a branch's condition: (x, Foo); None otherwise."""
    if condition is None:
        return None
    if condition.type == "parenthesized_expression" and condition.named_child_count == 1:
        return isinstance_test(condition.named_children[0])
    if condition.type == "boolean_operator" and node_text(condition.child_by_field_name("operator")) == "and":
        return isinstance_test(condition.child_by_field_name("left")) or isinstance_test(
            condition.child_by_field_name("right")
        )
    function, arguments = condition.child_by_field_name("function"), condition.child_by_field_name("arguments")
    if condition.type != "call" or function is None or node_text(function) != "isinstance" or arguments is None:
        return None
    values = arguments.named_children
    return (values[0], values[1]) if len(values) == 2 and values[0].type == "identifier" else None


def negated_isinstance(condition: ts.Node | None) -> tuple[ts.Node, ts.Node] | None:
    """`not isinstance(x, Foo)` as a branch's condition (nothing else with it): (x, Foo); None otherwise."""
    while condition is not None and condition.type == "parenthesized_expression" and condition.named_child_count == 1:
        condition = condition.named_children[0]
    if condition is None or condition.type != "not_operator":
        return None
    argument = condition.child_by_field_name("argument")
    while argument is not None and argument.type == "parenthesized_expression" and argument.named_child_count == 1:
        argument = argument.named_children[0]
    return isinstance_test(argument) if argument is not None and argument.type == "call" else None


def subclass_test(condition: ts.Node | None) -> tuple[str, ts.Node, bool] | None:
    """`issubclass(x, Base)` (alone or one side of an `and`), or `not issubclass(x, Base)`, as a branch's condition:
    (x, Base, whether negated); None otherwise."""
    if condition is None:
        return None
    if condition.type == "parenthesized_expression" and condition.named_child_count == 1:
        return subclass_test(condition.named_children[0])
    if condition.type == "not_operator":
        found = subclass_test(condition.child_by_field_name("argument"))
        return (found[0], found[1], True) if found is not None and not found[2] else None
    if condition.type == "boolean_operator" and node_text(condition.child_by_field_name("operator")) == "and":
        sides = (subclass_test(condition.child_by_field_name(side)) for side in ("left", "right"))
        return next((found for found in sides if found is not None and not found[2]), None)
    function, arguments = condition.child_by_field_name("function"), condition.child_by_field_name("arguments")
    if condition.type != "call" or function is None or node_text(function) != "issubclass" or arguments is None:
        return None
    values = arguments.named_children
    return (node_text(values[0]), values[1], False) if len(values) == 2 and values[0].type == "identifier" else None


def leaves(block: ts.Node | None) -> bool:
    """Whether a block's last statement leaves it (`raise`, `return`, `continue`, `break`): what follows the
    statement holding it runs only when the block did not."""
    last = block.named_children[-1] if block is not None and block.named_child_count else None
    return last is not None and last.type in LEAVING


def narrowed_to(node: ts.Node, variable: str) -> ts.Node | None:
    """The class `variable` is known to be where `node` runs: tested by an enclosing `if`/`elif`'s
    `isinstance(variable, Foo)`, or asserted by an `assert isinstance(variable, Foo)` before it in its function's
    blocks (Foo's node; None when neither)."""
    child, parent = node, node.parent
    while parent is not None and parent.type not in FUNCTIONS:
        if parent.type in ("if_statement", "elif_clause") and parent.child_by_field_name("consequence") == child:
            test = isinstance_test(parent.child_by_field_name("condition"))
            if test is not None and node_text(test[0]) == variable:
                return test[1]
        if parent.type == "block":
            for statement in parent.named_children:
                if statement.start_byte >= child.start_byte:
                    break
                asserted = statement.named_children[0] if statement.type == "assert_statement" else None
                test = isinstance_test(asserted)
                if test is not None and node_text(test[0]) == variable:
                    return test[1]
        child, parent = parent, parent.parent
    return None


def imported_names(node: ts.Node, path: str) -> dict[str, str]:
    """Local name -> qualified name for each name an import binds (`import a.b` binds `a`)."""
    bound: dict[str, str] = {}
    if node.type == "import_statement":
        for item in node.children_by_field_name("name"):
            if item.type == "aliased_import":
                bound[node_text(item.child_by_field_name("alias"))] = node_text(item.child_by_field_name("name"))
            else:
                dotted = node_text(item)
                bound[dotted.split(".", 1)[0]] = dotted.split(".", 1)[0]
        return bound
    base = imported_from(node, path)
    if base is None:
        return bound
    for item in node.children_by_field_name("name"):
        if item.type == "aliased_import":
            name, alias = node_text(item.child_by_field_name("name")), node_text(item.child_by_field_name("alias"))
        else:
            name = alias = node_text(item)
        if name and alias:
            bound[alias] = f"{base}.{name}" if base else name
    return bound


def star_imported(node: ts.Node, path: str) -> str:
    """The module `from .core import *` imports every public name of (`pkg.core`); "" for any other statement and
    for a standard library module."""
    if node.type != "import_from_statement" or not any(c.type == "wildcard_import" for c in node.named_children):
        return ""
    module = imported_from(node, path) or ""
    return module if module and module.split(".", 1)[0] not in sys.stdlib_module_names else ""


def exported_names(root: ts.Node) -> set[str]:
    """The names a module's top-level `__all__` lists (`__all__ = ["HookCaller", ...]`, `__all__ += [...]`)."""
    found: set[str] = set()
    for node in statements(root):
        assignment = node.named_children[0] if node.type == "expression_statement" and node.named_child_count else None
        if assignment is None or assignment.type not in ("assignment", "augmented_assignment"):
            continue
        left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
        if left is None or node_text(left) != "__all__" or right is None or right.type not in ("list", "tuple"):
            continue
        found.update(node_text(item).strip("\"'") for item in right.named_children if item.type == "string")
    return found


def reexported(root: ts.Node, names: dict[str, str], module: str, path: str) -> list[str]:
    """The names a module's top-level `from ... import` statements bind that nothing else in the file writes: names
    it imports only for others to import from it (`from .filters import FILTERS as DEFAULT_FILTERS  # noqa: F401`).
    A name written anywhere else (code, a string, a comment) is taken as used."""
    imports = [node for node in statements(root) if node.type == "import_from_statement"]
    written = Counter(_WORD.findall(node_text(root)))  # each word of the file once, not a scan per name
    in_imports = Counter(word for node in imports for word in _WORD.findall(node_text(node)))
    found: list[str] = []
    for name in sorted({n for node in imports for n in imported_names(node, path)}):
        qualified = names.get(name, "")
        if not qualified or qualified.startswith(f"{module}.") or qualified.split(".", 1)[0] in sys.stdlib_module_names:
            continue
        if written[name] == in_imports[name]:
            found.append(name)
    return found


def imported_from(node: ts.Node, path: str) -> str | None:
    """The module a `from ... import` statement imports from, qualified (`from .utils import echo` in
    `src/click/core.py` -> `src.click.utils`; `from . import x` -> the package, "" at the root); None for any other
    node and for a relative import climbing past the root."""
    source = node.child_by_field_name("module_name") if node.type == "import_from_statement" else None
    if source is None:
        return None
    if source.type != "relative_import":
        return node_text(source)
    prefix = next((c for c in source.named_children if c.type == "import_prefix"), None)
    rest = next((node_text(c) for c in source.named_children if c.type == "dotted_name"), "")
    package = relative_package(path, len(node_text(prefix).strip()))
    return None if package is None else ".".join([*package, rest] if rest else package)


def table_copied(value: ts.Node) -> str:
    """The module-level name a value copies, as a table: `HANDLERS.copy()`, `dict(HANDLERS)`, `HANDLERS`; ""
    otherwise (the binder checks the name is a table of the module)."""
    if value.type == "call" and (function := value.child_by_field_name("function")) is not None:
        arguments = call_arguments(value)
        if function.type == "attribute" and node_text(function.child_by_field_name("attribute")) == "copy":
            value = function.child_by_field_name("object") or value
        elif node_text(function) == "dict" and len(arguments) == 1:
            value = arguments[0]
    return node_text(value) if value.type == "identifier" else ""


def parameter_nodes(function: ts.Node) -> list[tuple[str, ts.Node | None]]:
    """(name, annotation node or None) of each plain or typed parameter, in order."""
    found: list[tuple[str, ts.Node | None]] = []
    holder = function.child_by_field_name("parameters")
    for p in holder.named_children if holder is not None else []:
        if p.type == "identifier":
            found.append((node_text(p), None))
        elif p.type in ("typed_parameter", "typed_default_parameter", "default_parameter"):
            name_node = p.child_by_field_name("name") or next(
                (c for c in p.named_children if c.type == "identifier"), None
            )
            if name_node is not None and name_node.type == "identifier":
                found.append((node_text(name_node), p.child_by_field_name("type")))
    return found


def star_parameter(function: ts.Node) -> tuple[str, ts.Node | None] | None:
    """The `*args` parameter of a def (`*fns: ParseAction` too): its name and its annotation or None; None where the
    def has none."""
    holder = function.child_by_field_name("parameters")
    for p in holder.named_children if holder is not None else []:
        if name := star_name(p):
            return name, p.child_by_field_name("type") if p.type == "typed_parameter" else None
        if p.type in ("keyword_separator", "dictionary_splat_pattern"):
            return None
    return None


def star_name(parameter: ts.Node) -> str:
    """The name of a `*args` parameter, plain or annotated (`*fns: ParseAction`); "" for any other parameter."""
    star = parameter.named_children[0] if parameter.type == "typed_parameter" and parameter.named_child_count else None
    star = parameter if parameter.type == "list_splat_pattern" else star
    name = star.named_children[0] if star is not None and star.type == "list_splat_pattern" else None
    return node_text(name) if name is not None and name.type == "identifier" else ""


def parameter_defaults(function: ts.Node) -> list[tuple[str, ts.Node]]:
    """(name, default value node) of each parameter given a default (`cache_setitem=Cache.__setitem__`), in order."""
    holder = function.child_by_field_name("parameters")
    found: list[tuple[str, ts.Node]] = []
    for p in holder.named_children if holder is not None else []:
        name, value = p.child_by_field_name("name"), p.child_by_field_name("value")
        if p.type in ("typed_default_parameter", "default_parameter") and name is not None and value is not None:
            found.append((node_text(name), value))
    return found


def varargs_node(function: ts.Node) -> tuple[str, ts.Node] | None:
    """`*columns: Column` -> ("columns", the annotation: the type of each element of the tuple it gathers)."""
    star = star_parameter(function)
    return (star[0], star[1]) if star is not None and star[1] is not None else None


_SEQUENCE_TARGETS = frozenset({"pattern_list", "tuple_pattern", "list_pattern"})
_SEQUENCE_VALUES = frozenset({"expression_list", "tuple", "list"})
_BINDING = _SEQUENCE_TARGETS | {"list_splat_pattern"}  # where a name in an unpacking target is a variable bound


def declared_field(node: ts.Node) -> str:
    """`style: Optional[Style] = None` in a class body: the field it declares ("" for any other statement)."""
    left = node.child_by_field_name("left") if node.type == "assignment" else None
    declared = left is not None and left.type == "identifier" and node.child_by_field_name("type") is not None
    return node_text(left) if declared and left is not None else ""


def unpacked_names(target: ts.Node | None) -> list[str]:
    """`text, style, _` (a loop's or an assignment's target): the names it binds, in order; [] unless every item
    is a plain name."""
    if target is None or target.type not in _SEQUENCE_TARGETS:
        return []
    names = target.named_children
    return [node_text(n) for n in names] if names and all(n.type == "identifier" for n in names) else []


def indexed_names(target: ts.Node | None) -> list[str]:
    """`i, (k, v)` (a loop's target over `enumerate(...)`): the names the element's own tuple binds, in order; []
    unless the target is an index and a tuple of plain names."""
    if target is None or target.type not in _SEQUENCE_TARGETS or target.named_child_count != 2:
        return []
    index, element = target.named_children
    return unpacked_names(element) if index.type == "identifier" else []


def assigned_pairs(assignment: ts.Node) -> tuple[list[tuple[str, ts.Node]], list[str]]:
    """What a chained or unpacking assignment binds: (variable, the value written for it) for `a = b = f` and
    `a, (b, c) = f, (g, h)`, and the variables it binds to values it does not write one by one (`a, b = pair()`,
    `a, *rest = xs`)."""
    targets: list[ts.Node] = []
    node = assignment
    while node.type == "assignment" and node.child_by_field_name("type") is None:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None:
            return [], []
        targets.append(left)
        node = right
    pairs: list[tuple[str, ts.Node]] = []
    unknown: list[str] = []
    for target in targets:
        _pair(target, node, pairs, unknown)
    return pairs, unknown


def _pair(target: ts.Node, value: ts.Node, pairs: list[tuple[str, ts.Node]], unknown: list[str]) -> None:
    if target.type == "identifier":
        pairs.append((node_text(target), value))
        return
    if target.type not in _SEQUENCE_TARGETS:
        return
    names, values = target.named_children, value.named_children if value.type in _SEQUENCE_VALUES else []
    one_by_one = len(names) == len(values) and all(n.type != "list_splat_pattern" for n in names)
    if one_by_one and all(v.type not in ("list_splat", "parenthesized_list_splat") for v in values):
        for name, each in zip(names, values, strict=True):
            _pair(name, each, pairs, unknown)
    else:
        bound = (n for n in descendants(target, "identifier") if n.parent is not None and n.parent.type in _BINDING)
        unknown.extend(node_text(n) for n in bound)


def local_names(function: ts.Node) -> set[str]:
    """Every name a function binds itself, in one walk of its body: its parameters, the variables it assigns, its
    loop, `with`/`except ... as` and `:=` targets, its imports and its nested definitions (a module-level name of the
    same name is not what it refers to there)."""
    return {name for name, _ in parameter_nodes(function)} | body_names(function)


def body_names(function: ts.Node) -> set[str]:
    """The names a function's body binds (`local_names` but the parameters the body leaves as they were given)."""
    names: set[str] = set()
    body = function.child_by_field_name("body")
    for node in expression_nodes(body) if body is not None else []:
        if node.type in ("class_definition", *FUNCTIONS):
            names.add(node_text(node.child_by_field_name("name")))
        elif node.type in _TARGET_FIELDS:
            names.update(_bound_in(node.child_by_field_name(_TARGET_FIELDS[node.type])))
        elif node.type == "as_pattern_target":
            names.update(_bound_in(node.named_children[0] if node.named_child_count else None))
        elif node.type in ("import_statement", "import_from_statement"):
            for imported in node.children_by_field_name("name"):
                alias = imported.child_by_field_name("alias") if imported.type == "aliased_import" else None
                names.add(node_text(alias) if alias is not None else node_text(imported).split(".", 1)[0])
    return names


_IDENTIFIER_WORDS = re.compile(r"[A-Za-z_]\w*")


def constructed_locals(function: ts.Node) -> dict[str, str]:
    """Variable -> the callee every binding of it in the function calls, written the same each time by a name the
    function does not bind itself or a class it defines (`sql = SqlLexer(**self.options)`): where that names a class,
    the variable is an instance of exactly it, never of a subclass. A parameter, and a name bound any other way too
    (a loop, `with`, `except`, `:=`, `+=`, an annotation, an import, `global`/`nonlocal`), is left out."""
    body = function.child_by_field_name("body")
    if body is None:
        return {}
    classes = {node_text(c.child_by_field_name("name")) for c in _all_nodes(body, "class_definition")}
    own = local_names(function) - classes  # (a class the function defines makes exactly it too)
    made: dict[str, set[str]] = {}
    other = {name for name, _ in parameter_nodes(function)}
    for node in expression_nodes(body):
        if node.type == "assignment" and (callee := _constructing(node, own)):
            made.setdefault(node_text(node.child_by_field_name("left")), set()).add(callee)
        elif node.type in (*_TARGET_FIELDS, "augmented_assignment"):
            other.update(_bound_in(node.child_by_field_name(_TARGET_FIELDS.get(node.type, "left"))))
        elif node.type == "as_pattern_target":
            other.update(_bound_in(node.named_children[0] if node.named_child_count else None))
        elif node.type in ("global_statement", "import_statement", "import_from_statement", *DEFINITIONS):
            other.update(_IDENTIFIER_WORDS.findall(node_text(node).split(":", 1)[0]))  # (its header's names: any)
    rebound = {node_text(n) for s in _all_nodes(body, "nonlocal_statement") for n in s.named_children}
    return {name: next(iter(c)) for name, c in made.items() if len(c) == 1 and name not in other | rebound}


def _constructing(assignment: ts.Node, own: set[str]) -> str:
    """`x = Foo(...)` / `x = mod.Foo(...)` with no annotation, the callee named by a name not bound in the function:
    the callee as written; "" for any other assignment."""
    left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
    if left is None or left.type != "identifier" or assignment.child_by_field_name("type") is not None:
        return ""
    callee = right.child_by_field_name("function") if right is not None and right.type == "call" else None
    head = callee
    while head is not None and head.type == "attribute":
        head = head.child_by_field_name("object")
    if callee is None or head is None or head.type != "identifier" or node_text(head) in own:
        return ""
    return node_text(callee)


def _all_nodes(node: ts.Node, kind: str) -> list[ts.Node]:
    """Every node of a kind under `node`, nested definitions included."""
    found, pending = [], [node]
    while pending:
        current = pending.pop()
        if current.type == kind:
            found.append(current)
        pending.extend(current.named_children)
    return found


# The nodes binding a name, and the field holding what they bind.
_TARGET_FIELDS = {"assignment": "left", "for_statement": "left", "for_in_clause": "left", "named_expression": "name"}
_UNPACKED = _BINDING | {"tuple", "list", "expression_list", "parenthesized_expression"}


def _bound_in(target: ts.Node | None) -> list[str]:
    """The names a target binds: `x`, each of `x, (y, *z)`; none for `self.x` or `d[k]`."""
    if target is None:
        return []
    if target.type == "identifier":
        return [node_text(target)]
    return [n for child in target.named_children for n in _bound_in(child)] if target.type in _UNPACKED else []


def defined_functions(function: ts.Node) -> set[str]:
    """The names of every function defined inside a function's body, however decorated."""
    body = function.child_by_field_name("body")
    found = [d for kind in FUNCTIONS for d in descendants(body, kind)] if body is not None else []
    return {node_text(name) for d in found if (name := d.child_by_field_name("name")) is not None}


def unwraps_itself(name: str, value: ts.Node) -> bool:
    """Whether `value` is `getattr(name, "__func__", name)` (or `"__wrapped__"`): the function the variable wraps,
    else the variable itself (`fn = getattr(fn, "__func__", fn)`: what a `staticmethod` holds, or fn), which runs as
    the variable would. Any other attribute may be another value (`key = getattr(key, "key", key)`: a string)."""
    function, arguments = value.child_by_field_name("function"), value.child_by_field_name("arguments")
    if value.type != "call" or function is None or node_text(function) != "getattr" or arguments is None:
        return False
    given = arguments.named_children
    if len(given) != 3 or node_text(given[0]) != name or node_text(given[2]) != name:
        return False
    return node_text(given[1]).strip("'\"") in UNWRAPPING


def body_functions(body: ts.Node) -> set[str]:
    """The names of the functions a block defines at its own level that hold the function itself: undecorated, or
    decorated only by `staticmethod`, `classmethod` or `functools.wraps` (which run it when called)."""
    found: set[str] = set()
    for child in body.named_children:
        definition = child.child_by_field_name("definition") if child.type == "decorated_definition" else child
        if definition is None or definition.type not in FUNCTIONS:
            continue
        if all(d in RUN_AS_WRITTEN for d in _decorator_names(child)) and (
            name := definition.child_by_field_name("name")
        ):
            found.add(node_text(name))
    return found


def nested_functions(function: ts.Node) -> set[str]:
    """The names of the functions defined inside a function's body (closures, wrappers): undecorated, or decorated
    only by `functools.wraps` (any other decorator makes the name hold what it returns)."""
    body = function.child_by_field_name("body")
    found = [d for kind in FUNCTIONS for d in descendants(body, kind)] if body is not None else []
    return {
        node_text(d.child_by_field_name("name"))
        for d in found
        if d.child_by_field_name("name") is not None and _plain_or_wrapped(d)
    }


def _plain_or_wrapped(definition: ts.Node) -> bool:
    holder = definition.parent
    if holder is None or holder.type != "decorated_definition":
        return True
    return all(w in ("wraps", "functools.wraps") for w in _decorator_names(holder))


def _decorator_names(holder: ts.Node) -> list[str]:
    """The names a definition's decorators call or are (`@wraps(fn)`: `wraps`); none for an undecorated one."""
    return [node_text(d).lstrip("@").split("(", 1)[0].strip() for d in holder.named_children if d.type == "decorator"]


def global_names(root: ts.Node) -> set[str]:
    """The module-level names some function rebinds (`global x`)."""
    found: set[str] = set()
    pending = [root] if b"global" in (root.text or b"") else []  # the whole tree is walked only when it may say so
    while pending:
        node = pending.pop()
        if node.type == "global_statement":
            found.update(node_text(n) for n in node.named_children)
        else:
            pending.extend(node.named_children)
    return found


def literal_items(node: ts.Node) -> list[tuple[str, ts.Node]]:
    """(key, value) of a dict literal with constant keys (`{"a": f, 1: g}`) or keys that are names (`{str: String,
    dt.date: Date}`: keys "<str>", "<dt.date>", which no lookup writes) or of a list or tuple literal (`[f, g]`: keys
    "0", "1"; comments between items are none); [] for any other value, or when an item is unpacked (`**other`,
    `*more`)."""
    written_items = written(node)
    if node.type == "dictionary":
        items: list[tuple[str, ts.Node]] = []
        for pair in written_items:
            key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            key_text = literal_key(key) if pair.type == "pair" and key is not None else None
            if key_text is None and key is not None and key.type in ("identifier", "attribute"):
                key_text = f"<{node_text(key)}>"
            if key_text is None or value is None:
                return []
            items.append((key_text, value))
        return items
    if node.type in ("list", "tuple") and all(c.type != "list_splat" for c in written_items):
        return [(str(i), c) for i, c in enumerate(written_items)]
    return []


def literal_key(node: ts.Node | None) -> str | None:
    """A constant key as written, told apart by type (`1` -> "1", `"1"` -> "'1'"); None for anything computed."""
    if node is None:
        return None
    if node.type == "integer":
        return node_text(node)
    if node.type == "string" and all(c.type != "interpolation" for c in node.named_children):
        return "'" + "".join(node_text(c) for c in node.named_children if c.type == "string_content") + "'"
    return None
