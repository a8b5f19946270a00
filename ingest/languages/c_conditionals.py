"""One readable text of a C file whose conditional directives split its code: each conditional with a branch that
does not balance its brackets kept at its first branch, rows kept.

tree-sitter reads C as written, before the preprocessor: an `#ifdef` that splits a statement (`if (a ||` in one
branch, `if (` in the other, one closing line after `#endif`) leaves the rest of the file as an error, and every
definition after it is lost. The preprocessor keeps one branch; here a conditional keeps its first branch (the
`#else` of an `#if 0`) only where one of its branches opens or closes a bracket the others do not: a conditional whose
branches each balance parses as written, and all of its branches stay (the `#else` of `#ifdef _WIN32` is the code
that runs elsewhere). An `#if 0` branch is never code."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_DIRECTIVE = re.compile(rb"^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)$")
_NEVER = re.compile(rb"^\s*0\s*(?:/[/*].*)?$")  # `#if 0`, maybe with a comment
# What brackets in a line do not count: strings, characters, comments.
_NOT_CODE = re.compile(rb'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|//.*$|/\*.*?\*/')
_OPEN, _CLOSE = b"({[", b")}]"


@dataclass
class _Conditional:
    directives: list[int] = field(default_factory=list)  # rows of `#if`, `#elif`, `#else`, `#endif` and their `\` lines
    branches: list[list[int]] = field(default_factory=list)  # the rows of each branch, nested conditionals' included
    never: bool = False  # `#if 0`


def first_branches(source: bytes) -> bytes:
    """`source` with the split conditionals kept at their first branch (their directives and other branches left
    empty, as the code under `#if 0`)."""
    lines = source.split(b"\n")
    kept = [True] * len(lines)
    for conditional in _conditionals(lines):  # innermost first: an outer one is judged on what its inner ones keep
        if conditional.never and conditional.branches:
            _drop(kept, conditional.branches[0])
        split = any(_brackets(lines, rows, kept) != [0, 0, 0] for rows in conditional.branches)
        if split:
            _drop(kept, conditional.directives)
            taken = 1 if conditional.never else 0
            for rows in conditional.branches[:taken] + conditional.branches[taken + 1 :]:
                _drop(kept, rows)
    return b"\n".join(line if keep else b"" for line, keep in zip(lines, kept, strict=True))


def _conditionals(lines: list[bytes]) -> list[_Conditional]:
    """Every conditional of the file, each closed one listed before the one that holds it."""
    done: list[_Conditional] = []
    open_: list[_Conditional] = []
    row = 0
    while row < len(lines):
        directive = _DIRECTIVE.match(lines[row])
        rows = [row]
        while lines[rows[-1]].rstrip().endswith(b"\\") and rows[-1] + 1 < len(lines):
            rows.append(rows[-1] + 1)
        if directive is None:
            for conditional in open_:
                conditional.branches[-1].extend(rows)
        else:
            _step(directive.group(1), directive.group(2), rows, open_, done)
        row = rows[-1] + 1
    return done


def _step(word: bytes, rest: bytes, rows: list[int], open_: list[_Conditional], done: list[_Conditional]) -> None:
    if word in (b"if", b"ifdef", b"ifndef"):
        for outer in open_:
            outer.branches[-1].extend(rows)
        open_.append(_Conditional(list(rows), [[]], never=word == b"if" and bool(_NEVER.match(rest))))
        return
    if not open_:
        return  # an `#else` or `#endif` without its `#if` (a fragment): nothing to balance
    current = open_[-1]
    current.directives.extend(rows)
    for outer in open_[:-1]:
        outer.branches[-1].extend(rows)
    if word == b"endif":
        done.append(open_.pop())
    else:
        current.branches.append([])


def _brackets(lines: list[bytes], rows: list[int], kept: list[bool]) -> list[int]:
    """Each kind of bracket's opened minus closed over the kept rows: [0, 0, 0] when they balance."""
    counts = [0, 0, 0]
    for row in rows:
        if kept[row]:
            code = _NOT_CODE.sub(b"", lines[row])
            for kind in range(3):
                counts[kind] += code.count(_OPEN[kind : kind + 1]) - code.count(_CLOSE[kind : kind + 1])
    return counts


def _drop(kept: list[bool], rows: list[int]) -> None:
    for row in rows:
        kept[row] = False
