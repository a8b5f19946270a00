"""Every call edge of real packages, written down so that two commits' bindings can be compared call site by call site.

Usage:
    python bench/edge_diff.py dump OUT [NAME==VER ...] [--derived]   # index each package (stand-in embedder), write
                                                                      # its edges (--derived: with dispatch and
                                                                      # constructor edges, as walks read them)
    python bench/edge_diff.py diff BEFORE AFTER [--all]  # edges gone, edges whose resolution changed, edges new

A dump line is `package type source target resolution` for every `CALLS`, `REFERENCES` and `DECORATED_BY` relation
of the package's own index, as a server reads them (derived dispatch, constructor and wrapper edges left out unless
asked for: they follow from these, and `--derived` shows what a change to how they are derived does). Run
`dump` on the commit before a binder change and on the change, then `diff`: each edge gone or new is one to read in
the source before the change lands. The packages are fetched from the registry as `bench/callgraph.py` fetches them.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from callgraph import fetch
from corpus import bench_home

from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.retrieval.call_chains import CALL_TYPES
from trident.retrieval.relation_index import RelationIndex
from trident.store.catalog import Catalog
from trident.store.schema import RelationType, Resolution

PACKAGES = (
    "click==8.5.1",
    "jinja2==3.1.6",
    "more-itertools==11.2.1",
    "rich==15.0.0",
    "requests==2.34.2",
    "attrs==26.1.0",
    "pygments==2.21.0",
    "httpx==0.28.1",
    "httpcore==1.0.9",
)
MAX_FILE_BYTES = 2_000_000
Edge = tuple[str, str, str, str]  # package, type, source, target
DUMPED = CALL_TYPES | {RelationType.DECORATED_BY.value}  # how control reaches a function, and what wraps it


def dump(out: Path, specs: list[str], derived: bool = False) -> None:
    resolutions = list(Resolution)
    with out.open("w", encoding="utf-8") as written:
        for spec in specs:
            package = fetch(spec, bench_home() / "executed-calls")
            with tempfile.TemporaryDirectory() as tmp:
                catalog = Catalog(Path(tmp) / "index", "default", HashEmbedder())
                with catalog.writer() as writer:
                    index_folder(writer, package.root, package.project, max_file_bytes=MAX_FILE_BYTES)
                table = catalog.graph.relation_table(catalog.tenant)
                index = RelationIndex.from_table(table, catalog.tenant, {}, execution=derived)
                for i in range(len(index)):
                    kind = index.types[index.type_code[i]]
                    if kind in DUMPED:
                        source, target = index.entity_ids[index.source[i]], index.entity_ids[index.target[i]]
                        resolution = resolutions[index.resolution_rank[i]].value
                        print(spec, kind, source, target, resolution, file=written)
                catalog.close()
            print(f"{spec}: dumped", file=sys.stderr)


def _read(path: Path) -> dict[Edge, str]:
    edges: dict[Edge, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        spec, kind, source, target, resolution = line.split()
        edges[(spec, kind, source, target)] = resolution
    return edges


def _short(edge: Edge) -> str:
    spec, kind, source, target = edge
    return f"{spec.split('==')[0]} {kind} {source.split(':', 2)[2]} -> {target.split(':', 2)[2]}"


def diff(before_path: Path, after_path: Path, show_all: bool) -> None:
    before, after = _read(before_path), _read(after_path)
    gone, new = sorted(set(before) - set(after)), sorted(set(after) - set(before))
    changed = sorted(e for e in set(before) & set(after) if before[e] != after[e])
    print(f"gone {len(gone)}")
    for e in gone:
        print(f"  - {_short(e)} {before[e]}")
    print(f"changed {len(changed)}")
    for e in changed:
        print(f"  ~ {_short(e)} {before[e]} -> {after[e]}")
    print(f"new {len(new)}: {dict(Counter(after[e] for e in new))} {dict(Counter(e[0] for e in new))}")
    for e in new if show_all else []:
        print(f"  + {_short(e)} {after[e]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("packages", nargs="*", default=list(PACKAGES))
    dumping.add_argument("--derived", action="store_true", help="also the dispatch and constructor edges derived")
    diffing = commands.add_parser("diff")
    diffing.add_argument("before", type=Path)
    diffing.add_argument("after", type=Path)
    diffing.add_argument("--all", action="store_true", help="list the new edges too")
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.out, args.packages, args.derived)
    else:
        diff(args.before, args.after, args.all)


if __name__ == "__main__":
    main()
