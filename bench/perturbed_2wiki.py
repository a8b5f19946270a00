"""2Wiki robustness sets for multi-hop retrieval (issue #19): the same questions with the entity names written the
way people write them, scored against the cached 2Wiki eval index without re-indexing.

The names in a question are its gold passages' titles (qrels -> corpus titles) and any other corpus title it spells
out. Each variant rewrites them one way; a question whose text the variant leaves unchanged is left out of that
variant, so every variant reports its own n. Every choice is seeded per (seed, variant, question id): the same
dataset gives the same sets on every run, whatever `--limit` or the order of the variants.

  lower      every name lower-cased
  family     a person's name (2+ tokens) reduced to the family name ("Eduardo De Filippo" -> "De Filippo")
  qualifier  titles, ordinals and qualifiers dropped ("Lothair Ii" -> "Lothair", "Atomised (Film)" -> "Atomised",
             "Princess Margaret Of Connaught" -> "Margaret Of Connaught", "X, 2Nd Viscount Y" -> "X")
  phrase     one gold name inside a longer phrase ("the film titled X", "the person known as X")
  typo       one typo (swap, drop or duplicate one inner letter) in one gold name
  described  one gold name replaced by a description from its passage's first sentence ("Teutberga" -> "the queen
             of Lotharingia"); a question whose passage yields no description is skipped

The first row of the table is the unperturbed set; each variant row is followed, in the JSON, by the unperturbed
figures on the same questions (`same_questions`), which is what a variant's drop is measured against.

Usage: python bench/perturbed_2wiki.py [--limit N] [--variants lower,typo] [--strategies auto,ppr] [--seed 19]
Writes ~/.cache/trident/bench/results/perturbed-2wiki.json and the perturbed query sets next to it
(perturbed-2wiki/<variant>.jsonl, BEIR query lines).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path

import ahocorasick

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.evaluation.evaluate import EvalReport, evaluate, ranked_documents
from trident.evaluation.metrics import mean, query_metrics
from trident.evaluation.run import cache_key
from trident.ingest.beir import BeirQuery, load_qrels, load_queries
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import Strategy
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.settings import StoreSettings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import bench_home

DATASET = Path(__file__).resolve().parents[2] / "shared" / "eval" / "2wiki"
DEFAULT_SEED = 19  # the number: any fixed value does, this one is easy to trace back
STRATEGIES = (Strategy.AUTO, Strategy.LEXICAL, Strategy.SEMANTIC, Strategy.PPR)
Qrels = dict[str, dict[str, int]]


class Variant(StrEnum):
    LOWER = "lower"
    FAMILY = "family"
    QUALIFIER = "qualifier"
    PHRASE = "phrase"
    TYPO = "typo"
    DESCRIBED = "described"


class Kind(StrEnum):
    PERSON = "person"
    FILM = "film"
    OTHER = "other"


@dataclass(frozen=True)
class Mention:
    """A title spelled out in a question: the characters [start, end) of the question's text."""

    start: int
    end: int
    title: str
    gold: bool


@dataclass(frozen=True)
class Passage:
    title: str
    text: str


# --- reading names off the passages ---

PARENTHESES = re.compile(r"\s*\([^()]*\)")
LIFESPAN = re.compile(r"^[^.]{0,120}?\([^()]*(?:\b(?:born|died|b\.|d\.)\s|\d{3,4}\s*[–-]|[–-]\s*[^()]*\d{3,4})[^()]*\)")
FILM = re.compile(r"\b(?:is|was) an? (?:[\w-]+ ){0,6}(?:film|movie)\b")
CUT_WORDS = "who|which|that|by|from|and|but|with|directed|co-directed|written|produced|composed|starring|released|based"
DEFINITION = re.compile(rf"\b(?:is|was|are|were) (a|an|the) (.+?)(?:[,;.:(\"]| (?:{CUT_WORDS})\b|$)")
DESCRIPTION_WORDS = 10


def kind_of(passage: Passage) -> Kind:
    """What a passage is about, read off its opening the way 2Wiki's Wikipedia openings are written: a person's
    begins with dates in parentheses ("Teutberga( died 11 November 875)"), a film's says "is a 1948 ... film"."""
    if LIFESPAN.search(passage.text):
        return Kind.PERSON
    if "(film)" in passage.title.lower() or FILM.search(passage.text[:200]):
        return Kind.FILM
    return Kind.OTHER


def describe(passage: Passage) -> str | None:
    """A short definite description from the passage's first sentence ("was a queen of Lotharingia by marriage to
    Lothair II" -> "the queen of Lotharingia"), or None when the opening defines nothing or names the entity."""
    opening = passage.text
    while PARENTHESES.search(opening):
        opening = PARENTHESES.sub("", opening)
    found = DEFINITION.search(opening[:300])
    if found is None:
        return None
    words = found.group(2).split()[:DESCRIPTION_WORDS]
    if len(words) < 2:  # "the song", "the film": a description must tell the entity from others of its kind
        return None
    description = " ".join(["the", *words]).strip()
    core = core_name(passage.title).lower()
    return None if core in description.lower() else description


# --- finding names in a question ---


class TitleFinder:
    """Every corpus title (and its form without a trailing parenthesis) found at word boundaries in a text."""

    MIN_LENGTH = 4  # shorter titles ("Up", "Ra") are mostly ordinary words in a question

    def __init__(self, titles: Iterable[str]) -> None:
        self._automaton = ahocorasick.Automaton()
        for title in sorted(set(titles)):
            for form in {title, PARENTHESES.sub("", title)}:
                key = form.lower()
                if len(key) >= self.MIN_LENGTH and key not in self._automaton:
                    self._automaton.add_word(key, (key, title))
        self._automaton.make_automaton()

    def find(self, text: str, gold_titles: Sequence[str]) -> list[Mention]:
        """Non-overlapping mentions, gold titles first, then longer before shorter, then leftmost."""
        lowered = text.lower()
        gold = set(gold_titles)
        found = []
        for end, (key, title) in self._automaton.iter(lowered):
            start = end - len(key) + 1
            if not _at_word_boundaries(lowered, start, end + 1):
                continue
            if title in gold or text[start].isupper():
                found.append(Mention(start, end + 1, title, title in gold))
        found.sort(key=lambda m: (not m.gold, m.start - m.end, m.start))
        chosen: list[Mention] = []
        for mention in found:
            if all(mention.end <= c.start or mention.start >= c.end for c in chosen):
                chosen.append(mention)
        return sorted(chosen, key=lambda m: m.start)


def _at_word_boundaries(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return not before.isalnum() and not after.isalnum()


# --- rewriting one name ---

HONORIFICS = frozenset(
    {
        *(
            "sir",
            "saint",
            "st.",
            "st",
            "dame",
            "lord",
            "lady",
            "dr.",
            "dr",
            "pope",
            "king",
            "queen",
            "emperor",
            "empress",
        ),
        *("prince", "princess", "duke", "duchess", "archduke", "archduchess", "count", "countess", "earl", "marquess"),
        *("baron", "baroness", "general", "major-general", "captain"),
    }
)
SUFFIXES = re.compile(r"^(?:[ivxl]{1,4}|jr\.?|sr\.?|\d+(?:st|nd|rd|th))$", re.IGNORECASE)
PARTICLES = frozenset(
    {"de", "del", "della", "di", "da", "van", "von", "der", "den", "le", "la", "mac", "mc", "ibn", "bin"}
)
KIND_NOUN = re.compile(r"\b(?:film|song|album|magazine|journal|newspaper|band|company|novel|book) $", re.IGNORECASE)
PHRASES: Mapping[Kind, tuple[str, ...]] = {
    Kind.PERSON: ("the person known as {}", "the individual named {}", "someone called {}"),
    Kind.FILM: ("the film titled {}", "the movie called {}", "the picture known as {}"),
    Kind.OTHER: ("the one called {}", "what is known as {}", "the so-called {}"),
}


def core_name(name: str) -> str:
    """The name without a parenthesised qualifier or a comma-separated title ("X, 2nd Viscount Y" -> "X")."""
    return PARENTHESES.sub("", name).split(",")[0].strip()


def family_name(name: str) -> str | None:
    """A person's family name: the last token after the qualifiers, with its particle ("De Filippo"); None for a
    one-token name or a name of the "X of Y" kind, which has no family name."""
    tokens = [t for t in core_name(name).split() if not SUFFIXES.match(t)]
    if len(tokens) < 2 or any(t.lower() == "of" for t in tokens):
        return None
    family = tokens[-1:]
    if len(tokens) >= 3 and tokens[-2].lower() in PARTICLES:
        family = tokens[-2:]
    return " ".join(family)


def without_qualifier(name: str) -> str:
    """The name with its parenthesis, comma title, leading honorifics and trailing ordinals dropped."""
    tokens = core_name(name).split()
    while len(tokens) > 1 and tokens[0].lower() in HONORIFICS:
        tokens = tokens[1:]
    while len(tokens) > 1 and SUFFIXES.match(tokens[-1]):
        tokens = tokens[:-1]
    return " ".join(tokens)


def with_typo(name: str, rng: random.Random) -> str:
    """One inner letter of one word of 4+ letters swapped with its neighbour, dropped or doubled."""
    words = [(m.start(), m.group()) for m in re.finditer(r"[^\W\d_]{4,}", name)]
    if not words:
        return name
    offset, word = rng.choice(words)
    at = rng.randrange(1, len(word) - 1)
    edit = rng.choice(("swap", "drop", "duplicate"))
    if edit == "swap" and at + 1 < len(word) - 1 and word[at] != word[at + 1]:
        typed = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    elif edit == "drop":
        typed = word[:at] + word[at + 1 :]
    else:
        typed = word[:at] + word[at] + word[at:]
    return name[:offset] + typed + name[offset + len(word) :]


# --- rewriting a question ---


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    gold_titles: tuple[str, ...]


class Perturber:
    """Rewrites questions one variant at a time from the corpus's titles and passages."""

    def __init__(self, passages: Iterable[Passage], seed: int = DEFAULT_SEED) -> None:
        self.passages = {p.title: p for p in passages}
        self.finder = TitleFinder(self.passages)
        self.seed = seed

    def perturb(self, variant: Variant, question: Question) -> str | None:
        """The question rewritten by `variant`, or None when the variant would not change it."""
        mentions = self.finder.find(question.text, question.gold_titles)
        rng = random.Random(f"{self.seed}:{variant.value}:{question.id}")
        gold = [m for m in mentions if m.gold]
        if variant in (Variant.PHRASE, Variant.TYPO, Variant.DESCRIBED):
            mentions = [rng.choice(gold)] if gold else []
        edits = {m: self._rewrite(variant, question.text[m.start : m.end], m.title, rng) for m in mentions}
        text = question.text
        for mention in sorted(edits, key=lambda m: -m.start):
            replacement = edits[mention]
            if replacement:
                before = text[: mention.start]
                if variant in (Variant.PHRASE, Variant.DESCRIBED):
                    before = KIND_NOUN.sub("", before)  # "of film the film titled X" reads "of the film titled X"
                text = before + replacement + text[mention.end :]
        return text if text != question.text else None

    def _rewrite(self, variant: Variant, name: str, title: str, rng: random.Random) -> str | None:
        passage = self.passages[title]
        match variant:
            case Variant.LOWER:
                return name.lower()
            case Variant.FAMILY:
                return family_name(name) if kind_of(passage) is Kind.PERSON else None
            case Variant.QUALIFIER:
                return without_qualifier(name) or None
            case Variant.PHRASE:
                return rng.choice(PHRASES[kind_of(passage)]).format(name)
            case Variant.TYPO:
                return with_typo(name, rng)
            case Variant.DESCRIBED:
                return describe(passage)


# --- the sets ---


def load_dataset(dataset: Path) -> tuple[list[Passage], list[BeirQuery], dict[str, Question], Qrels]:
    """The corpus's passages, the judged test queries, each query's question with its gold titles, and the qrels."""
    passages, titles = [], {}
    with open(dataset / "corpus.jsonl", encoding="utf-8") as corpus:
        for line in corpus:
            row = json.loads(line)
            passages.append(Passage(row["title"], row["text"]))
            titles[row["_id"]] = row["title"]
    qrels = load_qrels(dataset, "test")
    queries = [q for q in load_queries(dataset) if q.id in qrels]
    questions = {
        q.id: Question(q.id, q.text, tuple(titles[doc] for doc, grade in qrels[q.id].items() if grade > 0))
        for q in queries
    }
    return passages, queries, questions, qrels


def build_sets(
    perturber: Perturber, queries: Sequence[BeirQuery], questions: Mapping[str, Question], variants: Iterable[Variant]
) -> dict[Variant, list[BeirQuery]]:
    """Each variant's queries: the questions it changes, rewritten, with their ids and metadata kept."""
    sets: dict[Variant, list[BeirQuery]] = {}
    for variant in variants:
        sets[variant] = []
        for query in queries:
            text = perturber.perturb(variant, questions[query.id])
            if text is not None:
                sets[variant].append(query.model_copy(update={"text": text}))
    return sets


# --- scoring ---


def open_cached_index(dataset: Path, model: ModelSettings) -> Catalog:
    """The eval index `trident eval` built for the dataset, opened read-only.

    Raises:
        FileNotFoundError: no cached index for this dataset and model; `trident eval` builds it.
    """
    embedder = open_embedder(model)
    name = dataset.resolve().name
    index_dir = StoreSettings().eval_cache / f"{name}-{cache_key(dataset, embedder.model_name)}"
    if not (index_dir / "manifest.json").is_file():
        raise FileNotFoundError(f"no cached index at {index_dir}; build it with `trident eval {dataset}` first")
    return Catalog.open_reader(index_dir, "default", embedder)


def per_query(
    catalog: Catalog, queries: Sequence[BeirQuery], qrels: Mapping[str, Mapping[str, int]], strategy: Strategy
) -> dict[str, dict[str, float]]:
    """The unperturbed metrics per query (what `evaluate` averages), so a variant can be set against the
    unperturbed figures on its own questions."""
    views = GenerationViews(RetrievalSettings())
    return {q.id: query_metrics(ranked_documents(catalog, q.text, strategy, views)[0], qrels[q.id]) for q in queries}


@dataclass(frozen=True)
class Figures:
    n: int
    r2: float
    r5: float

    @classmethod
    def of(cls, metrics: Mapping[str, float], n: int) -> Figures:
        return cls(n, metrics.get("recall@2", 0.0), metrics.get("recall@5", 0.0))

    def __str__(self) -> str:
        return f"{self.r2:.3f} / {self.r5:.3f}"


@dataclass(frozen=True)
class Cell:
    """One strategy on one set; a variant's cell also holds the unperturbed figures on the same questions."""

    figures: Figures
    same_questions: Figures | None = None
    by_type: dict[str, Figures] = field(default_factory=dict)
    seconds: float = 0.0

    def delta(self) -> str:
        if self.same_questions is None:
            return "–"
        return f"{self.figures.r2 - self.same_questions.r2:+.3f} / {self.figures.r5 - self.same_questions.r5:+.3f}"


Table = dict[str, dict[str, Cell]]  # row ("unperturbed" or a variant) -> strategy -> cell


def score(
    catalog: Catalog,
    queries: Sequence[BeirQuery],
    sets: Mapping[Variant, Sequence[BeirQuery]],
    qrels: Qrels,
    strategies: Sequence[Strategy],
    log: Callable[[str], None],
) -> Table:
    """Every strategy on the unperturbed questions and on each variant's set."""
    table: Table = {"unperturbed": {}, **{v.value: {} for v in sets}}
    for strategy in strategies:
        base = per_query(catalog, queries, qrels, strategy)
        table["unperturbed"][strategy.value] = Cell(Figures.of(mean(list(base.values())), len(base)))
        log(f"unperturbed {strategy.value}: {table['unperturbed'][strategy.value].figures}")
        for variant, perturbed in sets.items():
            report: EvalReport = evaluate(
                catalog, "2wiki", perturbed, qrels, split="test", retrieval=RetrievalSettings(), strategy=strategy
            )
            cell = Cell(
                Figures.of(report.metrics, report.queries),
                Figures.of(mean([base[q.id] for q in perturbed]), len(perturbed)),
                {name: Figures.of(metrics, 0) for name, metrics in report.by_type.items()},
                report.seconds,
            )
            table[variant.value][strategy.value] = cell
            log(f"{variant.value} {strategy.value}: {cell.figures} ({cell.delta()} against the same questions)")
    return table


# --- reporting ---


def markdown_tables(table: Table, strategies: Sequence[Strategy]) -> str:
    """Two tables: set x strategy -> R@2 / R@5 with each set's n, then each variant's change against the same
    questions unperturbed."""
    header = "| {} | n | " + " | ".join(f"`{s.value}` R@2 / R@5" for s in strategies) + " |"
    rule = "|---|---:|" + "---:|" * len(strategies)
    figures, deltas = [header.format("set"), rule], [header.format("variant: change"), rule]
    for row, cells in table.items():
        n = next((cell.figures.n for cell in cells.values()), 0)
        chosen = [cells.get(s.value) for s in strategies]
        figures.append(f"| {row} | {n} | " + " | ".join(str(c.figures) if c else "–" for c in chosen) + " |")
        if row != "unperturbed":
            deltas.append(f"| {row} | {n} | " + " | ".join(c.delta() if c else "–" for c in chosen) + " |")
    return "\n".join(figures) + "\n\n" + "\n".join(deltas)


def write_sets(folder: Path, sets: Mapping[Variant, Sequence[BeirQuery]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for variant, queries in sets.items():
        lines = [json.dumps(q.model_dump(), ensure_ascii=False) for q in queries]
        (folder / f"{variant.value}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dataset", type=Path, default=DATASET)
    parser.add_argument("--limit", type=int, default=None, help="the first N judged questions (default: all)")
    parser.add_argument("--variants", default=",".join(Variant), help="comma-separated, from: " + ",".join(Variant))
    parser.add_argument("--strategies", default=",".join(STRATEGIES), help="comma-separated `--strategy` names")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--sets-only", action="store_true", help="build and write the sets, score nothing")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    variants = [Variant(v) for v in args.variants.split(",") if v]
    strategies = [Strategy.parse(s) for s in args.strategies.split(",") if s]
    passages, queries, questions, qrels = load_dataset(args.dataset)
    queries = queries[: args.limit]
    sets = build_sets(Perturber(passages, args.seed), queries, questions, variants)
    results = bench_home() / "results"
    write_sets(results / "perturbed-2wiki", sets)
    for variant, perturbed in sets.items():
        print(f"{variant.value}: {len(perturbed)}/{len(queries)} questions changed", file=sys.stderr)
    if args.sets_only:
        return
    catalog = open_cached_index(args.dataset, ModelSettings())
    try:
        table = score(catalog, queries, sets, qrels, strategies, lambda line: print(line, file=sys.stderr, flush=True))
    finally:
        catalog.close()
    out = results / "perturbed-2wiki.json"
    config = {"dataset": str(args.dataset), "index": str(catalog.index_dir), "seed": args.seed, "limit": args.limit}
    rows = {row: {strategy: asdict(cell) for strategy, cell in cells.items()} for row, cells in table.items()}
    counts = {variant.value: len(perturbed) for variant, perturbed in sets.items()}
    report = {"config": config, "questions": len(queries), "changed": counts, "table": rows}
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(markdown_tables(table, strategies))
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
