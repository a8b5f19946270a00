"""The call questions an agent asks about code it does not know, asked of Trident's tools as an agent asks them.

Four real open-source projects (bench/call_questions/projects.json, the code-search set's sdists, fetched from the
registry at bench time) are indexed as four projects of one home. Each question of bench/call_questions/
questions.jsonl was written from the source and its gold checked there before Trident answered it
(bench/call_questions/README.md):

  path     "How does A end up calling B?"  explain_path(A, B) with its default arguments (max_hops raised to the
           gold chain's length when that is longer): is the first path one of the gold chains, walked forward over
           calls? (`any path` also counts a later path)
  callers  "What calls X?"  trace_relationships(X, direction=incoming, relation_types=[CALLS], max_hops=1) at the
           default min_resolution: recall and precision of the callers in the library's own code (tests, docs and
           examples are outside the gold and the answer both)
  impact   "What could break if I change X?"  impact(entities=[X]) with its defaults: recall and precision of its
           callers within two hops against the gold's callers and their callers (library code, as above)

Questions name entities the way an agent writes them (`Console.print`); the share resolved by the name alone is
reported, and the tools are then called with the gold entity's id, as an agent does after a suggestion.

    .venv/bin/python bench/agent_calls.py [--hash-embedder] [--show-misses N] [--kinds path,callers,impact]
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from callgraph import Entities, read_entities
from code_search import MAX_FILE_BYTES, fetch_projects
from corpus import bench_home

from trident.embedding.embedder import Embedder, open_embedder
from trident.embedding.hash_embedder import HashEmbedder
from trident.embedding.model_settings import ModelSettings
from trident.ingest.pipeline import index_folder
from trident.retrieval.call_chains import CALL_TYPES as EXECUTION_KINDS
from trident.retrieval.entities import EntityNotFoundError, resolve_entity
from trident.retrieval.reader import Reader
from trident.retrieval.walks import Direction
from trident.store.catalog import Catalog
from trident.store.schema import RelationType
from trident.tools.explain import explain_path
from trident.tools.impact import impact
from trident.tools.trace import MAX_EDGES, MAX_MAX_TOKENS, trace_relationships

HERE = Path(__file__).resolve().parent / "call_questions"
KINDS = ("path", "callers", "impact")
MODULE = "<module>"
MAX_PAGES = 50  # of impact's callers: far more than any question's  # the gold's name for code at a module's top level
EXPLAIN_HOPS: int = inspect.signature(explain_path).parameters["max_hops"].default


@dataclass(frozen=True)
class Home:
    """The indexed projects, as the tools read them."""

    reader: Reader
    entities: Entities
    library: dict[str, tuple[str, ...]]  # project -> the folders of its library code

    def id_of(self, project: str, gold: dict[str, Any]) -> str | None:
        """The entity of a gold function; a function nested in another has none of its own, and is the innermost
        enclosing definition that has one (as an agent is shown it)."""
        local = "" if gold["symbol"] == MODULE else gold["symbol"]
        parts = local.split(".") if local else []
        for depth in range(len(parts), 0, -1):
            found = self.entities.local(project, gold["path"], ".".join(parts[:depth]))
            if found is not None:
                return found.id
        found = self.entities.local(project, gold["path"], "") if not parts else None
        return found.id if found else None

    def in_library(self, entity_id: str, project: str) -> bool:
        entity = self.entities.by_id.get(entity_id)
        if entity is None or entity.project != project or not entity.path:
            return False
        return entity.path.startswith(self.library[project])


@dataclass
class Answer:
    """One question's score."""

    question: dict[str, Any]
    named: bool  # the name as written resolved to the gold entity
    first: bool = False  # path: the first path is a gold chain
    anywhere: bool = False  # path: some path is
    found: set[str] = field(default_factory=set)  # callers/impact: the answer's library callers
    gold: set[str] = field(default_factory=set)
    unmapped: list[str] = field(default_factory=list)  # gold entries with no entity
    detail: str = ""


def open_home(roots: dict[str, Path], folder: Path, embedder: Embedder, library: dict[str, list[str]]) -> Home:
    """The projects indexed into `folder` (reused when a run indexed them there before: `--keep`)."""
    done = folder / "COMPLETE"
    catalog = Catalog(folder, "default", embedder)
    started = time.perf_counter()
    if not done.exists():
        with catalog.writer() as writer:
            for project, root in sorted(roots.items()):
                print(f"indexing {project} ...", file=sys.stderr)
                index_folder(writer, root, project, max_file_bytes=MAX_FILE_BYTES)
        done.write_text("ok\n")
        print(f"indexed in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    folders = {p: tuple(f.rstrip("/") + "/" for f in fs) for p, fs in library.items()}
    return Home(Reader.open(catalog), read_entities(catalog), folders)


def _written(question: dict[str, Any]) -> list[str]:
    """The names the question writes between backticks."""
    return question["question"].split("`")[1::2]


def _named(home: Home, written: str, expected: str | None) -> bool:
    try:
        return expected is not None and resolve_entity(home.reader.directory(), written).id == expected
    except EntityNotFoundError:
        return False


def ask_path(home: Home, q: dict[str, Any]) -> Answer:
    project = q["project"]
    chains = [_collapsed([home.id_of(project, step) for step in chain]) for chain in q["chains"]]
    ends = chains[0][0], chains[0][-1]
    names = _written(q)
    named = len(names) == 2 and all(_named(home, n, e) for n, e in zip(names, ends, strict=True))
    answer = Answer(q, named)
    if None in ends:
        answer.unmapped = [
            f"{s['path']}:{s['symbol']}" for c in q["chains"] for s in c if home.id_of(project, s) is None
        ]
        return answer
    hops = max(EXPLAIN_HOPS, max(len(c) - 1 for c in chains))
    result = explain_path(home.reader, ends[0], ends[1], max_hops=hops)
    walks = [_forward_calls(ends[0], p.hops) for p in result.paths]
    answer.first = bool(walks) and walks[0] in chains
    answer.anywhere = any(w in chains for w in walks)
    first = result.paths[0] if result.paths else None
    answer.detail = (
        " -> ".join([ends[0], *((h.target if h.forward else h.source) for h in first.hops)])
        + "  ["
        + " ".join(h.type + ("" if h.forward else "<") + f"/{h.resolution.value}" for h in first.hops)
        + "]"
        if first
        else f"no path ({result.message})"
    )
    return answer


def _collapsed(chain: list[str | None]) -> list[str | None]:
    """A chain with a nested function's call of itself (its enclosing entity's) left out."""
    return [step for i, step in enumerate(chain) if i == 0 or step != chain[i - 1]]


def _forward_calls(start: str, hops: list[Any]) -> list[str | None] | None:
    walked: list[str | None] = [start]
    for hop in hops:
        if not hop.forward or hop.type not in EXECUTION_KINDS or hop.source != walked[-1]:
            return None
        walked.append(hop.target)
    return walked


def _gold_set(home: Home, project: str, entries: list[dict[str, Any]], answer: Answer) -> set[str]:
    ids = set()
    for entry in entries:
        found = home.id_of(project, entry)
        if found is None:
            answer.unmapped.append(f"{entry['path']}:{entry['symbol']}")
        else:
            ids.add(found)
    return ids


def _about(home: Home, q: dict[str, Any], gold: list[dict[str, Any]]) -> tuple[Answer, str | None]:
    """A callers or impact question's answer, its gold set, and the entity it asks about (None: no entity)."""
    target = home.id_of(q["project"], q["symbol"])
    names = _written(q)
    answer = Answer(q, bool(names) and _named(home, names[0], target))
    answer.gold = _gold_set(home, q["project"], gold, answer)
    if target is None:
        answer.unmapped.append(f"{q['symbol']['path']}:{q['symbol']['symbol']}")
    return answer, target


def ask_callers(home: Home, q: dict[str, Any]) -> Answer:
    answer, target = _about(home, q, q["callers"])
    if target is None:
        return answer
    result = trace_relationships(
        home.reader,
        target,
        direction=Direction.IN,
        relation_types=[RelationType.CALLS.value],
        max_hops=1,
        limit=MAX_EDGES,  # trace's largest page, far above any gold's callers
        max_tokens=MAX_MAX_TOKENS,
    )
    answer.found = {e.source for e in result.edges if e.target == target and home.in_library(e.source, q["project"])}
    return answer


def ask_impact(home: Home, q: dict[str, Any]) -> Answer:
    answer, target = _about(home, q, q["callers"] + q["second"])
    if target is None:
        return answer
    offset, callers = 0, []
    for _ in range(MAX_PAGES):  # every page: the measure is what the tool finds, not how it pages
        result = impact(home.reader, entities=[target], offset=offset)
        callers += result.callers
        if result.next_call is None or not result.callers:
            break
        offset += len(result.callers)
    else:
        print(f"{q['id']}: impact's callers cut at {MAX_PAGES} pages", file=sys.stderr)
    answer.found = {c.id for c in callers if c.hops <= 2 and home.in_library(c.id, q["project"])}
    answer.detail = f"verdict {result.verdict.status}"
    return answer


ASK = {"path": ask_path, "callers": ask_callers, "impact": ask_impact}


def _ratio(hit: int, total: int) -> str:
    return f"{100 * hit / total:5.1f}% ({hit}/{total})" if total else "    -"


def print_table(answers: list[Answer]) -> None:
    by_kind: dict[str, list[Answer]] = defaultdict(list)
    for a in answers:
        by_kind[a.question["kind"]].append(a)
    for kind in KINDS:
        group = by_kind.get(kind, [])
        if not group:
            continue
        named = sum(a.named for a in group)
        print(f"{kind}: {len(group)} questions, names resolved as written {_ratio(named, len(group))}")
        for project in [*sorted({a.question["project"] for a in group}), "all"]:
            rows = [a for a in group if project in ("all", a.question["project"])]
            if kind == "path":
                first, anywhere = sum(a.first for a in rows), sum(a.anywhere for a in rows)
                chain, later = _ratio(first, len(rows)), _ratio(anywhere, len(rows))
                print(f"  {project:9} first path is the chain {chain}   any path {later}")
                continue
            hits = sum(len(a.found & a.gold) for a in rows)
            gold, found = sum(len(a.gold) for a in rows), sum(len(a.found) for a in rows)
            whole = sum(a.gold <= a.found for a in rows)
            print(
                f"  {project:9} recall {_ratio(hits, gold)}   precision {_ratio(hits, found)}   "
                f"every caller found {whole}/{len(rows)}"
            )


def print_misses(answers: list[Answer], home: Home, most: int) -> None:
    shown = 0
    for a in answers:
        if shown >= most:
            return
        q = a.question
        if a.unmapped:
            print(f"- {q['id']}: gold without an entity: {', '.join(a.unmapped)}")
        if q["kind"] == "path" and not a.first:
            print(f"- {q['id']} {q['question']}\n    first path: {a.detail}")
            shown += 1
        elif q["kind"] != "path" and a.found != a.gold:
            how = {home.id_of(q["project"], c): c.get("how", "") for c in q["callers"] + q.get("second", [])}
            missed = ", ".join(f"{m} ({how.get(m, '')})" for m in sorted(a.gold - a.found))
            extra = ", ".join(sorted(a.found - a.gold))
            print(f"- {q['id']} {q['question']} {a.detail}\n    missed: {missed or '-'}\n    extra: {extra or '-'}")
            shown += 1


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hash-embedder", action="store_true", help="index with the hashing embedder (no model)")
    parser.add_argument("--show-misses", type=int, default=20, metavar="N")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds to ask")
    parser.add_argument("--json", type=Path, help="also write every question's outcome here")
    parser.add_argument("--keep", type=Path, help="index into this folder and keep it; reuse it when it is there")
    parser.add_argument("--questions", type=Path, default=HERE / "questions.jsonl", help="the question set to ask")
    args = parser.parse_args(argv)
    spec = json.loads((HERE / "projects.json").read_text())
    cache = bench_home() / "code-search" / "+".join(sorted(spec["sdists"].values()))
    roots = fetch_projects(spec["sdists"], cache)
    embedder: Embedder = HashEmbedder() if args.hash_embedder else open_embedder(ModelSettings())
    questions = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    kinds = set(args.kinds.split(","))
    with tempfile.TemporaryDirectory(prefix="agent-calls-") as tmp:
        home = open_home(roots, args.keep or Path(tmp) / "index", embedder, spec["library"])
        answers = [ASK[q["kind"]](home, q) for q in sorted(questions, key=lambda q: q["id"]) if q["kind"] in kinds]
        print_table(answers)
        print_misses(answers, home, args.show_misses)
        if args.json:
            outcome = {
                a.question["id"]: {
                    "named": a.named,
                    "first": a.first,
                    "anywhere": a.anywhere,
                    "found": sorted(a.found),
                    "gold": sorted(a.gold),
                }
                for a in answers
            }
            args.json.write_text(json.dumps(outcome, indent=1, sort_keys=True))
        home.reader.catalog.close()


if __name__ == "__main__":
    main()
