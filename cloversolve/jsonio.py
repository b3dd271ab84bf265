"""Compact JSON for files and output that may hold any deal number.

orjson is fast but holds integers to 64 bits, and deal numbers go up to 10**20 - 1: these
helpers use orjson and fall back to the standard library (same compact form) for larger
integers, and read integers exactly.
"""

from __future__ import annotations

import json
import re
import reprlib
from typing import Any

import orjson

_LONG_DIGITS = re.compile(rb"\d{20}")


def dumps(value: Any, *, sort_keys: bool = False) -> bytes:
    """``value`` as compact JSON bytes (``{"a":1}``), integers of any size."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS if sort_keys else 0)
    except TypeError:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=sort_keys)
        return text.encode()


#: The most digits of an integer read from JSON (Python's own limit for ``int(text)``).
_MAX_DIGITS = 4300


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # as orjson: no NaN or Infinity


def _exact_int(digits: str) -> int:
    count = len(digits.lstrip("-"))
    if count > _MAX_DIGITS:
        raise ValueError(f"an integer of {count} digits, more than {_MAX_DIGITS}")
    return int(digits)


def loads(data: bytes) -> Any:
    """Parse JSON, keeping integers exact up to Python's 4300 digits (orjson reads integers
    past 64 bits as floats, so text holding a run of 20 digits goes to the standard library)."""
    if _LONG_DIGITS.search(data):
        return json.loads(data, parse_constant=_no_constant, parse_int=_exact_int)
    return orjson.loads(data)


def shown(value: Any, width: int = 40) -> str:
    """``value`` as compact JSON for a message, cut to ``width`` characters (any value read
    from a file: huge integers and deep nesting included)."""
    try:
        return dumps(value).decode()[:width]
    except (TypeError, ValueError, RecursionError):
        return reprlib.repr(value)[:width]
