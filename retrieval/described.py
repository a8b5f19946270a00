"""What a question says beyond the names it writes: the words left once its names are taken out, and the passage
they describe.

A question may name one entity and describe another ("Who was born first, Andy Summers or the Estonian basketball
coach?"). The walk starts from the named one; the described one is only in the words around the names, which the
lexical and dense rankings of the whole question weigh below the names. Ranked on their own, the words left find
the passage they describe, and where the lexical and dense heads of that rest agree on a passage (two sources, as
for a loose name), the walk starts from it as from a named entity (retrieval/seeds.py).

Only a rest that writes a name-like word (capitalised, not opening a sentence: "Estonian", "Lotharingia", "1946
Indian Bollywood") describes an entity. Around its names a question otherwise writes only its relation ("Who is X's
mother-in-law?", "Do both films have directors from the same country?"), whose heads are passages about some
mother-in-law or some director: on the 2Wiki questions, seeding from those cost 0.046 at Recall@2.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from trident.retrieval.title_match import name_like
from trident.store.protocols import ScoredId

_TOKEN = re.compile(r"\w+|[^\w\s]")
# How deep the lexical and dense rankings of the rest are read for a passage both hold. On the 2Wiki questions with
# one name described (bench/perturbed_2wiki.py, `auto` R@2 / R@5): 3 gave 0.472 / 0.638 and left the typo set at
# 0.728 / 0.937; 5 gave 0.470 / 0.643 and the typo set 0.724 / 0.935; 2 gave 0.469 / 0.632.
HEAD = 3


def rest_of(text: str, named_words: Collection[str]) -> str | None:
    """The text without the (case-folded) words of its names, or None when what is left writes no name-like word."""
    if not name_like(text).difference(named_words):
        return None
    return " ".join(token for token in _TOKEN.findall(text) if token.casefold() not in named_words)


def agreed_head(lexical: Sequence[ScoredId], dense: Sequence[ScoredId]) -> str | None:
    """The first passage of the lexical head that the dense head also holds, if any."""
    held = {hit.id for hit in dense}
    return next((hit.id for hit in lexical if hit.id in held), None)
