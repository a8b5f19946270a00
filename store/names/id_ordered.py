"""Lists of records kept in id order under keys (a directory's names, a code index's qualified names), changed without
changing the lists they were copied from: a patched index shares every list it did not change with the one it was
patched from, which readers may still be using."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Protocol


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


def drop(table: dict[Any, list[Any]], key: Any, record_id: str) -> None:
    """The list under `key` without the records of `record_id` (a new list; the key is gone once it is empty)."""
    left = [record for record in table.get(key, ()) if record.id != record_id]
    if left:
        table[key] = left
    else:
        table.pop(key, None)


def insert(table: dict[Any, list[Any]], key: Any, record: _Identified) -> None:
    """The list under `key` with `record` in its id's place, after any with the same id (a new list)."""
    current = table.get(key, [])
    at = bisect_right([other.id for other in current], record.id)
    table[key] = [*current[:at], record, *current[at:]]
