"""Cheap token estimates without a tokenizer: chunks stay near the embedding model's 256-token window, and a tool's
answer stays within what a client lets a tool return."""

from __future__ import annotations

import re

import pydantic_core

_TOKEN = re.compile(r"[A-Za-z]+|\d+|[^\sA-Za-z\d]")
# A client model's tokenizer (byte-pair encoding) makes about four characters of English a token, but JSON and code
# tokenize denser: three is the safe side for a tool's JSON answer.
CHARS_PER_RESPONSE_TOKEN = 3


def estimate_tokens(text: str) -> int:
    """Words, numbers and punctuation marks: what the embedding model's tokenizer splits a text into, about."""
    return len(_TOKEN.findall(text))


def response_tokens(text: str) -> int:
    """What a text costs a client model's context, estimated on the safe side (three characters a token)."""
    return -(-len(text) // CHARS_PER_RESPONSE_TOKEN)


def json_tokens(value: object, depth: int = 0) -> int:
    """What `value` costs as the JSON text an MCP client hands its model (the SDK's form: indented by two), where it
    sits `depth` levels deep in the answer (each of its lines indented two spaces more per level)."""
    text = pydantic_core.to_json(value, fallback=str, indent=2).decode()
    return response_tokens(text + " " * (2 * depth * (text.count("\n") + 1)))
