"""Reading a catalogue: the daily deal, lookup by deal number and the deals a build scanned."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from ..core.deal_numbers import check_deal_number
from ..core.inputs import quoted
from ..grading.grading import (
    DIFFICULTIES,
)
from .files import CatalogueError, is_int

#: Day 0 of the daily-deal rule.
DAILY_EPOCH = dt.date(2000, 1, 1)


#: The one date format accepted: an ISO 8601 calendar date, ``YYYY-MM-DD`` (no week dates
#: such as ``2025-W01-1``, no ordinal dates, no times).
DATE_FORMAT = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_date(text: str) -> dt.date:
    """A ``YYYY-MM-DD`` date (:data:`DATE_FORMAT`)."""
    try:
        if not isinstance(text, str) or not DATE_FORMAT.fullmatch(text):
            raise ValueError
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CatalogueError(
            f"bad date: {text!r} (expected a calendar date YYYY-MM-DD, e.g. 2025-01-31)"
        ) from None


def daily_index(day: dt.date, count: int) -> int:
    """The daily-deal rule: days since 2000-01-01, modulo ``count`` (floor modulo, so dates
    before 2000 give an index in ``0 .. count-1`` too)."""
    if count < 1:
        raise CatalogueError("no deals to choose from")
    return (day - DAILY_EPOCH).days % count


def entries_of(catalogue: Mapping[str, Any], level: str) -> list[dict[str, Any]]:
    """The catalogue's deals of difficulty ``level``, in ascending deal-number order."""
    if level not in DIFFICULTIES:
        raise CatalogueError(
            f"unknown difficulty: {quoted(level)} (expected {', '.join(DIFFICULTIES)})"
        )
    chosen = [entry for entry in catalogue["deals"] if entry.get("difficulty") == level]
    return sorted(chosen, key=lambda entry: entry["number"])


def daily(catalogue: Mapping[str, Any], day: dt.date | str, level: str) -> dict[str, Any]:
    """The daily deal of ``level`` for ``day``: entry number ``daily_index(day, count)`` of
    that difficulty's deals sorted by deal number."""
    if isinstance(day, str):
        day = parse_date(day)
    entries = entries_of(catalogue, level)
    if not entries:
        raise CatalogueError(f"the catalogue has no {level} deals")
    return entries[daily_index(day, len(entries))]


def lookup(catalogue: Mapping[str, Any], number: int | str) -> dict[str, Any] | None:
    """The catalogue's entry for deal ``number``, or ``None`` (not listed: see
    :func:`scanned_deals` for what is known of it)."""
    wanted = check_deal_number(number)
    for entry in catalogue["deals"]:
        if entry.get("number") == wanted:
            return entry
    return None


def scanned_deals(catalogue: Mapping[str, Any]) -> range:
    """The deals the build scanned, ``parameters.deals.first .. scanned_to`` (empty when the
    catalogue does not state them): a deal among them but not listed is unsolvable, was
    undecided within the build's budget, or its difficulty was already full."""
    parameters = catalogue.get("parameters")
    stated = parameters.get("deals") if isinstance(parameters, Mapping) else None
    if not isinstance(stated, Mapping):
        return range(0)
    first, last = stated.get("first"), stated.get("scanned_to")
    if not (is_int(first) and is_int(last)):
        return range(0)
    return range(int(first), int(last) + 1)  # type: ignore[arg-type]
