"""C++ declarations a library writes with its own annotation macros, which the grammar cannot read without their
definitions: `JSONCPP_NORETURN void fail();`, `JSONCPP_DEPRECATED("use X") Reader();`, `T as() const
JSONCPP_TEMPLATE_DELETE;`. One such macro inside a class turns the whole class into a syntax error (jsoncpp's `Value`
was no class). Where a file does not parse, it is also read with them blanked (the text keeps its length and rows),
and the reading with fewer errors is kept (`trident.ingest.code._parsed`).

A macro is an all-capitals word of two parts or more (`JSON_API`, `LEVELDB_EXPORT`): before a declaration at the
start of a line, followed by a keyword or a type's word (the bare form) or, with arguments, by a name being declared;
after a function's parameter list and qualifiers, before `;`, `{` or `=` (the bare form only: `while (x) RUN(y);` is a
call)."""

from __future__ import annotations

import re

from trident.ingest.languages.c_conditionals import first_branches

_MACRO = rb"[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]"  # `JSON_API`, `GUARDED_BY`: a `_` in it (not `DWORD`)
_ARGUMENTS = rb"\((?:[^()]|\([^()]*\))*\)"
_WORDS = (
    rb"(?:void|bool|char|int|long|short|unsigned|signed|float|double|auto|static|virtual|inline|explicit|extern|const|"
    rb"constexpr|friend|template|typename|class|struct|enum|union|using|typedef)\b"
)
_NAME = rb"(?:operator[^\s(]*|~?[A-Za-z_][\w:]*)"
_TYPE = rb"[A-Za-z_][\w:]*(?:<[^;{}()\n]*>)?"
_TYPE_THEN_NAME = _TYPE + rb"[ \t*&]+" + _NAME + rb"[ \t]*[(;=\[]"  # `String name(`, `OStream& operator<<(`
_CONSTRUCTOR = rb"~?[A-Za-z_]\w*[ \t]*\("
# (the text kept before the macro, the macro): `JSONCPP_NORETURN void f();`
_LEADING = re.compile(rb"^([ \t]*)(" + _MACRO + rb")(?=[ \t]+(?:" + _WORDS + b"|" + _TYPE_THEN_NAME + rb"))", re.M)
# `JSONCPP_DEPRECATED("use X") Reader();`, the declaration on the next line too
_LEADING_CALLED = re.compile(
    rb"^([ \t]*)("
    + _MACRO
    + rb"[ \t]*"
    + _ARGUMENTS
    + rb")(?=\s+(?:"
    + _WORDS
    + b"|"
    + _TYPE_THEN_NAME
    + b"|"
    + _CONSTRUCTOR
    + b"))",
    re.M,
)
# `String JSON_API writeString(`: between the return type and the name
_BETWEEN = re.compile(rb"(\b(\w+)(?:<[^;{}()\n]*>)?[ \t*&]+)(" + _MACRO + rb")(?=[ \t*&]+" + _NAME + rb"[ \t]*\()")
# `T as() const JSONCPP_TEMPLATE_DELETE;`, `void f() EXCLUSIVE_LOCKS_REQUIRED(mu_);`
_TRAILING = re.compile(
    rb"(\)\s*(?:(?:const|noexcept|override|final|volatile)\b\s*|&&?\s*)*)("
    + _MACRO
    + rb"(?:[ \t]*"
    + _ARGUMENTS
    + rb")?)(?=\s*[;{=])"
)
# `size_t usage_ GUARDED_BY(mutex_);`
_FIELD = re.compile(rb"(\b(\w+)[ \t]+)(" + _MACRO + rb"[ \t]*" + _ARGUMENTS + rb")(?=[ \t]*;)")
# Words a statement begins with: `return FOO(x);`, `else RUN_ALL(y);` are calls
_STATEMENT_WORDS = frozenset(
    {b"return", b"else", b"do", b"case", b"goto", b"throw", b"new", b"delete", b"co_return", b"co_yield", b"co_await"}
)
_CONTROL = re.compile(rb"\b(?:if|while|for|switch|catch)\s*$")


def without_annotation_macros(source: bytes) -> bytes:
    """The source with annotation macros blanked (same length, same rows)."""
    for pattern in (_LEADING_CALLED, _LEADING):
        source = pattern.sub(lambda m: m.group(1) + _blank(m.group(2)), source)
    for pattern in (_BETWEEN, _FIELD):
        source = pattern.sub(
            lambda m: m.group(0) if m.group(2) in _STATEMENT_WORDS else m.group(1) + _blank(m.group(3)), source
        )
    return _TRAILING.sub(lambda m: _after_declarator(m, source), source)


def _after_declarator(match: re.Match[bytes], source: bytes) -> bytes:
    """A macro after a parameter list, blanked unless the list is a condition's (`if (x) RUN(y);` is a call)."""
    opened = _opening(source, match.start())
    if opened < 0 or _CONTROL.search(source, max(0, opened - 16), opened):
        return match.group(0)
    return match.group(1) + _blank(match.group(2))


def _opening(source: bytes, close: int) -> int:
    """Where the `(` the `)` at `close` closes is (-1 when none is)."""
    depth = 0
    for at in range(close, -1, -1):
        depth += {41: 1, 40: -1}.get(source[at], 0)  # `)`, `(`
        if depth == 0:
            return at
    return -1


def _blank(text: bytes) -> bytes:
    """Spaces for the text, its line breaks kept (the rows stay)."""
    return bytes(c if c == 10 else 32 for c in text)


def readings(source: bytes) -> list[bytes]:
    """The other texts a C++ file that does not parse is read as: its annotation macros blanked, and that with each
    unbalanced conditional kept at its first branch (as C's)."""
    blanked = without_annotation_macros(source)
    return [blanked, first_branches(blanked)]
