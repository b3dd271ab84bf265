"""The interface every reference rules engine offers.

Engines are plain, readable Python; they judge every route the toolkit writes. In the style
of python-chess: ``legal_moves()`` is lazy, ``push(move)`` applies a move *without* checking
it (use :meth:`Position.why_illegal` or :meth:`Position.is_legal` first), ``pop()`` undoes the
last push exactly.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import ClassVar

from ..core.cards import Card
from ..core.notation import Move
from ..games.layout import Layout


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in the position."""


class Position(ABC):
    """A position of one rule family; subclasses hold the state and the rules."""

    #: The name of the rule family (a key of :data:`!cloversolve.games.FAMILIES`).
    family: ClassVar[str]

    @classmethod
    @abstractmethod
    def from_layout(cls, layout: Layout) -> Position:
        """Build the position a layout describes (applying any automatic moves); raise
        :class:`~cloversolve.games.layout.LayoutError` when the layout breaks a rule of the family
        that every position obeys (foundation order, ...)."""

    @classmethod
    @abstractmethod
    def why_not_from_deal(cls, dealt: Layout, layout: Layout) -> str | None:
        """A reason why ``layout`` cannot arise from the deal ``dealt`` by legal moves, or
        ``None`` when the family's check finds none (both layouts valid positions of one
        preset: see :func:`!cloversolve.rules.layout_check.check_layout`). A reason is a proof that
        the layout is not reachable; ``None`` proves reachability only where the engine's
        docstring says so."""

    @abstractmethod
    def to_layout(self, preset: str, number: int | None = None) -> Layout:
        """The position as plain data."""

    @abstractmethod
    def legal_moves(self) -> Iterator[Move]:
        """The legal player moves, generated lazily in a fixed, deterministic order."""

    @abstractmethod
    def why_illegal(self, move: Move) -> str | None:
        """``None`` if ``move`` is legal here, else a short reason in plain words."""

    @abstractmethod
    def push(self, move: Move) -> None:
        """Play ``move`` (not checked) and any automatic moves that follow it."""

    @abstractmethod
    def pop(self) -> Move:
        """Undo the last :meth:`push` exactly and return its move."""

    @abstractmethod
    def is_won(self) -> bool:
        """True when every card is on the foundations (removed, in ``fifteen``)."""

    @abstractmethod
    def render(self, color: bool = False) -> str:
        """Multi-line text of the position with suit symbols (ANSI colours if ``color``)."""

    @abstractmethod
    def key(self) -> tuple:
        """A hashable value equal for equal positions (history excluded)."""

    def play_state(self) -> Hashable:
        """What decides the rest of the game: positions of equal play state have the same
        futures. The :meth:`key` unless the family knows a coarser one."""
        return self.key()

    @abstractmethod
    def copy(self) -> Position:
        """An independent copy of the position, without its move history."""

    @abstractmethod
    def cards_home(self) -> int:
        """Cards on the foundations (removed from the game, in ``fifteen``)."""

    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards in play that a player cannot see (a stock's), in the engine's order;
        none when every card is face up."""
        return ()

    def with_unseen_cards(self, order: Sequence[Card]) -> Position:
        """A copy without move history in which the unseen cards come in ``order`` (a
        permutation of :meth:`unseen_cards`), the seen ones unchanged; a family with no
        unseen cards returns a plain :meth:`copy`."""
        if sorted(order) != sorted(self.unseen_cards()):
            raise ValueError("the order is not a permutation of the unseen cards")
        return self.copy()

    def visibly_lost(self) -> bool:
        """True for a loss the family's rules make plain to a player at a glance (a sound
        test, never a search); False when nothing is plain."""
        return False

    def build_places(self) -> int:
        """How open the tableau is for building, as a player weighs it (higher is better);
        0 in families without building."""
        return 0

    def is_legal(self, move: Move) -> bool:
        return self.why_illegal(move) is None

    def is_blocked(self) -> bool:
        """True when the game is not won and no legal move exists."""
        return not self.is_won() and next(self.legal_moves(), None) is None

    def push_checked(self, move: Move) -> None:
        """Play ``move`` after checking it; raise :class:`IllegalMoveError` with the reason."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {str(move)!r}: {reason}")
        self.push(move)


def placed_cards_problem(
    dealt: Sequence[Card],
    pile: Sequence[Card],
    placeable: Callable[[Card, Card | None], bool],
    name: str,
) -> str | None:
    """Why ``pile`` cannot be the pile that was dealt as ``dealt``, in a family where only a
    pile's top card leaves it and a card goes on top of it only when ``placeable(card, top)``
    (``top`` is ``None`` for an empty pile). ``None`` when no reason is found.

    The argument: a card that has never moved lies where it was dealt, and so does every card
    below it (they can leave only after it). Any other card was last put on this pile by a move
    when the card now below it was the top (or the pile was empty), and cannot have changed
    since. So above the longest bottom part that matches the deal, each card must be
    placeable on the one below it.
    """
    kept = 0
    while kept < min(len(pile), len(dealt)) and pile[kept] == dealt[kept]:
        kept += 1
    for height in range(kept, len(pile)):
        card = pile[height]
        below = pile[height - 1] if height else None
        if not placeable(card, below):
            where = f"on {below}" if below is not None else "at the bottom"
            return (
                f"{name} holds {card} {where}, where the deal did not put it "
                "and no move can place it"
            )
    return None


def depth_of(pile: Sequence[Card], wanted: Callable[[Card], bool]) -> int | None:
    """How many cards lie above the topmost wanted card of ``pile`` (bottom to top)."""
    for depth, card in enumerate(reversed(pile)):
        if wanted(card):
            return depth
    return None
