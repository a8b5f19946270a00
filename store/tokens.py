"""Cheap token estimates, so chunks stay near the embedding model's 256-token window without a tokenizer, and a
search's token budget counts its hits the way chunking counted them."""

from __future__ import annotations

import re

_TOKEN = re.compile(r"[A-Za-z]+|\d+|[^\sA-Za-z\d]")


def estimate_tokens(text: str) -> int:
    return len(_TOKEN.findall(text))
