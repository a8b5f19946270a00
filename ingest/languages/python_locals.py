"""What a function's statements say of its local values, as the binder walks them: `x = Foo()`, `x: Foo`, `with Foo()
as x`, `self.x = ...`, `for x in self.items` (a container stating its elements' type), an `isinstance(x, Foo)` branch,
a comprehension's variable, a variable holding what a built-name lookup gave (`f = self.get_visitor(node)`)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Target
from trident.ingest.languages.python_arguments import HELD, INSTANCE, Signature
from trident.ingest.languages.python_facts import MAX_ATTRIBUTE_TYPES, ClassFacts, Scope
from trident.ingest.languages.python_lookups import built_lookup
from trident.ingest.languages.python_syntax import descendants, either_side, imported_names, isinstance_test
from trident.ingest.languages.python_types import PythonTypes
from trident.ingest.model import ELEMENTS_MARK, PREFIX_MARK, TargetForm
from trident.store.schema import Resolution


@dataclass(frozen=True)
class SetType:
    """In a block's walk: a variable's type from here on ("": none), how an `isinstance` test narrows it in a branch
    and where the branch ends."""

    variable: str
    type: str


class PythonLocals(PythonTypes):
    """The local types of one file's functions, on what `PythonTypes` read of the file."""

    def _narrowed(self, node: ts.Node, scope: Scope) -> tuple[str, str] | None:
        """(variable, class) when an `if`/`elif` tests `isinstance(variable, Class)` of a class the file binds."""
        if node.type not in ("if_statement", "elif_clause") or not scope.in_function:
            return None
        test = isinstance_test(node.child_by_field_name("condition"))
        if test is None or node_text(test[0]) == scope.receiver:
            return None
        cls = self._held_value(test[1], scope)
        return (node_text(test[0]), cls) if cls else None

    def _note_local_types(self, node: ts.Node, scope: Scope) -> None:
        """`x = Foo(...)`, `x: Foo = ...` and `with Foo() as x` in a function: x's type for the calls after; an
        import inside the function binds its names for the calls after it."""
        if node.type in ("import_statement", "import_from_statement"):
            scope.names.update(imported_names(node, self.path))
        elif node.type == "assert_statement":  # `assert isinstance(child, Row)`: child is a Row after it
            test = isinstance_test(node.named_children[0] if node.named_child_count else None)
            cls = self._held_value(test[1], scope) if test is not None and node_text(test[0]) != scope.receiver else ""
            if test is not None and cls:
                scope.types[node_text(test[0])] = cls
        elif node.type == "expression_statement" and node.named_child_count == 1:
            inner = node.named_children[0]
            left = inner.child_by_field_name("left") if inner.type == "assignment" else None
            if left is not None and left.type == "identifier":
                self._note_variable(node_text(left), inner, scope)
            elif left is not None and left.type == "attribute" and scope.cls is not None:
                self._note_assigned(left, inner, scope)
        elif node.type == "with_statement":
            for pattern in descendants(node, "as_pattern"):
                value = pattern.named_children[0] if pattern.named_child_count else None
                alias = pattern.child_by_field_name("alias")
                if value is not None and value.type == "call" and alias is not None and alias.named_child_count == 1:
                    made = self._made(value, scope)
                    if made and alias.named_children[0].type == "identifier":
                        scope.types[node_text(alias.named_children[0])] = made

    def _note_assigned(self, left: ts.Node, assignment: ts.Node, scope: Scope) -> None:
        """`self.x = Foo(...)` in this function: x holds a Foo for the calls after (every branch's type kept)."""
        owner = left.child_by_field_name("object")
        if owner is None or owner.type != "identifier" or node_text(owner) != scope.receiver:
            return
        found = self._stated_type(assignment, scope.types, scope)
        types = scope.assigned.setdefault(node_text(left.child_by_field_name("attribute")), [])
        if found and found not in types and len(types) < MAX_ATTRIBUTE_TYPES:
            types.append(found)

    def _note_variable(self, name: str, assignment: ts.Node, scope: Scope) -> None:
        """What `name = <value>` makes the variable: a lookup's methods, a class or function it holds, its type, or
        the types of the two sides of `A() if c else B()` (each call on it may run either's method)."""
        right = assignment.child_by_field_name("right")
        taken = self._member_taken(right, scope)
        _put(scope.lookups, name, (self._looked_up(right, scope) or taken) if right is not None else None)
        held = self._held(assignment, scope)
        found = "" if held else self._stated_type(assignment, scope.types, scope)
        _put(scope.held, name, held)
        _put(scope.types, name, found)
        scope.callables.pop(name, None)
        branches = right is not None and right.type in ("boolean_operator", "conditional_expression")
        sides = {self._value_type(s, scope.types, scope) for s in either_side(right)} if branches and right else set()
        _put(scope.alternatives, name, sorted(sides) if not held and not found and "" not in sides else None)

    def _member_taken(self, node: ts.Node | None, scope: Scope) -> Target | None:
        """`text.highlight_regex` where text's class is of another file: the member a call of the variable it is
        taken into calls (the indexer finds it; a member that holds a value is never called through it)."""
        owner = node.child_by_field_name("object") if node is not None and node.type == "attribute" else None
        if owner is None or owner.type != "identifier" or node_text(owner) == scope.receiver:
            return None
        typed = self._receiver_type(owner, scope)
        if not typed or typed in self.by_qualified or typed.split(".", 1)[0] in sys.stdlib_module_names:
            return None
        member = node_text(node.child_by_field_name("attribute")) if node is not None else ""
        return Target(TargetForm.MEMBER, member, Resolution.INFERRED, owner=typed) if member else None

    def _elements_of(self, called: str) -> str:
        """The type of each element a call of `called` gives: stated by this file's function, else (a function of
        another file or project) marked for the indexer to read (`YIELDS`); "" when unknown."""
        if not called or called.startswith(f"{self.module}.") or "." not in called:
            return self.yields.get(called, "")
        return "" if called.split(".", 1)[0] in sys.stdlib_module_names else f"{called}{ELEMENTS_MARK}"

    def _note_loop_variable(self, node: ts.Node, scope: Scope) -> None:
        """`for x in self.items:` where the class states `items: list[Foo]`: x is a Foo in the loop."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if node.type != "for_statement" or left is None or right is None or left.type != "identifier":
            return
        scope.types.pop(node_text(left), None)
        scope.alternatives.pop(node_text(left), None)
        if element := self._element_type(right, scope):
            scope.types[node_text(left)] = element

    def _element_type(self, container: ts.Node, scope: Scope) -> str:
        """The type of each element of `self.items`, `node.items`, `self.header.row.cells` (a class of this file
        stating `items: list[Foo]`) or a parameter annotated `list[Foo]`; "" when the code does not state one."""
        if container.type == "identifier":
            return scope.elements.get(node_text(container), "")
        if container.type == "call":  # `for node in self.iter_child_nodes()`, `-> Iterator[Node]`
            return self._elements_of(self._callee(container, scope))
        owner = container.child_by_field_name("object") if container.type == "attribute" else None
        if owner is None:
            return ""
        if scope.cls is not None and owner.type == "identifier" and node_text(owner) == scope.receiver:
            cls: ClassFacts | None = scope.cls
        else:
            typed = self._receiver_type(owner, scope)
            cls = self.by_qualified.get(typed) if typed else None
        return cls.elements.get(node_text(container.child_by_field_name("attribute")), "") if cls is not None else ""

    def _built_name(self, call: ts.Node, scope: Scope) -> Target | None:
        """`getattr(self, f"visit_{kind}")`, `getattr(obj, "do_" + name)` on a value whose class is known: the methods
        named so that the class, its bases or a class deriving from it defines (the indexer finds them), each
        reachable through the method the lookup returns."""
        found = built_lookup(call)
        if found is None or self._bound("getattr", scope):
            return None
        owner, prefix = found
        if owner.type == "identifier" and scope.cls is not None and node_text(owner) == scope.receiver:
            cls = scope.cls.qualified
        else:
            cls = self._receiver_type(owner, scope)
        return Target(TargetForm.MEMBER, f"{prefix}{PREFIX_MARK}", Resolution.DISPATCH, owner=cls) if cls else None

    def _looked_up(self, value: ts.Node, scope: Scope) -> Target | None:
        """The methods a value is when a lookup by a built name gave it: `getattr(self, f"visit_{kind}")`, a variable
        holding one, or what a method of the class that returns one gives (`f = self.get_visitor(node)`)."""
        if value.type == "identifier":
            return scope.lookups.get(node_text(value))
        if value.type != "call":
            return None
        function = value.child_by_field_name("function")
        method = function.child_by_field_name("attribute") if function is not None else None
        owner = function.child_by_field_name("object") if function is not None and method is not None else None
        if owner is None or scope.cls is None or owner.type != "identifier" or node_text(owner) != scope.receiver:
            return self._built_name(value, scope)
        prefix = self.lookups.get(f"{scope.cls.qualified}.{node_text(method)}")
        found = f"{prefix}{PREFIX_MARK}"
        return Target(TargetForm.MEMBER, found, Resolution.DISPATCH, owner=scope.cls.qualified) if prefix else None

    def _note_passed(self, call: ts.Node, scope: Scope) -> None:
        """What a call of one of this file's functions passes its untyped parameters (`render(console)` with
        `console = Console()`, `apply(self.on_done)`, `Parser(self)`): a class's value, or a class or function
        itself; the binder types the parameters by it on its next pass (`bind_python`)."""
        called, signature, receiver_given = self._signature_called(call, scope)
        if signature is None:
            return
        for parameter, argument in signature.filled(call, receiver_given):
            if parameter not in signature.untyped:
                continue
            if scope.cls is not None and argument.type == "identifier" and node_text(argument) == scope.receiver:
                value = (INSTANCE, scope.cls.qualified)
            elif held := self._held_value(argument, scope):
                value = (HELD, held)
            elif typed := self._value_type(argument, scope.types, scope):
                value = (INSTANCE, typed)
            else:
                continue
            self.found.setdefault(called, {}).setdefault(parameter, set()).add(value)

    def _signature_called(self, call: ts.Node, scope: Scope) -> tuple[str, Signature | None, bool]:
        """The function of this file a call calls, its signature, and whether the call's receiver fills the first
        parameter (`obj.m(x)`; `Foo(x)` for `Foo.__init__`; not `Foo.m(obj, x)`)."""
        function = call.child_by_field_name("function")
        if function is not None and function.type == "attribute" and (owner := function.child_by_field_name("object")):
            called = self._member_called(owner, node_text(function.child_by_field_name("attribute")), scope)
            if called in self.signatures:
                return called, self.signatures[called], True
        called = self._constructed(call, scope)
        if called in self.by_qualified:
            return f"{called}.__init__", self.signatures.get(f"{called}.__init__"), True
        return called, self.signatures.get(called), False

    def _comprehension_types(self, nodes: list[ts.Node], scope: Scope) -> dict[str, str]:
        """Variable -> type of each comprehension among an expression's nodes whose iterable states its elements'
        type."""
        typed: dict[str, str] = {}
        for clause in (n for n in nodes if n.type == "for_in_clause"):
            left, right = clause.child_by_field_name("left"), clause.child_by_field_name("right")
            element = self._element_type(right, scope) if right is not None else ""
            if left is not None and left.type == "identifier" and element:
                typed[node_text(left)] = element
        return typed


def _put(table: dict[str, Any], name: str, value: Any) -> None:
    """Set `name` to a value, or forget it when there is none."""
    if value:
        table[name] = value
    else:
        table.pop(name, None)
