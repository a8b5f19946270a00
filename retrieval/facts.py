"""Simple facts a chunk states, read without a model: key/value pairs of configuration files (YAML, TOML, JSON, ini,
.env), module-level constants in code, a markdown file's front matter, and prose patterns ("X defaults to N", "the
maximum X is N", a table row `| X | N |`). Each is keyed by the setting it describes, written as its words
(`DEFAULT_TIMEOUT_S = 10`, "the default timeout is 10 s" and `timeout: 10` all become key "timeout", value 10 s), so
facts from different sources about one setting meet.

Kept narrow on purpose: a fact is only taken where its form leaves no doubt which setting it names, and keys too
generic to mean one setting (name, version, port of what?) are left out; a missed fact costs nothing, a wrong one
flags a conflict that is not there."""

from __future__ import annotations

import re
from dataclasses import dataclass

from trident.retrieval.facts_values import Value, parse_value
from trident.store.names.identifiers import split_identifier

# Words that say nothing about which setting a key is: dropped from keys.
_FILLER = frozenset({"the", "a", "an", "default", "defaults", "value", "setting", "configured", "of", "number", "our"})
_SYNONYMS = {"maximum": "max", "minimum": "min", "limit": "max", "retries": "retry", "attempts": "attempt"}
# A key of one of these words alone names no particular setting.
_GENERIC = frozenset(
    {
        "name", "version", "type", "id", "description", "title", "key", "path", "file", "url", "author", "license",
        "language", "mode", "level", "format", "status", "kind", "host", "user", "env", "main", "size", "count",
        "date", "tags", "tag", "layout", "slug", "owner", "depends", "on", "enabled", "true", "false", "x", "n",
        "max", "min", "step", "total", "amount", "price", "result", "example", "see", "note", "it", "this", "that",
    }
)  # fmt: skip
MAX_KEY_WORDS = 4


@dataclass(frozen=True)
class Fact:
    """One setting's value as a chunk states it: `key` its normalised words, `value` comparable across units."""

    key: str
    value: Value
    line: int  # the line of the chunk's file that states it


def normalise_key(*names: str) -> str | None:
    """The words of a setting's name, for matching: split identifiers, lower case, filler dropped, synonyms and
    plurals folded, a unit suffix (`_s`, `_ms`, `_seconds`) dropped (the value carries the unit). None for a name
    too generic or too long to mean one setting."""
    words: list[str] = []
    for name in names:
        words += split_identifier(name)
    words = [_SYNONYMS.get(w, w) for w in words if w not in _FILLER]
    while words and words[-1] in _UNIT_WORDS:
        words.pop()
    words = [_singular(w) for w in words]
    if not words or len(words) > MAX_KEY_WORDS or (len(words) == 1 and words[0] in _GENERIC):
        return None
    if any(w.isdigit() for w in words):
        return None
    return " ".join(words)


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")) else word


# Unit words a name may end in ("min" is left out: `TIMEOUT_MIN` may well mean a lower bound).
_UNIT_WORDS = frozenset(
    {"s", "ms", "sec", "secs", "second", "seconds", "mins", "minutes", "millis", "bytes", "kb", "mb"}
)


def unit_suffix(name: str) -> str | None:
    """The unit a name's last word gives its value (`timeout_ms` -> "ms"), else None."""
    words = split_identifier(name)
    return words[-1] if len(words) > 1 and words[-1] in _UNIT_WORDS else None


def make_fact(name: str, raw: str, line: int, *, qualifier: str = "") -> Fact | None:
    """A fact from a setting's name and its value as written, or None when either is not one (a generic name, a
    value that is not a plain literal)."""
    leaf = normalise_key(name)
    key = normalise_key(qualifier, name) if qualifier and leaf is not None else leaf
    value = parse_value(raw, unit_suffix(name))
    if key is None or value is None:
        return None
    return Fact(key, value, line)


WORDS = r"[A-Za-z][A-Za-z0-9_-]*"
NAME = re.compile(rf"^`?({WORDS}(?:[ .]{WORDS}){{0,3}})`?$")
