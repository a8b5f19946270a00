"""The entities a dotted name means, written the way people write it: the import name (`httpx.Client.send`, without
a `src/` or `lib/` folder), a re-export (`click.Command` for `click.core.Command`), a tail (`Client.send`,
`_client.Client`) or the qualified name the index keeps.

A written name matches an entity's name when its last part is that name; the parts before it are then checked
against each name the entity is known by (its qualified name and its import names), in tiers: the whole name, a
tail of it, then its parts in order from the same first part (the package a re-export is imported from), then in
order anywhere. The best tier that holds a match is the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import NamedTuple

from trident.store.names.code_paths import is_test_path, module_name
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Entity

_SEPARATORS = re.compile(r"::|#|/|\\")  # Rust paths, Java's `Class#method`, a path written with slashes


class Match(IntEnum):
    """How closely a written name matches one name of an entity, best first."""

    WHOLE = 0  # every part, in order: `httpx._client.Client.send`
    TAIL = 1  # the last parts: `Client.send`, `_client.Client.send`
    PACKAGE = 2  # its first and last parts, and the others in order: `httpx.Client.send`
    PARTS = 3  # the last part, and the others in order: `_client.send`


def written_parts(text: str) -> list[str]:
    """The parts of a dotted name as written: `httpx.Client.send()` -> [httpx, Client, send]; `a::b` and `A#m`
    read as dots; a trailing call's parentheses dropped."""
    text = text.strip().strip("`").removesuffix("()")
    return [part for part in _SEPARATORS.sub(".", text).split(".") if part]


class Written(NamedTuple):
    """One entity a written name matches: how, and what the written name leaves out of the entity's name."""

    entity: Entity
    tier: Match
    private: int  # module parts left out that are private (`_termui_impl`): a public re-export seldom skips them
    skipped: int  # parts left out in all

    def rank(self) -> tuple[int, int, int, int, str]:
        """Best first: the closer match, then the fewer private and other parts left out, then the shorter name."""
        return (self.tier, self.private, self.skipped, len(self.entity.qualified_name), self.entity.id)


def match(parts: Sequence[str], name: Sequence[str], local: int = 1) -> Match | None:
    """How the written `parts` match one dotted `name` of an entity (both split), whose last `local` parts are its
    name inside its module (`Client.send`); None when they do not match. A name that leaves parts out may leave
    out module parts only (a re-export), never a part of the local name."""
    if not parts or not name or parts[-1] != name[-1]:
        return None
    if list(parts) == list(name):
        return Match.WHOLE
    if len(parts) < len(name) and list(parts) == list(name[-len(parts) :]):
        return Match.TAIL
    local = min(max(local, 1), len(name))
    if len(parts) <= local or list(parts[-local:]) != list(name[-local:]):
        return None
    if not _in_order(parts[:-local], name[:-local]):
        return None
    return Match.PACKAGE if parts[0] == name[0] else Match.PARTS


def _in_order(parts: Sequence[str], name: Sequence[str]) -> bool:
    remaining = iter(name)
    return all(any(part == seen for seen in remaining) for part in parts)


class WrittenNames:
    """Entities by the dotted names people write for them, over one directory (its modules say which folders are
    Python packages, and so what a file is imported as)."""

    def __init__(self, directory: EntityDirectory) -> None:
        self.directory = directory
        self.imports = directory.import_names()

    def names_of(self, entity: Entity) -> list[str]:
        """Every dotted name the entity is known by: its qualified name, then its import names."""
        return [entity.qualified_name, *self.imports.of(entity)]

    def best(self, text: str, projects: Iterable[str] | None = None) -> list[Written]:
        """The entities the dotted `text` matches at the best tier it reaches, best first (none when it matches
        nothing). The parts are compared as written, then, when that matches nothing, ignoring case."""
        parts = written_parts(text)
        if len(parts) < 2:
            return []
        allowed = set(projects) if projects is not None else None
        entities = [e for e in self.directory.named(parts[-1]) if allowed is None or e.project in allowed]
        for fold in (False, True):
            found = [w for e in entities if (w := self._written(parts, e, fold)) is not None]
            if found:
                tier = min(w.tier for w in found)
                return sorted((w for w in found if w.tier == tier), key=Written.rank)
        return []

    def _written(self, parts: Sequence[str], entity: Entity, fold: bool) -> Written | None:
        """How `parts` match the entity at best over its names (None when they match none)."""
        local = len(entity.qualified_name.split(".")) - len(module_name(entity.path or "").split("."))
        written = [p.casefold() for p in parts] if fold else list(parts)
        found = []
        for name in self.names_of(entity):
            split = (name.casefold() if fold else name).split(".")
            tier = match(written, split, local)
            if tier is not None:
                left_out = [n for n in split[: len(split) - max(local, 1)] if n not in written]
                found.append(Written(entity, tier, sum(n.startswith("_") for n in left_out), len(left_out)))
        return min(found, key=Written.rank, default=None)

    def closest(self, text: str, limit: int) -> list[Entity]:
        """Entities named as `text`'s last part (ignoring case), best first: those whose names hold more of its
        other parts, then those outside test code: what to suggest when the written name matches nothing whole."""
        parts = written_parts(text)
        if not parts:
            return []
        wanted = {p.casefold() for p in parts[:-1]}
        scored = []
        for entity in self.directory.named(parts[-1]):
            held = max(len(wanted & {n.casefold() for n in name.split(".")}) for name in self.names_of(entity))
            test = is_test_path(entity.path or "")
            scored.append((-held, test, len(entity.qualified_name), entity.id, entity))
        return [entity for *_, entity in sorted(scored)[:limit]]

    def import_name(self, entity: Entity) -> str:
        """The name code imports the entity by (its qualified name when it has no other)."""
        return self.names_of(entity)[-1]
