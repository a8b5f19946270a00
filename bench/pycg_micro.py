"""PyCG's micro-benchmark: Trident's static call graph against the 118 hand-labelled snippets (18 categories) that
ship with PyCG (Salis et al., ICSE 2021), scored edge by edge and snippet by snippet.

Usage:
    python bench/pycg_micro.py [--show 40]          # table per category and totals; up to 40 missed and wrong pairs
    python bench/pycg_micro.py --isolated           # each snippet in its own index (no other project to bind into)
    python bench/pycg_micro.py --stored --json      # stored relations only; write the JSON result
The sdist `pycg==0.0.8` is fetched with pip into ~/.cache/trident/bench/pycg/ (TRIDENT_BENCH_CACHE moves it), as
bench/callgraph.py fetches sdists; never vendored. Each `micro-benchmark/snippets/<category>/<case>/` folder is
indexed as one project named `<category>-<case>` (the folder is its root, so `main.py` is the module `main`), all into
ONE temporary index in one writer, with the fake HashEmbedder (no vector is read). Relations are read as a server reads
them (`RelationIndex.from_table`: the dispatch and constructor calls derived at read time count; `--stored`: not).

The gold is each case's callgraph.json: caller -> callees, in PyCG's names (`main`, `main.A.method`, `main.f.inner`,
`main.<lambda1>`, `to_import.func`; calling a class is the `__init__` that runs; `<builtin>.x` and modules outside the
snippet are external). Scored:
  gold pairs     (caller, callee) with both ends defined in the snippet: builtins and external names are left out. A
                 name Trident has no entity for (a nested function, a lambda) is mapped to the innermost enclosing
                 definition it has one for; a pair that becomes a self-pair that way is dropped (real recursion stays)
  Trident pairs  CALLS relations from the case's project, named by qualified name and deduplicated, each under its
                 surest resolution; a call of class X is the pair to `X.__init__` when X defines one (Trident also
                 derives edges to the `__init__` a class inherits), else unscored (PyCG writes no edge for it). A
                 target in another project is wrong, named `project:qualified.name`
  bound / all    bound: exact, inferred and dispatch pairs; all: name guesses too
  precision      matched / Trident pairs; recall: matched / gold pairs; micro-averaged over cases
  complete       cases with no missed and no wrong pair (PyCG's paper reports its own count of complete snippets)
Prints a table per category and the totals; writes ~/.cache/trident/bench/results/pycg_micro.json with `--json`.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.ingest.progress import Silent
from trident.ingest.run_syncs import BlockSyncs
from trident.retrieval.relation_index import RelationIndex
from trident.store.catalog import Catalog
from trident.store.schema import Entity, Relation, Resolution

sys.path.insert(0, str(Path(__file__).resolve().parent))
from callgraph import _log, _percent, fetch
from corpus import bench_home

SPEC = "pycg==0.0.8"
SNIPPETS = "micro-benchmark/snippets"
MAX_FILE_BYTES = 1_000_000
CODE_KINDS = frozenset({"Module", "Function", "Method", "Class"})
BOUND = frozenset({Resolution.EXACT.value, Resolution.INFERRED.value, Resolution.DISPATCH.value})
SCOPES = ("bound", "all")
TARGET_PRECISION, TARGET_RECALL = 0.98, 0.75  # the bar, bound edges

Pair = tuple[str, str]  # (caller, callee), qualified names


@dataclass(frozen=True)
class Case:
    category: str
    name: str
    root: Path

    @property
    def project(self) -> str:
        return f"{self.category}-{self.name}"


def find_cases(sdist_root: Path) -> list[Case]:
    snippets = sdist_root / SNIPPETS
    cases = [Case(p.parent.parent.name, p.parent.name, p.parent) for p in sorted(snippets.glob("*/*/callgraph.json"))]
    if not cases:
        raise SystemExit(f"no */*/callgraph.json under {snippets}")
    return cases


# --- Trident's graph -----------------------------------------------------------------------------------------------


@dataclass
class Graph:
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)  # CALLS and REFERENCES
    seconds: float = 0.0


def index_cases(cases: list[Case], isolated: bool, stored: bool) -> Graph:
    """Every case as a project: all in one index, or (`isolated`) each in its own."""
    graph = Graph()
    started = time.perf_counter()
    for group in ([c] for c in cases) if isolated else [cases]:
        with tempfile.TemporaryDirectory() as tmp:
            catalog = Catalog(Path(tmp) / "index", "default", HashEmbedder("bench/hash-embedder"))
            try:
                _read_into(graph, catalog, group, stored)
            finally:
                catalog.close()
    graph.seconds = round(time.perf_counter() - started, 1)
    _log(f"indexed {len(cases)} cases in {graph.seconds} s ({'isolated' if isolated else 'one index'})")
    return graph


def _read_into(graph: Graph, catalog: Catalog, cases: list[Case], stored: bool) -> None:
    syncs = BlockSyncs() if len(cases) > 1 else None  # as `trident index` of several folders: synced once, at the end
    with catalog.writer() as writer:
        for case in cases:
            index_folder(writer, case.root, case.project, max_file_bytes=MAX_FILE_BYTES, syncs=syncs)
        if syncs is not None:
            syncs.finish(writer, Silent())
    graph.entities.extend(e for e in catalog.entities() if e.type in CODE_KINDS)
    table = catalog.graph.relation_table(catalog.tenant)
    index = RelationIndex.from_table(table, catalog.tenant, {}, execution=not stored)
    graph.relations.extend(r for r in index.all() if r.type in ("CALLS", "REFERENCES"))


class Names:
    """Trident's code entities of each project, by qualified name."""

    def __init__(self, entities: Iterable[Entity]) -> None:
        self.by_id: dict[str, Entity] = {}
        self.known: dict[str, dict[str, Entity]] = defaultdict(dict)
        for e in sorted(entities, key=lambda e: e.id):
            self.by_id[e.id] = e
            self.known[e.project].setdefault(e.qualified_name, e)

    def enclosing(self, project: str, name: str) -> str | None:
        """The longest dotted prefix of `name` that is an entity of the project: `main.f.inner` -> `main.f`."""
        parts = name.split(".")
        for depth in range(len(parts), 0, -1):
            prefix = ".".join(parts[:depth])
            if prefix in self.known[project]:
                return prefix
        return None

    def callee(self, project: str, target: Entity) -> str | None:
        """A target's name in PyCG's terms; a class is its own `__init__`, None when it defines none."""
        name = target.qualified_name if target.project == project else f"{target.project}:{target.qualified_name}"
        if target.type != "Class":
            return name
        init = f"{target.qualified_name}.__init__"
        return f"{name}.__init__" if init in self.known[target.project] else None


# --- gold and Trident pairs ----------------------------------------------------------------------------------------


@dataclass
class Gold:
    pairs: dict[Pair, list[Pair]] = field(default_factory=dict)  # mapped pair -> the gold pairs it stands for
    names: int = 0  # distinct names defined in the snippet
    collapsed_names: set[str] = field(default_factory=set)  # ... mapped to an enclosing definition
    self_pairs_dropped: list[Pair] = field(default_factory=list)
    external_pairs: int = 0  # a builtin or a name outside the snippet at either end
    module_callees: int = 0  # scored pairs whose callee is a module (a top-level lambda): no call edge can match


def read_gold(case: Case, names: Names) -> Gold:
    graph: dict[str, list[str]] = json.loads((case.root / "callgraph.json").read_text())
    gold = Gold()
    mapped: dict[str, str | None] = {}
    for name in set(graph) | {c for callees in graph.values() for c in callees}:
        mapped[name] = None if name.startswith("<") else names.enclosing(case.project, name)
        if mapped[name] is not None:
            gold.names += 1
            if mapped[name] != name:
                gold.collapsed_names.add(name)
    pairs: dict[Pair, list[Pair]] = defaultdict(list)
    for caller, callees in sorted(graph.items()):
        for callee in sorted(callees):
            source, target = mapped[caller], mapped[callee]
            if source is None or target is None:
                gold.external_pairs += 1
            elif source == target and caller != callee:
                gold.self_pairs_dropped.append((caller, callee))
            else:
                pairs[(source, target)].append((caller, callee))
    gold.pairs = dict(pairs)
    gold.module_callees = sum(names.known[case.project][t].type == "Module" for _, t in gold.pairs)
    return gold


@dataclass
class Found:
    pairs: dict[Pair, str] = field(default_factory=dict)  # pair -> surest resolution
    unscored_class_calls: set[Pair] = field(default_factory=set)  # calls of a class that defines no __init__
    references: set[Pair] = field(default_factory=set)  # REFERENCES pairs (a function passed as a value)


def trident_pairs(relations: list[Relation], names: Names, project: str) -> Found:
    found = Found()
    rank = {r.value: r.rank for r in Resolution}
    for r in relations:
        source, target = names.by_id.get(r.source), names.by_id.get(r.target)
        if source is None or target is None or source.project != project:
            continue
        if r.type == "REFERENCES":
            found.references.add((source.qualified_name, target.qualified_name))
            continue
        callee = names.callee(project, target)
        if callee is None:
            found.unscored_class_calls.add((source.qualified_name, target.qualified_name))
            continue
        pair, resolution = (source.qualified_name, callee), str(r.resolution)
        if pair not in found.pairs or rank[resolution] < rank[found.pairs[pair]]:
            found.pairs[pair] = resolution
    return found


# --- scoring -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    gold: int
    edges: int
    matched: int

    @property
    def precision(self) -> float | None:
        return round(self.matched / self.edges, 4) if self.edges else None

    @property
    def recall(self) -> float | None:
        return round(self.matched / self.gold, 4) if self.gold else None

    @property
    def complete(self) -> bool:
        return self.matched == self.gold == self.edges

    def __add__(self, other: Score) -> Score:
        return Score(self.gold + other.gold, self.edges + other.edges, self.matched + other.matched)

    def to_json(self) -> dict[str, object]:
        return asdict(self) | {"precision": self.precision, "recall": self.recall}


@dataclass(frozen=True)
class Miss:
    pair: Pair
    gold: list[Pair]  # PyCG's own pairs behind it
    hint: str  # what Trident has instead


@dataclass(frozen=True)
class CaseResult:
    case: Case
    gold: Gold
    found: Found
    scores: dict[str, Score]  # by scope
    missed: dict[str, list[Miss]]
    wrong: dict[str, list[tuple[Pair, str]]]  # (pair, resolution)


def score_case(case: Case, gold: Gold, found: Found) -> CaseResult:
    scores: dict[str, Score] = {}
    missed: dict[str, list[Miss]] = {}
    wrong: dict[str, list[tuple[Pair, str]]] = {}
    for scope in SCOPES:
        edges = {p for p, res in found.pairs.items() if scope == "all" or res in BOUND}
        matched = edges & gold.pairs.keys()
        scores[scope] = Score(len(gold.pairs), len(edges), len(matched))
        missed[scope] = [Miss(p, gold.pairs[p], _hint(p, found)) for p in sorted(gold.pairs.keys() - edges)]
        wrong[scope] = [(p, found.pairs[p]) for p in sorted(edges - gold.pairs.keys())]
    return CaseResult(case, gold, found, scores, missed, wrong)


def _hint(pair: Pair, found: Found) -> str:
    source, target = pair
    if pair in found.pairs:
        return f"trident: {found.pairs[pair]} edge"
    hints = [f"REFERENCES from {s}" for s, t in sorted(found.references) if t == target]
    others = sorted(t for s, t in found.pairs if s == source)
    hints.append(f"calls from {source}: " + (", ".join(others) if others else "none"))
    return "trident: " + "; ".join(hints)


def measure(cases: list[Case], graph: Graph) -> list[CaseResult]:
    names = Names(graph.entities)
    return [score_case(c, read_gold(c, names), trident_pairs(graph.relations, names, c.project)) for c in cases]


def totals(results: list[CaseResult]) -> dict[str, dict[str, Score]]:
    """Scores summed by category, and over all cases under `total`."""
    summed: dict[str, dict[str, Score]] = defaultdict(lambda: {s: Score(0, 0, 0) for s in SCOPES})
    for r in results:
        for key in (r.case.category, "total"):
            for scope in SCOPES:
                summed[key][scope] += r.scores[scope]
    return dict(summed)


def complete_counts(results: list[CaseResult]) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(SCOPES, 0))
    for r in results:
        for key in (r.case.category, "total"):
            for scope in SCOPES:
                counts[key][scope] += r.scores[scope].complete
    return dict(counts)


# --- output --------------------------------------------------------------------------------------------------------


def print_table(results: list[CaseResult]) -> None:
    summed, complete = totals(results), complete_counts(results)
    cases: dict[str, int] = defaultdict(int)
    for r in results:
        cases[r.case.category] += 1
        cases["total"] += 1
    head = " ".join(f"{f'{s} edges':>11} {'P':>6} {'R':>6} {'complete':>8}" for s in SCOPES)
    print(f"{'category':<13} {'cases':>5} {'gold':>5} {head}")
    for key in [*sorted(k for k in summed if k != "total"), "total"]:
        row = " ".join(
            f"{summed[key][s].edges:>11} {_percent(summed[key][s].precision):>6} "
            f"{_percent(summed[key][s].recall):>6} {complete[key][s]:>3}/{cases[key]:<4}"
            for s in SCOPES
        )
        print(f"{key:<13} {cases[key]:>5} {summed[key]['bound'].gold:>5} {row}")
    bound = summed["total"]["bound"]
    met = (bound.precision or 0) >= TARGET_PRECISION and (bound.recall or 0) >= TARGET_RECALL
    print(
        f"\ntarget (bound): recall >= {TARGET_RECALL:.0%} at precision >= {TARGET_PRECISION:.0%}: "
        f"{'met' if met else 'not met'} (PyCG's paper: 69.9% of snippets complete, its own scoring)"
    )


def print_mapping(results: list[CaseResult], graph: Graph) -> None:
    collapsed = sorted(n for r in results for n in r.gold.collapsed_names)
    lambdas = sum("<lambda" in n for n in collapsed)
    dropped = [(r.case.project, p) for r in results for p in r.gold.self_pairs_dropped]
    print(
        f"\ngold names defined in the snippets: {sum(r.gold.names for r in results)}; mapped to an enclosing "
        f"entity (Trident has none of their own): {len(collapsed)} ({lambdas} lambdas, "
        f"{len(collapsed) - lambdas} nested functions)"
    )
    print(
        f"gold pairs dropped as they collapse into a self-pair: {len(dropped)}; external or builtin pairs left out: "
        f"{sum(r.gold.external_pairs for r in results)}; gold pairs scored: {sum(len(r.gold.pairs) for r in results)}, "
        f"of which {sum(r.gold.module_callees for r in results)} have a module as callee (a top-level lambda: no "
        f"entity, so no edge can match); cases with no gold pair scored: {sum(not r.gold.pairs for r in results)}"
    )
    unscored = sum(len(r.found.unscored_class_calls) for r in results)
    cross = sum(1 for r in results for p in r.found.pairs if ":" in p[1])
    print(
        f"Trident: calls of a class defining no __init__ (unscored): {unscored}; pairs bound into another "
        f"project (scored wrong): {cross}; indexing {graph.seconds} s"
    )


def print_examples(results: list[CaseResult], limit: int) -> None:
    """Gold pairs no bound edge gives (with what Trident has there), wrong bound pairs, wrong name guesses."""
    misses = [(r.case, m) for r in results for m in r.missed["bound"]]
    print(f"\nmissed (no bound edge): {len(misses)}")
    for case, m in misses[:limit]:
        original = ", ".join(f"{a} -> {b}" for a, b in m.gold if (a, b) != m.pair)
        print(f"  {case.project:<34} {m.pair[0]} -> {m.pair[1]}{f'  (gold: {original})' if original else ''}")
        print(f"  {'':<34}   {m.hint}")
    for title, bound in (("wrong bound pairs", True), ("wrong name guesses", False)):
        wrong = [(r.case, p, res) for r in results for p, res in r.wrong["all"] if (res in BOUND) == bound]
        print(f"\n{title}: {len(wrong)}")
        for case, (source, target), res in wrong[:limit]:
            print(f"  {case.project:<34} ({res}) {source} -> {target}")


def to_json(results: list[CaseResult], graph: Graph, args: argparse.Namespace) -> dict[str, object]:
    summed, complete = totals(results), complete_counts(results)
    return {
        "spec": SPEC,
        "mode": {"isolated": args.isolated, "stored": args.stored},
        "index_seconds": graph.seconds,
        "by_category": {
            k: {s: v[s].to_json() | {"complete": complete[k][s]} for s in SCOPES} for k, v in summed.items()
        },
        "cases": [_case_json(r) for r in results],
    }


def _case_json(r: CaseResult) -> dict[str, object]:
    return {
        "case": r.case.project,
        "scores": {s: r.scores[s].to_json() | {"complete": r.scores[s].complete} for s in SCOPES},
        "gold_collapsed_names": sorted(r.gold.collapsed_names),
        "gold_self_pairs_dropped": r.gold.self_pairs_dropped,
        "gold_module_callees": r.gold.module_callees,
        "unscored_class_calls": sorted(r.found.unscored_class_calls),
        "missed": {s: [asdict(m) for m in r.missed[s]] for s in SCOPES},
        "wrong": {s: [{"pair": p, "resolution": res} for p, res in r.wrong[s]] for s in SCOPES},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--show", type=int, default=0, metavar="N", help="print up to N missed and N wrong pairs")
    parser.add_argument("--json", action="store_true", help="write the results to the bench results folder")
    parser.add_argument("--isolated", action="store_true", help="index each case in its own index")
    parser.add_argument("--stored", action="store_true", help="stored relations only, none derived at read time")
    args = parser.parse_args(argv)
    package = fetch(SPEC, bench_home() / "pycg")
    cases = find_cases(package.root)
    graph = index_cases(cases, args.isolated, args.stored)
    results = measure(cases, graph)
    print_table(results)
    print_mapping(results, graph)
    if args.show:
        print_examples(results, args.show)
    if args.json:
        out = bench_home() / "results" / "pycg_micro.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(to_json(results, graph, args), indent=2) + "\n")
        print(f"\nwritten: {out}")


if __name__ == "__main__":
    main()
