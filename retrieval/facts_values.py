"""A fact's value, read from how it is written (`10`, `5 s`, `5 * time.Second`, `30s`, `"redis"`, `true`) and
compared across units: durations in seconds, sizes in bytes. A bare number matches a duration or size written in any
of the usual units (`timeout = 5000` may be milliseconds of "5 s"): only a difference no unit explains is one."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from enum import StrEnum


class Dimension(StrEnum):
    NONE = ""
    TIME = "time"
    SIZE = "size"
    PERCENT = "percent"


_TIME = {"ms": 0.001, "millis": 0.001, "millisecond": 0.001, "milliseconds": 0.001, "s": 1.0, "sec": 1.0}
_TIME |= {"secs": 1.0, "second": 1.0, "seconds": 1.0, "m": 60.0, "min": 60.0, "mins": 60.0, "minute": 60.0}
_TIME |= {"minutes": 60.0, "h": 3600.0, "hr": 3600.0, "hour": 3600.0, "hours": 3600.0, "d": 86400.0}
_TIME |= {"day": 86400.0, "days": 86400.0}
_SIZE = {"b": 1.0, "byte": 1.0, "bytes": 1.0, "kb": 1024.0, "kib": 1024.0, "k": 1024.0, "mb": 1024.0**2}
_SIZE |= {"mib": 1024.0**2, "gb": 1024.0**3, "gib": 1024.0**3}
_GO_DURATION = {"Millisecond": 0.001, "Second": 1.0, "Minute": 60.0, "Hour": 3600.0}
# Units a bare number may silently be in, per dimension (the base unit first).
_IMPLIED = {Dimension.TIME: (1.0, 0.001, 60.0, 3600.0), Dimension.SIZE: (1.0, 1024.0, 1024.0**2)}
_IMPLIED[Dimension.PERCENT] = (1.0, 0.01)
_BOOLEANS = {"true": "true", "yes": "true", "on": "true", "false": "false", "no": "false", "off": "false"}

_NUMBER = re.compile(r"^([-+]?\d[\d_,]*(?:\.\d+)?)\s*([A-Za-z%]+)?$")
_GO = re.compile(r"^(\d+(?:\.\d+)?)\s*\*\s*time\.(Millisecond|Second|Minute|Hour)$")
_STRING = re.compile(r"^[\w.\-/:@+]{1,40}$")
MAX_VALUE_CHARS = 60


@dataclass(frozen=True)
class Value:
    """A literal: a number in its dimension's base unit, or a short word (quotes dropped, lower case)."""

    number: float | None
    dimension: Dimension = Dimension.NONE
    text: str | None = None
    shown: str = field(default="", compare=False)  # as written


def parse_value(raw: str, unit_hint: str | None = None) -> Value | None:
    """The value `raw` writes, or None when it is no plain literal (an expression, a sentence, a long string).
    `unit_hint` is the unit a setting's name gives a bare number (`timeout_ms`)."""
    shown = " ".join(raw.strip().rstrip(",;").split())
    if not shown or len(shown) > MAX_VALUE_CHARS:
        return None
    bare = shown.strip("`")
    quoted = len(bare) >= 2 and bare[0] == bare[-1] and bare[0] in "\"'"
    bare = bare[1:-1] if quoted else bare
    if bare.lower() in _BOOLEANS and not quoted:
        return Value(None, text=_BOOLEANS[bare.lower()], shown=shown)
    go = _GO.match(bare)
    if go is not None:
        return Value(float(go.group(1)) * _GO_DURATION[go.group(2)], Dimension.TIME, shown=shown)
    number = _NUMBER.match(bare)
    if number is not None and not quoted:
        return _number(number.group(1), number.group(2) or unit_hint, shown)
    if _STRING.match(bare) and (quoted or not bare[0].isdigit()):
        return Value(None, text=bare.lower(), shown=shown)
    return None


def _number(digits: str, unit: str | None, shown: str) -> Value | None:
    try:
        amount = float(digits.replace("_", "").replace(",", ""))
    except ValueError:
        return None
    if unit is None:
        return Value(amount, shown=shown)
    unit = unit.lower()
    if unit in _TIME:
        return Value(amount * _TIME[unit], Dimension.TIME, shown=shown)
    if unit in _SIZE:
        return Value(amount * _SIZE[unit], Dimension.SIZE, shown=shown)
    if unit == "%":
        return Value(amount / 100, Dimension.PERCENT, shown=shown)
    return None  # a unit not known here: "5 retries", "3 workers" say more than a number


def disagree(a: Value, b: Value) -> bool:
    """True when the two values cannot both be right for one setting: both words and different, or both numbers
    that no unit reconciles. A word against a number, or a duration against a size, is no disagreement: the two
    likely name different things."""
    if a.text is not None or b.text is not None:
        return a.text is not None and b.text is not None and a.text != b.text
    assert a.number is not None and b.number is not None
    if a.dimension == b.dimension:
        return not math.isclose(a.number, b.number, rel_tol=1e-9)
    if Dimension.NONE not in (a.dimension, b.dimension):
        return False
    bare, united = (a, b) if a.dimension is Dimension.NONE else (b, a)
    assert bare.number is not None and united.number is not None
    return not any(math.isclose(bare.number * unit, united.number, rel_tol=1e-9) for unit in _IMPLIED[united.dimension])
