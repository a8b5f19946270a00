"""The rules binder for a language whose names are paths through modules (Rust), resolved where each is written by
the language's `PathNames` (`ScopeRules.paths`) rather than by the file's nested types and imports:

- a bare or path call (`helper()`, `util::parse()`, `crate::a::f()`, `Foo(x)`) is what the path names (exact); a
  bare name the file does not bind, in a module with one glob import of another file's module, that module's
  function of the name (inferred); a path into the language's library, nothing;
- `Foo::m()` on a type the path names is Foo's member (exact); on one it does not, `Foo.m` by name (a guess the
  indexer keeps where one entity has it);
- a receiver's type is what the code states of it (inferred): a parameter's or local's stated type or value, a
  struct literal or tuple struct made, a field of the file's own struct (of another file's, `Owner@field`, for the
  indexer), a static's type, what a function or method of the file states it returns (a wrapped result, `Result<Foo,
  E>`, only once unwrapped: `f()?`, `f().unwrap()`), a type's function named as making one (`Foo::new()`).
"""

from __future__ import annotations

from dataclasses import replace

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Target
from trident.ingest.languages.declarations import Declared, Typed
from trident.ingest.languages.frames import Site
from trident.ingest.languages.rules_binder import MAX_CHAIN, RulesBinder
from trident.ingest.languages.scope_rules import OUTSIDE, PathNames, ScopeRules
from trident.ingest.model import ATTRIBUTE_MARK, TargetForm
from trident.store.schema import Resolution


class PathsBinder(RulesBinder):
    """The site binder of one file whose names are paths (`rules.paths`)."""

    def __init__(self, rules: ScopeRules, root: ts.Node, module: str, path: str) -> None:
        if rules.paths is None:
            raise ValueError("a paths binder needs rules that say what names a path (`ScopeRules.paths`)")
        super().__init__(rules, root, module, path)
        self.paths: PathNames = rules.paths(root, path, module)

    # --- where the rules binder looks names up ---

    def _bare(self, name: str, site: Site) -> Target | None:
        """`helper()`, `util::parse()`, `Foo(x)`: what the path names; a bare name it does not bind, the one glob
        import's module's function of the name; None for the language's library's."""
        found = self.paths.resolve(name, site)
        if found == OUTSIDE:
            return None
        if found:
            return Target(TargetForm.QUALIFIED, found, Resolution.EXACT)
        if "." not in name and (glob := self.paths.glob(site)):
            return Target(TargetForm.LINKED, name, Resolution.INFERRED, owner=glob)
        return Target(TargetForm.NAME, _last(name), Resolution.NAME)

    def _type_named(self, written: str, site: Site, depth: int = 0, *, local_only: bool = False) -> str:
        if not written or written == OUTSIDE:
            return written
        return self.paths.resolve(written, site) or ""

    def _owner_type(self, written: str, site: Site) -> str:
        return self._type_named(written, site)

    def _member(self, typed: Typed | None, name: str) -> Target | None:
        if typed is not None and typed.static and typed.resolution is Resolution.NAME:  # `Order::draft()`, unbound
            return Target(TargetForm.QUALIFIED, f"{typed.name}.{name}", Resolution.NAME)
        return super()._member(typed, name)

    # --- what a receiver is ---

    def _type_of(self, expr: ts.Node, depth: int) -> Typed | None:
        """The type of a receiver: a type's path (`Foo` of `Foo::new()`) is that type (exact; one the file does not
        name, by its name alone); a value is typed by its declaration, what it is made as, read from or given by a
        call (inferred)."""
        rules = self.rules
        if depth > MAX_CHAIN:
            return None
        if (inner := rules.unwrap(expr)) is not None:
            return self._type_of(inner, depth + 1)
        if (inner := rules.unwrapping(expr)) is not None:
            typed = self._type_of(inner, depth + 1)
            return replace(typed, wrapped=False) if typed is not None else None
        site = self._around(expr)
        if named := rules.written(expr):
            found = self._type_named(named, site)
            return Typed(found or _last(named), Resolution.EXACT if found else Resolution.NAME, static=True)
        written = node_text(expr)
        if written in rules.self_receivers:
            return self._typed(self._own(site), Resolution.INFERRED)
        if (kind := rules.made(expr)) is not None:
            return self._typed(self._type_named(rules.written(kind), site), Resolution.INFERRED)
        declared = self.declarations.find(expr, written, site)
        if declared is not None:
            return self._declared_type(declared)
        if (read := rules.access(expr)) is not None:
            held = self._type_of(read[0], depth + 1)
            return self._field(held, read[1]) if held is not None else None
        if (callee := rules.callee(expr)) is not None:
            return self._gives(expr, callee, site, depth)
        return self._static_type(self._type_named(written, site)) if written.isidentifier() else None

    def _field(self, owner: Typed, name: str) -> Typed | None:
        """What a field read holds: of the file's own type, what it declares; of another file's, `Owner@field` for
        the indexer (one field deep)."""
        if owner.shape is not None:
            declared = self.declarations.fields(owner.shape.node).get(name)
            return self._declared_type(declared) if declared is not None else None
        if owner.wrapped or owner.name == OUTSIDE or ATTRIBUTE_MARK in owner.name or not name.isidentifier():
            return None
        return Typed(f"{owner.name}{ATTRIBUTE_MARK}{name}")

    def _gives(self, call: ts.Node, callee: ts.Node, site: Site, depth: int) -> Typed | None:
        """What a call gives: what the file's function or method states it returns; a type's function named as
        making one (`Foo::new()`), a Foo."""
        split = self.rules.split(call, callee)
        if split is None:
            return None
        receiver, name = split
        if receiver is None:
            return None if self.declarations.holds(call, name) else self._returns(self._type_named(name, site))
        owner = self._type_of(receiver, depth + 1)
        if owner is None or owner.wrapped or owner.name == OUTSIDE or owner.resolution is Resolution.NAME:
            return None
        gives = self._returns(f"{owner.name}.{name}")
        if gives is None and owner.static and self.rules.constructs(name):
            return replace(owner, resolution=Resolution.INFERRED, static=False)
        return gives

    def _returns(self, qualified: str) -> Typed | None:
        """What the file's function of this name states it returns (inside its wrapper, if it states one), named
        where the function is (its own type parameters stand for what each call makes them, not their bounds)."""
        function = self.paths.item(qualified) if qualified else None
        if function is None or function.type not in self.rules.functions:
            return None
        kind = self.rules.returned(function)
        if kind is None:
            return None
        inner = self.rules.wrapped(kind)
        found = self._type_named(self.rules.written(inner or kind), self._around(function))
        typed = self._typed(found, Resolution.INFERRED)
        return replace(typed, wrapped=True) if typed is not None and inner is not None else typed

    def _static_type(self, qualified: str) -> Typed | None:
        """A static or constant of the file: a value of the type it states."""
        static = self.paths.item(qualified) if qualified and qualified != OUTSIDE else None
        kind = self.rules.returned(static) if static is not None and static.type not in self.rules.functions else None
        return self._declared_type(Declared(kind)) if kind is not None else None


def _last(written: str) -> str:
    return written.rpartition(".")[2]
