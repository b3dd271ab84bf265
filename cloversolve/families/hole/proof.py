"""The loss prover of the hole family (``blackhole``, ``allinarow``): an exhaustive search in
plain Python, shortened only by the reductions of FACTS.md, fact 12, each written anew from
its statement there (FACTS.md, fact 17, "The hole games").

- States: a state is the fans' heights and the foundation's rank; the game has no cycles, so a
  state met again is skipped.
- Reversal: the reversed game (fans upside down, an empty foundation, a last card one rank from
  the old top) is searched beside the position in turns of equal budgets; either deciding
  decides, and a win of the reversed game, read backwards, is a win of the position.
- Rank walk: a state whose foundation has no walk through the ranks left, ending at the rank of
  a bottom card, is lost (:mod:`.walks`; answers kept per foundation rank and cards left
  per rank, all the test looks at).
- Lone cards: a playable card alone in its fan is not tried when a playable card of the same
  rank is.
- Fan order: states whose fans hold the same rank sequences in some order are one state.

Each reduction can be switched off by a keyword of :func:`prove`, for the tests.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.notation import FOUNDATION, Transfer
from ...rules.base import Position
from ...rules.exhaustive import ExhaustiveOutcome
from .rules import HolePosition
from .walks import RankWalks

#: Positions each direction may add in one turn before the other takes its turn.
TURN = 2048

_WON, _LOST, _PAUSED = "won", "lost", "paused"


def prove(
    position: Position,
    max_positions: int | None = None,
    *,
    reverse: bool = True,
    rank_walk: bool = True,
    lone_card: bool = True,
    fan_order: bool = True,
) -> ExhaustiveOutcome:
    """Decide a hole-family ``position`` as
    :func:`~cloversolve.rules.exhaustive.solve_exhaustively` does (a winning route in fan
    moves, False when lost, ``None`` when ``max_positions`` distinct states of both directions
    were stored first), with the reductions switched on."""
    if not isinstance(position, HolePosition):
        raise TypeError(f"not a Black Hole / All in a Row position: {position!r}")
    if max_positions is not None and max_positions < 1:
        raise ValueError(f"max_positions must be at least 1, got {max_positions!r}")
    if position.is_won():
        return ExhaustiveOutcome(True, (), 1)
    fans = [tuple(card.rank for card in pile) for pile in position.piles]
    top = position.foundation_top
    base = 0 if top is None else top.rank
    walks = RankWalks(position.ranks)
    options = {"rank_walk": rank_walk, "lone_card": lone_card, "fan_order": fan_order}
    forward = _Search(position.ranks, fans, base, None, walks, **options)
    searches = [forward]
    if reverse and (max_positions is None or max_positions > 1):
        upside_down = [fan[::-1] for fan in fans]
        backward = _Search(position.ranks, upside_down, 0, base or None, walks, **options)
        backward.reversed = True
        searches.append(backward)
    while True:
        for search in searches:
            stored = sum(len(s.seen) for s in searches)
            room = TURN if max_positions is None else max(0, min(TURN, max_positions - stored))
            result = search.run(room)
            stored = sum(len(s.seen) for s in searches)
            if result == _LOST:
                return ExhaustiveOutcome(False, None, stored)
            if result == _WON:
                plays = search.route()[::-1] if search.reversed else search.route()
                route = tuple(Transfer(fan + 1, FOUNDATION) for fan in plays)
                return ExhaustiveOutcome(True, route, stored)
            if max_positions is not None and stored >= max_positions:
                return ExhaustiveOutcome(None, None, stored)


class _Search:
    """A resumable depth-first search of one hole game: ``fans`` (ranks, bottom to top, the
    top card playable), the foundation's rank ``base`` (0: empty, any card goes), and
    ``last``: the rank the last card must be one rank from (``None``: no condition)."""

    def __init__(
        self,
        ranks: int,
        fans: Sequence[tuple[int, ...]],
        base: int,
        last: int | None,
        walks: RankWalks,
        *,
        rank_walk: bool,
        lone_card: bool,
        fan_order: bool,
    ) -> None:
        self.ranks = ranks
        #: True for the reversed game of a position: its route is read backwards.
        self.reversed = False
        self.fans = list(fans)
        self.heights = [len(fan) for fan in fans]
        self.rank = base
        everything = (1 << (ranks + 1)) - 2
        #: ``accepts[r]``: the ranks (bit mask) the foundation takes on rank r (0: every rank).
        self.accepts = [everything] + [
            (1 << (r % ranks + 1)) | (1 << ((r - 2) % ranks + 1)) for r in range(1, ranks + 1)
        ]
        self.last_ranks = everything if last is None else self.accepts[last]
        self.rank_walk, self.lone_card, self.fan_order = rank_walk, lone_card, fan_order
        self.walks = walks
        #: Cards left per rank, 4 bits a rank: a key of the rank-walk answers.
        self.counts = sum(1 << (4 * r) for fan in fans for r in fan)
        self.cards_left = sum(self.heights)
        #: Bottom cards per rank, and the ranks (bit mask) of bottom cards.
        self.bottoms = [0] * (ranks + 1)
        for fan in fans:
            if fan:
                self.bottoms[fan[0]] += 1
        self.bottom_ranks = sum(1 << r for r, n in enumerate(self.bottoms) if n)
        # Fans holding the same ranks bottom to top share a number: a key of fan order.
        numbers: dict[tuple[int, ...], int] = {}
        self.numbers = [
            [numbers.setdefault(fan[:height], len(numbers)) for height in range(len(fan) + 1)]
            for fan in fans
        ]
        self.fan_numbers = [self.numbers[i][h] for i, h in enumerate(self.heights)]
        self.path: list[tuple[int, int]] = []  # (fan played, foundation rank before)
        self.seen = {self._key()}
        won = self.cards_left == 0 and (self.last_ranks >> self.rank) & 1
        self.stack: list[list] = [] if won or self._hopeless() else [[self._moves(), 0]]
        self.won = bool(won)

    def run(self, room: int) -> str:
        """Search on until won, lost, or paused: a new state to store and ``room`` of them
        stored already."""
        if self.won:
            return _WON
        stack, seen = self.stack, self.seen
        while stack:
            frame = stack[-1]
            moves, index = frame
            if index == len(moves):
                stack.pop()
                if self.path:
                    self._undo()
                continue
            frame[1] = index + 1
            self._play(moves[index])
            key = self._key()
            if key in seen:
                self._undo()
                continue
            if room == 0:
                self._undo()
                frame[1] = index
                return _PAUSED
            seen.add(key)
            room -= 1
            if self.cards_left == 0:
                if (self.last_ranks >> self.rank) & 1:
                    self.won = True
                    return _WON
                self._undo()
                continue
            if self._hopeless():
                self._undo()
                continue
            stack.append([self._moves(), 0])
        return _LOST

    def route(self) -> list[int]:
        """The fans played from the root to the current state."""
        return [fan for fan, _ in self.path]

    def _moves(self) -> list[int]:
        """The fans whose top card the foundation takes, lone cards dropped where a card of
        the same rank is tried."""
        heights, fans, takes = self.heights, self.fans, self.accepts[self.rank]
        playable = [i for i, h in enumerate(heights) if h and (takes >> fans[i][h - 1]) & 1]
        if not self.lone_card or len(playable) < 2:
            return playable
        covering = 0  # ranks of playable cards with cards under them
        for i in playable:
            if heights[i] > 1:
                covering |= 1 << fans[i][heights[i] - 1]
        kept, lone = [], covering
        for i in playable:
            bit = 1 << fans[i][heights[i] - 1]
            if heights[i] > 1:
                kept.append(i)
            elif not lone & bit:  # the first lone card of a rank no covering card has
                lone |= bit
                kept.append(i)
        return kept

    def _hopeless(self) -> bool:
        """Whether the rank-walk test proves the current state lost."""
        if not self.rank_walk or self.rank == 0 or self.cards_left == 0:
            return False
        ends = self.bottom_ranks & self.last_ranks
        return not self.walks.some_end(self.rank, self.counts, ends)

    def _key(self) -> bytes:
        """The state stored: each fan's height (its rank sequence's number, sorted, under fan
        order) and the foundation's rank."""
        cells = sorted(self.fan_numbers) if self.fan_order else list(self.heights)
        cells.append(self.rank)
        return bytes(cells)

    def _play(self, fan: int) -> None:
        height = self.heights[fan] - 1
        card = self.fans[fan][height]
        self.path.append((fan, self.rank))
        self.heights[fan] = height
        self.fan_numbers[fan] = self.numbers[fan][height]
        self.rank = card
        self.counts -= 1 << (4 * card)
        self.cards_left -= 1
        if height == 0:
            self.bottoms[card] -= 1
            if not self.bottoms[card]:
                self.bottom_ranks &= ~(1 << card)

    def _undo(self) -> None:
        fan, rank = self.path.pop()
        height = self.heights[fan]
        card = self.fans[fan][height]
        if height == 0:
            self.bottoms[card] += 1
            self.bottom_ranks |= 1 << card
        self.heights[fan] = height + 1
        self.fan_numbers[fan] = self.numbers[fan][height + 1]
        self.rank = rank
        self.counts += 1 << (4 * card)
        self.cards_left += 1
