"""The records every engine stores: documents, chunks, entities and relations, keyed by stable ids."""

from __future__ import annotations

import hashlib
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 3  # 2: relations carry `resolution`; 3: every index has generations (no repair of older ones)
DEFAULT_TENANT = "default"
SHARED_PROJECT = "*"  # the project of a concept several projects name alike (ingest/shared_names.py)


class DocumentKind(StrEnum):
    CODE = "code"
    MARKDOWN = "markdown"
    TEXT = "text"
    CONFIG = "config"
    PASSAGE = "passage"


class EntityType(StrEnum):
    PROJECT = "Project"
    MODULE = "Module"
    CLASS = "Class"
    FUNCTION = "Function"
    METHOD = "Method"
    DOCUMENT = "Document"
    SECTION = "Section"
    CONCEPT = "Concept"
    TAG = "Tag"
    SERVICE = "Service"


class RelationType(StrEnum):
    CONTAINS = "CONTAINS"
    DEFINES = "DEFINES"
    IMPORTS = "IMPORTS"
    CALLS = "CALLS"
    INHERITS = "INHERITS"
    MENTIONS = "MENTIONS"
    LINKS_TO = "LINKS_TO"
    DEPENDS_ON = "DEPENDS_ON"
    TAGGED = "TAGGED"
    RELATED_TO = "RELATED_TO"
    INSTANCE_OF = "INSTANCE_OF"  # a project's entity -> the shared concept of its name, across projects
    OVERRIDES = "OVERRIDES"  # a method -> the base method it overrides (derived in memory, never stored)
    REFERENCES = "REFERENCES"  # code passing a function or method as a value (a callback): control reaches it so
    RETURNS = "RETURNS"  # a function or method -> the class its annotation says it returns (types what calls give)
    YIELDS = "YIELDS"  # a function or method -> the class of each element it returns (`-> Iterator[Foo]`)
    HOLDS = "HOLDS"  # a class -> the class one of its attributes holds (`member`; stored apart, read by writers)
    DECORATED_BY = "DECORATED_BY"  # a function, method or class -> the decorator applied to it by name (`@d`)


class Resolution(StrEnum):
    """How a code relation's target was bound, most certain first: proven by the source's own bindings, resting
    on a type the code states, an override of the bound method that runs when the receiver is of a subclass (or a
    method of the one class an untyped value's uses fit), or a guess from the name alone."""

    EXACT = "exact"
    INFERRED = "inferred"
    DISPATCH = "dispatch"
    NAME = "name"

    @property
    def rank(self) -> int:
        """0 for exact, 1 for inferred, 2 for dispatch, 3 for name: lower is surer."""
        return list(Resolution).index(self)


RESOLUTION_HELP = (
    "Calls and bases: exact (bound by the code), inferred (from a stated type), dispatch (an override of the bound "
    "method, run when the receiver is of a subclass; or a method of the one class an untyped value's uses fit) or "
    "name (a guess); mentions: exact (a name written whole) or "
    "inferred (a title written without its qualifier)"
)
# Relations whose target a parser binds by scope and type, and so carry a meaningful `resolution`.
BOUND_RELATION_TYPES = frozenset(
    {
        RelationType.CALLS.value,
        RelationType.INHERITS.value,
        RelationType.OVERRIDES.value,
        RelationType.DECORATED_BY.value,
    }
)


def stable_hash(*parts: str | int, length: int = 16) -> str:
    """Hex digest of the parts joined by NUL; the same parts always give the same id."""
    joined = "\x00".join(str(part) for part in parts)
    return hashlib.sha1(joined.encode("utf-8")).hexdigest()[:length]


def document_id(project: str, path: str) -> str:
    return f"{project}/{path}"


def chunk_id(project: str, path: str, start_line: int, end_line: int, ordinal: int = 0) -> str:
    return stable_hash(project, path, start_line, end_line, ordinal)


def entity_id(entity_type: str, project: str, qualified_name: str) -> str:
    return f"{entity_type.lower()}:{project}:{qualified_name}"


CLASS_ID_PREFIX = f"{EntityType.CLASS.value.lower()}:"  # what every class's id begins with (`entity_id`)
# Python's methods a call of a class runs: a call of one names exactly the one that runs (`super().__init__(...)`)
CONSTRUCTOR_METHODS = frozenset({"__init__", "__new__", "__post_init__"})


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True)


class Document(_Record):
    id: str
    project: str
    path: str
    kind: DocumentKind
    language: str | None = None
    content_hash: str
    size: int | None = Field(None, description="Bytes of the file read (None: not read from a file)")
    mtime_ns: int | None = Field(None, description="The file's modification time when it was read")
    tenant: str = DEFAULT_TENANT


class Chunk(_Record):
    id: str
    doc_id: str
    project: str
    path: str
    text: str
    start_line: int
    end_line: int
    kind: DocumentKind
    language: str | None = None
    title: str = Field("", description="Section heading path or qualified symbol name")
    symbols: tuple[str, ...] = Field((), description="Names of the symbols this chunk defines")
    tenant: str = DEFAULT_TENANT

    @property
    def citation(self) -> str:
        return f"{self.project}/{self.path}:L{self.start_line}-L{self.end_line}"


def cited_file(citation: str) -> tuple[str, str]:
    """The project and path a `Chunk.citation` names (a project's name holds no "/")."""
    place = citation.rpartition(":L")[0]
    project, _, path = place.partition("/")
    return project, path


class Entity(_Record):
    id: str
    name: str
    type: str
    project: str
    qualified_name: str = ""
    aliases: tuple[str, ...] = ()
    description: str = ""
    chunk_id: str | None = Field(None, description="The chunk that defines this entity")
    doc_id: str | None = Field(None, description="The document that owns this entity; None for shared ones")
    path: str | None = None
    tenant: str = DEFAULT_TENANT


# A call bound to a method through a class (`self.m()` in `C`, `x.m()` with `x: C`) may run an override of the method in
# that class or a class deriving from it, and no other; one naming the method itself (`Base.m(self)`, `super().m()`)
# runs that method only. Two marks say more of the receiver, for a walk that follows one object through the calls on
# it: a call on the caller's own receiver (`self.m()`: `SELF_MARK` before the class) and a receiver made by
# constructing exactly one class (`RootVisitor(...).visit(node)`: `NON_VIRTUAL` before the class).
NON_VIRTUAL = "="
SELF_MARK = "^"
# A call running what its caller was given: a function or class a parameter holds (`key(*args)` with `key` what
# callers pass) or the body of a generator passed to it (`take(n, repeat_last(x))`: `take` runs it as it consumes its
# parameter). The callers of the caller reach it only if they passed or made it, which their own reference or call
# says, so a walk back through calls stops at the caller
GIVEN_RUN = "<"
# A `HOLDS` row's member beginning so is what a document's calls pass a parameter of the row's function (the
# indexer's `PASSES`), not what an attribute of a class holds
PASSED_OPEN = "(>"
RECEIVER_HELP = (
    "CALLS and REFERENCES of a method: which overrides of the target the call may run instead. '' any (the receiver's"
    " class is not known); a class id: those of that class and the classes deriving from it ('^' before it: the call"
    " is on the caller's own receiver, `self.m()`); '=' none ('=' before a class id: the receiver was made by"
    " constructing exactly that class); '<' the call runs a function, class or generator its caller was given."
    " INHERITS: the base's place among the class's bases as written ('0', '1', ...; '' not known)"
)


def dispatch_below(receiver: str) -> str | None:
    """Which overrides a call with this receiver may run: None none, "" any, else a class id (those of that class
    and the classes deriving from it)."""
    if receiver.startswith(NON_VIRTUAL):
        return None
    return "" if receiver == GIVEN_RUN else receiver.removeprefix(SELF_MARK)


def on_own_receiver(receiver: str) -> bool:
    """Whether the call is on the caller's own receiver (`self.m()`): the callee's `self` is the caller's."""
    return receiver.startswith(SELF_MARK)


def constructed_class(receiver: str) -> str:
    """The class the call's receiver was made by constructing, exactly ("" when not known)."""
    return receiver.removeprefix(NON_VIRTUAL) if receiver.startswith(NON_VIRTUAL) else ""


def _overrides_only(receiver: str) -> str:
    """A receiver's code saying only which overrides may run (what the marks say of the receiver dropped)."""
    return NON_VIRTUAL if receiver.startswith(NON_VIRTUAL) else receiver.removeprefix(SELF_MARK)


def widest_receiver(first: str, second: str) -> str:
    """What one relation standing for two calls of the same method may dispatch to: whatever either may. What the
    marks say of one call's receiver stays only where both calls say it."""
    if first == second:
        return first
    if GIVEN_RUN in (first, second):  # a call stated beside it: walked back as every call is
        return second if first == GIVEN_RUN else first
    if second.startswith(NON_VIRTUAL):
        return _overrides_only(first)
    if first.startswith(NON_VIRTUAL):
        return _overrides_only(second)
    first, second = _overrides_only(first), _overrides_only(second)
    return first if first == second else ""


class Relation(_Record):
    source: str
    type: str
    target: str
    weight: float = 1.0
    evidence: str | None = Field(None, description="Id of the chunk that shows this relation")
    project: str
    doc_id: str | None = None
    tenant: str = DEFAULT_TENANT
    resolution: Resolution = Field(Resolution.EXACT, description=RESOLUTION_HELP)
    member: str = Field("", description="HOLDS: the attribute of the source class whose value is of the target")
    receiver: str = Field("", description=RECEIVER_HELP)

    def resolved_at_least(self, least: Resolution) -> bool:
        """Whether a call or base relation is bound at least as surely as `least` (other relations always are)."""
        return self.type not in BOUND_RELATION_TYPES or Resolution(self.resolution).rank <= least.rank

    @property
    def id(self) -> str:
        if self.member:
            return stable_hash(self.source, self.type, self.target, self.evidence or "", self.member)
        return stable_hash(self.source, self.type, self.target, self.evidence or "")
