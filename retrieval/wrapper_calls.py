"""The wrapper a decorator puts around a function runs when the function is called.

`@traced` over `def log_reply` makes the name `log_reply` hold what `traced(log_reply)` returned; where that is a
wrapper calling the function it was given (the decorator's body has a call edge to the function it decorates), a call
of `log_reply` runs the wrapper first: a call of the decorator's code, as sure as the call and the decoration are.
A decorator that hands the function back (a registration, `functools.cache`'s C wrapper, one whose wrapper the binder
cannot follow) adds nothing. Derived when a generation's relations are read, like dispatch (`execution_edges`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.compute as pc

from trident.retrieval.relation_columns import of_types, strings
from trident.store.schema import CLASS_ID_PREFIX, RelationType, Resolution

CALLS, REFERENCES = RelationType.CALLS.value, RelationType.REFERENCES.value  # how a wrapper reaches what it wraps
COLUMNS = ("source", "target", "evidence", "project", "doc_id", "resolution")


def wrapper_calls(table: pa.Table) -> Iterator[tuple[str, str, str, str, str, str, Resolution]]:
    """(caller, CALLS, decorator, evidence, project, doc, resolution) for each bound call of a decorated function
    whose decorator's body calls it; none the stored calls already state."""
    wrappers = _wrappers(table)
    if not wrappers:
        return
    calls = of_types(table, {CALLS})
    targets = calls["target"].cast(pa.string())
    decorators = pa.array(sorted({d for found in wrappers.values() for d, _ in found}), pa.string())
    into = calls.filter(pc.is_in(targets, value_set=decorators))  # stated calls of a decorator: not repeated
    known = set(zip(strings(into, "source"), strings(into, "target"), strict=True))
    decorated = calls.filter(pc.is_in(targets, value_set=pa.array(sorted(wrappers), pa.string())))
    for source, target, evidence, project, doc, resolution in sorted(_rows(decorated)):
        how = _resolution(resolution)
        if how is Resolution.NAME:
            continue
        for decorator, wrapped in wrappers[target]:
            if source != decorator and (source, decorator) not in known:
                known.add((source, decorator))
                yield source, CALLS, decorator, evidence, project, doc, max(how, wrapped, key=lambda r: r.rank)


def _wrappers(table: pa.Table) -> dict[str, list[tuple[str, Resolution]]]:
    """Decorated function -> the decorators whose body calls it, each with the weaker of the two bindings."""
    # a call of what it decorates, or a reference to a function (a class handed on, `_ClassBuilder(cls)`, is kept)
    referenced = [r for r in _rows(of_types(table, {REFERENCES})) if not r[1].startswith(CLASS_ID_PREFIX)]
    runs: dict[tuple[str, str], Resolution] = {}
    for source, target, *_, resolution in [*_rows(of_types(table, {CALLS})), *referenced]:
        how = _resolution(resolution)
        if how is not Resolution.NAME and runs.get((source, target), Resolution.NAME).rank > how.rank:
            runs[(source, target)] = how
    found: dict[str, list[tuple[str, Resolution]]] = defaultdict(list)
    for decorated, decorator, *_, resolution in sorted(_rows(of_types(table, {RelationType.DECORATED_BY.value}))):
        how, run = _resolution(resolution), runs.get((decorator, decorated))
        if how is not Resolution.NAME and run is not None:
            found[decorated].append((decorator, max(how, run, key=lambda r: r.rank)))
    return found


def _rows(table: pa.Table) -> list[tuple[str, ...]]:
    return list(zip(*(strings(table, c) for c in COLUMNS), strict=True))


def _resolution(value: str) -> Resolution:
    return Resolution(value or Resolution.EXACT.value)
