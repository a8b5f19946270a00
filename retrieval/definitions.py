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
    """The first and last line of the definition `chunk` is a piece of: its neighbours in the document's chunk order
    (`document_chunks`) are read one at a time outwards while they are pieces of the same definition."""
    start, end = chunk.start_line, chunk.end_line
    key = definition_key(chunk)
    if key is None or chunk.id not in document_chunks:
        return start, end
    at = document_chunks.index(chunk.id)
    for step in (-1, 1):
        index = at + step
        while 0 <= index < len(document_chunks):
            neighbour = read([document_chunks[index]]).get(document_chunks[index])
            if neighbour is None or definition_key(neighbour) != key:
                break
            start, end = min(start, neighbour.start_line), max(end, neighbour.end_line)
            index += step
    return start, end
