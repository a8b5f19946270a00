"""How many arguments a definition takes, read from its text, and how many a call written in prose passes: enough to
tell `charge(order)` from a `charge(order, amount, currency)` whose every argument is required."""

from __future__ import annotations

import re
from dataclasses import dataclass

_RECEIVER_PARAMS = frozenset({"self", "cls", "&self", "&mut self", "mut self", "this"})
# A default value's `=`, not one of `=>`, `==`, `>=`, `<=`, `!=` (an arrow type is no default).
_DEFAULT = re.compile(r"(?<![=!<>])=(?![=>])")


@dataclass(frozen=True)
class Arity:
    required: int
    most: int | None  # None: takes any number more (*args, ...rest, variadic)
    names: tuple[str, ...]

    def accepts(self, count: int) -> bool:
        return count >= self.required and (self.most is None or count <= self.most)

    def __str__(self) -> str:
        if self.most is None:
            span = f"{self.required} or more"
        elif self.most == self.required:
            span = str(self.required)
        else:
            span = f"{self.required} to {self.most}"
        return f"{span} ({', '.join(self.names)})" if self.names else span


def call_arguments(call: str) -> int | None:
    """The number of arguments a written call passes (`(a, b=1)` -> 2); None when they are elided (`(...)`)."""
    inner = call.strip()[1:-1].strip()
    if "..." in inner or "…" in inner:
        return None
    return len(_split(inner)) if inner else 0


def arity_of(text: str, name: str, method: bool) -> Arity | None:
    """The arguments the definition of `name` in `text` takes (a method's receiver not counted); None when its
    parameter list cannot be read."""
    found = re.search(rf"(?:def|func|function|fn)\s+(?:\([^)]*\)\s*)?{re.escape(name)}\s*(?:<[^>]*>)?\s*\(", text)
    if found is None and method:
        found = re.search(rf"^\s*(?:[\w<>\[\],]+\s+)*{re.escape(name)}\s*\(", text, re.MULTILINE)
    if found is None:
        return None
    params = _until_close(text, found.end())
    if params is None:
        return None
    required, most, names = 0, 0, []
    variadic = False
    for param in _split(params):
        bare = param.split(":")[0].split("=")[0].strip()
        if not bare or bare in ("*", "/") or bare in _RECEIVER_PARAMS or bare.startswith("self "):
            continue
        if bare.startswith(("*", "...")) or "..." in param:
            variadic = True
            continue
        names.append(bare.rstrip("?"))
        most += 1
        if _DEFAULT.search(param) is None and "?" not in param.split(":")[0]:
            required += 1
    return Arity(required, None if variadic else most, tuple(names))


def _until_close(text: str, start: int) -> str | None:
    depth = 1
    for index in range(start, min(len(text), start + 2_000)):
        char = text[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return text[start:index]
    return None


def _split(inner: str) -> list[str]:
    """Top-level comma-separated parts (commas inside brackets or strings do not split)."""
    parts: list[str] = []
    current: list[str] = []
    depth, quote, previous = 0, "", ""
    for char in inner:
        arrow = char == ">" and previous in ("=", "-")  # `=>` and `->` close no bracket
        previous = char
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "([{<":
            depth += 1
        elif char in ")]}>" and not arrow:
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return [part for part in parts if part]
