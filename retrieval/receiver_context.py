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
from trident.store.schema import Relation, RelationType, constructed_class, on_own_receiver

NONE = -1  # no context: the method's `self` may be of its class or any class deriving from it
RULED_OUT = -2  # the call cannot have reached the method in this context


@dataclass
class ReceiverContext:
    """Each method's class and each class's subclasses, as one generation's relations state them, read when first
    asked (positions are the relation index's entity numbers)."""

    index: RelationIndex
    _class_of: dict[int, int] | None = None
    _derived: dict[int, list[int]] | None = None
    _bases: dict[int, list[int]] | None = None
    _below: dict[int, frozenset[int]] = field(default_factory=dict)
    _defines: dict[int, set[str]] | None = None

    def step(self, relation: int, context: int) -> int:
        """The context of the caller of relation number `relation` (a call or reference into a method reached in
        `context`), or RULED_OUT when the receiver it states cannot be of the class the context asks."""
        receiver = self.index.receiver(relation)
        if on_own_receiver(receiver):
            caller, callee = int(self.index.source[relation]), int(self.index.target[relation])
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
        that may be of its class."""
        first = self.index.position.get((path[0] if path else step).source)
        context = self.class_of(first) if first is not None else NONE
        for relation in (*path, step):
            context = self._forward(relation, context)
            if context == RULED_OUT:
                return False
        return True

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
        made = self.index.position.get(constructed_class(relation.receiver) or "")
        return made if made is not None else owner

    def _overridden_below(self, receiver: int, owner: int, name: str) -> bool:
        """Whether `receiver` or a base of it that derives from `owner` defines `name`: a subclass comes before its
        bases in every method resolution order, so `owner`'s method never runs on such a receiver."""
        below, seen, queue = self.below(owner), {receiver}, [receiver]
        while queue:
            cls = queue.pop()
            if cls != owner and cls in below and name in self._names(cls):
                return True
            for base in self._base_classes(cls):
                if base not in seen:
                    seen.add(base)
                    queue.append(base)
        return False

    def _names(self, cls: int) -> set[str]:
        if self._defines is None:
            self._defines = {}
            for member, owner in self._method_classes().items():
                self._defines.setdefault(owner, set()).add(self.index.entity_ids[member].rpartition(".")[2])
        return self._defines.get(cls, set())

    def _base_classes(self, cls: int) -> list[int]:
        if self._bases is None:
            self._bases = {}
            for i in self._relations(RelationType.INHERITS.value):
                child, base = int(self.index.source[i]), int(self.index.target[i])
                if child != base:
                    self._bases.setdefault(child, []).append(base)
        return self._bases.get(cls, [])

    def _own_receiver(self, caller: int, callee: int, context: int) -> int:
        """A call on the caller's own receiver: the caller's `self` is the callee's, so it must be of the callee's
        class (an override reached by dispatch: of that class or below) and of the context's."""
        owner = self.class_of(caller)
        if owner == NONE:
            return NONE
        narrowest = owner
        for asked in (self.class_of(callee), context):
            if asked == NONE or asked in self.below(narrowest):
                narrowest = asked if asked != NONE else narrowest
            elif narrowest not in self.below(asked) and not self.below(asked) & self.below(narrowest):
                return RULED_OUT  # no class derives from both: no object is of both
        return NONE if narrowest == owner else narrowest

    def class_of(self, method: int) -> int:
        """The class a method is a member of (NONE for a function, or a method whose class is not indexed)."""
        return self._method_classes().get(method, NONE)

    def _method_classes(self) -> dict[int, int]:
        if self._class_of is None:
            self._class_of = {}
            ids = self.index.entity_ids
            for i in self._relations(RelationType.CONTAINS.value):
                owner, member = int(self.index.source[i]), int(self.index.target[i])
                if ids[owner].startswith("class:") and ids[member].startswith("method:"):
                    self._class_of.setdefault(member, owner)
        return self._class_of

    def below(self, cls: int) -> frozenset[int]:
        """`cls` and every class deriving from it."""
        if self._derived is None:
            self._derived = {}
            for i in self._relations(RelationType.INHERITS.value):
                child, base = int(self.index.source[i]), int(self.index.target[i])
                if child != base:
                    self._derived.setdefault(base, []).append(child)
        if cls not in self._below:
            found, queue = {cls}, [cls]
            while queue:
                for child in self._derived.get(queue.pop(), []):
                    if child not in found:
                        found.add(child)
                        queue.append(child)
            self._below[cls] = frozenset(found)
        return self._below[cls]

    def _relations(self, rtype: str) -> list[int]:
        if rtype not in self.index.types:
            return []
        code = self.index.types.index(rtype)
        return [int(i) for i in (self.index.type_code == code).nonzero()[0]]
