"""Compact JSON for files and output that may hold any deal number.

Deal numbers go up to 10**20 - 1, but JavaScript's ``JSON.parse`` holds integers exactly only
up to 2**53 - 1 (``Number.MAX_SAFE_INTEGER``) and silently rounds larger ones: :func:`dumps`
writes every integer up to that size as a JSON integer and any larger one as its decimal
text (``"99999999999999999999"``), so what the toolkit writes means the same in every
language. Readers of layouts, batch requests and study JSON accept both forms for any number
(:func:`cloversolve.core.deal_numbers.check_deal_number`); the header of a verdict file must
hold the JSON form (:func:`cloversolve.core.deal_numbers.check_json_deal_number`). Files that
only the toolkit reads back (checkpoints) may keep integers of any size with
``exact_integers``. :func:`loads` reads integers exactly, whatever their size.

orjson is fast but holds integers to 64 bits: these helpers use it, and fall back to the
standard library (same compact form) where it cannot serve. orjson is imported on first use,
so a command that writes or reads no JSON does not load it.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
import sys
from typing import Any

_LONG_DIGITS = re.compile(rb"\d{20}")

#: The largest integer that every JSON reader holds exactly (JavaScript's
#: ``Number.MAX_SAFE_INTEGER``); a larger one is written as decimal text.
MAX_EXACT_INT = 2**53 - 1


def json_integer(value: int) -> int | str:
    """``value`` in its JSON form: itself up to :data:`MAX_EXACT_INT` in size, else its
    decimal text (the form :func:`dumps` writes)."""
    return value if -MAX_EXACT_INT <= value <= MAX_EXACT_INT else str(value)


def _portable(value: Any) -> Any:
    """``value`` with every integer in its JSON form (:func:`json_integer`), containers copied
    as lists and dictionaries. Walked without recursion (nesting as deep as the standard
    library writes); deeper nesting, or a value that holds itself, is a RecursionError."""
    root = [value]
    pending: list[tuple[Any, Any, int]] = [(root, 0, 0)]
    while pending:
        container, key, depth = pending.pop()
        item = container[key]
        if isinstance(item, bool):
            continue
        if isinstance(item, int):
            container[key] = json_integer(item)
            continue
        if not isinstance(item, dict | list | tuple):
            continue
        if depth >= sys.getrecursionlimit():
            raise RecursionError("JSON nested too deeply to write")
        copy: Any = dict(item) if isinstance(item, dict) else list(item)
        container[key] = copy
        keys = copy.keys() if isinstance(copy, dict) else range(len(copy))
        pending.extend((copy, inner, depth + 1) for inner in keys)
    return root[0]


def dumps(
    value: Any, *, sort_keys: bool = False, indent: bool = False, exact_integers: bool = False
) -> bytes:
    """``value`` as compact JSON bytes (``{"a":1}``; two-space ``indent`` if asked), integers
    beyond :data:`MAX_EXACT_INT` in size as decimal text (as JSON integers of any size with
    ``exact_integers``, for files that only this toolkit reads)."""
    import orjson

    option = (orjson.OPT_SORT_KEYS if sort_keys else 0) | (orjson.OPT_INDENT_2 if indent else 0)
    try:
        strict = 0 if exact_integers else orjson.OPT_STRICT_INTEGER
        return orjson.dumps(value, option=option | strict)
    except TypeError:  # (an integer past orjson's limit, or a type only json serves)
        portable = value if exact_integers else _portable(value)
        separators = (",", ": ") if indent else (",", ":")
        text = json.dumps(
            portable,
            separators=separators,
            indent=2 if indent else None,
            ensure_ascii=False,
            sort_keys=sort_keys,
        )
        return text.encode()


#: The most digits of an integer read from JSON (Python's own limit for ``int(text)``).
_MAX_DIGITS = 4300


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # as orjson: no NaN or Infinity


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # as orjson: a number past a double's range is no number
        raise ValueError(f"the number {shown(text)} is past a double's range")
    return value


#: A ``\\u`` escape of a surrogate, or a surrogate's own bytes (which the standard library's
#: reader lets through): only where one appears are the strings checked for a lone one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]|\xed[\xa0-\xbf]")


def _check_no_lone_surrogate(data: bytes, value: Any) -> None:
    """Raise ValueError when ``value`` (parsed from ``data``) holds a string with a lone
    surrogate escape (``"\\ud800"``), which is no character and no UTF-8 text (orjson refuses
    it too)."""
    if not _SURROGATE_ESCAPE.search(data):
        return
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("a string holds a lone surrogate (no character)") from None


def _exact_int(digits: str) -> int:
    count = len(digits.lstrip("-"))
    if count > _MAX_DIGITS:
        raise ValueError(f"an integer of {count} digits, more than {_MAX_DIGITS}")
    return int(digits)


class DuplicateKeyError(ValueError):
    """A JSON object that names one key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {shown(key)} is given twice")
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of ``pairs``, or :class:`DuplicateKeyError` for a key given twice."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateKeyError(key)
        result[key] = value
    return result


def loads(data: bytes, *, unique_keys: bool = False) -> Any:
    """Parse JSON, keeping integers exact up to Python's 4300 digits (orjson reads integers
    past 64 bits as floats, so text holding a run of 20 digits goes to the standard library).
    With ``unique_keys``, an object that names a key twice is a :class:`DuplicateKeyError`
    (orjson silently keeps the last). Both parsers refuse alike a number past a double's
    range (``1e400``) and a lone surrogate escape (``"\\ud800"``)."""
    if unique_keys or _LONG_DIGITS.search(data):
        hook = _unique_keys if unique_keys else None
        value = json.loads(
            data,
            parse_constant=_no_constant,
            parse_int=_exact_int,
            parse_float=_finite_float,
            object_pairs_hook=hook,
        )
        _check_no_lone_surrogate(data, value)
        return value
    import orjson

    return orjson.loads(data)


def shown(value: Any, width: int = 40) -> str:
    """``value`` as compact JSON for a message, at most ``width`` characters (any value read
    from a file: huge integers and deep nesting included). A longer text is cut and ends
    with ``…``, a string still closed by its quote (``"abc…"``)."""
    try:
        text = dumps(value, exact_integers=True).decode()
    except (TypeError, ValueError, RecursionError):
        text = reprlib.repr(value)
    if len(text) <= width:
        return text
    end = '…"' if isinstance(value, str) and text.endswith('"') else "…"
    return text[: width - len(end)] + end
