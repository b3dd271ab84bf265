"""Deal numbers: the valid range (1 .. 10**20 - 1), one number or a range read from text, and
the error that quotes a bad one."""

from __future__ import annotations

from collections.abc import Mapping

from .inputs import quoted
from .jsonio import MAX_EXACT_INT, json_integer

MIN_DEAL = 1
MAX_DEAL = 10**20 - 1


class DealNumberError(ValueError):
    """A deal number outside 1 .. 10**20 - 1, or not an integer."""


def check_deal_number(number: object) -> int:
    """Return ``number`` as an int if it is a valid deal number, else raise DealNumberError.

    Accepts an int or decimal text (as typed on a command line): plain digits, with no
    spaces around them and no leading zeros (``" 5"`` and ``"05"`` are refused, as the
    whole-number options refuse them).
    """
    if type(number) is int and MIN_DEAL <= number <= MAX_DEAL:  # (the common case first)
        return number
    value = number
    if isinstance(value, str) and value.isascii():
        digits = value.removeprefix("-")
        if digits.isdigit():
            if value != digits or len(digits.lstrip("0")) > len(str(MAX_DEAL)):
                raise _out_of_range(number)  # (int() refuses over 4300 digits)
            if digits.startswith("0") and digits != "0":
                raise DealNumberError(
                    f"bad deal number: {quoted(number)} (written without leading zeros)"
                )
            value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        if _looks_like_a_layout(value):
            raise DealNumberError(
                f"a layout was given where a deal number goes: {quoted(number)} (deal numbers "
                "are 1 .. 10**20-1; give a layout as layout JSON, a Layout, or --layout FILE)"
            )
        raise DealNumberError(f"bad deal number: {quoted(number)} (expected a whole number)")
    if not MIN_DEAL <= value <= MAX_DEAL:
        raise _out_of_range(number)
    return value


def check_json_deal_number(value: object) -> int:
    """A deal number read from a JSON file, in its JSON form: a JSON integer up to 2**53 - 1
    and decimal text beyond it (:func:`~cloversolve.core.jsonio.json_integer`, the form every
    file the toolkit writes holds), else :class:`DealNumberError` quoting it (``"1"`` is
    refused: a number every reader holds exactly is written as a number)."""
    number = check_deal_number(value)
    if json_integer(number) != value or isinstance(value, bool):
        raise DealNumberError(
            f"bad deal number: {quoted(value)} (in JSON an integer up to {MAX_EXACT_INT}, "
            "decimal text only past it)"
        )
    return number


def _looks_like_a_layout(value: object) -> bool:
    """Whether ``value`` is a layout or a part of one: JSON text of an object or a list, an
    object, a list of piles, or a ``Layout`` (known by its fields: this module sits below the
    games')."""
    if isinstance(value, str):
        return value.strip().startswith(("{", "["))
    if isinstance(value, list | tuple):
        return any(isinstance(item, list | tuple) for item in value)
    return isinstance(value, Mapping) or (hasattr(value, "preset") and hasattr(value, "to_json"))


def _out_of_range(number: object) -> DealNumberError:
    return DealNumberError(f"bad deal number: {quoted(number)} (deals are {MIN_DEAL} .. 10**20-1)")


def parse_deal_range(text: str) -> range:
    """``"A..B"`` (inclusive) or a single number, as a range of valid deal numbers.

    A range is never expanded: any range of valid numbers costs the same to hold.

    >>> parse_deal_range("1..1000")
    range(1, 1001)
    """
    shown = text if len(text) <= 60 else text[:57] + "..."
    first, sep, last = text.partition("..")
    parts = [first, last] if sep else [first]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise DealNumberError(f"bad deal range: {shown!r} (expected A..B, e.g. 1..1000)")
    if any(part.startswith("0") and part != "0" for part in parts):
        raise DealNumberError(f"bad deal range: {shown!r} (written without leading zeros)")
    values = []
    for part in parts:
        digits = part.lstrip("0") or "0"
        value = int(digits) if len(digits) <= len(str(MAX_DEAL)) else None
        if value is None or not MIN_DEAL <= value <= MAX_DEAL:
            number = digits if len(digits) <= 30 else digits[:27] + "..."
            raise DealNumberError(
                f"bad deal range: {shown!r} (deal {number} is out of range: deals are "
                f"{MIN_DEAL} .. 10**20-1)"
            )
        values.append(value)
    low, high = values[0], values[-1]
    if high < low:
        raise DealNumberError(f"bad deal range: {shown!r} (the end is before the start)")
    return range(low, high + 1)
