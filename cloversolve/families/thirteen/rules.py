"""Reference engine of Four Leaf Clovers (presets ``thirteen`` and ``thirteen-return``).

The rules are those of RULES.md (sections ``thirteen`` and ``thirteen-return``). The engine
also plays the tiny games of the exhaustive tests (section "Tiny games"; suits may be left
out as well).

Moves are :class:`~cloversolve.core.notation.Transfer` values: ``4>F``, ``4>11`` and ``F>7``.
The engine is plain Python and judges every route the toolkit writes.

>>> position = ThirteenPosition.parse([["KS", "AH"], ["2C"], ["QD", "KH"]])
>>> [str(move) for move in position.legal_moves()]
['1>F', '1>2', '1>3', '2>1', '3>1']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import ClassVar

from ...core.cards import KING, Card
from ...core.notation import FOUNDATION, Move, Place, Transfer
from ...core.wording import count
from ...games.layout import Layout, LayoutError
from ...games.registry import family_preset, find_preset
from ...rules.base import Position, placed_cards_problem

_RED = "\x1b[31m"
_RESET = "\x1b[0m"


def rank_above(rank: int, ranks: int = KING) -> int:
    """The rank one higher, the top rank wrapping to the Ace."""
    return rank % ranks + 1


def rank_below(rank: int, ranks: int = KING) -> int:
    """The rank one lower, the Ace wrapping to the top rank."""
    return (rank - 2) % ranks + 1


def are_neighbours(a: int, b: int, ranks: int = KING) -> bool:
    """True when ranks ``a`` and ``b`` differ by one, wrapping between the top rank and Ace."""
    return b in (rank_above(a, ranks), rank_below(a, ranks))


def _placeable(card: Card, top: Card | None) -> bool:
    """Whether a move may put ``card`` on a pile whose top card is ``top`` (``None``: empty)."""
    return top is not None and are_neighbours(card.rank, top.rank)


class ThirteenPosition(Position):
    """A position: piles (bottom to top) and the foundation (bottom to top).

    ``ranks`` is the number of ranks in the deck (13 for the presets; fewer for tiny test
    games, where "King" means rank ``ranks``). ``allow_return`` enables ``F>j`` moves
    (``thirteen-return``). Any set of distinct cards is allowed in the piles; the foundation
    must be a legal build (Ace, then one rank up each card, wrapping).
    """

    family: ClassVar[str] = "thirteen"

    def __init__(
        self,
        piles: Iterable[Iterable[Card]],
        foundation: Iterable[Card] = (),
        *,
        ranks: int = KING,
        allow_return: bool = False,
    ) -> None:
        if not 2 <= ranks <= KING:
            raise ValueError(f"ranks must be 2..{KING}, got {ranks!r}")
        self.piles: list[list[Card]] = [list(pile) for pile in piles]
        self.foundation: list[Card] = list(foundation)
        self.ranks = ranks
        self.allow_return = allow_return
        self._moves: list[Move] = []
        self._check_cards()

    def _check_cards(self) -> None:
        cards = [card for pile in self.piles for card in pile] + self.foundation
        if len(set(cards)) != len(cards):
            raise LayoutError("a card appears twice in the position", "duplicate-card")
        too_high = [str(c) for c in cards if c.rank > self.ranks]
        if too_high:
            raise LayoutError(
                f"card {too_high[0]} is above the deck's top rank {self.ranks}", "foreign-card"
            )
        for index, card in enumerate(self.foundation):
            if card.rank != index % self.ranks + 1:
                raise LayoutError(
                    f"foundation card {index + 1} ({card}) breaks the A, 2, 3 ... build",
                    "foundation-order",
                )

    # -- construction and plain data ---------------------------------------------------------

    @classmethod
    def from_layout(cls, layout: Layout) -> ThirteenPosition:
        """The position of a ``thirteen`` or ``thirteen-return`` layout."""
        preset = find_preset(layout.preset)
        if preset.family != cls.family:
            raise LayoutError(
                f"preset {preset.name!r} is not played by the thirteen engine", "wrong-preset"
            )
        return cls(
            layout.piles,
            layout.foundation_map.get(FOUNDATION, ()),
            allow_return=preset.foundation_return,
        )

    @classmethod
    def why_not_from_deal(cls, dealt: Layout, layout: Layout) -> str | None:
        """A pile that no sequence of moves from ``dealt`` can build (see
        :func:`~cloversolve.rules.base.placed_cards_problem`: a card goes only onto a non-empty
        pile whose top is a rank neighbour, foundation returns included). ``None`` does not
        prove that ``layout`` is reachable: the check looks at each pile on its own."""
        for number, (dealt_pile, pile) in enumerate(
            zip(dealt.piles, layout.piles, strict=True), start=1
        ):
            problem = placed_cards_problem(dealt_pile, pile, _placeable, f"pile {number}")
            if problem is not None:
                return problem
        return None

    def to_layout(self, preset: str | None = None, number: int | None = None) -> Layout:
        """The position as a layout (preset chosen by ``allow_return`` when not given)."""
        if preset is None:
            preset = family_preset(self.family, foundation_return=self.allow_return).name
        return Layout(
            preset,
            number,
            piles=tuple(tuple(pile) for pile in self.piles),
            foundations=((FOUNDATION, tuple(self.foundation)),),
        )

    def copy(self) -> ThirteenPosition:
        """An independent copy of the position (without the move history)."""
        return ThirteenPosition(
            self.piles, self.foundation, ranks=self.ranks, allow_return=self.allow_return
        )

    def cards_home(self) -> int:
        return len(self.foundation)

    def visibly_lost(self) -> bool:
        """No King left at the bottom of a pile while the game is not won (FACTS.md, fact 1)."""
        if self.is_won():
            return False
        return not any(pile and pile[0].rank == self.ranks for pile in self.piles)

    def build_places(self) -> int:
        """Non-empty piles: the places a card can still be built on."""
        return sum(1 for pile in self.piles if pile)

    # -- rules --------------------------------------------------------------------------------

    @property
    def needed_rank(self) -> int:
        """The rank the foundation takes next (an Ace when it is empty)."""
        return len(self.foundation) % self.ranks + 1

    def _neighbours(self, a: int, b: int) -> bool:
        return are_neighbours(a, b, self.ranks)

    def legal_moves(self) -> Iterator[Move]:
        """Foundation moves by pile, then pile-to-pile moves by (source, target), then
        (``thirteen-return``) foundation-to-pile moves by target."""
        need = self.needed_rank
        for src, pile in enumerate(self.piles, start=1):
            if pile and pile[-1].rank == need:
                yield Transfer(src, FOUNDATION)
        for src, pile in enumerate(self.piles, start=1):
            if not pile:
                continue
            for dst, target in enumerate(self.piles, start=1):
                if dst != src and target and self._neighbours(pile[-1].rank, target[-1].rank):
                    yield Transfer(src, dst)
        if self.allow_return and self.foundation:
            rank = self.foundation[-1].rank
            for dst, target in enumerate(self.piles, start=1):
                if target and self._neighbours(rank, target[-1].rank):
                    yield Transfer(FOUNDATION, dst)

    def why_illegal(self, move: Move) -> str | None:
        if not isinstance(move, Transfer):
            return "only single-card moves (such as 4>F or 4>11) exist in this game"
        src, dst = move
        for place in (src, dst):
            if not isinstance(place, int) and place != FOUNDATION:
                return f"this game has one foundation, called {FOUNDATION}, not {place}"
            if isinstance(place, int) and not 1 <= place <= len(self.piles):
                return f"there is no pile {place} (piles are 1..{len(self.piles)})"
        if src == dst:
            return "a card cannot move onto its own pile"
        if not isinstance(src, int):
            return self._why_illegal_return(dst)
        pile = self.piles[src - 1]
        if not pile:
            return f"pile {src} is empty"
        card = pile[-1]
        if not isinstance(dst, int):
            if card.rank != self.needed_rank:
                return f"the foundation needs rank {self.needed_rank}, not {card}"
            return None
        return self._why_illegal_onto(card, dst)

    def _why_illegal_return(self, dst: Place) -> str | None:
        if not isinstance(dst, int):
            return "a card cannot move from the foundation to the foundation"
        if not self.allow_return:
            return "foundation cards never return to the piles in this preset"
        if not self.foundation:
            return "the foundation is empty"
        return self._why_illegal_onto(self.foundation[-1], dst)

    def _why_illegal_onto(self, card: Card, dst: int) -> str | None:
        target = self.piles[dst - 1]
        if not target:
            return f"pile {dst} is empty, and nothing may be placed on an empty pile"
        if not self._neighbours(card.rank, target[-1].rank):
            return f"{card} is not one rank above or below {target[-1]}"
        return None

    def push(self, move: Move) -> None:
        """Play ``move`` without checking it."""
        assert isinstance(move, Transfer)
        self._cards_at(move.dst).append(self._cards_at(move.src).pop())
        self._moves.append(move)

    def pop(self) -> Move:
        move = self._moves.pop()
        assert isinstance(move, Transfer)
        self._cards_at(move.src).append(self._cards_at(move.dst).pop())
        return move

    def _cards_at(self, place: Place) -> list[Card]:
        """The pile a place names, or the foundation."""
        return self.piles[place - 1] if isinstance(place, int) else self.foundation

    def is_won(self) -> bool:
        return not any(self.piles)

    def key(self) -> tuple:
        return tuple(tuple(pile) for pile in self.piles), tuple(self.foundation)

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed so far, oldest first."""
        return list(self._moves)

    # -- display ------------------------------------------------------------------------------

    def render(self, color: bool = False) -> str:
        """The foundation's top card (and count), then each pile bottom to top."""

        def show(card: Card) -> str:
            text = card.symbol()
            return f"{_RED}{text}{_RESET}" if color and card.is_red else text

        top = show(self.foundation[-1]) if self.foundation else "--"
        lines = [f"F: {top} ({count(len(self.foundation), 'card')})"]
        width = len(str(len(self.piles)))
        for number, pile in enumerate(self.piles, start=1):
            lines.append(f"{number:>{width}}: " + " ".join(show(card) for card in pile))
        return "\n".join(line.rstrip() for line in lines)

    def __repr__(self) -> str:
        piles = [[str(card) for card in pile] for pile in self.piles]
        foundation = [str(card) for card in self.foundation]
        return (
            f"ThirteenPosition.parse({piles!r}, {foundation!r}, ranks={self.ranks}, "
            f"allow_return={self.allow_return})"
        )

    @classmethod
    def parse(
        cls,
        piles: Sequence[Sequence[str]],
        foundation: Sequence[str] = (),
        *,
        ranks: int = KING,
        allow_return: bool = False,
    ) -> ThirteenPosition:
        """Build a position from card strings, e.g. ``parse([["KS", "2H"], ["AD"]])``."""
        return cls(
            [[Card.parse(text) for text in pile] for pile in piles],
            [Card.parse(text) for text in foundation],
            ranks=ranks,
            allow_return=allow_return,
        )
