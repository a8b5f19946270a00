"""Python name binding: what each call and base class in a file refers to, by scope and stated type.

A call is described as precisely as the file itself allows, for the indexer to finish against every indexed
entity (`trident.ingest.code_index`):
- `self.m()`, `cls.m()` in a method of class C: member `m` of C, looked up through C's bases (exact);
  `super().m()`: the same lookup, starting after C (exact).
- a name the file binds (a definition, `import a.b as c`, `from .x import y`, relative imports made absolute):
  that qualified name, `mod.f()` as `a.b.f` (exact).
- a receiver whose type the code states (`python_types`): `self._pool = lib.Pool(...)` or `self.x = param` with
  `param: Foo` anywhere in the class (an attribute given several classes: one target each), a class-level
  `x: Foo`, an annotated parameter, `x = Foo()` or `with Foo() as x` in the same function, `Foo().m()`, a call of a
  function of the file that states its return type, `for x in self.items` with `items: list[Foo]`: member `m` of
  that type (inferred).
- anything else (an untyped receiver, a name bound by `*` imports or at run time): the bare name, a guess the
  indexer keeps only when one entity of the project has it.
Names are qualified as the file's own entities are (from the path: `billing/orders.py` -> `billing.orders`).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TypeAlias, TypeVar

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Bindings, BoundAttribute, BoundBase, BoundCall, BoundPass, Target
from trident.ingest.languages.python import BUILTINS
from trident.ingest.languages.python_arguments import DECORATED, HELD, INSTANCE, Passed
from trident.ingest.languages.python_facts import ClassFacts, Scope
from trident.ingest.languages.python_fixtures import (
    case_items,
    conftest_fixture,
    fixture_names,
    parametrized,
    receives_fixtures,
)
from trident.ingest.languages.python_implicit import (
    expression_runs,
    statement_runs,
)
from trident.ingest.languages.python_implicit_calls import PythonImplicitCalls
from trident.ingest.languages.python_locals import KeepOpen, MergeHeld, SetHeld, SetType, held_callables, picked_items
from trident.ingest.languages.python_lookups import named_lookup
from trident.ingest.languages.python_parameters import standard
from trident.ingest.languages.python_syntax import (
    BUILTIN_METHODS,
    DEFINITIONS,
    FUNCTIONS,
    body_functions,
    body_names,
    class_asked,
    constructed_locals,
    defined_functions,
    either_side,
    expression_nodes,
    held_class_name,
    imported_from,
    is_static,
    is_super,
    local_names,
    named_as_class,
    nested_functions,
    parameter_defaults,
    parameter_nodes,
)
from trident.ingest.languages.python_visitors import visited_candidates, visited_class
from trident.ingest.model import (
    ATTRIBUTE_MARK,
    CALLED_MARK,
    GETTER_MARK,
    GIVEN_CLASS_MARK,
    MADE_BY_MARK,
    OWN_CLASS_MARK,
    PARAMETER_CLOSE,
    PARAMETER_OPEN,
    PATH_ASKED_MARK,
    RETURNED_PLACE,
    SUBCLASSES_MARK,
    TABLE_MARK,
    TargetForm,
    passed_slot,
)
from trident.store.schema import Resolution

log = logging.getLogger(__name__)
# Builtins that ask about the values they are given and never call or construct them
INSPECTING = frozenset(
    {"isinstance", "issubclass", "callable", "hasattr", "getattr", "setattr", "delattr", "type", "id", "vars", "dir"}
    | {"super"}
)
BRANCHING = frozenset({"if_statement", "try_statement", "match_statement"})  # statements of alternative branches
Marker: TypeAlias = SetType | SetHeld | MergeHeld | KeepOpen  # what a block's walk applies between its statements
MAX_PASSES = 3  # binding a file again with what its calls pass: enough for a value passed on twice


class PythonBinder(PythonImplicitCalls):
    """Binds one file's calls and bases, scope by scope, on what `PythonTypes` read of it."""

    def __init__(self, path: str, module: str, passed: Passed | None = None) -> None:
        super().__init__(path, module, passed)
        self.result = Bindings()

    def bind(self, root: ts.Node) -> Bindings:
        self.read(root)
        self._walk_block(root, Scope(caller="", prefix=""))
        for function, returned in self.returns.items():  # what the indexer types a call's result by, across files
            local = function.removeprefix(f"{self.module}.")
            stated = Resolution.INFERRED if function in self.inferred_returns else Resolution.EXACT
            target = Target(TargetForm.QUALIFIED, returned, stated)
            self.result.returns.append(BoundBase(local, self.return_rows[function], target))
        aliases = {name: self._named_type(name) for name in self.type_aliases}  # `TextType`: what it names
        for name, held in sorted({**aliases, **self.module_held}.items()):  # what importing the name elsewhere calls
            local = held.removeprefix(f"{self.module}.")
            if held.startswith(f"{self.module}.") and "." not in local and local in self.names:
                self.result.held[name] = local
        for name, table in sorted(self.tables.items()):  # what calling an item of it elsewhere calls
            own = sorted({h.removeprefix(f"{self.module}.") for h in table.values() if h.startswith(f"{self.module}.")})
            if own := [local for local in own if "." not in local and local in self.names]:
                self.result.tables[name] = own
        for function, element in self.yields.items():  # what a loop over a call's result is, across files
            target = Target(TargetForm.QUALIFIED, element, Resolution.EXACT)
            self.result.yields.append(
                BoundBase(function.removeprefix(f"{self.module}."), self.yield_rows[function], target)
            )
        self.result.holds.extend(self._module_instances())
        self.result.holds.extend(self._held_attributes())
        self.result.holds.extend(self._stated_parameters())
        self.result.holds.extend(self._generators())
        self.result.holds.extend(self._repartials())
        self.result.holds.extend(self._held_tables(root))
        self.result.holds.extend(self.imports_all())
        return self.result

    def _walk_block(self, block: ts.Node, scope: Scope) -> None:
        pending: list[ts.Node | Marker] = list(reversed(block.named_children))
        while pending:
            node = pending.pop()
            if isinstance(node, MergeHeld):
                self.merge_held(node.statement, scope)
            elif isinstance(node, KeepOpen):
                (scope.open_held if node.held else scope.open_params).setdefault(node.variable, node.opened)
            elif isinstance(node, SetHeld):
                self.set_held(node, scope)
            elif isinstance(node, SetType):
                if node.if_untyped and node.variable in scope.types:
                    continue
                if node.type:
                    scope.types[node.variable] = node.type
                else:
                    scope.types.pop(node.variable, None)
                if node.alternatives:
                    scope.alternatives[node.variable] = list(node.alternatives)
                elif node.alternatives is not None:
                    scope.alternatives.pop(node.variable, None)
            elif node.type == "decorated_definition":
                definition = node.child_by_field_name("definition")
                header = self._header_scope(definition, scope)
                for child in node.named_children:
                    if definition is None or child.id != definition.id:
                        self._decorator_calls(child, scope, header)
                        self._decorator_applied(child, definition, scope)
                if definition is not None:
                    pending.append(definition)
            elif node.type == "class_definition" and not scope.in_function:
                self._walk_class(node, scope)
            elif node.type == "class_definition":
                self._local_class(node, scope)
                self._calls_in(node, scope)
            elif node.type in FUNCTIONS:
                self._walk_function(node, scope)
            elif node.type == "block":  # a nested block's statements, each with the local types it states
                pending.extend(reversed(node.named_children))
            elif node.type.endswith("_clause") or node.type.endswith("_statement"):
                self._calls_in_statement(node, scope, pending)
            else:
                self._calls_in(node, scope)

    def _header_scope(self, definition: ts.Node | None, scope: Scope) -> Scope:
        """The scope of the calls in a definition's defaults, bases and decorators' arguments: they run once, where
        the definition is, and make it what it is (`x=default()`, `class K(with_metaclass(M))`), so they are the
        definition's calls; names in them are looked up where it is. Inside a function, that function's. (A decorator
        is the enclosing scope's call, and the definition is `DECORATED_BY` it: `_decorator_applied`.)"""
        name = node_text(definition.child_by_field_name("name")) if definition is not None else ""
        if scope.in_function or not name:
            return scope
        return replace(scope, caller=f"{scope.prefix}.{name}" if scope.prefix else name)

    def _decorator_calls(self, decorator: ts.Node, scope: Scope, header: Scope) -> None:
        """`@route("/")` is a call the enclosing scope makes where the definition is; the values it is given are
        made for the definition, as its defaults are (`@pytest.mark.parametrize("p", [Path()])` gives the test its
        parameter, `@option(callback=validate)` the command its callback), so the calls in its arguments and the
        functions passed in them are the definition's."""
        expression = decorator.named_children[0] if decorator.named_child_count else None
        arguments = expression.child_by_field_name("arguments") if expression is not None else None
        if expression is None or expression.type != "call" or arguments is None:
            self._calls_in(decorator, scope)
            return
        self._calls_in(arguments, header)
        called = expression.child_by_field_name("function")
        if called is not None:
            self._calls_in(called, scope)
        targets = self._call_targets(expression, scope)
        for target in targets:
            self.result.calls.append(BoundCall(scope.caller, expression.start_point.row, target))
        self._passes(expression, targets, scope)  # `@async_variant(sync_do_first)`: what its wrapper calls
        self._references_in(expression, header)
        self._note_passed(expression, scope)

    def _passes(self, call: ts.Node, targets: list[Target], scope: Scope) -> None:
        """What a call passes the parameters of the functions it binds to, in any file (`PASSES`)."""
        for callees in _passed_to(call, targets, scope):
            for slot, value in self.passed_out(call, callees, scope):
                self.result.passes.append(BoundPass(scope.caller, call.start_point.row, callees[0], slot, value))

    def _decorator_applied(self, decorator: ts.Node, definition: ts.Node | None, scope: Scope) -> None:
        """`@pass_context` over `def f`: the decorator is called with f where the definition is (a call of the
        enclosing scope, as `@route("/")` is a call of `route` made there), and f is `DECORATED_BY` it: a call of f
        runs what the decorator returned (a wrapper runs first where the decorator's body calls what it is given)."""
        expression = decorator.named_children[0] if decorator.named_child_count else None
        name = node_text(definition.child_by_field_name("name")) if definition is not None else ""
        applied = expression is not None and expression.type in ("identifier", "attribute")
        if expression is not None and expression.type == "call":
            expression = expression.child_by_field_name("function")
        if expression is None or expression.type not in ("identifier", "attribute") or not name:
            return
        written = node_text(expression)
        if written in BUILTINS and not self._bound(written, scope):
            return  # @property, @staticmethod, @classmethod: the language's own
        if applied and (instances := self._called_instances(expression, scope)):
            self._instance_applied(instances, f"{scope.prefix}.{name}" if scope.prefix else name, decorator, scope)
            return
        target = self._expression_target(expression, scope)
        if target is None or target.resolution is Resolution.NAME:
            return
        decorated = f"{scope.prefix}.{name}" if scope.prefix else name
        row = decorator.start_point.row
        if not scope.in_function:  # a nested definition is part of the function it is in
            self.result.decorations.append(BoundCall(decorated, row, target))
        if applied:  # (a factory's call is among the decorator's calls: `_decorator_calls`)
            self.result.calls.append(BoundCall(scope.caller, row, target))
        innermost = decorator.next_named_sibling is not None and decorator.next_named_sibling == definition
        if not innermost or scope.in_function or standard(target.owner or target.name):
            return
        value = f"{self.module}.{decorated}{CALLED_MARK}"
        if not applied:  # `@recurse(Identifier)`: f is passed to what the call returns (`returned_parameters`)
            self.result.passes.append(BoundPass(scope.caller, row, target, passed_slot(f"{RETURNED_PLACE}0"), value))
            return
        signature = self.signatures.get(target.name) if target.form is TargetForm.QUALIFIED else None
        wrapped = signature.positional[0] if signature is not None and signature.positional else ""
        if signature is not None and wrapped in signature.untyped:
            # the innermost decorator is passed f: its wrapper calling `func(*args)` calls f (`passed_as` bounds how
            # many: a decorator applied more widely types nothing)
            self.saw_passed(target.name, wrapped, (DECORATED, f"{self.module}.{decorated}"))
        elif target.form is TargetForm.QUALIFIED and (signature is None or wrapped in self._foreign(target.name)):
            # another module's decorator is passed f, or one taking it as another module's type variable (`func: F`),
            # for the indexer to read (`PASSES`)
            self.result.passes.append(BoundPass(scope.caller, row, target, passed_slot(0), value))

    def _foreign(self, function: str) -> dict[str, str]:
        """`foreign_parameters` of one of the file's functions, by its qualified name."""
        definition = self.definitions.get(function)
        return self.foreign_parameters(definition) if definition is not None else {}

    def _instance_applied(self, instances: list[str], decorated: str, decorator: ts.Node, scope: Scope) -> None:
        """`@hookimpl` over `def f` with `hookimpl = HookimplMarker("x")`: the instance is called with f, so its
        class's `__call__` runs where the definition is, and f is decorated by it."""
        row = decorator.start_point.row
        for target in (called for held in instances for called in _instance_called(held)):
            if not scope.in_function:
                self.result.decorations.append(BoundCall(decorated, row, target))
            self.result.calls.append(BoundCall(scope.caller, row, target))

    def _calls_in_statement(self, node: ts.Node, scope: Scope, pending: list[ts.Node | Marker]) -> None:
        """Compound statements hold blocks (walked as blocks) and expressions (searched for calls); in the branch
        an `isinstance(x, Foo)` test guards, x is a Foo. What the statement assigns is typed after its own calls are
        bound (`regex = regex.get()` calls the `get` of what regex was); a variable an `if` without `else` leaves
        untyped has the type it had before after it."""
        self._implicit_calls(statement_runs(node), scope)
        self._raised(node, scope)
        self._imported_from(node, scope)
        narrowed, subclassed = self._narrowed(node, scope), self._subclass_narrowed(node, scope)
        if subclassed is not None and subclassed[2]:  # `if not issubclass(x, Base): raise ...`: past it, x derives
            pending.append(subclassed[0])
        if (guard := self.guarded(node, scope)) is not None:  # `if not isinstance(x, Foo): return`: past it, a Foo
            pending.append(guard)
        if node.type in BRANCHING and scope.in_function:
            pending.append(MergeHeld(node))
        if node.type == "if_statement" and not any(c.type == "else_clause" for c in node.named_children):
            # a branch that may not run: a variable it leaves untyped (`r = history.pop()`) keeps its type after it
            pending.extend(SetType(variable, typed, if_untyped=True) for variable, typed in sorted(scope.types.items()))
            pending.extend(KeepOpen(name, opened, False) for name, opened in sorted(scope.open_params.items()))
            pending.extend(KeepOpen(name, opened, True) for name, opened in sorted(scope.open_held.items()))
        for child in reversed(node.named_children):
            if subclassed is not None and not subclassed[2] and child == node.child_by_field_name("consequence"):
                pending.extend([subclassed[1], child, subclassed[0]])  # `if issubclass(x, Base):` x derives in it
            elif narrowed is not None and child == node.child_by_field_name("consequence"):
                pending.extend([narrowed[1], child, narrowed[0]])
            elif child.type == "block" or child.type.endswith("_clause") or child.type in DEFINITIONS:
                pending.append(child)
            else:
                self._calls_in(child, scope)
        if scope.in_function:
            self._assigned_references(node, scope)
        if scope.in_function or scope.cls is None:  # a function's locals, or a module's (a `__main__` demo)
            self._note_local_types(node, scope)
            self._note_loop_variable(node, scope)

    def _assigned_references(self, node: ts.Node, scope: Scope) -> None:
        """A function or class a function gives a variable (`key = keys.typedkey if typed else keys.hashkey`): it
        hands it on or calls it through the variable, so it references it (`REFERENCES`), as it would passing it."""
        inner = node.named_children[0] if node.type == "expression_statement" and node.named_child_count else None
        right = inner.child_by_field_name("right") if inner is not None and inner.type == "assignment" else None
        for value in either_side(right) if right is not None and right.type == "conditional_expression" else [right]:
            self._value_reference(value, scope, scope.caller)

    def _value_reference(self, value: ts.Node | None, scope: Scope, caller: str) -> None:
        """`caller` references the function or class `value` names, as `scope` binds the name (none for data)."""
        if value is None or value.type not in ("identifier", "attribute") or not self._held_value(value, scope):
            return
        target = self._expression_target(value, scope)
        if target is not None and target.resolution is not Resolution.NAME:
            self.result.references.append(BoundCall(caller, value.start_point.row, target))

    def _raised(self, node: ts.Node, scope: Scope) -> None:
        """`raise NotFound` (a class, not an instance): the class is called, its `__init__` runs."""
        value = node.named_children[0] if node.type == "raise_statement" and node.named_child_count else None
        if value is None or value.type not in ("identifier", "attribute"):
            return
        raised = self._held_value(value, scope)
        if named_as_class(raised):  # (the indexer checks it is one)
            held = value.type == "identifier" and node_text(value) in scope.held
            target = Target(TargetForm.QUALIFIED, raised, Resolution.INFERRED if held else Resolution.EXACT)
            self.result.calls.append(BoundCall(scope.caller, node.start_point.row, target))

    def _imported_from(self, node: ts.Node, scope: Scope) -> None:
        """`from .utils import echo`: the import runs the module's own `__getattr__` when it has one (the indexer
        tells a module from a package, and keeps the call only where the module defines it)."""
        module = imported_from(node, self.path)
        if module and module.split(".", 1)[0] not in sys.stdlib_module_names:
            target = Target(TargetForm.QUALIFIED, f"{module}{PATH_ASKED_MARK}", Resolution.EXACT)
            self.result.calls.append(BoundCall(scope.caller, node.start_point.row, target))

    def _walk_class(self, node: ts.Node, scope: Scope) -> None:
        name = node_text(node.child_by_field_name("name"))
        local = f"{scope.prefix}.{name}" if scope.prefix else name
        cls = self.classes.get(local)
        if cls is None:
            return
        row = node.start_point.row
        holder = node.child_by_field_name("superclasses")
        header = self._header_scope(node, scope)
        for place, base in enumerate(holder.named_children if holder is not None else []):
            if base.type in ("keyword_argument", "call"):  # `metaclass=make()`, `with_metaclass(M)`
                self._calls_in(base, header)
            if (metaclass := self._metaclass(base, scope)) is not None:  # what a class deriving from it is made by
                self.result.holds.append(BoundAttribute(local, f"__class__{CALLED_MARK}", metaclass))
            if base.type == "keyword_argument":
                continue
            generic = base.child_by_field_name("value") if base.type == "subscript" else None
            target = self._expression_target(generic or base, scope)  # `Base[T]`, `Generic[T]`: the class itself
            if target is not None and target.name != "object":
                self.result.bases.append(BoundBase(local, row, target, place))
                cls.derived = cls.derived or not standard(target.name)
                self.result.holds.extend(self._library_mixins(cls, target))
        body = node.child_by_field_name("body")
        if body is not None:  # a name of the class body is its own function there (`parseString = alias(parse_string)`)
            own = {name: f"{self.module}.{local}.{name}" for name in body_functions(body)}
            self._walk_block(body, Scope(caller=local, prefix=local, cls=cls, names=own))

    def _local_class(self, node: ts.Node, scope: Scope) -> None:
        """`class RequireSchema(Schema): ...` in a function: the class is the function's own code (no entity), so after
        it the name holds its first base (`RequireSchema()` constructs through Schema's `__init__`, an instance's
        `load()` is Schema's), but a method the class defines itself is its own: a call of it binds to nothing. A
        base that is a class attribute (`class DefaultCache(self.Cache)` in a test mixin) is whatever classes the
        attribute holds: calling the class calls `self.Cache`."""
        self._local_decorators(node, scope)
        name = node_text(node.child_by_field_name("name"))
        holder = node.child_by_field_name("superclasses")
        bases = [b for b in holder.named_children if b.type != "keyword_argument"] if holder is not None else []
        generic = bases[0].child_by_field_name("value") if bases and bases[0].type == "subscript" else None
        target = self._expression_target(generic or bases[0], scope) if bases else None
        scope.types.pop(name, None)
        scope.member_bases.pop(name, None)
        held = _held_base(target)
        if target is None or not held or held == "object":
            scope.held.pop(name, None)
            scope.local_classes.discard(name)
            return
        scope.held[name] = held
        scope.local_classes.add(name)
        scope.local_methods.setdefault(held, set()).update(defined_functions(node))
        if target.form is TargetForm.MEMBER:  # which classes the attribute holds is the indexer's to tell: the
            # hooks their class statement runs are not bound here
            scope.member_bases[name] = target
            return
        row = node.start_point.row  # the class statement runs the hook its bases' lookup has, and their metaclass
        made = next(filter(None, (self._metaclass(b, scope) for b in holder.named_children)), None) if holder else None
        for runs in (
            made or Target(TargetForm.QUALIFIED, f"{held}.__class__", Resolution.INFERRED),
            Target(TargetForm.MEMBER, "__init_subclass__", Resolution.INFERRED, owner=held, virtual=False),
        ):
            self.result.calls.append(BoundCall(scope.caller, row, runs))

    def _local_decorators(self, node: ts.Node, scope: Scope) -> None:
        """`@post_load` over a method of a class the function defines: applied when the class statement runs, a call
        the function makes (as at the top level, where the enclosing scope makes it)."""
        body = node.child_by_field_name("body")
        for decorated in (c for c in body.named_children if c.type == "decorated_definition") if body else ():
            definition = decorated.child_by_field_name("definition")
            for decorator in (d for d in decorated.named_children if d.type == "decorator"):
                self._decorator_applied(decorator, definition, scope)

    def _metaclass(self, base: ts.Node, scope: Scope) -> Target | None:
        """`metaclass=SchemaMeta` among a class statement's bases: the class it names, where the file can name it."""
        if base.type != "keyword_argument" or node_text(base.child_by_field_name("name")) != "metaclass":
            return None
        value = base.child_by_field_name("value")
        target = self._expression_target(value, scope) if value is not None else None
        return target if target is not None and target.form is TargetForm.QUALIFIED else None

    def _walk_function(self, node: ts.Node, scope: Scope) -> None:
        name = node_text(node.child_by_field_name("name"))
        header = self._header_scope(node, scope)
        for part in ("parameters", "return_type"):  # defaults and annotations run where the def is
            child = node.child_by_field_name(part)
            if child is not None:
                self._calls_in(child, header)
        body = node.child_by_field_name("body")
        if body is None or not name:
            return
        parameters = self._parameters(node)
        if scope.in_function:  # a nested function is part of the function it is in
            inner = _nested_scope(scope, name)
            inner.own.update(local_names(node))
        else:
            method = scope.cls is not None and scope.prefix == scope.cls.local
            caller = f"{scope.prefix}.{name}" if scope.prefix else name
            receiver = next(iter(parameters), "") if method and not is_static(node) else ""
            inner = Scope(caller, caller, scope.cls if method else None, receiver, {}, True)
            inner.own.update(local_names(node))
            inner.nested.update(defined_functions(node))
            inner.plain.update(nested_functions(node))
            if self.module_held or self.module_types or self.module_elements or self.module_items:  # what the
                own = local_names(node)  # module's own names hold, where nothing shadows them
                inner.held.update({n: held for n, held in self.module_held.items() if n not in own})
                inner.types.update({n: typed for n, typed in self.module_types.items() if n not in own})
                inner.elements.update({n: kind for n, kind in self.module_elements.items() if n not in own})
                inner.items.update({n: item for n, item in self.module_items.items() if n not in own})
        inner.types.update({p: t for p, t in parameters.items() if t})
        inner.constructed.update(constructed_locals(node))
        if not scope.in_function and receives_fixtures(node, self.path):
            self._receive_parameters(node, scope, inner)
        inner.held.update(self.held_parameters(node))
        inner.fixed.update(self.fixed_defaults(node))
        inner.bounded.update(name for name, annotation in parameter_nodes(node) if held_class_name(annotation))
        inner.kept.update(set(parameters) - body_names(node))
        inner.elements.update(self.element_parameters(node))
        inner.element_unions.update(self.element_union_parameters(node))
        inner.held_elements.update(self.held_element_parameters(node))
        inner.element_items.update(self.element_item_parameters(node))
        inner.items.update(self.item_parameters(node))
        inner.keys.update(self.key_parameters(node))
        inner.alternatives.update(self.passed_several(node, INSTANCE))
        inner.alternatives.update(self.union_parameters(node))  # what the code states over what one file passes
        inner.callables.update(self.passed_several(node, HELD))
        inner.wrapped.update(self.wrapped_parameters(node))
        inner.generators.update(self.generator_parameters(node))
        for name in inner.callables:  # what is passed says more than `Callable[...]`
            inner.types.pop(name, None)
        self._type_unstated(node, scope, inner)
        self._open_to_callers(node, scope, inner, parameters)
        self._default_references(node, header, inner.caller)
        self.note_defaults(node, header)
        self._walk_block(body, inner)

    def _open_to_callers(self, node: ts.Node, scope: Scope, inner: Scope, parameters: dict[str, str]) -> None:
        """The function's parameters the indexer reads by what callers in any file pass them: those nothing here
        types, those holding a function or class besides, those given several values, a `*args` one's elements."""
        inner.open_params.update(self._opened(node, scope, inner, parameters))
        inner.open_held.update(self._opened_held(node, scope, inner, parameters))
        inner.passed_on.update(self._passed_on(node, scope, inner, parameters))
        inner.open_stars.update(self._open_stars(node, scope, parameters))

    def _type_unstated(self, method: ts.Node, scope: Scope, inner: Scope) -> None:
        """What a method's parameters nothing states are by what it is: an override's, what the method it overrides
        says of them (`_overriding`); a visitor's, the node it is named for (`_type_visited`)."""
        if not scope.in_function and inner.cls is not None and inner.cls.derived:
            inner.types.update(self._overriding(method, inner))
        self._type_visited(method, inner)

    def _type_visited(self, method: ts.Node, inner: Scope) -> None:
        """A visitor's method named for a node class (`visit_FuncDef(self, n)`, `python_visitors`): its first
        parameter after the receiver, where nothing else types it, is an instance of that class."""
        visited = visited_class(node_text(method.child_by_field_name("name")))
        parameters = [name for name, annotation in parameter_nodes(method) if annotation is None]
        first = parameters[1] if visited and len(parameters) > 1 and parameters[0] == inner.receiver else ""
        if not first or first in _typed_names(inner) or inner.cls is None:
            return
        bases = self.file_bases.get(inner.cls.qualified, [])
        candidates = visited_candidates(visited, self.names, self.module, bases)
        if len(candidates) == 1:
            inner.types[first] = candidates[0]
        elif candidates:
            inner.alternatives[first] = candidates

    def _default_references(self, node: ts.Node, header: Scope, caller: str) -> None:
        """A parameter's default that is a function or class (`key=keys.hashkey`): the function hands it on or calls
        it wherever no caller passes another, so it references it (`REFERENCES`, from the function)."""
        for _, default in parameter_defaults(node):
            self._value_reference(default, header, caller)

    def _opened(self, node: ts.Node, scope: Scope, inner: Scope, parameters: dict[str, str]) -> dict[str, str]:
        """The function's parameters nothing here types, as the indexer reads what calls pass them; in a nested
        function, the enclosing one's, but those its own parameters hide."""
        if scope.in_function:  # (the function a decorator factory returns is passed what it decorates)
            opened = {n: o for n, o in scope.open_params.items() if n not in parameters}
            return opened | {n: o for n, o in self.returned_parameters(node).items() if n not in inner.types}
        known = _typed_names(inner)
        return {n: o for n, o in self.open_parameters(node).items() if n not in known}

    def _opened_held(self, node: ts.Node, scope: Scope, inner: Scope, parameters: dict[str, str]) -> dict[str, str]:
        """The function's unannotated parameters holding a function or class by their default or by what this file
        passes (`key=keys.hashkey`), and those annotated with a name of another module (`foreign_parameters`), as
        the indexer reads what calls in any file pass them besides; in a nested function, the enclosing one's, but
        those its own parameters hide."""
        if scope.in_function:
            return {n: o for n, o in scope.open_held.items() if n not in parameters}
        held = {n: o for n, o in self.open_parameters(node).items() if n in inner.held}
        return {n: o for n, o in (self.foreign_parameters(node) | held).items() if n not in inner.bounded}

    def _passed_on(self, node: ts.Node, scope: Scope, inner: Scope, parameters: dict[str, str]) -> dict[str, str]:
        """The function's parameters this file's calls pass several values (`_typed_names` but one type), as the
        indexer reads what calls in any file pass them; in a nested function, the enclosing one's, but those its own
        parameters hide."""
        if scope.in_function:
            return {n: o for n, o in scope.passed_on.items() if n not in parameters}
        several = inner.callables.keys() | inner.alternatives.keys() | inner.wrapped.keys() | inner.generators.keys()
        return {n: o for n, o in self.open_parameters(node).items() if n in several and n not in inner.open_params}

    def _open_stars(self, node: ts.Node, scope: Scope, parameters: dict[str, str]) -> dict[str, str]:
        """The function's `*args` parameter, as the indexer reads what its elements hold; in a nested function, the
        enclosing one's, but those its own parameters hide."""
        if scope.in_function:
            return {n: o for n, o in scope.open_stars.items() if n not in parameters}
        return self.open_star(node)

    def _receive_parameters(self, node: ts.Node, scope: Scope, inner: Scope) -> None:
        """What pytest gives a test's (or fixture's) parameters: the cases `@pytest.mark.parametrize` writes (a
        function a case gives is the test's to run: it references it), else the fixture of the parameter's name."""
        cases = parametrized(node)
        for value in case_items([v for p in sorted(cases) for v in cases[p]]):  # (annotated parameters too)
            self._value_reference(value, scope, inner.caller)
        for p in fixture_names(parameter_nodes(node), inner.receiver):
            if p in cases:
                self._receive_cases(p, cases[p], inner)
            else:
                self._receive_fixture(p, inner)

    def _receive_cases(self, name: str, values: list[ts.Node], inner: Scope) -> None:
        """A test's parameter `@pytest.mark.parametrize` gives (no fixture): the class its cases all name is what it
        holds (`[UserSchema, UserMetaSchema]`: each, `SchemaClass()` constructs one of them); the class each case
        constructs is its type (`[Path("a"), Group("b")]`: one of them); anything else types nothing."""
        if values and all(v.type in ("identifier", "attribute") for v in values):
            targets = [self._expression_target(v, inner) for v in values]
            held = sorted({t.name for t in targets if t is not None and t.form is TargetForm.QUALIFIED})
            if len(held) == len(set(map(node_text, values))) and all(named_as_class(h) for h in held):
                if len(held) == 1:
                    inner.held[name] = held[0]
                else:
                    inner.callables[name] = held
            return
        made = sorted({self.declared_or_made(None, v, inner.types, inner) if v.type == "call" else "" for v in values})
        if len(made) == 1 and made[0]:
            inner.types[name] = made[0]
        elif made and all(made):
            inner.alternatives[name] = made

    def _receive_fixture(self, name: str, inner: Scope) -> None:
        """A test's (or fixture's) parameter is the value of the fixture of its name: its class's own fixture, else
        the module's, else a base test class's or a conftest's. What the fixture returns types it; a fixture returning
        a class or a partial of one (`partial(TimedSerializer, secret_key=...)`) makes the parameter that class, which
        a call constructs."""
        cls = inner.cls.qualified if inner.cls is not None else ""
        if cls and name in self.class_fixtures.get(cls, {}):
            fixture = f"{cls}.{self.class_fixtures[cls][name]}"
        elif name in self.fixtures:  # (`@pytest.fixture(name="proxy")` over `def _proxy()`: that function)
            fixture = f"{self.module}.{self.fixtures[name]}"
        elif inner.cls is not None and inner.cls.derived:
            # a fixture a base test class defines, in this file or another (`class TestTimestampSigner(TestSigner)`
            # takes `signer` from test_signer.py), else a conftest's: the indexer finds the one that exists
            inner.alternatives[name] = [f"{cls}.{name}", conftest_fixture(self.module, name)]
            return
        else:
            inner.types[name] = conftest_fixture(self.module, name)
            return
        # (a fixture's parameter of its own name is the fixture it overrides: a plugin's, or a wider conftest's)
        if (held := self.returned_held.get(fixture)) and inner.caller.rpartition(".")[2] != name:
            inner.held[name] = held
        else:
            inner.types[name] = fixture

    def _overriding(self, method: ts.Node, inner: Scope) -> dict[str, str]:
        """Parameter -> what the method it may override says it holds, for the indexer to read (`Class.m@(p)`): each
        parameter of a method of a derived class that nothing here types (no annotation, no value this file passes,
        not the receiver)."""
        known = _typed_names(inner)
        opened = self.open_parameters(method)
        return {
            name: opened[name]
            for name, annotation in parameter_nodes(method)
            if annotation is None and name not in known and name in opened
        }

    def _calls_in(self, node: ts.Node, scope: Scope) -> None:
        """The calls, implicit runs, references and reads in an expression; a comprehension's variable is typed by
        the elements of what it iterates (`[x.as_const() for x in self.items]`; over a `*fns` parameter, each holds
        what callers pass there)."""
        nodes = expression_nodes(node)
        guarded = self.narrowed_parts(nodes, scope) if scope.in_function else []
        nodes = [n for n in nodes if not any(p.start_byte <= n.start_byte < p.end_byte for p, _, _ in guarded)]
        typed = self._comprehension_types(nodes, scope)
        several = {n: c for n, c in self.comprehension_alternatives(nodes, scope).items() if n not in typed}
        starred = {n: o for n, o in self.comprehension_stars(nodes, scope).items() if n not in typed}
        with (
            _meanwhile(scope.types, typed),
            _meanwhile(scope.alternatives, several),
            _meanwhile(scope.open_params, starred),
        ):
            self._calls_in_expression(nodes, scope)
        for part, variable, classes in guarded:  # `isinstance(x, Foo) and x.m()`: x is a Foo there
            one = {variable: classes[0]} if len(classes) == 1 else {}
            with _meanwhile(scope.types, one), _meanwhile(scope.alternatives, {} if one else {variable: classes}):
                self._calls_in(part, scope)

    def _calls_in_expression(self, nodes: list[ts.Node], scope: Scope) -> None:
        self._implicit_calls(expression_runs(nodes), scope)
        self._hashed_keys(nodes, scope)
        self._hashed_elements(nodes, scope)
        self._mapped_constructions(nodes, scope)
        for call in (n for n in nodes if n.type == "call"):
            targets = self._call_targets(call, scope)
            for target in targets:
                self.result.calls.append(BoundCall(scope.caller, call.start_point.row, target))
            self._passes(call, targets, scope)
            self._references_in(call, scope)
            self._note_passed(call, scope)
            self._note_mutated(call, scope)
            if (looked_up := self._built_name(call, scope)) is not None:
                self.result.references.append(BoundCall(scope.caller, call.start_point.row, looked_up))
        reads = [(n, read) for n in nodes if n.type == "attribute" for read in self._attribute_reads(n, scope)]
        reads += [(call, self._named_read(call, scope)) for call in nodes if call.type == "call"]
        for read, found in reads:
            if found is None:
                continue
            target, runs = found
            kept = self.result.calls if runs else self.result.references
            kept.append(BoundCall(scope.caller, read.start_point.row, target))

    def _named_read(self, call: ts.Node, scope: Scope) -> tuple[Target, bool] | None:
        """`getattr(parent, "meta", {})`: the member read, as `parent.meta` reads it."""
        found = named_lookup(call)
        if found is None or self._bound("getattr", scope):
            return None
        return self._member_read(found[0], found[1], scope)

    def _attribute_reads(self, node: ts.Node, scope: Scope) -> list[tuple[Target, bool] | None]:
        """`self.eta` or `obj.eta` read (not called, not assigned) on a value whose class is known: a property of a
        class of this file runs its getter (a call); a member of a class defined elsewhere, or a method read as a
        value, is how control may reach it (a reference: the indexer keeps it only when it names a method). One read
        per class a name may hold (`item` passed an `Item` here and a `Table` there, then `item.trivia`)."""
        parent = node.parent
        if parent is not None and parent.type == "call" and parent.child_by_field_name("function") == node:
            return []
        if parent is not None and parent.type == "delete_statement":
            return []
        owner, member = node.child_by_field_name("object"), node_text(node.child_by_field_name("attribute"))
        written = parent is not None and parent.type in ("assignment", "augmented_assignment")
        if written and parent is not None and parent.child_by_field_name("left") == node:
            return self._property_written(owner, member, scope) if owner is not None else []
        if owner is None:
            return []
        if owner.type == "identifier" and _alternatives(node_text(owner), scope) and not member.startswith("__"):
            return [self._typed_read(typed, member) for typed in scope.alternatives[node_text(owner)]]
        found = self._member_read(owner, member, scope)
        if found is None and (guess := self._property_guess(owner, member, scope)) is not None:
            return [guess]
        return [found, *self._getter_through(found)]

    def _property_guess(self, owner: ts.Node, member: str, scope: Scope) -> tuple[Target, bool] | None:
        """`tagMap.presentTypes` on a value whose class the code does not state: a guess (`name`) at the getter of
        the project's one property of that name, which the indexer keeps only where one entity of the project has
        the name and a class states it as its property (`GETTER_MARK`). None where the file gives some object an
        attribute of that name (`self.name = name`: a read of it is as likely that), and on a name the file binds
        (a module, a class: their members are no instance's) or the receiver, whose reads are known."""
        if not member or member.startswith("__") or any(member in c.attributes for c in self.classes.values()):
            return None
        name = node_text(owner) if owner.type == "identifier" else ""
        if name and (name == scope.receiver or name in scope.held or self._bound(name, scope)):
            return None
        if owner.type == "call" and is_super(owner):
            return None
        return Target(TargetForm.NAME, f"{member}{GETTER_MARK}", Resolution.NAME), True

    def _property_written(self, owner: ts.Node, member: str, scope: Scope) -> list[tuple[Target, bool] | None]:
        """`self.columns = columns` where the class (or a base of this file) gives the property `columns` a setter
        (`@columns.setter`): the write runs the setter, a call of the property (one entity with its getter); the
        same on a value of one of this file's classes (inferred). Nothing for any other write."""
        own = scope.cls is not None and owner.type == "identifier" and node_text(owner) == scope.receiver
        cls = scope.cls if own else self.by_qualified.get(self._receiver_type(owner, scope))
        resolution = Resolution.EXACT if own else Resolution.INFERRED
        if cls is None or not any(member in c.setters for c in self.file_lineage(cls)):
            return []
        return [(Target(TargetForm.MEMBER, member, resolution, owner=cls.qualified), True)]

    def _getter_through(self, found: tuple[Target, bool] | None) -> list[tuple[Target, bool]]:
        """The `__get__` a property's read runs first where the property's class is one of this file deriving from
        `property` and defining its own (toolz's `InstanceProperty`)."""
        target = found[0] if found is not None and found[1] else None
        if target is None or target.form is not TargetForm.MEMBER or not target.owner:
            return []
        through = self.by_local(target.owner).getters_through.get(target.name)
        return [(Target(TargetForm.MEMBER, "__get__", Resolution.INFERRED, owner=through), True)] if through else []

    def _member_read(self, owner: ts.Node, member: str, scope: Scope) -> tuple[Target, bool] | None:
        """A member read on a value whose class is known (see `_attribute_reads`)."""
        if not member or member.startswith("__"):
            return None
        if owner.type == "identifier" and scope.cls is not None and node_text(owner) == scope.receiver:
            return self._class_read(scope.cls, member, Resolution.EXACT)
        if owner.type == "call" and is_super(owner) and scope.cls is not None:  # `rel = super().release`: the
            after = self.super_owner(owner, scope)
            target = Target(TargetForm.MEMBER, member, Resolution.EXACT, owner=after, after_owner=True)
            bases = list(self.file_lineage(self.by_qualified.get(after, scope.cls)))[1:]  # a base's getter (a call)
            return target, any(member in base.properties for base in bases)
        typed = self.passed_type(owner, scope)  # (an untyped parameter's: as the indexer reads its values or uses)
        return self._typed_read(typed, member) if typed else None

    def _typed_read(self, typed: str, member: str) -> tuple[Target, bool] | None:
        """A member read on a value of the class `typed` (inferred)."""
        local = typed.removeprefix(f"{self.module}.") if typed.startswith(f"{self.module}.") else ""
        cls = self.classes.get(local) if local else None
        if cls is None:  # a class of another file: only the indexer knows what the member is
            return Target(TargetForm.MEMBER, member, Resolution.INFERRED, owner=typed), False
        return self._class_read(cls, member, Resolution.INFERRED)

    def _class_read(self, cls: ClassFacts, member: str, resolution: Resolution) -> tuple[Target, bool] | None:
        """A member read on a value of one of this file's classes: its getter's call for a property."""
        target = Target(TargetForm.MEMBER, member, resolution, owner=cls.qualified)
        if member in cls.properties:
            return target, True
        if member in cls.descriptors and member not in cls.methods:  # `ins.metadata_version`: its `__get__`
            return Target(TargetForm.MEMBER, "__get__", Resolution.INFERRED, owner=cls.descriptors[member]), True
        if member in cls.methods or (member not in cls.attributes and member not in cls.declared):
            return target, False  # a method taken as a value, or a member a base class defines
        return None

    def _references_in(self, call: ts.Node, scope: Scope) -> None:
        """A function, method or class passed as an argument (`submit(self._done)`, `map(parse, xs)`, `key=by_name`,
        `fields.List(fields.String)`, `Tuple([DateTime, Integer])`): how control reaches it (a class handed on is
        constructed where it is called). Only a name the code binds counts (a definition, an import, a member of the
        receiver's class or a stated type); a bare variable is data far more often than a callback. A builtin that
        asks about what it is given (`isinstance(x, Tuple)`) hands nothing on, but reads what it is given (a
        property's value, `getattr(self.file, "encoding")`)."""
        arguments = call.child_by_field_name("arguments")
        if arguments is None or arguments.type != "argument_list":
            return
        inspects = self._inspects(call, scope)
        for value in _handed(arguments):
            if inspects:
                self._read_as_argument(value, scope)
                continue
            if value.type == "call" and (made := self._held_value(value, scope)):
                # `sorted(xs, key=natsort_keygen(alg))`, `map(partial(parse, strict=True), xs)`: the function (or
                # class) that call gives is handed on to be called
                handed = Target(TargetForm.QUALIFIED, made, Resolution.INFERRED)
                self.result.references.append(BoundCall(scope.caller, value.start_point.row, handed))
            if value.type not in ("identifier", "attribute"):
                continue
            target = self._expression_target(value, scope)
            if target is not None and target.resolution is not Resolution.NAME:
                self.result.references.append(BoundCall(scope.caller, value.start_point.row, target))
            if (passed := _passed_on(value, target, scope)) is not None:  # `filter(pred, xs)`, `wrap(func, key)`
                self.result.references.append(BoundCall(scope.caller, value.start_point.row, passed))

    def _read_as_argument(self, value: ts.Node, scope: Scope) -> None:
        """A member of a value read as an argument (`getattr(self.file, "encoding")`: a property runs its getter)."""
        target = self._expression_target(value, scope) if value.type == "attribute" else None
        if target is not None and target.form is TargetForm.MEMBER and target.resolution is not Resolution.NAME:
            self.result.references.append(BoundCall(scope.caller, value.start_point.row, target))

    def _inspects(self, call: ts.Node, scope: Scope) -> bool:
        """A builtin or standard function asking about what it is given (`isinstance(x, Tuple)`, `callable(f)`,
        `typing.cast(Foo, x)`, `inspect.signature(f)`), which it never calls or constructs."""
        function = call.child_by_field_name("function")
        if function is None or function.type not in ("identifier", "attribute"):
            return False
        head, dot, rest = node_text(function).partition(".")
        bound = self._bound(head, scope)
        if not bound:
            return not dot and head in INSPECTING  # a builtin the file does not bind to something else
        qualified = f"{bound}{dot}{rest}"  # (`cast` imported from typing, `t.cast`, `inspect.signature`)
        return qualified == "typing.cast" or qualified.startswith("inspect.")

    def _call_targets(self, call: ts.Node, scope: Scope) -> list[Target]:
        """A call's target; one per type when the class gives the receiving attribute several (each inferred)."""
        function = call.child_by_field_name("function")
        if function is not None and (looked_up := self._looked_up(function, scope)) is not None:
            return [looked_up]
        if (metaclass_made := self._metaclass_made(call, scope)) is not None:
            return metaclass_made
        owner = (
            function.child_by_field_name("object") if function is not None and function.type == "attribute" else None
        )
        if (several := self._held_several(function, scope)) is not None:  # `self.add = a` or `b`, then `self.add()`
            return several
        types = self._attribute_types(owner, scope) if owner is not None else []
        if owner is not None and owner.type == "identifier" and _alternatives(node_text(owner), scope):
            types = scope.alternatives[node_text(owner)]  # `h = A() if c else B()`, then `h.run()`
        if owner is not None and owner.type == "call" and (made := self._union_returned(owner, scope)):
            types = made  # `SchemaClass().dump()`, the parameter one of several classes; `make().run()`, `-> A | B`
        if function is not None and len(types) > 1:
            member = node_text(function.child_by_field_name("attribute"))
            return [Target(TargetForm.MEMBER, member, Resolution.INFERRED, owner=t) for t in types]
        if (
            owner is not None
            and function is not None
            and not types
            and (members := self._members_of_held(owner, function, scope))
        ):
            return members  # `_STYLE_MAP[style].parse(text)`, `for module in _STYLE_MAP.values(): module.parse(text)`
        if function is not None and (
            callables := held_callables(function, scope)
        ):  # `run(f)` and `run(g)`, then `fn()`
            return [Target(TargetForm.QUALIFIED, c, Resolution.INFERRED) for c in callables]
        if function is not None and (wrapped := _wrapped(function, scope)):  # `@optimizeconst` over ten methods
            return [Target(TargetForm.QUALIFIED, w, Resolution.DISPATCH) for w in wrapped]
        if function is not None and function.type == "subscript":  # `HANDLERS[kind](x)`
            held, resolution = self.table_called(function, scope)
            if held:
                return [Target(TargetForm.QUALIFIED, h, resolution) for h in held]
            value = function.child_by_field_name("value")
            if imported := self.imported_name(node_text(value) if value is not None else "", scope):
                return [Target(TargetForm.QUALIFIED, f"{imported}{TABLE_MARK}", Resolution.DISPATCH)]  # another file's
        if function is not None and (picked := picked_items(function, scope)):  # `cls = DECODERS[kind]`, then `cls()`
            return [Target(TargetForm.QUALIFIED, p, Resolution.DISPATCH) for p in picked]
        if function is not None and function.type == "call" and (picked := self.table_picked(function, scope)):
            return [Target(TargetForm.QUALIFIED, p, Resolution.DISPATCH) for p in picked]  # `TABLE.get(k)(x)`
        if function is not None and (returned := self._property_called(function, scope)):  # `self.timer()`
            getter = self._call_target(call, scope)
            called = Target(TargetForm.MEMBER, "__call__", Resolution.INFERRED, owner=returned)
            return [called] if getter is None else [getter, called]
        if function is not None and (instances := self._called_instances(function, scope)):
            return [called for t in instances for called in _instance_called(t)] + _held_besides(function, scope)
        target = self._call_target(call, scope)
        if target is not None and function is not None and (opened := _opened_call(function, target, scope)):
            return opened  # `key(*args)`
        if target is not None and function is not None and (bound := self._bounded_class(function, scope)):
            return _class_value_called(target, bound, function, scope)  # `cls(...)`: the class, or one below it
        if target is not None and function is not None and (starred := self._star_targets(target, function, scope)):
            return starred  # `Regex(...)` in pyparsing's common.py, after `from .core import *`
        return [target] if target is not None else []

    def _metaclass_made(self, call: ts.Node, scope: Scope) -> list[Target] | None:
        """In a metaclass's `__call__` (a class deriving from `type`), `type.__call__(cls, ...)` or
        `super().__call__(...)` constructs a class the metaclass makes: the one a name binds as the first argument,
        else any of them, as the indexer lists them (`MADE_BY_MARK`: mako's `_TagMeta` constructs the `Tag` subclass
        its keyword names). None for any other call."""
        function = call.child_by_field_name("function")
        cls = scope.cls
        if cls is None or function is None or function.type != "attribute" or not scope.caller.endswith(".__call__"):
            return None
        owner = function.child_by_field_name("object")
        if node_text(function.child_by_field_name("attribute")) != "__call__" or owner is None:
            return None
        if not (node_text(owner) == "type" or (owner.type == "call" and is_super(owner))):
            return None
        if not any(c.qualified in self.metaclasses for c in self.file_lineage(cls)):
            return None
        arguments = call.child_by_field_name("arguments")
        first = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
        if node_text(owner) == "type" and first is not None and node_text(first) != scope.receiver:
            named = self._expression_target(first, scope) if first.type in ("identifier", "attribute") else None
            if named is not None and named.form is TargetForm.QUALIFIED and named.resolution is not Resolution.NAME:
                return [named]  # `type.__call__(CallNamespaceTag, ...)`
        return [Target(TargetForm.QUALIFIED, f"{cls.qualified}{MADE_BY_MARK}", Resolution.DISPATCH)]

    def _star_targets(self, target: Target, function: ts.Node, scope: Scope) -> list[Target]:
        """A name the file binds nowhere, called where it imports every name of some modules (`from .core import
        *`): that name in each of them (the indexer keeps those that exist); [] for a builtin, a local or a
        parameter, a member of a value (`e.ignore()` names no module's `ignore`), or where the file imports no module
        so."""
        if target.form is not TargetForm.NAME or function.type != "identifier":
            return []
        name = target.name
        local = name in scope.types or name in scope.open_params or name in scope.open_held or name in scope.callables
        local = local or name in scope.own  # (`for helper in handlers: helper()`)
        if not self.star_modules or local or name in BUILTINS or name == scope.receiver or not name.isidentifier():
            return []
        return [Target(TargetForm.QUALIFIED, f"{module}.{name}", Resolution.EXACT) for module in self.star_modules]

    def _members_of_held(self, owner: ts.Node, function: ts.Node, scope: Scope) -> list[Target]:
        """A member called on a value that is one of several modules, classes or functions the code states: an item
        of a table (`_STYLE_MAP[style].parse(text)`, docstring_parser's style modules: the item the key holds, or
        any of them), a variable a loop or a table pick gives one of them; [] for anything else."""
        member = node_text(function.child_by_field_name("attribute"))
        if owner.type == "subscript":
            held, resolution = self.table_called(owner, scope)
        elif owner.type == "identifier" and (held := held_callables(owner, scope)):
            resolution = Resolution.INFERRED
        elif owner.type == "identifier" and (held := picked_items(owner, scope)):
            resolution = Resolution.DISPATCH
        else:
            return []
        return [Target(TargetForm.QUALIFIED, f"{h}.{member}", resolution) for h in held if not h.endswith(TABLE_MARK)]

    def _bounded_class(self, function: ts.Node, scope: Scope) -> str:
        """The class a called value is or derives from, where it may be a subclass: `cls` in a classmethod, a
        parameter annotated `type[Base]`, `type(self)`, `self.__class__`; "" for anything else (`Foo(...)` makes a
        Foo)."""
        name = node_text(function) if function.type == "identifier" else ""
        if name and scope.cls is not None and name == scope.receiver == "cls":
            return scope.cls.qualified
        if name in scope.bounded and name in scope.held:
            return scope.held[name]
        if function.type in ("call", "attribute"):
            return self.class_of(function, scope)
        return ""

    def _held_several(self, function: ts.Node | None, scope: Scope) -> list[Target] | None:
        """`self.add(...)` where the class's branches give the attribute different functions or classes to hold: a
        call of each (inferred); None for any other call."""
        owner = (
            function.child_by_field_name("object") if function is not None and function.type == "attribute" else None
        )
        if owner is None or scope.cls is None or node_text(owner) != scope.receiver or function is None:
            return None
        member = node_text(function.child_by_field_name("attribute"))
        if member in scope.cls.methods or member not in scope.cls.held_too:
            return None
        return [Target(TargetForm.QUALIFIED, held, Resolution.INFERRED) for held in scope.cls.holding(member)]

    def _property_called(self, function: ts.Node, scope: Scope) -> str:
        """The class of what a property of the receiver's class gives, where the call calls that value
        (`self.timer()` with `timer` a property returning a `_Timer`): its `__call__` runs after the getter."""
        owner = function.child_by_field_name("object") if function.type == "attribute" else None
        if owner is None or scope.cls is None or owner.type != "identifier" or node_text(owner) != scope.receiver:
            return ""
        returned = self.inherited_property_returns(scope.cls, node_text(function.child_by_field_name("attribute")))
        return returned if returned and not standard(returned.partition(ATTRIBUTE_MARK)[0]) else ""

    def _called_instances(self, function: ts.Node, scope: Scope) -> list[str]:
        """The types of an instance called like a function (`convert(value)` with `convert = ParamType()`,
        `self.type(value)` where the class states the attribute's type): its `__call__` runs."""
        if function.type == "identifier":
            name = node_text(function)
            held = name in scope.held or (scope.cls is not None and name == scope.receiver)
            if _alternatives(name, scope):
                return scope.alternatives[name]
            return [scope.types[name]] if name in scope.types and not held else []
        owner = function.child_by_field_name("object") if function.type == "attribute" else None
        if owner is None or scope.cls is None or owner.type != "identifier" or node_text(owner) != scope.receiver:
            return []
        member = node_text(function.child_by_field_name("attribute"))
        if member in scope.cls.methods or member in scope.cls.held:
            return []
        return self._attribute_types(function, scope)

    def _call_target(self, call: ts.Node, scope: Scope) -> Target | None:
        function = call.child_by_field_name("function")
        if function is None:
            return None
        name = node_text(function) if function.type == "identifier" else ""
        local = (scope.types, scope.held, scope.open_params, scope.open_held)  # (a parameter named `callable`)
        if name and name in BUILTINS and not self._bound(name, scope) and not any(name in found for found in local):
            return None  # a builtin: nothing any project defines
        if scope.cls is not None and scope.in_function and name == scope.receiver == "self":  # `return self(buf)`
            return Target(TargetForm.MEMBER, "__call__", Resolution.EXACT, owner=scope.cls.qualified)
        return self._expression_target(function, scope)

    def _name_target(self, name: str, scope: Scope) -> Target | None:
        """What calling a bare name calls."""
        if scope.cls is not None and name == scope.receiver == "cls":  # `cls(...)` in a classmethod
            return Target(TargetForm.QUALIFIED, scope.cls.qualified, Resolution.EXACT)
        if name in scope.member_bases:  # `class DefaultCache(self.Cache)`, then `DefaultCache(...)`
            return scope.member_bases[name]
        if name in scope.held:  # `cls = Option` or `cls: type[Option]`, then `cls(...)`
            return _held_target(name, scope)
        if name in scope.types or (scope.in_function and name == scope.receiver):
            return Target(TargetForm.NAME, name, Resolution.NAME)
        if name in scope.nested and name not in scope.names:  # its own nested `def`, not the module's: part of its
            # code, which a nested `def` calling itself (`yield from scan(child)` in `scan`) runs again: a recursion
            recursion = Target(TargetForm.QUALIFIED, f"{self.module}.{scope.caller}", Resolution.EXACT)
            return recursion if name in scope.within else None
        if self._bound(name, scope):
            return Target(TargetForm.QUALIFIED, self._bound(name, scope), Resolution.EXACT)
        return Target(TargetForm.NAME, name, Resolution.NAME) if name else None

    def _expression_target(self, node: ts.Node, scope: Scope) -> Target | None:
        if node.type == "identifier":
            return self._name_target(node_text(node), scope)
        if node.type == "call":  # `type(self)(...)`, `make_handler()(...)`: what the call gives, called
            made = self.class_of(node, scope) or self._held_value(node, scope)
            if made:
                return Target(TargetForm.QUALIFIED, made, Resolution.INFERRED)
            made = self._constructed(node, scope)  # `Length(3, 5)("foo")`: the `__call__` of exactly that class
            if made and named_as_class(made) and self._made(node, scope) == made:
                return Target(TargetForm.MEMBER, "__call__", Resolution.INFERRED, owner=made, virtual=False)
            given = self._value_type(node, scope.types, scope)  # `compose(f, g)(x)`: what the call returns, called
            if given and not standard(given.partition(ATTRIBUTE_MARK)[0]):
                return Target(TargetForm.MEMBER, "__call__", Resolution.INFERRED, owner=given)
            return None
        if node.type != "attribute":
            return None
        member = node_text(node.child_by_field_name("attribute"))
        owner = node.child_by_field_name("object")
        if not member or owner is None:
            return None
        if (made := self.class_of(node, scope)) and member == "__class__":
            return Target(TargetForm.QUALIFIED, made, Resolution.INFERRED)
        if owner.type == "identifier" and scope.cls is not None and node_text(owner) == scope.receiver:
            if member in scope.cls.held and member not in scope.cls.methods:  # `context_class = Context`
                return Target(TargetForm.QUALIFIED, scope.cls.held[member], Resolution.INFERRED)
            return Target(TargetForm.MEMBER, member, Resolution.EXACT, owner=scope.cls.qualified)
        if owner.type == "call" and is_super(owner) and scope.cls is not None:
            return Target(
                TargetForm.MEMBER, member, Resolution.EXACT, owner=self.super_owner(owner, scope), after_owner=True
            )
        held = owner.type == "identifier" and node_text(owner) in scope.held and node_text(owner) not in scope.types
        if held and member in scope.local_methods.get(scope.held[node_text(owner)], ()):
            return None  # a method of a class this function defines: its own code
        if held:  # `_S = Segment`, `_S.apply_style()` (not since narrowed by an `isinstance` test)
            return Target(TargetForm.QUALIFIED, f"{scope.held[node_text(owner)]}.{member}", Resolution.INFERRED)
        typed = self.passed_type(owner, scope)
        held_by = self.by_qualified.get(typed) if typed else None
        if held_by is not None and member in held_by.held and member not in held_by.methods:
            return Target(TargetForm.QUALIFIED, held_by.held[member], Resolution.INFERRED)  # `env.context_class()`
        if typed and member in scope.local_methods.get(typed, ()):
            return None  # a method of a class this function defines: its own code
        if typed:  # (on a local every binding of which constructs that class: exactly it, no subclass's override)
            made = scope.constructed.get(node_text(owner), "") if owner.type == "identifier" else ""
            exact = bool(made) and typed in (self._named_type(made), _local_base(made, scope))
            exact = exact or _local_base(_called_name(owner), scope) == typed  # `Local().load()`
            inline = self._constructed(owner, scope) if owner.type == "call" else ""  # `String().serialize(...)`
            exact = exact or (bool(inline) and named_as_class(inline) and typed == inline)
            return Target(TargetForm.MEMBER, member, Resolution.INFERRED, owner=typed, virtual=not exact)
        dotted = self._dotted(owner, scope)
        if dotted:  # `mod.f()`, `Base.m(self)`: what is named runs (a class's method, not an override of it)
            return Target(TargetForm.QUALIFIED, f"{dotted}.{member}", Resolution.EXACT, virtual=False)
        if member in BUILTIN_METHODS:
            return None  # `x.join(...)` on an untyped x: a str's far more often than a project's join
        return Target(TargetForm.NAME, member, Resolution.NAME)


def _held_base(target: Target | None) -> str:
    """What a class the function defines derives from: the class its first base names, or for `class
    DefaultCache(self.Cache)` the class attribute (`tests.CacheTestMixin.Cache`: what `self.Cache(...)` makes, the
    classes the subclasses give it); "" for anything else."""
    if target is not None and target.form is TargetForm.QUALIFIED:
        return target.name
    if target is not None and target.form is TargetForm.MEMBER and target.owner and not target.after_owner:
        return f"{target.owner}.{target.name}"
    return ""


V = TypeVar("V")


def _nested_scope(scope: Scope, name: str) -> Scope:
    """The scope of the nested function `name` defined in `scope`'s: part of the same function (its caller), seeing
    what the enclosing code binds, and walked within `name` (a call of `name` there runs it again)."""
    inner = Scope(scope.caller, scope.prefix, scope.cls, scope.receiver, {**scope.types}, True, {**scope.names})
    inner.held.update(scope.held)
    inner.local_methods.update(scope.local_methods)
    inner.local_classes.update(scope.local_classes)
    inner.member_bases.update(scope.member_bases)
    inner.nested.update(scope.nested)
    inner.plain.update(scope.plain)
    inner.within.update({*scope.within, name})
    inner.own.update(scope.own)
    inner.callables.update(scope.callables)  # a wrapper calling the functions its decorator is given
    inner.wrapped.update(scope.wrapped)
    return inner


@contextmanager
def _meanwhile(mapping: dict[str, V], values: dict[str, V]) -> Iterator[None]:
    """`mapping` updated with `values` while the block runs, as it was after (a comprehension's own variables)."""
    before = {name: mapping[name] for name in values if name in mapping}
    mapping.update(values)
    try:
        yield
    finally:
        for name in values:
            if name in before:
                mapping[name] = before[name]
            else:
                mapping.pop(name, None)


def _typed_names(scope: Scope) -> set[str]:
    """The names of a function's scope the file already says something of: its receiver, the variables it types,
    and the parameters given a class, elements, items, several types or callables."""
    known = scope.types.keys() | scope.held.keys() | scope.elements.keys() | scope.items.keys()
    known |= scope.alternatives.keys() | scope.callables.keys() | scope.wrapped.keys() | scope.generators.keys()
    return known | scope.keys.keys() | scope.element_items.keys() | {scope.receiver}


def _local_base(name: str, scope: Scope) -> str:
    """The base a class the function defines is typed by (an instance of it is exactly of that class: no other
    subclass's override runs on it); "" for any other name."""
    return scope.held.get(name, "") if name in scope.local_classes else ""


def _held_target(name: str, scope: Scope) -> Target:
    """What calling a variable holding a class or function calls: that; exactly it, no override, while it holds the
    function its default took off a class (`cache_setitem(self, key, value)`)."""
    fixed = scope.fixed.get(name) == scope.held[name]
    return Target(TargetForm.QUALIFIED, scope.held[name], Resolution.INFERRED, virtual=not fixed)


def _instance_called(held: str) -> list[Target]:
    """What calling a value of the type `held` runs: its class's `__call__`; where the value is what a parameter is
    given (`self._hookexec(...)` after `__init__` kept its `hook_execute`), also a function or class callers in any
    file pass it, itself (the indexer reads them; walked back through who passed it, as a parameter called is)."""
    given = held.rpartition(ATTRIBUTE_MARK)[2]
    instance = Target(TargetForm.MEMBER, "__call__", Resolution.INFERRED, owner=held)
    if given.startswith(PARAMETER_OPEN) and given.endswith(PARAMETER_CLOSE):
        return [instance, Target(TargetForm.QUALIFIED, f"{held}{CALLED_MARK}", Resolution.INFERRED)]
    return [instance]


def _passed_on(value: ts.Node, target: Target | None, scope: Scope) -> Target | None:
    """A parameter passed as an argument, which may hold a function or class its callers pass (`first(pred, xs)`
    handing `pred` to `filter`): a reference to each one they pass (the indexer reads them); None for anything else."""
    name = node_text(value) if value.type == "identifier" else ""
    opened = scope.open_held.get(name) or (
        scope.open_params.get(name, "") if target is None or target.resolution is Resolution.NAME else ""
    )
    return Target(TargetForm.QUALIFIED, f"{opened}{CALLED_MARK}", Resolution.INFERRED) if opened else None


def _opened_call(function: ts.Node, target: Target, scope: Scope) -> list[Target]:
    """What calling a parameter runs that callers in any file may pass a function or class itself (`key(*args)`):
    each one they pass (`f@(key#2)()`, the indexer reads them; a name guess where none is known), beside what its
    default holds; [] where the file says what it is (`issubclass(kind, Base)`) or for anything else."""
    name = node_text(function) if function.type == "identifier" else ""
    if besides := _held_besides(function, scope):
        return [target, *besides]
    if name in scope.open_params and target.resolution is Resolution.NAME:
        return [Target(TargetForm.QUALIFIED, f"{scope.open_params[name]}{CALLED_MARK}", Resolution.INFERRED)]
    return []


def _held_besides(function: ts.Node, scope: Scope) -> list[Target]:
    """What calling a parameter runs besides what the file types it as, where callers in any file may pass a function
    or class itself (`scope.open_held`: `key=keys.hashkey`, `func: Optional[F]` of another module's F)."""
    name = node_text(function) if function.type == "identifier" else ""
    if name not in scope.open_held or name in scope.bounded:
        return []
    return [Target(TargetForm.QUALIFIED, f"{scope.open_held[name]}{CALLED_MARK}", Resolution.INFERRED)]


def _called_name(node: ts.Node) -> str:
    """The name a call calls (`Local` of `Local()`), "" for anything else."""
    function = node.child_by_field_name("function") if node.type == "call" else None
    return node_text(function) if function is not None and function.type == "identifier" else ""


def _alternatives(name: str, scope: Scope) -> bool:
    """Whether a variable is one of several types here (`A() if c else B()`, not narrowed since)."""
    return name in scope.alternatives and name not in scope.types


def _passed_to(call: ts.Node, targets: list[Target], scope: Scope) -> list[list[Target]]:
    """The callees a call passes its arguments to, one list each as `passed_out` reads them: the call's targets, or
    each function a called variable holds, where every one runs (`for func in [group_where, ...]: func(stmt)`)."""
    function = call.child_by_field_name("function")
    if len(targets) > 1 and function is not None and held_callables(function, scope):
        return [[target] for target in targets]
    if len(targets) == 2 and targets[1].name == f"{targets[0].owner}{CALLED_MARK}":  # (`_instance_called`: an
        return [[target] for target in targets]  # instance's `__call__`, or a function or class passed itself)
    return [targets]


def _wrapped(function: ts.Node, scope: Scope) -> list[str]:
    """The functions a called parameter of a decorator applied more widely may be: any it is applied to."""
    name = node_text(function) if function.type == "identifier" else ""
    known = {name} & (scope.types.keys() | scope.held.keys() | scope.callables.keys())
    return scope.wrapped.get(name, []) if not known else []


def bind_python(root: ts.Node, path: str, module: str) -> Bindings:
    """The calls and bases of one parsed Python file, each with the most precise target the file allows. What the
    file's calls pass its functions' untyped parameters types them: the file is bound again with what a pass saw
    passed, until a pass sees nothing new (a value typed by one pass may type another call's argument)."""
    passed: Passed = {}
    for _ in range(MAX_PASSES):
        binder = PythonBinder(path, module, passed)
        bindings = binder.bind(root)
        seen = {f: {p: frozenset(v) for p, v in params.items()} for f, params in binder.found.items()}
        if seen == passed:
            return bindings
        passed = seen
    log.debug("%s: bound %d times, what its calls pass still growing; kept the last pass", path, MAX_PASSES)
    return bindings


def _of_receiver(function: ts.Node, scope: Scope) -> bool:
    """Whether a called value is the class of the caller's own receiver: `cls` in a classmethod, `type(self)`,
    `self.__class__`."""
    if function.type == "identifier":
        return scope.cls is not None and node_text(function) == scope.receiver == "cls"
    asked = class_asked(function)
    own = asked is not None and asked.type == "identifier" and node_text(asked) == scope.receiver
    return own and scope.cls is not None


def _handed(arguments: ts.Node) -> Iterator[ts.Node]:
    """The values a call's arguments hand on: each argument's (a keyword's value), and each element of a list, tuple
    or set written as one (`fields.Tuple([fields.DateTime, fields.Integer])`)."""
    for argument in arguments.named_children:
        value = argument.child_by_field_name("value") if argument.type == "keyword_argument" else argument
        if value is not None and value.type in ("list", "tuple", "set"):
            yield from value.named_children
        elif value is not None:
            yield value


def _class_value_called(target: Target, bound: str, function: ts.Node, scope: Scope) -> list[Target]:
    """`cls(...)` on a value holding `bound` or a class deriving from it: the class (`target`) and its subclasses,
    marked where the value is the class of the caller's own receiver (`type(self)(...)`) or what the caller's callers
    gave a parameter (`kind()`)."""
    mark = ""
    if _of_receiver(function, scope):  # `cls(...)`, `type(self)(...)`: an object of the receiver's class
        mark = OWN_CLASS_MARK
    elif function.type == "identifier" and node_text(function) in scope.kept:  # what the caller was given
        mark = GIVEN_CLASS_MARK
    marked = replace(target, name=f"{bound}{mark}") if mark else target
    return [marked, Target(TargetForm.QUALIFIED, f"{bound}{mark}{SUBCLASSES_MARK}", Resolution.DISPATCH)]
