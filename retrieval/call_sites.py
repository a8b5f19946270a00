"""Where a call is written: the lines of a chunk that call an entity by its name (a constructor by its class's name),
so a path's hop can cite the call itself rather than the whole function around it."""

from __future__ import annotations

import re
from collections.abc import Iterable

from trident.retrieval.definitions import ChunkReader
from trident.store.names.directory import EntityDirectory
from trident.store.schema import CONSTRUCTOR_METHODS, Chunk, Entity


def called_name(callee: Entity) -> str:
    """The name a call of `callee` is written with: a constructor is called by its class's name."""
    if callee.name in CONSTRUCTOR_METHODS and "." in callee.qualified_name:
        return callee.qualified_name.rsplit(".", 2)[-2]
    return callee.name


def call_lines(chunk: Chunk, callee: Entity, caller: Entity | None = None) -> list[int]:
    """The lines of `chunk` (as the file numbers them) that write a call of `callee` (`name(`, `x.name(`, `new Name(`,
    `name::<T>(`), its own `def` left out; inside `caller`'s definition when the chunk shows where it starts. []
    when the call is not written by name (a callback, an implicit dunder)."""
    name = re.escape(called_name(callee))
    written = re.compile(rf"(?<![\w]){name}\s*(?:::<[^>]*>\s*)?\(")
    definition = re.compile(rf"\b(?:def|class|function|func|fn)\s+{name}\b")
    lines = chunk.text.splitlines()
    first, last = (definition_block(lines, caller.name) if caller is not None else None) or (0, len(lines))
    return [
        chunk.start_line + number
        for number in range(first, last)
        if written.search(lines[number]) and not definition.search(lines[number])
    ]


def definition_block(lines: list[str], name: str) -> tuple[int, int] | None:
    """The lines (0-based, end excluded) of the definition of `name` in `lines`: from its `def` line to the next line
    indented no deeper; None when the lines do not show where it starts."""
    opening = re.compile(rf"^(\s*)(?:async\s+)?(?:def|class|function|func|fn)\s+{re.escape(name)}\b")
    for start, line in enumerate(lines):
        found = opening.match(line)
        if found is None:
            continue
        depth = len(found.group(1))
        for end in range(start + 1, len(lines)):
            text = lines[end]
            if text.strip() and len(text) - len(text.lstrip()) <= depth and not text.lstrip().startswith((")", "]")):
                return start, end + (1 if text.strip() in ("}", "};", "end") else 0)
        return start, len(lines)
    return None


def call_sites(
    directory: EntityDirectory, read: ChunkReader, calls: Iterable[tuple[str, str, str]]
) -> dict[tuple[str, str], str]:
    """(evidence chunk, callee, caller) of calls -> {(evidence chunk, callee): the lines writing the call, as
    `project/path:L12,L30`}; a call not written by name has no entry."""
    wanted = set(calls)
    chunks = read(sorted({chunk_id for chunk_id, _, _ in wanted}))
    sites: dict[tuple[str, str], str] = {}
    for chunk_id, callee, caller in sorted(wanted):
        chunk, entity = chunks.get(chunk_id), directory.by_id.get(callee)
        lines = call_lines(chunk, entity, directory.by_id.get(caller)) if chunk and entity else []
        if chunk is not None and lines:
            sites[(chunk_id, callee)] = f"{chunk.project}/{chunk.path}:" + ",".join(f"L{n}" for n in lines)
    return sites
