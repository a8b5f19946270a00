r"""Calls and bases bound by what one file proves, for a language described by data (`ScopeRules`): one binder for
every language that has no type-aware binder of its own (C#, PHP), one site at a time (a `SiteBinder`).

- A call on the enclosing type's receiver (`this.M()`, `$this->m()`, `self::m()`) is a member of that type, looked
  up through its bases; on the base receiver (`base.M()`, `parent::m()`), in its bases only; a bare call, where the
  language calls members without a receiver (C#, Java), a member too.
- A type the file defines (`new Receipt(...)`, `Limits.Max()`, `Helpers::format()`, `: GatewayBase`) is that
  definition; a function the file defines at its top level (`format_money($x)`) is that function.
- Where the language names types by namespace (PHP), a type of another file is the name its imports or the file's
  namespace give it (`use App\Log\Handler;` then `new Handler`: `App.Log.Handler`), which the indexer matches by
  the longest tail of it that names a definition (`Log/Handler.php`'s class `Handler`).
- A receiver whose type the code declares — a field or property of the enclosing type, a parameter, a local
  (`private PaymentGateway $gateway` then `$this->gateway->charge()`; `IPay gw` then `gw.Charge()`; `var r = new
  Receipt()`) — makes the call a member of that type, when the file can name it (its own types; PHP's `use` and
  namespace names; in C#, the short name the indexer finds as the one class of the project that has it),
  `inferred`.
- Where a type's fields may be declared in another file than its methods (C++: the class in a header, its methods
  in the `.cpp`), a receiver no declaration in reach types is a field of the enclosing type (`_document->New()` in
  `XMLNode::Insert`: `XMLNode@_document`), and each type states what its fields hold (`HoldsBinder`) for the indexer
  to finish; a receiver that is a call is what the function gives (`FirstChild()->Name()`, typed by what the
  function states it returns, a `ReturnsBinder`), one that reads a field what the field holds (`a->doc->New()`).
- A bare call of a name a parameter or local holds (`cb(x)`, with `cb` a parameter) calls that value: nothing the
  file names. In C, a bare call of a function the file does not define is the project's one function of that name
  (what the linker binds: `inferred`); in Kotlin, an imported function, else the package's one function of that
  name; in both, a method's own class's member first.
- Anything else is named as written: a guess the indexer keeps only where one entity of the project has the name,
  labelled `name`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

import tree_sitter as ts

from trident.ingest.languages import field_name, node_text
from trident.ingest.languages.binding import Target
from trident.ingest.languages.lexical import LexicalNames
from trident.ingest.model import ATTRIBUTE_MARK, TargetForm
from trident.store.schema import Resolution

# (call node, callee node) -> (receiver node, or None for a bare call; the member's name), None for no named call
CallSplitter = Callable[[ts.Node, ts.Node], "tuple[ts.Node | None, str] | None"]
# (call node, callee node) -> the type a construction names ("" when the call constructs nothing)
Constructed = Callable[[ts.Node, ts.Node], str]
# (an expression) -> the node it is made of and what of it: a call's callee (`f` of `f(x)`, `a->f` of `a->f()`), a
# field read's object and field (`a` and `doc` of `a->doc`), a function definition's stated return type
Part = Callable[[ts.Node], "ts.Node | None"]
Access = Callable[[ts.Node], "tuple[ts.Node, str] | None"]
MAX_CHAIN = 8  # links of a receiver chain followed (`a->b()->c->d()`)
VALUE_MARK = "="  # a local typed by its initializer's value, not by a type written for it


@dataclass(frozen=True)
class TypeNames:
    """What names the types of other files in one file: its imports (written name -> dotted full name) and its
    namespace (dotted), for a written name it does not import."""

    imported: dict[str, str]
    namespace: str = ""
    # A name as written is the name to look up (C++: the indexer finds it from the caller's namespaces outwards)
    written_whole: bool = False

    def full(self, written: str) -> str:
        """`Handler` -> `App.Log.Handler`; `Log.Handler` (relative) -> through `Log`'s import or the namespace;
        `.App.Log.Handler` (written from the root) -> `App.Log.Handler`; "" when nothing names it."""
        if self.written_whole:
            return written
        if written.startswith("."):
            return written[1:]
        head, _, rest = written.partition(".")
        if head in self.imported:
            return f"{self.imported[head]}.{rest}" if rest else self.imported[head]
        return f"{self.namespace}.{written}" if self.namespace else ""


def dotted_name(node: ts.Node | None, leaves: frozenset[str], paths: frozenset[str]) -> str:
    """A name written with dots, without type arguments: `a.b.C<T>` -> a.b.C; "" for anything but a name (a path
    with a call in it, a literal). `leaves` are the grammar's identifier nodes, `paths` the nodes that join them."""
    if node is None:
        return ""
    if node.type in leaves:
        return node_text(node)
    if node.type not in paths:
        return ""
    parts = [dotted_name(c, leaves, paths) for c in node.named_children if c.type != "type_arguments"]
    return ".".join(parts) if parts and all(parts) else ""


def capitalised(written: str) -> str:
    """A dotted name as a type, where the language writes types with a capital (Kotlin, Scala): `Outer.Inner` as it
    is, a package-qualified `com.acme.Shop` from the root (`.com.acme.Shop`), "" for a value (`gateway`)."""
    parts = written.split(".") if written else []
    first_type = next((i for i, part in enumerate(parts) if part[:1].isupper()), None)
    if first_type is None:
        return ""
    return written if first_type == 0 else f".{written}"


def _no_names(root: ts.Node) -> TypeNames:
    return TypeNames({})


# (a type declaration or a function) -> (a receiver as code writes it, the node of its declared type), for the fields
# and properties a type declares and the parameters and locals of a function
Declared = Callable[[ts.Node], Iterable[tuple[str, ts.Node]]]


def _nothing_constructed(node: ts.Node, callee: ts.Node) -> str:
    return ""


def _nothing_declared(node: ts.Node) -> Iterable[tuple[str, ts.Node]]:
    return ()


def _no_part(node: ts.Node) -> ts.Node | None:
    return None


def _no_access(node: ts.Node) -> tuple[ts.Node, str] | None:
    return None


def within(node: ts.Node | None, nested: frozenset[str]) -> Iterator[ts.Node]:
    """The nodes under `node` (itself included) not inside a node of a `nested` type under it (a nested function or
    type, whose locals are its own); iterative, so deep expressions cannot overflow the stack."""
    pending = [node] if node is not None else []
    while pending:
        at = pending.pop()
        if at is not node and at.type in nested:
            continue
        yield at
        pending.extend(at.named_children)


@dataclass(frozen=True)
class ScopeRules:
    """What differs between languages for this binder: which nodes declare types and top-level functions, how a
    call names its receiver and member, what constructs, and the words for the enclosing type and its bases."""

    types: frozenset[str]  # nodes declaring a type, named by their `name` field
    functions: frozenset[str]  # nodes declaring a function (at the top level: callable by its bare name)
    split: CallSplitter
    constructed: Constructed = _nothing_constructed  # (C, shell and Lua construct nothing)
    self_receivers: frozenset[str] = frozenset()  # a receiver written so means the enclosing type (`this`, `self`)
    base_receivers: frozenset[str] = frozenset()  # ... its bases (`base`, `parent`)
    implicit_self: bool = False  # a bare call is a member of the enclosing type (C#), not a free function (PHP)
    names: Callable[[ts.Node], TypeNames] = _no_names  # (tree root) -> what its imports and namespace name
    written: Callable[[ts.Node], str] = node_text  # a type as written, dotted (`\App\Log` -> `.App.Log`)
    bodies: frozenset[str] = frozenset()  # nodes whose parameters and locals type the receivers inside them
    # nodes whose locals are seen only inside them (`{ ... }` blocks); none: a local is seen to its function's end
    blocks: frozenset[str] = frozenset()
    declared: Declared = _nothing_declared
    # A declared type of another file the file cannot name is given by its short name, for the indexer to find as
    # the one class of the project with that name (C#: namespaces are not folders, `using` names no type)
    short_types: bool = False
    # A receiver `written` names is a class or module, never a variable (Ruby's constants): `Helpers.format(x)`,
    # given by its short name as `short_types` are
    constant_receivers: bool = False
    name: Callable[[ts.Node], str] = field_name  # a type or function node -> the name it defines
    # A bare call of a function the file does not define is its class's member, else (C's linker) the project's one
    # function of the name, or (Kotlin) an imported function or the package's one of the name
    linked: bool = False
    # A function defined outside its type (C++'s `void Circle::area()`) -> that type as written ("" for none)
    owner: Callable[[ts.Node], str] = lambda node: ""
    # A type's fields may be declared in another file than its methods use them (C++'s header and `.cpp`)
    fields_elsewhere: bool = False
    returned: Part = _no_part  # a function definition -> the node of the type it states it returns
    callee: Part = _no_part  # a call expression used as a receiver -> its callee (None for anything else)
    access: Access = _no_access  # a field read used as a receiver -> (its object, the field)
    # A function -> (a local declared without a type, its initializer): `var reader = module.Reader;`
    assigned: Callable[[ts.Node], Iterable[tuple[str, ts.Node]]] = _nothing_declared


class RulesBinder:
    """The site binder of one file, by its language's rules."""

    def __init__(self, rules: ScopeRules, root: ts.Node, module: str) -> None:
        self.rules, self.module = rules, module
        self.names = rules.names(root)
        self._declared: dict[int, dict[str, str]] = {}  # type node id -> field or property -> its written type
        self._locals: dict[int, LexicalNames[str]] = {}  # function node id -> its parameters and locals
        self.types: dict[str, str] = {}  # type name -> its local name (`Outer.Inner`), for the file's types
        self.functions: set[str] = set()  # the file's top-level functions
        stack = [root]
        while stack:
            node = stack.pop()
            name = rules.name(node) if node.type in rules.types | rules.functions else ""
            if node.type in rules.types and name:
                self.types.setdefault(name, self._local(node))
            elif node.type in rules.functions and name and not self._enclosing_type(node) and not rules.owner(node):
                self.functions.add(name)
            stack.extend(node.named_children)

    def call(self, node: ts.Node, callee: ts.Node) -> Target | None:
        if made := self.rules.constructed(node, callee):
            return self._type(made)
        split = self.rules.split(node, callee)
        if split is None:
            return None
        receiver, member = split
        own = self._enclosing_type(node)
        if receiver is None:
            return None if self._holds(node, member) else self._bare(member, own)
        written = node_text(receiver)
        if own and written in self.rules.self_receivers | self.rules.base_receivers:
            after = written in self.rules.base_receivers
            return Target(TargetForm.MEMBER, member, Resolution.EXACT, owner=own, after_owner=after)
        named = self.rules.written(receiver)
        owner = self._qualified(named)  # `Limits.Max()`, `Helpers::format()`
        if owner and member:
            return Target(TargetForm.MEMBER, member, Resolution.EXACT, owner=owner)
        if self.rules.constant_receivers and named.isidentifier() and member:
            return Target(TargetForm.MEMBER, member, Resolution.INFERRED, owner=named)  # another file's, by name
        typed = self._value_type(receiver, 0)  # `$this->gateway->charge()`, `gw.Charge()`, `First()->Name()`
        if typed and member:
            return Target(TargetForm.MEMBER, member, Resolution.INFERRED, owner=typed)
        return Target(TargetForm.NAME, member, Resolution.NAME) if member else None

    def returned(self, node: ts.Node) -> Target | None:
        """The type a function definition states it returns, where the file can name it (`XMLElement*
        XMLNode::FirstChildElement()` -> XMLElement), for calls of it in other files."""
        kind = self.rules.returned(node)
        target = self._type(self.rules.written(kind)) if kind is not None else None
        return target if target is not None and target.form is not TargetForm.NAME else None

    def held(self, node: ts.Node) -> list[tuple[str, Target]]:
        """(field, its declared type) for each field of the type `node` declares with a type the file can name, where
        methods of other files use them (`fields_elsewhere`)."""
        if not self.rules.fields_elsewhere or node.type not in self.rules.types:
            return []
        found = []
        for name, written in self._declarations(node).items():
            target = self._type(written) if name.isidentifier() and written else None
            if target is not None and target.form is not TargetForm.NAME:
                found.append((name, replace(target, resolution=Resolution.INFERRED)))
        return found

    def _value_type(self, value: ts.Node, depth: int) -> str:
        """The type of what a receiver holds, as the indexer finds it: its declared type (`Logger`), what a field of
        a type holds (`XMLNode@_document`), what a function gives (`XMLNode.FirstChildElement`); "" where the file
        does not say."""
        written = node_text(value)
        own = self._enclosing_type(value)
        if own and written in self.rules.self_receivers and depth:
            return own
        declared = self._receiver_type(value, written)
        if declared.startswith(VALUE_MARK):  # `var reader = resources.ResourceReader;`: what its value is
            return declared.removeprefix(VALUE_MARK)
        if typed := self._qualified(declared):
            return typed
        if self.rules.short_types and declared and all(part.isidentifier() for part in declared.split(".")):
            return declared  # (a namespace-qualified `Lib.ModuleDefMD` is a name the indexer knows as is)
        if depth >= MAX_CHAIN:
            return ""
        if (callee := self.rules.callee(value)) is not None:
            return _gives(self.call(value, callee), own)
        if (read := self.rules.access(value)) is not None:
            holder = self._value_type(read[0], depth + 1)
            return f"{holder}{ATTRIBUTE_MARK}{read[1]}" if holder else ""
        bare = written.isidentifier() and written not in self.types and written not in self.functions
        if self.rules.fields_elsewhere and own and bare and not self._holds(value, written):
            return f"{own}{ATTRIBUTE_MARK}{written}"  # a field the type declares where this file does not see
        return ""

    def base(self, name: str, node: ts.Node) -> Target | None:
        return self._type(name)

    def _bare(self, name: str, own: str) -> Target | None:
        if not name:
            return None
        if name in self.functions:
            return Target(TargetForm.QUALIFIED, f"{self.module}.{name}", Resolution.EXACT)
        if "." in name:  # a qualified name (C++'s `geo::round()`, `Base::area()`, Lua's `util.sum()`)
            return Target(TargetForm.QUALIFIED, self._qualified(name) or name, Resolution.EXACT)
        if self.rules.implicit_self and own:
            return Target(TargetForm.MEMBER, name, Resolution.EXACT, owner=own)
        if name in self.types:
            return self._type(name)
        if self.rules.linked and name in self.names.imported:  # Kotlin's `import com.acme.util.helper`
            return Target(TargetForm.QUALIFIED, self.names.imported[name], Resolution.EXACT)
        if self.rules.linked:  # looked up in the package the file is in (Kotlin), else the whole project (C)
            return Target(TargetForm.LINKED, name, Resolution.INFERRED, owner=self.names.namespace)
        return Target(TargetForm.NAME, name, Resolution.NAME)

    def _type(self, written: str) -> Target | None:
        """A type as written: the file's own, else the one its imports or namespace name, else (where types are named
        by their short name) the project's one type of that name, else a guess."""
        if qualified := self._qualified(written):
            return Target(TargetForm.QUALIFIED, qualified, Resolution.EXACT)
        name = written.rpartition(".")[2]
        if self.rules.short_types and name == written and name.isidentifier():  # the project's one type of the name
            return Target(TargetForm.LINKED, name, Resolution.INFERRED)
        return Target(TargetForm.NAME, name, Resolution.NAME) if name.isidentifier() else None

    def _qualified(self, written: str) -> str:
        """The qualified name of a type as written: the file's own by its local name, else by the names its imports
        and namespace give ("" for neither)."""
        if written in self.types:
            return f"{self.module}.{self.types[written]}"
        return self.names.full(written) if written and not written.startswith("$") else ""

    def _receiver_type(self, node: ts.Node, written: str) -> str:
        """The type the nearest declaration of a receiver states, as written: the local or parameter of an enclosing
        function it means where it is written, else a field or property of the enclosing type ("" when none does)."""
        at = node.parent
        while at is not None:
            if at.type in self.rules.types:
                return self._declarations(at).get(written, "")
            if at.type in self.rules.bodies and (local := self._local_names(at).find(written, node.start_byte)):
                return local.what
            at = at.parent
        return ""

    def _holds(self, node: ts.Node, name: str) -> bool:
        """Whether `name` is, where `node` is, a parameter or local of a function enclosing it (a value, not a
        definition)."""
        at = node.parent
        while at is not None and at.type not in self.rules.types:
            if at.type in self.rules.bodies and self._local_names(at).find(name, node.start_byte) is not None:
                return True
            at = at.parent
        return False

    def _declarations(self, at: ts.Node) -> dict[str, str]:
        """What a type declares (fields, properties) -> the type each is declared with, as written ("" when not
        stated); read once per type."""
        if at.id not in self._declared:
            found = self._declared[at.id] = {}
            for name, kind in self.rules.declared(at):
                found[name] = self.rules.written(kind)
            for name, value in self.rules.assigned(at):
                typed = self._value_type(value, 1)
                found.setdefault(name, f"{VALUE_MARK}{typed}" if typed else "")
        return self._declared[at.id]

    def _local_names(self, function: ts.Node) -> LexicalNames[str]:
        """What a function declares (parameters, locals) -> the type each is declared with, as written ("" when not
        stated), each seen from where it is declared on; read once per function."""
        found = self._locals.get(function.id)
        if found is None:
            found = self._locals[function.id] = LexicalNames()  # (filled in order: an initializer reads those before)
            for name, kind in self.rules.declared(function):
                found.add(name, self._block(kind, function), kind.start_byte, self.rules.written(kind))
            for name, value in self.rules.assigned(function):
                typed = self._value_type(value, 1)
                found.add(name, self._block(value, function), value.start_byte, f"{VALUE_MARK}{typed}" if typed else "")
        return found

    def _block(self, node: ts.Node, function: ts.Node) -> tuple[int, int]:
        """The bytes a local declared at `node` is seen in: its innermost block inside the function, else the
        function (a parameter's)."""
        at = node.parent
        while at is not None and at.id != function.id and at.type not in self.rules.blocks:
            at = at.parent
        held = at if at is not None else function
        return held.start_byte, held.end_byte

    def _local(self, node: ts.Node) -> str:
        """A type's local name: its enclosing types' names and its own, `Outer.Inner`."""
        names = []
        at: ts.Node | None = node
        while at is not None:
            if at.type in self.rules.types and (name := self.rules.name(at)):
                names.append(name)
            at = at.parent
        return ".".join(reversed(names))

    def _enclosing_type(self, node: ts.Node) -> str:
        """The qualified name of the type whose member holds `node` ("" outside any type); of a method defined
        outside its type, that type as its definition writes it."""
        at = node.parent
        while at is not None and at.type not in self.rules.types:
            if at.type in self.rules.functions and (owner := self.rules.owner(at)):
                return self._qualified(owner) or owner
            at = at.parent
        local = self._local(at) if at is not None else ""
        return f"{self.module}.{local}" if local else ""  # (a Swift extension defines no type of its own)


def _gives(target: Target | None, own: str) -> str:
    """What a call bound to `target` gives, as the indexer finds it: a function's or member's name, whose stated
    return type it knows (a bare call in a method, its class's member first); "" for a guess."""
    if target is None or target.resolution is Resolution.NAME:
        return ""
    if target.form is TargetForm.MEMBER:
        return f"{target.owner}.{target.name}"
    if target.form is TargetForm.LINKED:
        return f"{own}.{target.name}" if own and not target.owner else ""
    return target.name


def rules_binder(rules: ScopeRules) -> Callable[[ts.Node, str, str], RulesBinder]:
    """The `SiteBinderFactory` of a language with these rules."""

    def bind(root: ts.Node, path: str, module: str) -> RulesBinder:
        return RulesBinder(rules, root, module)

    return bind
