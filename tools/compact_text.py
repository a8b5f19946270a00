"""The text of a compact search hit: the words of a query, the line that sums a chunk up (a definition's signature,
a document's heading) and the few lines of a chunk that hold the most query words, each with its line number."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from trident.store.names.identifiers import split_identifier

SUMMARY_CHARS = 80
LINE_CHARS = 120
MAX_LINES = 3
# A signature written over more lines than this is cut there (its summary is cut at SUMMARY_CHARS anyway).
SIGNATURE_LINES = 8
# Words that say how a question is asked, not what it is about: a line holding them is no nearer the query.
STOP_WORDS = frozenset(
    {"a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how", "i", "if", "in"}
    | {"into", "is", "it", "its", "me", "my", "of", "on", "or", "the", "this", "that", "to", "we", "what", "when"}
    | {"where", "which", "who", "why", "with", "you", "there", "their", "them", "these", "those", "was", "were"}
)
_TOKEN = re.compile(r"[A-Za-z0-9]+")
# What opens a line that only leads into a definition: a decorator, an annotation or a comment.
_LEAD_IN = ("@", "#", "//", "/*", "*", "--")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_COMMENT_MARKS = re.compile(r"^\s*(?:///?|/\*\*?|\*/?|#|--)\s?")
_DOCSTRING_QUOTES = re.compile(r"^[rRbBuU]?(?:\"\"\"|''')|(?:\"\"\"|''')$")


def stem(word: str) -> str:
    """A word without a plural's trailing `s` (`redirects` and `redirect` meet), so either form matches the other."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def words_of(text: str) -> set[str]:
    """The stems of a text's words, identifiers split (`max_redirects`, `TooManyRedirects`), case-folded."""
    return {stem(piece) for token in _TOKEN.findall(text) for piece in split_identifier(token) or [token.lower()]}


def query_words(query: str) -> frozenset[str]:
    """The words of a query that say what it is about: its words, stop words and single letters aside."""
    return frozenset(w for w in words_of(query) if len(w) > 1 and w not in STOP_WORDS)


@dataclass(frozen=True)
class Summary:
    """A chunk's one-line summary, and which of its lines (0-based) the hit shows without them (the summary's, and a
    document's headings, which the hit's name holds)."""

    text: str
    shown: frozenset[int]


def summarize(text: str, code: bool) -> Summary:
    """The line that sums a chunk up, at most SUMMARY_CHARS: for code, the first line of the documentation of the
    definition it opens with (a comment above it, a docstring below), else its signature (continuation lines
    joined); for a document, its first line of text, else its heading."""
    lines = text.splitlines()
    if not code:
        return _prose_summary(lines)
    first = next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith(_LEAD_IN)), None)
    if first is None:
        return Summary("", frozenset())
    end = _signature_end(lines, first)
    documented = _documentation(lines, first, end)
    if documented is not None:
        return documented
    joined = " ".join(line.strip() for line in lines[first:end])
    joined = re.sub(r"([(\[{])\s+", r"\1", joined)
    joined = re.sub(r",?\s+([)\]}])", r"\1", joined)
    return Summary(cut(joined, SUMMARY_CHARS), frozenset(range(first, end)))


def _prose_summary(lines: Sequence[str]) -> Summary:
    """A document's first line of text, else its heading; its headings count as shown (the hit's name holds them)."""
    filled = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("```")]
    headings = {i for i in filled if _HEADING.match(lines[i])}
    if not filled:
        return Summary("", frozenset())
    first = next((i for i in filled if i not in headings), filled[0])
    return Summary(cut(_HEADING.sub("", lines[first].strip()), SUMMARY_CHARS), frozenset({first, *headings}))


def _signature_end(lines: Sequence[str], first: int) -> int:
    """The line after the signature that starts at `first`: where its brackets close, within SIGNATURE_LINES."""
    depth = 0
    for i in range(first, min(len(lines), first + SIGNATURE_LINES)):
        depth += sum(lines[i].count(c) for c in "([{") - sum(lines[i].count(c) for c in ")]}")
        if depth <= 0:
            return i + 1
    return min(len(lines), first + SIGNATURE_LINES)


def _documentation(lines: Sequence[str], first: int, end: int) -> Summary | None:
    """The first line of a definition's documentation: of the comment above its signature (`first`), else of the
    docstring below it (from `end`); None when it has neither."""
    for i in range(first):
        words = _COMMENT_MARKS.sub("", lines[i]).strip()
        if _COMMENT_MARKS.match(lines[i]) and words:
            return Summary(cut(words, SUMMARY_CHARS), frozenset({i}))
    below = [i for i in range(end, min(len(lines), end + 2)) if lines[i].strip()]
    if not below or not _DOCSTRING_QUOTES.match(lines[below[0]].strip()):
        return None
    for i in range(below[0], min(len(lines), below[0] + 2)):
        words = _DOCSTRING_QUOTES.sub("", lines[i].strip()).strip()
        if words:
            return Summary(cut(words, SUMMARY_CHARS), frozenset({i}))
    return None


def best_lines(text: str, first_line: int, wanted: frozenset[str], skipped: Iterable[int] = ()) -> list[str]:
    """The at most MAX_LINES lines of `text` holding the most distinct `wanted` words, best first (the earlier line
    on a tie), each as `L<number>: <line>` (its runs of blanks made one) cut at LINE_CHARS; lines holding none are
    never shown, nor the `skipped` ones (0-based: those the summary shows already)."""
    if not wanted:
        return []
    left_out = set(skipped)
    held = []
    for i, line in enumerate(text.splitlines()):
        count = len(wanted & words_of(line)) if i not in left_out else 0
        if count:
            held.append((-count, i, " ".join(line.split())))
    return [f"L{first_line + i}: {cut(line, LINE_CHARS)}" for _, i, line in sorted(held)[:MAX_LINES]]


def cut(text: str, limit: int) -> str:
    """The text within `limit` characters, an ellipsis ending it when it was longer."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
