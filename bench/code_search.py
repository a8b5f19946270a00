"""Does `search` find the code that answers a developer's question, on a real multi-project code index?

Four real open-source projects (bench/code_questions/projects.json, fetched as sdists from the registry at bench
time) are indexed with the real model as four projects of one home. Each question of bench/code_questions/
questions.jsonl ("where is X done?", "what handles Y?", a misspelt symbol, a doc question; gold checked in the
source by bench/code_questions/check_gold.py) is asked of `search` as an agent asks it (default arguments, no
project scope), and scored: a hit finds a gold answer when it is in the same project and file and its lines overlap
the gold definition's. Reported per split (dev / heldout), kind and project: top-1, top-5, MRR@10 and the file in the
top five; and the size of the answer an agent reads (characters of the tool's JSON).

    .venv/bin/python bench/code_search.py [--split dev|heldout|all] [--show-misses N] [--fresh]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from callgraph import _download, _extract
from corpus import bench_home

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_hits import SearchHit
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.search import search

HERE = Path(__file__).resolve().parent / "code_questions"
TOP_K = 10
MAX_FILE_BYTES = 1_000_000


@dataclass(frozen=True)
class Scored:
    question: dict[str, Any]
    rank: int | None  # 1-based rank of the first hit that finds a gold answer
    file_rank: int | None  # ... that is in a gold file
    characters: int
    top: list[str]


def fetch_projects(specs: dict[str, str], cache: Path) -> dict[str, Path]:
    """project -> the extracted sdist's top folder, downloaded once into the cache."""
    roots = {}
    for project, spec in sorted(specs.items()):
        name, _, version = spec.partition("==")
        unpacked = cache / "src" / f"{name}-{version}"
        if not unpacked.is_dir():
            _extract(_download(name, version, cache / "sdists" / f"{name}-{version}"), unpacked)
        (roots[project],) = [d for d in unpacked.iterdir() if d.is_dir()]
    return roots


def open_index(roots: dict[str, Path], cache: Path, fresh: bool) -> Catalog:
    """The four projects indexed with the real model into one home (built once, reused while complete)."""
    folder = cache / "index"
    done = folder / "COMPLETE"
    if fresh or not done.exists():
        shutil.rmtree(folder, ignore_errors=True)  # (a run on the same home would skip every unchanged file)
        catalog = Catalog(folder, "default", open_embedder(ModelSettings()))
        started = time.perf_counter()
        with catalog.writer() as writer:
            for project, root in roots.items():
                print(f"indexing {project} ...", file=sys.stderr)
                index_folder(writer, root, project, max_file_bytes=MAX_FILE_BYTES)
        print(f"indexed in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        done.write_text("ok\n")
        return catalog
    return Catalog(folder, "default", open_embedder(ModelSettings()))


def finds(hit: SearchHit, gold: dict[str, Any], project: str, whole: bool) -> bool:
    """Whether a hit is the gold answer (`whole`: its lines overlap the definition's) or only in its file."""
    if hit.project != project or hit.path != gold["path"]:
        return False
    return not whole or (hit.start_line <= gold["end"] and hit.end_line >= gold["start"])


def first_rank(hits: list[SearchHit], question: dict[str, Any], whole: bool) -> int | None:
    for hit in hits:
        if any(finds(hit, gold, question["project"], whole) for gold in question["gold"]):
            return hit.rank
    return None


def ask(catalog: Catalog, views: GenerationViews, question: dict[str, Any]) -> Scored:
    result = search(Reader(catalog, views), question["question"], top_k=TOP_K)
    hits = list(result.hits)
    return Scored(
        question,
        first_rank(hits, question, whole=True),
        first_rank(hits, question, whole=False),
        len(result.model_dump_json(exclude_none=True)),
        [h.citation for h in hits[:3]],
    )


def summary(scored: list[Scored]) -> dict[str, float]:
    n = len(scored)
    if not n:
        return {"n": 0}
    return {
        "n": n,
        "top1": sum(s.rank == 1 for s in scored) / n,
        "top5": sum(s.rank is not None and s.rank <= 5 for s in scored) / n,
        "mrr10": sum(1 / s.rank for s in scored if s.rank is not None and s.rank <= TOP_K) / n,
        "file_top5": sum(s.file_rank is not None and s.file_rank <= 5 for s in scored) / n,
        "median_chars": statistics.median(s.characters for s in scored),
    }


def groups(scored: list[Scored]) -> dict[str, list[Scored]]:
    by: dict[str, list[Scored]] = defaultdict(list)
    for s in scored:
        q = s.question
        by["all"].append(s)
        by[f"split={q['split']}"].append(s)
        by[f"kind={q['kind']}"].append(s)
        by[f"project={q['project']}"].append(s)
    return dict(sorted(by.items()))


def print_table(scored: list[Scored]) -> None:
    print(f"{'group':24} {'n':>4} {'top1':>6} {'top5':>6} {'mrr10':>6} {'file5':>6} {'chars':>7}")
    for name, members in groups(scored).items():
        s = summary(members)
        print(
            f"{name:24} {s['n']:>4} {s['top1']:>6.3f} {s['top5']:>6.3f} {s['mrr10']:>6.3f} {s['file_top5']:>6.3f}"
            f" {s['median_chars']:>7.0f}"
        )


def print_misses(scored: list[Scored], most: int) -> None:
    misses = [s for s in scored if s.rank is None or s.rank > 5][:most]
    for s in misses:
        q = s.question
        gold = ", ".join(f"{g['path']}:{g['start']}-{g['end']} {g['symbol']}" for g in q["gold"])
        print(f"\n[{q['id']}] {q['question']}\n  gold: {gold}  (rank {s.rank}, file {s.file_rank})")
        for citation in s.top:
            print(f"  got: {citation}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="dev", choices=["dev", "heldout", "all"])
    parser.add_argument("--show-misses", type=int, default=0, metavar="N")
    parser.add_argument("--fresh", action="store_true", help="index the projects again")
    parser.add_argument("--json", type=Path, help="also write every question's ranks here")
    parser.add_argument("--projects", type=Path, default=HERE / "projects.json", help="project -> NAME==VERSION")
    parser.add_argument("--index-only", action="store_true", help="fetch and index, ask nothing")
    args = parser.parse_args(argv)
    specs = json.loads(args.projects.read_text())
    cache = bench_home() / "code-search" / "+".join(sorted(specs.values()))
    catalog = open_index(fetch_projects(specs, cache), cache, args.fresh)
    if args.index_only:
        catalog.close()
        return
    lines = (HERE / "questions.jsonl").read_text().splitlines()
    questions = [q for q in map(json.loads, lines) if args.split in ("all", q["split"])]
    views = GenerationViews(RetrievalSettings())
    scored = [ask(catalog, views, q) for q in sorted(questions, key=lambda q: q["id"])]
    print_table(scored)
    print_misses(scored, args.show_misses)
    if args.json:
        ranks = {s.question["id"]: {"rank": s.rank, "file_rank": s.file_rank} for s in scored}
        args.json.write_text(json.dumps(ranks, indent=1, sort_keys=True))
    catalog.close()


if __name__ == "__main__":
    main()
