"""What a question says beyond the names it writes: the words left once its names are taken out, and the passage
they describe.

A question may name one entity and describe another ("Who was born first, Andy Summers or the Estonian basketball
coach?"), or describe the one it starts from and name none ("When did the king of Lotharingia's mother die?"). The
walk starts from what is named; the described entity is only in the words around the names, which the lexical and
dense rankings of the whole question weigh below the names. Ranked on their own, the words left find the passage
they describe, and the walk starts from it too (retrieval/seeds.py).

Only a rest that writes a name-like word (capitalised, not opening a sentence: "Estonian", "Lotharingia", "1946
Indian Bollywood") describes an entity. Around its names a question otherwise writes only its relation ("Who is X's
mother-in-law?", "Do both films have directors from the same country?"), whose heads are passages about some
mother-in-law or some director: on the 2Wiki questions, seeding from those cost 0.046 at Recall@2. And the passage
must write every one of those words itself ("the 1931 American pre-Code romantic musical comedy film" is described
by the passage that says so): a lexical head that matched only the rest's common words ("the place of birth of the
director of film ( Flm )", a qualifier written with a typo) describes nothing the question meant.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from trident.retrieval.title_match import name_like, words
from trident.store.protocols import ScoredId
from trident.store.schema import Chunk

_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"\w+")
# How deep the lexical and dense rankings of the rest are read. On the 2Wiki questions with one name described
# (bench/perturbed_2wiki.py, `auto` R@2 / R@5, with the agreement of both heads required): 3 gave 0.472 / 0.638 and
# left the typo set at 0.728 / 0.937; 5 gave 0.470 / 0.643 and the typo set 0.724 / 0.935; 2 gave 0.469 / 0.632.
# With the passage required to write the rest's names and questions naming nothing read, a lexical head of five gave
# `described` 0.546 / 0.710 against 0.546 / 0.708, but `family` 0.677 / 0.854 against 0.677 / 0.856.
HEAD = 3


@dataclass(frozen=True)
class Described:
    """The passage a rest describes, and whether the dense head of the rest holds it too (two sources agree)."""

    chunk_id: str
    agreed: bool


def rest_of(text: str, named_words: Collection[str]) -> str | None:
    """The text without the (case-folded) words of its names, or None when what is left writes no name-like word.
    A text that names nothing is its own rest when it writes a proper word (see `proper_words`)."""
    if not named_words:
        return text if proper_words(text) else None
    if not name_like(text).difference(named_words):
        return None
    return " ".join(token for token in _TOKEN.findall(text) if token.casefold() not in named_words)


def proper_words(text: str) -> set[str]:
    """The name-like words a text writes as proper names: a capital, then lower-case letters only ("Estonian",
    "Lotharingia", "Bollywood"; not "PrP", "B12", "CD4", "miRNA").

    A question that names nothing describes its entity by such words ("the Estonian basketball coach"); the
    acronyms and symbols a claim or a code question writes are the terms it is about, which its own lexical and
    dense rankings already lead with. On SciFact (whose claims name no passage's title), reading any name-like word
    so cost nDCG@10 0.0039 (0.7214 -> 0.7175) and proper words only 0.0020; the 2Wiki sets gained the same either
    way (`bench/perturbed_2wiki.py`)."""
    proper = {word.casefold() for word in _WORD.findall(text) if word.isalpha() and word[1:].islower()}
    return proper.intersection(name_like(text))


def described_passage(
    rest: str,
    lexical: Sequence[ScoredId],
    dense: Callable[[], Sequence[ScoredId]],
    chunks: Mapping[str, Chunk],
    *,
    whole: bool = False,
) -> Described | None:
    """The passage of the rest's lexical head that writes every name-like word of the rest (its title or text): the
    first such one the dense head also holds, else the first such one, unagreed; None when no passage does.

    `dense` gives the rest's dense head when asked: only where a passage of the lexical head writes the words (or
    the rest is the whole text, whose dense head the search has anyway). For a rest beside names it is one more
    query embedding and dense search, about half of a small index's search: a question whose rest describes no
    passage (most of them) no longer pays it.

    With `whole` (the rest is the whole text: it names nothing), where both heads open with the same passage, that
    passage is what the text is about: the described one is it or none. On SciFact, seeding another passage over such
    a first cost nDCG@10 0.0013 (0.7207 -> 0.7194: "Cells lacking clpC ... Bacillus subtilis", whose first passage
    writes "B. subtilis"); the 2Wiki sets did not move."""
    wanted = name_like(rest)
    head: Sequence[ScoredId] | None = None  # the dense head, once asked for
    if whole and lexical:
        head = dense()
        if head and lexical[0].id == head[0].id:
            lexical = lexical[:1]
    writing = [hit.id for hit in lexical if hit.id in chunks and wanted <= _written(chunks[hit.id])]
    if not writing:
        return None
    held = {hit.id for hit in (head if head is not None else dense())}
    agreed = next((chunk_id for chunk_id in writing if chunk_id in held), None)
    if agreed is not None:
        return Described(agreed, agreed=True)
    return Described(writing[0], agreed=False)


def _written(chunk: Chunk) -> set[str]:
    return set(words(chunk.title)).union(words(chunk.text))
