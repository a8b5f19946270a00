"""Reading a relation table's columns: rows of some types, a column as plain strings."""

from __future__ import annotations

from collections.abc import Collection

import pyarrow as pa
import pyarrow.compute as pc


def of_types(table: pa.Table, types: Collection[str]) -> pa.Table:
    """The rows whose `type` is one of `types`."""
    return table.filter(pc.is_in(table["type"].cast(pa.string()), value_set=pa.array(sorted(types), pa.string())))


def strings(table: pa.Table, column: str) -> list[str]:
    """A column as strings, "" for a null (and for every row of a table without the column)."""
    if column not in table.column_names:
        return [""] * table.num_rows
    found: list[str] = pc.fill_null(table[column].cast(pa.string()), "").to_pylist()
    return found
