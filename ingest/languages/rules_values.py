"""The rules binder for a language whose names are values (JavaScript, TypeScript): a module, a namespace, a function
and a class are values held by names, looked up in the scopes where each is written, and a call names what the value
it is made on stands for. The language's `ValueNames` (`ScopeRules.values`) read what each name holds; this binder
follows the chain a call is made on (`ns.a.b()`, `this.pool.get()`, `(await load()).run()`) by the rules' parts
(`access`, `callee`, `unwrap`, `unwrapping`):

- a call through a module, namespace or definition (`ns.f()`, `f()`, `helper.call(this, x)`) is its qualified name,
  as sure as the name's binding (a default import's name is inferred);
- a call on a class (`Foo.m()`) or an instance of a stated type (`x.m()`, `this.m()`) is a member of that type;
  through the base receiver (`super.m()`), looked up after the enclosing type;
- a call on a value of the language's library (a literal, a builtin object, what a package's call gives) or of a
  function's own variable calls nothing a project defines;
- anything else is named as written, unless the name is a method the language's library gives its values (`push`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Target
from trident.ingest.languages.declarations import Typed
from trident.ingest.languages.rules_binder import RulesBinder
from trident.ingest.languages.scope_rules import OUTSIDE, ScopeRules
from trident.ingest.model import TargetForm
from trident.store.schema import Resolution


class Kind(Enum):
    """What a name or expression stands for, as far as the file says."""

    VALUE = "value"  # a definition, an import or a module: what is reached through it is qualified by its name
    CLASS = "class"  # a class the file defines: `Foo.m()` is its member
    TYPE = "type"  # an instance of a stated type: `x.m()` is a member of the type
    ARRAY = "array"  # an array (or set, iterable) of a stated type: its methods are the runtime's, its items typed
    BUILTIN = "builtin"  # a value of the language's own types: its methods are the runtime's
    LOCAL = "local"  # a function or class defined inside a function: no entity has it
    UNKNOWN = "unknown"  # a variable of unstated type


@dataclass(frozen=True)
class Binding:
    kind: Kind
    name: str = ""  # qualified name (VALUE, CLASS) or qualified type (TYPE)
    resolution: Resolution = Resolution.EXACT  # how surely a call through it is bound
    external: bool = False  # reached through a package's import: what its calls return is the package's

    def reach(self, member: str, resolution: Resolution | None = None) -> Binding:
        """`ns.member`: a name reached through a module, namespace or definition."""
        return Binding(Kind.VALUE, f"{self.name}.{member}", resolution or self.resolution, self.external)

    @property
    def reachable(self) -> bool:
        """Whether members reached through it are named by it (a definition, module, class or stated type)."""
        return self.kind in (Kind.VALUE, Kind.CLASS, Kind.TYPE)


UNKNOWN = Binding(Kind.UNKNOWN)
BUILTIN = Binding(Kind.BUILTIN)
LOCAL = Binding(Kind.LOCAL)
_NAMED = (Kind.VALUE, Kind.CLASS)
RUNTIME = (Kind.BUILTIN, Kind.ARRAY)


@dataclass
class Scope:
    """The names one function (or the module) declares; lookups fall back to the enclosing scopes.

    A variable's binding is read on its first lookup (`defer`): most variables are never a call's receiver.
    """

    names: dict[str, Binding] = field(default_factory=dict)
    parent: Scope | None = None
    pending: dict[str, Callable[[], Binding]] = field(default_factory=dict)

    def lookup(self, name: str) -> Binding | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            if name in scope.pending:
                read = scope.pending.pop(name)
                scope.names[name] = UNKNOWN  # while it is read: `const a = a.b` does not loop
                scope.names[name] = found = read()
                return found
            scope = scope.parent
        return None

    def declare(self, name: str, binding: Binding) -> None:
        """A name declared twice in one function with different meanings has no known meaning."""
        if self.pending.pop(name, None) is not None:
            binding = UNKNOWN
        self.names[name] = binding if self.names.get(name, binding) == binding else UNKNOWN

    def defer(self, name: str, read: Callable[[], Binding]) -> None:
        """Declare `name` with the binding `read` gives when it is first looked up; twice, UNKNOWN."""
        if name in self.names or name in self.pending:
            self.declare(name, UNKNOWN)
        else:
            self.pending[name] = read


class ValueNames(Protocol):
    """What names hold in one file of a language whose names are values: its scopes, the class its self receiver is an
    instance of, and what an expression that is no link of a chain stands for."""

    functions: set[str]  # qualified names of the file's functions met so far (`f.call(...)` calls f)
    invokers: frozenset[str]  # methods of a function that call it (`call`, `apply`)

    def scope_at(self, node: ts.Node) -> Scope:
        """The scope of the innermost function around `node`."""
        ...

    def remember(self, nodes: list[int], scope: Scope) -> None:
        """The nodes (by id) a chain's links are, inside `scope`: asked again, they need not look it up."""
        ...

    def lookup(self, name: str, scope: Scope) -> Binding | None:
        """What a name holds in `scope` (a builtin object of the language: BUILTIN); None for one nothing binds."""
        ...

    def root(self, node: ts.Node, scope: Scope, at: ts.Node | None) -> Binding:
        """What an expression that is no chain link stands for (a name, the self receiver, a construction, a cast, a
        loaded module, a function or class value, a literal); `at` is the call it is read for."""
        ...

    def loaded(self, node: ts.Node) -> Binding | None:
        """The module a call loads (`require('./x')`), None for any other expression."""
        ...

    def self_type(self, node: ts.Node) -> str:
        """The qualified class the self receiver is an instance of at `node` ("" for none)."""
        ...

    def self_field(self, node: ts.Node, name: str) -> Binding:
        """What field `name` of the class the self receiver is an instance of at `node` holds."""
        ...

    def base(self, name: str, node: ts.Node) -> Binding:
        """What base `name` of the class-like `node` names."""
        ...

    def held(self, node: ts.Node) -> list[tuple[str, Target]]:
        """What a function states each of its callbacks' parameters is (`RulesBinder.held`)."""
        ...


class Values(Protocol):
    """What reading a file's names asks of its binder: what an expression stands for, what a call names."""

    def value(self, node: ts.Node, scope: Scope | None = None, at: ts.Node | None = None) -> Binding: ...

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None: ...


class ValuesBinder(RulesBinder):
    """The site binder of one file whose names are values (`rules.values`); each chain link is read once. It reads no
    frames: a value's scope is where it is written, and what a member of a type is, the rules binder's (`_member`)."""

    def __init__(self, rules: ScopeRules, root: ts.Node, module: str, path: str) -> None:
        if rules.values is None:
            raise ValueError("a values binder needs rules that say what names hold (`ScopeRules.values`)")
        super().__init__(rules, root, module)
        self.values: dict[int, Binding] = {}  # chain link (`a.b`, `a.b()`) -> what it stands for
        self.scopes: ValueNames = rules.values(root, path, module, self)

    # --- each site ---

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None:
        callee = self._unwrapped(callee)
        split = self.rules.split(node, callee)
        if split is None:
            return None  # `super(...)`, `import(...)`, an IIFE, `a[i]()`, `f()()`
        receiver, member = split
        if receiver is None:
            return self._named(member, self.scopes.scope_at(node))
        if self.rules.constructed(node, callee):  # `new ns.Foo()`, `new this.Model()`
            made = self.value(callee, at=node)
            if made.kind in _NAMED:
                return _named_by(made)
            return self._member(None, member) if made.kind is Kind.UNKNOWN else None
        if not member:
            return None
        receiver = self._unwrapped(receiver)
        written = _word(receiver)
        if written in self.rules.self_receivers or written in self.rules.base_receivers:
            return self._own_member(written, member, callee)
        bound = self.value(receiver, at=node)
        if bound.kind is Kind.VALUE and member in self.scopes.invokers and bound.name in self.scopes.functions:
            return _named_by(bound)  # `helper.call(this, x)` calls helper
        return self._through(bound, member)

    def base(self, name: str, node: ts.Node) -> Target | None:
        bound = self.scopes.base(name, node)
        if bound.kind in _NAMED:
            return _named_by(bound)
        return None if bound.kind is Kind.BUILTIN else Target(TargetForm.NAME, name, Resolution.NAME)

    def held(self, node: ts.Node) -> list[tuple[str, Target]]:
        return self.scopes.held(node)

    # --- calls ---

    def _through(self, bound: Binding, member: str) -> Target | None:
        """A member reached through a binding: of a module, namespace or definition, its qualified name (`ns.f`); of
        a class or a stated type, its member; of the runtime's value or a function's own, nothing; else a guess."""
        if bound.kind is Kind.VALUE:
            return Target(TargetForm.QUALIFIED, f"{bound.name}.{member}", bound.resolution)
        if bound.kind is Kind.UNKNOWN:
            return self._member(None, member)
        owner = bound.name if bound.kind in (Kind.CLASS, Kind.TYPE) else OUTSIDE
        return self._member(Typed(owner, bound.resolution), member)

    def _own_member(self, receiver: str, member: str, callee: ts.Node) -> Target | None:
        """`this.m()`: member m of the class `this` is an instance of; `super.m()`: the same, after that class."""
        own = self.scopes.self_type(callee)
        after = receiver in self.rules.base_receivers
        if not own:
            return None if after else self._member(None, member)
        return Target(TargetForm.MEMBER, member, Resolution.EXACT, own, after)

    def _named(self, name: str, scope: Scope) -> Target | None:
        bound = self.scopes.lookup(name, scope)
        if bound is None:
            return Target(TargetForm.NAME, name, Resolution.NAME)
        return _named_by(bound) if bound.kind in _NAMED else None  # (a parameter or local: not named after it)

    def _unwrapped(self, node: ts.Node) -> ts.Node:
        """`(x)`, `x!` -> x."""
        while (inner := self.rules.unwrap(node)) is not None:
            node = inner
        return node

    # --- what an expression stands for ---

    def value(self, node: ts.Node, scope: Scope | None = None, at: ts.Node | None = None) -> Binding:
        """What a chain stands for: its root's binding (in `scope`, else the scope at `at`, the call, else at the
        node), then each link's: a name reached through a module (`ns.a.b`), a field of the self receiver's class
        (`this.pool`), what a call on the runtime's or a package's value gives (the runtime's), else UNKNOWN.

        Iterative over chains, and each link read once: the outline asks again for every call of `a.b().c()...`,
        each one level deeper (and a node's parent costs its depth in tree-sitter: its links learn their scope).
        """
        steps: list[ts.Node] = []
        node = self._unwrapped(node)
        while node.id not in self.values and (inner := self._link(node)) is not None:
            steps.append(node)
            node = self._unwrapped(inner)
        if node.id in self.values:
            bound = self.values[node.id]
        else:
            scope = scope or self.scopes.scope_at(at or node)
            self.scopes.remember([step.id for step in steps], scope)
            read = self.rules.access(steps[-1]) if steps and _word(node) in self.rules.self_receivers else None
            if read is not None:  # `this.pool`
                step = steps.pop()
                bound = self.values[step.id] = self.scopes.self_field(at or node, read[1])
            else:
                bound = self.scopes.root(node, scope, at)
        for step in reversed(steps):
            bound = self.values[step.id] = self._step(step, bound)
        return bound

    def _link(self, node: ts.Node) -> ts.Node | None:
        """The expression a chain link is made on (`a` of `a.b`, `a.b` of `a.b()`, `x` of `await x`); None for a
        chain's root (a module a call loads is one)."""
        rules = self.rules
        if (callee := rules.callee(node)) is not None:
            return callee if self.scopes.loaded(node) is None else None
        if (inner := rules.unwrapping(node)) is not None:
            return inner
        read = rules.access(node)
        return read[0] if read is not None else None

    def _step(self, step: ts.Node, bound: Binding) -> Binding:
        if self.rules.unwrapping(step) is not None:
            return bound
        if bound.kind is Kind.VALUE and (read := self.rules.access(step)) is not None:
            return bound.reach(read[1])
        if bound.kind in RUNTIME or (self.rules.callee(step) is not None and bound.external):
            return BUILTIN  # `xs.filter(...)`, `z.string().min(1)`: the runtime's or the package's value
        return UNKNOWN


def _word(node: ts.Node) -> str:
    """A receiver written as one word (`this`, `super`, a name), "" for an expression made of others."""
    return node_text(node) if not node.named_child_count else ""


def _named_by(bound: Binding) -> Target:
    """The definition, module or class a binding names."""
    return Target(TargetForm.QUALIFIED, bound.name, bound.resolution)
