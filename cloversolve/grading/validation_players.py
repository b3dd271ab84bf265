"""Validation players: players outside the grading panel, whose policies come from a
description of how people play, not from the panel's code. They check that grades hold for
play the panel does not model; they never grade a deal.

- a family's own players, given by its plug-in (:class:`~.plugin.GradingPlugin`), such as ``tips``,
  which follows the strategy tips of the 13-pile games' pages
  (:mod:`cloversolve.families.thirteen.tips`);
- ``montecarlo``: every preset. It sends a card home when it can; before each move it plays
  a few random games (home moves first, else any move) a few moves deep from each candidate,
  and makes the move whose games ended with the most cards home.

All are deterministic for a given seed and leave the position as they found it. A game is a
:class:`Game`: whether it was won and the moves of the line it ended on (a route the
reference engine replays).
"""

from __future__ import annotations

import random
from functools import cache

from ..core.notation import Move
from ..games.registry import FAMILIES
from ..rules import Position
from .players import is_home_move, player_moves
from .plugin import Game, ValidationPlayer, grading_plugin

# -- the Monte Carlo player ----------------------------------------------------------------


def _rollout(position: Position, depth: int, rng: random.Random) -> float:
    """Cards home after a random game of at most ``depth`` moves (a home move whenever there
    is one, else any player move); a win counts as one card more than every card.
    ``position`` is restored."""
    played = 0
    try:
        while played < depth and not position.is_won():
            moves = player_moves(position)
            if not moves:
                break
            home = [m for m in moves if is_home_move(m)]
            pool = home or moves
            position.push(pool[rng.randrange(len(pool))])
            played += 1
        return position.cards_home() + (1 if position.is_won() else 0)
    finally:
        for _ in range(played):
            position.pop()


def montecarlo_player(
    position: Position,
    rng: random.Random,
    rollouts: int = 2,
    depth: int = 12,
    max_moves: int = 300,
) -> Game:
    """Play one game by sampling: for each candidate move (the home moves when there are
    any, else every move) not returning to a position seen in the game, ``rollouts`` random
    games of at most ``depth`` moves (:func:`_rollout`); it makes the move with the highest
    mean, ties at random. No undo. ``position`` is restored."""
    seen = {position.key()}
    line: list[Move] = []
    try:
        while not position.is_won() and len(line) < max_moves:
            best: list[Move] = []
            best_value = -1.0
            moves = player_moves(position)
            home = [m for m in moves if is_home_move(m)]
            for move in home or moves:
                position.push(move)
                if position.key() in seen:
                    position.pop()
                    continue
                value = sum(_rollout(position, depth, rng) for _ in range(rollouts)) / rollouts
                position.pop()
                if value > best_value:
                    best, best_value = [move], value
                elif value == best_value:
                    best.append(move)
            if not best:
                break
            move = best[rng.randrange(len(best))]
            position.push(move)
            line.append(move)
            seen.add(position.key())
        return Game(position.is_won(), tuple(line))
    finally:
        for _ in line:
            position.pop()


# -- the validation players by name -------------------------------------------------------


#: The ``montecarlo`` validation player.
MONTECARLO = ValidationPlayer(
    "montecarlo",
    "Sends a card home when it can; before each move, plays 2 random games 12 moves "
    "deep from every candidate and makes the move whose games sent the most cards home.",
    None,
    lambda position, rng: montecarlo_player(position, rng),
)

#: The generic validation players by name (they play every family's presets).
GENERIC_PLAYERS = {MONTECARLO.name: MONTECARLO}


@cache
def validation_players() -> dict[str, ValidationPlayer]:
    """Every validation player by name: each family's own (given by its plug-in), then the
    generic ones."""
    own = {
        name: player
        for family in FAMILIES
        for name, player in grading_plugin(family).validation_players.items()
    }
    return {**own, **GENERIC_PLAYERS}


def validation_players_of(family: str) -> tuple[str, ...]:
    """The validation players that play ``family``'s presets."""
    return (*grading_plugin(family).validation_players, *GENERIC_PLAYERS)


def validation_game(position: Position, player: str, seed: str) -> Game:
    """One game of validation player ``player``, seeded by ``seed`` and the player's name."""
    return validation_players()[player].play(position, random.Random(f"{seed}/{player}"))
