"""Plain-words helpers for messages: a count with its noun in the right number."""

from __future__ import annotations


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and ``noun``, singular for exactly one: ``1 card``, ``0 cards``, ``2 cards``
    (``plural`` when adding an ``s`` is wrong)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
