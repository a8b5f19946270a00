"""What a Rust path means where it is written (`PathNames`): modules in import form (`src/lib.rs` is `src`), `crate::`,
`super::` and `self::` paths, `use` trees and globs, inline `mod` blocks with names of their own (`#[cfg(test)] mod
tests { use super::*; }` takes its parent's names in), a function's own `use`s and nested items (no entity's), a type
parameter's one bound, `Self`, and the standard library's and the prelude's names (OUTSIDE)."""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.frames import Site
from trident.ingest.languages.rust_syntax import (
    ANCHORS,
    DEFINITIONS,
    PRELUDE_FUNCTIONS,
    PRELUDE_TYPES,
    STD_CRATES,
    crate_root,
    is_type_name,
    nested_names,
    segments,
    type_bounds,
    use_bindings,
)
from trident.ingest.languages.scope_rules import OUTSIDE

_WORDS = frozenset({"crate", "self", "super"})


@dataclass
class _Module:
    parts: list[str]  # the module's path, import form
    names: dict[str, str] = field(default_factory=dict)  # local name -> qualified name; "" names std
    globs: list[str] = field(default_factory=list)  # modules of other files whose every name `use m::*` brings


@dataclass
class _Scope:
    """What names mean in one item (a function, an impl, a trait, a module): its module's, and its own."""

    module: _Module
    self_type: str = ""  # the qualified type `Self` means ("" for none, or a std type)
    names: dict[str, str] = field(default_factory=dict)  # a `use` in the function, a type parameter's bound


class RustPaths:
    """The names of one Rust file, read once: its modules' (items, then `use`s, then inline modules), and each item's
    own, read the first time a path in it is resolved."""

    def __init__(self, root: ts.Node, path: str, module: str) -> None:
        self.crate = crate_root(path)
        self.modules: dict[int, _Module] = {}
        self.items: dict[str, ts.Node] = {}  # qualified name -> the file's function or static of that name
        self.scopes: dict[int, _Scope] = {}
        self.root = self._read_module(root, module.split("."), root)

    # --- the PathNames protocol ---

    def resolve(self, written: str, site: Site) -> str | None:
        """The qualified name a dotted path means where `site` is; OUTSIDE for std's, None where the file does not
        say."""
        return _outside(self._resolve(written.split("."), self._scope(site)))

    def glob(self, site: Site) -> str:
        """The one module of another file whose every name the module around `site` brings in (`use crate::util::*`),
        "" for none or several."""
        globs = self._scope(site).module.globs
        return globs[0] if len(globs) == 1 else ""

    def item(self, qualified: str) -> ts.Node | None:
        return self.items.get(qualified)

    # --- reading the file ---

    def _read_module(self, node: ts.Node, parts: list[str], body: ts.Node) -> _Module:
        """A module's names: its items first, then its `use`s (which may start from them: `mod a; use a::X;`), then
        inline modules (whose `use super::*` takes these names in), functions, methods and statics."""
        module = self.modules[node.id] = _Module(parts)
        items = body.named_children
        for item in items:
            name = node_text(item.child_by_field_name("name"))
            if item.type in DEFINITIONS and name:
                module.names[name] = ".".join([*parts, name])
        scope = _Scope(module)
        for item in items:
            if item.type == "use_declaration":
                self._use(item, scope, module.names)
        for item in items:
            name = node_text(item.child_by_field_name("name"))
            inner = item.child_by_field_name("body") if item.type == "mod_item" else None
            if inner is not None:
                self._read_module(item, [*parts, name], inner)
            elif item.type == "impl_item":
                self._read_impl(item, module)
            elif item.type in ("function_item", "static_item", "const_item") and name in module.names:
                self.items[module.names[name]] = item
        return module

    def _read_impl(self, node: ts.Node, module: _Module) -> None:
        self_type = self._scope_of(node, module).self_type
        body = node.child_by_field_name("body")
        for item in body.named_children if body is not None and self_type else []:
            name = node_text(item.child_by_field_name("name"))
            if item.type == "function_item" and name:
                self.items[f"{self_type}.{name}"] = item

    def _use(self, node: ts.Node, scope: _Scope, into: dict[str, str]) -> None:
        """Bind what a `use` names; `use super::*` from an inline module takes in its parent's names."""
        for local, path in use_bindings(node.child_by_field_name("argument"), []):
            found = self._resolve(path, scope)
            if local != "*" and found is not None:
                into[local] = found
            elif local == "*" and found:
                inline = [m for m in self.modules.values() if ".".join(m.parts) == found]
                for module in inline:
                    for name, qualified in module.names.items():
                        into.setdefault(name, qualified)
                if not inline and into is scope.module.names:
                    scope.module.globs.append(found)

    # --- an item's scope ---

    def _scope(self, site: Site) -> _Scope:
        anchor = next((f.node for f in site if f.node.type in ANCHORS), None)
        if anchor is None:
            return _Scope(self.root)
        found = self.scopes.get(anchor.id)
        if found is None:
            found = self._scope_of(anchor, self._module_of(anchor))
        return found

    def _module_of(self, node: ts.Node | None) -> _Module:
        while node is not None:
            if node.id in self.modules:
                return self.modules[node.id]
            node = node.parent
        return self.root

    def _scope_of(self, anchor: ts.Node, module: _Module) -> _Scope:
        """A function's scope: its impl's or trait's `Self`, its type parameters' bounds, its `use`s and nested items
        (no entity's: a call of one names nothing)."""
        scope = self.scopes[anchor.id] = _Scope(module)
        owner: ts.Node | None = anchor
        if anchor.type == "function_item":
            holder = anchor.parent
            owner = holder.parent if holder is not None and holder.type == "declaration_list" else anchor
        if owner is not None and owner.type == "impl_item":
            self._bounds(owner, scope)
            scope.self_type = self._resolve(segments(owner.child_by_field_name("type")) or [], scope) or ""
        elif owner is not None and owner.type == "trait_item":
            scope.self_type = ".".join([*module.parts, node_text(owner.child_by_field_name("name"))])
        if anchor.type == "function_item":
            self._bounds(anchor, scope)
            for node in nested_names(anchor):
                if node.type == "use_declaration":
                    self._use(node, scope, scope.names)
                else:
                    scope.names.setdefault(node_text(node.child_by_field_name("name")), "")
        return scope

    def _bounds(self, node: ts.Node, scope: _Scope) -> None:
        """`<T: Handler>` / `where T: Handler`: T stands for its one bound from the project (or std, bound "")."""
        for name, bounds in type_bounds(node):
            found = {self._resolve(segments(b) or [], scope) for b in bounds} - {None}
            project = {q for q in found if q}
            if len(project) == 1 or (found and not project):
                scope.names[name] = project.pop() if project else ""

    def _resolve(self, path: list[str], scope: _Scope) -> str | None:
        """The qualified name a path means in `scope`; "" for the standard library, None when the file does not
        say."""
        if not path:
            return None
        head, rest = path[0], path[1:]
        if head in _WORDS:
            base = list(self.crate) if head == "crate" else list(scope.module.parts)
            rest = path[1:] if head == "crate" else path
            while rest and rest[0] in ("self", "super"):
                base = base[:-1] if rest[0] == "super" else base
                rest = rest[1:]
            return ".".join([*base, *rest]) or None
        if head == "Self":
            return ".".join([scope.self_type, *rest]) if scope.self_type else None
        bound = scope.names.get(head, scope.module.names.get(head))
        if bound is not None:
            return ".".join([bound, *rest]) if bound else ""
        if head in STD_CRATES or head in PRELUDE_TYPES or (not rest and head in PRELUDE_FUNCTIONS):
            return ""
        return ".".join(path) if rest and not is_type_name(head) else None  # another crate, as written


def _outside(found: str | None) -> str | None:
    return OUTSIDE if found == "" else found
