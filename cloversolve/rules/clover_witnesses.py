"""The suit projections of a clover position (FACTS.md, fact 4): a position is lost when one
of its projections is lost, which the plain-Python exhaustive search proves."""

from __future__ import annotations

from ..cards import Card
from .clover import SUITS, UP_SUITS, CloverPosition


def projection(position: CloverPosition, suits: str) -> CloverPosition:
    """The projection of ``position`` onto ``suits`` (FACTS.md, fact 4): the other suits'
    cards leave the fans, order kept, and complete their foundations; then the automatic
    moves."""
    ranks = position.ranks
    foundations = {
        suit: position.foundation_cards(suit)
        if suit in suits
        else [Card(h if suit in UP_SUITS else ranks + 1 - h, suit) for h in range(1, ranks + 1)]
        for suit in SUITS
    }
    fans = [[card for card in fan if card.suit in suits] for fan in position.fans]
    return CloverPosition(fans, foundations, ranks=ranks)
