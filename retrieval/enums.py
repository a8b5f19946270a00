"""Closed sets of names (paths, strategies, fusion methods) read from text: a name outside the set is refused with the
list of the known ones."""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from trident.store.errors import ArgumentError

E = TypeVar("E", bound=StrEnum)


def parse_member(members: type[E], name: str, what: str, error: type[ValueError] = ArgumentError) -> E:
    """The member `name` means.

    Raises:
        ArgumentError: (or `error`) no member has that name; the message names `what` and lists the known ones.
    """
    try:
        return members(name)
    except ValueError:
        raise error(f"unknown {what} '{name}'; known: {', '.join(m.value for m in members)}") from None
