"""JavaScript and TypeScript call binding: what each call and base class refers to, by scope and stated type.

A call is described as precisely as the file itself allows, for the indexer to finish against every indexed
entity (`trident.ingest.code_index`):
- `this.m()` in a class's method or field (arrow functions inside them included): member `m` of that class,
  looked up through its bases (exact); `super.m()`: the same lookup, starting after the class (exact).
- a name the file binds: a definition of the module, `import {a as b}`, `const {a} = require(...)` (exact), a
  default import as `{module}.{local name}` (inferred: the name it is exported by is not in this file);
  `ns.f()` through `import * as ns` or `const ns = require(...)` as `{module}.f`; `new Foo()` as Foo's name.
- a receiver whose type the code states: a typed parameter, local or field (`x: Foo`, `private pool: Pool`,
  `constructor(private pool: Pool)`), `const x = new Foo()`, `this.pool = new Pool()` or `this.pool = pool` in a
  method, `(x as Foo)`: member `m` of that type (inferred). `Foo.m()` on a class of the file: its member (exact).
- an untyped receiver: the bare name, a guess the indexer keeps only when one entity of the project has it.
  Nothing at all for what only the runtime defines: `console.*`, `JSON.*`, `Object.keys(...)...`, a builtin
  method (`push`, `map`, `then`) on an untyped receiver, a call of a local variable or parameter.
Specifiers become module names as files do: relative ones against the file's folder without the extension
(`./gateway.js` in `src/billing/orders.ts` -> `src.billing.gateway`), packages as written (`@nestjs/core` ->
`nestjs.core`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Target
from trident.ingest.languages.javascript import FUNCTION_VALUES
from trident.ingest.languages.javascript_syntax import (
    BUILTIN,
    BUILTIN_METHODS,
    BUILTIN_OBJECTS,
    BUILTIN_TYPES,
    FIELDS,
    FUNCTION_LIKE,
    LITERALS,
    LOCAL,
    OPAQUE,
    UNKNOWN,
    Binding,
    Definitions,
    Kind,
    Scope,
    base_expression,
    declares,
    imports,
    loaded_module,
    name_of,
    pattern_names,
    unwrap,
)
from trident.ingest.languages.javascript_types import ClassType, parameters, stated_type
from trident.ingest.model import ATTRIBUTE_MARK, TargetForm
from trident.store.schema import Resolution

MAX_READING = 32  # variables read one inside another before the type is called unknown
_INVOKE = ("call", "apply")
_NAMED = (Kind.VALUE, Kind.CLASS)
_RUNTIME = (Kind.BUILTIN, Kind.ARRAY)
_CHAINS = frozenset({"member_expression", "call_expression", "await_expression"})


class JavaScriptBinder:
    """Binds one file's call sites and bases as the outline meets them; each function's scope is read once."""

    def __init__(self, root: ts.Node, path: str, module: str) -> None:
        self.path, self.module = path, module
        self.definitions = Definitions()
        self.functions: set[str] = set()  # qualified names of the functions found defined in the file
        self.top = Scope()
        self.scopes: dict[int, Scope] = {root.id: self.top}
        self.classes: dict[int, ClassType | None] = {}
        self.this_of: dict[int, ClassType | None] = {}  # node id -> the class `this` is an instance of in it
        self.values: dict[int, Binding] = {}  # chain link (`a.b`, `a.b()`) -> what it stands for
        self.reading = 0  # variables being read, one inside another: `const b = a` reads a
        self._collect(root, self.top)

    # --- the site binder ---

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None:
        callee = unwrap(callee)
        if callee.type == "identifier":
            return self._named(node_text(callee), self.scope_at(node))
        if callee.type != "member_expression":
            return None  # `super(...)`, `import(...)`, an IIFE, `a[i]()`, `f()()`
        if node.type == "new_expression":  # `new ns.Foo()`, `new this.Model()`
            made = self.value(callee, at=node)
            return self._reached(made, "") if made.kind in _NAMED else self._guess(callee, made)
        member = node_text(callee.child_by_field_name("property"))
        receiver = callee.child_by_field_name("object")
        if not member or receiver is None:
            return None
        receiver = unwrap(receiver)
        if receiver.type in ("this", "super"):
            cls = self._this_class(callee)
            if cls is None:
                return None if receiver.type == "super" else self._guess(callee, UNKNOWN)
            return Target(TargetForm.MEMBER, member, Resolution.EXACT, cls.qualified, receiver.type == "super")
        bound = self.value(receiver, at=node)
        if bound.kind is Kind.VALUE and member in _INVOKE and bound.name in self.functions:
            return self._reached(bound, "")  # `helper.call(this, x)` calls helper
        return self._reached(bound, member) if bound.reachable else self._guess(callee, bound)

    def _reached(self, bound: Binding, member: str) -> Target:
        """What is reached through a binding: `ns.f` qualified, a member of a class or of a stated type."""
        if bound.kind is Kind.VALUE or not member:
            return Target(TargetForm.QUALIFIED, f"{bound.name}.{member}" if member else bound.name, bound.resolution)
        return Target(TargetForm.MEMBER, member, bound.resolution, owner=bound.name)

    def base(self, name: str, node: ts.Node) -> Target | None:
        expression = base_expression(node, name)
        bound = self._base(expression, self.scope_at(node)) if expression is not None else UNKNOWN
        if bound.kind in _NAMED:
            return self._reached(bound, "")
        return None if bound.kind is Kind.BUILTIN else Target(TargetForm.NAME, name, Resolution.NAME)

    def _base(self, expression: ts.Node, scope: Scope) -> Binding:
        """What a base names: `Base`, `ns.Base` (a value) or `ns.Base` (a type), `Error` (the runtime's)."""
        if expression.type not in ("identifier", "type_identifier", "nested_type_identifier"):
            return self.value(expression, scope)
        head, _, rest = node_text(expression).partition(".")
        found = scope.lookup(head)
        if found is None:
            return BUILTIN if head in BUILTIN_TYPES and not rest else UNKNOWN
        if not rest:
            return found
        return found.reach(rest) if found.kind is Kind.VALUE else UNKNOWN

    def _named(self, name: str, scope: Scope) -> Target | None:
        bound = scope.lookup(name)
        if bound is None:
            return None if name in BUILTIN_OBJECTS else Target(TargetForm.NAME, name, Resolution.NAME)
        if bound.kind in _NAMED:
            return self._reached(bound, "")
        return None  # a parameter or local: whatever it holds, it is not something named after it

    def _guess(self, callee: ts.Node, bound: Binding) -> Target | None:
        """The bare member name of an untyped receiver; nothing for the runtime's values and methods."""
        member = node_text(callee.child_by_field_name("property"))
        if bound.kind is not Kind.UNKNOWN or not member or member in BUILTIN_METHODS:
            return None
        return Target(TargetForm.NAME, member, Resolution.NAME)

    # --- what an expression stands for ---

    def value(self, node: ts.Node, scope: Scope | None = None, at: ts.Node | None = None) -> Binding:
        """A name's binding, what is reached through it (`ns.a.b`, `this.pool`), an instance a `new` makes, a
        value of the runtime's (a literal, `Object.keys(x)`, `expect(x)`), else UNKNOWN; in `scope`, else the scope
        at `at` (the call), else at the node.

        Iterative over chains, and each link read once: the outline asks again for every call of `a.b().c()...`,
        each one level deeper (and a node's parent costs its depth in tree-sitter: its links learn their scope).
        """
        steps: list[ts.Node] = []
        node = unwrap(node)
        while node.id not in self.values and node.type in _CHAINS and loaded_module(node, self.path) is None:
            steps.append(node)
            inner = node.child_by_field_name("object") or node.child_by_field_name("function")
            if node.type == "await_expression":
                inner = node.named_children[0] if node.named_child_count else None
            if inner is None:
                return UNKNOWN
            node = unwrap(inner)
        if node.id in self.values:
            bound = self.values[node.id]
        else:
            scope = scope or self.scope_at(at or node)
            self.scopes.update(dict.fromkeys((step.id for step in steps), scope))
            if node.type == "this" and steps and steps[-1].type == "member_expression":
                step, cls = steps.pop(), self._this_class(at or node)
                bound = self.values[step.id] = cls.field(_property(step), self) if cls is not None else UNKNOWN
            else:
                bound = self._root_value(node, scope, at)
        for step in reversed(steps):
            if step.type == "await_expression":
                pass
            elif step.type == "member_expression" and bound.kind is Kind.VALUE:
                bound = bound.reach(_property(step))
            elif bound.kind in _RUNTIME or (step.type == "call_expression" and bound.external):
                bound = BUILTIN  # `xs.filter(...)`, `z.string().min(1)`: the runtime's or the package's value
            else:
                bound = UNKNOWN
            self.values[step.id] = bound
        return bound

    def _root_value(self, node: ts.Node, scope: Scope, at: ts.Node | None) -> Binding:
        kind = node.type
        if kind == "identifier":
            bound = scope.lookup(node_text(node))
            return bound if bound is not None else BUILTIN if node_text(node) in BUILTIN_OBJECTS else UNKNOWN
        if kind == "this":
            cls = self._this_class(at or node)
            return Binding(Kind.TYPE, cls.qualified) if cls is not None else UNKNOWN
        if kind == "new_expression":
            made = node.child_by_field_name("constructor")
            bound = self.value(made, scope) if made is not None else UNKNOWN
            if bound.kind in _NAMED:
                return Binding(Kind.TYPE, bound.name, Resolution.INFERRED)
            return bound if bound.kind in (Kind.BUILTIN, Kind.LOCAL) else UNKNOWN
        if kind == "call_expression":  # require(...) / import(...)
            return loaded_module(node, self.path) or UNKNOWN
        if kind in ("as_expression", "type_assertion") and node.named_child_count == 2:  # `x as T`, `<T>x`
            stated = node.named_children[1] if kind == "as_expression" else node.named_children[0]
            return stated_type(stated, scope)
        if kind in FUNCTION_VALUES or kind == "class":
            return self._defined(node)
        return BUILTIN if kind in LITERALS else UNKNOWN

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

    # --- classes ---

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

    # --- scopes ---

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
        found = self.value(items, scope)
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
        return found if found.kind is not Kind.UNKNOWN or value is None else self.value(value, scope)

    def _typed(self, stated: ts.Node | None, default: ts.Node | None, scope: Scope) -> Binding:
        """A parameter's type, stated or constructed by its default; whatever else it holds is the caller's."""
        found = self._declared(stated, default, scope)
        return found if found.kind in (Kind.TYPE, *_RUNTIME) else UNKNOWN

    def _passed(self, function: ts.Node, at: int) -> Binding:
        """An untyped parameter of a function passed as a call's argument: what the called function states its
        callback's parameter holds (`F@0:1`, for the indexer to finish from F's `HOLDS` facts), else unknown."""
        arguments = function.parent
        call = arguments.parent if arguments is not None and arguments.type == "arguments" else None
        callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
        if arguments is None or call is None or callee is None:
            return UNKNOWN
        position = next((i for i, a in enumerate(arguments.named_children) if a.id == function.id), -1)
        target = self.call(call, callee)
        if target is None or target.form is not TargetForm.QUALIFIED or target.resolution is Resolution.NAME:
            return UNKNOWN
        return Binding(Kind.TYPE, f"{target.name}{ATTRIBUTE_MARK}{position}:{at}", Resolution.INFERRED)

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

    def _destructured(self, value: ts.Node, key: str, scope: Scope) -> Binding:
        """`const {key} = value`: a name reached through a module or namespace, else unknown."""
        source = self.value(value, scope)
        return source.reach(key) if source.kind is Kind.VALUE else UNKNOWN


def _property(member: ts.Node) -> str:
    return node_text(member.child_by_field_name("property"))


def bind_javascript(root: ts.Node, path: str, module: str) -> JavaScriptBinder:
    """The site binder of one parsed JavaScript, TypeScript or TSX file."""
    return JavaScriptBinder(root, path, module)
