"""What surrounds each node of a file, read in one walk: the types and modules (`Shape`) and function bodies (`Body`)
around it, innermost first, as the rules binder resolves names by (`rules_binder`).

A type the outline makes an entity of is named (`Outer.Inner`); an anonymous type (Java's `new Foo() { ... }`) and a
type declared inside a function have no entity, so a call of a method they declare binds to nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import tree_sitter as ts

from trident.ingest.languages import node_text

if TYPE_CHECKING:
    from trident.ingest.languages.scope_rules import ScopeRules


@dataclass(eq=False)
class Shape:
    """A type of the file and what its body declares (its methods, with the node of each; None for overloads that
    state different return types) and nests."""

    node: ts.Node
    name: str
    qualified: str  # "" for a type no entity is made of (anonymous, local, or nameless outside any named type)
    parent: Shape | None  # the named type it is declared in
    unnamed: bool = False  # anonymous or declared inside a function
    methods: dict[str, ts.Node | None] = field(default_factory=dict)
    nested: dict[str, Shape] = field(default_factory=dict)
    namespace: bool = False  # a module with names of its own (Rust's inline `mod`), not a type

    def chain(self) -> Iterator[Shape]:
        """The type and the named types around it, innermost first."""
        current: Shape | None = self
        while current is not None:
            yield current
            current = current.parent


@dataclass(eq=False)
class Body:
    """A function (or another node whose locals are its own: a Java field's initializer)."""

    node: ts.Node
    locals: bool  # whether its parameters and locals type the receivers inside it
    owner: str = ""  # the type it is a method of, where it is defined outside it (C++'s `void Circle::area()`)
    local_types: set[str] = field(default_factory=set)  # types declared in it: no entity's


Frame = Shape | Body
Site = tuple[Frame, ...]  # innermost first


@dataclass
class Frames:
    """The frames of one file: around each node (by id), the one each frame-opening node opens, the named types by
    qualified name, the file's top-level types and functions."""

    around: dict[int, Site] = field(default_factory=dict)
    opened: dict[int, Frame] = field(default_factory=dict)
    named: dict[str, Shape] = field(default_factory=dict)
    top: dict[str, Shape] = field(default_factory=dict)
    flat: dict[str, str] = field(default_factory=dict)  # a type's own name -> its local name (`Outer.Inner`), the last
    functions: dict[str, ts.Node] = field(default_factory=dict)  # the file's top-level functions, the first of a name

    def inside(self, node: ts.Node) -> Site:
        """The frames inside a node: the one it opens, if any, and those around it."""
        around = self.around.get(node.id, ())
        opened = self.opened.get(node.id)
        return (opened, *around) if opened is not None else around


def own_type(site: Site) -> Shape | None:
    """The innermost type around a site, anonymous or local included."""
    return next((f for f in site if isinstance(f, Shape)), None)


def read_frames(rules: ScopeRules, root: ts.Node, module: str) -> Frames:
    """One walk of the tree, top down, in document order; the file's types named in `module` (its package's, where
    packages are folders; none at a project's root)."""
    frames = Frames()
    methods = rules.methods if rules.methods is not None else rules.functions
    pending: list[tuple[ts.Node, Site]] = [(root, ())]
    while pending:
        node, site = pending.pop()
        frames.around[node.id] = site
        opened = _open(rules, node, site, module, frames)
        if opened is not None:
            frames.opened[node.id] = opened
        if node.type in methods and isinstance(parent := own_frame(site), Shape):
            _note_method(rules, parent, node)
        inner = (opened, *site) if opened is not None else site
        pending.extend((child, inner) for child in reversed(node.named_children))
    return frames


def own_frame(site: Site) -> Frame | None:
    return site[0] if site else None


def _open(rules: ScopeRules, node: ts.Node, site: Site, module: str, frames: Frames) -> Frame | None:
    kind = node.type
    if kind in rules.types:
        return _shape(rules, node, site, module, frames)
    if kind in rules.namespaces:
        shape = _shape(rules, node, site, module, frames)
        shape.namespace = True
        return shape
    if rules.anonymous(node):
        return Shape(node, "", "", None, unnamed=True)
    if kind in rules.bodies or kind in rules.functions:
        owner = rules.owner(node) if kind in rules.functions else ""
        if kind in rules.functions and not owner and (name := rules.name(node)) and not _owning(site):
            frames.functions.setdefault(name, node)
        return Body(node, kind in rules.bodies, owner)
    return None


def _shape(rules: ScopeRules, node: ts.Node, site: Site, module: str, frames: Frames) -> Shape:
    name = rules.name(node)
    if name:
        names = [f.name for f in reversed(site) if isinstance(f, Shape) and f.name]
        frames.flat[name] = ".".join((*names, name))
    local = any(isinstance(f, Body) or (isinstance(f, Shape) and f.unnamed) for f in site)
    parent = next((f for f in site if isinstance(f, Shape)), None)
    if local:
        body = next((f for f in site if isinstance(f, Body)), None)
        if body is not None and name:
            body.local_types.add(name)
        return Shape(node, name, "", None, unnamed=True)
    outer = parent.qualified if parent is not None else ""
    qualified = (f"{outer or module}.{name}" if outer or module else name) if name else outer
    shape = Shape(node, name, qualified, parent)
    if name:
        frames.named.setdefault(qualified, shape)
        (parent.nested if parent is not None else frames.top).setdefault(name, shape)
    return shape


def _owning(site: Site) -> bool:
    """Whether a function in this site is a type's (a type around it, or a function defined outside its type)."""
    return any((isinstance(f, Shape) and (f.qualified or f.name)) or (isinstance(f, Body) and f.owner) for f in site)


def _note_method(rules: ScopeRules, shape: Shape, method: ts.Node) -> None:
    """A method of a type; overloads that state different return types leave what it returns unknown."""
    name = rules.name(method)
    if not name:
        return
    if name not in shape.methods:
        shape.methods[name] = method
        return
    known = shape.methods[name]
    stated = rules.returned(method)
    if known is not None and node_text(rules.returned(known)) != node_text(stated):
        shape.methods[name] = None
