"""How the binders describe real code: the share of call sites bound by scope and type, and what binding costs.

Usage: python bench/binding.py FOLDER [FOLDER ...] [--limit N] [--json]
    e.g. python bench/binding.py /usr/share/gocode/src /usr/lib/node_modules/npm/lib

Every source file Trident has a grammar for is parsed twice, with its language's binder and with the names alone,
and the calls are counted by how the binder names their targets (`exact`/`inferred` members and qualified names,
`name` guesses; calls it drops as builtins or standard library are the difference to the names alone). This is
coverage, not accuracy: `bench/callgraph.py` checks Python's edges against a type-aware reference. CPU time, not
wall time, so a busy machine reads the same. Nothing here runs inside the test suite.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from unittest import mock

from trident.ingest import code
from trident.ingest.languages import LanguageSpec, spec_for
from trident.ingest.walker import SourceFile, walk

MAX_FILE_BYTES = 1_000_000


def _unbound(language: str) -> LanguageSpec:
    return replace(spec_for(language), bind=None)


def _parse(source: SourceFile, bound: bool) -> tuple[float, code.Extraction]:
    language = source.language or ""
    started = time.process_time()
    if bound:
        extraction = code.parse_code("bench", source.rel, source.text, language, source.rel)
    else:
        with mock.patch.object(code, "spec_for", _unbound):
            extraction = code.parse_code("bench", source.rel, source.text, language, source.rel)
    return time.process_time() - started, extraction


def measure(folders: list[Path], limit: int) -> dict[str, dict[str, object]]:
    """Per language: files, chunks, calls by form and resolution, and CPU seconds per 1,000 chunks both ways."""
    seconds: dict[str, Counter[str]] = defaultdict(Counter)
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    sizes: dict[str, Counter[str]] = defaultdict(Counter)
    for folder in folders:
        files = [f for f in walk(folder, MAX_FILE_BYTES).files if f.language in code.SUPPORTED_LANGUAGES]
        for source in sorted(files, key=lambda f: f.rel)[:limit]:
            language = source.language or ""
            with_binder, extraction = _parse(source, bound=True)
            names_only, plain = _parse(source, bound=False)
            seconds[language].update({"bound": with_binder, "names": names_only})
            sizes[language].update({"files": 1, "chunks": len(extraction.chunks)})
            sizes[language]["name-linked calls"] += sum(r.type == "CALLS" for r in plain.references)
            for ref in extraction.references:
                if ref.type == "CALLS":
                    forms[language][f"{ref.form}/{ref.resolution}"] += 1
    report: dict[str, dict[str, object]] = {}
    for language, counts in sorted(sizes.items()):
        calls = sum(forms[language].values())
        per_1k = 1000 / max(counts["chunks"], 1)
        report[language] = {
            **counts,
            "bound calls": calls,
            "share": {k: round(v / max(calls, 1), 3) for k, v in forms[language].most_common()},
            "cpu s per 1k chunks, binder": round(seconds[language]["bound"] * per_1k, 3),
            "cpu s per 1k chunks, names only": round(seconds[language]["names"] * per_1k, 3),
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, default=2_000, help="files per folder (default 2,000)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    missing = [str(f) for f in args.folders if not f.is_dir()]
    if missing:
        parser.error(f"not a folder: {', '.join(missing)} (give folders of source code to parse)")
    if args.limit < 1:
        parser.error(f"--limit must be at least 1, got {args.limit}")
    report = measure(args.folders, args.limit)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for language, row in report.items():
        print(f"{language}: {row['files']} files, {row['chunks']} chunks, {row['bound calls']} calls bound")
        print("  " + ", ".join(f"{k} {v:.1%}" for k, v in row["share"].items()))  # type: ignore[union-attr]
        print(
            f"  CPU s per 1,000 chunks: {row['cpu s per 1k chunks, binder']} with the binder, "
            f"{row['cpu s per 1k chunks, names only']} names only"
        )


if __name__ == "__main__":
    main()
