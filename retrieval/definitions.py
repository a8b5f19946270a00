"""A definition too long for one chunk is indexed as several pieces that share its file, title and symbols; a hit or
an entity that cites one piece cites the whole definition instead (a 100-line method is cited as its 100 lines,
not as its first 22)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from trident.store.schema import Chunk

# Reads chunks by id (the rows a reader's views map, or the graph store).
ChunkReader = Callable[[Sequence[str]], dict[str, Chunk]]


def definition_key(chunk: Chunk) -> tuple[str, ...] | None:
    """What the pieces of one definition share (their file, title and the symbols they define); None for a chunk
    that defines nothing, whose neighbours are other text."""
    if not chunk.symbols:
        return None
    return (chunk.project, chunk.path, chunk.title, *chunk.symbols)


def definition_span(chunk: Chunk, document_chunks: Sequence[str], read: ChunkReader) -> tuple[int, int]:
    """The first and last line of the definition `chunk` is a piece of (see `definition_spans`)."""
    return definition_spans([(chunk, document_chunks)], read)[chunk.id]


def definition_spans(pieces: Sequence[tuple[Chunk, Sequence[str]]], read: ChunkReader) -> dict[str, tuple[int, int]]:
    """For each chunk with its document's chunk ids in order, the first and last line of the definition it is a
    piece of. The neighbours are read outwards, one step of every chunk's walk per read (a search's hits: one read
    of their neighbours, most stopping there), while they are pieces of the same definition; a walk ends at the
    document's ends, so every walk is bounded by its document's chunks."""
    spans = {chunk.id: (chunk.start_line, chunk.end_line) for chunk, _ in pieces}
    # (chunk, its document's chunk ids, the index to read next, the step): the walks still going
    walks = [
        (chunk, ids, ids.index(chunk.id) + step, step)
        for chunk, ids in pieces
        if definition_key(chunk) is not None and chunk.id in ids
        for step in (-1, 1)
    ]
    while walks := [w for w in walks if 0 <= w[2] < len(w[1])]:
        found = read(sorted({ids[index] for _, ids, index, _ in walks}))
        going = []
        for chunk, ids, index, step in walks:
            neighbour = found.get(ids[index])
            if neighbour is None or definition_key(neighbour) != definition_key(chunk):
                continue
            start, end = spans[chunk.id]
            spans[chunk.id] = (min(start, neighbour.start_line), max(end, neighbour.end_line))
            going.append((chunk, ids, index + step, step))
        walks = going
    return spans
