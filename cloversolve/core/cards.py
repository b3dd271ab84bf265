"""Playing cards: a small value type with a text form that round-trips (`TD`, `AS`).

A card's integer id follows PySolFC: ``13 * suit + rank - 1`` with suits in PySolFC's order
clubs, spades, hearts, diamonds (ids 0..3). The text form uses rank letters ``A23456789TJQK``
and suit letters ``CDHS``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, NamedTuple, Self

RANK_LETTERS = "A23456789TJQK"
#: Suit letters in PySolFC's suit-id order (clubs, spades, hearts, diamonds).
PYSOL_SUITS = "CSHD"
#: Suit letters in the order the notation lists them.
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = frozenset("DH")

ACE, JACK, QUEEN, KING = 1, 11, 12, 13


class CardParseError(ValueError):
    """A string that is not a card in ``RS`` notation (rank letter, suit letter)."""


class _CardFields(NamedTuple):
    #: 1..13: A=1, J=11, Q=12, K=13.
    rank: int
    #: One of the suit letters ``CDHS``.
    suit: str


#: The suit letters, for a quick membership test.
_SUITS = frozenset(SUITS)


class Card(_CardFields):
    """A playing card; ``rank`` is 1..13 (A=1, K=13), ``suit`` one of ``CDHS``. Any other
    value is refused when the card is made (a :class:`ValueError` naming it)."""

    __slots__ = ()

    def __new__(cls, rank: int, suit: str) -> Card:
        if type(rank) is int and ACE <= rank <= KING and type(suit) is str and suit in _SUITS:
            return tuple.__new__(cls, (rank, suit))
        problem = card_problem(tuple.__new__(cls, (rank, suit)))
        raise ValueError(problem or f"not a card: Card({rank!r}, {suit!r})")

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Self:  # type: ignore[override]
        """The card of ``iterable``'s rank and suit, checked (``_replace`` makes its card
        here too)."""
        return cls(*iterable)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``TD``-style text; raise :class:`CardParseError` quoting the input."""
        if not isinstance(text, str) or len(text) != 2:
            raise CardParseError(f"not a card: {text!r} (expected rank+suit such as 'TD')")
        rank_letter, suit_letter = text[0], text[1]
        if rank_letter not in RANK_LETTERS:
            raise CardParseError(f"not a card: {text!r} (rank must be one of {RANK_LETTERS})")
        if suit_letter not in SUITS:
            raise CardParseError(f"not a card: {text!r} (suit must be one of {SUITS})")
        return tuple.__new__(cls, (RANK_LETTERS.index(rank_letter) + 1, suit_letter))  # (checked)

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card with PySolFC id ``card_id`` (0..51)."""
        if not 0 <= card_id < 52:
            raise ValueError(f"card id out of range: {card_id!r}")
        return cls(card_id % 13 + 1, PYSOL_SUITS[card_id // 13])

    @property
    def id(self) -> int:
        """PySolFC's card id, ``13 * suit + rank - 1``."""
        return 13 * PYSOL_SUITS.index(self.suit) + self.rank - 1

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def symbol(self) -> str:
        """Text with a suit symbol, e.g. ``T♦``; a :class:`ValueError` for a value that is no
        playing card (one made past the check of :class:`Card`, e.g. by ``tuple.__new__``)."""
        problem = card_problem(self)
        if problem is not None:
            raise ValueError(problem)
        return RANK_LETTERS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        if card_problem(self) is not None:
            return repr(self)
        return RANK_LETTERS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        if card_problem(self) is not None:
            return f"Card(rank={self.rank!r}, suit={self.suit!r})"
        return f"Card.parse({str(self)!r})"


def card_problem(value: object) -> str | None:
    """Why ``value`` is not a playing card (a :class:`Card` of rank 1..13 and a suit letter of
    ``CDHS``), or ``None`` when it is one. Never raises, whatever ``value`` is."""
    if not isinstance(value, Card):
        return f"not a card: {value!r}"
    rank, suit = value
    if not isinstance(rank, int) or isinstance(rank, bool) or not ACE <= rank <= KING:
        return f"not a card: rank {rank!r} is not 1..{KING}"
    if not isinstance(suit, str) or len(suit) != 1 or suit not in SUITS:
        return f"not a card: suit {suit!r} is not one of {SUITS}"
    return None


def full_deck(ranks: int = 13, without_ranks: frozenset[int] = frozenset()) -> list[Card]:
    """PySolFC's unshuffled deck order: suit-major (C S H D), each A upwards.

    ``ranks`` limits the deck to ranks 1..ranks (for tiny test games); ``without_ranks``
    drops ranks while keeping the order (the 15-sum game drops the Tens).
    """
    return list(_deck(ranks, frozenset(without_ranks)))


@cache
def _deck(ranks: int, without_ranks: frozenset[int]) -> tuple[Card, ...]:
    """:func:`full_deck`, built once per argument pair."""
    return tuple(
        Card(rank, suit)
        for suit in PYSOL_SUITS
        for rank in range(1, ranks + 1)
        if rank not in without_ranks
    )


def parse_cards(texts: list[str] | tuple[str, ...]) -> list[Card]:
    """Parse a list of card strings."""
    return [Card.parse(t) for t in texts]
