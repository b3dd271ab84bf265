"""The clover family's loss prover (``cloverleaf``, ``alexander``): a plain-Python
depth-first search shortened by the reductions of FACTS.md, each written anew from its
statement there (section 17, "The clover games", says which and why the whole is sound).

- fact 3: no foundation returns from a settled position (one whose fan top cards are none
  of them the card its foundation takes next);
- fact 8: a table key that ignores fan order, one empty fan tried as a target, a fan's only
  card never moved to an empty fan;
- fact 9: a settled position with a fan card that can never move is lost;
- fact 4: a position is lost when a two-suit projection of it is lost (the root's
  projections first, then every expanded position's, each within a budget);
- fact 15: every state stored by a projection search that ended without a win is lost, and
  later searches skip it; fact 16: every state on a projection's winning line can be won.

A state is a tuple of fans (each a tuple of card codes, bottom to top: ``16 * suit + rank``
with suits in ``CDHS`` order) and the four foundation heights. The search keeps the real fan
numbers, so its route is in the position's own notation; the reference engine replays it
before the audit counts a win.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations

from ...core.cards import Card
from ...core.notation import FOUNDATION, SUIT_FOUNDATIONS, Move, Transfer
from ...rules.base import Position
from ...rules.exhaustive import ExhaustiveOutcome
from .rules import SUITS, UP_SUITS, CloverPosition

Fans = tuple[tuple[int, ...], ...]
Heights = tuple[int, ...]
State = tuple[Fans, Heights]
#: A move of the compact state: source fan (or ``-1 - suit`` for a foundation), target fan
#: (or ``-1`` for the foundation), card.
Step = tuple[int, int, int]

#: Positions a root projection may visit in its first round; each round multiplies it by 4.
ROOT_PROJECTION_POSITIONS = 2_000
#: Positions a projection of a position met in the search may visit.
SEARCH_PROJECTION_POSITIONS = 400
_NO_CARD = -1


class _BudgetSpent(Exception):
    """The budget of distinct positions ran out."""


def code(card: Card) -> int:
    """The compact code of ``card``."""
    return 16 * SUITS.index(card.suit) + card.rank


@dataclass(frozen=True)
class Reductions:
    """Which reductions the prover uses (all by default; each switchable for the tests)."""

    no_returns_when_settled: bool = True
    fan_order: bool = True
    dead_ends: bool = True
    projections: bool = True
    known_states: bool = True


@dataclass
class _Search:
    """One prover run: the game's constants, the reductions, the shared caches, the budget."""

    ranks: int
    reductions: Reductions
    max_positions: int | None
    positions: int = 0
    #: Keys of states proved lost (fact 15) and proved winnable (fact 16).
    lost: set[tuple] = field(default_factory=set)
    won: set[tuple] = field(default_factory=set)
    #: Projection keys whose search ran out of budget, and that budget.
    open_budget: dict[tuple, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ranks = self.ranks
        self.order = tuple(
            tuple(16 * s + (h + 1 if SUITS[s] in UP_SUITS else ranks - h) for h in range(ranks))
            for s in range(4)
        )
        # The card each foundation takes at each height (no card once complete).
        self.next_card = tuple((*order, _NO_CARD) for order in self.order)
        self.place = [0] * 64  # each card's place in its foundation's build order
        for order in self.order:
            for height, card in enumerate(order):
                self.place[card] = height

    # -- states ---------------------------------------------------------------------------------

    def key(self, state: State) -> tuple:
        fans, heights = state
        return (tuple(sorted(fans)) if self.reductions.fan_order else fans), heights

    def is_won(self, state: State) -> bool:
        return all(h == self.ranks for h in state[1])

    def settled(self, state: State) -> bool:
        fans, heights = state
        next_card = self.next_card
        return not any(f and f[-1] == next_card[f[-1] >> 4][heights[f[-1] >> 4]] for f in fans)

    def automatic(self, fans: list[tuple[int, ...]], heights: list[int], exempt: int) -> State:
        """Move accepted fan top cards home until none is (``exempt`` stays)."""
        next_card = self.next_card
        moving = True
        while moving:
            moving = False
            for index, fan in enumerate(fans):
                size = len(fan)
                while size:
                    card = fan[size - 1]
                    suit = card >> 4
                    if card == exempt or card != next_card[suit][heights[suit]]:
                        break
                    heights[suit] += 1
                    size -= 1
                    moving = True
                if size != len(fan):
                    fans[index] = fan[:size]
        return tuple(fans), tuple(heights)

    def play(self, state: State, step: Step, settled: bool = False) -> State:
        """The state after ``step`` and the automatic moves (``settled``: ``state`` is, so
        after a move between fans only the source fan's new top card may go home)."""
        source, target, card = step
        fans, heights = list(state[0]), list(state[1])
        suit = card >> 4
        if source >= 0:
            left = fans[source] = fans[source][:-1]
        else:
            heights[suit] -= 1
        if target >= 0:
            fans[target] = (*fans[target], card)
        else:
            heights[suit] += 1
        if settled and source >= 0 and target >= 0:
            exposed = left[-1] if left else 0  # code 0 is no card
            if exposed != self.next_card[exposed >> 4][heights[exposed >> 4]]:
                return tuple(fans), state[1]
        return self.automatic(fans, heights, card if source < 0 else _NO_CARD)

    def steps(self, state: State) -> list[Step]:
        """The moves searched from ``state``: every legal move but those facts 3 and 8 drop."""
        fans, heights = state
        ranks, next_card = self.ranks, self.next_card
        fan_order = self.reductions.fan_order
        tops: dict[int, int] = {}
        empties: list[int] = []
        for index, fan in enumerate(fans):
            if fan:
                tops[fan[-1]] = index
            elif not (fan_order and empties):
                empties.append(index)
        home: list[Step] = []
        others: list[Step] = []
        for source, fan in enumerate(fans):
            if not fan:
                continue
            card = fan[-1]
            if card == next_card[card >> 4][heights[card >> 4]]:
                home.append((source, -1, card))
            for neighbour in (card - 1, card + 1):
                target = tops.get(neighbour)
                if target is not None:
                    others.append((source, target, card))
            if empties and (card & 15) in (1, ranks) and not (fan_order and len(fan) == 1):
                others.extend((source, target, card) for target in empties)
        if not (self.reductions.no_returns_when_settled and not home):
            for suit in range(4):
                height = heights[suit]
                if not height:
                    continue
                card = self.order[suit][height - 1]
                for neighbour in (card - 1, card + 1):
                    target = tops.get(neighbour)
                    if target is not None:
                        others.append((-1 - suit, target, card))
                if (card & 15) in (1, ranks):
                    others.extend((-1 - suit, target, card) for target in empties)
        return home + others

    # -- fact 9 ---------------------------------------------------------------------------------

    def dead_end(self, state: State) -> bool:
        """Whether the settled ``state`` has a fan card outside the set ``M`` of fact 9 (the
        cards that may ever move); such a card never gets home."""
        fans, heights = state
        ranks, place, order = self.ranks, self.place, self.order
        fan_of = [-1] * 64  # the fan of each card code (-1: home, or no such card)
        depth_of = [0] * 64  # cards above it on its fan
        for index, fan in enumerate(fans):
            top = len(fan) - 1
            for position, card in enumerate(fan):
                fan_of[card] = index
                depth_of[card] = top - position
        in_m = [0] * len(fans)  # the top in_m[i] cards of fan i are in M; the next is reachable
        blocked = [index for index, fan in enumerate(fans) if fan]  # fans with cards not in M
        empty_fan = len(blocked) < len(fans)
        changed = True
        while changed and blocked:
            changed = False
            ready = []  # per suit: the first place in its build order that is not reachable
            for suit in range(4):
                height, cards = heights[suit], order[suit]
                while height < ranks and depth_of[cards[height]] <= in_m[fan_of[cards[height]]]:
                    height += 1
                ready.append(height)
            still = []
            for index in blocked:
                fan = fans[index]
                size = len(fan)
                count = in_m[index]
                while count < size:
                    card = fan[size - 1 - count]
                    if place[card] > ready[card >> 4]:  # its foundation is not a destination
                        below, above = fan_of[card - 1], fan_of[card + 1]
                        if not (
                            (below >= 0 and depth_of[card - 1] <= in_m[below])
                            or (above >= 0 and depth_of[card + 1] <= in_m[above])
                            or (empty_fan and (card & 15) in (1, ranks))
                        ):
                            break
                    count += 1
                if count != in_m[index]:
                    in_m[index] = count
                    changed = True
                if count < size:
                    still.append(index)
                else:
                    empty_fan = True  # a fan of cards of M only
            blocked = still
        return bool(blocked)

    # -- fact 4 ---------------------------------------------------------------------------------

    def project(self, state: State, suits: tuple[int, ...]) -> State:
        """The projection of ``state`` onto ``suits``: the other suits home, then the
        automatic moves."""
        fans, heights = state
        projected = [tuple(c for c in fan if c >> 4 in suits) for fan in fans]
        full = [heights[s] if s in suits else self.ranks for s in range(4)]
        return self.automatic(projected, full, _NO_CARD)

    def live_suits(self, state: State) -> tuple[int, ...]:
        return tuple(s for s in range(4) if state[1][s] < self.ranks)

    def projection_lost(self, state: State, budget: int) -> bool | None:
        """Whether a two-suit projection of ``state`` is proved lost within ``budget``
        positions each: True, False when every one is won, ``None`` otherwise."""
        suits = self.live_suits(state)
        if len(suits) < 3:
            return False
        undecided = False
        for pair in combinations(suits, 2):
            verdict = self.decide_projection(self.project(state, pair), budget)
            if verdict is False:
                return True
            undecided = undecided or verdict is None
        return None if undecided else False

    def decide_projection(self, state: State, budget: int) -> bool | None:
        """Search a projection (no nested projections) within ``budget`` positions; the
        caches of facts 15 and 16 take what it proves."""
        key = self.key(state)
        known = self.reductions.known_states
        if known and key in self.lost:
            return False
        if known and key in self.won:
            return True
        if self.open_budget.get(key, 0) >= budget:
            return None
        verdict, _, stored, line = self.search(state, budget, projections=False)
        if verdict is None:
            self.open_budget[key] = budget
        elif known and verdict:
            self.won.update(line)
        elif known:
            self.lost.update(stored)
        return verdict

    # -- the search -----------------------------------------------------------------------------

    def count(self) -> None:
        self.positions += 1
        if self.max_positions is not None and self.positions > self.max_positions:
            raise _BudgetSpent

    def search(
        self, root: State, budget: int | None, *, projections: bool
    ) -> tuple[bool | None, list[Step] | None, set[tuple], list[tuple]]:
        """Depth-first search from ``root``: its verdict (``None`` past ``budget`` positions),
        a winning route, the keys it stored, and the keys on its winning line."""
        known = self.reductions.known_states
        lost, won = self.lost, self.won
        stored = {self.key(root)}
        self.count()
        if self.is_won(root):
            return True, [], stored, list(stored)
        settled = self.settled(root)
        if self.cut(root, settled, projections):
            return False, None, stored, []
        route: list[Step] = []
        path = [self.key(root)]
        states = [(root, settled)]
        pending: list[Iterator[Step]] = [iter(self.steps(root))]
        while pending:
            step = next(pending[-1], None)
            if step is None:
                pending.pop()
                states.pop()
                path.pop()
                if route:
                    route.pop()
                continue
            parent, parent_settled = states[-1]
            child = self.play(parent, step, parent_settled)
            key = self.key(child)
            if key in stored or (known and key in lost):
                continue
            if budget is not None and len(stored) >= budget:
                return None, None, stored, []
            self.count()
            stored.add(key)
            route.append(step)
            path.append(key)
            if self.is_won(child) or (known and not projections and key in won):
                return True, route, stored, path
            # the automatic moves leave no top card its foundation takes but a returned one
            settled = step[0] >= 0
            if self.cut(child, settled, projections):
                route.pop()
                path.pop()
                continue
            states.append((child, settled))
            pending.append(iter(self.steps(child)))
        return False, None, stored, []

    def cut(self, state: State, settled: bool, projections: bool) -> bool:
        """Whether ``state`` is proved lost without searching it (facts 9 and 4)."""
        if self.reductions.dead_ends and settled and self.dead_end(state):
            return True
        if projections:
            return self.projection_lost(state, SEARCH_PROJECTION_POSITIONS) is True
        return False

    def root_projections(self, root: State) -> bool:
        """Whether a two-suit projection of ``root`` is lost, searched in rounds of growing
        budgets until each is decided (the run's budget stops it)."""
        budget = ROOT_PROJECTION_POSITIONS
        while True:
            verdict = self.projection_lost(root, budget)
            if verdict is not None:
                return verdict
            budget *= 4


def compact(position: CloverPosition) -> State:
    """The compact state of ``position``."""
    fans = tuple(tuple(code(card) for card in fan) for fan in position.fans)
    return fans, tuple(position.heights[suit] for suit in SUITS)


def move_of(step: Step) -> Move:
    """``step`` in the game's notation."""
    source, target, _ = step
    return Transfer(
        source + 1 if source >= 0 else SUIT_FOUNDATIONS[-1 - source],
        target + 1 if target >= 0 else FOUNDATION,
    )


def prove(
    position: Position,
    max_positions: int | None = None,
    *,
    reductions: Reductions = Reductions(),
) -> ExhaustiveOutcome:
    """Decide ``position`` (a :class:`~cloversolve.rules.loss_witnesses.LossProver`): True with
    a winning route, False when it is lost, ``None`` when more than ``max_positions``
    positions (main and projection searches together) would be needed."""
    if not isinstance(position, CloverPosition):
        raise TypeError(f"a clover position is needed, not {type(position).__name__}")
    if max_positions is not None and max_positions < 1:
        raise ValueError(f"max_positions must be at least 1, got {max_positions!r}")
    run = _Search(position.ranks, reductions, max_positions)
    root = compact(position)
    try:
        if reductions.projections and not run.is_won(root) and run.root_projections(root):
            return ExhaustiveOutcome(False, None, run.positions)
        verdict, route, _, _ = run.search(root, None, projections=reductions.projections)
    except _BudgetSpent:
        return ExhaustiveOutcome(None, None, max_positions or run.positions)
    if verdict:
        assert route is not None
        return ExhaustiveOutcome(True, tuple(move_of(step) for step in route), run.positions)
    return ExhaustiveOutcome(False, None, run.positions)
