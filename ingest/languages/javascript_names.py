"""What names hold in one JavaScript/TypeScript file (`ValueNames`, for the values binder `rules_values`): each
function's scope, read the first time a name in it is looked up (imports, `require`, declarations, destructuring,
parameters with their stated types or defaults, `for ... of` items, a callback's parameters as the function it is
passed to states them), the class `this` is an instance of (through arrow functions, up to a method or field), what
that class's fields hold, and what a chain's root stands for (a name, `new Foo()`, `x as Foo`, a loaded module, a
function or class value, a literal)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Target
from trident.ingest.languages.javascript import FUNCTION_VALUES
from trident.ingest.languages.javascript_syntax import (
    BUILTIN_OBJECTS,
    BUILTIN_TYPES,
    FIELDS,
    FUNCTION_LIKE,
    LITERALS,
    OPAQUE,
    Definitions,
    base_expression,
    declares,
    imports,
    loaded_module,
    name_of,
    pattern_names,
)
from trident.ingest.languages.javascript_types import ClassType, parameters, stated_type
from trident.ingest.languages.rules_values import (
    BUILTIN,
    LOCAL,
    RUNTIME,
    UNKNOWN,
    Binding,
    Kind,
    Scope,
    Values,
)
from trident.ingest.model import ATTRIBUTE_MARK, TargetForm
from trident.store.schema import Resolution

MAX_READING = 32  # variables read one inside another before the type is called unknown
_NAMED = (Kind.VALUE, Kind.CLASS)


class JavaScriptNames:
    """The names of one file; each function's scope and each class's fields read once."""

    invokers = frozenset({"call", "apply"})

    def __init__(self, root: ts.Node, path: str, module: str, binder: Values) -> None:
        self.path, self.module, self.binder = path, module, binder
        self.definitions = Definitions()
        self.functions: set[str] = set()  # qualified names of the functions found defined in the file
        self.top = Scope()
        self.scopes: dict[int, Scope] = {root.id: self.top}
        self.classes: dict[int, ClassType | None] = {}
        self.this_of: dict[int, ClassType | None] = {}  # node id -> the class `this` is an instance of in it
        self.reading = 0  # variables being read, one inside another: `const b = a` reads a
        self._collect(root, self.top)

    # --- the ValueNames protocol ---

    def lookup(self, name: str, scope: Scope) -> Binding | None:
        bound = scope.lookup(name)
        return bound if bound is not None else BUILTIN if name in BUILTIN_OBJECTS else None

    def remember(self, nodes: list[int], scope: Scope) -> None:
        self.scopes.update(dict.fromkeys(nodes, scope))

    def loaded(self, node: ts.Node) -> Binding | None:
        return loaded_module(node, self.path) if node.type == "call_expression" else None

    def root(self, node: ts.Node, scope: Scope, at: ts.Node | None) -> Binding:
        kind = node.type
        if kind == "identifier":
            return self.lookup(node_text(node), scope) or UNKNOWN
        if kind == "this":
            cls = self._this_class(at or node)
            return Binding(Kind.TYPE, cls.qualified) if cls is not None else UNKNOWN
        if kind == "new_expression":
            made = node.child_by_field_name("constructor")
            bound = self.binder.value(made, scope) if made is not None else UNKNOWN
            if bound.kind in _NAMED:
                return Binding(Kind.TYPE, bound.name, Resolution.INFERRED)
            return bound if bound.kind in (Kind.BUILTIN, Kind.LOCAL) else UNKNOWN
        if kind == "call_expression":  # require(...) / import(...)
            return self.loaded(node) or UNKNOWN
        if kind in ("as_expression", "type_assertion") and node.named_child_count == 2:  # `x as T`, `<T>x`
            stated = node.named_children[1] if kind == "as_expression" else node.named_children[0]
            return stated_type(stated, scope)
        if kind in FUNCTION_VALUES or kind == "class":
            return self._defined(node)
        return BUILTIN if kind in LITERALS else UNKNOWN

    def self_type(self, node: ts.Node) -> str:
        cls = self._this_class(node)
        return cls.qualified if cls is not None else ""

    def self_field(self, node: ts.Node, name: str) -> Binding:
        cls = self._this_class(node)
        return cls.field(name, self) if cls is not None else UNKNOWN

    def base(self, name: str, node: ts.Node) -> Binding:
        """What a base names: `Base`, `ns.Base` (a value) or `ns.Base` (a type), `Error` (the runtime's)."""
        expression = base_expression(node, name)
        if expression is None:
            return UNKNOWN
        scope = self.scope_at(node)
        if expression.type not in ("identifier", "type_identifier", "nested_type_identifier"):
            return self.binder.value(expression, scope)
        head, _, rest = node_text(expression).partition(".")
        found = scope.lookup(head)
        if found is None:
            return BUILTIN if head in BUILTIN_TYPES and not rest else UNKNOWN
        if not rest:
            return found
        return found.reach(rest) if found.kind is Kind.VALUE else UNKNOWN

    def held(self, node: ts.Node) -> list[tuple[str, Target]]:
        """What a function states each of its callbacks' parameters is (`init: (source: Observable<T>, subscriber:
        Subscriber<R>) => void` as its first parameter: `0:0` holds Observable, `0:1` Subscriber), for the
        callbacks other files pass it."""
        if node.type not in FUNCTION_LIKE:
            return []
        found = []
        for at, (_, stated, _) in enumerate(parameters(node)):
            signature = stated.named_children[0] if stated is not None and stated.named_child_count else None
            if signature is None or signature.type != "function_type":
                continue
            scope = self.scope_at(node)  # (read only for a function that takes a typed callback)
            for inner, (_, typed, _) in enumerate(parameters(signature)):
                kind = stated_type(typed, scope) if typed is not None else UNKNOWN
                if kind.kind is Kind.TYPE:
                    found.append((f"{at}:{inner}", Target(TargetForm.QUALIFIED, kind.name, Resolution.INFERRED)))
        return found

    # --- what reading a class's fields asks (`javascript_types.Values`) ---

    def value(self, node: ts.Node, scope: Scope) -> Binding:
        return self.binder.value(node, scope)

    def scope_at(self, node: ts.Node) -> Scope:
        """The scope of the innermost function around `node`, reading each enclosing function once.

        The nodes passed on the way up remember it: a node's parent costs its depth in tree-sitter, and the
        outline asks for every call of a long chain `a.b().c()...`, each one level deeper.
        """
        if node.id in self.scopes and node.type not in FUNCTION_LIKE:
            return self.scopes[node.id]
        pending: list[ts.Node] = []
        passed: list[int] = []
        parent = node.parent
        while parent is not None and parent.id not in self.scopes:
            if parent.type in FUNCTION_LIKE:
                pending.append(parent)
            elif not pending:
                passed.append(parent.id)
            parent = parent.parent
        scope = self.scopes[parent.id] if parent is not None else self.top
        for function in reversed(pending):
            scope = self.scopes[function.id] = Scope(parent=scope)  # stored first: reading it may look it up
            self._parameters(function, scope)
            body = function.child_by_field_name("body")
            if body is not None and body.type == "statement_block":
                self._collect(body, scope)
        self.scopes.update(dict.fromkeys(passed, scope))
        return scope

    # --- definitions and classes ---

    def _defined(self, node: ts.Node) -> Binding:
        """A function or class the file defines: the entity the outline makes of it, else a local (one defined
        inside a function)."""
        found = self.definitions.entity(node)
        if found is None:
            return LOCAL
        local, is_class = found
        if not is_class:
            self.functions.add(f"{self.module}.{local}")
        return Binding(Kind.CLASS if is_class else Kind.VALUE, f"{self.module}.{local}")

    def _this_class(self, node: ts.Node) -> ClassType | None:
        """The class `this` is an instance of at `node`: through arrow functions, up to a method or field. The
        nodes passed on the way remember it (each parent costs its depth)."""
        passed: list[int] = []
        found: ClassType | None = None
        parent = node.parent
        while parent is not None:
            if parent.id in self.this_of:
                found = self.this_of[parent.id]
                break
            passed.append(parent.id)
            if parent.type in ("method_definition", "class_static_block", *FIELDS):
                body = parent.parent
                found = self._class(body.parent) if body is not None and body.type == "class_body" else None
                break
            if parent.type in OPAQUE:
                break
            parent = parent.parent
        self.this_of.update(dict.fromkeys(passed, found))
        return found

    def _class(self, node: ts.Node | None) -> ClassType | None:
        if node is None:
            return None
        if node.id not in self.classes:
            bound = self._defined(node)
            self.classes[node.id] = ClassType(node, bound.name) if bound.kind is Kind.CLASS else None
        return self.classes[node.id]

    # --- what a scope declares ---

    def _collect(self, block: ts.Node, scope: Scope) -> None:
        """Declare what a block binds, in order, through nested statements but not into functions or classes."""
        stack = list(reversed(block.named_children))
        while stack:
            node = stack.pop()
            if node.type == "import_statement":
                for local, bound in imports(node, self.path):
                    scope.declare(local, bound)
            elif node.type == "variable_declarator":
                self._declarator(node, scope)
            elif node.type in OPAQUE or node.type == "arrow_function":
                # A declaration's name is its scope's; a function expression's is its own.
                name = name_of(node) if node.type.endswith(("declaration", "signature")) else ""
                if name:
                    scope.declare(name, self._defined(node))
            elif node.type == "internal_module":  # a namespace: the outline qualifies its definitions by the file
                scope.declare(name_of(node), Binding(Kind.VALUE, self.module))
                stack.extend(reversed(node.named_children))
            elif node.type in ("for_in_statement", "catch_clause"):
                self._loop_variables(node, scope)
                stack.extend(reversed(node.named_children))
            elif declares(node):
                stack.extend(reversed(node.named_children))

    def _loop_variables(self, node: ts.Node, scope: Scope) -> None:
        """`for (const x of items)` with `items: Foo[]` makes x a Foo; `for ... in`, `catch (e)`: untyped."""
        bound = node.child_by_field_name("left") or node.child_by_field_name("parameter")
        items = node.child_by_field_name("right") if any(c.type == "of" for c in node.children) else None
        if bound is not None and bound.type == "identifier" and items is not None:
            scope.defer(node_text(bound), self._later(self._item, items, scope))
        elif bound is not None:
            for name in pattern_names(bound):
                scope.declare(name, UNKNOWN)

    def _item(self, items: ts.Node, scope: Scope) -> Binding:
        found = self.binder.value(items, scope)
        return Binding(Kind.TYPE, found.name, found.resolution) if found.kind is Kind.ARRAY else UNKNOWN

    def _declarator(self, node: ts.Node, scope: Scope) -> None:
        """`const x: T = v`, `const {a, b: c} = require('./x')`, `const [a, b] = v`."""
        target, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if target is None:
            return
        if value is not None and (value.type in FUNCTION_VALUES or value.type == "class"):
            scope.declare(node_text(target), self._defined(node))
        elif target.type == "identifier":
            scope.defer(node_text(target), self._later(self._declared, node.child_by_field_name("type"), value, scope))
        elif target.type == "object_pattern" and value is not None:
            for item in target.named_children:
                pair = item.type == "pair_pattern"
                key = item.child_by_field_name("key") if pair else item
                local = item.child_by_field_name("value") if pair else item
                if key is not None and local is not None and local.named_child_count == 0:
                    scope.defer(node_text(local), self._later(self._destructured, value, node_text(key), scope))
                else:
                    for name in pattern_names(item):
                        scope.declare(name, UNKNOWN)
        else:
            for name in pattern_names(target):
                scope.declare(name, UNKNOWN)

    def _parameters(self, function: ts.Node, scope: Scope) -> None:
        """Parameters with the type each states (or its default constructs); destructured ones untyped. A callback's
        untyped parameter is what the function it is passed to states (`operate((source, subscriber) => ...)`)."""
        for at, (pattern, stated, default) in enumerate(parameters(function)):
            if pattern.type == "identifier" and stated is None and default is None:
                scope.defer(node_text(pattern), self._later(self._passed, function, at))
            elif pattern.type == "identifier":
                scope.defer(node_text(pattern), self._later(self._typed, stated, default, scope))
            elif pattern.type != "this":
                for name in pattern_names(pattern):
                    scope.declare(name, UNKNOWN)

    # --- what a variable holds, read on its first lookup ---

    def _later(
        self, read: Callable[..., Binding], *arguments: ts.Node | str | int | Scope | None
    ) -> Callable[[], Binding]:
        """`read` for a variable's first lookup; a variable copied from one copied from ... (generated code) stops
        being followed past MAX_READING, as the stack would not hold it."""
        return partial(self._bounded, read, *arguments)

    def _bounded(self, read: Callable[..., Binding], *arguments: ts.Node | str | int | Scope | None) -> Binding:
        if self.reading >= MAX_READING:
            return UNKNOWN
        self.reading += 1
        try:
            return read(*arguments)
        finally:
            self.reading -= 1

    def _declared(self, stated: ts.Node | None, value: ts.Node | None, scope: Scope) -> Binding:
        """What a variable holds: the type it states, else what its value stands for."""
        found = stated_type(stated, scope)
        return found if found.kind is not Kind.UNKNOWN or value is None else self.binder.value(value, scope)

    def _typed(self, stated: ts.Node | None, default: ts.Node | None, scope: Scope) -> Binding:
        """A parameter's type, stated or constructed by its default; whatever else it holds is the caller's."""
        found = self._declared(stated, default, scope)
        return found if found.kind in (Kind.TYPE, *RUNTIME) else UNKNOWN

    def _passed(self, function: ts.Node, at: int) -> Binding:
        """An untyped parameter of a function passed as a call's argument: what the called function states its
        callback's parameter holds (`F@0:1`, for the indexer to finish from F's `HOLDS` facts), else unknown."""
        arguments = function.parent
        call = arguments.parent if arguments is not None and arguments.type == "arguments" else None
        callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
        if arguments is None or call is None or callee is None:
            return UNKNOWN
        position = next((i for i, a in enumerate(arguments.named_children) if a.id == function.id), -1)
        target = self.binder.call(call, callee)
        if target is None or target.form is not TargetForm.QUALIFIED or target.resolution is Resolution.NAME:
            return UNKNOWN
        return Binding(Kind.TYPE, f"{target.name}{ATTRIBUTE_MARK}{position}:{at}", Resolution.INFERRED)

    def _destructured(self, value: ts.Node, key: str, scope: Scope) -> Binding:
        """`const {key} = value`: a name reached through a module or namespace, else unknown."""
        source = self.binder.value(value, scope)
        return source.reach(key) if source.kind is Kind.VALUE else UNKNOWN
