"""The Black Hole / All in a Row search kernel, judged by the reference engine."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from helpers import replays_to_win
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import round_robin_tiny_game
from verdict_checks import assert_outcome_sound

from cloversolve.core.notation import Transfer
from cloversolve.core.verdicts import Method, Status
from cloversolve.families.hole import search as hole
from cloversolve.families.hole.kernels import MASK_FANS
from cloversolve.families.hole.rules import HolePosition
from cloversolve.families.hole.search import PRUNES, count_reachable, perft, search
from cloversolve.games.dealing import deal
from cloversolve.rules import exhaustive
from cloversolve.search.common import Limits

#: Deals each preset is checked on in full (every route replayed).
DEALS = {"blackhole": range(1, 251), "allinarow": range(1, 201)}
#: black-hole-solver's solvability rates over PySolFC deals 1..1,000,000.
PUBLISHED_RATE = {"blackhole": 0.869, "allinarow": 0.671}
#: black-hole-solver's own verdict of each deal 1..1,000 (an independent solver; the file
#: states how they were obtained).
BLACK_HOLE_SOLVER = json.loads(
    (Path(__file__).parent / "data" / "black_hole_solver_verdicts_1_1000.json").read_text()
)


def position(preset: str, number: int) -> HolePosition:
    return HolePosition.from_layout(deal(preset, number))


def wilson_interval(successes: int, trials: int, z: float = 3.29) -> tuple[float, float]:
    """Wilson score interval (z = 3.29: 99.9% confidence)."""
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = (
        z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    )
    return centre - half, centre + half


@pytest.fixture(scope="module")
def outcomes():
    """Outcomes of the default search on every deal of ``DEALS``."""
    return {
        preset: {n: search(position(preset, n)) for n in numbers}
        for preset, numbers in DEALS.items()
    }


# --- Real deals ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", DEALS)
def test_every_deal_is_decided_and_every_route_wins(outcomes, preset):
    verdicts = {o.status for o in outcomes[preset].values()}
    assert verdicts == {Status.SOLVED, Status.UNSOLVABLE}
    deciders = {(o.status, o.details["decided_by"]) for o in outcomes[preset].values()}
    assert (Status.SOLVED, "forward") in deciders and (Status.SOLVED, "reverse") in deciders
    for number, outcome in outcomes[preset].items():
        if outcome.status is Status.SOLVED:
            assert outcome.method is Method.ROUTE_FOUND
            assert replays_to_win(position(preset, number), outcome.route), number
        else:
            assert outcome.method is Method.EXHAUSTED and outcome.route == ()


@pytest.mark.parametrize("preset", DEALS)
def test_solvable_rate_is_consistent_with_the_published_rate(outcomes, preset):
    solved = sum(o.status is Status.SOLVED for o in outcomes[preset].values())
    low, high = wilson_interval(solved, len(outcomes[preset]))
    assert low <= PUBLISHED_RATE[preset] <= high


@pytest.mark.slow
@pytest.mark.parametrize("preset", DEALS)
def test_deals_1_to_1000_match_black_hole_solver_deal_by_deal(outcomes, preset):
    known = outcomes[preset]
    letters = {Status.SOLVED: "s", Status.UNSOLVABLE: "u", Status.LIMIT_REACHED: "?"}
    ours = "".join(
        letters[(known[n] if n in known else search(position(preset, n))).status]
        for n in range(1, 1001)
    )
    theirs = BLACK_HOLE_SOLVER[preset]
    assert len(theirs) == 1000 and set(theirs) <= {"s", "u"}
    differing = [n for n, (a, b) in enumerate(zip(ours, theirs, strict=True), 1) if a != b]
    assert differing == [], f"deals whose verdict differs from black-hole-solver's: {differing}"


@pytest.mark.parametrize("preset", DEALS)
def test_verdict_files_match_black_hole_solver_deal_by_deal(preset):
    """The committed million-deal verdict files agree with black-hole-solver on 1..1,000."""
    path = Path(__file__).parent.parent / "benchmarks" / "results" / "verdicts"
    lines = (path / f"{preset}.verdicts").read_text().splitlines()
    assert json.loads(lines[0])["first"] == 1
    letters = "".join(lines[1:])[:1000]
    differing = [
        n
        for n, (a, b) in enumerate(zip(letters, BLACK_HOLE_SOLVER[preset], strict=True), 1)
        if a != b
    ]
    assert differing == []


@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(sorted(DEALS)),
    number=st.one_of(st.integers(1, 31999), st.integers(32000, 10**18)),
)
def test_routes_of_random_deals_win(preset, number):
    start = position(preset, number)
    outcome = search(start, Limits(max_nodes=300_000))
    assert_outcome_sound(start, outcome, "hole")
    assert outcome.nodes <= 300_000


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(sorted(DEALS)), number=st.integers(1, 10**9), data=st.data())
def test_routes_from_mid_game_positions_win(preset, number, data):
    start = position(preset, number)
    for _ in range(data.draw(st.integers(0, 12), label="moves played")):
        legal = list(start.legal_moves())
        if not legal:
            break
        start.push(data.draw(st.sampled_from(legal), label="move"))
    before = start.to_layout(preset)
    outcome = search(start, Limits(max_nodes=300_000))
    assert start.to_layout(preset) == before
    assert_outcome_sound(start, outcome, "hole")


def test_search_is_deterministic():
    start = position("blackhole", 214)
    first = search(start)
    search(position("allinarow", 7))  # another search in between must not matter
    again = search(start)
    assert first.status is Status.SOLVED
    assert (first.route, first.nodes, first.states) == (again.route, again.nodes, again.states)


@pytest.mark.parametrize("preset", DEALS)
def test_each_reduction_keeps_the_verdicts_of_real_deals(outcomes, preset):
    finished = 0
    for number in range(1, 41):
        for name in PRUNES:
            others = tuple(p for p in PRUNES if p != name)
            outcome = search(position(preset, number), Limits(max_nodes=100_000), prune=others)
            if outcome.status is not Status.LIMIT_REACHED:
                finished += 1
                assert outcome.status is outcomes[preset][number].status, (number, name)
        unreduced = search(position(preset, number), Limits(max_nodes=100_000), prune=())
        if unreduced.status is not Status.LIMIT_REACHED:
            assert unreduced.status is outcomes[preset][number].status, number
    assert finished >= 80


# --- Tiny games against the exhaustive solver ----------------------------------------------

TINY = [
    (seed, ranks, fans, start)
    for seed in range(100)
    for ranks, fans in ((4, 2), (4, 3), (5, 3), (5, 4), (6, 4))
    for start in (True, False)
    if (seed + ranks + fans + start) % 2 == 0
]


def hole_game(seed: int, ranks: int, fans: int, start_card: bool) -> HolePosition:
    """The tiny game of a ``TINY`` entry: with ``start_card`` an Ace starts the foundation
    (as in Black Hole), else it starts empty (as in All in a Row)."""
    return round_robin_tiny_game(
        HolePosition, seed, ranks=ranks, piles=fans, on_foundation=int(start_card)
    )


@pytest.fixture(scope="module")
def tiny_verdicts():
    """The exhaustive solver's verdict on every tiny game of ``TINY``."""
    return {spec: exhaustive.solve_exhaustively(hole_game(*spec)).solvable for spec in TINY}


def test_tiny_games_cover_both_verdicts(tiny_verdicts):
    assert len(tiny_verdicts) >= 500
    assert 0.1 < sum(tiny_verdicts.values()) / len(tiny_verdicts) < 0.9


@pytest.mark.parametrize(
    "prune",
    [PRUNES, ()] + [tuple(p for p in PRUNES if p != name) for name in PRUNES],
    ids=["all", "none"] + [f"no-{name}" for name in PRUNES],
)
def test_tiny_game_verdicts_equal_the_exhaustive_solver(tiny_verdicts, prune):
    for spec, winnable in tiny_verdicts.items():
        game = hole_game(*spec)
        outcome = search(game, prune=prune)
        assert (outcome.status is Status.SOLVED) == winnable, spec
        assert outcome.status is not Status.LIMIT_REACHED
        if winnable:
            assert replays_to_win(game, outcome.route), spec


def test_won_position_is_solved_with_an_empty_route():
    game, route = next(
        (game, route)
        for game in (hole_game(seed, 4, 3, True) for seed in range(100))
        if (route := exhaustive.solve_exhaustively(game).route) is not None
    )
    for move in route:
        game.push(move)
    outcome = search(game)
    assert (outcome.status, outcome.route, outcome.method) == (
        Status.SOLVED,
        (),
        Method.ROUTE_FOUND,
    )


# --- Move generation and limits ------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "number"), [("blackhole", 1), ("blackhole", 7), ("blackhole", 99)]
)
def test_perft_counts_of_kernel_and_engine_agree(preset, number):
    start = position(preset, number)
    for depth in range(6):
        assert count_reachable(start, depth) == exhaustive.count_reachable(start, depth), depth


@pytest.mark.parametrize("seed", range(6))
def test_games_with_more_fans_than_the_masks_hold_are_scanned_alike(seed):
    """Past ``MASK_FANS`` fans (empty ones) the move generator scans the fans instead of
    keeping masks: the same moves in the same order, at the start and after some plays,
    and the exhaustive solver's verdicts."""
    for ranks, fans, start in ((5, 4, True), (6, 4, False)):
        game = hole_game(seed, ranks, fans, start)
        pad = MASK_FANS + 1
        padded = HolePosition([[]] * pad + game.piles, game.foundation, game.ranks)
        for _ in range(4):
            moves = hole.legal_moves(game)
            assert hole.legal_moves(padded) == [Transfer(m.src + pad, "F") for m in moves]
            assert perft(padded, 3) == perft(game, 3)
            if not moves:
                break
            game.push(moves[-1])
            padded.push(Transfer(moves[-1].src + pad, "F"))
        outcome = search(padded)
        assert (outcome.status is Status.SOLVED) == exhaustive.solve_exhaustively(padded).solvable
        if outcome.status is Status.SOLVED:
            assert replays_to_win(padded, outcome.route)


def test_node_limit_is_honoured():
    outcome = search(position("allinarow", 7), Limits(max_nodes=5_000))
    assert outcome.status is Status.LIMIT_REACHED and outcome.method is Method.BUDGET
    assert outcome.nodes == 5_000 and outcome.route == ()


def test_time_limit_stops_the_search():
    outcome = search(position("allinarow", 7), Limits(time_limit=1e-6))
    assert outcome.status is Status.LIMIT_REACHED


def test_a_full_small_table_still_gives_correct_answers():
    start = position("blackhole", 214)
    outcome = search(start, Limits(max_memory=2**20))
    assert outcome.details["table_bytes"] <= 2**20
    assert outcome.status is Status.SOLVED and replays_to_win(start, outcome.route)
    assert search(position("blackhole", 1), Limits(max_memory=2**20)).status is Status.UNSOLVABLE


def test_unknown_reduction_is_rejected():
    with pytest.raises(ValueError, match="unknown prune"):
        search(position("blackhole", 1), prune=("rank-walk", "guesswork"))


def test_routes_use_foundation_moves_only():
    outcome = search(position("blackhole", 2))
    assert outcome.status is Status.SOLVED and len(outcome.route) == 51
    assert all(isinstance(m, Transfer) and m.dst == "F" for m in outcome.route)


@pytest.mark.parametrize("rows", [0, 1, 2])
def test_the_rank_walk_cache_changes_no_search(monkeypatch, rows):
    """With no cache, or one of one or two rows (every lookup collides), every search is the
    very same: the cache answers only for the exact arguments it stored."""
    games = [position("allinarow", n) for n in (3, 7, 12)] + [position("blackhole", 1)]
    games += [hole_game(seed, 6, 4, start) for seed in range(8) for start in (True, False)]
    expected = [search(game) for game in games]
    monkeypatch.setattr(hole, "WALK_CACHE_ENTRIES", rows)
    for game, first in zip(games, expected, strict=True):
        again = search(game)
        assert (again.status, again.route, again.nodes, again.states, again.details) == (
            first.status,
            first.route,
            first.nodes,
            first.states,
            first.details,
        )
