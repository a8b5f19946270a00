"""JavaScript/TypeScript syntax the binder reads: which definitions the outline makes entities, the names a
pattern or an import binds, the expressions a class extends, and what the language and its runtimes define
themselves."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import tree_sitter as ts

from trident.ingest.languages import node_text, terminal_name
from trident.ingest.languages.javascript import (
    CLASSES,
    FUNCTION_VALUES,
    FUNCTIONS,
    METHODS,
    resolve_specifier,
)
from trident.ingest.languages.rules_values import UNKNOWN, Binding, Kind
from trident.store.schema import Resolution

# Nodes with their own variables; all but arrow functions also rebind `this`.
FUNCTION_LIKE = frozenset({*FUNCTION_VALUES, *FUNCTIONS, "function_expression", "method_definition"})
FIELDS = frozenset({"field_definition", "public_field_definition"})
# Where `this.x = ...` no longer means the class's instance.
OPAQUE = frozenset({*(FUNCTION_LIKE - {"arrow_function"}), *CLASSES, "class"})
# Values of the language's own types: their methods are the runtime's.
LITERALS = frozenset({"string", "template_string", "number", "array", "regex", "true", "false"})
# Statements and blocks that may declare a variable of the function they are in (expressions never do).
_DECLARING = re.compile(r".*(_statement|_clause|_declaration|_block)|program|switch_body|switch_case|switch_default")
# Wrappers whose one named child is the value itself: `(x)`, `x!`, `x satisfies T`.
TRANSPARENT = frozenset({"parenthesized_expression", "non_null_expression", "satisfies_expression"})
_NAME = re.compile(r"[\w$#]+")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Called by bare name: the language's and the runtimes' own functions and constructors, test frameworks', and
# the keywords a grammar reads as a call where it cannot know the function is async (`await (x as T).m()`).
BUILTIN_FUNCTIONS = _words(
    """
    AbortController AggregateError Array ArrayBuffer BigInt BigInt64Array Blob Boolean Buffer CustomEvent
    DataView Date Error EvalError Event EventTarget File FileReader Float32Array Float64Array FormData Function
    Headers Image Int16Array Int32Array Int8Array IntersectionObserver Map MessageChannel MutationObserver
    Number Object Promise Proxy RangeError ReferenceError RegExp Request ResizeObserver Response Set
    SharedArrayBuffer String Symbol SyntaxError TextDecoder TextEncoder TypeError URIError URL URLSearchParams
    Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakRef WeakSet WebSocket Worker XMLHttpRequest
    afterAll afterEach alert atob beforeAll beforeEach btoa cancelAnimationFrame clearImmediate clearInterval
    clearTimeout confirm decodeURI decodeURIComponent describe encodeURI encodeURIComponent escape eval expect
    fetch getComputedStyle isFinite isNaN it parseFloat parseInt prompt queueMicrotask requestAnimationFrame
    require setImmediate setInterval setTimeout structuredClone test unescape
    await yield
    """
)
# Receivers that are the runtime's own objects: any call through them (or their results) is the runtime's.
BUILTIN_OBJECTS = BUILTIN_FUNCTIONS | _words(
    """
    Atomics Intl JSON Math Reflect WebAssembly console crypto document exports globalThis history jest
    localStorage location module navigator performance process sessionStorage vi window
    """
)
# Types whose methods are the language's: a value of one of them calls nothing a project defines.
BUILTIN_TYPES = BUILTIN_FUNCTIONS | _words(
    """
    ArrayLike Awaited Iterable Iterator Partial PromiseLike ReadonlyArray ReadonlyMap ReadonlySet Record
    Required
    """
)
# Methods of Array, String, Promise, Map, Set, Object, Function, Number, Date and RegExp: called on a receiver
# of unknown type, the receiver is most likely one of those.
BUILTIN_METHODS = _words(
    """
    add apply at bind call catch charAt charCodeAt clear codePointAt concat delete endsWith entries every exec
    fill filter finally find findIndex findLast findLastIndex flat flatMap forEach get getDate getDay
    getFullYear getHours getMilliseconds getMinutes getMonth getSeconds getTime has hasOwnProperty includes
    indexOf isPrototypeOf join keys lastIndexOf localeCompare map match matchAll normalize padEnd padStart pop
    push reduce reduceRight repeat replace replaceAll reverse search set shift slice some sort splice split
    startsWith substr substring test then toFixed toISOString toJSON toLocaleDateString toLocaleString
    toLocaleTimeString toLowerCase toPrecision toString toUpperCase trim trimEnd trimStart unshift valueOf
    values
    """
)


def name_of(node: ts.Node) -> str:
    """The name a definition is given, as the outline reads it ("" for none or a pattern)."""
    text = node_text(node.child_by_field_name("name") or node.child_by_field_name("property"))
    return text if _NAME.fullmatch(text) else ""


def unwrap(node: ts.Node) -> ts.Node:
    """`(x)`, `x!`, `x satisfies T` -> x."""
    while node.type in TRANSPARENT and node.named_child_count:
        node = node.named_children[0]
    return node


def declares(node: ts.Node) -> bool:
    """Whether variables may be declared directly in `node` (a statement or block, not an expression)."""
    return _declaring(node.type)


@cache
def _declaring(kind: str) -> bool:
    return _DECLARING.fullmatch(kind) is not None


def pattern_names(node: ts.Node) -> Iterator[str]:
    """The variables a destructuring pattern binds: `{a, b: c, ...d}` -> a, c, d (not the keys, not defaults)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("identifier", "shorthand_property_identifier_pattern"):
            yield node_text(current)
        elif current.type in ("pair_pattern", "assignment_pattern", "object_assignment_pattern"):
            inner = current.child_by_field_name("value" if current.type == "pair_pattern" else "left")
            stack.extend([inner] if inner is not None else current.named_children[:1])
        elif current.type in ("object_pattern", "array_pattern", "rest_pattern"):
            stack.extend(current.named_children)


def module_of(specifier: str, path: str) -> str:
    """The module name an import specifier names, as entities are qualified: `./gateway.js` in billing/orders.ts
    -> billing.gateway; a package as written, `@scope/pkg/sub` -> scope.pkg.sub; "" above the project's root."""
    resolved = resolve_specifier(specifier, path)
    if specifier.startswith("."):
        return "" if resolved.startswith("..") or resolved == "." else resolved.replace("/", ".")
    return resolved.removeprefix("node:").lstrip("@~/#").replace("/", ".")


def string_value(node: ts.Node | None) -> str:
    """The text of a plain string literal, "" for anything else."""
    if node is None or node.type != "string":
        return ""
    return "".join(node_text(c) for c in node.named_children if c.type == "string_fragment")


def module_binding(specifier: str, path: str) -> Binding:
    """The module an import specifier names; a package's (not `./x`, nor an alias like `@/x`) is external."""
    module = module_of(specifier, path) if specifier else ""
    if not module:
        return Binding(Kind.UNKNOWN)
    return Binding(Kind.VALUE, module, external=not specifier.startswith((".", "@/", "~/", "#")))


def loaded_module(call: ts.Node, path: str) -> Binding | None:
    """`require('./x')` / `import('./x')` -> the module it loads; None for any other call."""
    function = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    if function is None or function.type not in ("identifier", "import") or arguments is None:
        return None
    if node_text(function) not in ("require", "import") or arguments.named_child_count != 1:
        return None
    specifier = string_value(arguments.named_children[0])
    return module_binding(specifier, path) if specifier else None


def imports(node: ts.Node, path: str) -> Iterator[tuple[str, Binding]]:
    """(local name, binding) for each name an import statement binds: `import d, {a as b}, * as ns from 'x'` and
    `import fs = require('fs')`."""
    for clause in node.named_children:
        if clause.type == "import_require_clause":
            module = module_binding(string_value(clause.child_by_field_name("source")), path)
            for item in clause.named_children[:1]:
                yield node_text(item), module
        elif clause.type == "import_clause":
            module = module_binding(string_value(node.child_by_field_name("source")), path)
            for item in clause.named_children:
                for local, bound in _imported(item, module):
                    yield local, bound if module.kind is Kind.VALUE else UNKNOWN


def _imported(item: ts.Node, module: Binding) -> list[tuple[str, Binding]]:
    """(local name, binding) for one part of an import clause."""
    if item.type == "identifier":  # a default import: named as the file calls it
        return [(node_text(item), module.reach(node_text(item), Resolution.INFERRED))]
    if item.type == "namespace_import":
        return [(node_text(c), module) for c in item.named_children[:1]]
    found: list[tuple[str, Binding]] = []
    for specifier in item.named_children if item.type == "named_imports" else []:
        name = node_text(specifier.child_by_field_name("name"))
        local = node_text(specifier.child_by_field_name("alias")) or name
        if name == "default":
            found.append((local, module.reach(local, Resolution.INFERRED)))
        elif name:
            found.append((local, module.reach(name)))
    return found


def heritage(node: ts.Node) -> Iterator[ts.Node]:
    """The expressions and types a class or interface extends or implements, as written."""
    for child in node.named_children:
        if child.type == "class_heritage":
            clauses = [c for c in child.named_children if c.type in ("extends_clause", "implements_clause")]
            yield from (t for c in clauses for t in c.named_children) if clauses else child.named_children
        elif child.type == "extends_type_clause":
            yield from child.named_children


def base_expression(node: ts.Node, name: str) -> ts.Node | None:
    """The expression naming base `name` (its last identifier) of a class-like node, generics stripped."""
    for found in heritage(node):
        if found.type != "type_arguments" and terminal_name(found) == name:
            inner = found.child_by_field_name("name") if found.type == "generic_type" else found
            return inner or found
    return None


@dataclass(frozen=True)
class _Assignment:
    """Inside `const f = () => ...` / `x = class {...}`: the outline defines the holder and walks the value's
    children only (in the function, or in the class as `prefix`)."""

    holder: int
    value: int
    local: str
    is_class: bool


class Definitions:
    """Which functions and classes the outline makes entities, and their local names.

    Replays `Outline._visit` down a node's ancestors (each ancestor read once for the file: a node's parent costs
    its depth in tree-sitter): definitions are found anywhere outside a function the outline defines (a callback's
    body at the top level counts as the top level), and a class's body qualifies what it defines.
    """

    def __init__(self) -> None:
        # node id -> how the outline treats definitions directly inside it: their prefix, an assignment whose
        # value alone is walked, or None (inside a function it defines, or a part it never walks)
        self._inside: dict[int, str | _Assignment | None] = {}

    def entity(self, node: ts.Node) -> tuple[str, bool] | None:
        """(local name, is a class) when the outline makes `node` an entity, else None."""
        parent = node.parent
        outer = self._inside_of(parent) if parent is not None else None
        if isinstance(outer, _Assignment):
            return (outer.local, outer.is_class) if node.id in (outer.holder, outer.value) else None
        inside = self._step(node, outer)
        if outer is None or inside == outer:
            return None
        if isinstance(inside, _Assignment):
            return (inside.local, inside.is_class) if inside.holder == node.id else None
        if inside is not None:
            return inside, True
        return (f"{outer}.{name_of(node)}" if outer else name_of(node)), False

    def _inside_of(self, node: ts.Node) -> str | _Assignment | None:
        pending: list[ts.Node] = []
        current: ts.Node | None = node
        while current is not None and current.id not in self._inside:
            pending.append(current)
            current = current.parent
        inside: str | _Assignment | None = ""
        if current is None:  # the root: the top level
            self._inside[pending.pop().id] = inside
        else:
            inside = self._inside[current.id]
        for step in reversed(pending):
            inside = self._inside[step.id] = self._step(step, inside)
        return inside

    @staticmethod
    def _step(node: ts.Node, outer: str | _Assignment | None) -> str | _Assignment | None:
        """How definitions inside `node` are treated, given how those around it are."""
        if isinstance(outer, _Assignment):
            if node.id == outer.value:
                return outer.local if outer.is_class else None
            return outer if node.id == outer.holder else None
        kind = node.type
        if outer is None:
            return None
        if kind in CLASSES and (name := name_of(node)):
            return f"{outer}.{name}" if outer else name
        if (kind in FUNCTIONS or (outer and kind in METHODS)) and name_of(node):
            return None
        if kind in _HOLDERS and (assigned := _assigned(node)) is not None:
            holder, value = assigned
            local = f"{outer}.{name_of(holder)}" if outer else name_of(holder)
            return _Assignment(holder.id, value.id, local, value.type == "class")
        return outer


_HOLDERS = frozenset({"variable_declarator", "lexical_declaration", "variable_declaration", *FIELDS})


def _assigned(node: ts.Node) -> tuple[ts.Node, ts.Node] | None:
    """(declarator or field, value) when `node` binds exactly one function or class, as the outline counts."""
    if node.type in ("lexical_declaration", "variable_declaration"):
        holders = [d for d in node.named_children if d.type == "variable_declarator"]
    else:
        holders = [node]
    bound = [
        (holder, value)
        for holder in holders
        if (value := holder.child_by_field_name("value")) is not None
        and (value.type in FUNCTION_VALUES or value.type == "class")
        and name_of(holder)
    ]
    return bound[0] if len(bound) == 1 else None
