"""What a name written at some byte means: the innermost declaration seen there, the latest within one block, none
before it is declared or past the end of its block."""

from __future__ import annotations

from trident.ingest.languages.lexical import LexicalNames


def test_the_innermost_block_and_then_the_latest_declaration_answer() -> None:
    names: LexicalNames[str] = LexicalNames()
    names.add("x", (0, 100), 10, "outer")  # a function's block
    names.add("x", (40, 60), 45, "inner")  # a nested block, declared inside it
    names.add("x", (0, 100), 70, "again")  # the function's block, declared again further down
    found = {at: (d.what if (d := names.find("x", at)) is not None else None) for at in (5, 20, 50, 65, 80, 100)}
    assert found == {5: None, 20: "outer", 50: "inner", 65: "outer", 80: "again", 100: None}
    assert "x" in names and "y" not in names and names.find("y", 50) is None


def test_of_two_declarations_alike_the_one_added_last_answers() -> None:
    names: LexicalNames[int] = LexicalNames()
    names.add("err", (0, 50), 10, 1)
    names.add("err", (0, 50), 10, 2)
    found = names.find("err", 20)
    assert found is not None and (found.what, found.scope, found.visible) == (2, (0, 50), 10)
