"""What a binder says each call and base class of a file refers to, for the indexer to finish.

A binder names a target as precisely as the file allows; only the indexer, with every project's entities, knows
what the name is (`trident.ingest.code_index`). Names are qualified as the indexer qualifies entities: the file's
module name (its path without extension, `/` as `.`: `src/billing/orders.ts` -> `src.billing.orders`) and the
definition's local name (`OrderService.checkout`). The indexer also knows each definition by the name it is
imported by in its language (a Python package path, a Go package folder, a JS `index` file's folder, a Rust
`mod.rs` or crate root's folder, a Java class without its file), and matches a qualified name written from outside
the project (a Go import path, a Java package) by its longest tail it knows.

Every language binds a whole file at once (`FileBinder`), given what the outline found in it: each call, base and
definition, in the order the outline met them (`Found`). Fifteen languages answer them through one resolver
(`rules_binder`: their rules are data); Python's binder reads its own scopes, as its types are mostly not stated but
inferred from the flow of values (`python_scope`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import tree_sitter as ts

from trident.ingest.model import TargetForm
from trident.store.schema import Resolution

__all__ = [
    "BaseSite",
    "Bindings",
    "BoundBase",
    "BoundCall",
    "BoundPass",
    "CallSite",
    "DefinitionSite",
    "FileBinder",
    "Found",
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
    place: int = -1  # a base's place among the class's bases as written (`class C(Mixin, Base)`: 0, 1); -1 not known


@dataclass(frozen=True)
class BoundAttribute:
    owner: str  # local name of the class
    attribute: str
    target: Target  # the class its value is (or a function: of what it returns)


@dataclass(frozen=True)
class BoundPass:
    """A value a call passes the function it calls (of any file): the call's `target`, the argument's `slot` (`(>0)`,
    `(>key)`) and the value's type as the caller reads it (a class, `mod.f@(p#0)` for the caller's own parameter)."""

    caller: str
    row: int
    target: Target
    slot: str
    value: str


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
    passes: list[BoundPass] = field(default_factory=list)  # what calls pass the functions they call (`PASSES`)


@dataclass(frozen=True)
class CallSite:
    """A call the outline met: in `caller` (its local name, "" the module), the call `node`, its callee expression."""

    caller: str
    row: int  # 0-based
    node: ts.Node
    callee: ts.Node


@dataclass(frozen=True)
class BaseSite:
    """A base type the outline read (`name`: its last identifier) of the class-like `node`, local name `owner`."""

    owner: str
    row: int
    name: str
    node: ts.Node


@dataclass(frozen=True)
class DefinitionSite:
    """A class or function the outline defined: what it returns and what the fields it declares hold are bound too.
    `holder` is the node whose fields are read (a class; a function's body, for its callbacks' parameters)."""

    local: str
    row: int
    node: ts.Node
    holder: ts.Node
    function: bool


Found = CallSite | BaseSite | DefinitionSite

# (tree root, file path, file's module name, what the outline found in it, in order) -> every call and base of the
# file, bound, with what its functions return and its types' fields hold
FileBinder = Callable[[ts.Node, str, str, Sequence[Found]], Bindings]
