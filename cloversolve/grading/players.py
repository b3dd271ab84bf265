"""Player models of the grading: the panel of players whose win rates make a deal's score.

A *move preference* ranks the legal moves of a position in classes, best class first
(``uniform``: all moves alike; ``home``: moves that send cards home first; ``lookahead``: the
moves after which the most cards are home and the most can go home next; ``dig``: moves that
send cards home first, then moves that dig towards a card a foundation needs; a family names
its own ``dig`` in the family registry). :func:`playout` plays one game with a preference, at
random among the best-ranked moves that do not return to a position already seen (or
greedily, without a generator). :func:`planner_wins` and :func:`patient_player_wins` are
players who plan ahead and who undo.

:data:`PLAYERS` names every player model; a family's grading panel (its registry record's
``grading_panel``) lists the models that grade its presets.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from ..core.notation import Group, Move, Transfer
from ..games.registry import find_family
from ..rules import Position
from ..rules.plugin import rules_plugin

#: A move preference: the legal moves of a position in classes, best class first.
MoveClasses = Callable[[Position], list[list[Move]]]


def is_home_move(move: Move) -> bool:
    """Whether ``move`` sends cards home: a move to a foundation, or a group removed."""
    return isinstance(move, Group) or (isinstance(move, Transfer) and move.dst == "F")


def _uniform_classes(position: Position) -> list[list[Move]]:
    """Every legal move alike."""
    return [list(position.legal_moves())]


def _dig_classes(position: Position) -> list[list[Move]]:
    """The family's own ``dig`` preference; by default home moves first, then the rest."""
    family_dig = rules_plugin(position.family).dig_player
    if family_dig is not None:
        return family_dig(position)
    home = [m for m in position.legal_moves() if is_home_move(m)]
    rest = [m for m in position.legal_moves() if not is_home_move(m)]
    return [group for group in (home, rest) if group]


def player_moves(position: Position) -> list[Move]:
    """The legal moves a player makes (never taking a card back from a foundation)."""
    return [
        m
        for m in position.legal_moves()
        if not (isinstance(m, Transfer) and isinstance(m.src, str))
    ]


def _home_classes(position: Position) -> list[list[Move]]:
    """Moves that send cards home first, then the other moves (no foundation returns)."""
    moves = player_moves(position)
    home = [m for m in moves if is_home_move(m)]
    rest = [m for m in moves if not is_home_move(m)]
    return [group for group in (home, rest) if group]


class _Played:
    """Moves played on a position, all taken back on leaving the ``with`` block (a player
    leaves the position as it found it)."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.count = 0

    def __enter__(self) -> _Played:
        return self

    def push(self, move: Move) -> None:
        self.position.push(move)
        self.count += 1

    def __exit__(self, *exc: object) -> None:
        for _ in range(self.count):
            self.position.pop()


def _home_run(position: Position) -> int:
    """How many cards go home one after another from ``position`` if home moves are made
    while there are any (the first in the engine's order each time). ``position`` is
    restored."""
    with _Played(position) as played:
        while played.count < 52:
            move = next((m for m in position.legal_moves() if is_home_move(m)), None)
            if move is None:
                break
            played.push(move)
        return position.cards_home()


def _lookahead_classes(position: Position) -> list[list[Move]]:
    """One move ahead: the moves after which the most cards are home, then from which the
    most cards can go home in a row (no foundation returns)."""
    ranked: dict[tuple[int, int], list[Move]] = {}
    for move in player_moves(position):
        position.push(move)
        score = (position.cards_home(), _home_run(position))
        position.pop()
        ranked.setdefault(score, []).append(move)
    return [ranked[key] for key in sorted(ranked, reverse=True)]


POLICIES: dict[str, MoveClasses] = {
    "uniform": _uniform_classes,
    "dig": _dig_classes,
    "home": _home_classes,
    "lookahead": _lookahead_classes,
}


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
    with _Played(position) as played:
        while played.count < max_steps and not position.is_won():
            move = _choose(position, move_classes(position, policy), seen, rng)
            if move is None:
                break
            played.push(move)
            seen.add(position.key())
        return position.is_won()


def patient_player_wins(
    position: Position, patience: int, rng: random.Random, policy: str | None = None
) -> bool:
    """A player who undoes: a depth-first search with a limited patience.

    It tries the moves that put the most cards home first (with ``policy``: the moves of the
    best class of that move preference first), ties in a random order; it never revisits a
    position and gives up after ``patience`` positions. ``position`` is restored.
    """
    seen: set = set()
    stack: list[Iterator[Move]] = []
    visited = 0

    def ordered_moves() -> Iterator[Move]:
        if policy is not None:
            ranked = [
                (rank, rng.random(), move)
                for rank, moves in enumerate(move_classes(position, policy))
                for move in moves
            ]
            ranked.sort(key=lambda item: (item[0], item[1]))
            return iter([move for _, _, move in ranked])
        before = position.cards_home()
        scored = []
        for move in position.legal_moves():
            position.push(move)
            scored.append((before - position.cards_home(), rng.random(), move))
            position.pop()
        scored.sort(key=lambda item: (item[0], item[1]))
        return iter([move for _, _, move in scored])

    def enter() -> bool:
        nonlocal visited
        key = position.key()
        if key in seen:
            return False
        seen.add(key)
        visited += 1
        stack.append(ordered_moves())
        return True

    enter()
    depth = 0
    try:
        while stack:
            if position.is_won():
                return True
            if visited >= patience:
                return False
            move = next(stack[-1], None)
            if move is None:
                stack.pop()
                if stack:
                    position.pop()
                    depth -= 1
                continue
            position.push(move)
            depth += 1
            if not enter():
                position.pop()
                depth -= 1
        return False
    finally:
        for _ in range(depth):
            position.pop()


def planner_wins(position: Position, depth: int, rng: random.Random, max_steps: int = 400) -> bool:
    """A player with lookahead: before each card it sends home, it looks for the shortest
    sequence of at most ``depth`` other moves after which a move puts a card home.

    Among the shortest plans it prefers those that leave the most piles to build on, then
    picks one at random. It never returns to a position seen in the game, never makes a move
    after which the game is visibly lost, never takes cards back from a foundation, and gives
    up when no plan exists. ``position`` is restored.
    """
    seen = {position.key()}
    with _Played(position) as played:
        while played.count < max_steps and not position.is_won():
            plan = _shortest_plan(position, depth, seen, rng)
            if plan is None:
                break
            for move in plan:
                played.push(move)
                seen.add(position.key())
        return position.is_won()


def _shortest_plan(
    position: Position, depth: int, seen: set, rng: random.Random
) -> tuple[Move, ...] | None:
    """Breadth-first: the plans of the fewest preparatory moves that end with a card home."""
    frontier: list[tuple[Move, ...]] = [()]
    visited = set(seen)
    for level in range(depth + 1):
        plans: list[tuple[int, tuple[Move, ...]]] = []
        following: list[tuple[Move, ...]] = []
        for prefix in frontier:
            for move in prefix:
                position.push(move)
            before = position.cards_home()
            for move in player_moves(position):
                position.push(move)
                key = position.key()
                usable = key not in visited and not position.visibly_lost()
                if usable and position.cards_home() > before:
                    plans.append((position.build_places(), (*prefix, move)))
                elif usable and level < depth:
                    visited.add(key)
                    following.append((*prefix, move))
                position.pop()
            for _ in prefix:
                position.pop()
        if plans:
            best = max(score for score, _ in plans)
            choices = [plan for score, plan in plans if score == best]
            return choices[rng.randrange(len(choices))]
        frontier = following
    return None


def dig_hint(position: Position) -> Move | None:
    """The visible hint of the pile games: the move the ``dig`` player makes when it plays
    greedily (the first move, in the engine's order, of its best class); ``None`` when it has
    none. It reads only the position, so the same position always gets the same hint."""
    return _choose(position, move_classes(position, "dig"), set(), None)


def hint_player_wins(position: Position, max_steps: int) -> bool:
    """A player who always plays the family's visible hint (it reads only the visible grid;
    deterministic). ``position`` is restored."""
    hint = rules_plugin(position.family).visible_hint
    if hint is None:
        raise TypeError(f"family {position.family!r} gives no visible hint")
    with _Played(position) as played:
        while played.count < max_steps and not position.is_won():
            move = hint(position)
            if move is None:
                break
            played.push(move)
        return position.is_won()


# -- the panel ------------------------------------------------------------------------------


class Strength(NamedTuple):
    """How far the panel's players go: moves per game, planning depth, positions of patience."""

    max_steps: int
    depth: int
    patience: int


@dataclass(frozen=True)
class PlayerModel:
    """One player of a grading panel: ``play`` plays one game (True if won); a player that is
    not ``random`` plays the same game every time, so it is played once per deal; an
    ``assisted`` one undoes (the game pages mark a game won with undo as assisted)."""

    name: str
    description: str
    play: Callable[[Position, random.Random, Strength], bool]
    random: bool = True
    assisted: bool = False


def _policy_player(policy: str) -> Callable[[Position, random.Random, Strength], bool]:
    return lambda position, rng, strength: playout(position, policy, strength.max_steps, rng)


#: Every player model a grading panel may name.
PLAYERS: dict[str, PlayerModel] = {
    p.name: p
    for p in (
        PlayerModel(
            "dig",
            "Sends cards home first, then digs towards the cards the foundations need next "
            "(the family's dig preference), at random among equally good moves.",
            _policy_player("dig"),
        ),
        PlayerModel(
            "lookahead",
            "Looks one move ahead: plays the move after which the most cards are home, then "
            "from which the most cards can go home in a row, at random among equals.",
            _policy_player("lookahead"),
        ),
        PlayerModel(
            "home",
            "Plays at random, except that a move sending cards home always comes first.",
            _policy_player("home"),
        ),
        PlayerModel(
            "random",
            "Plays any legal move at random (in a grid game: any group the rules let go).",
            _policy_player("uniform"),
        ),
        PlayerModel(
            "largest",
            "Removes the group of the most cards, then the one after which the most cards can "
            "be removed group after group, at random among equals.",
            _policy_player("lookahead"),
        ),
        PlayerModel(
            "planner",
            "Plans ahead: searches the shortest sequence of at most depth moves that ends "
            "with a card going home, avoiding visibly lost positions.",
            lambda position, rng, strength: planner_wins(
                position, strength.depth, rng, strength.max_steps
            ),
        ),
        PlayerModel(
            "patient",
            "Undoes: tries moves depth first (most cards home first) and gives up after "
            "patience positions.",
            lambda position, rng, strength: patient_player_wins(position, strength.patience, rng),
            assisted=True,
        ),
        PlayerModel(
            "careful",
            "Undoes like the patient player, but tries moves in the dig player's order of "
            "preference; gives up after patience positions.",
            lambda position, rng, strength: patient_player_wins(
                position, strength.patience, rng, "dig"
            ),
            assisted=True,
        ),
        PlayerModel(
            "hint",
            "Always plays the visible-grid hint (a planner that reads only the visible cards).",
            lambda position, rng, strength: hint_player_wins(position, strength.max_steps),
            random=False,
        ),
    )
}


def panel_of(family: str) -> tuple[str, ...]:
    """The player models of a family's grading panel (from its registry record)."""
    return find_family(family).grading_panel


def player_wins(position: Position, player: str, games: int, strength: Strength, seed: str) -> int:
    """How many of ``games`` seeded games the player model ``player`` wins."""
    model = PLAYERS[player]
    rng = random.Random(f"{seed}/{player}")
    if not model.random:
        return games if model.play(position, rng, strength) else 0
    return sum(model.play(position, rng, strength) for _ in range(games))
