"""The object a walk back through calls follows: which class the `self` of a reached method must be of.

A call bound to a base method reaches every override of it (`dispatch`), so walked back from one override, every
caller of the base method seems to reach it. But where the dispatch is on the caller's own receiver
(`NodeVisitor.visit` calling `getattr(self, f"visit_{kind}")` and reaching `CodeGenerator.visit_If`), the caller runs
the override only when its own `self` is of the override's class or below it. That is a fact about the caller's
callers: one that called it on a `RootVisitor(...)` it constructed could never have reached `CodeGenerator`'s
method; one that called it on its own receiver passes the same condition on to its own callers. So a walk carries, for
each reached method, the class its `self` must be of (a context), and drops the call into it that the receiver the
call states rules out. A call on a value whose class the binder only infers keeps the walk (and ends the context):
the value may be of a subclass no code states.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from trident.retrieval.relation_index import RelationIndex
from trident.store.schema import (
    GIVEN_RUN,
    NON_VIRTUAL,
    Relation,
    RelationType,
    constructed_class,
    on_own_receiver,
)

NONE = -1  # no context: the method's `self` may be of its class or any class deriving from it
RULED_OUT = -2  # the call cannot have reached the method in this context
ENDED = -3  # the caller runs what it was given: its own callers reach the walk's start only by passing it themselves


@dataclass(frozen=True)
class _Classes:
    """Each method's class, each class's bases and subclasses, and the names each class defines."""

    class_of: dict[int, int]
    bases: dict[int, list[int]]
    derived: dict[int, list[int]]
    names: dict[int, set[str]]

    @classmethod
    def read(cls, index: RelationIndex) -> _Classes:
        ids = index.entity_ids
        class_of: dict[int, int] = {}
        for i in _numbers(index, RelationType.CONTAINS.value):
            owner, member = int(index.source[i]), int(index.target[i])
            if ids[owner].startswith("class:") and ids[member].startswith("method:"):
                class_of.setdefault(member, owner)
        bases: dict[int, list[int]] = {}
        derived: dict[int, list[int]] = {}
        for i in _numbers(index, RelationType.INHERITS.value):
            child, base = int(index.source[i]), int(index.target[i])
            if child != base:
                bases.setdefault(child, []).append(base)
                derived.setdefault(base, []).append(child)
        names: dict[int, set[str]] = {}
        for member, owner in class_of.items():
            names.setdefault(owner, set()).add(ids[member].rpartition(".")[2])
        return cls(class_of, bases, derived, names)


def _numbers(index: RelationIndex, rtype: str) -> list[int]:
    """The numbers of the relations of one type."""
    if rtype not in index.types:
        return []
    return [int(i) for i in (index.type_code == index.types.index(rtype)).nonzero()[0]]


@dataclass
class ReceiverContext:
    """What a walk asks of one generation's classes, read once per relation index (`of`) when first asked: every
    table is complete before it is seen, so walks in several threads may share it. Positions are the relation
    index's entity numbers."""

    index: RelationIndex
    _classes: _Classes | None = None
    _below: dict[int, frozenset[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, index: RelationIndex) -> ReceiverContext:
        """The relation index's own (made on the first walk over it)."""
        found = index.memo.get("receivers")
        if isinstance(found, ReceiverContext):
            return found
        made = cls(index)
        kept = index.memo.setdefault("receivers", made)  # (another thread's, if it made one first)
        return kept if isinstance(kept, ReceiverContext) else made

    def step(self, relation: int, context: int) -> int:
        """The context of the caller of relation number `relation` (a call or reference into a method reached in
        `context`), or RULED_OUT when the receiver it states cannot be of the class the context asks."""
        receiver = self.index.receiver(relation)
        if receiver == GIVEN_RUN:
            return ENDED
        caller, callee = int(self.index.source[relation]), int(self.index.target[relation])
        if on_own_receiver(receiver) or (receiver == NON_VIRTUAL and self._of_a_base(caller, callee)):
            # `self.m()`; `super().m()`, `Base.m(self)`: the method it names, on the caller's own object
            return self._own_receiver(caller, callee, context)
        made = constructed_class(receiver)
        if made and context != NONE:
            position = self.index.position.get(made)
            if position is not None and position not in self.below(context):
                return RULED_OUT
        return NONE

    def runs_as_chain(self, path: Sequence[Relation], step: Relation) -> bool:
        """Whether a chain of calls `path`, then `step`, can run in that order as the receivers it states allow,
        walked forward from the chain's first method (whose `self` is of its class or below): a call on the
        caller's own receiver runs a method only where no class between that receiver's class and the method's
        overrides it (`TimedSerializer.loads_unsafe` -> `Serializer._loads_unsafe_impl` -> `self.loads()` runs
        `TimedSerializer.loads`, never `Serializer.loads`), and an override reached by dispatch only for a receiver
        that may be of its class; a function, class or generator a call runs because it was given it only as the
        chain's first call, or after a caller that passes or makes it (calls or references it itself)."""
        first = self.index.position.get((path[0] if path else step).source)
        context = self.class_of(first) if first is not None else NONE
        chain = (*path, step)
        for at, relation in enumerate(chain):
            given = at and relation.receiver == GIVEN_RUN
            if given and not any(self._gave(r.source, relation.target) for r in chain[:at]):
                return False  # what a call runs that it was given: only after a caller that passed or made it
            context = self._forward(relation, context)
            if context == RULED_OUT:
                return False
        return True

    def _gave(self, caller: str, given: str) -> bool:
        """Whether `caller` calls or references `given` itself: it passes it on (`cached(f, key=typedkey)`, a
        default `key=keys.hashkey`) or made the generator it passes (`take(n, repeat_last(x))`)."""
        kinds = (RelationType.CALLS.value, RelationType.REFERENCES.value)
        relations = self.index.touching(caller, kinds, outgoing=True)
        return self.index.position.get(given, -1) in self.index.target[relations].tolist()

    def _forward(self, relation: Relation, context: int) -> int:
        """The class the callee's `self` is of after `relation` runs from a caller whose `self` is of `context`."""
        callee = self.index.position.get(relation.target)
        owner = self.class_of(callee) if callee is not None else NONE
        if owner == NONE:
            return NONE
        if on_own_receiver(relation.receiver) and context != NONE:
            if self._overridden_below(context, owner, relation.target.rpartition(".")[2]):
                return RULED_OUT
            if owner in self.below(context):
                return owner
            return context if context in self.below(owner) or self.below(owner) & self.below(context) else RULED_OUT
        if relation.receiver == NON_VIRTUAL and context != NONE and context in self.below(owner):
            return context  # `super().m()`, `Base.m(self)`: the method it names, on the same object (`step`)
        made = self.index.position.get(constructed_class(relation.receiver) or "")
        return made if made is not None else owner

    def _overridden_below(self, receiver: int, owner: int, name: str) -> bool:
        """Whether `receiver` or a base of it that derives from `owner` defines `name`: a subclass comes before its
        bases in every method resolution order, so `owner`'s method never runs on such a receiver."""
        below, seen, queue = self.below(owner), {receiver}, [receiver]
        while queue:
            cls = queue.pop()
            if cls != owner and cls in below and name in self._read().names.get(cls, ()):
                return True
            for base in self._read().bases.get(cls, []):
                if base not in seen:
                    seen.add(base)
                    queue.append(base)
        return False

    def _of_a_base(self, caller: int, callee: int) -> bool:
        """Whether the callee is a method of the caller's class or of a base of it."""
        owner, named = self.class_of(caller), self.class_of(callee)
        return owner != NONE and named != NONE and owner in self.below(named)

    def _own_receiver(self, caller: int, callee: int, context: int) -> int:
        """A call on the caller's own receiver: the caller's `self` is the callee's, so it must be of the callee's
        class (an override reached by dispatch: of that class or below) and of the context's."""
        owner = self.class_of(caller)
        if owner == NONE:
            return NONE
        narrowest = owner
        for asked in (self.class_of(callee), context):
            if asked == NONE or narrowest in self.below(asked):
                continue  # nothing asked, or what is asked already holds
            if asked in self.below(narrowest):
                narrowest = asked
            elif not self.below(asked) & self.below(narrowest):
                return RULED_OUT  # no class derives from both: no object is of both
        return NONE if narrowest == owner else narrowest

    def class_of(self, method: int) -> int:
        """The class a method is a member of (NONE for a function, or a method whose class is not indexed)."""
        return self._read().class_of.get(method, NONE)

    def below(self, cls: int) -> frozenset[int]:
        """`cls` and every class deriving from it."""
        if cls not in self._below:
            derived, found, queue = self._read().derived, {cls}, [cls]
            while queue:
                for child in derived.get(queue.pop(), []):
                    if child not in found:
                        found.add(child)
                        queue.append(child)
            self._below[cls] = frozenset(found)
        return self._below[cls]

    def _read(self) -> _Classes:
        if self._classes is None:
            self._classes = _Classes.read(self.index)
        return self._classes
