"""Splitting code identifiers into words, so `PaymentGateway` and `payment_gateway` match "payment gateway"."""

from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[A-Za-z0-9]+")
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")
_COMMA_QUALIFIER = re.compile(r",\s*[A-Z0-9].*$", re.DOTALL)
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def split_identifier(name: str) -> list[str]:
    """Lower-cased words of an identifier: `parseHTTPResponse_v2` -> ["parse", "http", "response", "v", "2"].

    One pass of the camel-case pattern over the whole name: its pieces are ASCII letters and digits only, and its
    look-ahead needs two more of them, so no piece spans a separator (the same words as splitting at separators
    first, in half the time; a large index's directory splits a hundred thousand names, and again after each
    write: the splits of recent names are remembered)."""
    return list(_split(name))


@lru_cache(maxsize=1 << 18)
def _split(name: str) -> tuple[str, ...]:
    return tuple(piece.lower() for piece in _CAMEL.findall(name))


def identifier_words(text: str) -> str:
    """Every identifier in `text` expanded to its words, space-joined; plain words pass through lower-cased."""
    out: list[str] = []
    for token in _WORD.findall(text):
        pieces = split_identifier(token)
        out.extend(pieces if len(pieces) > 1 else [token.lower()])
    return " ".join(out)


def title_core(name: str) -> str:
    """A title without what only tells it apart from others: a trailing parenthesis, then all from the first comma
    followed by a capitalised word ("John Ernest, Duke of Saxe-Eisenach (1566)" -> "John Ernest", "Dark River (2017
    film)" -> "Dark River"; a comma inside a sentence-like title, "Vitamin D, calcium and bone health", stays)."""
    return _COMMA_QUALIFIER.sub("", _QUALIFIER.sub("", name)).strip()
