"""What the Python binder knows of one file's classes and of the scope it binds in: the attribute types each class
states, and a function's local types, imports and held values."""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter as ts

from trident.ingest.languages import node_text
from trident.ingest.languages.binding import Target
from trident.ingest.languages.python_syntax import FUNCTIONS
from trident.ingest.model import ATTRIBUTE_MARK

MAX_ATTRIBUTE_TYPES = 4  # an attribute given more types than this is not one thing a call can be bound to
PROPERTY_DECORATORS = frozenset({"property", "cached_property", "functools.cached_property"})


def surest(types: list[str]) -> list[str]:
    """The types a file states itself, when it states any: an attribute's value another file types
    (`other.pool`, `Other@pool`) is only one of them when nothing else is known."""
    stated = [t for t in types if ATTRIBUTE_MARK not in t]
    return stated or types


def is_named_tuple(cls: ts.Node) -> bool:
    """Whether a class statement derives from `NamedTuple` (`typing.NamedTuple`, `t.NamedTuple`): its instances
    unpack into its fields, in the order the class declares them."""
    bases = cls.child_by_field_name("superclasses")
    return bases is not None and any(node_text(b).rpartition(".")[2] == "NamedTuple" for b in bases.named_children)


def property_name(decorated: ts.Node | None) -> str:
    """The name of a method whose decorators make reading it run it (`@property`, `@cached_property`), else ""."""
    if decorated is None or decorated.type != "decorated_definition":
        return ""
    definition = decorated.child_by_field_name("definition")
    if definition is None or definition.type not in FUNCTIONS:
        return ""
    named = any(_a_property(n) for n in _decorator_names(decorated))
    return node_text(definition.child_by_field_name("name")) if named else ""


def setter_name(decorated: ts.Node | None) -> str:
    """The name of a method decorated as its property's setter (`@columns.setter` over `def columns`), else ""."""
    if decorated is None or decorated.type != "decorated_definition":
        return ""
    definition = decorated.child_by_field_name("definition")
    name = node_text(definition.child_by_field_name("name")) if definition is not None else ""
    return name if name and f"{name}.setter" in _decorator_names(decorated) else ""


def _decorator_names(decorated: ts.Node) -> list[str]:
    """The decorators of a decorated definition as written, without `@` (`property`, `columns.setter`)."""
    return [node_text(d).lstrip("@").strip() for d in decorated.named_children if d.type == "decorator"]


def _a_property(decorator: str) -> bool:
    """Whether a decorator, as written, makes a property: `property`, `functools.cached_property`, or one named so
    wherever it is defined (mako's `util.memoized_property`, `lazy_property`: a descriptor whose `__get__` runs the
    method; not a call such as `@property_factory(...)`)."""
    last = decorator.rpartition(".")[2]
    return decorator in PROPERTY_DECORATORS or (last.endswith("property") and last.replace("_", "a").isalnum())


@dataclass
class ClassFacts:
    local: str
    qualified: str
    attributes: dict[str, list[str]] = field(default_factory=dict)  # attribute -> the qualified types it is given
    declared: dict[str, str] = field(default_factory=dict)  # attribute -> the type its annotation declares
    slots: set[str] = field(default_factory=set)  # attributes declared optional (`x: Foo | None = None`)
    elements: dict[str, str] = field(default_factory=dict)  # container attribute -> qualified type of its elements
    stated_elements: set[str] = field(default_factory=set)  # ... those whose annotation states it (`list[Foo]`)
    element_items: dict[str, list[str]] = field(default_factory=dict)  # `list[tuple[Key, Item]]`: each place's type
    element_unions: dict[str, list[str]] = field(default_factory=dict)  # `list[A | B]`: the classes each may be
    items: dict[str, str] = field(default_factory=dict)  # mapping or list attribute -> what a subscript of it gives
    keys: dict[str, str] = field(default_factory=dict)  # mapping or set attribute -> the class of its keys
    properties: set[str] = field(default_factory=set)  # methods read as attributes (`@property`, `@cached_property`)
    setters: set[str] = field(default_factory=set)  # ... given a setter (`@columns.setter`): writing them runs it
    # class-body attribute -> the class its value is constructed as (`version = _Validator(added="1.0")`): a read of
    # it on an instance runs that class's `__get__` where it defines one (a descriptor)
    descriptors: dict[str, str] = field(default_factory=dict)
    # property -> the class of this file its decorator makes, where that class defines `__get__` (toolz's
    # `@instanceproperty`: `InstanceProperty.__get__` runs, then the getter)
    getters_through: dict[str, str] = field(default_factory=dict)
    methods: set[str] = field(default_factory=set)  # the methods the class body defines
    held: dict[str, str] = field(default_factory=dict)  # attribute -> the class or function it holds (not calls)
    held_too: dict[str, set[str]] = field(default_factory=dict)  # ... what other branches give it to hold
    fields: list[str] = field(default_factory=list)  # a NamedTuple's fields in order: what unpacking it gives
    appended: dict[str, set[str]] = field(default_factory=dict)  # list attribute -> types its appends give
    refilled: set[str] = field(default_factory=set)  # attributes given any value but an empty list
    stored: dict[str, set[str]] = field(default_factory=dict)  # mapping attribute -> types `self.x[k] = v` gives
    remapped: set[str] = field(default_factory=set)  # attributes given any value but an empty mapping
    tables: dict[str, dict[str, str]] = field(default_factory=dict)  # attribute -> key -> the function a dict holds
    copied: dict[str, str] = field(default_factory=dict)  # attribute -> the module-level table it is given a copy of
    # attribute -> the generator functions whose generators it is given (`self._iter = iter(generator)`)
    generators: dict[str, set[str]] = field(default_factory=dict)
    derived: bool = False  # it has a base of the project's (or one the file cannot name): its methods may override

    def hold(self, attribute: str, held: str) -> None:
        """`self.add = self.add_safe` (and in another branch `self.add = self.add_unsafe`): what the attribute holds,
        the first given kept for other files to read, every other one for this file's calls of it."""
        if self.held.setdefault(attribute, held) != held:
            self.held_too.setdefault(attribute, set()).add(held)

    def holding(self, attribute: str) -> list[str]:
        """Every class or function the attribute is given to hold, in order of name."""
        first = self.held.get(attribute)
        return sorted({first, *self.held_too.get(attribute, ())}) if first else []

    def stated(self, attribute: str) -> list[str]:
        """The types the class states for an attribute: its annotation's, and with it those it is given when the
        annotation says it may be None; else every type it is given."""
        declared, assigned = self.declared.get(attribute), surest(self.attributes.get(attribute, []))
        if declared and attribute in self.slots:
            return [declared, *(t for t in assigned if t != declared)][:MAX_ATTRIBUTE_TYPES]
        return [declared] if declared else assigned


@dataclass(frozen=True)
class Scope:
    caller: str  # local name calls here belong to
    prefix: str  # local name definitions here are qualified by ("" at the top level)
    cls: ClassFacts | None = None  # the class whose methods are defined here, or whose method this is
    receiver: str = ""  # `self` / `cls` in a method
    types: dict[str, str] = field(default_factory=dict)  # variable -> qualified type, in this function
    in_function: bool = False
    names: dict[str, str] = field(default_factory=dict)  # what imports inside this function bind
    nested: set[str] = field(default_factory=set)  # functions this function defines: its own code, no entity
    plain: set[str] = field(default_factory=set)  # ... those no decorator but `functools.wraps` makes another value
    within: set[str] = field(default_factory=set)  # the nested functions whose code is walked here (`scan` in scan)
    own: set[str] = field(default_factory=set)  # every name the function binds itself (`local_names`): no module's
    assigned: dict[str, list[str]] = field(default_factory=dict)  # attribute -> types this function gives it
    held: dict[str, str] = field(default_factory=dict)  # variable -> the class or function it holds (`cls = Foo`)
    # parameter -> the function its default takes off a class (`cache_setitem=Cache.__setitem__`): while it holds
    # that, a call of it runs exactly that function, no override (the class is named, not an instance's)
    fixed: dict[str, str] = field(default_factory=dict)
    # base class -> the methods the classes this function defines on it define themselves (`class Local(Base)`: an
    # instance of Local is typed by Base, and a call of one of these runs Local's own, which is this function's code)
    local_methods: dict[str, set[str]] = field(default_factory=dict)
    local_classes: set[str] = field(default_factory=set)  # the classes this function defines (held: their first base)
    # ... those deriving from a class attribute (`class DefaultCache(self.Cache)`): what calling one calls
    # (`self.Cache`, whatever classes the subclasses give it)
    member_bases: dict[str, Target] = field(default_factory=dict)
    bounded: set[str] = field(default_factory=set)  # ... held classes that may be a subclass (`kind: type[Base]`)
    kept: set[str] = field(default_factory=set)  # the function's parameters its body never binds: what callers gave
    lookups: dict[str, Target] = field(default_factory=dict)  # variable -> the methods a built-name lookup gave it
    elements: dict[str, str] = field(default_factory=dict)  # parameter -> the type of its elements (`list[Foo]`)
    held_elements: dict[str, str] = field(default_factory=dict)  # ... the class they are (`Sequence[type[Foo]]`)
    element_items: dict[str, list[str]] = field(default_factory=dict)  # ... of tuple elements, by place
    element_unions: dict[str, list[str]] = field(default_factory=dict)  # ... the classes each may be (`list[A | B]`)
    items: dict[str, str] = field(default_factory=dict)  # parameter -> what a subscript of it gives (`dict[str, Foo]`)
    keys: dict[str, str] = field(default_factory=dict)  # parameter -> the class of its keys (`dict[Key, int]`)
    alternatives: dict[str, list[str]] = field(default_factory=dict)  # variable -> its types (`A() if c else B()`)
    given_either: set[str] = field(default_factory=set)  # ... those an assignment here gave (not a parameter's union)
    callables: dict[str, list[str]] = field(default_factory=dict)  # parameter -> the functions or classes passed it
    wrapped: dict[str, list[str]] = field(default_factory=dict)  # parameter -> the functions a decorator is applied to
    generators: dict[str, list[str]] = field(default_factory=dict)  # local or parameter -> whose generator it holds
    # parameter nothing here types -> what the indexer reads of the values calls in any file pass it (`f@(p#0)`)
    open_params: dict[str, str] = field(default_factory=dict)
    # ... and each parameter holding a function or class by its default or this file's calls (`key=keys.hashkey`),
    # which a caller in any file may pass another of (`cached(cache, key=keys.typedkey)`): the default and those
    open_held: dict[str, str] = field(default_factory=dict)
    # ... and each parameter this file's calls pass several functions, classes or values (`callables`), as the indexer
    # reads it where the function passes it on (`prepare(args, modfunc)`): every caller's values, in any file
    passed_on: dict[str, str] = field(default_factory=dict)
    # `*args` parameter nothing here types -> what the indexer reads each element holds (`f@(fns#0+)`)
    open_stars: dict[str, str] = field(default_factory=dict)
    picked: dict[str, list[str]] = field(default_factory=dict)  # variable -> the table items it may be (`TABLE[k]`)
    tables: dict[str, dict[str, str]] = field(default_factory=dict)  # dict/list -> key -> the function it holds
    filling: set[str] = field(default_factory=set)  # lists made empty here whose appends say their elements
    # variable -> (where, the class or function) for each value given it to hold, for branches that give different ones
    # variable -> the callee every binding of it calls (`sql = SqlLexer(...)`): of exactly that class, if it is one
    constructed: dict[str, str] = field(default_factory=dict)
    held_at: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    tables_at: dict[str, list[tuple[int, dict[str, str]]]] = field(default_factory=dict)  # ... and tables
