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

from dataclasses import dataclass, field

from trident.retrieval.relation_index import RelationIndex
from trident.store.schema import RelationType, constructed_class, on_own_receiver

NONE = -1  # no context: the method's `self` may be of its class or any class deriving from it
RULED_OUT = -2  # the call cannot have reached the method in this context


@dataclass
class ReceiverContext:
    """Each method's class and each class's subclasses, as one generation's relations state them, read when first
    asked (positions are the relation index's entity numbers)."""

    index: RelationIndex
    _class_of: dict[int, int] | None = None
    _derived: dict[int, list[int]] | None = None
    _below: dict[int, frozenset[int]] = field(default_factory=dict)

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
        if self._class_of is None:
            self._class_of = {}
            for i in self._relations(RelationType.CONTAINS.value):
                owner, member = int(self.index.source[i]), int(self.index.target[i])
                if self.index.entity_ids[owner].startswith("class:") and self.index.entity_ids[member].startswith(
                    "method:"
                ):
                    self._class_of.setdefault(member, owner)
        return self._class_of.get(method, NONE)

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
