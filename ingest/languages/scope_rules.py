"""What differs between languages for the rules binder (`rules_binder`), as data: which nodes declare types and
functions, how a call names its receiver and member, what constructs, the words for the enclosing type and its
bases, how imports and packages name other files' types, and which of the language's library's names no project
defines."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import tree_sitter as ts

from trident.ingest.languages import field_name, node_text

if TYPE_CHECKING:
    from trident.ingest.languages.frames import Site
    from trident.ingest.languages.rules_values import ValueNames, Values

# (call node, callee node) -> (receiver node, or None for a bare call; the member's name), None for no named call
CallSplitter = Callable[[ts.Node, ts.Node], "tuple[ts.Node | None, str] | None"]
# (call node, callee node) -> the type a construction names ("" when the call constructs nothing)
Constructed = Callable[[ts.Node, ts.Node], str]
# (an expression) -> the node it is made of and what of it: a call's callee (`f` of `f(x)`, `a->f` of `a->f()`), a
# field read's object and field (`a` and `doc` of `a->doc`), a function definition's stated return type
Part = Callable[[ts.Node], "ts.Node | None"]
Access = Callable[[ts.Node], "tuple[ts.Node, str] | None"]
OUTSIDE = "<outside>"  # a type of the language's own library (`java.lang.String`, a primitive): no project's


@dataclass(frozen=True)
class TypeNames:
    """What names the types of other files in one file: its imports (written name -> dotted full name, or OUTSIDE)
    and its namespace or package (dotted), for a written name it does not import."""

    imported: dict[str, str]
    namespace: str = ""
    # A name as written is the name to look up (C++: the indexer finds it from the caller's namespaces outwards)
    written_whole: bool = False
    outside: frozenset[str] = frozenset()  # names of the language's library every file sees (`String`, `List`)
    outside_prefixes: tuple[str, ...] = ()  # packages of the language's library (`java.`)
    members: dict[str, str] = field(default_factory=dict)  # a member imported by name -> its type (or OUTSIDE)
    member_wildcards: tuple[str, ...] = ()  # types whose every member is imported (`import static a.Util.*`)
    is_type: Callable[[str], bool] = lambda name: True  # whether a name may be a type's (not a constant's)
    default_package: bool = False  # a type written in a file of no namespace is its own name (Java's default package)
    # A dotted name's head is an import (Go's `store.Item`): one the file does not import names nothing
    imports_qualify: bool = False

    def full(self, written: str) -> str:
        """`Handler` -> `App.Log.Handler`; `Log.Handler` (relative) -> through `Log`'s import or the namespace;
        `.App.Log.Handler` (written from the root) -> `App.Log.Handler`; OUTSIDE for the language's library's; ""
        when nothing names it."""
        if self.written_whole:
            return written
        if written.startswith("."):
            return OUTSIDE if written.startswith(self.outside_prefixes, 1) and self.outside_prefixes else written[1:]
        head, _, rest = written.partition(".")
        if head in self.imported:
            imported = self.imported[head]
            return f"{imported}.{rest}" if rest and imported != OUTSIDE else imported
        if rest and self.imports_qualify:
            return ""
        if head in self.outside:
            return OUTSIDE
        if not self.is_type(head):
            return ""
        if self.namespace:
            return f"{self.namespace}.{written}"
        return written if self.default_package else ""


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


def _no_names(root: ts.Node, module: str) -> TypeNames:
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


@dataclass(frozen=True)
class Local:
    """A parameter or local: seen in `scope` (its first byte and the byte after its last) from byte `visible` on,
    with the node of its stated type, or (declared without one) the value it is given."""

    name: str
    scope: tuple[int, int]
    visible: int
    kind: ts.Node | None
    value: ts.Node | None = None
    part: int = 0  # which of the values `value` gives it is (Go's `c, err := dial()`: err is 1)
    ranged: bool = False  # it is given what a loop over `value` gives at `part` (`for i, job := range jobs`)
    receiver: bool = False  # the method's receiver (Go's `s` of `func (s *Server)`): its type is exactly the owner
    # It may name a variable its block declares already (Go's `x, err := ...`), which keeps its type where this value's
    # is unknown
    redeclares: bool = False


class PathNames(Protocol):
    """What names a path where it is written, for a language whose names are paths through modules (Rust's
    `crate::a::Foo`, `use` trees and globs, inline modules with names of their own), which `TypeNames` cannot say."""

    def resolve(self, written: str, site: Site) -> str | None:
        """The qualified name a dotted path (`crate.a.Foo`, `Self`, `helper`) means where `site` is; OUTSIDE for the
        language's library's, None where the file does not say."""
        ...

    def glob(self, site: Site) -> str:
        """The one module of another file whose every name the module around `site` brings in, "" for none."""
        ...

    def item(self, qualified: str) -> ts.Node | None:
        """The file's function, method or static of a qualified name, None for none."""
        ...


def _no_parameters(node: ts.Node) -> dict[str, ts.Node | None]:
    return {}


def _no_bases(node: ts.Node) -> list[ts.Node]:
    return []


def _never(node: ts.Node) -> bool:
    return False


def _always(node: ts.Node) -> bool:
    return True


def _no_element(node: ts.Node) -> tuple[ts.Node, int] | None:
    return None


def _no_results(node: ts.Node) -> list[ts.Node | None] | None:
    return None


def _no_constructor(name: str) -> str:
    return ""


def _no_convention(name: str) -> bool:
    return False


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
    names: Callable[[ts.Node, str], TypeNames] = _no_names  # (tree root, module) -> what its imports and namespace name
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
    # A function -> its parameters and locals with where each is seen, where `declared`, `assigned` and `blocks` do not
    # say it (Java's pattern and lambda variables, `try` resources)
    locals: Callable[[ts.Node], Iterable[Local]] | None = None
    # A type's members are all declared with it (Java: no partial types, no extensions): a bare call is the innermost
    # type's that declares it, else the nearest that may inherit it; a field of an enclosing type is seen inside
    closed_types: bool = False
    methods: frozenset[str] | None = None  # nodes declaring a method of a type, where not every function is one
    bases: Callable[[ts.Node], list[ts.Node]] = _no_bases  # a type -> the nodes of the types it extends, as written
    type_parameters: Callable[[ts.Node], dict[str, ts.Node | None]] = _no_parameters  # -> each one's bound
    anonymous: Callable[[ts.Node], bool] = _never  # a node declaring a type with no name (`new Foo() { ... }`)
    made: Part = _no_part  # an expression of a type it states (`new Foo()`, `(Foo) x`) -> the node of that type
    unwrap: Part = _no_part  # an expression that is another's value (`(x)`) -> that expression
    literal: Callable[[ts.Node], bool] = _never  # an expression whose type is the language's library's (`"a"`)
    # Methods every value of the language's library has (`toString`, `get`): on a receiver of a type the file does
    # not state, most likely the library's, not a project's; and methods no type may define (`getClass`)
    library_methods: frozenset[str] = frozenset()
    final_methods: frozenset[str] = frozenset()
    # Names a call bound by its name alone most likely calls from the language's library (Go's `len`, JS's `require`,
    # Rust's `Ok`): no project's
    library_calls: frozenset[str] = frozenset()
    # Names are paths through modules, resolved where they are written (Rust; read by the paths binder, `rules_paths`):
    # (tree root, file path, module) -> what names each path
    paths: Callable[[ts.Node, str, str], PathNames] | None = None
    namespaces: frozenset[str] = frozenset()  # nodes declaring a module with names of its own (Rust's inline `mod`)
    # A value of the language's library's type may have the project's methods (Rust's traits implemented for `Vec`):
    # a call on one is named by its name alone, as on a receiver whose type the file does not state
    library_extended: bool = False
    # A type's methods may be defined apart from it, in any file (Rust's `impl` blocks), each an entity of the file
    # that defines it on the type as written there: the enclosing type's receiver (`self.m()`) calls that one where the
    # file defines m so, else the type's own
    apart: bool = False
    # A stated return type that wraps the value a call gives (`Result<Foo, E>`) -> the node of that value's type: the
    # call's result is a Foo only once unwrapped (`unwrapping`)
    wrapped: Part = _no_part
    unwrapping: Part = _no_part  # an expression that takes a value out of its wrapper (`x?`, `x.unwrap()`) -> x
    constructs: Callable[[str], bool] = _no_convention  # a type's function that by convention makes one (`new`)
    private_returns: bool = False  # what functions state they return types this file's calls alone (no `RETURNS`)
    # A package is a folder (Go): the file's types are named by it, and a bare call of a name the file does not define
    # is its package's (another file's) function or type; an import names a package, whose functions a call through it
    # calls (`store.Open()`); a receiver names a type only where the file declares it; a local's declaration is all
    # that types it
    packages: bool = False
    # A call of a name the receiver's type declares as a field calls the value the field holds (Go: a type's fields and
    # methods share their names): nothing the file names
    field_calls: bool = False
    # A type parameter stands for no project's type, whatever constrains it (Go's old binder's reading)
    parameters_outside: bool = False
    # The file's top-level variables are seen in each of its functions (Go's package-level `var`), as `locals` of the
    # tree's root gives them
    globals: bool = False
    # A container type -> the node of the type of its elements, and which of the variables of a loop over it holds one
    # (Go: 1 for a slice's or map's `for i, v := range`, 0 for a channel's)
    element: Callable[[ts.Node], tuple[ts.Node, int] | None] = _no_element
    item: Part = _no_part  # an expression reading one element of another (`xs[i]`, `<-ch`) -> that other
    # A function, or a function type, -> the node of each result it states, in order; None for any other node
    results: Callable[[ts.Node], list[ts.Node | None] | None] = _no_results
    constructor: Callable[[str], str] = _no_constructor  # a function's name -> the type it makes by convention (`New`)
    aliased: Part = _no_part  # a type declaration naming another type (`type A = B`) -> the node of that type
    # Whether the outline makes an entity of a type declaration (Go's `type ID string` with no methods in its file is
    # none): a function stating it returns one gives nothing to type a call's result by
    is_entity: Callable[[ts.Node], bool] = _always
    # The language's own functions (Go's `len`, `append`): a bare call of one the file does not define names nothing,
    # and gives a value of a type the file does not state
    library_functions: frozenset[str] = frozenset()
    # Names are values held in scopes (JavaScript; read by the values binder, `rules_values`): (tree root, file path,
    # module, the binder) -> what each name holds
    values: Callable[[ts.Node, str, str, Values], ValueNames] | None = None
