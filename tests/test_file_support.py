"""A file several head chunks come from lifts its definitions: a definition matched a little less than another
file's overtakes it when its file's other pieces match too; a chunk that defines nothing is not lifted."""

from __future__ import annotations

from trident.retrieval.file_support import FILE_HEAD, lifted_by_file
from trident.retrieval.fusion import FusedItem
from trident.store.schema import Chunk, DocumentKind


def _chunk(chunk_id: str, path: str, symbols: tuple[str, ...]) -> Chunk:
    return Chunk(
        id=chunk_id,
        doc_id=path,
        project="p",
        path=path,
        text=chunk_id,
        start_line=1,
        end_line=2,
        kind=DocumentKind.CODE,
        symbols=symbols,
    )


CHUNKS = {
    "lone": _chunk("lone", "src/other.py", ("guess",)),  # one strong chunk alone in its file
    "answer": _chunk("answer", "src/color.py", ("detect",)),  # a little weaker, in a file that matches throughout
    "helper": _chunk("helper", "src/color.py", ("parse",)),
    "imports": _chunk("imports", "src/color.py", ()),  # defines nothing: lifts its file, is not lifted
}


def test_a_definition_in_a_file_the_head_keeps_coming_back_to_overtakes_a_lone_one() -> None:
    ranking = [FusedItem("lone", 1.0), FusedItem("answer", 0.95), FusedItem("helper", 0.6), FusedItem("imports", 0.5)]
    lifted = lifted_by_file(ranking, CHUNKS)
    assert [item.id for item in lifted] == ["answer", "lone", "helper", "imports"]
    assert lifted[0].score > 0.95 and lifted[-1].score == 0.5


def test_items_past_the_head_keep_their_place() -> None:
    ranking = [FusedItem(f"x{i}", 1.0 - i / 100) for i in range(FILE_HEAD)] + [FusedItem("answer", 0.1)]
    assert lifted_by_file(ranking, CHUNKS)[-1] == FusedItem("answer", 0.1)
