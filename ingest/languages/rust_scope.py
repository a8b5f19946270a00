"""Rust name binding: what each call and trait impl in a file refers to, by `use`, module and stated type.

A call is described as precisely as the file allows, for the indexer to finish against every indexed entity:
- `self.m()` / `Self::m()` in an `impl Foo` (or `impl Tr for Foo`): member `m` of Foo, looked up through Foo's
  bases, the traits it implements (exact); in a trait's default method, a member of the trait.
- `Foo::m()` on a type the file names (a definition, a `use`): member `m` of Foo (exact).
- a path the file binds (`helper()`, `util::parse()`, `crate::a::f()`, `super::f()`, `Foo { .. }`): that
  qualified name (exact).
- a receiver whose type the code states (a parameter `x: &Foo`, `let x: Foo`, `let x = Foo::new()`,
  `Foo { .. }`, a field `self.pool` of a struct declared in the file, a function declared to return Foo):
  member of that type (inferred).
- `Foo::m()` on a type the file does not bind (a glob import): `Foo.m`, which the indexer matches by its tail
  when one entity has it (a guess).
- a bare call of a name the file does not bind, in a module with one glob import of another file's module
  (`use crate::util::*;`): that module's function of the name, else a guess (inferred).
- anything else: the bare name, a guess the indexer keeps only when one entity of the project has it; None for
  what only the standard library defines (`Vec::new()`, `x.unwrap()` on an untyped x, `Some(..)`).
Names take the import form: `src/lib.rs` is `src`, `src/a/mod.rs` is `src.a`, `crate::` is the innermost `src`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import tree_sitter as ts

from trident.ingest.languages import node_text, terminal_name
from trident.ingest.languages.binding import Target
from trident.ingest.languages.lexical import LexicalNames
from trident.ingest.languages.rust import crate_root, module_parts
from trident.ingest.languages.rust_syntax import (
    ANCHORS,
    BUILTIN_METHODS,
    DEFINITIONS,
    PRELUDE_FUNCTIONS,
    PRELUDE_TYPES,
    STD_CRATES,
    UNWRAPS,
    binding_sites,
    called,
    declared_return,
    field_types,
    is_constructor,
    is_type_name,
    named_type,
    names_type,
    parameters,
    pattern_names,
    pattern_scope_end,
    segments,
    type_bounds,
    use_bindings,
)
from trident.ingest.model import ATTRIBUTE_MARK, TargetForm
from trident.store.schema import Resolution


@dataclass
class _Module:
    parts: list[str]  # the module's path, import form
    names: dict[str, str] = field(default_factory=dict)  # local name -> qualified name; "" names std
    globs: list[str] = field(default_factory=list)  # modules of other files whose every name `use m::*` brings


@dataclass
class _Frame:
    """What a function (or an impl, trait or module outside any function) sees."""

    module: _Module
    self_type: str = ""  # the qualified type `Self` means
    self_local: str = ""  # an impl's type as the outline names its methods ("" outside an impl)
    names: dict[str, str] = field(default_factory=dict)  # a `use` in the function, a type parameter's bound
    variables: LexicalNames[str] = field(default_factory=LexicalNames)  # each binding's stated type

    def variable(self, name: str, at: int) -> str | None:
        """The stated type of the innermost binding of `name` in scope at byte `at` ("" unknown, None: not a
        variable there)."""
        found = self.variables.find(name, at)
        return found.what if found is not None else None

    def bind(self, name: str, scope: tuple[int, int], start: int, found: str) -> None:
        """`name`, of the stated type `found`, seen in the bytes `scope` (its block's) from byte `start` on."""
        self.variables.add(name, scope, start, found)


class RustBinder:
    """Binds one file's calls and trait impls, one site at a time; per-function reading is cached."""

    def __init__(self, root: ts.Node, path: str, module: str) -> None:
        self.own = ".".join(module_parts(path)) or module
        self.crate = crate_root(path)
        self.modules: dict[int, _Module] = {}
        self.fields: dict[str, dict[str, str]] = {}  # struct -> field -> type, for structs of this file
        self.declared: dict[int, dict[str, str]] = {}  # struct node id -> field -> type (for `held`)
        self.returns: dict[str, tuple[str, bool]] = {}  # function -> (type, wrapped in Result/Option)
        self.statics: dict[str, str] = {}  # static or const -> type
        self.methods: dict[str, set[str]] = defaultdict(set)  # impl type (as written) -> functions in its impls
        self.frames: dict[int, _Frame] = {}
        self.root = self._read_module(root, self.own.split("."), root)

    # --- first pass: what each module of the file binds, its struct fields and declared return types ---

    def _read_module(self, node: ts.Node, parts: list[str], body: ts.Node) -> _Module:
        """A module's names: its items first, then its `use`s (which may start from them: `mod a; use a::X;`),
        then inline modules (whose `use super::*` takes these names in), struct fields and return types."""
        module = self.modules[node.id] = _Module(parts)
        items = body.named_children
        for item in items:
            name = node_text(item.child_by_field_name("name"))
            if item.type in DEFINITIONS and name:
                module.names[name] = ".".join([*parts, name])
        frame = _Frame(module)
        for item in items:
            if item.type == "use_declaration":
                self._use(item, frame, module.names)
        for item in items:
            inner = item.child_by_field_name("body") if item.type == "mod_item" else None
            if inner is not None:
                self._read_module(item, [*parts, node_text(item.child_by_field_name("name"))], inner)
            elif item.type in ("struct_item", "union_item"):
                self._read_fields(item, frame)
            elif item.type == "impl_item":
                self._read_impl(item, module)
            elif item.type == "function_item":
                self._read_return(item, frame, module.names.get(node_text(item.child_by_field_name("name")), ""))
            elif item.type in ("static_item", "const_item"):
                name = module.names.get(node_text(item.child_by_field_name("name")), "")
                self.statics[name] = self._type(item.child_by_field_name("type"), frame)
        return module

    def _use(self, node: ts.Node, frame: _Frame, into: dict[str, str]) -> None:
        """Bind what a `use` names; `use super::*` from an inline module takes in its parent's names."""
        for local, path in use_bindings(node.child_by_field_name("argument"), []):
            found = self._resolve(path, frame)
            if local != "*" and found is not None:
                into[local] = found
            elif local == "*" and found:
                inline = [m for m in self.modules.values() if ".".join(m.parts) == found]
                for module in inline:
                    for name, qualified in module.names.items():
                        into.setdefault(name, qualified)
                if not inline and into is frame.module.names:
                    frame.module.globs.append(found)

    def _read_fields(self, node: ts.Node, frame: _Frame) -> None:
        name = frame.module.names.get(node_text(node.child_by_field_name("name")), "")
        if name:
            found = self.fields.setdefault(name, {})
            found.update((f, self._type(typed, frame)) for f, typed in field_types(node.child_by_field_name("body")))
            self.declared[node.id] = found

    def _read_impl(self, node: ts.Node, module: _Module) -> None:
        frame = self._frame_at(node, module)
        body = node.child_by_field_name("body")
        for item in body.named_children if body is not None else []:
            name = node_text(item.child_by_field_name("name"))
            if item.type == "function_item" and name:
                self.methods[frame.self_local].add(name)
                if frame.self_type:
                    self._read_return(item, frame, f"{frame.self_type}.{name}")

    def _read_return(self, node: ts.Node, frame: _Frame, qualified: str) -> None:
        """`-> Foo` / `-> Self` / `-> Result<Self, E>`: what a call of the function gives (`?` unwraps)."""
        declared, wrapped = declared_return(node)
        found = self._type(declared, frame)
        if qualified and found:
            self.returns[qualified] = (found, wrapped)

    # --- scopes: the frame a call is bound in ---

    def _frame(self, node: ts.Node) -> _Frame:
        anchor: ts.Node | None = node.parent
        while anchor is not None and anchor.type not in ANCHORS:
            anchor = anchor.parent
        if anchor is None:
            return _Frame(self.root)
        frame = self.frames.get(anchor.id)
        if frame is None:
            frame = self.frames[anchor.id] = self._frame_at(anchor, self._module_of(anchor))
        return frame

    def _module_of(self, node: ts.Node | None) -> _Module:
        while node is not None:
            if node.id in self.modules:
                return self.modules[node.id]
            node = node.parent
        return self.root

    def _frame_at(self, anchor: ts.Node, module: _Module) -> _Frame:
        """A function's frame: its impl's or trait's `Self`, its type parameters' bounds, its variables."""
        frame = _Frame(module)
        owner: ts.Node | None = anchor
        if anchor.type == "function_item":
            holder = anchor.parent
            owner = holder.parent if holder is not None and holder.type == "declaration_list" else anchor
        if owner is not None and owner.type == "impl_item":
            self._bounds(owner, frame)
            written = owner.child_by_field_name("type")
            frame.self_local = terminal_name(written)
            frame.self_type = self._resolve(segments(written) or [], frame) or ""
        elif owner is not None and owner.type == "trait_item":
            frame.self_type = ".".join([*module.parts, node_text(owner.child_by_field_name("name"))])
        if anchor.type == "function_item":
            self._bounds(anchor, frame)
            self._read_variables(anchor, frame)
        return frame

    def _bounds(self, node: ts.Node, frame: _Frame) -> None:
        """`<T: Handler>` / `where T: Handler`: T stands for its one bound from the project (or std, bound "")."""
        for name, bounds in type_bounds(node):
            found = {self._resolve(segments(b) or [], frame) for b in bounds} - {None}
            project = {q for q in found if q}
            if len(project) == 1 or (found and not project):
                frame.names[name] = project.pop() if project else ""

    def _read_variables(self, function: ts.Node, frame: _Frame) -> None:
        """Every binding in the function with the type it states, scoped to the bytes it is visible in."""
        for pattern, typed in parameters(function):
            self._bind(
                pattern, self._type(typed, frame), (function.start_byte, function.end_byte), pattern.start_byte, frame
            )
        body = function.child_by_field_name("body")
        nested_end = -1  # a nested item is a scope of its own
        for node in binding_sites(body) if body is not None else []:
            if node.start_byte < nested_end:
                continue
            if node.type.endswith("_item"):  # no entity either: calls of it name nothing indexed
                nested_end = node.end_byte
                frame.names.setdefault(node_text(node.child_by_field_name("name")), "")
            elif node.type == "use_declaration":
                self._use(node, frame, frame.names)
            elif node.type == "let_declaration":
                self._read_let(node, frame)
            elif node.type == "closure_expression":
                for pattern, typed in parameters(node):
                    self._bind(
                        pattern, self._type(typed, frame), (node.start_byte, node.end_byte), node.start_byte, frame
                    )
            else:  # for, match arm, `if let` / `while let`: bindings of unstated type
                scope = (node.start_byte, pattern_scope_end(node) + 1)
                self._bind(node.child_by_field_name("pattern"), "", scope, node.start_byte, frame)

    def _read_let(self, node: ts.Node, frame: _Frame) -> None:
        """`let x: Foo`, `let x = Foo::new()`: the type is known after the statement, to the end of its block."""
        pattern, value = node.child_by_field_name("pattern"), node.child_by_field_name("value")
        typed = self._type(node.child_by_field_name("type"), frame)
        if not typed and value is not None and pattern is not None and pattern.type == "identifier":
            typed = self._value_type(value, frame, node.start_byte)
        block = node.parent or node
        self._bind(pattern, typed, (block.start_byte, block.end_byte + 1), node.end_byte, frame)

    def _bind(self, pattern: ts.Node | None, typed: str, scope: tuple[int, int], start: int, frame: _Frame) -> None:
        """The names a pattern binds, seen in the bytes `scope` from byte `start` on (what a name holds is `typed`
        where the pattern is that name alone)."""
        if pattern is not None and pattern.type == "identifier":
            frame.bind(node_text(pattern), scope, start, typed)
        else:
            for name in pattern_names(pattern):
                frame.bind(node_text(name), scope, start, "")

    # --- names and types ---

    def _resolve(self, path: list[str], frame: _Frame) -> str | None:
        """The qualified name a path means here; "" for the standard library, None when the file does not say."""
        if not path:
            return None
        head, rest = path[0], path[1:]
        if head in ("crate", "self", "super"):
            base = list(self.crate) if head == "crate" else list(frame.module.parts)
            rest = path[1:] if head == "crate" else path
            while rest and rest[0] in ("self", "super"):
                base = base[:-1] if rest[0] == "super" else base
                rest = rest[1:]
            return ".".join([*base, *rest]) or None
        if head == "Self":
            return ".".join([frame.self_type, *rest]) if frame.self_type else None
        bound = frame.names.get(head, frame.module.names.get(head))
        if bound is not None:
            return ".".join([bound, *rest]) if bound else ""
        if head in STD_CRATES or head in PRELUDE_TYPES:
            return ""
        return ".".join(path) if rest and not is_type_name(head) else None  # another crate, as written

    def _type(self, node: ts.Node | None, frame: _Frame) -> str:
        """The qualified type a type annotation states, through `&`, `&mut`, Box/Arc/Rc, `dyn`/`impl` ("" when
        none, or a std type)."""
        path = segments(named_type(node))
        return (self._resolve(path, frame) or "") if path else ""

    def _struct_type(self, node: ts.Node | None, frame: _Frame) -> str | None:
        """The type `Foo { .. }` builds; an enum's variant `E::V { .. }` builds an E."""
        path = segments(node) or []
        if len(path) > 1 and is_type_name(path[-1]) and is_type_name(path[-2]):
            path = path[:-1]
        return self._resolve(path, frame)

    def _value_type(self, node: ts.Node, frame: _Frame, at: int, unwrap: bool = False) -> str:
        """The type of an expression as the file states it: a typed variable or field, a constructor, a call of a
        function declared to return it; "" when unknown."""
        kind = node.type
        if kind == "self":
            return frame.self_type
        if kind == "identifier":
            found = frame.variable(node_text(node), at)
            return found if found is not None else self.statics.get(self._resolve([node_text(node)], frame) or "", "")
        if kind == "field_expression":
            value = node.child_by_field_name("value")
            owner = self._value_type(value, frame, at) if value is not None else ""
            field_name = node_text(node.child_by_field_name("field"))
            if owner and owner not in self.fields and ATTRIBUTE_MARK not in owner and field_name.isidentifier():
                return f"{owner}{ATTRIBUTE_MARK}{field_name}"  # a struct of another file: what its field holds
            return self.fields.get(owner, {}).get(field_name, "")
        if kind in ("reference_expression", "parenthesized_expression", "try_expression") and node.named_children:
            inner = node.child_by_field_name("value") or node.named_children[-1]
            return self._value_type(inner, frame, at, unwrap or kind == "try_expression")
        if kind == "struct_expression":
            return self._struct_type(node.child_by_field_name("name"), frame) or ""
        if kind == "call_expression":
            function = called(node.child_by_field_name("function"))
            return self._call_type(function, frame, at, unwrap) if function is not None else ""
        return ""

    def _call_type(self, function: ts.Node, frame: _Frame, at: int, unwrap: bool) -> str:
        if function.type == "field_expression":
            method = node_text(function.child_by_field_name("field"))
            receiver = function.child_by_field_name("value")
            if receiver is None:
                return ""
            if method in UNWRAPS:
                return self._value_type(receiver, frame, at, unwrap=True)
            owner = self._value_type(receiver, frame, at)
            return owner if method == "clone" else self._returned(f"{owner}.{method}", unwrap) if owner else ""
        if function.type == "identifier":
            name = node_text(function)
            found = self._resolve([name], frame) if frame.variable(name, at) is None else None
            return (found if is_type_name(name) else self._returned(found, unwrap)) if found else ""
        path = segments(function.child_by_field_name("path")) if function.type == "scoped_identifier" else None
        name = node_text(function.child_by_field_name("name"))
        if not path:
            return ""
        found = self._resolve(path if names_type(path, function) else [*path, name], frame)
        if not found or not names_type(path, function):
            return self._returned(found or "", unwrap)
        if f"{found}.{name}" in self.returns:
            return self._returned(f"{found}.{name}", unwrap)
        return found if is_constructor(name) or is_type_name(name) else ""

    def _returned(self, function: str, unwrap: bool) -> str:
        found, wrapped = self.returns.get(function, ("", False))
        return found if unwrap or not wrapped else ""

    # --- the binder's answers ---

    def held(self, node: ts.Node) -> list[tuple[str, Target]]:
        """(field, its stated type) for each field of a struct the file declares with a type a project may define,
        for calls on it in other files (`self.pre.is_empty()` in `display.rs`, `pre: Prerelease` in `lib.rs`)."""
        fields = self.declared.get(node.id, {})
        return [(f, Target(TargetForm.QUALIFIED, t, Resolution.INFERRED)) for f, t in fields.items() if t]

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None:
        """What the call refers to (see the module docstring); None for what only std defines."""
        frame = self._frame(node)
        if node.type == "struct_expression":
            return self._path_target(self._struct_type(callee, frame), terminal_name(callee))
        callee = called(callee) or node
        if callee.type == "identifier":
            name = node_text(callee)
            if frame.variable(name, callee.start_byte) is not None:
                return None  # a closure or function pointer held in a variable
            found = self._resolve([name], frame)
            if found is None and name in PRELUDE_FUNCTIONS:
                return None
            if found is None and len(frame.module.globs) == 1:  # `use crate::util::*;` then `req("1")`
                return Target(TargetForm.LINKED, name, Resolution.INFERRED, owner=frame.module.globs[0])
            return self._path_target(found, name)
        if callee.type == "scoped_identifier":
            return self._scoped_call(callee, frame)
        if callee.type == "field_expression":
            return self._method_call(callee, frame)
        return None

    def _scoped_call(self, callee: ts.Node, frame: _Frame) -> Target | None:
        """`Foo::m()` is a member of Foo (`Foo::V()`, a variant, names nothing); `a::f()` a function."""
        path = segments(callee.child_by_field_name("path"))
        name = node_text(callee.child_by_field_name("name"))
        if not path or not name:
            return None
        if not names_type(path, callee):
            return self._path_target(self._resolve([*path, name], frame), name)
        if is_type_name(name):
            return None
        owner = self._self_owner(name, frame) if path == ["Self"] else self._resolve(path, frame)
        if owner:
            return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=owner)
        if owner is None:  # a type the file does not bind (a glob import): the index knows `Type.name` if unique
            return Target(TargetForm.QUALIFIED, f"{path[-1]}.{name}", Resolution.NAME)
        return None

    def _method_call(self, callee: ts.Node, frame: _Frame) -> Target | None:
        receiver = callee.child_by_field_name("value")
        name = node_text(callee.child_by_field_name("field"))
        if receiver is None or not name:
            return None
        if receiver.type == "self" and frame.self_type + frame.self_local:
            return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=self._self_owner(name, frame))
        owner = self._value_type(receiver, frame, callee.start_byte)
        if owner:
            return Target(TargetForm.MEMBER, name, Resolution.INFERRED, owner=owner)
        return None if name in BUILTIN_METHODS else Target(TargetForm.NAME, name, Resolution.NAME)

    def _self_owner(self, name: str, frame: _Frame) -> str:
        """Where `self.name()` is found: the outline hangs an impl's methods on `{its module}.{type as written}`
        (an inline `mod` included); a method the file's impls lack is the type's own (defined where the type is)."""
        local = frame.self_local
        if local and (name in self.methods.get(local, ()) or not frame.self_type):
            return ".".join([*frame.module.parts, local])
        return frame.self_type

    @staticmethod
    def _path_target(found: str | None, name: str) -> Target | None:
        if found:
            return Target(TargetForm.QUALIFIED, found, Resolution.EXACT)
        return Target(TargetForm.NAME, name, Resolution.NAME) if found is None and name else None

    def base(self, name: str, node: ts.Node) -> Target | None:
        """`impl Tr for Foo` / `trait A: Tr`: Tr through the file's `use`s and modules; None for std traits."""
        if node.type == "impl_item":
            written = node.child_by_field_name("trait")
        else:
            bounds = node.child_by_field_name("bounds")
            found = [b for b in bounds.named_children if terminal_name(b) == name] if bounds is not None else []
            written = found[0] if found else None
        return self._path_target(self._resolve(segments(written) or [name], self._frame(node)), name)


def bind_rust(root: ts.Node, path: str, module: str) -> RustBinder:
    """The binder of one parsed Rust file (`SiteBinderFactory`)."""
    return RustBinder(root, path, module)
