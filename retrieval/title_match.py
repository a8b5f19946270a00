"""Names written loosely: the titled entities (documents, concepts, classes, services) whose name a text spells in
part ("De Filippo" for "Eduardo De Filippo", "Lothair" for "Lothair II") or with one typo ("Lotahir").

A name's words weigh by how rare they are among all names, so a match on "Filippo" says more than one on "The"; an
entity is a candidate when the text holds most of its name's weight. Only a word the text writes as a name
(capitalised or camel-cased, not opening a sentence) and rare among names opens a candidacy: "where", "mother" and
"has" in a question are not the titles "Where Was I", "Mother of George" or "Wojciech Has". A word of five letters
or more also matches with one letter dropped, added, changed or two swapped (found through the words' one-deletion
variants, as SymSpell does, not by comparing every pair); a word of four letters only where the typo makes it a
letter short of a longer name word ("Zhng") or one over a four-letter one ("Cooup"). A title of two words or more
written whole and in a row with one typo ("The Retuurn Of Swamp Thing", also "Bcak In The U.S.A.") is named as
surely as one written exactly (`written_with_a_typo`), and a name written inside it ("Swamp Thing") is not.

People write a title without what only tells it apart from others: "Illusions" for "Illusions (1982 film)",
"John Ernest" for "John Ernest, Duke of Saxe-Eisenach". A name's core (before a trailing parenthesis, or a comma
and a capitalised word: `title_core` in store/names/identifiers.py) is matched too, at a little less than the whole
name, when the text holds all of it and it is distinctive: two words or more, or one word in at most a few names
("Peter" alone does not name "Peter, Count of Dreux"). And a person is often named by the last word of the name alone
("Rymer" for "Pamela Ann Rymer"): a word in at most a few names, the last of each and each shaped like a person's
name, opens them however little of the whole name it is.
Such looser matches seed a walk only where the lexical or dense path also ranks the title's passage ("Empire" alone
is not "Empire (2002 film)" in "the Ottoman Empire", nor "French" "James Strange French" in "the French
physician"). Several titles may share a core ("Dark River (1990 film)", "Dark River (2017 film)"): the walk tells
them apart by the passages the other paths rank (retrieval/seeds.py).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from trident.store.names.identifiers import title_core as core
from trident.store.names.mention_forms import MENTIONABLE_TYPES, MULTIWORD_ONLY_TYPES
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
CORE_SHARE = 0.9  # a name's core held whole counts this much (the whole name held counts 1.0)
LAST_WORD_MIN = 4  # a last word this long may name its title alone ...
DISTINCTIVE_NAMES = 3  # ... when it is in at most this many names (so is a one-word core)
LAST_WORD_SHARE = MIN_COVERAGE  # the coverage such a match counts
MAX_MATCHES = 16


@dataclass(frozen=True)
class TitleMatch:
    """An entity the text names loosely, the share of its name's weight the text holds (1.0: every word), and
    which of the text's names it may be: matches sharing a word the text writes as a name share a `mention` ("Van
    Severen" for Henri, Joris and Maarten Van Severen; "Lauri" for Guido Lauri alone)."""

    entity: Entity
    coverage: float
    mention: str = ""
    partial: bool = False  # held only through the name's core or its last word: seeds only where a path backs it


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


@dataclass(frozen=True)
class _Name:
    entity: Entity
    words: tuple[str, ...]  # the whole name's words
    core: tuple[str, ...]  # its core's words (the whole name's when it has no qualifier)


def _personal(name: str) -> bool:
    """Whether a name has a person's shape: two to four words, each capitalised ("Pamela Ann Rymer", not
    "Princess Elene of Georgia" or "Isle of Man Film")."""
    parts = name.split()
    return 2 <= len(parts) <= 4 and all(part[:1].isupper() for part in parts)


def _deletions(word: str) -> Iterator[str]:
    for i in range(len(word)):
        yield word[:i] + word[i + 1 :]


def _one_typo(written: str, word: str) -> bool:
    """Whether `written` is `word` with one letter dropped, added, changed or two swapped (one of them five letters
    or more, neither under four), or, in a word of four letters, two letters swapped."""
    if written == word or min(len(written), len(word)) < FUZZY_MIN - 1:
        return False
    if max(len(written), len(word)) < FUZZY_MIN:
        return len(written) == len(word) and any(_swap(written, i) == word for i in range(len(word) - 1))
    return not {written, *_deletions(written)}.isdisjoint({word, *_deletions(word)})


def _span(name: tuple[str, ...], text: list[str], typos: int) -> tuple[int, int] | None:
    """Where the text's words hold the name's words in a row, with exactly `typos` of them (0 or 1) written with a
    typo and the others as they are."""
    for start in range(len(text) - len(name) + 1):
        window = text[start : start + len(name)]
        wrong = [written != word for written, word in zip(window, name, strict=True)]
        if sum(wrong) == typos and all(
            not typo or _one_typo(written, word) for typo, written, word in zip(wrong, window, name, strict=True)
        ):
            return start, start + len(name)
    return None


def _within(inner: tuple[int, int], outer: tuple[int, int]) -> bool:
    """Whether a span lies inside another, shorter than it."""
    return outer[0] <= inner[0] and inner[1] <= outer[1] and inner != outer


def _clear(span: tuple[int, int], taken: tuple[int, int]) -> bool:
    """Whether a span may be taken beside one already taken: apart from it, or around it."""
    return span[1] <= taken[0] or span[0] >= taken[1] or _within(taken, span)


def _swap(word: str, at: int) -> str:
    """The word with its letters at `at` and `at + 1` swapped."""
    return word[:at] + word[at + 1] + word[at] + word[at + 2 :]


def _written_spans(entity: Entity, text: list[str]) -> list[tuple[int, int]]:
    """Where the text writes the entity's whole name or its core, exactly."""
    forms = {tuple(words(entity.name)), tuple(words(core(entity.name)))}
    return [span for form in forms if form and (span := _span(form, text, 0)) is not None]


class TitleIndex:
    """The titled entities of one index generation by the words of their names."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        self._names: dict[str, _Name] = {}
        postings: dict[str, list[str]] = defaultdict(list)
        last_words: dict[str, list[str]] = defaultdict(list)
        for entity in sorted(entities, key=lambda e: e.id):
            if entity.type not in TITLED_TYPES:
                continue
            name_words = tuple(dict.fromkeys(words(entity.name)))
            if not name_words:
                continue
            short = core(entity.name)
            core_words = tuple(dict.fromkeys(words(short))) or name_words
            self._names[entity.id] = _Name(entity, name_words, core_words)
            for word in name_words:
                postings[word].append(entity.id)
            if _personal(short) and len(core_words[-1]) >= LAST_WORD_MIN:
                last_words[core_words[-1]].append(entity.id)
        total = len(self._names) or 1
        self._weight = {word: math.log(1.0 + total / len(ids)) for word, ids in postings.items()}
        self._postings = {word: ids for word, ids in postings.items() if len(ids) <= MAX_NAMES_PER_WORD}
        # Distinct names, not entities: the paragraphs sharing one title are one name.
        titles = {word: len({self._names[i].entity.name.casefold() for i in ids}) for word, ids in postings.items()}
        self._distinctive = {word for word, count in titles.items() if count <= DISTINCTIVE_NAMES}
        self._last = {word: ids for word, ids in last_words.items() if word in self._distinctive}
        self._variants: dict[str, list[str]] = defaultdict(list)  # a one-deletion variant -> the words it comes from
        for word in self._postings:
            if len(word) >= FUZZY_MIN:
                for variant in {word, *_deletions(word)}:
                    self._variants[variant].append(word)
            elif len(word) == FUZZY_MIN - 1:
                self._variants[word].append(word)  # written with a letter added ("Cooup" for "Coup")

    def __len__(self) -> int:
        return len(self._names)

    def written_words(self, text: str, names: Iterable[str]) -> set[str]:
        """The text's (case-folded) words that write a word of one of the names: the same word, or it with a typo."""
        known = {word for name in names for word in words(name)}
        return {word for word in words(text) if word in known or not known.isdisjoint(self._near(word))}

    def written_with_a_typo(self, text: str, named: Iterable[Entity] = ()) -> tuple[list[Entity], set[str]]:
        """The titles the text writes whole and in a row with one typo in one word ("The Retuurn Of Swamp Thing",
        "Benjamin Pierce Chneey Jr."), the longest where they overlap, as exact names are taken: a question names them
        as surely as it names a title written exactly. And the ids of the exactly `named` entities written inside
        one of them ("Swamp Thing"), which the text does not name; where an exact name is written over as many words,
        it stands and the title with a typo does not. Titles of one word are left to the loose matches (a typo in one
        word makes another word as often as it misspells a name)."""
        text_words = words(text)
        exact = {entity.id: _written_spans(entity, text_words) for entity in named}
        blocked = [span for written in exact.values() for span in written]
        found: list[Entity] = []
        typo_spans: list[tuple[int, int]] = []
        for begin, end, entity_id in self._typo_spans(text_words):
            title = self._names[entity_id].entity
            if any(t.name == title.name for t in found) or all(_clear((begin, end), b) for b in blocked):
                blocked.append((begin, end))  # titles of one name (passages sharing it) are all taken
                typo_spans.append((begin, end))
                found.append(title)
        inside = {
            entity_id
            for entity_id, written in exact.items()
            if written and all(any(_within(w, span) for span in typo_spans) for w in written)
        }
        return found, inside

    def _typo_spans(self, text_words: list[str]) -> list[tuple[int, int, str]]:
        """Where the text writes a title of two words or more with one typo (start, end, entity id), longest first:
        the titles holding a name word one of the text's words is a typo of."""
        written = set(text_words)
        candidates: set[str] = set()
        for word in written:  # a title holds a word of the text, as it is or with the typo
            for known in self._near(word):
                candidates.update(self._postings.get(known, ()))
        spans: list[tuple[int, int, str]] = []
        for entity_id in sorted(candidates):
            if sum(word not in written for word in self._names[entity_id].words) > 1:
                continue  # two of its words are not written as they are
            name = tuple(words(self._names[entity_id].entity.name))  # in order, repeats kept
            span = _span(name, text_words, 1) if len(name) > 1 else None
            if span is not None:
                spans.append((*span, entity_id))
        return sorted(spans, key=lambda s: (s[0] - s[1], s[0], s[2]))

    def _near(self, word: str) -> dict[str, float]:
        """Name words the text's word may stand for, each with the share of its weight a match earns."""
        found: dict[str, float] = {word: 1.0} if word in self._postings else {}
        if len(word) >= FUZZY_MIN:
            for variant in {word, *_deletions(word)}:
                for known in self._variants.get(variant, ()):
                    found.setdefault(known, FUZZY_SHARE)
        elif len(word) == FUZZY_MIN - 1:  # a longer name word with a letter dropped ("Zhng" for "Zhong")
            for known in self._variants.get(word, ()):
                if len(known) >= FUZZY_MIN:
                    found.setdefault(known, FUZZY_SHARE)
        return found

    def _held(self, name_words: tuple[str, ...], held: dict[str, float]) -> float:
        total = sum(self._weight[w] for w in name_words)
        return sum(self._weight[w] * held.get(w, 0.0) for w in name_words) / total

    def _core_held(self, core_words: tuple[str, ...], held: dict[str, float]) -> bool:
        """Whether the text holds a name's core whole: every word, and a one-word core exactly and only when it is
        in few names ("Peter" alone does not name "Peter, Count of Dreux", nor "German" "Herman, Count of
        Verdun")."""
        if len(core_words) == 1:
            return core_words[0] in self._distinctive and held.get(core_words[0], 0.0) == 1.0
        return all(held.get(word, 0.0) > 0 for word in core_words)

    def _coverage(self, name: _Name, held: dict[str, float], last: set[str]) -> tuple[float, bool]:
        """The share of the name the text holds: of the whole name, of its core (at CORE_SHARE), or, for a
        distinctive last word written as a name, LAST_WORD_SHARE; and whether only a core or a last word held
        it (a looser match, which another path has to back)."""
        whole = coverage = self._held(name.words, held)
        if name.core != name.words and self._core_held(name.core, held):
            coverage = max(coverage, CORE_SHARE * self._held(name.core, held))
        if name.entity.id in last:
            coverage = max(coverage, LAST_WORD_SHARE)
        return coverage, whole < MIN_COVERAGE

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
        last = {i for word in names - covered for i in self._last.get(word, ())}
        opened = {i for word in opening for i in self._postings.get(word, ())} | last
        scored: list[TitleMatch] = []
        for entity_id in sorted(opened - {e.id for e in named}):
            coverage, partial = self._coverage(self._names[entity_id], held, last)
            if coverage >= MIN_COVERAGE:
                scored.append(TitleMatch(self._names[entity_id].entity, round(coverage, 6), partial=partial))
        scored.sort(key=lambda m: (-m.coverage, m.entity.id))
        return _grouped(scored[:MAX_MATCHES], {i: opening.intersection(self._names[i].words) for i in opened})


def _grouped(matches: list[TitleMatch], opened_by: dict[str, set[str]]) -> list[TitleMatch]:
    """The matches with their mention: the first (in sort order) of the opening words linked through the matches
    that share them."""
    parent: dict[str, str] = {}

    def root(word: str) -> str:
        while parent.setdefault(word, word) != word:
            word = parent[word]
        return word

    for match in matches:
        first, *rest = sorted(opened_by[match.entity.id]) or [match.entity.id]
        for word in rest:
            parent[root(word)] = root(first)
        root(first)
    groups: dict[str, set[str]] = defaultdict(set)
    for word in list(parent):
        groups[root(word)].add(word)
    key = {word: min(members) for members in groups.values() for word in members}
    return [replace(m, mention=key[min(opened_by[m.entity.id] or {m.entity.id})]) for m in matches]
