"""A tool call's arguments: checked against the tool's limits on the way in, and carried into the call a tool
suggests when it cut its answer short, every argument the caller gave kept."""

from __future__ import annotations

from enum import Enum

from trident.store.errors import ArgumentError

# Claude Code refuses a tool result above 25,000 tokens and warns above 10,000: a tool's answer stops at this budget
# unless the caller gives another (max_tokens), says so, and names the call for the rest.
RESPONSE_TOKENS = 8_000


def check_range(name: str, value: int, low: int, high: int) -> None:
    """Refuse an argument outside `low..high`, naming it, the value given and the range allowed.

    Raises:
        ArgumentError: `value` is below `low` or above `high`.
    """
    if not low <= value <= high:
        raise ArgumentError(f"{name} must be between {low} and {high}, got {value}")


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
