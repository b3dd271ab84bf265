"""The plain, obviously correct exhaustive solver for tiny Black Hole / All in a Row games.

Depth-first over the reference engine with a set of visited positions; slow, used only to
check the search kernel's verdicts on small games.
"""

from __future__ import annotations

import random

from cloversolve.cards import Card, full_deck
from cloversolve.notation import Move
from cloversolve.rules.hole import HolePosition


def naive_solve(position: HolePosition) -> tuple[Move, ...] | None:
    """A winning route from ``position``, or ``None`` if there is none (position unchanged)."""
    visited: set[tuple] = set()
    route: list[Move] = []

    def search() -> bool:
        if position.is_won():
            return True
        key = position.key()
        if key in visited:
            return False
        visited.add(key)
        for move in list(position.legal_moves()):
            position.push(move)
            route.append(move)
            if search():
                return True
            position.pop()
            route.pop()
        return False

    found = search()
    for _ in route:
        position.pop()
    return tuple(route) if found else None


def play_state(position: HolePosition) -> tuple:
    """The fans and the foundation's top rank: all that decides the rest of the game."""
    top = position.foundation_top
    return tuple(tuple(pile) for pile in position.piles), None if top is None else top.rank


def naive_reachable(position: HolePosition, depth: int) -> int:
    """The number of distinct play states reachable in exactly ``depth`` moves."""
    frontier = {play_state(position): position.copy()}
    for _ in range(depth):
        following: dict[tuple, HolePosition] = {}
        for current in frontier.values():
            for move in list(current.legal_moves()):
                current.push(move)
                following.setdefault(play_state(current), current.copy())
                current.pop()
        frontier = following
    return len(frontier)


def tiny_game(seed: int, ranks: int, fans: int, start_card: bool) -> HolePosition:
    """A random tiny game: four suits of ranks ``1..ranks``, dealt round-robin into ``fans``.

    With ``start_card`` the foundation starts with the first card of the shuffled deck (as
    Black Hole starts with a card there); otherwise it starts empty (as All in a Row).
    """
    deck: list[Card] = full_deck(ranks)
    random.Random(seed).shuffle(deck)
    foundation = deck[:1] if start_card else []
    rest = deck[1:] if start_card else deck
    piles = [rest[i::fans] for i in range(fans)]
    return HolePosition(piles, foundation, ranks=ranks)
