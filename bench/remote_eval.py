"""`trident eval` through the object-storage backend, as two machines would run it (#18).

Starts a SeaweedFS on loopback, then runs the `trident eval DATASET --json` command three times, each in a process
of its own with an empty eval cache folder (`TRIDENT_EVAL_CACHE`): machine A with `TRIDENT_STORAGE` set (finds no
published index, indexes the dataset and publishes it to the bucket), machine B with `TRIDENT_STORAGE` set (pulls A's
publication and scores it without indexing), and, with `--local`, a local run without `TRIDENT_STORAGE` (indexes into
its own folder). Prints each run's time and headline figures, and whether the reports are identical (their metrics,
per query type and per path, and every per-query figure the report holds).

Usage:
    python bench/remote_eval.py ../shared/eval/scifact [--local] [--limit N] [--json FILE]
Exits 1 when the reports differ.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.s3_server import storage_env, weed_server  # the repository root first: `tests` is not installed

CLI = [sys.executable, "-m", "trident.cli.main"]
VOLATILE = {"seconds", "elapsed_s", "latency_ms", "timings_ms", "index_seconds", "cache"}


def run_eval(dataset: Path, root: Path, name: str, extra: dict[str, str], limit: int | None) -> dict[str, Any]:
    """One machine: its own TRIDENT_HOME and empty eval cache, the command in a process of its own."""
    env = {**os.environ, **extra, "TRIDENT_HOME": str(root / name / "home")}
    env["TRIDENT_EVAL_CACHE"] = str(root / name / "eval-cache")
    command = [*CLI, "eval", str(dataset), "--json"] + ([] if limit is None else ["--limit", str(limit)])
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"machine {name}: `trident eval` exited {done.returncode}\n{done.stderr[-4000:]}")
    return {"seconds": round(seconds, 1), "report": json.loads(done.stdout)}


def comparable(value: Any) -> Any:
    """The report without what differs between runs of the same ranking (times, cache paths)."""
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [comparable(v) for v in value]
    return value


def headline(report: dict[str, Any]) -> dict[str, Any]:
    metrics = report.get("metrics", report)
    return {k: metrics[k] for k in ("ndcg@10", "mrr@10", "recall@2", "recall@5") if k in metrics}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--local", action="store_true", help="also a local run (indexes the dataset once more)")
    parser.add_argument("--limit", type=int, help="only the first N judged queries")
    parser.add_argument("--json", type=Path, help="write the results here too")
    args = parser.parse_args()
    results: dict[str, Any] = {"dataset": str(args.dataset)}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with weed_server(root / "weed", prefix="bench") as settings:
            env = storage_env(settings)
            for name in ("A", "B"):
                results[name] = run_eval(args.dataset, root, name, env, args.limit)
                print(f"machine {name}: {results[name]['seconds']} s {headline(results[name]['report'])}", flush=True)
        if args.local:
            results["local"] = run_eval(args.dataset, root, "local", {}, args.limit)
            print(f"local: {results['local']['seconds']} s {headline(results['local']['report'])}", flush=True)
    runs = [results[n]["report"] for n in ("A", "B", "local") if n in results]
    same = all(comparable(r) == comparable(runs[0]) for r in runs[1:])
    results["identical"] = same
    print("reports identical" if same else "REPORTS DIFFER")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    raise SystemExit(0 if same else 1)


if __name__ == "__main__":
    main()
