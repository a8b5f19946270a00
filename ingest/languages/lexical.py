"""Names declared inside a definition, each seen in its block from where it is declared on: what a name written at
some byte means is the innermost declaration seen there, and within one block the latest. The binders that read a
function's locals by position keep them here (the rules binder's, for every language but Python and
JavaScript/TypeScript), each with what it knows of a declaration (`T`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Declaration(Generic[T]):
    """One declaration of a name: seen in `scope` (its first byte, and the byte after its last) from byte `visible`
    on; `what` the binder knows of it (its stated type, its value)."""

    scope: tuple[int, int]
    visible: int
    what: T


class LexicalNames(Generic[T]):
    """The declarations of one definition's names, by name, in the order they were added."""

    def __init__(self) -> None:
        self._names: dict[str, list[Declaration[T]]] = {}

    def add(self, name: str, scope: tuple[int, int], visible: int, what: T) -> None:
        """`name`, seen in `scope` from byte `visible` on."""
        self._names.setdefault(name, []).append(Declaration(scope, visible, what))

    def find(self, name: str, at: int) -> Declaration[T] | None:
        """The declaration `name` means at byte `at`: of those seen there, the innermost block's, the latest in it
        (of two alike, the one added last); None where no declaration of it is seen."""
        best: Declaration[T] | None = None
        for declared in self._names.get(name, ()):
            start, end = declared.scope
            if not (start <= at < end and declared.visible <= at):
                continue
            if best is None or (start, declared.visible) >= (best.scope[0], best.visible):
                best = declared
        return best

    def __contains__(self, name: object) -> bool:
        return name in self._names
