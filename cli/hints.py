"""Hints in the terminal's syntax: the tools' answers name the call that shows more as an MCP call
(`search(query='x', top_k=3)`), which a terminal user cannot paste; the command line prints each such call as the
`trident` command that does the same (`trident search x --top-k 3`)."""

from __future__ import annotations

import ast
import re
import shlex

# Each tool the answers suggest: its command, and the arguments given as positional arguments, in order.
COMMANDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "search": ("search", ("query",)),
    "trace_relationships": ("trace", ("entity",)),
    "explain_path": ("explain", ("source", "target")),
    "find_similar": ("similar", ()),
    "get_entity": ("entity", ("name_or_id",)),
    "status": ("status", ()),
    "index_path": ("index", ("path",)),
}
# List arguments whose flag repeats once per value, by another name.
REPEATED = {"projects": "project", "relation_types": "relation-type", "expansions": "expansion", "kinds": "kind"}
CALL = re.compile(r"\b(" + "|".join(COMMANDS) + r")\(")


def in_terminal(text: str) -> str:
    """`text` with every tool call it names written as the command that does the same (a call it cannot read is
    left as written)."""
    out, at = [], 0
    for found in CALL.finditer(text):
        if found.start() < at:
            continue
        end = _call_end(text, found.end())
        if end is None:
            continue
        command = _command(text[found.start() : end])
        if command is None:
            continue
        out += [text[at : found.start()], command]
        at = end
    return "".join(out) + text[at:]


def _call_end(text: str, opened: int) -> int | None:
    """Where the call whose `(` ends at `opened` closes (quoted text skipped), or None."""
    depth, quote = 1, ""
    for i in range(opened, len(text)):
        char = text[i]
        if quote:
            quote = "" if char == quote and text[i - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _command(call: str) -> str | None:
    try:
        parsed = ast.parse(call, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(parsed, ast.Call) and isinstance(parsed.func, ast.Name) and parsed.func.id in COMMANDS):
        return None
    try:
        arguments = {k.arg: ast.literal_eval(k.value) for k in parsed.keywords if k.arg is not None}
    except ValueError:  # not a literal
        return None
    name, positional = COMMANDS[parsed.func.id]
    words = ["trident", name] + [str(arguments.pop(p)) for p in positional if p in arguments]
    for argument, value in arguments.items():
        words += _flag(argument, value)
    return shlex.join(words)


def _flag(argument: str, value: object) -> list[str]:
    if value is None or value is False:
        return []
    if argument in REPEATED and isinstance(value, list):
        return [part for item in value for part in (f"--{REPEATED[argument]}", str(item))]
    flag = "--" + argument.replace("_", "-")
    return [flag] if value is True else [flag, str(value)]
