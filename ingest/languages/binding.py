"""What a binder says each call and base class of a file refers to, for the indexer to finish.

A binder names a target as precisely as the file allows; only the indexer, with every project's entities, knows
what the name is (`trident.ingest.code_index`). Names are qualified as the indexer qualifies entities: the file's
module name (its path without extension, `/` as `.`: `src/billing/orders.ts` -> `src.billing.orders`) and the
definition's local name (`OrderService.checkout`). The indexer also knows each definition by the name it is
imported by in its language (a Python package path, a Go package folder, a JS `index` file's folder, a Rust
`mod.rs` or crate root's folder, a Java class without its file), and matches a qualified name written from outside
the project (a Go import path, a Java package) by its longest tail it knows.

Python binds a whole file at once (`python_scope`); the other languages bind one call site at a time while the
outline walks the tree (`SiteBinder`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import tree_sitter as ts

from trident.ingest.model import TargetForm
from trident.store.schema import Resolution

__all__ = [
    "Bindings",
    "BoundBase",
    "BoundCall",
    "FileBinder",
    "HoldsBinder",
    "ReturnsBinder",
    "SiteBinder",
    "SiteBinderFactory",
    "Target",
]


@dataclass(frozen=True)
class Target:
    """What a call or base names: a qualified name, a member of a class, or only a bare name.

    `resolution` is how sure the binder is: `exact` when the file proves the binding (a receiver, an import, a
    definition in scope), `inferred` when it rests on a type the code states (a declared or constructed type),
    `name` when only the name is known (a guess the indexer keeps only when the name is unique in the project).
    """

    form: TargetForm
    name: str  # qualified name (QUALIFIED), member name (MEMBER) or bare name (NAME)
    resolution: Resolution
    owner: str = ""  # MEMBER: qualified name of the type whose member it is
    after_owner: bool = False  # MEMBER via super: look in the owner's bases only
    virtual: bool = True  # False: the call names the method that runs (`Base.m(self)`), no override of it runs


@dataclass(frozen=True)
class BoundCall:
    caller: str  # local name of the calling entity, as the outline names it ("" is the module)
    row: int  # 0-based
    target: Target


@dataclass(frozen=True)
class BoundBase:
    owner: str  # local name of the class
    row: int  # 0-based
    target: Target


@dataclass(frozen=True)
class BoundAttribute:
    owner: str  # local name of the class
    attribute: str
    target: Target  # the class its value is (or a function: of what it returns)


@dataclass
class Bindings:
    calls: list[BoundCall] = field(default_factory=list)
    bases: list[BoundBase] = field(default_factory=list)
    references: list[BoundCall] = field(default_factory=list)  # a function or method passed as a value
    returns: list[BoundBase] = field(default_factory=list)  # a function's stated return type (owner: the function)
    yields: list[BoundBase] = field(default_factory=list)  # the stated type of each element a function returns
    holds: list[BoundAttribute] = field(default_factory=list)  # the stated type of a class's attribute
    # a definition's decorators applied by name (`@d`, `@d(...)`; caller: the decorated definition): what a call of
    # it runs is what the decorator made of it
    decorations: list[BoundCall] = field(default_factory=list)
    # module-level name -> the file's own top-level function or class it holds (`_default_stdout = _cached(...)`):
    # another file importing the name calls that definition
    held: dict[str, str] = field(default_factory=dict)
    # module-level dict or list literal -> the file's own top-level functions or classes it holds (`DECODERS = {"gzip":
    # GZipDecoder, ...}`): another file calling an item of it calls one of them
    tables: dict[str, list[str]] = field(default_factory=dict)


class SiteBinder(Protocol):
    """Binds the call sites and base types of one file, one at a time, as the outline meets them."""

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None:
        """What the call `node` (its callee expression `callee`) refers to; None for a call nothing in any project
        can define (a builtin, a standard library function, a method of a builtin type)."""
        ...

    def base(self, name: str, node: ts.Node) -> Target | None:
        """What the base type `name` (as the outline read it, its last identifier) of the class-like `node`
        refers to; None to drop it."""
        ...


@runtime_checkable
class ReturnsBinder(Protocol):
    """A site binder that also reads what each function states it returns, for the indexer to type a call's result
    by in other files (Go: `router.Path("/g").Subrouter()` with `Path` declared in another file)."""

    def returned(self, node: ts.Node) -> Target | None:
        """The type the function or method definition `node` states it returns (its first result), None for one
        no project defines."""
        ...


@runtime_checkable
class HoldsBinder(Protocol):
    """A site binder that also reads what each field a type declares holds, for the indexer to type a receiver by in
    other files (C++: `_document->NewElement()` in a method the `.cpp` defines, with `XMLDocument* _document;` in the
    class its header declares)."""

    def held(self, node: ts.Node) -> list[tuple[str, Target]]:
        """(field, the type it is declared with) for each field of the type definition `node` whose type a project
        may define."""
        ...


# (tree root, file path, file's module name) -> the file's binder
SiteBinderFactory = Callable[[ts.Node, str, str], SiteBinder]
# (tree root, file path, file's module name) -> every call and base of the file, bound
FileBinder = Callable[[ts.Node, str, str], Bindings]
