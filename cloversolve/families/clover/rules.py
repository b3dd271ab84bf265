"""Reference engine of the clover family: ``cloverleaf`` (16 fans of 3), ``alexander`` (12 of 4).

The rules are those of RULES.md (sections ``cloverleaf`` and ``alexander``), automatic moves
included: :meth:`CloverPosition.push` plays the player's move and then the automatic moves,
exempting a card the move took from a foundation; :meth:`CloverPosition.pop` undoes both.

The tiny games of the exhaustive tests (RULES.md, section "Tiny games": fewer ranks per suit,
any number of fans) are built with the constructor.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import ClassVar, NamedTuple

from ...core.cards import KING, RANK_LETTERS, Card
from ...core.notation import FOUNDATION, SUIT_FOUNDATIONS, Move, Place, Transfer
from ...games.layout import Layout, LayoutError
from ...games.registry import find_preset
from ...rules.base import Position, placed_cards_problem

#: Suits in foundation order: FC, FD, FH, FS.
SUITS = "CDHS"
#: Suits whose foundation builds up from the Ace; the others build down from the top rank.
UP_SUITS = frozenset("DH")
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
_RED = "\x1b[31m"
_RESET = "\x1b[0m"


class _Played(NamedTuple):
    """Undo record of one push: the player's move, its card, the automatic moves after it."""

    move: Transfer
    card: Card
    automatic: tuple[tuple[int, Card], ...]


def placeable(card: Card, top: Card | None, ranks: int = KING) -> bool:
    """Whether ``card`` may go on a fan whose top card is ``top`` (``None``: an empty fan)."""
    if top is None:
        return card.rank in (1, ranks)
    return top.suit == card.suit and abs(top.rank - card.rank) == 1


class CloverPosition(Position):
    """A position of Clover Leaf / Alexander the Great (or a tiny game with fewer ranks).

    Args:
        fans: the fans in fan-number order, each listed bottom to top.
        foundations: cards on each foundation, bottom to top, keyed by ``FC``..``FS`` (or by the
            suit letter); missing keys mean empty foundations.
        ranks: ranks per suit (13 for the real games; fewer for tiny games).
        automatic: apply the automatic moves at once (as after a deal).

    Raises:
        LayoutError: a card missing, repeated or foreign, or a foundation out of sequence.
    """

    family: ClassVar[str] = "clover"

    def __init__(
        self,
        fans: Sequence[Sequence[Card]],
        foundations: Mapping[str, Sequence[Card]] | None = None,
        *,
        ranks: int = KING,
        automatic: bool = True,
    ) -> None:
        if not 2 <= ranks <= KING:
            raise LayoutError(f"ranks per suit must be 2..{KING}, got {ranks!r}", "bad-field")
        self.ranks = ranks
        self.fans: list[list[Card]] = [list(fan) for fan in fans]
        self.heights: dict[str, int] = {suit: 0 for suit in SUITS}
        for name, cards in (foundations or {}).items():
            suit = name[-1] if name in SUIT_FOUNDATIONS or name in tuple(SUITS) else None
            if suit is None:
                raise LayoutError(
                    f"unknown foundation {name!r} (expected FC, FD, FH or FS)", "unknown-foundation"
                )
            self._check_foundation(suit, list(cards))
            self.heights[suit] = len(cards)
        self._check_cards()
        self._history: list[_Played] = []
        if automatic:
            self._play_automatic(exempt=None)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_layout(cls, layout: Layout) -> CloverPosition:
        """The position of a ``cloverleaf``/``alexander`` layout, after the automatic moves."""
        spec = find_preset(layout.preset)
        if spec.family != cls.family:
            raise LayoutError(f"preset {layout.preset!r} is not a clover game", "wrong-preset")
        layout.validate()
        return cls(layout.piles, layout.foundation_map)

    @classmethod
    def why_not_from_deal(cls, dealt: Layout, layout: Layout) -> str | None:
        """A fan that no sequence of moves from ``dealt`` can build (see
        :func:`~cloversolve.rules.base.placed_cards_problem`: a card goes onto a fan only on a
        card of its suit one rank away, or onto an empty fan as an Ace or a King; automatic
        moves only take cards away). ``None`` does not prove that ``layout`` is reachable: the
        check looks at each fan on its own."""
        for number, (dealt_fan, fan) in enumerate(
            zip(dealt.piles, layout.piles, strict=True), start=1
        ):
            problem = placed_cards_problem(dealt_fan, fan, placeable, f"fan {number}")
            if problem is not None:
                return problem
        return None

    def _check_foundation(self, suit: str, cards: list[Card]) -> None:
        # (a foundation longer than the suit has no expected cards past its last rank)
        heights = range(1, min(len(cards), self.ranks) + 1)
        expected = [self._foundation_card(suit, height) for height in heights]
        if len(cards) > self.ranks or cards != expected:
            shown = " ".join(str(c) for c in cards)
            raise LayoutError(
                f"foundation F{suit} is out of sequence: {shown!r}", "foundation-order"
            )

    def _check_cards(self) -> None:
        deck = {Card(rank, suit) for suit in SUITS for rank in range(1, self.ranks + 1)}
        seen = {card for suit in SUITS for card in self.foundation_cards(suit)}
        for fan in self.fans:
            for card in fan:
                if card not in deck:
                    raise LayoutError(
                        f"card {card} is not in a deck of {self.ranks} ranks", "foreign-card"
                    )
                if card in seen:
                    raise LayoutError(f"duplicate card {card}", "duplicate-card")
                seen.add(card)
        missing = sorted(str(card) for card in deck - seen)
        if missing:
            raise LayoutError(f"card {missing[0]} is missing", "missing-card")

    # -- foundations --------------------------------------------------------------------------

    def base_rank(self, suit: str) -> int:
        """The rank of a foundation's first card: Ace for up-suits, the top rank otherwise."""
        return 1 if suit in UP_SUITS else self.ranks

    def _foundation_card(self, suit: str, height: int) -> Card:
        """The ``height``-th card (1-based) of ``suit``'s foundation."""
        if suit in UP_SUITS:
            return Card(height, suit)
        return Card(self.ranks + 1 - height, suit)

    def foundation_cards(self, suit: str) -> list[Card]:
        """The cards on ``suit``'s foundation, bottom to top."""
        return [self._foundation_card(suit, h) for h in range(1, self.heights[suit] + 1)]

    def foundation_top(self, suit: str) -> Card | None:
        height = self.heights[suit]
        return self._foundation_card(suit, height) if height else None

    def foundation_next(self, suit: str) -> Card | None:
        """The only card ``suit``'s foundation accepts now (``None`` once it is complete)."""
        height = self.heights[suit]
        return self._foundation_card(suit, height + 1) if height < self.ranks else None

    # -- fans ---------------------------------------------------------------------------------

    def fan_accepts(self, fan: int, card: Card) -> bool:
        """Whether ``card`` may be placed on fan ``fan`` (0-based)."""
        cards = self.fans[fan]
        return placeable(card, cards[-1] if cards else None, self.ranks)

    def _play_automatic(self, exempt: Card | None) -> tuple[tuple[int, Card], ...]:
        """Move accepted fan top cards to the foundations until none is; return the moves."""
        played: list[tuple[int, Card]] = []
        progress = True
        while progress:
            progress = False
            for index, fan in enumerate(self.fans):
                if fan and fan[-1] != exempt and fan[-1] == self.foundation_next(fan[-1].suit):
                    card = fan.pop()
                    self.heights[card.suit] += 1
                    played.append((index, card))
                    progress = True
        return tuple(played)

    # -- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> Iterator[Move]:
        """Fan moves (fan 1 first: to the foundation, then onto fans 1..N), then returns from
        FC, FD, FH, FS onto fans 1..N."""
        count = len(self.fans)
        for source, fan in enumerate(self.fans):
            if not fan:
                continue
            card = fan[-1]
            if card == self.foundation_next(card.suit):
                yield Transfer(source + 1, FOUNDATION)
            for target in range(count):
                if target != source and self.fan_accepts(target, card):
                    yield Transfer(source + 1, target + 1)
        for name, suit in zip(SUIT_FOUNDATIONS, SUITS, strict=True):
            top = self.foundation_top(suit)
            if top is None:
                continue
            for target in range(count):
                if self.fan_accepts(target, top):
                    yield Transfer(name, target + 1)

    def why_illegal(self, move: Move) -> str | None:
        if not isinstance(move, Transfer):
            return "only single-card moves exist in this game"
        card_or_reason = self._source_card(move.src)
        if isinstance(card_or_reason, str):
            return card_or_reason
        card = card_or_reason
        if move.dst == "F":
            expected = self.foundation_next(card.suit)
            if card == expected:
                return None
            name = SUIT_NAMES[card.suit]
            if expected is None:
                return f"the {name} foundation is complete"
            return f"the {name} foundation needs {expected}, not {card}"
        if not isinstance(move.dst, int) or not 1 <= move.dst <= len(self.fans):
            return f"there is no fan {move.dst} (fans are 1..{len(self.fans)})"
        if move.dst == move.src:
            return "a card cannot move onto its own fan"
        if self.fan_accepts(move.dst - 1, card):
            return None
        if not self.fans[move.dst - 1]:
            return f"only an Ace or a {RANK_LETTERS[self.ranks - 1]} may go on an empty fan"
        top = self.fans[move.dst - 1][-1]
        return f"{card} does not go on {top} (same suit, one rank apart)"

    def _source_card(self, source: Place) -> Card | str:
        """The card a move takes from ``source``, or the reason there is none."""
        if isinstance(source, int):
            if not 1 <= source <= len(self.fans):
                return f"there is no fan {source} (fans are 1..{len(self.fans)})"
            fan = self.fans[source - 1]
            return fan[-1] if fan else f"fan {source} is empty"
        if source not in SUIT_FOUNDATIONS:
            return f"name the foundation: {', '.join(SUIT_FOUNDATIONS)}, not {str(source)!r}"
        top = self.foundation_top(source[-1])
        return top if top is not None else f"foundation {source} is empty"

    def push(self, move: Move) -> None:
        """Play ``move`` (unchecked), then the automatic moves (exempting a returned card)."""
        assert isinstance(move, Transfer)
        if isinstance(move.src, int):
            card = self.fans[move.src - 1].pop()
        else:
            card = self._foundation_card(move.src[-1], self.heights[move.src[-1]])
            self.heights[card.suit] -= 1
        if move.dst == "F":
            self.heights[card.suit] += 1
        else:
            self.fans[int(move.dst) - 1].append(card)
        exempt = card if move.from_foundation else None
        self._history.append(_Played(move, card, self._play_automatic(exempt)))

    def pop(self) -> Move:
        move, card, automatic = self._history.pop()
        for index, auto_card in reversed(automatic):
            self.heights[auto_card.suit] -= 1
            self.fans[index].append(auto_card)
        if move.dst == "F":
            self.heights[card.suit] -= 1
        else:
            self.fans[int(move.dst) - 1].pop()
        if isinstance(move.src, int):
            self.fans[move.src - 1].append(card)
        else:
            self.heights[card.suit] += 1
        return move

    @property
    def move_stack(self) -> list[Move]:
        """The player moves pushed so far, oldest first."""
        return [played.move for played in self._history]

    # -- state --------------------------------------------------------------------------------

    def is_won(self) -> bool:
        return all(height == self.ranks for height in self.heights.values())

    def key(self) -> tuple:
        fans = tuple(tuple(fan) for fan in self.fans)
        return fans, tuple(self.heights[suit] for suit in SUITS)

    def cards_home(self) -> int:
        return sum(self.heights.values())

    def build_places(self) -> int:
        """Minus the empty fans (an empty fan takes only an Ace or a King)."""
        return -sum(1 for fan in self.fans if not fan)

    def copy(self) -> CloverPosition:
        """An independent copy of the position without its move history."""
        return CloverPosition(
            self.fans,
            {suit: self.foundation_cards(suit) for suit in SUITS},
            ranks=self.ranks,
            automatic=False,
        )

    def to_layout(self, preset: str, number: int | None = None) -> Layout:
        foundations = tuple(
            (name, tuple(self.foundation_cards(suit)))
            for name, suit in zip(SUIT_FOUNDATIONS, SUITS, strict=True)
        )
        return Layout(
            preset,
            number,
            piles=tuple(tuple(fan) for fan in self.fans),
            foundations=foundations,
        )

    def render(self, color: bool = False) -> str:
        def show(card: Card | None) -> str:
            if card is None:
                return "--"
            text = card.symbol()
            return f"{_RED}{text}{_RESET}" if color and card.is_red else text

        found = "  ".join(
            f"{name} {show(self.foundation_top(suit))}"
            for name, suit in zip(SUIT_FOUNDATIONS, SUITS, strict=True)
        )
        width = len(str(len(self.fans)))
        lines = [found]
        for number, fan in enumerate(self.fans, start=1):
            cards = " ".join(show(card) for card in fan) if fan else "(empty)"
            lines.append(f"{number:>{width}}: {cards}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        fans = " | ".join(" ".join(str(c) for c in fan) for fan in self.fans)
        found = " ".join(f"F{s}={self.heights[s]}" for s in SUITS)
        return f"<CloverPosition ranks={self.ranks} {found} fans: {fans}>"
