"""The types JavaScript/TypeScript code states, as the binder reads them: the type an annotation names, each
parameter's stated type and default, and what a class's fields hold (a field's type, a constructor's parameter
property, `this.x = ...` in a method)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.javascript_syntax import BUILTIN_TYPES, FIELDS, OPAQUE, name_of, unwrap
from trident.ingest.languages.rules_values import BUILTIN, UNKNOWN, Binding, Kind, Scope
from trident.store.schema import Resolution

# Builtin generics whose one type argument is the type of their items.
_COLLECTIONS = frozenset({"Array", "ReadonlyArray", "Set", "ReadonlySet", "Iterable", "Iterator", "ArrayLike"})


class Values(Protocol):
    """What reading a class's fields asks of the binder: what an expression stands for, in which scope."""

    def value(self, node: ts.Node, scope: Scope) -> Binding: ...

    def scope_at(self, node: ts.Node) -> Scope: ...


def stated_type(node: ts.Node | None, scope: Scope) -> Binding:
    """What a type annotation says a value is: one type the file names (`Foo`, `ns.Foo<T>`, `Foo | null`), an
    array of one (`Foo[]`, `Array<Foo>`), one of the language's (`string`, `Promise<Foo>`), or UNKNOWN (a union,
    a type parameter, a global)."""
    while node is not None and node.type in ("type_annotation", "parenthesized_type", "generic_type"):
        inner = node.child_by_field_name("name") if node.type == "generic_type" else None
        if inner is not None and node_text(inner) in BUILTIN_TYPES and scope.lookup(node_text(inner)) is None:
            arguments = node.child_by_field_name("type_arguments")
            items = arguments.named_children if arguments is not None and node_text(inner) in _COLLECTIONS else []
            return _array_of(items[0], scope) if len(items) == 1 else BUILTIN
        node = inner or (node.named_children[0] if node.named_child_count else None)
    if node is None:
        return UNKNOWN
    if node.type in ("type_identifier", "nested_type_identifier"):
        return _named_type(node, scope)
    if node.type == "union_type":
        members = [m for m in _union_members(node) if node_text(m) not in ("null", "undefined", "void")]
        return stated_type(members[0], scope) if len(members) == 1 else UNKNOWN
    if node.type == "predefined_type":
        return UNKNOWN if node_text(node) in ("any", "unknown", "object", "never") else BUILTIN
    if node.type == "array_type" and node.named_child_count == 1:
        return _array_of(node.named_children[0], scope)
    return BUILTIN if node.type in ("array_type", "tuple_type", "literal_type") else UNKNOWN


def _named_type(node: ts.Node, scope: Scope) -> Binding:
    """`Foo` / `ns.Foo` as the file binds it: TYPE of its qualified name, BUILTIN for the language's, else UNKNOWN."""
    head, _, rest = node_text(node).partition(".")
    bound = scope.lookup(head)
    if bound is None:
        return BUILTIN if head in BUILTIN_TYPES and not rest else UNKNOWN
    if bound.kind not in (Kind.VALUE, Kind.CLASS):
        return UNKNOWN
    return Binding(Kind.TYPE, f"{bound.name}.{rest}" if rest else bound.name, Resolution.INFERRED)


def _array_of(item: ts.Node, scope: Scope) -> Binding:
    """An array whose items are of one named type (`Foo[]`, `Array<Foo<T>>`), else just the runtime's."""
    named = item.child_by_field_name("name") if item.type == "generic_type" else item
    if named is None or named.type not in ("type_identifier", "nested_type_identifier"):
        return BUILTIN
    found = _named_type(named, scope)
    return Binding(Kind.ARRAY, found.name, Resolution.INFERRED) if found.kind is Kind.TYPE else BUILTIN


def _union_members(node: ts.Node) -> Iterator[ts.Node]:
    """`A | B | null` nests as ((A | B) | null): its members, flat; iterative (a union may be long)."""
    stack = list(reversed(node.named_children))
    while stack:
        member = stack.pop()
        if member.type == "union_type":
            stack.extend(reversed(member.named_children))
        else:
            yield member


def parameters(function: ts.Node) -> Iterator[tuple[ts.Node, ts.Node | None, ts.Node | None]]:
    """(pattern, stated type, default) for each parameter of a function: `x: Foo = y`, `x = y`, `x => ...`."""
    single = function.child_by_field_name("parameter")  # `x => ...`
    holder = function.child_by_field_name("parameters")
    for parameter in [single] if single is not None else holder.named_children if holder is not None else []:
        pattern, default, stated = parameter, None, None
        if parameter.type in ("required_parameter", "optional_parameter"):
            pattern = parameter.child_by_field_name("pattern") or parameter
            default = parameter.child_by_field_name("value")
            stated = parameter.child_by_field_name("type")
        elif parameter.type == "assignment_pattern":
            pattern = parameter.child_by_field_name("left") or parameter
            default = parameter.child_by_field_name("right")
        yield pattern, stated, default


@dataclass
class ClassType:
    """A class the file defines, as the type `this` is in its methods: its qualified name and its fields."""

    node: ts.Node
    qualified: str
    fields: dict[str, Binding] | None = None  # read on first use: field -> what it holds

    def field(self, name: str, values: Values) -> Binding:
        """What field `name` holds, as far as the class says."""
        if self.fields is None:
            self.fields = {}  # before reading: `this.a = this.b` looks fields up while they are read
            _read_fields(self.node, self.fields, values)
        return self.fields.get(name, UNKNOWN)


def _read_fields(cls: ts.Node, fields: dict[str, Binding], values: Values) -> None:
    """The type a field states (`pool: Pool`, `constructor(private pool: Pool)`), else what every known value
    it is given says (`pool = new Pool()`, `this.pool = pool` in any method): one type, or UNKNOWN."""
    body = cls.child_by_field_name("body")
    outer = values.scope_at(cls)
    assigned: list[tuple[str, Binding]] = []
    for member in body.named_children if body is not None else []:
        if member.type in FIELDS:
            stated = stated_type(member.child_by_field_name("type"), outer)
            value = member.child_by_field_name("value")
            if stated.kind is not Kind.UNKNOWN:
                fields[name_of(member)] = stated
            elif value is not None:
                assigned.append((name_of(member), values.value(value, outer)))
        elif member.type == "method_definition":
            if name_of(member) == "constructor":
                fields.update(_parameter_properties(member, values))
            assigned.extend(_assignments(member, values))
    given: dict[str, Binding] = {}
    for name, bound in assigned:
        if bound.kind is not Kind.UNKNOWN and name not in fields:
            given[name] = bound if given.get(name, bound) == bound else UNKNOWN
    fields.update(given)


def _parameter_properties(constructor: ts.Node, values: Values) -> Iterator[tuple[str, Binding]]:
    """`constructor(private readonly pool: Pool)` declares a field `pool` of type Pool."""
    scope = values.scope_at(constructor.child_by_field_name("body") or constructor)
    holder = constructor.child_by_field_name("parameters")
    for parameter in holder.named_children if holder is not None else []:
        pattern = parameter.child_by_field_name("pattern")
        if _is_parameter_property(parameter) and pattern is not None and pattern.type == "identifier":
            bound = scope.lookup(node_text(pattern)) or UNKNOWN
            if bound.kind is not Kind.UNKNOWN:
                yield node_text(pattern), bound


def _is_parameter_property(parameter: ts.Node) -> bool:
    """`constructor(private pool: Pool)`: a modifier makes the parameter a field too."""
    return any(c.type in ("accessibility_modifier", "override_modifier", "readonly") for c in parameter.children)


def _assignments(method: ts.Node, values: Values) -> Iterator[tuple[str, Binding]]:
    """`this.x = value` in a method (arrow functions inside it included): (x, what value stands for)."""
    stack = [c for c in method.named_children if c.type == "statement_block"]
    while stack:
        node = stack.pop()
        right = node.child_by_field_name("right")
        if node.type == "assignment_expression" and right is not None:
            member = _this_member(node.child_by_field_name("left"))
            if member:
                yield member, values.value(right, values.scope_at(node))
        stack.extend(c for c in node.named_children if c.type not in OPAQUE)


def _this_member(node: ts.Node | None) -> str:
    """`this.pool` -> pool; "" for any other expression."""
    if node is None or node.type != "member_expression":
        return ""
    receiver = node.child_by_field_name("object")
    return node_text(node.child_by_field_name("property")) if receiver and unwrap(receiver).type == "this" else ""
