"""The preset registry: each preset's rule family, parameters and plain-words rules.

Presets differ by data where they differ by parameters (pile counts, foundation returns);
the rule family names the reference engine and search kernel that play them.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .cards import Card
from .families import Family, find_family
from .inputs import quoted


class UnknownPresetError(ValueError):
    """A preset name that is not in the registry."""


@dataclass(frozen=True)
class Preset:
    """One playable rule set.

    ``family`` names a record of :data:`cloversolve.families.FAMILIES`.
    ``piles`` and ``rows`` describe the deal (``rows`` cards per pile, dealt round-robin);
    ``foundation_cards`` start on the foundations (taken out of the talon before dealing).
    """

    name: str
    family: str
    description: str
    rules: str
    piles: int
    rows: int
    foundation_return: bool = False
    foundation_cards: tuple[Card, ...] = ()
    dropped_ranks: frozenset[int] = frozenset()

    @property
    def rule_family(self) -> Family:
        """The registry record of the preset's rule family."""
        return find_family(self.family)

    @property
    def foundation_names(self) -> tuple[str, ...]:
        """Route names of the foundations (``F``, or ``FC FD FH FS``)."""
        return self.rule_family.foundation_names


_THIRTEEN_RULES = """\
52 cards in 13 piles of 4, all face up; one foundation; no stock.
The foundation starts with an Ace of any suit, then takes the next rank up, suits ignored;
after a King comes an Ace again. Win with all 52 cards on it.
A pile's exposed card may go to the foundation, or onto the exposed card of another
non-empty pile one rank higher or lower (suits ignored, King and Ace wrap both ways).
An emptied pile stays empty. Foundation cards never come back."""

_THIRTEEN_RETURN_RULES = _THIRTEEN_RULES.replace(
    "Foundation cards never come back.",
    "The foundation's top card may move back onto a non-empty pile whose exposed card is one\n"
    "rank higher or lower (wrapping); the foundation then needs that card's rank again.",
)

_FIFTEEN_RULES = """\
48 cards (no Tens): 16 in a 4x4 grid (cells 1..16 row by row), 32 in the stock.
Remove a group of two or more cards of one suit: number cards (A=1 .. 9) totalling exactly 15,
or that suit's Jack, Queen and King together. Emptied cells refill from the stock in
ascending cell order; when the stock is empty they stay empty. Win by removing all 48 cards."""

_CLOVER_RULES = """\
52 cards. A-hearts and A-diamonds start foundations building up in suit to the King;
K-spades and K-clubs start foundations building down in suit to the Ace.
The other 48 cards lie face up in {piles} fans of {rows}. A fan's top card may go to its
foundation or onto another fan's top card of the same suit one rank higher or lower (no
wrapping). Only an Ace or a King may go on an empty fan. A foundation's top card may move
back onto a fan that accepts it. Cards a foundation accepts are moved there automatically
after every move (except a card just taken from a foundation). Win with all 52 on them."""

_BLACKHOLE_RULES = """\
A-spades starts the single foundation; the other 51 cards lie in 17 fans of 3.
A fan's top card may go to the foundation when it is one rank above or below the
foundation's top card (suits ignored, King and Ace wrap). No other moves. Win with all 52."""

_ALLINAROW_RULES = """\
52 cards in 13 columns of 4; the foundation starts empty and takes any card first, then
cards one rank above or below its top card (suits ignored, wrapping). No tableau building.
Win with all 52 on the foundation."""

_CLOVER_FOUNDATIONS = tuple(Card.parse(t) for t in ("AH", "AD", "KS", "KC"))

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "thirteen",
            "thirteen",
            "Four Leaf Clovers: 13 piles, one wrapping foundation (PySolFC game 267)",
            _THIRTEEN_RULES,
            piles=13,
            rows=4,
        ),
        Preset(
            "thirteen-return",
            "thirteen",
            "Four Leaf Clovers with foundation cards playable back to the piles",
            _THIRTEEN_RETURN_RULES,
            piles=13,
            rows=4,
            foundation_return=True,
        ),
        Preset(
            "fifteen",
            "fifteen",
            "Four Leaf Clover, the Japanese 15-sum game: same-suit groups from a 4x4 grid",
            _FIFTEEN_RULES,
            piles=16,
            rows=1,
            dropped_ranks=frozenset({10}),
        ),
        Preset(
            "cloverleaf",
            "clover",
            "Clover Leaf: 16 fans of 3, red Aces up and black Kings down (Thomas Warfield)",
            _CLOVER_RULES.format(piles=16, rows=3),
            piles=16,
            rows=3,
            foundation_return=True,
            foundation_cards=_CLOVER_FOUNDATIONS,
        ),
        Preset(
            "alexander",
            "clover",
            "Alexander the Great: Clover Leaf rules with 12 fans of 4",
            _CLOVER_RULES.format(piles=12, rows=4),
            piles=12,
            rows=4,
            foundation_return=True,
            foundation_cards=_CLOVER_FOUNDATIONS,
        ),
        Preset(
            "blackhole",
            "hole",
            "Black Hole (PySolFC game 98), reference preset for black-hole-solver",
            _BLACKHOLE_RULES,
            piles=17,
            rows=3,
            foundation_cards=(Card.parse("AS"),),
        ),
        Preset(
            "allinarow",
            "hole",
            "All in a Row (PySolFC game 405), reference preset for black-hole-solver",
            _ALLINAROW_RULES,
            piles=13,
            rows=4,
        ),
    )
}


def find_preset(name: str) -> Preset:
    """The preset called ``name``; an :class:`UnknownPresetError` suggests the nearest name."""
    preset = PRESETS.get(name) if isinstance(name, str) else None
    if preset is not None:
        return preset
    close = difflib.get_close_matches(str(name)[:100], PRESETS, n=1, cutoff=0.4)
    hint = f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(PRESETS)}"
    raise UnknownPresetError(f"unknown preset: {quoted(name)}{hint}")
