"""The validation players: legal play judged by the reference engine, wins where a win is at
hand, losses where none exists, and seeded, deterministic games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cloversolve.core.cards import Card
from cloversolve.core.notation import Move
from cloversolve.families.thirteen.rules import ThirteenPosition
from cloversolve.families.thirteen.tips import tips_player
from cloversolve.games.dealing import deal
from cloversolve.games.registry import PRESETS, find_preset
from cloversolve.grading.plugin import Game
from cloversolve.grading.validation_players import (
    montecarlo_player,
    validation_game,
    validation_players,
    validation_players_of,
)
from cloversolve.rules import Position, position_from_layout
from cloversolve.rules.plugin import rules_plugin
from cloversolve.solving.replay import ReplayStatus, replay_moves
from cloversolve.solving.solver import solve


def _judged(position: Position, game: Game) -> None:
    """The reference engine replays the game's moves on a copy: every move legal, and the
    game won exactly when the player says so."""
    result = replay_moves(position.copy(), game.moves)
    assert result.status is not ReplayStatus.ILLEGAL, result
    assert (result.status is ReplayStatus.WON) == game.won


def _tiny(ranks: int, suits: str, piles: int, order: list[int]) -> ThirteenPosition:
    cards = [Card.parse(f"{'A23456789TJQK'[r]}{s}") for s in suits for r in range(ranks)]
    shuffled = [cards[i] for i in order]
    return ThirteenPosition([shuffled[i::piles] for i in range(piles)], ranks=ranks)


@st.composite
def tiny_positions(draw: st.DrawFn) -> ThirteenPosition:
    ranks = draw(st.integers(3, 5))
    suits = draw(st.sampled_from(["CD", "CDH", "CDHS"]))
    order = draw(st.permutations(range(ranks * len(suits))))
    piles = draw(st.integers(2, 5))
    return _tiny(ranks, suits, piles, order)


@given(tiny_positions(), st.integers(0, 3))
def test_tips_player_plays_legally_and_restores_tiny_games(
    position: ThirteenPosition, budget: int
) -> None:
    before = position.key()
    game = tips_player(position, undo_budget=budget)
    assert position.key() == before
    _judged(position, game)


@given(tiny_positions(), st.integers(0, 2**32))
def test_montecarlo_player_plays_legally_and_restores_tiny_games(
    position: ThirteenPosition, seed: int
) -> None:
    before = position.key()
    game = montecarlo_player(position, random.Random(seed))
    assert position.key() == before
    _judged(position, game)


def _players_of(preset: str) -> list[str]:
    return list(validation_players_of(find_preset(preset).family))


@pytest.mark.parametrize(
    ("preset", "player"),
    [(p, name) for p in PRESETS for name in _players_of(p)],
)
def test_validation_players_play_real_deals_legally_and_deterministically(
    preset: str, player: str
) -> None:
    position = position_from_layout(deal(preset, 3))
    before = position.key()
    game = validation_game(position, player, "test/3")
    assert position.key() == before
    _judged(position, game)
    assert validation_game(position, player, "test/3") == game


def test_every_family_has_a_validation_player_and_tips_is_the_pile_games() -> None:
    for preset in PRESETS.values():
        assert "montecarlo" in _players_of(preset.name)
    assert {p for p in PRESETS if "tips" in _players_of(p)} == {"thirteen", "thirteen-return"}
    assert {p for p in PRESETS if "tips-undo" in _players_of(p)} == {"thirteen", "thirteen-return"}
    assert set(validation_players()) == {"tips", "tips-undo", "montecarlo", "hint"}


def test_the_hint_player_plays_the_families_with_a_visible_hint() -> None:
    hinted = {p.name for p in PRESETS.values() if rules_plugin(p.family).visible_hint is not None}
    assert {p for p in PRESETS if "hint" in _players_of(p)} == hinted
    assert hinted and hinted != set(PRESETS)


def test_only_the_undoing_tips_player_is_assisted() -> None:
    assisted = {name for name, player in validation_players().items() if player.assisted}
    assert assisted == {"tips-undo"}
    # Its first choice gets it stuck; only the undoing player goes back and wins.
    position = ThirteenPosition.parse([["3C", "2C", "AD"], ["2D", "3D", "AC"]], ranks=3)
    assert validation_game(position, "tips-undo", "s").won
    assert not validation_game(position, "tips", "s").won


def test_the_tips_player_digs_out_a_buried_ace() -> None:
    # The Ace of Hearts lies under the 3D, which only the 4S takes.
    position = ThirteenPosition.parse([["2C", "AH", "3D"], ["4S"]])
    game = tips_player(position, undo_budget=0)
    assert game.won
    assert [str(m) for m in game.moves[:2]] == ["1>2", "1>F"]
    _judged(position, game)


def _near_ends(preset: str, left: int, count: int = 4) -> list[tuple[int, Position]]:
    """The first ``count`` solvable deals, each after its solver route but for the last
    ``left`` moves."""
    found = []
    for number in range(1, 60):
        result = solve(preset, number, max_nodes=2_000_000)
        if result.status.value != "solved":
            continue
        position = position_from_layout(deal(preset, number))
        for move in result.route[:-left]:
            position.push(move)
        found.append((number, position))
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize(
    ("preset", "player"),
    [("thirteen", "tips"), ("thirteen", "montecarlo"), ("fifteen", "montecarlo")],
)
def test_validation_players_win_positions_close_to_a_win(preset: str, player: str) -> None:
    won = 0
    for number, position in _near_ends(preset, 8):
        game = validation_game(position, player, f"test/{number}")
        _judged(position, game)
        won += game.won
    assert won >= 3


def test_validation_players_lose_an_unwinnable_deal() -> None:
    # Deal 26816 has a King at a pile bottom and is lost all the same (FACTS.md, fact 1).
    assert solve("thirteen", 26816, max_nodes=20_000_000).status.value == "unsolvable"
    position = position_from_layout(deal("thirteen", 26816))
    for player in validation_players_of("thirteen"):
        game = validation_game(position, player, "test/26816")
        assert not game.won
        _judged(position, game)


def test_the_tips_player_refuses_other_games() -> None:
    position = position_from_layout(deal("fifteen", 1))
    with pytest.raises(ValueError, match="fifteen"):
        tips_player(position)


def _moves_text(moves: tuple[Move, ...]) -> tuple[str, ...]:
    return tuple(str(m) for m in moves)


def test_montecarlo_games_depend_on_the_seed() -> None:
    position = position_from_layout(deal("thirteen", 7))
    games = {_moves_text(validation_game(position, "montecarlo", f"s{i}").moves) for i in range(3)}
    assert len(games) > 1
