"""The call a tool suggests when it cut its answer short: the same call, every argument the caller gave kept."""

from __future__ import annotations

from enum import Enum


def suggest_call(tool: str, **arguments: object) -> str:
    """`tool(a=1, b='x')` from the arguments given, in order, leaving out those that are None (the default); enums
    by value, sequences as lists, so the text pastes back as the call."""
    parts = []
    for name, value in arguments.items():
        if value is None:
            continue
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, (tuple, set, frozenset)):
            value = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        parts.append(f"{name}={value!r}")
    return f"{tool}({', '.join(parts)})"
