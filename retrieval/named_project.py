"""A question that names one of the index's projects by a word asks about that project: "How does requests choose
a proxy?", "Where does rich get the terminal width?". Among the ranking's head, the hits of the other projects are
scaled by OTHER_PROJECT_WEIGHT (not dropped: the project's name may be a word of the question that means something
else, "rich text", "HTTP requests"). Nothing changes when the index holds one project, when the question names
none or several, or when the caller scoped the search to projects itself.

Measured on bench/code_search.py (179 questions over four real projects, `--split all`), MRR@10 0.655 -> 0.660
(held out 0.707 -> 0.709); the weight barely matters (0.1: 0.661, 0.3: 0.661, 0.7: 0.660): the hits it moves are the
other projects' few that ranked above the answer.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence

from trident.retrieval.fusion import FusedItem
from trident.store.schema import Chunk

OTHER_PROJECT_WEIGHT = 0.5
_WORD = re.compile(r"[A-Za-z0-9][\w.-]*[A-Za-z0-9]|[A-Za-z0-9]")


def named_project(query: str, projects: Collection[str]) -> str | None:
    """The one project of several that the query writes the name of as a word (any case), else None."""
    if len(projects) < 2:
        return None
    words = {word.casefold() for word in _WORD.findall(query)}
    named = sorted(project for project in projects if project.casefold() in words)
    return named[0] if len(named) == 1 else None


def named_first(items: Sequence[FusedItem], chunks: Mapping[str, Chunk], project: str, depth: int) -> list[FusedItem]:
    """The fused ranking with the other projects' hits among its first `depth` items (their chunks in `chunks`)
    scaled by OTHER_PROJECT_WEIGHT, then in order of score (ties in their fused order); the rest as they were."""
    head = list(items[:depth])

    def scaled(item: FusedItem) -> float:
        chunk = chunks.get(item.id)
        return item.score * OTHER_PROJECT_WEIGHT if chunk is not None and chunk.project != project else item.score

    order = sorted(range(len(head)), key=lambda i: (-scaled(head[i]), i))
    return [head[i]._replace(score=scaled(head[i])) for i in order] + list(items[depth:])
