"""Crash sweep on a larger corpus: SIGKILL the indexer at every named crash point (several passes of each), then
check that the index is whole right after the crash, that nothing published before it was lost, and that the
next run completes it to exactly what an uninterrupted run builds.

The corpus is the three sample projects plus six packages of the Python standard library (about 3,300 chunks),
copied to a work folder. Two runs are swept: the first indexing of all nine projects, and a re-index after edits
(a file changed, one deleted, one added, one renamed). Each project is one writer block, like one
`trident index` run. Vectors are the real model's, memoised by text in the work folder after the first
(reference) run, so the sweep spends its time on indexing rather than embedding.

Usage:
    python bench/crash_sweep.py [--positions 0,0.5,1] [--workers 2] [--work ~/.cache/trident/crash-sweep]
                                [--points publish.saved,write.graph] [--scenarios first,edit]
Prints one line per crash and a summary; docs/reliability.md quotes a run. `--points` and `--scenarios` make a
short sweep (the reference runs are still built in full).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.test_crash import (  # noqa: E402
    CHILD,
    PROJECT_END,
    MemoEmbedder,
    Snapshot,
    committed_projects,
    index_projects,
    snapshot,
    tool_answers,
)
from trident.embedding.embedder import open_embedder  # noqa: E402
from trident.embedding.model_settings import ModelSettings  # noqa: E402
from trident.store.crashpoints import CRASH_AT, CRASH_TRACE  # noqa: E402

STDLIB = Path(sysconfig.get_paths()["stdlib"])
SAMPLES = ("billing", "auth", "storefront")
STDLIB_PACKAGES = ("json", "logging", "http", "concurrent", "email", "asyncio")
EDITED_NOTE = "\n\n# edited for the crash sweep: a comment that changes the file's hash\n"


@dataclass(frozen=True)
class Scenario:
    """One swept run: the index it starts from, the folders it indexes, and what an uninterrupted run leaves."""

    name: str
    start: Path | None  # an index to copy before the run (None: from nothing)
    folders: list[Path]
    stages: list[Snapshot]  # after 0, 1, ... projects of this run
    trace: list[tuple[str, int]]
    answers: dict[str, object]  # what the tools answer once the run is complete

    def passes(self, point: str) -> int:
        return max(n for name, n in self.trace if name == point)

    def committed_at(self, point: str, nth: int) -> int:
        return committed_projects(self.trace, point, nth)


@dataclass(frozen=True)
class Result:
    scenario: str
    point: str
    nth: int
    killed: bool
    committed: int
    whole_after_crash: bool
    nothing_lost: bool
    repaired: bool
    tools: bool
    leftovers: int
    seconds: float

    @property
    def ok(self) -> bool:
        return self.killed and self.whole_after_crash and self.nothing_lost and self.repaired and self.tools


def copy_corpus(work: Path) -> Path:
    src = work / "src"
    if src.exists():
        shutil.rmtree(src)
    for name in SAMPLES:
        shutil.copytree(REPO / "examples" / name, src / name)
    for name in STDLIB_PACKAGES:
        shutil.copytree(STDLIB / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    return src


def edit_corpus(src: Path) -> None:
    """A changed file, a deleted one, an added one and a renamed one, in four projects."""
    gateway = src / "billing" / "billing" / "gateway.py"
    gateway.write_text(gateway.read_text() + EDITED_NOTE)
    next(p for p in sorted((src / "auth").rglob("*.md"))).unlink()
    (src / "email" / "sweep_added.py").write_text('def sweep_added():\n    """Added by the crash sweep."""\n')
    (src / "json" / "tool.py").rename(src / "json" / "tool_renamed.py")


def child(index_dir: Path, memo: Path, folders: list[Path], env: dict[str, str]) -> int:
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(index_dir), str(memo), *map(str, folders)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), **env},
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if result.returncode not in (0, -signal.SIGKILL):
        raise RuntimeError(result.stderr[-3000:])
    return result.returncode


def trace_of(work: Path, name: str, start: Path | None, memo: Path, folders: list[Path]) -> list[tuple[str, int]]:
    index_dir = work / f"traced-{name}"
    shutil.rmtree(index_dir, ignore_errors=True)
    if start is not None:
        shutil.copytree(start, index_dir)
    trace_file = work / f"trace-{name}.txt"
    trace_file.unlink(missing_ok=True)
    child(index_dir, memo, folders, {CRASH_TRACE: str(trace_file)})
    shutil.rmtree(index_dir)
    return [(n, int(c)) for n, _, c in (line.rpartition(":") for line in trace_file.read_text().split())]


def build_references(work: Path, src: Path) -> tuple[Path, list[Scenario]]:
    memo_path = work / "memo.npz"
    if memo_path.exists():
        memo = MemoEmbedder.load(memo_path)
        memo._real = None
    else:
        real = open_embedder(ModelSettings())
        memo = MemoEmbedder(real.model_name, real.dim, {}, real)
    folders = [src / name for name in (*SAMPLES, *STDLIB_PACKAGES)]
    first = work / "reference-first"
    shutil.rmtree(first, ignore_errors=True)
    started = time.perf_counter()
    first_stages = [snapshot(first, memo)]
    for folder in folders:
        index_projects(first, memo, [folder])
        first_stages.append(snapshot(first, memo))
    print(f"reference index: {len(first_stages[-1].lexical)} chunks in {time.perf_counter() - started:.0f}s")
    complete = work / "reference-complete"
    shutil.rmtree(complete, ignore_errors=True)
    shutil.copytree(first, complete)
    first_answers = tool_answers(first, memo)
    edit_corpus(src)
    edited = work / "reference-edited"
    shutil.rmtree(edited, ignore_errors=True)
    shutil.copytree(first, edited)
    edit_stages = [snapshot(edited, memo)]
    for folder in folders:
        index_projects(edited, memo, [folder])
        edit_stages.append(snapshot(edited, memo))
    scratch = work / "reference-edited-from-scratch"
    shutil.rmtree(scratch, ignore_errors=True)
    index_projects(scratch, memo, folders)
    same = snapshot(scratch, memo) == edit_stages[-1]
    edit_answers = tool_answers(edited, memo)
    print(f"incremental re-index after edits equals a clean index of the edited files: {same}")
    memo.save(memo_path)
    shutil.rmtree(src)
    src = copy_corpus(work)  # the sweep of the first run indexes the unedited files
    first_trace = trace_of(work, "first", None, memo_path, folders)
    scenarios = [Scenario("first", None, folders, first_stages, first_trace, first_answers)]
    edit_src = work / "src-edited"
    shutil.rmtree(edit_src, ignore_errors=True)
    shutil.copytree(src, edit_src)
    edit_corpus(edit_src)
    edit_folders = [edit_src / folder.name for folder in folders]
    edit_trace = trace_of(work, "edit", complete, memo_path, edit_folders)
    scenarios.append(Scenario("edit", complete, edit_folders, edit_stages, edit_trace, edit_answers))
    return memo_path, scenarios


def sweep_one(work: Path, memo_path: Path, scenario: Scenario, point: str, nth: int) -> Result:
    started = time.perf_counter()
    index_dir = work / "crashes" / f"{scenario.name}-{point}-{nth}"
    shutil.rmtree(index_dir, ignore_errors=True)
    if scenario.start is not None:
        shutil.copytree(scenario.start, index_dir)
    code = child(index_dir, memo_path, scenario.folders, {CRASH_AT: f"{point}:{nth}"})
    committed = scenario.committed_at(point, nth)
    if code != -signal.SIGKILL:
        return Result(scenario.name, point, nth, False, committed, False, False, False, False, 0, 0.0)
    memo = MemoEmbedder.load(memo_path)
    after = snapshot(index_dir, memo)
    nothing_lost = after.committed() == scenario.stages[committed].committed()
    index_projects(index_dir, memo, scenario.folders)
    repaired = snapshot(index_dir, memo) == scenario.stages[-1]
    tools = tool_answers(index_dir, memo) == scenario.answers
    leftovers = len(list((index_dir / "generations").iterdir())) - 1
    shutil.rmtree(index_dir)
    return Result(
        scenario.name,
        point,
        nth,
        True,
        committed,
        after.engines_agree(),
        nothing_lost,
        repaired,
        tools,
        leftovers,
        time.perf_counter() - started,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", default="0,0.5,1", help="which passes of each point (0 first, 1 last)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--work", type=Path, default=Path.home() / ".cache" / "trident" / "crash-sweep")
    parser.add_argument("--points", default="", help="only these crash points, comma-separated (default: all)")
    parser.add_argument("--scenarios", default="first,edit", help="which runs to sweep: first, edit or both")
    args = parser.parse_args()
    points = {p for p in args.points.split(",") if p}
    wanted = {s for s in args.scenarios.split(",") if s}
    if not wanted <= {"first", "edit"}:
        parser.error(f"--scenarios: unknown {sorted(wanted - {'first', 'edit'})}; give first, edit or both")
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    src = copy_corpus(work)
    memo_path, scenarios = build_references(work, src)
    positions = [float(p) for p in args.positions.split(",")]
    jobs = sorted(
        {
            (s.name, point, 1 + round(where * (s.passes(point) - 1)))
            for s in scenarios
            if s.name in wanted
            for point in dict.fromkeys(name for name, _ in s.trace if name != PROJECT_END)
            if not points or point in points
            for where in positions
        }
    )
    if not jobs:
        parser.error(f"--points: none of {sorted(points)} is passed by the swept runs")
    by_name = {s.name: s for s in scenarios}
    print(f"{len(jobs)} crashes over {len({p for _, p, _ in jobs})} crash points, {args.workers} at a time")
    started = time.perf_counter()
    results: list[Result] = []
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(sweep_one, work, memo_path, by_name[s], p, n) for s, p, n in jobs]
        for future in futures:
            r = future.result()
            results.append(r)
            print(
                f"{'ok  ' if r.ok else 'FAIL'} {r.scenario:5} {r.point:24} pass {r.nth:4}  committed {r.committed} "
                f"whole={r.whole_after_crash} kept={r.nothing_lost} repaired={r.repaired} tools={r.tools} "
                f"leftovers={r.leftovers} {r.seconds:.1f}s",
                flush=True,
            )
    failed = [r for r in results if not r.ok]
    print(
        f"\n{len(results) - len(failed)}/{len(results)} crashes recovered exactly "
        f"({len({r.point for r in results})} points, scenarios {sorted({r.scenario for r in results})}) "
        f"in {time.perf_counter() - started:.0f}s"
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
