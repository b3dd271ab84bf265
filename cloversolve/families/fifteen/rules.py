"""Reference engine of the 15-sum game (preset ``fifteen``, Four Leaf Clover).

The rules are those of RULES.md (section ``fifteen``): sixteen grid cells (1..16, row by row)
and a stock that refills emptied cells in ascending cell number.

Moves are :class:`~cloversolve.core.notation.Group` values (``3+7+12``). The engine is plain Python
and judges every route the toolkit writes.

>>> from cloversolve.games.dealing import deal
>>> position = FifteenPosition.from_layout(deal("fifteen", 1))
>>> len(position.stock)
32
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import ClassVar

from ...core.cards import JACK, KING, QUEEN, RED_SUITS, SUITS, Card, full_deck
from ...core.notation import GRID_CELLS, Group, Move
from ...core.wording import count
from ...games.layout import Layout, LayoutError
from ...games.registry import family_preset, find_preset
from ...rules.base import Position

#: The sum every group of number cards must reach.
TARGET = 15
#: Ranks that count as numbers (the Tens are not in the game).
NUMBER_RANKS = tuple(range(1, 10))
#: The court ranks, removable only together as one suit's trio.
COURT_RANKS = (JACK, QUEEN, KING)

#: Every set of number ranks (A..9) totalling 15: 17 of them.
NUMBER_GROUPS: tuple[tuple[int, ...], ...] = tuple(
    combo
    for size in range(2, 6)
    for combo in itertools.combinations(range(1, 10), size)
    if sum(combo) == TARGET
)
#: The cards of the game: every card but the Tens.
_GAME_CARDS = len(SUITS) * (len(NUMBER_RANKS) + len(COURT_RANKS))
#: Every removable group as a set of cards: each suit's number groups and its court trio.
_GROUPS = frozenset(
    frozenset(Card(rank, suit) for rank in ranks)
    for suit in SUITS
    for ranks in (*NUMBER_GROUPS, COURT_RANKS)
)
#: The cards left out of the game.
_TENS = frozenset(Card(10, suit) for suit in SUITS)
#: Grid width, for rendering.
GRID_WIDTH = 4

_RED = "\x1b[31m"
_RESET = "\x1b[0m"


def is_number(card: Card) -> bool:
    """True for A..9, the cards that count by value."""
    return card.rank in NUMBER_RANKS


def group_reason(cards: Sequence[Card]) -> str | None:
    """``None`` if ``cards`` form a removable group, else the reason in plain words."""
    if len(cards) < 2:
        return "a group needs at least two cards"
    if len({card.suit for card in cards}) != 1:
        return "a group's cards must all be of one suit"
    if any(card.rank == 10 for card in cards):
        return "Tens are not in this game"
    if all(is_number(card) for card in cards):
        total = sum(card.rank for card in cards)
        return None if total == TARGET else f"the numbers total {total}, not {TARGET}"
    if sorted(card.rank for card in cards) == list(COURT_RANKS):
        return None
    return "court cards go only as one suit's Jack, Queen and King together"


class FifteenPosition(Position):
    """A position: 16 cells (a card or ``None``) and the stock (next card drawn first).

    Any set of distinct cards without Tens is allowed, so tests can build tiny games (one
    suit, a short stock). An empty cell while the stock still holds cards cannot arise in
    play and is rejected.
    """

    family: ClassVar[str] = "fifteen"

    def __init__(self, cells: Sequence[Card | None], stock: Iterable[Card] = ()) -> None:
        cells = tuple(cells)
        stock = tuple(stock)
        if len(cells) != GRID_CELLS:
            raise LayoutError(f"the grid has {GRID_CELLS} cells, got {len(cells)}", "cell-count")
        empty = cells.count(None)
        cards = set(cells)
        cards.discard(None)
        cards.update(stock)
        if len(cards) != GRID_CELLS - empty + len(stock):
            raise LayoutError("a card appears twice in the position", "duplicate-card")
        if not cards.isdisjoint(_TENS):
            ten = next(c for c in (*cells, *stock) if c is not None and c.rank == 10)
            raise LayoutError(f"card {ten} is not in the 15-sum game (no Tens)", "foreign-card")
        if stock and empty:
            raise LayoutError(
                "an empty cell while the stock holds cards cannot arise", "empty-cell-with-stock"
            )
        self.cells: list[Card | None] = list(cells)
        self._stock = stock
        self._drawn = 0
        self.move_stack: list[Group] = []
        self._undo: list[tuple[tuple[Card | None, ...], int]] = []

    # -- construction and plain data ------------------------------------------------------

    @classmethod
    def from_layout(cls, layout: Layout) -> FifteenPosition:
        """The position of a ``fifteen`` layout. The cards of the preset's deck that it lacks
        are the removed ones; they must split into groups the rules remove (per suit: number
        cards totalling 15 each, and the court trio whole or not at all)."""
        spec = find_preset(layout.preset)
        if spec.family != cls.family:
            raise LayoutError(f"preset {layout.preset!r} is not a fifteen game", "wrong-preset")
        position = cls(layout.cells, layout.stock)
        # The cards are distinct and none is a Ten: 48 of them are every card of the game, so
        # a dealt layout lacks none and has nothing to check.
        if position.cards_left() < _GAME_CARDS:
            deck = full_deck(without_ranks=spec.dropped_ranks)
            present = set(position.grid_cards())
            present.update(position.stock)
            removed = [c for c in deck if c not in present]
            problem = removed_cards_problem(removed)
            if problem is not None:
                raise LayoutError(problem, "removed-cards")
        return position

    @classmethod
    def why_not_from_deal(cls, dealt: Layout, layout: Layout) -> str | None:
        """Why ``layout`` cannot arise from ``dealt``: cards are drawn only from the front of
        the stock, and a card never leaves its cell except to be removed. So the stock must be
        an end part of the dealt stock, and each card in the grid must be the card dealt to its
        cell or a card drawn from the stock since. ``None`` does not prove that ``layout`` is
        reachable (which cell a drawn card fills, and the removed groups' order, are not
        checked)."""
        drawn = len(dealt.stock) - len(layout.stock)
        if drawn < 0 or tuple(dealt.stock[drawn:]) != tuple(layout.stock):
            return "the stock is not the end part of the deal's stock"
        from_stock = set(dealt.stock[:drawn])
        cells = zip(dealt.cells, layout.cells, strict=True)
        for cell, (dealt_card, card) in enumerate(cells, start=1):
            if card is not None and card != dealt_card and card not in from_stock:
                return (
                    f"cell {cell} holds {card}, which was neither dealt there "
                    "nor drawn from the stock"
                )
        return None

    def to_layout(self, preset: str | None = None, number: int | None = None) -> Layout:
        """The position as a layout (of the family's preset when ``preset`` is not given)."""
        if preset is None:
            preset = family_preset(self.family).name
        return Layout(preset, number, cells=tuple(self.cells), stock=self.stock)

    def cards_home(self) -> int:
        """Cards of the 48-card deck no longer in the grid or the stock."""
        return _GAME_CARDS - self.cards_left()

    def copy(self) -> FifteenPosition:
        """The same position without its move history."""
        return FifteenPosition(self.cells, self.stock)

    def unseen_cards(self) -> tuple[Card, ...]:
        """The stock: a player sees the grid, never the stock's order."""
        return self.stock

    def with_unseen_cards(self, order: Sequence[Card]) -> FifteenPosition:
        """The grid with the stock in ``order`` (a permutation of the stock)."""
        if sorted(order) != sorted(self.stock):
            raise ValueError("the order is not a permutation of the stock")
        return FifteenPosition(self.cells, order)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards still in the stock, next drawn first."""
        return self._stock[self._drawn :]

    def grid_cards(self) -> list[Card]:
        """The cards in the grid, in cell order."""
        return [c for c in self.cells if c is not None]

    def cards_left(self) -> int:
        """Cards in the grid and the stock."""
        return GRID_CELLS - self.cells.count(None) + len(self._stock) - self._drawn

    # -- rules ------------------------------------------------------------------------

    def legal_moves(self) -> Iterator[Group]:
        """Per suit (C D H S): the number groups in lexicographic order of their cells, then
        the court trio."""
        for suit in SUITS:
            numbers = [
                (cell, card.rank)
                for cell, card in enumerate(self.cells, start=1)
                if card is not None and card.suit == suit and is_number(card)
            ]
            yield from _subsets_summing(numbers, TARGET)
            court = [
                cell
                for cell, card in enumerate(self.cells, start=1)
                if card is not None and card.suit == suit and card.rank in COURT_RANKS
            ]
            if len(court) == len(COURT_RANKS):
                yield Group(tuple(court))

    def why_illegal(self, move: Move) -> str | None:
        if not isinstance(move, Group):
            return "only groups of grid cells are moves in this game"
        cells = move.cells
        if self._removable(cells):
            return None
        if any(not isinstance(c, int) or not 1 <= c <= GRID_CELLS for c in cells):
            return f"grid cells are 1..{GRID_CELLS}"
        if any(a >= b for a, b in zip(cells, cells[1:], strict=False)):
            return "cells must be distinct and ascending"
        empty = [c for c in cells if self.cells[c - 1] is None]
        if empty:
            return f"cell {empty[0]} is empty"
        return group_reason([card for c in cells if (card := self.cells[c - 1]) is not None])

    def _removable(self, cells: tuple[int, ...]) -> bool:
        """True exactly when :meth:`why_illegal` finds nothing wrong with ``cells``; a fast
        path that builds no text, for the legal moves of a replayed route."""
        grid = self.cells
        previous = 0
        for cell in cells:
            if not isinstance(cell, int) or not previous < cell <= GRID_CELLS:
                return False
            previous = cell
        return frozenset([grid[cell - 1] for cell in cells]) in _GROUPS  # (no group holds None)

    def push(self, move: Move) -> None:
        """Remove the group's cards and refill their cells from the stock (ascending cells).

        Not checked: see :meth:`why_illegal`.
        """
        assert isinstance(move, Group)
        grid, stock, drawn = self.cells, self._stock, self._drawn
        self._undo.append((tuple(grid), drawn))
        self.move_stack.append(move)
        for cell in move.cells:
            grid[cell - 1] = None
        for cell in move.cells:
            if drawn < len(stock):
                grid[cell - 1] = stock[drawn]
                drawn += 1
        self._drawn = drawn

    def pop(self) -> Group:
        cells, drawn = self._undo.pop()
        self.cells = list(cells)
        self._drawn = drawn
        return self.move_stack.pop()

    def is_won(self) -> bool:
        return self._drawn == len(self._stock) and all(c is None for c in self.cells)

    def key(self) -> tuple:
        return tuple(self.cells), self.stock

    # -- display ------------------------------------------------------------------------

    def render(self, color: bool = False) -> str:
        rows = []
        for top in range(0, GRID_CELLS, GRID_WIDTH):
            row = self.cells[top : top + GRID_WIDTH]
            rows.append(" ".join(_cell_text(card, color) for card in row))
        rows.append(f"stock: {count(len(self.stock), 'card')}")
        return "\n".join(rows)

    def __repr__(self) -> str:
        grid = " ".join("--" if c is None else str(c) for c in self.cells)
        return f"<FifteenPosition cells=[{grid}] stock={len(self.stock)}>"


def _cell_text(card: Card | None, color: bool) -> str:
    if card is None:
        return "··"
    text = card.symbol()
    return f"{_RED}{text}{_RESET}" if color and card.suit in RED_SUITS else text


def removed_cards_problem(removed: Iterable[Card]) -> str | None:
    """Why ``removed`` cannot be the cards removed so far (``None`` if they can be): each
    suit's removed number cards must split into groups totalling 15, and its court cards
    must be none or the whole trio."""
    by_suit: dict[str, list[Card]] = {}
    for card in removed:
        by_suit.setdefault(card.suit, []).append(card)
    for suit, cards in sorted(by_suit.items()):
        courts = [c for c in cards if c.rank in COURT_RANKS]
        if courts and len(courts) != len(COURT_RANKS):
            shown = " ".join(map(str, courts))
            return f"court cards leave only as a suit's Jack, Queen and King together: {shown}"
        numbers = tuple(sorted(c.rank for c in cards if is_number(c)))
        if not _split_into_fifteens(numbers):
            shown = " ".join(str(c) for c in cards if is_number(c))
            return f"the removed {suit} number cards ({shown}) do not split into groups of 15"
    return None


def _split_into_fifteens(values: tuple[int, ...]) -> bool:
    """Whether ``values`` split into groups that each total :data:`TARGET`."""
    if not values:
        return True
    first, rest = values[0], list(enumerate(values[1:]))
    for group in _subsets_summing(rest, TARGET - first):
        chosen = set(group.cells)
        if _split_into_fifteens(tuple(v for i, v in rest if i not in chosen)):
            return True
    return False


def _subsets_summing(items: list[tuple[int, int]], target: int) -> Iterator[Group]:
    """Groups of ``(cell, value)`` items, cells ascending, whose values total ``target``,
    in lexicographic order of their cells (include-first recursion)."""
    chosen: list[int] = []

    def walk(start: int, remaining: int) -> Iterator[Group]:
        for index in range(start, len(items)):
            cell, value = items[index]
            if value > remaining:
                continue
            chosen.append(cell)
            if value == remaining:
                yield Group(tuple(chosen))
            else:
                yield from walk(index + 1, remaining - value)
            chosen.pop()

    return walk(0, target)
