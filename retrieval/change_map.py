"""Which definitions a change touches: each changed line mapped to the innermost function, method or class of the
indexed file around it, and what the change does to it (its body, its signature, a rename, a removal, an addition)."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from trident.host.git_diff import FileChange, Hunk
from trident.retrieval.call_sites import definition_block
from trident.retrieval.definitions import ChunkReader, definition_spans
from trident.store.catalog import Catalog
from trident.store.manifest import DocumentEntry
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Chunk, Entity

DEFINITIONS = frozenset({"Function", "Method", "Class"})
_DEFINED = re.compile(r"^\s*(?:export\s+)?(?:async\s+)?(?:def|class|function|func|fn)\s+([A-Za-z_]\w*)")


@dataclass
class Touched:
    """An indexed definition a change touches: the changed lines inside it (as the index numbers them) and how."""

    entity: Entity
    lines: list[int] = field(default_factory=list)
    change: str = "body"  # body, signature, renamed, removed, added
    renamed_from: str | None = None
    renamed_to: str | None = None


@dataclass(frozen=True)
class FileMapping:
    """What one changed file's hunks touch, and whether the index holds the file as the change leaves it."""

    touched: list[Touched]
    added: list[str]  # names the change defines that the index does not have yet
    index_is_new_side: bool


def map_file(
    change: FileChange,
    entry: DocumentEntry,
    root: Path,
    directory: EntityDirectory,
    read: ChunkReader,
) -> FileMapping:
    """The definitions `change` touches in the indexed file `entry`. The index holds either the file as the change
    leaves it (then the hunks' new lines are its lines) or as it was (the old ones): told by the file's hash."""
    new_side = change.status != "deleted" and _hash(root / change.path) == entry.content_hash
    spans = definition_lines(entry, directory, read)
    touched: dict[str, Touched] = {}
    added: list[str] = []
    for hunk in change.hunks:
        start, count = (hunk.new_start, hunk.new_count) if new_side else (hunk.old_start, hunk.old_count)
        lines = list(range(start, start + count)) if count else [max(start, 1)]
        for line in lines:
            entity = innermost(spans, line)
            if entity is not None:
                touched.setdefault(entity.id, Touched(entity)).lines.append(line)
        _classify(hunk, touched, added, new_side)
    if change.status == "deleted":
        for item in touched.values():
            item.change = "removed"
    known = {t.entity.name for t in touched.values()}
    return FileMapping(sorted(touched.values(), key=lambda t: t.entity.id), sorted(set(added) - known), new_side)


def _hash(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def definition_lines(
    entry: DocumentEntry, directory: EntityDirectory, read: ChunkReader
) -> list[tuple[int, int, Entity]]:
    """(first line, last line, entity) of each definition of the file, as the index holds it."""
    entities = [e for i in entry.entity_ids if (e := directory.by_id.get(i)) is not None and e.type in DEFINITIONS]
    chunks = read(sorted({e.chunk_id for e in entities if e.chunk_id}))
    pieces = [(chunks[e.chunk_id], entry.chunk_ids) for e in entities if e.chunk_id in chunks]
    lines = definition_spans(pieces, read)
    shared = Counter(e.chunk_id for e in entities)
    spans = []
    for e in entities:
        if e.chunk_id not in lines:
            continue
        start, end = lines[e.chunk_id]
        if shared[e.chunk_id] > 1:  # several definitions in one chunk: each its own lines, where the text shows them
            block = definition_block(chunks[e.chunk_id].text.splitlines(), e.name)
            if block is not None:
                first = chunks[e.chunk_id].start_line
                start, end = first + block[0], min(end, first + block[1] - 1)
        spans.append((start, end, e))
    return spans


def innermost(spans: Sequence[tuple[int, int, Entity]], line: int) -> Entity | None:
    """The definition around `line` that starts last (the most nested), None at module level."""
    around = [(start, -end, e.id, e) for start, end, e in spans if start <= line <= end]
    return max(around, key=lambda a: a[:3])[3] if around else None


def _classify(hunk: Hunk, touched: dict[str, Touched], added: list[str], new_side: bool) -> None:
    """A hunk that rewrites a `def`/`class` line changes a signature, renames or removes; one writing a new
    `def` adds a definition (which the index knows only when it holds the file as the change leaves it)."""
    removed = [m.group(1) for line in hunk.removed if (m := _DEFINED.match(line))]
    written = [m.group(1) for line in hunk.added if (m := _DEFINED.match(line))]
    by_name = {t.entity.name: t for t in touched.values()}
    renamed = len(removed) == 1 and len(written) == 1 and removed[0] != written[0]
    if renamed:
        item = by_name.get(written[0] if new_side else removed[0])
        if item is not None:
            item.change, item.renamed_from, item.renamed_to = "renamed", removed[0], written[0]
        return
    for name in removed:
        if (item := by_name.get(name)) is not None:
            item.change = "signature" if name in written else "removed"
    for name in written:
        if name in removed:
            continue
        if new_side and (item := by_name.get(name)) is not None:
            item.change = "added"
        else:
            added.append(name)


class SiteOwners:
    """The innermost definition around a line of an indexed file (its module when none), per file read once."""

    def __init__(self, catalog: Catalog, directory: EntityDirectory, read: ChunkReader) -> None:
        self._manifest, self._directory, self._read = catalog.manifest, directory, read
        self._files: dict[str, tuple[list[tuple[int, int, Entity]], str]] = {}

    def at(self, chunk: Chunk, line: int) -> str:
        if chunk.doc_id not in self._files:
            entry = self._manifest.documents.get(chunk.doc_id)
            spans = definition_lines(entry, self._directory, self._read) if entry is not None else []
            modules = [i for i in (entry.entity_ids if entry is not None else []) if i.startswith("module:")]
            self._files[chunk.doc_id] = (spans, modules[0] if modules else "")
        spans, module = self._files[chunk.doc_id]
        entity = innermost(spans, line)
        return entity.id if entity is not None else module
