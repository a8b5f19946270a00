"""Java name binding: what each call and base type of a file refers to, by scope and stated type.

A call is described as precisely as the file allows, for the indexer to finish against every indexed entity
(`trident.ingest.code_index`):
- `m()` in a class: member `m` of the innermost enclosing class that declares it, else of the nearest one that
  extends something the project may define (the index walks its bases), else of the one class a static wildcard
  import names; `import static a.Util.m` binds `m` to `a.Util` (exact). `this.m()` is the enclosing class's,
  `super.m()` its bases' (exact); `Foo.m()` on a type in scope is Foo's (exact).
- a receiver whose type the code states: a typed or `var x = new Foo()` local, a parameter, a field
  (`pool.get()`, `this.pool.get()`), a cast, `new Foo().m()`, a method of this file with a declared return type:
  member of that type (inferred).
- `new Foo()` and a base type: Foo's qualified name (exact): a class of this file (`{module}.Outer.Inner`), an
  import (`com.acme.Foo`), else a class of the same package (`{package}.Foo`).
- anything else (an untyped receiver, a chain through another file's method): the bare name, a guess.
Types of the JDK (java.lang, explicit `java.*` imports, common types under a `java.*` wildcard import),
primitives, arrays and local classes bind to nothing: no indexed entity is one of their methods.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import tree_sitter as ts

from trident.ingest.languages import node_text, terminal_name
from trident.ingest.languages.binding import Target
from trident.ingest.languages.java_syntax import (
    BODIES,
    CLASSES,
    JAVA_LANG,
    JDK_METHODS,
    JDK_PREFIXES,
    JDK_TYPES,
    OBJECT_FINAL_METHODS,
    OUTSIDE,
    ClassShape,
    Locals,
    Site,
    anonymous,
    declarations,
    is_anonymous_body,
    is_outside,
    is_type_name,
    member_type_parameters,
    read_class,
    read_import,
    supertypes,
    type_parameters,
    written_type,
)
from trident.ingest.model import TargetForm
from trident.store.schema import Resolution

MAX_DEPTH = 8  # receivers nested deeper than this (`a.b().c().d()...`) are left unknown
_NO_LOCALS = Locals()


@dataclass(frozen=True)
class _Typed:
    """The type of an expression: its qualified name, how it is known, and whether the expression is the type
    itself (`Foo` in `Foo.m()`) rather than a value of it."""

    name: str
    resolution: Resolution
    static: bool = False
    cls: ClassShape | None = None  # the class, when this file declares it


class JavaBinder:
    """Binds one file's calls and base types as the outline meets them; reads the file's declarations once."""

    def __init__(self, root: ts.Node, path: str, module: str) -> None:
        self.module = module
        self.imports: dict[str, str] = {}  # simple name -> qualified type
        self.static_members: dict[str, str] = {}  # statically imported member -> qualified owner
        self.static_wildcards: list[str] = []  # `import static a.Util.*` of types outside the JDK
        self.jdk_wildcard = False  # `import java.util.*;`
        self.wildcards = False  # `import com.acme.*;`: a type not otherwise bound may be in it
        self.top: dict[str, ClassShape] = {}
        self.classes: dict[int, ClassShape] = {}  # declaration node id -> each class the outline names
        self.by_qualified: dict[str, ClassShape] = {}
        self._inner: dict[int, ClassShape] = {}  # anonymous and local classes, by node id
        self._locals: dict[int, Locals] = {}  # member node id -> what it declares
        # What a call of a method of another file's class gives, named by that method (`pkg.JCommander.newBuilder`)
        self.results_elsewhere: set[str] = set()
        # node id inside a member -> (its class of the outline, the unnamed classes it is in, the member)
        self._around: dict[int, tuple[ClassShape, tuple[ClassShape, ...], ts.Node | None]] = {}
        package = ""
        for node in root.named_children:
            if node.type == "package_declaration":
                package = node_text(next((c for c in node.named_children if "identifier" in c.type), None))
            elif node.type == "import_declaration":
                self._import(node)
            elif node.type in CLASSES:
                cls = self._declare(node, None)
                self.top.setdefault(cls.name, cls)
        folder = module.rpartition(".")[0]
        self.same_package = f"{package}." if package else f"{folder}." if folder else ""

    # --- first pass: imports and the classes of the file with their members ---

    def _import(self, node: ts.Node) -> None:
        text, static, wildcard = read_import(node)
        jdk = text.startswith(JDK_PREFIXES)
        if wildcard and static and not jdk:
            self.static_wildcards.append(text)
        elif wildcard and not static:
            self.jdk_wildcard, self.wildcards = self.jdk_wildcard or jdk, self.wildcards or not jdk
        elif text and not wildcard:
            owner, _, member = text.rpartition(".")
            if static:
                self.static_members[member] = OUTSIDE if jdk else owner
            if not static or is_type_name(member):
                self.imports[member] = OUTSIDE if jdk else text

    def _declare(self, node: ts.Node, parent: ClassShape | None) -> ClassShape:
        name = node_text(node.child_by_field_name("name"))
        cls, members = read_class(node, f"{parent.qualified if parent else self.module}.{name}", parent)
        self.classes[node.id] = self.by_qualified[cls.qualified] = cls
        for member in members:
            inner = self._declare(member, cls)
            cls.nested.setdefault(inner.name, inner)
        return cls

    def _unnamed(self, node: ts.Node) -> ClassShape:
        """An anonymous class (its body) or a local class (its declaration): members, no entity."""
        cls = self._inner.get(node.id)
        if cls is None:
            cls = self._inner[node.id] = read_class(node, "", None)[0] if node.type in CLASSES else anonymous(node)
        return cls

    def _context(self, node: ts.Node) -> Site:
        """The classes around a site, innermost first, up to the first the outline names, and its member there.

        What each node walked through inside the member says is kept, so the next site below it stops there:
        `node.parent` costs tree-sitter a descent from the root."""
        walked: list[tuple[ts.Node, ClassShape | None]] = []  # each node up from the site, the class it opens
        current, known, cls = node.parent, None, None
        while current is not None:
            known = self._around.get(current.id)
            if known is not None:
                break
            kind = current.type
            if kind in CLASSES and current.id in self.classes:
                cls = self.classes[current.id]
                break
            opens = kind in CLASSES or is_anonymous_body(current)
            walked.append((current, self._unnamed(current) if opens else None))
            current = current.parent
        if known is not None:
            cls, inner, member = known
        elif cls is not None:
            inner, member = (), next((n for n, _ in reversed(walked) if n.type not in BODIES), None)
        else:
            return Site(None, tuple(c for _, c in walked if c is not None), at=node.start_byte)
        inside = known is not None  # what lies above the member (its class's body) differs from site to site
        for walked_node, opened in reversed(walked):  # top down: the unnamed classes gather innermost first
            inner = (opened, *inner) if opened is not None else inner
            inside = inside or (member is not None and walked_node.id == member.id)
            if inside:
                self._around[walked_node.id] = (cls, inner, member)
        return Site(cls, inner, member, member_type_parameters(member), node.start_byte)

    def _declared(self, member: ts.Node | None) -> Locals:
        """What a member declares, read once per member and only for a site that needs it."""
        if member is None:
            return _NO_LOCALS
        found = self._locals.get(member.id)
        if found is None:
            found = self._locals[member.id] = declarations(member)
        return found

    # --- types ---

    def _type_named(self, written: str, ctx: Site, depth: int = 0) -> str:
        """The qualified name of a type as written where `ctx` is; "" when the file cannot tell."""
        if not written or written == OUTSIDE:
            return written
        head, dot, rest = written.partition(".")
        found = self._simple_type(head, ctx, depth)
        if not dot or is_outside(found):
            return found
        if found:
            return f"{found}.{rest}"
        if is_type_name(head):
            return ""
        return OUTSIDE if written.startswith(JDK_PREFIXES) else written  # fully qualified: com.acme.Foo

    def _simple_type(self, name: str, ctx: Site, depth: int) -> str:
        if name in ctx.type_params:
            return self._bound(ctx.type_params[name], ctx, depth)
        if any(c.name == name for c in ctx.inner):
            return OUTSIDE
        for cls in ctx.cls.chain() if ctx.cls is not None else ():
            if name in cls.type_params:
                return self._bound(cls.type_params[name], ctx, depth)
            if name in cls.nested:
                return cls.nested[name].qualified
            if name == cls.name:
                return cls.qualified
        if name in self.top:
            return self.top[name].qualified
        if name in self.imports:
            return self.imports[name]
        if name in JAVA_LANG or (self.jdk_wildcard and name in JDK_TYPES):
            return OUTSIDE
        if not is_type_name(name):
            return ""
        if name in self._declared(ctx.member).classes:
            return OUTSIDE
        # a type of the file's own package, which comes before what `import a.b.*` brings: if the package has none,
        # the indexer finds nothing by this name and the type stays unknown
        return self.same_package + name

    def _bound(self, bound: ts.Node | None, ctx: Site, depth: int) -> str:
        """A type parameter stands for its bound (`T extends Pool` calls Pool's methods), else for unknown."""
        if bound is None or depth > MAX_DEPTH:
            return ""
        return self._type_named(written_type(bound), ctx, depth + 1)

    def _resolve(self, node: ts.Node | None, ctx: Site) -> str:
        return self._type_named(written_type(node), ctx)

    def _typed(self, qualified: str, resolution: Resolution, *, static: bool = False) -> _Typed | None:
        if not qualified:
            return None
        return _Typed(qualified, resolution, static, self.by_qualified.get(qualified))

    def _base_of(self, cls: ClassShape, ctx: Site) -> str:
        """The type an anonymous or local class extends, as the nearest place its methods may come from."""
        return self._resolve(cls.bases[0], ctx) if cls.bases else ""

    def _class_context(self, cls: ClassShape, ctx: Site) -> Site:
        """Where a member of `cls` was declared: its own class for a class of the outline, else the site's."""
        return Site(cls) if cls.qualified else ctx

    # --- expressions ---

    def _type_of(self, expr: ts.Node, ctx: Site, depth: int = 0) -> _Typed | None:
        """The type of a receiver expression, as far as this file states it; None when unknown."""
        kind = expr.type
        if depth > MAX_DEPTH:
            return None
        if kind == "identifier":
            return self._identifier(node_text(expr), ctx, depth)
        if kind == "this":
            cls = ctx.inner[0] if ctx.inner else ctx.cls
            return _Typed(cls.qualified, Resolution.EXACT, cls=cls) if cls is not None else None
        if kind == "field_access":
            return self._field_access(expr, ctx, depth)
        if kind in ("object_creation_expression", "cast_expression"):
            return self._typed(self._resolve(expr.child_by_field_name("type"), ctx), Resolution.INFERRED)
        if kind == "parenthesized_expression" and expr.named_child_count == 1:
            return self._type_of(expr.named_children[0], ctx, depth + 1)
        if kind == "method_invocation":
            return self._returned(expr, ctx, depth)
        if kind.endswith("_literal") or kind in ("true", "false", "array_creation_expression"):
            return _Typed(OUTSIDE, Resolution.INFERRED)
        return None

    def _identifier(self, name: str, ctx: Site, depth: int) -> _Typed | None:
        """A local or parameter (the innermost visible), else a field of an enclosing class, else a type."""
        declared = self._declared(ctx.member).lookup(name, ctx.at)
        if declared is not None:
            if declared.type is not None:
                return self._typed(self._resolve(declared.type, ctx), Resolution.INFERRED)
            if declared.value is None:
                return None  # an untyped lambda parameter, `for (var x : xs)`: it hides any field of that name
            found = self._type_of(declared.value, replace(ctx, at=declared.start), depth + 1)
            return replace(found, resolution=Resolution.INFERRED, static=False) if found is not None else None
        for cls in ctx.classes():
            if name in cls.fields:
                return self._field(cls, name, ctx)
        if is_type_name(name):
            return self._typed(self._type_named(name, ctx), Resolution.EXACT, static=True)
        return None

    def _field(self, cls: ClassShape, name: str, ctx: Site) -> _Typed | None:
        declared = cls.fields[name]
        if declared.type == "enum_constant":
            return self._typed(cls.qualified, Resolution.INFERRED)
        return self._typed(self._resolve(declared, self._class_context(cls, ctx)), Resolution.INFERRED)

    def _field_access(self, expr: ts.Node, ctx: Site, depth: int) -> _Typed | None:
        """`this.pool`, `Outer.this`, `Foo.INSTANCE`, `Outer.Inner`, `com.acme.Util`."""
        owner_node, member = expr.child_by_field_name("object"), expr.child_by_field_name("field")
        if owner_node is None or member is None:
            return None
        if member.type == "this":
            return self._typed(self._type_named(node_text(owner_node), ctx), Resolution.EXACT)
        name = node_text(member)
        owner = self._type_of(owner_node, ctx, depth + 1)
        if owner is None:
            written = node_text(owner_node)
            if is_type_name(name) and all(not is_type_name(part) for part in written.split(".")):
                return self._typed(self._type_named(f"{written}.{name}", ctx), Resolution.EXACT, static=True)
            return None
        if owner.cls is not None:
            if name in owner.cls.fields:
                return self._field(owner.cls, name, ctx)
            nested = owner.cls.nested.get(name)
            return self._typed(nested.qualified, Resolution.EXACT, static=True) if nested is not None else None
        if is_outside(owner.name):
            return _Typed(OUTSIDE, Resolution.INFERRED)
        if owner.static and is_type_name(name):
            return self._typed(f"{owner.name}.{name}", Resolution.EXACT, static=True)
        return None

    def _returned(self, call: ts.Node, ctx: Site, depth: int) -> _Typed | None:
        """What a call returns, when the method is one of this file's and states its return type."""
        name = node_text(call.child_by_field_name("name"))
        receiver = call.child_by_field_name("object")
        if receiver is None:
            owner = next((c for c in ctx.classes() if name in c.methods), None)
        else:
            typed = self._type_of(receiver, ctx, depth + 1)
            owner = typed.cls if typed is not None else None
        method = owner.methods.get(name) if owner is not None else None
        if method is None and receiver is not None and typed is not None and self._declared_elsewhere(typed):
            # a method of another file's class (`JCommander.newBuilder().build()`): named by it, for the indexer
            # to type by the return type its own file states (`returned`)
            self.results_elsewhere.add(f"{typed.name}.{name}")
            return _Typed(f"{typed.name}.{name}", Resolution.INFERRED)
        if owner is None or method is None:
            return None
        where = replace(self._class_context(owner, ctx), type_params=type_parameters(method))
        return self._typed(self._resolve(method.child_by_field_name("type"), where), Resolution.INFERRED)

    def _declared_elsewhere(self, typed: _Typed) -> bool:
        """Whether a type is a class of another file the project may declare, or what a method of one gives (not the
        JDK's)."""
        return typed.cls is None and not is_outside(typed.name)

    # --- the SiteBinder protocol ---

    def returned(self, node: ts.Node) -> Target | None:
        """The class a method declares it returns (`Builder newBuilder()` -> its qualified name), for calls of it in
        other files; None for `void`, a primitive, the JDK's types and a type parameter."""
        if node.type != "method_declaration":
            return None
        where = replace(self._context(node), type_params=type_parameters(node))
        found = self._resolve(node.child_by_field_name("type"), where)
        return Target(TargetForm.QUALIFIED, found, Resolution.EXACT) if found and not is_outside(found) else None

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None:
        if node.type == "object_creation_expression":
            return self._created(callee, self._context(node))
        name = node_text(callee)
        if name in OBJECT_FINAL_METHODS:
            return None
        ctx = self._context(node)
        receiver = node.child_by_field_name("object")
        if receiver is None:
            return self._unqualified(name, ctx)
        if receiver.type == "super":
            return self._super(name, ctx)
        if any(c.type == "super" for c in node.children):  # `Iface.super.m()`: a default method of Iface
            typed = self._typed(self._type_named(node_text(receiver), ctx), Resolution.EXACT)
            return self._member(typed, name, ctx)
        return self._member(self._type_of(receiver, ctx), name, ctx)

    def base(self, name: str, node: ts.Node) -> Target | None:
        cls = self.classes.get(node.id)
        # A class's extends clause sees the classes around it, not the ones it declares.
        ctx = Site(cls.parent) if cls is not None else self._context(node)
        written = next((t for t in supertypes(node) if terminal_name(t) == name), None)
        found = self._resolve(written, ctx) if written is not None else ""
        if not found:
            return Target(TargetForm.NAME, name, Resolution.NAME)
        return None if is_outside(found) else Target(TargetForm.QUALIFIED, found, Resolution.EXACT)

    def _created(self, callee: ts.Node, ctx: Site) -> Target | None:
        found = self._resolve(callee, ctx)
        if not found:
            name = terminal_name(callee)
            return Target(TargetForm.NAME, name, Resolution.NAME) if name else None
        return None if is_outside(found) else Target(TargetForm.QUALIFIED, found, Resolution.EXACT)

    def _member(self, typed: _Typed | None, name: str, ctx: Site) -> Target | None:
        if typed is not None and typed.cls is not None and not typed.cls.qualified:  # anonymous or local class
            if name in typed.cls.methods:
                return None
            typed = self._typed(self._base_of(typed.cls, ctx), Resolution.INFERRED)
        if typed is None:
            return _guess(name)
        if is_outside(typed.name) or (typed.name in self.results_elsewhere and name in JDK_METHODS):
            return None
        return Target(TargetForm.MEMBER, name, typed.resolution, owner=typed.name)

    def _super(self, name: str, ctx: Site) -> Target | None:
        if ctx.inner:
            return self._member(self._typed(self._base_of(ctx.inner[0], ctx), Resolution.INFERRED), name, ctx)
        if ctx.cls is None or not self._may_inherit(ctx.cls):
            return None
        return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=ctx.cls.qualified, after_owner=True)

    def _unqualified(self, name: str, ctx: Site) -> Target | None:
        """`m()`: the innermost class declaring m, a static import, or the nearest class that may inherit m."""
        if any(name in c.methods for c in ctx.inner):
            return None
        chain = list(ctx.cls.chain()) if ctx.cls is not None else []
        declaring = next((c for c in chain if name in c.methods), None)
        if declaring is not None:
            return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=declaring.qualified)
        if name in self.static_members:
            owner = self.static_members[name]
            return None if is_outside(owner) else Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=owner)
        for cls in ctx.inner:
            base = self._base_of(cls, ctx)
            if base and not is_outside(base):
                return Target(TargetForm.MEMBER, name, Resolution.INFERRED, owner=base)
        heir = next((c for c in chain if self._may_inherit(c)), None)
        if heir is not None:
            return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=heir.qualified)
        if len(self.static_wildcards) == 1:
            return Target(TargetForm.MEMBER, name, Resolution.INFERRED, owner=self.static_wildcards[0])
        return _guess(name) if self.static_wildcards else None

    def _may_inherit(self, cls: ClassShape) -> bool:
        """Whether some base of the class may be a project's (one the JDK defines has no indexed methods)."""
        ctx = Site(cls.parent)
        return any(not is_outside(self._resolve(base, ctx)) for base in cls.bases)


def _guess(name: str) -> Target | None:
    """Only the name is known: a guess, unless it is a JDK method name an unknown receiver most likely has."""
    return None if name in JDK_METHODS else Target(TargetForm.NAME, name, Resolution.NAME)


def bind_java(root: ts.Node, path: str, module: str) -> JavaBinder:
    """The site binder of one Java file (a `SiteBinderFactory`)."""
    return JavaBinder(root, path, module)
