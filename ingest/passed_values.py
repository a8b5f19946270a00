"""What calls pass a function's untyped parameters, across files: the facts of every caller (`PASSES`, kept as
`HOLDS` rows of the function: `(>0)`, `(>cache)`), and the one class a parameter then holds — the class every value
passed is of, or the nearest base they all share; a value passed on from a caller's own parameter is read through
that parameter's facts, once per chain (a cycle of functions passing a value round gives nothing); and the
functions and classes a parameter holds itself (`key=keys.hashkey`), which a call of it runs."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from trident.ingest.model import (
    CALLED_MARK,
    GENERATED_MARK,
    OWN_CODE_MARK,
    RETURNED_PLACE,
    STARRED_PLACE,
    passed_parts,
    passed_slot,
)
from trident.store.schema import Entity

log = logging.getLogger(__name__)

# (function id, slot) -> (entity id, what the value is beside it) for each value a call passes
Facts = dict[tuple[str, str], list[tuple[str, str]]]
# Parameters one lookup reads through, a value passed on from parameter to parameter: past it the lookup gives
# nothing (a parameter read before, at the top of a lookup of its own, counts as read)
MAX_CHAIN = 16
# Parameters one outermost lookup reads, through every chain from it (overrides fan a value out): past them it gives
# what it has read
MAX_READS = 4096
MAX_STARRED = 32  # the places after a `*args` parameter's own whose values are read as its elements
ValueClasses = Callable[[str, str], list[Entity]]  # (entity id, beside it) -> the class the value is, [] if unknown
Lineage = Callable[[Entity], list[Entity]]  # a class, then its bases, nearest first
# what a value passed is beside its entity: the entity itself, its generator, or code written in it (a lambda)
ITSELF = (CALLED_MARK, GENERATED_MARK, OWN_CODE_MARK)
ValuesItself = Callable[[str, str], frozenset[str]]  # (entity id, beside it) -> the ids it is itself


class PassedValues:
    def __init__(self, overridden: Callable[[str], Sequence[str]] = lambda function: ()) -> None:
        self._overridden = overridden  # a method -> the base methods it overrides, whose calls may run it instead
        self._facts: Facts = {}
        self._reading: set[tuple[str, str, str]] = set()  # parameters being read (a chain passing a value on)
        self._reads = 0  # parameters read since the outermost lookup began
        self._cuts = 0  # lookups cut (a cycle, a bound): what was read under one is kept only at the outermost
        self._read: dict[tuple[str, str, str], str | None] = {}
        self._itself: dict[tuple[str, str, str], frozenset[str]] = {}
        self._repartial: set[str] = set()  # functions that may return a partial of themselves

    def repartial(self, function: str) -> None:
        """`function` may return a partial of itself given keywords only (`REPARTIAL_MARK`): what a call of its result
        passes at a place, it passes its own parameter there."""
        if function not in self._repartial:
            self._repartial.add(function)
            self._read.clear()
            self._itself.clear()

    def add(self, function: str, attribute: str, held: str) -> None:
        """A fact read from a `HOLDS` row of `function` whose attribute is a passed slot (`(>0)@(cache#0)`)."""
        slot, beside = passed_parts(attribute)
        values = self._facts.setdefault((function, slot), [])
        if held and (held, beside) not in values:
            values.append((held, beside))
            self._read.clear()
            self._itself.clear()

    def held(self, function: str, name: str, place: str, values_of: ValueClasses, lineage: Lineage) -> str | None:
        """The id of the one class parameter `name` (filled at `place`, "" for keyword only) of `function` holds as
        its callers pass it; None when no call passes it a value whose class is known, or the classes share no base."""
        key = (function, name, place)
        if key in self._read:
            return self._read[key]
        cuts = self._cuts
        classes = self._classes(key, values_of)
        if classes is None:
            return None
        found = _shared(classes, lineage)
        if not self._reading or self._cuts == cuts:  # (read under a cut, it may lack what the chain's start passes)
            self._read[key] = found
        return found

    def every(self, function: str, name: str, place: str, values_of: ValueClasses) -> list[Entity]:
        """Every class the values callers pass parameter `name` of `function` are of, sorted by id (what `held`
        reads one shared base from): a lookup by a built name on the parameter (`getattr(visitor, "visit" + kind)`)
        runs a method of whichever class was passed, whether or not they share a base."""
        return self._classes((function, name, place), values_of) or []

    def _classes(self, key: tuple[str, str, str], values_of: ValueClasses) -> list[Entity] | None:
        """The classes of the values calls pass a parameter (`key`: function, name, place), by id; None when no call
        passes one or the parameter is being read already (a cycle) or past the chain's bound."""
        function, name, place = key
        values = [(held, beside) for held, beside in self._values(function, name, place) if beside not in ITSELF]
        if not values or not self._enter(key):
            return None
        try:
            classes = {c.id: c for held, beside in values for c in values_of(held, beside)[:1]}
        finally:
            self._reading.discard(key)
        return [classes[i] for i in sorted(classes)]

    def itself(self, function: str, name: str, place: str, mark: str, values_of: ValuesItself) -> frozenset[str]:
        """The ids of the functions and classes parameter `name` of `function` holds itself (`CALLED_MARK`), as its
        callers pass them (`cached(cache, key=keys.typedkey)`, a default, or passed on from a caller's own
        parameter): what a call of the parameter runs; or of the functions whose generators they pass it
        (`GENERATED_MARK`): what consuming it runs. Empty when no call passes one."""
        key = (function, name, f"{place}{mark}")
        if key in self._itself:
            return self._itself[key]
        values = self._values(function, name, place)
        cuts = self._cuts
        if not values or not self._enter(key):
            return frozenset()
        try:
            found = frozenset(i for held, beside in values for i in values_of(held, beside))
        finally:
            self._reading.discard(key)
        if not self._reading or self._cuts == cuts:
            self._itself[key] = found
        return found

    def _values(self, function: str, name: str, place: str) -> list[tuple[str, str]]:
        """What calls pass parameter `name` of `function`, and of each base method it overrides (a call of
        `AbstractItemEncoder.encodeValue` runs `IntegerEncoder.encodeValue` with what it passes), in that order."""
        values = self._passed(function, name, place)
        for overridden in self._overridden(function):  # (not what an override hands its base through `super()`:
            passed = self._passed(overridden, name, place)  # that call runs the base's own, no sibling's)
            values += [v for v in passed if v not in values and _method_name(v[0]) != _method_name(function)]
        return values

    def _passed(self, function: str, name: str, place: str) -> list[tuple[str, str]]:
        """What calls pass parameter `name` of `function`, at its place and by keyword; a `*args` parameter's
        elements (`0+`), at its place and every one after."""
        if place.endswith(STARRED_PLACE) and place[: -len(STARRED_PLACE)].isdigit():
            start = int(place[: -len(STARRED_PLACE)])
            slots = (passed_slot(at) for at in range(start, start + MAX_STARRED))
            return [value for slot in slots for value in self._facts.get((function, slot), [])]
        values = [*self._facts.get((function, passed_slot(place)), [])] if place else []
        if place.startswith(RETURNED_PLACE):  # (a keyword of the outer call fills none of the returned function's)
            return values
        if place and function in self._repartial:  # `@deprecated(version="3.0")` over `def bump`: bump, at 0
            values += self._facts.get((function, passed_slot(f"{RETURNED_PLACE}{place}")), [])
        return values + self._facts.get((function, passed_slot(name)), [])

    def _enter(self, key: tuple[str, str, str]) -> bool:
        """Mark a parameter as being read; False when it is already (a cycle), the chain is at its bound or the
        outermost lookup has read its bound of parameters."""
        if not self._reading:
            self._reads = 0
        if key in self._reading or len(self._reading) >= MAX_CHAIN or self._reads >= MAX_READS:
            if key not in self._reading:
                log.debug("%s: a value passed on through more parameters than are read; not read further", key[0])
            self._cuts += 1
            return False
        self._reads += 1
        self._reading.add(key)
        return True


def _method_name(entity_id: str) -> str:
    """The short name of a function or method by its id (`method:p:mod.Client.__init__`: `__init__`)."""
    return entity_id.rpartition(".")[2]


def _shared(classes: Sequence[Entity], lineage: Lineage) -> str | None:
    """The nearest class of the first's lineage that every other one's lineage holds, None when none does."""
    if not classes:
        return None
    others = [{c.id for c in lineage(cls)} for cls in classes[1:]]
    return next((c.id for c in lineage(classes[0]) if all(c.id in seen for seen in others)), None)
