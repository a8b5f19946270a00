"""Names as they may be misspelt: the names an index holds, found again from a spelling with another case, without
underscores, or with a typo (`asTuple`, `instanceof`, `feilds`, `sned`)."""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Iterable

SPELT_LIKE_RATIO = 0.8  # difflib's ratio for a name written with a typo or two (`Atribute`, `add_inti`)
SPELT_LIKE_LENGTH = 2  # ... and at most this many letters longer or shorter
SPELT_LIKE_MOST = 3  # spellings given at most


def spelling_key(name: str) -> str:
    """A name without case or underscores: `asTuple`, `as_tuple` and `astuple` are one spelling."""
    return name.replace("_", "").casefold()


def one_edit(a: str, b: str) -> bool:
    """Whether two different words are one edit apart: a letter changed, added or dropped, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    start = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    if len(a) != len(b):
        return a[start:] == b[start + 1 :] or a[start + 1 :] == b[start:]
    swapped = a[start : start + 2] == b[start : start + 2][::-1] and a[start + 2 :] == b[start + 2 :]
    return swapped or a[start + 1 :] == b[start + 1 :]


class Spellings:
    """Names by their spelling key, and those keys by first letter (where a typo is looked for)."""

    def __init__(self, names: Iterable[str]) -> None:
        by_key: dict[str, list[str]] = defaultdict(list)
        for name in sorted(set(names)):
            by_key[spelling_key(name)].append(name)
        self._by_key = dict(by_key)
        by_letter: dict[str, list[str]] = defaultdict(list)
        for key in self._by_key:
            by_letter[key[:1]].append(key)
        self._by_letter = dict(by_letter)

    def like(self, name: str) -> list[str]:
        """The names `name` may mean: the same letters with other case or underscores, else names of its first
        letter and about its length one edit away, else a typo or two away (difflib ratio SPELT_LIKE_RATIO or more),
        closest first."""
        key = spelling_key(name)
        if key in self._by_key:
            return list(self._by_key[key])
        near = [k for k in self._by_letter.get(key[:1], []) if abs(len(k) - len(key)) <= SPELT_LIKE_LENGTH]
        close = [k for k in near if one_edit(key, k)] or difflib.get_close_matches(
            key, near, n=SPELT_LIKE_MOST, cutoff=SPELT_LIKE_RATIO
        )
        return [spelt for k in close[:SPELT_LIKE_MOST] for spelt in self._by_key[k]]
