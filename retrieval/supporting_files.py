"""Tests, examples and change logs answer a question about code second, unless the question asks for them; so does
a code chunk that defines nothing (a module's imports and constants).

"Where is the retry delay computed?" is answered by the function that computes it; a test calling it, an example
using it and the change-log line that announced it share its words (and often rank above it: a test names the
function and the behaviour in one short chunk). Their fused scores are scaled by SUPPORTING_WEIGHT before the page
is cut, so the definition leads and they follow, unless the question's words ask for that kind of file ("which
tests cover ...", "an example of ...", "when did ... change"). A code chunk that defines no symbol shares the
words of the module's subject in its imports and names, and seldom answers how something is done: scaled by
PREAMBLE_WEIGHT unless the question asks about imports, constants or defaults.

Measured on bench/code_search.py (179 questions over four real projects, `--split all`), top-5 / MRR@10: neither
0.682 / 0.511; supporting files at 0.5 0.715 / 0.560, at 0.3 0.782 / 0.621; with preambles at 0.6 too 0.816 / 0.637.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from enum import StrEnum

from trident.retrieval.fusion import FusedItem
from trident.store.names.code_paths import is_example_path, is_test_path
from trident.store.schema import Chunk, DocumentKind

# The scale of a supporting file's fused score, and of a code chunk that defines nothing (see the measures above).
SUPPORTING_WEIGHT = 0.3
PREAMBLE_WEIGHT = 0.6


class Supporting(StrEnum):
    TEST = "test"
    EXAMPLE = "example"
    CHANGELOG = "changelog"
    PREAMBLE = "preamble"  # a code chunk that defines nothing


_PROSE_SUFFIXES = frozenset({"", ".md", ".markdown", ".rst", ".txt"})
_CHANGELOG = re.compile(r"^(?:change(?:s|log)|history|news|release[-_ ]?notes)\b", re.I)
_ASKS = {
    Supporting.TEST: re.compile(r"\b(?:tests?|tested|testing|unit ?tests?|pytest|fixtures?|specs?|coverage)\b", re.I),
    Supporting.EXAMPLE: re.compile(r"\b(?:examples?|demos?|samples?|benchmarks?|usage)\b", re.I),
    Supporting.CHANGELOG: re.compile(
        r"\b(?:change ?log|changes|changed|history|release(?:d| notes)?|version|deprecat\w*|added in|since)\b", re.I
    ),
    Supporting.PREAMBLE: re.compile(r"\b(?:imports?|imported|constants?|defaults?|globals?|module[- ]level)\b", re.I),
}
_WEIGHTS = {kind: PREAMBLE_WEIGHT if kind is Supporting.PREAMBLE else SUPPORTING_WEIGHT for kind in Supporting}


def supporting_kind(path: str) -> Supporting | None:
    """What a file supports the code with, by its path: tests, examples (and benchmarks), a change log."""
    if is_test_path(path):
        return Supporting.TEST
    if is_example_path(path):
        return Supporting.EXAMPLE
    stem, suffix = posixpath.splitext(posixpath.basename(path))
    if _CHANGELOG.match(stem) and suffix.lower() in _PROSE_SUFFIXES:
        return Supporting.CHANGELOG
    return None


def chunk_kind(chunk: Chunk) -> Supporting | None:
    """What a chunk is to a question about code: a supporting file's (`supporting_kind`), a preamble (code that
    defines nothing), or neither."""
    kind = supporting_kind(chunk.path)
    if kind is None and chunk.kind is DocumentKind.CODE and not chunk.symbols:
        return Supporting.PREAMBLE
    return kind


def asked_for(query: str) -> frozenset[Supporting]:
    """The kinds of supporting file the query's words ask for."""
    return frozenset(kind for kind, words in _ASKS.items() if words.search(query))


def definitions_first(
    items: Sequence[FusedItem], chunks: Mapping[str, Chunk], query: str, depth: int
) -> list[FusedItem]:
    """The fused ranking with the supporting files and preambles among its first `depth` items (their chunks in
    `chunks`) scaled down (those the query asks for aside), then in order of score (ties in their fused order); the
    items past `depth` follow as they were."""
    wanted = asked_for(query)
    if len(wanted) == len(Supporting):
        return list(items)
    head = list(items[:depth])

    def scaled(item: FusedItem) -> float:
        chunk = chunks.get(item.id)
        kind = chunk_kind(chunk) if chunk is not None else None
        return item.score * _WEIGHTS[kind] if kind is not None and kind not in wanted else item.score

    order = sorted(range(len(head)), key=lambda i: (-scaled(head[i]), i))
    return [head[i]._replace(score=scaled(head[i])) for i in order] + list(items[depth:])
