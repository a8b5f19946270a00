r"""Calls and bases bound by what one file proves, for a language described by data (`ScopeRules`): one resolver for
every language that has no binder of its own (Java, Go, C, C++, C#, Ruby, PHP, Kotlin, Swift, Scala, Lua, shell;
Rust, whose names are paths: `rules_paths`; JavaScript/TypeScript, whose names are values: `rules_values`). It reads
the whole file once (`frames`: the types and functions around each node; `declarations`: what each type and function
declares) and binds each site the outline found in it from that (`bind`: a `FileBinder`).

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
  in `XMLNode::Insert`: `XMLNode@_document`), and each type states what its fields hold (`held`) for the
  indexer to finish; a receiver that is a call is what the function gives (`FirstChild()->Name()`, typed by what the
  function states it returns: `returned`), one that reads a field what the field holds (`a->doc->New()`).
- Where a package is a folder (Go: `packages`), the file's types are the package's, named by the folder; a bare call
  of a name the file does not define is the package's function or type, and a call through an import (`store.Open()`)
  that package's function. A method's receiver is exactly of its type; an element of a container (`jobs[i]`, a
  `range` over it, `<-ch`) of the type the container states for its elements; a call gives what the function or method
  of the file states (each of its several results to the names it is given), a conversion its type, `NewFoo()` by
  convention a Foo, and a function or method of another file is named for the indexer to type by what it states.
- A bare call of a name a parameter or local holds (`cb(x)`, with `cb` a parameter) calls that value: nothing the
  file names. In C, a bare call of a function the file does not define is the project's one function of that name
  (what the linker binds: `inferred`); in Kotlin, an imported function, else the package's one function of that
  name; in both, a method's own class's member first. Where a type's fields and methods share their names (Go:
  `field_calls`), a call of a field's name calls the value it holds.
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

import posixpath
from collections.abc import Sequence
from dataclasses import replace
from functools import cached_property

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import (
    BaseSite,
    Bindings,
    BoundAttribute,
    BoundBase,
    BoundCall,
    CallSite,
    FileBinder,
    Found,
    Target,
)
from trident.ingest.languages.declarations import Declarations, Declared, Typed
from trident.ingest.languages.frames import Body, Frames, Shape, Site, own_type, read_frames
from trident.ingest.languages.scope_rules import OUTSIDE, Local, ScopeRules
from trident.ingest.model import ATTRIBUTE_MARK, TargetForm
from trident.store.schema import Resolution

MAX_CHAIN = 8  # links of a receiver chain followed (`a->b()->c->d()`), bounds followed (`T extends U`)


class RulesBinder:
    """The site binder of one file, by its language's rules."""

    def __init__(self, rules: ScopeRules, root: ts.Node, module: str, path: str = "") -> None:
        self.rules, self.module, self.root = rules, module, root
        # where the file's types are named: its module, or (where packages are folders) its folder
        self.home = posixpath.dirname(path).replace("/", ".") if rules.packages else module
        self.names = rules.names(root, self.home)
        self._outside: dict[str, dict[str, ts.Node]] | None = None  # type -> methods the file defines outside it
        self.declarations = Declarations(rules, root, self._around, lambda value: self._type_of(value, 1), self._given)
        self._params: dict[int, dict[str, ts.Node | None]] = {}  # type or function node id -> its type parameters
        self._apart: dict[str, set[str]] | None = None  # a type as written -> the methods the file defines apart

    @cached_property
    def frames(self) -> Frames:
        """The types and functions around each node, read in one walk of the file when a site first asks."""
        return read_frames(self.rules, self.root, self.home)

    @property
    def functions(self) -> dict[str, ts.Node]:
        """The file's top-level functions, the first of each name."""
        return self.frames.functions

    def bind(self, found: Sequence[Found]) -> Bindings:
        """Every call and base the outline found, bound, and what each definition returns and its fields hold; the
        sites are answered in the order the outline met them."""
        bound = Bindings()
        for site in found:
            if isinstance(site, CallSite):
                if (target := self.call(site.node, site.callee)) is not None and not self._library_call(target):
                    bound.calls.append(BoundCall(site.caller, site.row, target))
            elif isinstance(site, BaseSite):
                if (target := self.base(site.name, site.node)) is not None:
                    bound.bases.append(BoundBase(site.owner, site.row, target))
            else:
                if site.function and (returned := self.returned(site.node)) is not None:
                    bound.returns.append(BoundBase(site.local, site.row, returned))
                bound.holds.extend(BoundAttribute(site.local, name, held) for name, held in self.held(site.holder))
        return bound

    def _library_call(self, target: Target) -> bool:
        return target.form is TargetForm.NAME and target.name in self.rules.library_calls

    # --- each site ---

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None:
        site = self._around(node)
        if made := self.rules.constructed(node, callee):
            if self.rules.packages and made in self.functions:  # (Go's `Map[int](xs)` reads as a conversion)
                return self._bare(made, site)
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
            return None if self.declarations.holds(node, member) else self._bare(member, site)
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
        if target is None or target.form is TargetForm.NAME:
            return None
        shape = self.frames.named.get(target.name)
        return None if shape is not None and not self.rules.is_entity(shape.node) else target

    def held(self, node: ts.Node) -> list[tuple[str, Target]]:
        """(field, its declared type) for each field of the type `node` declares with a type the file can name, where
        methods of other files use them (`fields_elsewhere`)."""
        if not self.rules.fields_elsewhere or node.type not in self.rules.types:
            return []
        found = []
        for name, declared in self.declarations.fields(node).items():
            if not (name.isidentifier() or name.isdecimal()) or declared.kind is None:  # (a tuple struct's `0`)
                continue
            target = self._type(self.rules.written(declared.kind), self._around(declared.kind))
            if target is not None and target.form is not TargetForm.NAME:
                found.append((name, replace(target, resolution=Resolution.INFERRED)))
        return found

    # --- calls ---

    def _member(self, typed: Typed | None, name: str) -> Target | None:
        if self._calls_field(typed, name):
            return None
        if typed is not None and (typed.wrapped or (self.rules.library_extended and _library_value(typed))):
            typed = None
        if typed is not None and typed.shape is not None and typed.shape.unnamed:  # an anonymous or local type's
            if name in typed.shape.methods:
                return None
            typed = self._base_of(typed.shape)
        if typed is None:
            return None if name in self.rules.library_methods else Target(TargetForm.NAME, name, Resolution.NAME)
        if typed.package and typed.name != OUTSIDE:  # `store.Open()`: a function of the package
            return Target(TargetForm.QUALIFIED, f"{typed.name}.{name}", Resolution.EXACT)
        if typed.name == OUTSIDE or (typed.result and name in self.rules.library_methods):
            return None
        return Target(TargetForm.MEMBER, name, typed.resolution, owner=typed.name)

    def _calls_field(self, typed: Typed | None, name: str) -> bool:
        """Whether `x.name()` calls the value a field of x's type holds (`field_calls`), not a method."""
        if not self.rules.field_calls or typed is None or typed.shape is None:
            return False
        return name in self.declarations.fields(typed.shape.node)

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
        if name in self.rules.library_functions:
            return None
        if self.rules.implicit_self and own:
            return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=own)
        if self._type_named(name, site, local_only=True):
            return self._type(name, site)
        if self.rules.linked and name in self.names.imported:  # Kotlin's `import com.acme.util.helper`
            return Target(TargetForm.QUALIFIED, self.names.imported[name], Resolution.EXACT)
        if self.rules.linked:  # looked up in the package the file is in (Kotlin), else the whole project (C)
            return Target(TargetForm.LINKED, name, Resolution.INFERRED, owner=self.names.namespace)
        if self.rules.packages:  # the package's function or type, of another file (a conversion `ID(x)`)
            return self._type(name, site)
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
        head, dot, rest = written.partition(".")
        if written.startswith(".") or (dot and self.names.imports_qualify):  # from the root, or (Go) an import's
            return "" if local_only else self.names.full(written)
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
            shape = self.frames.top[name]
            aliased = self.rules.aliased(shape.node)
            if aliased is not None:  # `type A = B`: B
                written = self.rules.written(aliased)
                return self._type_named(written, self._around(aliased), depth + 1) if depth < MAX_CHAIN else ""
            return shape.qualified
        if not self.rules.closed_types and name in self.frames.flat:  # (any type of the file by its own name)
            return f"{self.home}.{self.frames.flat[name]}"
        return None

    def _bound(self, bound: ts.Node | None, site: Site, depth: int) -> str:
        """A type parameter stands for its bound (`T extends Pool` calls Pool's methods), else for unknown."""
        if self.rules.parameters_outside:
            return OUTSIDE
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

    def _stated(self, kind: ts.Node, site: Site) -> Typed | None:
        """The type a type node states where `site` is (`inferred`); a container's, with the type of its elements
        (`[]*Job`), none where that is unknown."""
        held = self.rules.element(kind)
        if held is None:
            return self._typed(self._type_named(self.rules.written(kind), site), Resolution.INFERRED)
        element = self._stated(held[0], site)
        return Typed(OUTSIDE, element=element, element_at=held[1]) if element is not None else None

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
            return self._stated(kind, site)
        if (container := rules.item(expr)) is not None:  # `xs[i]`, `<-ch`
            held = self._type_of(container, depth + 1)
            return held.element if held is not None else None
        declared = self.declarations.find(expr, written, site)
        if declared is not None:
            typed = self._declared_type(declared)
            if typed is not None or declared.kind is None or rules.closed_types or rules.packages:
                return typed
        if rules.packages and (package := self._package(written)) is not None:
            return package
        read = rules.access(expr)
        held = self._type_of(read[0], depth + 1) if read is not None else None
        if read is not None and held is not None:  # `this.pool`, `Foo.INSTANCE`, `a->doc`
            return self._read(held, read[1])
        named = rules.written(expr)  # `Limits.Max()`, `Helpers::format()`, `com.acme.Util.m()`
        # (Go: `server.m()` is a package variable's, only rarely another file's type's)
        qualified = self._type_named(named, site, local_only=rules.packages) if named else ""
        if typed := self._typed(qualified, Resolution.EXACT, static=True):
            return typed
        if (callee := rules.callee(expr)) is not None:
            return self._result(expr, callee, site, depth)
        if read is not None or not rules.fields_elsewhere:
            return None
        return self._field_elsewhere(expr, written, site)

    def _field_elsewhere(self, expr: ts.Node, written: str, site: Site) -> Typed | None:
        """A bare receiver nothing in reach declares, as a field the enclosing type declares where this file does not
        see (`fields_elsewhere`)."""
        own = self._own(site)
        bare = written.isidentifier() and not self._type_named(written, site, local_only=True)
        if not own or not bare or written in self.functions or self.declarations.holds(expr, written):
            return None
        return Typed(f"{own}{ATTRIBUTE_MARK}{written}")

    def _declared_type(self, declared: Declared) -> Typed | None:
        if declared.value is not None:
            return replace(declared.value, resolution=Resolution.INFERRED, static=False)
        if declared.kind is None:
            return None  # an untyped lambda parameter, `for (var x : xs)`: it hides any field of that name
        typed = self._stated(declared.kind, self._around(declared.kind))
        if typed is not None:
            return replace(typed, resolution=Resolution.EXACT) if declared.exact else typed
        stated = self.rules.written(declared.kind)
        if self.rules.short_types and stated and all(part.isidentifier() for part in stated.split(".")):
            return Typed(stated)  # (a namespace-qualified `Lib.ModuleDefMD` is a name the indexer knows as is)
        return None

    def _result(self, call: ts.Node, callee: ts.Node, site: Site, depth: int) -> Typed | None:
        """What a call gives: what the method of the file states it returns, else (by another file's method) the
        method, for the indexer to type by what its own file states."""
        if self.rules.packages:
            return self._package_result(call, callee, depth)
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
        if not self.rules.closed_types and not self.rules.packages:
            return Typed(f"{owner.name}{ATTRIBUTE_MARK}{name}") if owner.name != OUTSIDE else owner
        if owner.shape is not None:
            fields = self.declarations.fields(owner.shape.node)
            if name in fields:
                return self._declared_type(fields[name])
            nested = owner.shape.nested.get(name)
            return Typed(nested.qualified, Resolution.EXACT, True, nested) if nested is not None else None
        if owner.name == OUTSIDE:
            return Typed(OUTSIDE)
        if owner.static and self.names.is_type(name):
            return self._typed(f"{owner.name}.{name}", Resolution.EXACT, static=True)
        return None

    # --- packages (Go) ---

    def _package(self, written: str) -> Typed | None:
        """A package the file imports, as a receiver names it (`store` of `store.Open()`)."""
        imported = self.names.imported.get(written) if written.isidentifier() else None
        return Typed(imported, Resolution.EXACT, package=True) if imported else None

    def _package_result(self, call: ts.Node, callee: ts.Node, depth: int, part: int = 0) -> Typed | None:
        """What a call gives where packages are folders (its `part`-th result): what a function or method of the file
        states; a conversion, its type; `NewFoo()`, by convention a Foo; a function or method of another file, named
        for the indexer to type by what its own file states (its first result alone)."""
        split = self.rules.split(call, callee)
        if split is None:
            return None
        receiver, name = split
        if receiver is None:
            if self.declarations.holds(call, name):
                return None  # a function value
            if name in self.functions:
                return self._result_stated(self.functions[name], part)
            return None if part else self._made_by(name, self._around(call))
        typed = self._type_of(receiver, depth + 1)
        if typed is None or typed.result or typed.element is not None:
            return None
        if typed.name == OUTSIDE:
            return None if part else Typed(OUTSIDE)
        if typed.package:  # `store.NewClient()`
            made = self.rules.constructor(name)
            return self._typed(f"{typed.name}.{made}", Resolution.INFERRED) if made and not part else None
        method = self._method_of(typed, name)
        if method is not None:
            return self._result_stated(method, part)
        return None if part else Typed(f"{typed.name}.{name}", result=True)

    def _made_by(self, name: str, site: Site) -> Typed | None:
        """What a bare call of a name the file does not define gives: a conversion's type (a type of the file, one of
        the language's), by convention `NewFoo()`'s Foo, else what the package's function of another file gives."""
        own = self._type_named(name, site, local_only=True)
        if own:
            return self._typed(own, Resolution.INFERRED)
        if name in self.rules.library_functions:
            return None
        if self.names.full(name) == OUTSIDE:
            return Typed(OUTSIDE)
        made = self.rules.constructor(name)
        if made:
            return self._typed(self._type_named(made, site), Resolution.INFERRED)
        # (where a package is imported with `.`, an exported name too: an external test's package is of its folder)
        return Typed(f"{self.home}.{name}" if self.home else name, result=True)

    def _method_of(self, typed: Typed, name: str) -> ts.Node | None:
        """What a call of `name` on a value of `typed` runs, where the file states it: a method the file defines on
        the type, or the function type of a field holding one."""
        method = self._methods_outside().get(typed.name, {}).get(name)
        if method is not None or typed.shape is None:
            return method
        declared = self.declarations.fields(typed.shape.node).get(name)
        kind = declared.kind if declared is not None else None
        return kind if kind is not None and self.rules.results(kind) is not None else None

    def _methods_outside(self) -> dict[str, dict[str, ts.Node]]:
        """The methods the file defines outside their type (Go's `func (s *Server) Run()`), by the type's qualified
        name; read once."""
        if self._outside is None:
            self._outside = {}
            for frame in self.frames.opened.values():
                if isinstance(frame, Body) and frame.owner:
                    owner = self._type_named(frame.owner, ()) or frame.owner
                    self._outside.setdefault(owner, {}).setdefault(self.rules.name(frame.node), frame.node)
        return self._outside

    def _result_stated(self, function: ts.Node, part: int) -> Typed | None:
        """The `part`-th result a function or function type states."""
        results = self.rules.results(function) or []
        kind = results[part] if part < len(results) else None
        return self._stated(kind, self._around(kind)) if kind is not None else None

    # --- declarations ---

    def _given(self, local: Local) -> Typed | None:
        """The type of what a local is given: its value's; the `part`-th of the values a call gives (any other
        expression's second is the language's: `v, ok := m[k]`); an element of what a loop over its value gives."""
        value = local.value
        if value is None:
            return None
        if local.ranged:
            ranged = self._type_of(value, 1)
            return ranged.element if ranged is not None and ranged.element_at == local.part else None
        if not local.part:
            return self._type_of(value, 1)
        callee = self.rules.callee(value)
        return self._package_result(value, callee, 1, local.part) if callee is not None else Typed(OUTSIDE)

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


def rules_binder(rules: ScopeRules) -> FileBinder:
    """The `FileBinder` of a language with these rules."""

    def bind(root: ts.Node, path: str, module: str, found: Sequence[Found]) -> Bindings:
        return RulesBinder(rules, root, module, path).bind(found)

    return bind
