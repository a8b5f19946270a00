"""What a parser hands to the indexer: chunks, entities, relations, and references still to resolve."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from trident.store.schema import PASSED_OPEN, Chunk, Entity, Relation, RelationType, Resolution

PREFIX_MARK = "*"  # a MEMBER target's name ending so names every method whose name begins with the rest
# ... and beginning so, every such method whose name is in upper case (`getattr(self, node_class.__name__.upper())`)
UPPER_CASE_MARK = "^"
ELEMENTS_MARK = "[]"  # a function's name ending so names the class of each element the function returns
ATTRIBUTE_MARK = "@"  # `Class@name`: the class the attribute `name` of Class (or of its bases) holds (`HOLDS`)
# A `HOLDS` fact's attribute ending so holds a class or function itself, not a value of it: what calling the
# attribute runs (`code_generator_class = CodeGenerator`, then `env.code_generator_class(...)` constructs one)
CALLED_MARK = "()"
# A value's name ending so is a generator of the function (`mod.repeat_last<next>`): what consuming it runs is the
# function's body; after a parameter (`f@(iterable#1)<next>`), the bodies of the generators callers pass it
GENERATED_MARK = "<next>"
# A value's name ending so is code of the function written in it, not the function (a lambda or a nested `def` passed
# on, `decode(substrate_fun=collect)`): calling it runs that function's code (an edge to the function), but what the
# call passes fills the lambda's parameters, not the function's
OWN_CODE_MARK = "<code>"
# A function's `HOLDS` fact with this attribute says it may return a partial of itself (`return partial(deprecated,
# version=version)` in semver's `deprecated`): what a call of its result is passed, its own parameters are passed
# (`@deprecated(version="3.0")` over `def bump` passes bump to `deprecated`'s first parameter)
REPARTIAL_MARK = "(=partial)"
# A `HOLDS` fact's attribute ending so names a method a standard-library base gives the class, and holds the class's
# own method it runs (`update(lib)` -> `Cache.__setitem__`): what a call of it runs where no class of the project
# defines it (a subclass's override runs first)
LIBRARY_RUNS_MARK = "(lib)"
# A class's `HOLDS` fact with the attribute `name` ending so holds the getter of its property `name` (`@property def
# name`): a read of the attribute in another file, whose binder sees no `@property`, runs it (a call, not a reference)
GETTER_MARK = "(get)"
# A value's name ending so is what a `with` statement over it enters: a function's yielded class when it yields one
# (`@contextmanager def stream() -> Iterator[Response]`), else what it returns, or the class itself
ENTERED_MARK = "<>"
# A module-level name ending so is a table (dict or list literal) of the file's functions or classes, each of which
# answers to it: `SUPPORTED_DECODERS[kind]()` in another file calls any of them
TABLE_MARK = "[*]"
# `Class.method@(p)`: the class a method's parameter p holds, as the method states it or, unannotated there, as the
# nearest base method it overrides does (an override's parameter is what the base's says: `extendMarkdown(self, md)`
# under `Extension.extendMarkdown(self, md: Markdown)`), as pyright reads it
PARAMETER_OPEN, PARAMETER_CLOSE = "(", ")"


POSITION_MARK = "#"  # `f@(cache#0)`: parameter `cache`, the first a call fills after any receiver (`obj.m(x)`: x)
# A place beginning so is a parameter of the function a function returns, filled by a call of what a call of the
# outer function gives: `recurse(*cls)` returns its `wrap(f)`, and `@recurse(Identifier)` over `def group` passes
# `group` to it, as `recurse(Identifier)(group)` does: `mod.recurse@(f#=0)`, passed at the slot `(>=0)`
RETURNED_PLACE = "="
# A place ending so is a `*args` parameter's: what calls pass at that place and every one after it, each an element
# (`add_parse_action(self, *fns)`: `mod.ParserElement.add_parse_action@(fns#0+)`)
STARRED_PLACE = "+"


def parameter_attribute(name: str, position: int | str | None = None) -> str:
    """The `HOLDS` attribute name of a parameter: `(md)`; with the place a call's arguments fill it at (counted after
    the receiver a bound call gives), what a value of it is, read from the values calls of any file pass it:
    `(cache#0)`."""
    placed = "" if position is None else f"{POSITION_MARK}{position}"
    return f"{PARAMETER_OPEN}{name}{placed}{PARAMETER_CLOSE}"


def parameter_parts(attribute: str) -> tuple[str, str]:
    """A parameter's attribute name read back (`parameter_attribute`): `(cache#0)` -> (`cache`, `0`); no place: ""."""
    name, _, place = attribute[1:-1].partition(POSITION_MARK)
    return name, place


# A `HOLDS` fact's attribute beginning with `PASSED_OPEN` is what a call passes a parameter of the fact's function:
# at a place (`(>0)`, after any receiver) or by keyword (`(>cache)`), then what the value is beside the fact's
# entity (`@(cache#0)`: what that function's own parameter holds, passed on; `@attr`: what the attribute holds; none:
# an instance of the class, or what the function returns). The facts of every file are the parameter's values.


def passed_slot(place: int | str) -> str:
    """The attribute a call's argument at a place (`0`) or keyword (`cache`) passes: `(>0)`, `(>cache)`."""
    return f"{PASSED_OPEN}{place}{PARAMETER_CLOSE}"


def passed_parts(attribute: str) -> tuple[str, str]:
    """A passed fact's attribute as (slot, what the value is beside its entity): `(>0)@(cache#0)` -> (`(>0)`,
    `(cache#0)`)."""
    slot, _, rest = attribute.partition(PARAMETER_CLOSE)
    return f"{slot}{PARAMETER_CLOSE}", rest.removeprefix(ATTRIBUTE_MARK)


# A reference's type for a value a call passes the function it calls (`passed`: slot and value), which the indexer
# makes a `HOLDS` fact of the function it binds the call to (never a relation of its own)
PASSES = "PASSES"


# A class's name ending so is it or any class deriving from it: what calling `cls(...)` in a classmethod, a parameter
# annotated `type[Base]` or `type(self)(...)` may construct (the indexer lists the classes deriving from it)
SUBCLASSES_MARK = "<:"
# A class's name ending so (before any `SUBCLASSES_MARK`) is the class of the caller's own receiver, which a call makes
# an instance of: `cls(...)` in a classmethod, `type(self)(...)`, `self.__class__(...)` (the new object is of the
# receiver's class, so its constructors run what that class has, as a call on the receiver itself does)
OWN_CLASS_MARK = "<^"
# ... is the class a parameter holds, as the function's callers gave it (`cls_or_instance()` after `issubclass(
# cls_or_instance, Field)`): which class the call makes is what each caller passes, which its own reference tells
GIVEN_CLASS_MARK = "<("
# A metaclass's name ending so is any class it makes (a class stating it as `metaclass=`, or deriving from one): what
# `type.__call__(cls, ...)` or `super().__call__(...)` in its `__call__` constructs (mako's `_TagMeta` picks the
# subclass of `Tag` a keyword names; the indexer lists the classes)
MADE_BY_MARK = "<made>"
# A module's name ending so is what a `from module import ...` statement runs in it: the import asks the module for
# its `__path__`, which a module (not a package, which has one) defining `__getattr__` (PEP 562) answers by calling it
PATH_ASKED_MARK = "<__path__>"
# A module's attribute starting so holds a module it imports every name of (`from .exceptions import *`, the first
# `<*>0`): a name another module's star import of it asks for may be that module's (`HOLDS` on the module)
IMPORTS_ALL_MARK = "<*>"


def returned_key(kind: str, function: str) -> str:
    """A function's id for what a call of it gives (RETURNS), marked for what each element of that is (YIELDS): the
    keys of the indexer's table of stated return types."""
    return f"{function}{ELEMENTS_MARK}" if kind == RelationType.YIELDS else function


class TargetForm(StrEnum):
    """How a reference names its target."""

    NAME = "name"  # as written (`charge`, `../auth/tokens.md`): matched against names, paths and modules
    QUALIFIED = "qualified"  # a qualified name the source file binds (`billing.gateway.PaymentGateway`)
    MEMBER = "member"  # member `target` of the class named by `owner`, looked up through its bases
    LINKED = "linked"  # a function the linker finds by its bare name (C): the one the project defines at top level


@dataclass(frozen=True)
class Reference:
    """A relation whose target is only known by name until every document's entities are known.

    `target` is the name as written in the source (``PaymentGateway``, ``gateway.charge``,
    ``../auth/tokens.md``), or what `form` says; the indexer resolves it against all entities and drops it if
    none match. `resolution` is how sure the parser is of the binding: `exact` when the source proves it,
    `inferred` when it rests on a stated type, `name` when only the name is known.
    """

    source: str
    type: str
    target: str
    evidence: str
    target_types: tuple[str, ...] = ()
    form: TargetForm = TargetForm.NAME
    resolution: Resolution = Resolution.NAME
    owner: str = ""  # MEMBER: qualified name of the class; HOLDS: the attribute
    after_owner: bool = False  # MEMBER via super(): the owner's bases only
    virtual: bool = True  # False: the method named runs, none of its overrides (`Base.m(self)`)
    passed: tuple[str, ...] = ()  # PASSES: the slot (`(>0)`) and the value's type as the caller's binder reads it
    place: int = -1  # INHERITS: the base's place among the class's bases as written; -1 not known


@dataclass
class Extraction:
    chunks: list[Chunk] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)

    def extend(self, other: Extraction) -> None:
        self.chunks.extend(other.chunks)
        self.entities.extend(other.entities)
        self.relations.extend(other.relations)
        self.references.extend(other.references)
