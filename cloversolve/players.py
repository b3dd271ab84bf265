"""Player models of the grading: a simple player without undo and its move preferences.

A *move preference* ranks the legal moves of a position in classes, best class first
(``uniform``: all moves alike; ``dig``: moves that send cards home first, then moves that dig
towards a card a foundation needs; a family names its own ``dig`` in the family registry).
:func:`playout` plays one game with a preference, at random among the best-ranked moves that
do not return to a position already seen (or greedily, without a generator).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .families import find_family
from .notation import Group, Move, Transfer
from .rules import Position
from .rules.clover import CloverPosition
from .rules.thirteen import ThirteenPosition

#: A move preference: the legal moves of a position in classes, best class first.
MoveClasses = Callable[[Position], list[list[Move]]]


def _is_home_move(move: Move) -> bool:
    return isinstance(move, Group) or (isinstance(move, Transfer) and move.dst == "F")


def _uniform_classes(position: Position) -> list[list[Move]]:
    """Every legal move alike."""
    return [list(position.legal_moves())]


def thirteen_dig(position: ThirteenPosition) -> list[list[Move]]:
    """Four Leaf Clovers: home moves (those exposing the next rank first); then moves off a
    pile holding the needed rank, the shallower that card the better, not onto a pile holding
    it, not emptying a pile; then the other pile moves. A move that takes away the last King
    lying at the bottom of a pile comes last (FACTS.md fact 1: it loses unless it wins).
    Foundation returns are never made."""
    need = position.needed_rank
    after = need % position.ranks + 1
    piles = position.piles
    top = position.ranks
    king_bottoms = sum(1 for pile in piles if pile and pile[0].rank == top)
    cards_left = sum(len(pile) for pile in piles)
    ranked: dict[tuple, list[Move]] = {}
    for move in position.legal_moves():
        assert isinstance(move, Transfer)
        src, dst = move.src, move.dst
        if not isinstance(src, int):
            continue
        pile = piles[src - 1]
        empties = len(pile) == 1
        keeps_king = not (empties and pile[0].rank == top and king_bottoms == 1) or cards_left == 1
        if not isinstance(dst, int):
            exposes = len(pile) > 1 and pile[-2].rank == after
            score: tuple = (keeps_king, 2, exposes, not empties, 0)
        else:
            target = piles[dst - 1]
            depth = _depth_of(pile[:-1], lambda card: card.rank == need)
            buries = any(card.rank == need for card in target)
            score = (
                keeps_king,
                1 if depth is not None else 0,
                not buries,
                not empties,
                -(depth or 0),
            )
        ranked.setdefault(score, []).append(move)
    return [ranked[key] for key in sorted(ranked, reverse=True)]


def clover_dig(position: CloverPosition) -> list[list[Move]]:
    """Clover Leaf / Alexander: moves that send a card home or uncover a card a foundation
    needs next (the automatic moves then take it); then moves off a fan holding such a card,
    the shallower the better, not onto a fan holding one; then the other fan moves.
    Foundation returns are never made."""
    wanted = {position.foundation_next(suit) for suit in "CDHS"} - {None}
    ranked: dict[tuple, list[Move]] = {}
    for move in position.legal_moves():
        assert isinstance(move, Transfer)
        src, dst = move.src, move.dst
        if not isinstance(src, int):
            continue
        fan = position.fans[src - 1]
        uncovers = len(fan) > 1 and fan[-2] in wanted
        depth = _depth_of(fan[:-1], lambda card: card in wanted)
        buries = isinstance(dst, int) and any(card in wanted for card in position.fans[dst - 1])
        home = not isinstance(dst, int)
        score = (home or uncovers, depth is not None, not buries, -(depth or 0))
        ranked.setdefault(score, []).append(move)
    return [ranked[key] for key in sorted(ranked, reverse=True)]


def _depth_of(pile: list, wanted: Callable[[Any], bool]) -> int | None:
    """How many cards lie above the topmost wanted card of ``pile`` (bottom to top)."""
    for depth, card in enumerate(reversed(pile)):
        if wanted(card):
            return depth
    return None


def _dig_classes(position: Position) -> list[list[Move]]:
    """The family's own ``dig`` preference; by default home moves first, then the rest."""
    family_dig = find_family(position.family).dig_player
    if family_dig is not None:
        return family_dig(position)
    home = [m for m in position.legal_moves() if _is_home_move(m)]
    rest = [m for m in position.legal_moves() if not _is_home_move(m)]
    return [group for group in (home, rest) if group]


POLICIES: dict[str, MoveClasses] = {"uniform": _uniform_classes, "dig": _dig_classes}


def move_classes(position: Position, policy: str) -> list[list[Move]]:
    """The legal moves of ``position`` ranked by ``policy``: classes of equally good moves,
    best class first, each in the engine's move order."""
    return POLICIES[policy](position)


def _choose(
    position: Position,
    classes: list[list[Move]],
    seen: set,
    rng: random.Random | None,
) -> Move | None:
    """The first move of the best class (in random order when ``rng`` is given) whose
    position was not seen yet; ``None`` when every move repeats a position."""
    for moves in classes:
        order = list(moves)
        if rng is not None:
            rng.shuffle(order)
        for move in order:
            position.push(move)
            fresh = position.key() not in seen
            position.pop()
            if fresh:
                return move
    return None


def playout(
    position: Position, policy: str, max_steps: int, rng: random.Random | None = None
) -> bool:
    """Play one game with the player model; True if it wins. ``position`` is restored.

    Without ``rng`` the player is greedy: always the first move of the best class.
    """
    seen = {position.key()}
    pushed = 0
    try:
        while pushed < max_steps and not position.is_won():
            move = _choose(position, move_classes(position, policy), seen, rng)
            if move is None:
                break
            position.push(move)
            pushed += 1
            seen.add(position.key())
        return position.is_won()
    finally:
        for _ in range(pushed):
            position.pop()
