"""Numbered deals, compatible with PySolFC's game numbers.

The method is PySolFC's, as RULES.md states it (section "Numbered deals"): deck order,
generator by number range, shuffle, shuffle hooks, the last card of the talon dealt first.

Here the talon is kept in *dealing order* (the reverse of PySolFC's list), so the first card
of the list is the first card dealt."""

from __future__ import annotations

import random

from ..core.cards import Card, full_deck
from ..core.deal_numbers import check_deal_number
from .layout import Layout
from .records import Preset
from .registry import find_preset

LAST_MS_DEAL = 31999
_LCG_MASK = (1 << 33) - 1


def _microsoft_order(cards: list[Card]) -> list[Card]:
    """PySolFC's ``ms_rearrange``: rank-major with suits C D H S (52-card decks only)."""
    if len(cards) != 52:
        return cards
    return [cards[rank + offset] for rank in range(13) for offset in (0, 39, 26, 13)]


def shuffled_talon(number: int, deck: list[Card] | tuple[Card, ...]) -> list[Card]:
    """PySolFC's shuffled talon for deal ``number``, in dealing order (first dealt first)."""
    return _shuffled(check_deal_number(number), deck)


def _shuffled(number: int, deck: list[Card] | tuple[Card, ...]) -> list[Card]:
    """:func:`shuffled_talon` of a checked deal number."""
    if number <= LAST_MS_DEAL:
        cards = _microsoft_order(list(deck))
        _shuffle_microsoft(cards, number)
    else:
        cards = list(deck)
        _shuffle_mersenne(cards, number)
    cards.reverse()
    return cards


def _shuffle_microsoft(cards: list[Card], seed: int) -> None:
    """Shuffle in place with PySolFC's ``LCRandom31`` (seeds below 2**31, the 15-bit
    Microsoft ``rand()``): ``randint(0, n) = rand() % (n + 1)``."""
    state = seed
    for n in range(len(cards) - 1, 0, -1):
        state = (state * 214013 + 2531011) & _LCG_MASK
        j = ((state >> 16) & 0x7FFF) % (n + 1)
        cards[n], cards[j] = cards[j], cards[n]


def _shuffle_mersenne(cards: list[Card], seed: int) -> None:
    """Shuffle in place with PySolFC's ``MTRandom``: ``randint(0, n) = int(random() * (n + 1))``
    with Python's Mersenne Twister seeded with ``seed``."""
    draw = random.Random(seed).random
    for n in range(len(cards) - 1, 0, -1):
        j = int(draw() * (n + 1))
        cards[n], cards[j] = cards[j], cards[n]


def _move_to_front(talon: list[Card], chosen: tuple[Card, ...]) -> list[Card]:
    """Shuffle hook: take ``chosen`` out of the talon so they are dealt first."""
    return [c for c in talon if c in chosen] + [c for c in talon if c not in chosen]


def _move_to_back(talon: list[Card], chosen: tuple[Card, ...]) -> list[Card]:
    """Shuffle hook: move ``chosen`` to the end, so they are dealt last."""
    return [c for c in talon if c not in chosen] + [c for c in talon if c in chosen]


def _round_robin(cards: list[Card], piles: int) -> tuple[tuple[Card, ...], ...]:
    """Deal rows: card i goes to pile ``i % piles``; the last card a pile gets is exposed."""
    return tuple(tuple(cards[i::piles]) for i in range(piles))


def _deal_piles(spec: Preset, number: int, talon: list[Card]) -> Layout:
    if spec.dealt_last:
        talon = _move_to_back(talon, spec.dealt_last)
    if spec.foundation_cards:
        talon = _move_to_front(talon, spec.foundation_cards)
    on_foundations = talon[: len(spec.foundation_cards)]
    dealt = talon[len(spec.foundation_cards) :]
    foundations = []
    names = spec.foundation_names
    for name in names:
        cards = tuple(c for c in on_foundations if len(names) == 1 or name == "F" + c.suit)
        foundations.append((name, cards))
    return Layout(
        spec.name, number, piles=_round_robin(dealt, spec.piles), foundations=tuple(foundations)
    )


def _deal_grid(spec: Preset, number: int, talon: list[Card]) -> Layout:
    cells = spec.piles
    return Layout(spec.name, number, cells=tuple(talon[:cells]), stock=tuple(talon[cells:]))


def deal(preset: str, number: int) -> Layout:
    """The layout of deal ``number`` of ``preset`` (PySolFC-compatible).

    >>> [str(c) for c in deal("thirteen", 1).piles[0]]
    ['JD', 'QC', 'TS', '7D']
    """
    spec = find_preset(preset)
    number = check_deal_number(number)
    talon = _shuffled(number, full_deck(without_ranks=spec.dropped_ranks))
    dealer = _deal_grid if spec.rule_family.grid else _deal_piles
    return dealer(spec, number, talon)
