"""Rust's standard macros whose arguments are expressions, read as the calls they hold.

Tree-sitter keeps a macro's arguments as tokens, so a call inside `assert_eq!(levenshtein("a", "b"), 1)`,
`println!("{}", v.len())` or `write!(f, "{}", self.major)` was no call — and most calls a test makes are inside an
assertion. The name and `!` of such an invocation are blanked before parsing (`assert_eq!(f(a), 1)` is read as the
tuple `(f(a), 1)`, `assert!(ok(x))` as `(ok(x))`: no call of the macro, the calls it holds), the text keeping its
length; a macro whose arguments are not expressions (`matches!`, `vec![...]`, the crate's own `macro_rules!`) stays
as it is."""

from __future__ import annotations

import re

EXPRESSION_MACROS = frozenset(
    {
        "assert",
        "assert_eq",
        "assert_ne",
        "debug_assert",
        "debug_assert_eq",
        "debug_assert_ne",
        "dbg",
        "eprint",
        "eprintln",
        "format",
        "format_args",
        "panic",
        "print",
        "println",
        "todo",
        "unimplemented",
        "unreachable",
        "write",
        "writeln",
    }
)
_INVOCATION = re.compile(rb"(?<![\w:])(?:" + "|".join(sorted(EXPRESSION_MACROS)).encode() + rb")!(?=\s*\()")


def expression_macros(source: bytes) -> bytes:
    """The source with each standard expression macro's name and `!` blanked (same length, same rows)."""
    return _INVOCATION.sub(lambda m: b" " * len(m.group(0)), source)
