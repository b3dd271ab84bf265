"""Reference engine of the ``hole`` family: Black Hole and All in a Row.

The rules are those of RULES.md (section "Reference presets"): one foundation ``F``, and the
only move plays a fan's top card to it (``4>F``).

For exhaustive tests the engine also plays the tiny games of RULES.md (section "Tiny games"),
with any number of fans of any heights.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from ...core.cards import Card
from ...core.notation import FOUNDATION, Move, Transfer
from ...core.wording import count
from ...games.layout import Layout, LayoutError
from ...games.registry import find_preset
from ...rules.base import Position, placed_cards_problem

_RED = "\x1b[31m"
_RESET = "\x1b[0m"
#: Fewer ranks than this would make "one above" and "one below" the same rank.
MIN_RANKS = 3


def ranks_adjacent(a: int, b: int, ranks: int = 13) -> bool:
    """True when ranks ``a`` and ``b`` differ by one, ``ranks`` and 1 being neighbours."""
    return (a - b) % ranks in (1, ranks - 1)


def _never_placed(card: Card, top: Card | None) -> bool:
    """No move puts a card on a fan in this family."""
    return False


class HolePosition(Position):
    """A Black Hole / All in a Row position: fans (bottom to top) and the foundation pile.

    Args:
        piles: the fans in fan-number order, each listed bottom to top.
        foundation: the foundation's cards, bottom to top (empty for a fresh All in a Row).
        ranks: the highest rank in play (13 for real games); ranks wrap from it to 1.
    """

    family: ClassVar[str] = "hole"

    def __init__(
        self,
        piles: Sequence[Sequence[Card]],
        foundation: Sequence[Card] = (),
        ranks: int = 13,
    ) -> None:
        if not MIN_RANKS <= ranks <= 13:
            raise ValueError(f"ranks must be {MIN_RANKS}..13, got {ranks!r}")
        self.ranks = ranks
        self.piles: list[list[Card]] = [list(pile) for pile in piles]
        self.foundation: list[Card] = list(foundation)
        self._history: list[Move] = []
        cards = [c for pile in self.piles for c in pile] + self.foundation
        bad = [str(c) for c in cards if not 1 <= c.rank <= ranks]
        if bad:
            raise LayoutError(f"card {bad[0]} is above the highest rank {ranks}", "foreign-card")
        if len(set(cards)) != len(cards):
            raise LayoutError("a card appears twice in the position", "duplicate-card")

    @classmethod
    def from_layout(cls, layout: Layout) -> HolePosition:
        """The position of a ``blackhole``/``allinarow`` layout. Its foundation must start with
        the preset's foundation cards (A-spades in Black Hole) and then hold a chain of cards,
        each one rank above or below the card before it: the only order play can build."""
        spec = find_preset(layout.preset)
        if spec.family != cls.family:
            raise LayoutError(
                f"preset {layout.preset!r} is not a Black Hole / All in a Row game", "wrong-preset"
            )
        position = cls(layout.piles, layout.foundation_map.get(FOUNDATION, ()))
        foundation, base = position.foundation, spec.foundation_cards
        if tuple(foundation[: len(base)]) != base:
            shown = " ".join(map(str, base))
            raise LayoutError(
                f"the {spec.name} foundation must start with {shown}", "foundation-order"
            )
        for below, card in zip(foundation, foundation[1:], strict=False):
            if not ranks_adjacent(card.rank, below.rank, position.ranks):
                raise LayoutError(
                    f"foundation out of order: {card} lies on {below}, not one rank apart",
                    "foundation-order",
                )
        return position

    @classmethod
    def why_not_from_deal(cls, dealt: Layout, layout: Layout) -> str | None:
        """Why ``layout`` cannot arise from ``dealt``: exact for this family.

        Cards only leave the fans, from the top, for the foundation. So a reachable layout has
        every fan a bottom part of its dealt fan, the dealt foundation at the bottom of the
        foundation, and the cards taken from one fan on the foundation in top-down order. With
        the foundation chain that :meth:`from_layout` checks these conditions are also
        sufficient: playing the foundation's cards above the dealt ones in their order is a
        legal route from the deal (each card is then its fan's top card and the foundation
        takes it). So ``None`` proves that ``layout`` is reachable from ``dealt``.
        """
        base = dealt.foundation_map.get(FOUNDATION, ())
        foundation = layout.foundation_map.get(FOUNDATION, ())
        if tuple(foundation[: len(base)]) != tuple(base):
            return "the foundation does not start with the deal's foundation cards"
        fans = list(zip(dealt.piles, layout.piles, strict=True))
        for number, (dealt_fan, fan) in enumerate(fans, start=1):
            problem = placed_cards_problem(dealt_fan, fan, _never_placed, f"fan {number}")
            if problem is not None:
                return problem
        played = {card: index for index, card in enumerate(foundation)}
        for number, (dealt_fan, fan) in enumerate(fans, start=1):
            taken = dealt_fan[len(fan) :]
            for lower, upper in zip(taken, taken[1:], strict=False):
                if played[lower] < played[upper]:
                    return (
                        f"{lower} reached the foundation before {upper}, "
                        f"which lay on it in fan {number}"
                    )
        return None

    def to_layout(self, preset: str, number: int | None = None) -> Layout:
        return Layout(
            preset,
            number,
            piles=tuple(tuple(pile) for pile in self.piles),
            foundations=((FOUNDATION, tuple(self.foundation)),),
        )

    def cards_home(self) -> int:
        return len(self.foundation)

    def copy(self) -> HolePosition:
        """An independent copy without the move history."""
        return HolePosition(self.piles, self.foundation, self.ranks)

    @property
    def foundation_top(self) -> Card | None:
        return self.foundation[-1] if self.foundation else None

    def accepts(self, card: Card) -> bool:
        """True when the foundation takes ``card`` now."""
        top = self.foundation_top
        return top is None or ranks_adjacent(card.rank, top.rank, self.ranks)

    def legal_moves(self) -> Iterator[Move]:
        for number, pile in enumerate(self.piles, start=1):
            if pile and self.accepts(pile[-1]):
                yield Transfer(number, FOUNDATION)

    def why_illegal(self, move: Move) -> str | None:
        if not isinstance(move, Transfer) or move.dst != FOUNDATION:
            return "the only move is a fan's top card to the foundation, e.g. '4>F'"
        if not isinstance(move.src, int):
            return "cards never leave the foundation"
        if not 1 <= move.src <= len(self.piles):
            return f"there is no fan {move.src} (fans are 1..{len(self.piles)})"
        pile = self.piles[move.src - 1]
        if not pile:
            return f"fan {move.src} is empty"
        if not self.accepts(pile[-1]):
            top = self.foundation_top
            return f"{pile[-1]} is not one rank above or below the foundation's {top}"
        return None

    def push(self, move: Move) -> None:
        assert isinstance(move, Transfer) and isinstance(move.src, int)
        self.foundation.append(self.piles[move.src - 1].pop())
        self._history.append(move)

    def pop(self) -> Move:
        move = self._history.pop()
        assert isinstance(move, Transfer) and isinstance(move.src, int)
        self.piles[move.src - 1].append(self.foundation.pop())
        return move

    @property
    def move_stack(self) -> tuple[Move, ...]:
        """The moves pushed so far, oldest first."""
        return tuple(self._history)

    def is_won(self) -> bool:
        return not any(self.piles)

    def cards_left(self) -> int:
        """The number of cards still in the fans."""
        return sum(len(pile) for pile in self.piles)

    def key(self) -> tuple:
        """Fans plus the foundation's top card: the cards below it never affect play."""
        return tuple(tuple(pile) for pile in self.piles), self.foundation_top

    def play_state(self) -> tuple:
        """The fans and the foundation's top rank: all that decides the rest of the game."""
        top = self.foundation_top
        return tuple(tuple(pile) for pile in self.piles), None if top is None else top.rank

    def render(self, color: bool = False) -> str:
        top = self.foundation_top
        lines = [
            f"F: {_show(top, color) if top else '--'}  ({count(len(self.foundation), 'card')})"
        ]
        width = len(str(len(self.piles)))
        for number, pile in enumerate(self.piles, start=1):
            cards = " ".join(_show(c, color) for c in pile)
            lines.append(f"{number:>{width}}: {cards}".rstrip())
        return "\n".join(lines)

    def __repr__(self) -> str:
        piles = [[str(c) for c in pile] for pile in self.piles]
        found = [str(c) for c in self.foundation]
        return f"HolePosition(piles={piles}, foundation={found}, ranks={self.ranks})"


def _show(card: Card, color: bool) -> str:
    text = card.symbol()
    return f"{_RED}{text}{_RESET}" if color and card.is_red else text
