"""Routing accuracy per query type on the labelled routing sets in tests/, as a markdown table.

The sets: `routing_cases` (written with the first rules), `routing_dev`, `routing_dev_more` and `routing_dev_extra`
(each written blind to the rules, then used to broaden them), and `routing_heldout` (written blind, never used to
change a rule: the figure for questions the rules were not written from).

Usage: python bench/routing.py [--misrouted SET]   (misrouted queries of a development set; never of the held-out)
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.routing_sets import DEVELOPMENT, HELDOUT
from trident.retrieval.router import QueryType, route


def accuracy(cases: list[tuple[str, str]]) -> tuple[Counter[str], Counter[str]]:
    """Per type: how many queries, how many routed to their label."""
    total: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for query, label in cases:
        total[label] += 1
        right[label] += route(query).query_type == label
    return total, right


def table(sets: dict[str, list[tuple[str, str]]]) -> str:
    measured = {name: accuracy(cases) for name, cases in sets.items()}
    lines = ["| type | " + " | ".join(sets) + " |", "|---|" + "---:|" * len(sets)]
    for kind in [t.value for t in QueryType]:
        cells = [f"{right[kind]}/{total[kind]}" for total, right in measured.values()]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    overall = [f"**{sum(r.values()) / sum(t.values()):.3f}** ({sum(t.values())})" for t, r in measured.values()]
    lines.append("| all | " + " | ".join(overall) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misrouted", choices=sorted(DEVELOPMENT), help="List a development set's misrouted queries")
    args = parser.parse_args()
    print(table({**DEVELOPMENT, "heldout": HELDOUT}))
    if args.misrouted:
        for query, label in DEVELOPMENT[args.misrouted]:
            got = route(query).query_type.value
            if got != label:
                print(f"{label:>14} <- {got:<14} {query!r}")


if __name__ == "__main__":
    main()
