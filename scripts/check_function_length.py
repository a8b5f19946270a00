"""Functions over 60 lines outside tests, each unless it says why: a `# long: <reason>` comment on the line above its
`def` (or above its first decorator). Exit status 1 lists the ones that do not; `make lint` and `make test` run it."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

MAX_LINES = 60
PACKAGES = ("server", "tools", "retrieval", "evaluation", "embedding", "store", "host", "ingest", "cli")
REASON = "# long:"


def long_functions(path: Path, root: Path) -> list[str]:
    """`path:line name (N lines)` for each function over MAX_LINES without a reason above it."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        above = lines[first - 2].strip() if first >= 2 else ""
        if length > MAX_LINES and not above.startswith(REASON):
            found.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return found


def main(root: Path) -> int:
    paths = [path for package in PACKAGES for path in sorted((root / package).rglob("*.py"))]
    found = [f for path in paths for f in long_functions(path, root)]
    for line in found:
        print(line, file=sys.stderr)
    if found:
        print(
            f"{len(found)} function(s) over {MAX_LINES} lines: split along a seam, or say why above the def "
            f"with `{REASON} <reason>`",
            file=sys.stderr,
        )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(Path(__file__).resolve().parent.parent))
