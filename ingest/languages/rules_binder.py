r"""Calls and bases bound by what one file proves, for a language described by data (`ScopeRules`): one resolver for
every language that has no binder of its own (Java, C, C++, C#, Ruby, PHP, Kotlin, Swift, Scala, Lua, shell, and
Rust, whose names are paths: `rules_paths`). It reads the whole file once (`frames`: the types and functions around
each node) and binds each site the outline meets from it (a `SiteBinder`).

- A call on the enclosing type's receiver (`this.M()`, `$this->m()`, `self::m()`) is a member of that type, looked
  up through its bases; on the base receiver (`base.M()`, `parent::m()`, `super.m()`), in its bases only; a bare
  call, where the language calls members without a receiver (C#, Java), a member too.
- A type the file defines (`new Receipt(...)`, `Limits.Max()`, `Helpers::format()`, `: GatewayBase`) is that
  definition, the innermost by that name where it is written; a function the file defines at its top level
  (`format_money($x)`) is that function. A type parameter stands for its bound (`T extends Pool`).
- Where the language names types by package or namespace (Java, PHP, Kotlin), a type of another file is the name its
  imports or the file's package give it (`use App\Log\Handler;` then `new Handler`: `App.Log.Handler`), which the
  indexer matches by the longest tail of it that names a definition; a type of the language's own library
  (`java.lang`, an import from `java.*`) is no project's: a call on it binds to nothing.
- A receiver whose type the code declares — a field or property of an enclosing type, a parameter, a local
  (`private PaymentGateway $gateway` then `$this->gateway->charge()`; `IPay gw` then `gw.Charge()`; `var r = new
  Receipt()`), a construction or cast, what a method of the file states it returns — makes the call a member of
  that type, `inferred`.
- Where a type's members are all declared with it (Java: `closed_types`), a bare call is the innermost enclosing
  type's that declares it, else a statically imported member, else the nearest type that may inherit it; a method an
  anonymous or local type declares is no entity's, so a call of it binds to nothing.
- Where a type's fields may be declared in another file than its methods use them (C++: the class in a header, its
  methods in the `.cpp`), a receiver no declaration in reach types is a field of the enclosing type (`_document->New()`
  in `XMLNode::Insert`: `XMLNode@_document`), and each type states what its fields hold (`HoldsBinder`) for the
  indexer to finish; a receiver that is a call is what the function gives (`FirstChild()->Name()`, typed by what the
  function states it returns, a `ReturnsBinder`), one that reads a field what the field holds (`a->doc->New()`).
- A bare call of a name a parameter or local holds (`cb(x)`, with `cb` a parameter) calls that value: nothing the
  file names. In C, a bare call of a function the file does not define is the project's one function of that name
  (what the linker binds: `inferred`); in Kotlin, an imported function, else the package's one function of that
  name; in both, a method's own class's member first.
- Where a type's methods may be defined apart from it (Rust's `impl` blocks: `apart`), the enclosing type's receiver
  (`self.m()`) calls the method the file defines so, an entity of the file on the type as written (`impl Order` in
  `checkout.rs`: `checkout.Order.m`), else the type's own; a call whose stated result is wrapped (`Result<Foo, E>`)
  gives a Foo only once unwrapped (`?`); a value of the language's library's type may have the project's methods
  (`library_extended`: a trait implemented for `Vec`), so a call on it is named by its name alone.
- Anything else is named as written: a guess the indexer keeps only where one entity of the project has the name,
  labelled `name` — unless the name is one the language's library gives values of every type (`toString`, `get`
  on a receiver whose type the file does not state), which most likely is that library's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Target
from trident.ingest.languages.frames import Body, Frames, Shape, Site, own_type, read_frames
from trident.ingest.languages.lexical import LexicalNames
from trident.ingest.languages.scope_rules import OUTSIDE, Local, ScopeRules
from trident.ingest.model import ATTRIBUTE_MARK, TargetForm
from trident.store.schema import Resolution

MAX_CHAIN = 8  # links of a receiver chain followed (`a->b()->c->d()`), bounds followed (`T extends U`)


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
    wrapped: bool = False  # a call's result inside its wrapper (`Result<Foo, E>` before `?`): not yet a Foo


@dataclass(frozen=True)
class Declared:
    """What a declaration states of a name: the node of its type, or (a local declared without one) the type of the
    value it is given; neither for one whose type nothing states (it hides any field of that name)."""

    kind: ts.Node | None = None
    value: Typed | None = None


class RulesBinder:
    """The site binder of one file, by its language's rules."""

    def __init__(self, rules: ScopeRules, root: ts.Node, module: str) -> None:
        self.rules, self.module = rules, module
        self.names = rules.names(root, module)
        self.frames: Frames = read_frames(rules, root, module)
        self.functions = self.frames.functions  # the file's top-level functions
        self._fields: dict[int, dict[str, Declared]] = {}  # type node id -> field or property -> what it states
        self._locals: dict[int, LexicalNames[Declared]] = {}  # function node id -> its parameters and locals
        self._params: dict[int, dict[str, ts.Node | None]] = {}  # type or function node id -> its type parameters
        self._apart: dict[str, set[str]] | None = None  # a type as written -> the methods the file defines apart

    # --- the SiteBinder protocol ---

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None:
        site = self._around(node)
        if made := self.rules.constructed(node, callee):
            return self._type(made, site)
        split = self.rules.split(node, callee)
        if split is None:
            return None
        receiver, member = split
        if not member or member in self.rules.final_methods:
            return None
        if receiver is None:
            if self.rules.closed_types:
                return self._unqualified(member, site)
            return None if self._holds(node, member) else self._bare(member, site)
        written = node_text(receiver)
        if self.rules.apart and written in self.rules.self_receivers:
            return self._apart_member(member, site)
        if written in self.rules.base_receivers and (self.rules.closed_types or self._own(site)):
            return self._super(member, site)
        if written in self.rules.self_receivers and (typed := self._self(site)) is not None:
            return self._member(typed, member)
        typed = self._type_of(receiver, 0)
        if typed is None and self.rules.constant_receivers and (named := self.rules.written(receiver)).isidentifier():
            typed = Typed(named)  # another file's class or module, by name (Ruby's `Helpers.format(x)`)
        return self._member(typed, member)

    def base(self, name: str, node: ts.Node) -> Target | None:
        written = next((w for w in self.rules.bases(node) if _last(self.rules.written(w)) == name), None)
        return self._type(self.rules.written(written) if written is not None else name, self._around(node))

    def returned(self, node: ts.Node) -> Target | None:
        """The type a function definition states it returns, where the file can name it (`XMLElement*
        XMLNode::FirstChildElement()` -> XMLElement), for calls of it in other files."""
        kind = self.rules.returned(node) if not self.rules.private_returns else None
        target = self._type(self.rules.written(kind), self.frames.inside(node)) if kind is not None else None
        return target if target is not None and target.form is not TargetForm.NAME else None

    def held(self, node: ts.Node) -> list[tuple[str, Target]]:
        """(field, its declared type) for each field of the type `node` declares with a type the file can name, where
        methods of other files use them (`fields_elsewhere`)."""
        if not self.rules.fields_elsewhere or node.type not in self.rules.types:
            return []
        found = []
        for name, declared in self._fields_of(node).items():
            if not (name.isidentifier() or name.isdecimal()) or declared.kind is None:  # (a tuple struct's `0`)
                continue
            target = self._type(self.rules.written(declared.kind), self._around(declared.kind))
            if target is not None and target.form is not TargetForm.NAME:
                found.append((name, replace(target, resolution=Resolution.INFERRED)))
        return found

    # --- calls ---

    def _member(self, typed: Typed | None, name: str) -> Target | None:
        if typed is not None and (typed.wrapped or (self.rules.library_extended and _library_value(typed))):
            typed = None
        if typed is not None and typed.shape is not None and typed.shape.unnamed:  # an anonymous or local type's
            if name in typed.shape.methods:
                return None
            typed = self._base_of(typed.shape)
        if typed is None:
            return None if name in self.rules.library_methods else Target(TargetForm.NAME, name, Resolution.NAME)
        if typed.name == OUTSIDE or (typed.result and name in self.rules.library_methods):
            return None
        return Target(TargetForm.MEMBER, name, typed.resolution, owner=typed.name)

    def _self(self, site: Site) -> Typed | None:
        """The enclosing type, as its receiver (`this`) means it: of a method defined outside its type, that type."""
        if self.rules.closed_types:
            shape = own_type(site)
            return Typed(shape.qualified, Resolution.EXACT, shape=shape) if shape is not None else None
        own = self._own(site)
        return Typed(own, Resolution.EXACT) if own else None

    def _super(self, name: str, site: Site) -> Target | None:
        if not self.rules.closed_types:
            own = self._own(site)
            return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=own, after_owner=True) if own else None
        shape = own_type(site)
        if shape is not None and shape.unnamed:
            return self._member(self._base_of(shape), name)
        if shape is None or not self._may_inherit(shape):
            return None
        return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=shape.qualified, after_owner=True)

    def _unqualified(self, name: str, site: Site) -> Target | None:
        """`m()` where a type's members are declared with it: the innermost type declaring m, a static import, or
        the nearest type that may inherit m."""
        inner = [f for f in _types(site) if f.unnamed]
        if any(name in shape.methods for shape in inner):
            return None
        named = next((f for f in _types(site) if not f.unnamed), None)
        chain = list(named.chain()) if named is not None else []
        declaring = next((c for c in chain if name in c.methods), None)
        if declaring is not None:
            return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=declaring.qualified)
        if name in self.names.members:
            owner = self.names.members[name]
            return None if owner == OUTSIDE else Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=owner)
        for shape in inner:
            base = self._base_of(shape)
            if base is not None and base.name != OUTSIDE:
                return Target(TargetForm.MEMBER, name, Resolution.INFERRED, owner=base.name)
        heir = next((c for c in chain if self._may_inherit(c)), None)
        if heir is not None:
            return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=heir.qualified)
        wildcards = self.names.member_wildcards
        if len(wildcards) == 1:
            return Target(TargetForm.MEMBER, name, Resolution.INFERRED, owner=wildcards[0])
        return self._member(None, name) if wildcards else None

    def _bare(self, name: str, site: Site) -> Target | None:
        own = self._own(site)
        if name in self.functions:
            return Target(TargetForm.QUALIFIED, f"{self.module}.{name}", Resolution.EXACT)
        if "." in name:  # a qualified name (C++'s `geo::round()`, `Base::area()`, Lua's `util.sum()`)
            return Target(TargetForm.QUALIFIED, self._type_named(name, site) or name, Resolution.EXACT)
        if self.rules.implicit_self and own:
            return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=own)
        if self._type_named(name, site, local_only=True):
            return self._type(name, site)
        if self.rules.linked and name in self.names.imported:  # Kotlin's `import com.acme.util.helper`
            return Target(TargetForm.QUALIFIED, self.names.imported[name], Resolution.EXACT)
        if self.rules.linked:  # looked up in the package the file is in (Kotlin), else the whole project (C)
            return Target(TargetForm.LINKED, name, Resolution.INFERRED, owner=self.names.namespace)
        return Target(TargetForm.NAME, name, Resolution.NAME)

    # --- methods defined apart from their type (`apart`: Rust's `impl` blocks) ---

    def _apart_member(self, name: str, site: Site) -> Target | None:
        """`self.m()` in a method defined apart from its type: the file's own method of the type as written
        (`{namespace}.Order.m`) where the file defines m so (or cannot name the type), else the type's own."""
        for frame in site:
            if isinstance(frame, Body) and frame.owner:
                local = _last(frame.owner)
                own = self._own(site)
                if name in self._apart_methods().get(local, ()) or own in ("", OUTSIDE):
                    own = f"{self._namespace(site)}.{local}"
                return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=own)
            if isinstance(frame, Shape) and not frame.namespace:  # (a trait's default method)
                owner = frame.qualified
                return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=owner) if owner else None
        return None

    def _apart_methods(self) -> dict[str, set[str]]:
        if self._apart is None:
            self._apart = {}
            for frame in self.frames.opened.values():
                if isinstance(frame, Body) and frame.owner and (name := self.rules.name(frame.node)):
                    self._apart.setdefault(_last(frame.owner), set()).add(name)
        return self._apart

    def _namespace(self, site: Site) -> str:
        return next((f.qualified for f in site if isinstance(f, Shape) and f.namespace), self.module)

    # --- types ---

    def _type(self, written: str, site: Site) -> Target | None:
        """A type as written: the file's own, else the one its imports or package name, else (where types are named
        by their short name) the project's one type of that name, else a guess; None for the language's library's."""
        qualified = self._type_named(written, site)
        if qualified == OUTSIDE:
            return None
        if qualified:
            return Target(TargetForm.QUALIFIED, qualified, Resolution.EXACT)
        name = _last(written)
        if self.rules.short_types and name == written and name.isidentifier():  # the project's one type of the name
            return Target(TargetForm.LINKED, name, Resolution.INFERRED)
        return Target(TargetForm.NAME, name, Resolution.NAME) if name.isidentifier() else None

    def _type_named(self, written: str, site: Site, depth: int = 0, *, local_only: bool = False) -> str:
        """The qualified name of a type as written where `site` is: a type parameter's bound, a type of the file (the
        innermost by that name), else the name its imports or package give; OUTSIDE for the language's library's (or
        a type no entity is made of), "" where nothing names it. `local_only`: the file's own types alone."""
        if not written or written == OUTSIDE or written.startswith("$"):
            return written if written == OUTSIDE else ""
        if written.startswith("."):  # written from the root
            return "" if local_only else self.names.full(written)
        head, dot, rest = written.partition(".")
        if dot and self.names.written_whole:  # (C++'s `geo.Circle`: the indexer finds it from the caller outwards)
            return "" if local_only else written
        found = self._simple(head, site, depth)
        if found is None and not local_only:
            return self.names.full(written)
        if not found or found == OUTSIDE or not dot:
            return found or ""
        return f"{found}.{rest}"

    def _simple(self, name: str, site: Site, depth: int) -> str | None:
        """A name the file gives a type where `site` is ("" for a type parameter bound to nothing), None for one it
        does not."""
        for frame in site:
            params = self._type_parameters(frame.node)
            if name in params:
                return self._bound(params[name], site, depth)
            if isinstance(frame, Body):
                if name in frame.local_types:
                    return OUTSIDE
                continue
            if frame.unnamed:
                if name == frame.name:
                    return OUTSIDE
                continue
            if name in frame.nested:
                return frame.nested[name].qualified
            if name == frame.name and frame.qualified:
                return frame.qualified
        if name in self.frames.top:
            return self.frames.top[name].qualified
        if not self.rules.closed_types and name in self.frames.flat:  # (any type of the file by its own name)
            return f"{self.module}.{self.frames.flat[name]}"
        return None

    def _bound(self, bound: ts.Node | None, site: Site, depth: int) -> str:
        """A type parameter stands for its bound (`T extends Pool` calls Pool's methods), else for unknown."""
        if bound is None or depth > MAX_CHAIN:
            return ""
        return self._type_named(self.rules.written(bound), site, depth + 1)

    def _type_parameters(self, node: ts.Node) -> dict[str, ts.Node | None]:
        found = self._params.get(node.id)
        if found is None:
            found = self._params[node.id] = self.rules.type_parameters(node)
        return found

    def _base_of(self, shape: Shape) -> Typed | None:
        """The type an anonymous or local type extends, as the nearest place its methods may come from."""
        bases = self.rules.bases(shape.node)
        found = self._type_named(self.rules.written(bases[0]), self._around(shape.node)) if bases else ""
        return self._typed(found, Resolution.INFERRED)

    def _may_inherit(self, shape: Shape) -> bool:
        """Whether some base of the type may be a project's (one the language's library defines has no indexed
        methods)."""
        site = self._around(shape.node)
        return any(self._type_named(self.rules.written(b), site) != OUTSIDE for b in self.rules.bases(shape.node))

    def _typed(self, qualified: str, resolution: Resolution, *, static: bool = False) -> Typed | None:
        if not qualified:
            return None
        return Typed(qualified, resolution, static, self.frames.named.get(qualified))

    def _own(self, site: Site) -> str:
        """The qualified name of the type whose member holds the site ("" outside any type); of a method defined
        outside its type, that type as its definition writes it."""
        for frame in site:
            if isinstance(frame, Body) and frame.owner:
                return self._owner_type(frame.owner, site)
            if isinstance(frame, Shape) and not frame.namespace:
                return frame.qualified
        return ""

    def _owner_type(self, written: str, site: Site) -> str:
        """The type a method defined outside it names, qualified where the file can (else as written)."""
        return self._type_named(written, site) or written

    # --- expressions ---

    def _type_of(self, expr: ts.Node, depth: int) -> Typed | None:
        """The type of a receiver expression, as far as the file states it; None when unknown."""
        rules = self.rules
        if depth > MAX_CHAIN:
            return None
        if (inner := rules.unwrap(expr)) is not None:
            return self._type_of(inner, depth + 1)
        site = self._around(expr)
        written = node_text(expr)
        if depth and written in rules.self_receivers:
            return self._self(site)
        if rules.literal(expr):
            return Typed(OUTSIDE)
        if (kind := rules.made(expr)) is not None:
            return self._typed(self._type_named(rules.written(kind), site), Resolution.INFERRED)
        declared = self._declared(expr, written, site)
        if declared is not None:
            typed = self._declared_type(declared)
            if typed is not None or declared.kind is None or rules.closed_types:
                return typed
        read = rules.access(expr)
        held = self._type_of(read[0], depth + 1) if read is not None else None
        if read is not None and held is not None:  # `this.pool`, `Foo.INSTANCE`, `a->doc`
            return self._read(held, read[1])
        named = rules.written(expr)  # `Limits.Max()`, `Helpers::format()`, `com.acme.Util.m()`
        if named and (typed := self._typed(self._type_named(named, site), Resolution.EXACT, static=True)):
            return typed
        if (callee := rules.callee(expr)) is not None:
            return self._result(expr, callee, site, depth)
        if read is not None:
            return None
        bare = written.isidentifier() and not self._type_named(written, site, local_only=True)
        own = self._own(site)
        if rules.fields_elsewhere and own and bare and written not in self.functions and not self._holds(expr, written):
            return Typed(f"{own}{ATTRIBUTE_MARK}{written}")  # a field the type declares where this file does not see
        return None

    def _declared_type(self, declared: Declared) -> Typed | None:
        if declared.value is not None:
            return replace(declared.value, resolution=Resolution.INFERRED, static=False)
        if declared.kind is None:
            return None  # an untyped lambda parameter, `for (var x : xs)`: it hides any field of that name
        stated = self.rules.written(declared.kind)
        typed = self._typed(self._type_named(stated, self._around(declared.kind)), Resolution.INFERRED)
        if typed is not None:
            return typed
        if self.rules.short_types and stated and all(part.isidentifier() for part in stated.split(".")):
            return Typed(stated)  # (a namespace-qualified `Lib.ModuleDefMD` is a name the indexer knows as is)
        return None

    def _result(self, call: ts.Node, callee: ts.Node, site: Site, depth: int) -> Typed | None:
        """What a call gives: what the method of the file states it returns, else (by another file's method) the
        method, for the indexer to type by what its own file states."""
        if not self.rules.closed_types:
            return _gives(self.call(call, callee), self._own(site))
        split = self.rules.split(call, callee)
        if split is None:
            return None
        receiver, name = split
        typed: Typed | None = None
        if receiver is None:
            owner = next((s for s in _types(site) if name in s.methods), None)
        else:
            typed = self._type_of(receiver, depth + 1)
            owner = typed.shape if typed is not None else None
        method = owner.methods.get(name) if owner is not None else None
        if method is None and typed is not None and typed.shape is None and typed.name != OUTSIDE:
            return Typed(f"{typed.name}.{name}", result=True)  # (`JCommander.newBuilder().build()`)
        if owner is None or method is None or (kind := self.rules.returned(method)) is None:
            return None
        return self._typed(self._type_named(self.rules.written(kind), self._around(kind)), Resolution.INFERRED)

    def _read(self, owner: Typed, name: str) -> Typed | None:
        """What a field read as a receiver holds (`this.pool`, `Foo.INSTANCE`, `a->doc`), of the type it is read of;
        `Outer.this` is that type's receiver."""
        if name in self.rules.self_receivers:
            return replace(owner, static=False)
        if not self.rules.closed_types:
            return Typed(f"{owner.name}{ATTRIBUTE_MARK}{name}") if owner.name != OUTSIDE else owner
        if owner.shape is not None:
            fields = self._fields_of(owner.shape.node)
            if name in fields:
                return self._declared_type(fields[name])
            nested = owner.shape.nested.get(name)
            return Typed(nested.qualified, Resolution.EXACT, True, nested) if nested is not None else None
        if owner.name == OUTSIDE:
            return Typed(OUTSIDE)
        if owner.static and self.names.is_type(name):
            return self._typed(f"{owner.name}.{name}", Resolution.EXACT, static=True)
        return None

    # --- declarations ---

    def _declared(self, expr: ts.Node, written: str, site: Site) -> Declared | None:
        """The nearest declaration of a receiver as written: a local or parameter of a function around it that is
        seen where it is written, else a field or property of the types around it (the innermost type's alone where
        types are not closed)."""
        for frame in site:
            if isinstance(frame, Body):
                if frame.locals and (local := self._locals_of(frame.node).find(written, expr.start_byte)):
                    return local.what
                continue
            fields = self._fields_of(frame.node)
            if written in fields:
                return fields[written]
            if not self.rules.closed_types:
                return None
        return None

    def _holds(self, node: ts.Node, name: str) -> bool:
        """Whether `name` is, where `node` is, a parameter or local of a function around it (a value, not a
        definition)."""
        for frame in self._around(node):
            if isinstance(frame, Shape):
                return False
            if frame.locals and self._locals_of(frame.node).find(name, node.start_byte) is not None:
                return True
        return False

    def _fields_of(self, node: ts.Node) -> dict[str, Declared]:
        """What a type declares (fields, properties) -> what each states; read once per type."""
        found = self._fields.get(node.id)
        if found is None:
            found = self._fields[node.id] = {}
            for name, kind in self.rules.declared(node):
                found[name] = Declared(kind)
            for name, value in self.rules.assigned(node):
                found.setdefault(name, Declared(value=self._type_of(value, 1)))
        return found

    def _locals_of(self, function: ts.Node) -> LexicalNames[Declared]:
        """What a function declares (parameters, locals) -> what each states, each seen from where it is declared
        on; read once per function (in order: an initializer reads those declared before it)."""
        found = self._locals.get(function.id)
        if found is None:
            found = self._locals[function.id] = LexicalNames()
            for local in self._declarations(function):
                value = self._type_of(local.value, 1) if local.value is not None else None
                found.add(local.name, local.scope, local.visible, Declared(local.kind, value))
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

    def _around(self, node: ts.Node) -> Site:
        """The frames around a node (a keyword the walk of named nodes did not meet: its parent's)."""
        found = self.frames.around.get(node.id)
        if found is None:
            parent = node.parent
            found = self.frames.around[node.id] = self._around(parent) if parent is not None else ()
        return found


def _types(site: Site) -> list[Shape]:
    return [f for f in site if isinstance(f, Shape)]


def _last(written: str) -> str:
    return written.rpartition(".")[2]


def _library_value(typed: Typed) -> bool:
    """A value (not the type itself) of a type of the language's library."""
    return typed.name == OUTSIDE and not typed.static


def _gives(target: Target | None, own: str) -> Typed | None:
    """What a call bound to `target` gives, as the indexer finds it: a function's or member's name, whose stated
    return type it knows (a bare call in a method, its class's member first); None for a guess."""
    if target is None or target.resolution is Resolution.NAME:
        return None
    if target.form is TargetForm.MEMBER:
        return Typed(f"{target.owner}.{target.name}")
    if target.form is TargetForm.LINKED:
        return Typed(f"{own}.{target.name}") if own and not target.owner else None
    return Typed(target.name)


def rules_binder(rules: ScopeRules) -> Callable[[ts.Node, str, str], RulesBinder]:
    """The `SiteBinderFactory` of a language with these rules."""

    def bind(root: ts.Node, path: str, module: str) -> RulesBinder:
        return RulesBinder(rules, root, module)

    return bind
