"""Reference engine of the ``sprig`` family (its rules: :data:`tiny_game.records.SPRIG_RULES`).

Moves are :class:`~cloversolve.notation.Transfer` values: ``2>F`` plays pile 2's exposed card
to the foundation, the only kind of move.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from cloversolve.core.cards import Card
from cloversolve.core.notation import FOUNDATION, Move, Transfer
from cloversolve.games.layout import Layout, LayoutError
from cloversolve.games.registry import find_preset
from cloversolve.rules import Position
from cloversolve.rules.base import placed_cards_problem

#: The ranks of the deck: Ace to 4.
RANKS = 4


def _never_placed(card: Card, top: Card | None) -> bool:
    """No move puts a card on a pile."""
    return False


class SprigPosition(Position):
    """A position: piles (bottom to top), the foundation (bottom to top) and the preset."""

    family: ClassVar[str] = "sprig"

    def __init__(
        self, piles: Sequence[Sequence[Card]], foundation: Sequence[Card] = (), preset: str = ""
    ) -> None:
        self.piles = [list(pile) for pile in piles]
        self.foundation = list(foundation)
        self.preset = preset
        self._moves: list[Move] = []

    @classmethod
    def from_layout(cls, layout: Layout) -> SprigPosition:
        """The position of a layout; its foundation must be built Ace, 2, 3, 4, Ace, ..."""
        if find_preset(layout.preset).family != cls.family:
            raise LayoutError(f"preset {layout.preset!r} is not a sprig game", "wrong-preset")
        foundation = layout.foundation_map.get(FOUNDATION, ())
        for index, card in enumerate(foundation):
            if card.rank != index % RANKS + 1:
                raise LayoutError(
                    f"foundation card {index + 1} ({card}) breaks the Ace, 2, 3, 4 build",
                    "foundation-order",
                )
        return cls(layout.piles, foundation, layout.preset)

    @classmethod
    def why_not_from_deal(cls, dealt: Layout, layout: Layout) -> str | None:
        """A pile that no moves from ``dealt`` can build (a necessary condition only)."""
        for number, (dealt_pile, pile) in enumerate(
            zip(dealt.piles, layout.piles, strict=True), start=1
        ):
            problem = placed_cards_problem(dealt_pile, pile, _never_placed, f"pile {number}")
            if problem is not None:
                return problem
        return None

    def to_layout(self, preset: str | None = None, number: int | None = None) -> Layout:
        return Layout(
            preset or self.preset,
            number,
            piles=tuple(tuple(pile) for pile in self.piles),
            foundations=((FOUNDATION, tuple(self.foundation)),),
        )

    def _wanted(self) -> int:
        """The rank the foundation takes next."""
        return len(self.foundation) % RANKS + 1

    def legal_moves(self) -> Iterator[Move]:
        for source, pile in enumerate(self.piles, start=1):
            if pile and pile[-1].rank == self._wanted():
                yield Transfer(source, FOUNDATION)

    def why_illegal(self, move: Move) -> str | None:
        if not isinstance(move, Transfer) or move.dst != FOUNDATION or move.from_foundation:
            return "the only move plays a pile's exposed card to the foundation, e.g. '2>F'"
        assert isinstance(move.src, int)
        if not 1 <= move.src <= len(self.piles) or not self.piles[move.src - 1]:
            return f"pile {move.src} holds no card"
        card = self.piles[move.src - 1][-1]
        return None if card.rank == self._wanted() else f"the foundation does not take {card}"

    def push(self, move: Move) -> None:
        assert isinstance(move, Transfer) and isinstance(move.src, int)
        self.foundation.append(self.piles[move.src - 1].pop())
        self._moves.append(move)

    def pop(self) -> Move:
        move = self._moves.pop()
        assert isinstance(move, Transfer) and isinstance(move.src, int)
        self.piles[move.src - 1].append(self.foundation.pop())
        return move

    def is_won(self) -> bool:
        return not any(self.piles)

    def render(self, color: bool = False) -> str:
        top = str(self.foundation[-1]) if self.foundation else "--"
        lines = [f"F: {top}"]
        lines += [
            f"{n}: {' '.join(map(str, pile))}".rstrip() for n, pile in enumerate(self.piles, 1)
        ]
        return "\n".join(lines)

    def key(self) -> tuple:
        """The piles: they say which cards are home, and so the foundation's next rank."""
        return tuple(tuple(pile) for pile in self.piles)

    def copy(self) -> SprigPosition:
        return SprigPosition(self.piles, self.foundation, self.preset)

    def cards_home(self) -> int:
        return len(self.foundation)
