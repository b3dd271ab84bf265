"""The thirteen family's validation player ``tips`` (given by its plug-in): it
follows the strategy tips the 13-pile game's pages give players, as written: check the
foundation's next rank; when several exposed cards match, compare what each move uncovers;
look for a pile that can take the card above a needed one without burying a card needed
soon; use the King-Ace connection to rearrange; preserve receiving locations (piles that can
still take cards); don't repeat transfers that uncover nothing; undo to an earlier choice when
stuck, within a fixed budget of undos. Deterministic; it leaves the position as it found it."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import Card
from ...core.notation import Move, Transfer
from ...grading.players import is_home_move, player_moves
from ...grading.plugin import Game, ValidationPlayer
from ...rules.base import Position
from .rules import ThirteenPosition, rank_above

#: How many ranks from the foundation's next one count as "needed soon" by the tips player.
SOON = 3
#: Moves without a card going home after which the tips player counts itself stuck.
STALL = 20


def _soon_ranks(position: ThirteenPosition) -> list[int]:
    """The next ranks the foundation takes, the next one first."""
    ranks = [position.needed_rank]
    while len(ranks) < min(SOON, position.ranks):
        ranks.append(rank_above(ranks[-1], position.ranks))
    return ranks


def _soon(rank: int, soon: list[int]) -> int:
    """How soon the foundation takes ``rank`` (0: next), ``len(soon)`` if not soon."""
    return soon.index(rank) if rank in soon else len(soon)


def _uncovers(position: ThirteenPosition, src: int, soon: list[int]) -> tuple[int, bool]:
    """What moving pile ``src``'s top card uncovers: how soon the card below it is needed,
    and whether the pile stays (an emptied pile never receives again)."""
    pile = position.piles[src - 1]
    if len(pile) < 2:
        return len(soon) + 1, False
    return _soon(pile[-2].rank, soon), True


def _is_king_ace(position: ThirteenPosition, card: Card, target: Card) -> bool:
    top = position.ranks
    return {card.rank, target.rank} == {1, top}


def tips_classes(position: ThirteenPosition, idle_cards: frozenset[Card]) -> list[list[Move]]:
    """The tips player's moves, best first, each class in order of preference:

    1. Home moves (the top card is the foundation's next rank), the one uncovering the card
       needed soonest first, a pile kept before a pile emptied.
    2. Digging: moving the card above a needed-soon card onto a pile that takes it, where it
       buries no card needed soon (the shallowest, soonest needed card first).
    3. Rearranging through the King-Ace connection (a King onto an Ace or an Ace onto a
       King) without burying a card needed soon.
    4. Other moves that keep every receiving location (empty no pile) and bury no card
       needed soon; then moves that do.

    Cards in ``idle_cards`` (moved between piles since the last card went home) are not
    moved between piles again; foundation returns are never made.
    """
    soon = _soon_ranks(position)
    piles = position.piles
    classes: list[list[tuple[tuple, Move]]] = [[], [], [], [], []]
    for move in player_moves(position):
        assert isinstance(move, Transfer) and isinstance(move.src, int)
        pile = piles[move.src - 1]
        card = pile[-1]
        uncovered, stays = _uncovers(position, move.src, soon)
        if not isinstance(move.dst, int):
            classes[0].append(((uncovered, not stays), move))
            continue
        if card in idle_cards:
            continue
        target = piles[move.dst - 1]
        buries = any(_soon(c.rank, soon) < len(soon) for c in target[-2:])
        wanted = [
            (depth, _soon(c.rank, soon))
            for depth, c in enumerate(reversed(pile[:-1]))
            if _soon(c.rank, soon) < len(soon)
        ]
        if wanted and not buries:
            classes[1].append(((min(wanted), not stays, uncovered), move))
        elif _is_king_ace(position, card, target[-1]) and not buries:
            classes[2].append(((not stays, uncovered), move))
        elif stays and not buries:
            classes[3].append(((uncovered,), move))
        else:
            classes[4].append(((not stays, buries, uncovered), move))
    return [
        [move for _, move in sorted(ranked, key=lambda x: x[0])] for ranked in classes if ranked
    ]


@dataclass
class _Choice:
    """A position on the player's line: its moves in order of preference, the next to try,
    and the cards moved between piles since the last card went home."""

    moves: list[Move]
    tried: int
    idle: frozenset[Card]
    stall: int


def tips_player(position: Position, undo_budget: int = 20, max_moves: int = 2000) -> Game:
    """Play one game as the tips tell (see :func:`tips_classes`); when stuck (no move left,
    or :data:`STALL` moves without a card going home), undo to the latest position where an
    untried move is left, at most ``undo_budget`` times. It never goes to a position it has
    seen in the game, undone lines included. Deterministic; ``position`` is restored.
    ``max_moves`` bounds the moves made, undone ones included."""
    if not isinstance(position, ThirteenPosition):
        raise ValueError(f"the tips player plays the 13-pile games, not {position.family!r}")
    line: list[Move] = []
    seen = {position.key()}
    undos, made = undo_budget, 0

    def choice(idle: frozenset[Card], stall: int) -> _Choice:
        moves = [m for group in tips_classes(position, idle) for m in group]
        return _Choice(moves, 0, idle, stall)

    stack = [choice(frozenset(), 0)]
    try:
        while not position.is_won() and made < max_moves:
            here = stack[-1]
            move = None
            while here.tried < len(here.moves) and here.stall < STALL:
                candidate = here.moves[here.tried]
                here.tried += 1
                position.push(candidate)
                if position.key() not in seen:
                    move = candidate
                    break
                position.pop()
            if move is None:
                # Stuck: undo to the latest choice with an untried move.
                if undos == 0:
                    break
                undos -= 1
                while len(stack) > 1:
                    stack.pop()
                    position.pop()
                    line.pop()
                    top = stack[-1]
                    if top.tried < len(top.moves) and top.stall < STALL:
                        break
                else:
                    if stack[0].tried >= len(stack[0].moves):
                        break
                continue
            assert isinstance(move, Transfer)
            seen.add(position.key())
            line.append(move)
            made += 1
            home = is_home_move(move)
            moved = position.piles[move.dst - 1][-1] if isinstance(move.dst, int) else None
            idle = frozenset() if home or moved is None else here.idle | {moved}
            stack.append(choice(idle, 0 if home else here.stall + 1))
        return Game(position.is_won(), tuple(line))
    finally:
        for _ in line:
            position.pop()


#: The ``tips`` validation player: unassisted (no undo).
TIPS = ValidationPlayer(
    "tips",
    "Follows the 13-pile game's strategy tips; never undoes.",
    (ThirteenPosition,),
    lambda position, rng: tips_player(position, undo_budget=0),
)

#: The ``tips-undo`` validation player: assisted (undoes when stuck, at most 20 times).
TIPS_UNDO = ValidationPlayer(
    "tips-undo",
    "Follows the 13-pile game's strategy tips, undoing to an earlier choice when "
    "stuck at most 20 times.",
    (ThirteenPosition,),
    lambda position, rng: tips_player(position),
    assisted=True,
)
