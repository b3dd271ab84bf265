"""Validation players: players outside the grading panel, whose policies come from a
description of how people play, not from the panel's code. They check that grades hold for
play the panel does not model; they never grade a deal.

- a family's own players, given by its plug-in (:class:`~.plugin.GradingPlugin`), such as ``tips``,
  which follows the strategy tips of the 13-pile games' pages
  (:mod:`cloversolve.families.thirteen.tips`);
- ``montecarlo``: every preset. It sends a card home when it can; before each move it plays
  a few random games (home moves first, else any move) a few moves deep from each candidate,
  and makes the move whose games ended with the most cards home. Its random games draw the
  unseen cards (the ``fifteen`` stock) in an order sampled afresh for each game
  (:func:`~cloversolve.grading.information.determinized`), never the real one.
- ``hint``: the presets of the families with a visible hint; it always plays the hint.

Players that undo are *assisted* (the game pages mark a game won with undo so); the others
play as the grades describe. A player sees only what a person sees. All are deterministic
for a given seed and leave the position as they found it. A game is a :class:`Game`: whether
it was won and the moves of the line it ended on (a route the reference engine replays).
"""

from __future__ import annotations

import random
from functools import cache

from ..core.notation import Move
from ..games.registry import FAMILIES
from ..rules import Position
from ..rules.plugin import rules_plugin
from .information import determinized
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


def _sampled_rollout(position: Position, move: Move, depth: int, rng: random.Random) -> float:
    """:func:`_rollout` after ``move`` on a copy of ``position`` whose unseen cards come in
    a fresh random order (:func:`determinized`). ``position`` is restored."""
    sample = determinized(position, rng)
    sample.push(move)
    try:
        return _rollout(sample, depth, rng)
    finally:
        sample.pop()


def montecarlo_player(
    position: Position,
    rng: random.Random,
    rollouts: int = 2,
    depth: int = 12,
    max_moves: int = 300,
) -> Game:
    """Play one game by sampling: for each candidate move (the home moves when there are
    any, else every move) not returning to a position seen in the game, ``rollouts`` random
    games of at most ``depth`` moves (:func:`_sampled_rollout`: the unseen cards in a fresh
    random order each game); it makes the move with the highest mean, ties at random. No
    undo. ``position`` is restored."""
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
                repeated = position.key() in seen
                position.pop()
                if repeated:
                    continue
                games = (_sampled_rollout(position, move, depth, rng) for _ in range(rollouts))
                value = sum(games) / rollouts
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


# -- the hint player ------------------------------------------------------------------------


def hint_player(position: Position, max_moves: int = 300) -> Game:
    """Play one game by always making the family's visible hint (deterministic; no undo).
    ``position`` is restored."""
    hint = rules_plugin(position.family).visible_hint
    assert hint is not None, f"the {position.family} family gives no visible hint"
    line: list[Move] = []
    try:
        while not position.is_won() and len(line) < max_moves:
            move = hint(position)
            if move is None:
                break
            position.push(move)
            line.append(move)
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

#: The ``hint`` validation player.
HINT = ValidationPlayer(
    "hint",
    "Always makes the visible hint (what the game's Hint button shows); no undo.",
    None,
    lambda position, rng: hint_player(position),
    needs_visible_hint=True,
)

#: The generic validation players by name (each plays the families :meth:`plays` allows).
GENERIC_PLAYERS = {p.name: p for p in (MONTECARLO, HINT)}


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
    """The validation players that play ``family``'s presets (its own, then the generic
    ones that play it)."""
    generic = (name for name, player in GENERIC_PLAYERS.items() if player.plays(family))
    return (*grading_plugin(family).validation_players, *generic)


def validation_game(position: Position, player: str, seed: str) -> Game:
    """One game of validation player ``player``, seeded by ``seed`` and the player's name."""
    return validation_players()[player].play(position, random.Random(f"{seed}/{player}"))
