"""C# calls and bases bound by scope, one site at a time (a `SiteBinder`): what the file itself proves.

- A bare call (`Notify(x)`) and `this.Notify(x)` are members of the enclosing type, looked up through its bases;
  `base.Notify(x)` in its bases only.
- A type the file defines (`new Receipt(...)`, `Limits.MaxRetries()`, `: GatewayBase`) is that definition.
- Anything else (`_gateway.Charge(total)`, a type from another file) is named as written: a guess the indexer keeps
  only where one entity of the project has the name, labelled `name`. Types are not tracked yet: a field's or a
  parameter's declared type does not bind the calls made on it.
"""

from __future__ import annotations

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Target
from trident.ingest.model import TargetForm
from trident.store.schema import Resolution

TYPES = frozenset(
    {
        "class_declaration",
        "struct_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "record_struct_declaration",
    }
)
_GENERIC = "generic_name"


def _type_name(node: ts.Node) -> str:
    return node_text(node.child_by_field_name("name"))


def _local(node: ts.Node) -> str:
    """The local name of a type declaration: its enclosing types' names and its own, `Outer.Inner`."""
    names = []
    at: ts.Node | None = node
    while at is not None:
        if at.type in TYPES and (name := _type_name(at)):
            names.append(name)
        at = at.parent
    return ".".join(reversed(names))


def _plain(node: ts.Node) -> ts.Node:
    """`Foo<T>` -> `Foo`."""
    return node.named_children[0] if node.type == _GENERIC and node.named_child_count else node


class CSharpBinder:
    """The site binder of one C# file."""

    def __init__(self, root: ts.Node, path: str, module: str) -> None:
        self.module = module
        self.types: dict[str, str] = {}  # type name -> its local name, for the types this file defines
        stack = [root]
        while stack:
            node = stack.pop()
            if node.type in TYPES and (name := _type_name(node)):
                self.types.setdefault(name, _local(node))
            stack.extend(node.named_children)

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None:
        callee = _plain(callee)
        if node.type == "object_creation_expression":
            return self._type(callee)
        if callee.type == "identifier":
            own = self._enclosing(node)
            if own:
                return Target(TargetForm.MEMBER, node_text(callee), Resolution.EXACT, owner=own)
            return Target(TargetForm.NAME, node_text(callee), Resolution.NAME)
        if callee.type != "member_access_expression":
            return None
        member = node_text(_plain(callee.child_by_field_name("name") or callee))
        receiver = callee.child_by_field_name("expression")
        written = node_text(receiver) if receiver is not None else ""
        own = self._enclosing(node)
        if written in ("this", "base") and own:
            return Target(TargetForm.MEMBER, member, Resolution.EXACT, owner=own, after_owner=written == "base")
        if written in self.types:  # `Limits.MaxRetries()`: a static member of a type of this file
            return Target(TargetForm.MEMBER, member, Resolution.EXACT, owner=f"{self.module}.{self.types[written]}")
        return Target(TargetForm.NAME, member, Resolution.NAME) if member else None

    def base(self, name: str, node: ts.Node) -> Target | None:
        if name in self.types:
            return Target(TargetForm.QUALIFIED, f"{self.module}.{self.types[name]}", Resolution.EXACT)
        return Target(TargetForm.NAME, name, Resolution.NAME)

    def _type(self, written: ts.Node) -> Target | None:
        """What `new T(...)` constructs: a type of this file, else T by name."""
        while written.type in ("qualified_name", "alias_qualified_name") and written.child_by_field_name("name"):
            written = _plain(written.child_by_field_name("name") or written)
        name = node_text(_plain(written))
        if name in self.types:
            return Target(TargetForm.QUALIFIED, f"{self.module}.{self.types[name]}", Resolution.EXACT)
        return Target(TargetForm.NAME, name, Resolution.NAME) if name.isidentifier() else None

    def _enclosing(self, node: ts.Node) -> str:
        """The qualified name of the type whose member holds the call ("" outside any type)."""
        at = node.parent
        while at is not None and at.type not in TYPES:
            at = at.parent
        return f"{self.module}.{_local(at)}" if at is not None else ""


def bind_csharp(root: ts.Node, path: str, module: str) -> CSharpBinder:
    """The site binder of one C# file (a `SiteBinderFactory`)."""
    return CSharpBinder(root, path, module)
