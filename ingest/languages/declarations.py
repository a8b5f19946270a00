"""What a file declares, read once each for the rules binder (`rules_binder`) to type receivers by: the fields and
properties of each type, the parameters and locals of each function (each seen in its block from where it is declared
on) and, where the language has them (`globals`), the file's top-level variables; each with what it states of its type
(`Declared`), which for a value the binder types (`Typed`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import tree_sitter as ts

from trident.ingest.languages.frames import Body, Shape, Site
from trident.ingest.languages.lexical import LexicalNames
from trident.ingest.languages.scope_rules import Local, ScopeRules
from trident.store.schema import Resolution


@dataclass(frozen=True)
class Typed:
    """The type of an expression: a qualified name (or OUTSIDE, `Holder@field` for what a field of another file's
    type holds, `Owner.method` for what a call gives), how it is known, and whether the expression is the type itself
    (`Foo` in `Foo.m()`) rather than a value of it."""

    name: str
    resolution: Resolution = Resolution.INFERRED
    static: bool = False
    shape: Shape | None = None  # the file's own type
    result: bool = False  # what a method of another file gives, named by the method
    element: Typed | None = None  # a container's: the type of its elements
    element_at: int = 0  # which of the variables of a loop over the container holds an element
    package: bool = False  # a package the file imports (Go's `store` of `store.Open()`), not a type
    wrapped: bool = False  # a call's result inside its wrapper (`Result<Foo, E>` before `?`): not yet a Foo


@dataclass(frozen=True)
class Declared:
    """What a declaration states of a name: the node of its type, or (a local declared without one) the type of the
    value it is given; neither for one whose type nothing states (it hides any field of that name)."""

    kind: ts.Node | None = None
    value: Typed | None = None
    exact: bool = False  # a method's receiver: of exactly its type


class Declarations:
    """The declarations of one file, each type's and function's read when first asked for. The binder gives where each
    node is (`site`) and types values: an initializer (`valued`), what a local is given (`given`)."""

    def __init__(
        self,
        rules: ScopeRules,
        root: ts.Node,
        site: Callable[[ts.Node], Site],
        valued: Callable[[ts.Node], Typed | None],
        given: Callable[[Local], Typed | None],
    ) -> None:
        self.rules, self.root = rules, root
        self._site, self._valued, self._given = site, valued, given
        self._fields: dict[int, dict[str, Declared]] = {}  # type node id -> field or property -> what it states
        self._locals: dict[int, LexicalNames[Declared]] = {}  # function node id -> its parameters and locals

    def find(self, expr: ts.Node, written: str, site: Site) -> Declared | None:
        """The nearest declaration of a receiver as written: a local or parameter of a function around it that is
        seen where it is written, else a field or property of the types around it (the innermost type's alone where
        types are not closed)."""
        for frame in site:
            if isinstance(frame, Body):
                if frame.locals and (local := self._locals_of(frame.node).find(written, expr.start_byte)):
                    return local.what
                continue
            fields = self.fields(frame.node)
            if written in fields:
                return fields[written]
            if not self.rules.closed_types:
                break
        return self._global(written, expr)

    def holds(self, node: ts.Node, name: str) -> bool:
        """Whether `name` is, where `node` is, a parameter or local of a function around it (a value, not a
        definition)."""
        for frame in self._site(node):
            if isinstance(frame, Shape):
                break
            if frame.locals and self._locals_of(frame.node).find(name, node.start_byte) is not None:
                return True
        return self._global(name, node) is not None

    def _global(self, name: str, node: ts.Node) -> Declared | None:
        """A top-level variable of the file (`globals`) seen where `node` is."""
        if not self.rules.globals:
            return None
        found = self._locals_of(self.root).find(name, node.start_byte)
        return found.what if found is not None else None

    def fields(self, node: ts.Node) -> dict[str, Declared]:
        """What a type declares (fields, properties) -> what each states; read once per type."""
        found = self._fields.get(node.id)
        if found is None:
            found = self._fields[node.id] = {}
            for name, kind in self.rules.declared(node):
                found[name] = Declared(kind)
            for name, value in self.rules.assigned(node):
                found.setdefault(name, Declared(value=self._valued(value)))
        return found

    def _locals_of(self, function: ts.Node) -> LexicalNames[Declared]:
        """What a function declares (parameters, locals) -> what each states, each seen from where it is declared
        on; read once per function (in order: an initializer reads those declared before it). Of the tree's root, the
        file's top-level variables (`globals`)."""
        found = self._locals.get(function.id)
        if found is None:
            found = self._locals[function.id] = LexicalNames()
            for local in self._declarations(function):
                value = self._given(local)
                if local.redeclares and local.kind is None and value is None:
                    known = found.find(local.name, local.visible)
                    if known is not None and known.scope == local.scope:
                        continue  # (Go's `x, err := ...`: x keeps the type it was declared with)
                found.add(local.name, local.scope, local.visible, Declared(local.kind, value, local.receiver))
        return found

    def _declarations(self, function: ts.Node) -> list[Local]:
        if self.rules.locals is not None:
            return list(self.rules.locals(function))
        found = [
            Local(name, self._block(kind, function), kind.start_byte, kind)
            for name, kind in self.rules.declared(function)
        ]
        for name, value in self.rules.assigned(function):
            found.append(Local(name, self._block(value, function), value.start_byte, None, value))
        return found

    def _block(self, node: ts.Node, function: ts.Node) -> tuple[int, int]:
        """The bytes a local declared at `node` is seen in: its innermost block inside the function, else the
        function (a parameter's)."""
        at = node.parent
        while at is not None and at.id != function.id and at.type not in self.rules.blocks:
            at = at.parent
        held = at if at is not None else function
        return held.start_byte, held.end_byte
