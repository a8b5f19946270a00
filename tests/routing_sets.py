"""The labelled routing sets by role. Development sets: `routing_cases` (written with the first rules), then
`routing_dev`, `routing_dev_more`, `routing_dev_extra`, `routing_dev_five` and `routing_dev_six`, each written by
someone who had not seen the rules, labelled by meaning, and then used to broaden the rules. The held-out set
`routing_heldout` was written the same way and is never used to change a rule: only its accuracy is read, the figure
for questions the rules were not written from."""

from __future__ import annotations

from tests.routing_cases import CASES
from tests.routing_dev import DEV
from tests.routing_dev_extra import DEV_EXTRA
from tests.routing_dev_five import DEV_FIVE
from tests.routing_dev_more import DEV_MORE
from tests.routing_dev_six import DEV_SIX
from tests.routing_heldout import HELDOUT

DEVELOPMENT: dict[str, list[tuple[str, str]]] = {
    "cases": CASES,
    "dev": DEV,
    "dev_more": DEV_MORE,
    "dev_extra": DEV_EXTRA,
    "dev_five": DEV_FIVE,
    "dev_six": DEV_SIX,
}

__all__ = ["DEVELOPMENT", "HELDOUT"]
