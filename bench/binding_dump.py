"""Every binding the language bench's real projects get, written down so that two commits' binders can be compared
call site by call site, without indexing (seconds, where `language_calls.py` takes minutes).

Usage:
    python bench/binding_dump.py dump OUT [--projects NAME ...]   # every project of `language_calls.py` by default
    python bench/binding_dump.py diff BEFORE AFTER                 # bindings gone and bindings new

A dump line is `project path kind row owner target` for each call, base, return type and field type the binder of
each source file of the project gives (`trident.ingest.code.bindings`: what the indexer is handed to finish), in the
file's order. Run `dump` on the commit before a binder change (from a worktree of it) and on the change, then
`diff`: each binding gone or new is one to read in the source before the change lands. Sources come as
`language_calls.py` fetches them (Debian source packages, crates, npm packages), cached under
~/.cache/trident/bench/language-calls/.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from language_calls import LANGUAGE_OF, MAX_FILE_BYTES, PROJECTS, cache_root, source_root

from trident.ingest.code import bindings as bound_in
from trident.ingest.walker import walk


def bindings(name: str, root: Path) -> Iterator[str]:
    """The dump lines of one project: each source file's bindings (the files an index run of the bench reads), files
    in path order."""
    for source in sorted(walk(root, MAX_FILE_BYTES).files, key=lambda f: f.rel):
        bound = bound_in(source.rel, source.text, source.language) if source.language else None
        if bound is None:
            continue
        rel = source.rel
        yield from (f"{name}\t{rel}\tcall\t{c.row + 1}\t{c.caller}\t{c.target}" for c in bound.calls)
        yield from (f"{name}\t{rel}\tbase\t{b.row + 1}\t{b.owner}\t{b.target}" for b in bound.bases)
        yield from (f"{name}\t{rel}\treturn\t{r.row + 1}\t{r.owner}\t{r.target}" for r in bound.returns)
        yield from (f"{name}\t{rel}\thold\t-\t{h.owner}.{h.attribute}\t{h.target}" for h in bound.holds)


def dump(out: Path, names: list[str]) -> None:
    cache = cache_root()
    with out.open("w") as written:
        for name in names:
            lines = list(bindings(name, source_root(name, cache)))
            written.writelines(f"{line}\n" for line in lines)
            print(f"{name}: {len(lines)} bindings", file=sys.stderr)


def diff(before_path: Path, after_path: Path) -> None:
    before = Counter(before_path.read_text().splitlines())
    after = Counter(after_path.read_text().splitlines())
    gone, new = before - after, after - before
    for line in sorted(gone.elements()):
        print(f"- {line}")
    for line in sorted(new.elements()):
        print(f"+ {line}")
    print(
        f"{sum(before.values())} bindings before, {sum(after.values())} after: {sum(gone.values())} gone, "
        f"{sum(new.values())} new",
        file=sys.stderr,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump", help="write every binding of the projects")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("--projects", nargs="+", default=[n for names in PROJECTS.values() for n in names])
    comparing = commands.add_parser("diff", help="the bindings two dumps do not share")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "dump":
        unknown = [p for p in args.projects if p not in LANGUAGE_OF]
        if unknown:
            parser.error(f"unknown project(s) {unknown}; known: {sorted(LANGUAGE_OF)}")
        dump(args.out, args.projects)
    else:
        diff(args.before, args.after)


if __name__ == "__main__":
    main()
