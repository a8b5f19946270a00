"""Names written loosely: the titled entities (documents, concepts, classes, services) whose name a text spells in
part ("De Filippo" for "Eduardo De Filippo", "Lothair" for "Lothair II") or with one typo ("Lotahir").

A name's words weigh by how rare they are among all names, so a match on "Filippo" says more than one on "The"; an
entity is a candidate when the text holds most of its name's weight. Only a word the text writes as a name
(capitalised or camel-cased, not opening a sentence) and rare among names opens a candidacy: "where", "mother" and
"has" in a question are not the titles "Where Was I", "Mother of George" or "Wojciech Has". A word of five letters
or more also matches with one letter dropped, added, changed or two swapped (found through the words' one-deletion
variants, as SymSpell does, not by comparing every pair).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from trident.store.directory import MENTIONABLE_TYPES, MULTIWORD_ONLY_TYPES
from trident.store.schema import Entity

TITLED_TYPES = frozenset(MENTIONABLE_TYPES - MULTIWORD_ONLY_TYPES)
_WORD = re.compile(r"\w+")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+)[^\w]*(\w+)")
MIN_WORD = 3  # shorter words ("de", "ii", "of") count in a name's weight but never match on their own
FUZZY_MIN = 5  # a word this long may carry one typo
FUZZY_SHARE = 0.8  # a word matched with a typo counts this share of its weight
# A word in more names than this opens no candidacy (it still counts toward a candidate another word opened).
MAX_NAMES_PER_WORD = 50
MIN_COVERAGE = 0.5  # the share of a name's weight the text must hold
MAX_MATCHES = 8


@dataclass(frozen=True)
class TitleMatch:
    """An entity the text names loosely, and the share of its name's weight the text holds (1.0: every word)."""

    entity: Entity
    coverage: float


def words(text: str) -> list[str]:
    """The case-folded words of a text."""
    return _WORD.findall(text.casefold())


def name_like(text: str) -> set[str]:
    """The case-folded words a text writes as names: with a capital letter, not all digits, not opening a sentence."""
    starts = {m.start(1) for m in _SENTENCE_START.finditer(text)}
    return {
        m.group().casefold()
        for m in _WORD.finditer(text)
        if m.start() not in starts and not m.group().islower() and not m.group().isdigit()
    }


def _deletions(word: str) -> Iterator[str]:
    for i in range(len(word)):
        yield word[:i] + word[i + 1 :]


class TitleIndex:
    """The titled entities of one index generation by the words of their names."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        self._names: dict[str, tuple[Entity, tuple[str, ...]]] = {}
        postings: dict[str, list[str]] = defaultdict(list)
        for entity in sorted(entities, key=lambda e: e.id):
            if entity.type not in TITLED_TYPES:
                continue
            name_words = tuple(dict.fromkeys(words(entity.name)))
            if not name_words:
                continue
            self._names[entity.id] = (entity, name_words)
            for word in name_words:
                postings[word].append(entity.id)
        total = len(self._names) or 1
        self._weight = {word: math.log(1.0 + total / len(ids)) for word, ids in postings.items()}
        self._postings = {word: ids for word, ids in postings.items() if len(ids) <= MAX_NAMES_PER_WORD}
        self._variants: dict[str, list[str]] = defaultdict(list)  # a one-deletion variant -> the words it comes from
        for word in self._postings:
            if len(word) >= FUZZY_MIN:
                for variant in {word, *_deletions(word)}:
                    self._variants[variant].append(word)

    def __len__(self) -> int:
        return len(self._names)

    def _near(self, word: str) -> dict[str, float]:
        """Name words the text's word may stand for, each with the share of its weight a match earns."""
        found: dict[str, float] = {word: 1.0} if word in self._postings else {}
        if len(word) >= FUZZY_MIN:
            for variant in {word, *_deletions(word)}:
                for known in self._variants.get(variant, ()):
                    found.setdefault(known, FUZZY_SHARE)
        return found

    def matches(self, text: str, named: Iterable[Entity] = ()) -> list[TitleMatch]:
        """Entities whose name the text holds at least MIN_COVERAGE of, best first (ties by id), at most
        MAX_MATCHES. The entities `named` exactly elsewhere, and the words of their names, are left out: a text
        that names "Eduardo De Filippo" does not also name every other De Filippo loosely."""
        named = list(named)
        covered = {w for e in named for w in words(e.name)}
        names = name_like(text)
        held: dict[str, float] = {}  # name word -> share of its weight the text earns
        opening: set[str] = set()  # name words reached from a word the text writes as a name
        for word in dict.fromkeys(words(text)):
            if word in covered:
                continue
            if len(word) < MIN_WORD:
                held.setdefault(word, 1.0)  # counts toward a name another word matched, opens nothing
                continue
            for known, share in self._near(word).items():
                held[known] = max(held.get(known, 0.0), share)
                if word in names:
                    opening.add(known)
        candidates = sorted({i for word in opening for i in self._postings.get(word, ())} - {e.id for e in named})
        scored: list[TitleMatch] = []
        for entity_id in candidates:
            entity, name_words = self._names[entity_id]
            total = sum(self._weight[w] for w in name_words)
            coverage = sum(self._weight[w] * held.get(w, 0.0) for w in name_words) / total
            if coverage >= MIN_COVERAGE:
                scored.append(TitleMatch(entity, round(coverage, 6)))
        scored.sort(key=lambda m: (-m.coverage, m.entity.id))
        return scored[:MAX_MATCHES]
