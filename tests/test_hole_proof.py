"""The hole family's loss prover (``cloversolve/families/hole/proof.py``), judged by the plain
exhaustive solver, the reference engine and the committed verdicts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import random_walk, replays_to_win
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import round_robin_tiny_game

from cloversolve.audit.checks import AGREED, AuditBudget, Claim, audit_claim
from cloversolve.families.hole import proof as hole_proof
from cloversolve.families.hole.proof import prove
from cloversolve.families.hole.rules import HolePosition
from cloversolve.families.hole.walks import RankWalks, walk_ends
from cloversolve.families.thirteen.rules import ThirteenPosition
from cloversolve.games.dealing import deal
from cloversolve.rules.exhaustive import solve_exhaustively
from cloversolve.rules.plugin import rules_plugin
from cloversolve.runs.study_files import read_verdicts

REDUCTIONS = ("reverse", "rank_walk", "lone_card", "fan_order")
#: Every reduction, none, and each one left out in turn.
SWITCHES = [{}, dict.fromkeys(REDUCTIONS, False)] + [{name: False} for name in REDUCTIONS]
SWITCH_IDS = ["all", "none"] + [f"no-{name}" for name in REDUCTIONS]
VERDICTS = Path(__file__).parent.parent / "benchmarks" / "results" / "verdicts"

#: Tiny games: seed, ranks, fans, and the cards on the foundation (0: empty, as in All in a
#: Row; 1: an Ace, as in Black Hole; 2: an Ace and a Two).
TINY = [
    (seed, ranks, fans, on_foundation)
    for seed in range(50)
    for ranks, fans in ((3, 3), (4, 2), (4, 3), (5, 3), (5, 4), (6, 4), (6, 6), (7, 7))
    for on_foundation in (0, 1, 2)
    if (seed + ranks + fans + on_foundation) % 3 != 0
]


def tiny_game(seed: int, ranks: int, fans: int, on_foundation: int) -> HolePosition:
    return round_robin_tiny_game(
        HolePosition, seed, ranks=ranks, piles=fans, on_foundation=on_foundation
    )


def real_position(preset: str, number: int) -> HolePosition:
    return HolePosition.from_layout(deal(preset, number))


@pytest.fixture(scope="module")
def tiny_verdicts() -> dict[tuple[int, int, int, int], bool]:
    """The plain exhaustive solver's verdict on every game of ``TINY``."""
    verdicts = {}
    for spec in TINY:
        verdict = solve_exhaustively(tiny_game(*spec)).solvable
        assert verdict is not None
        verdicts[spec] = verdict
    return verdicts


@pytest.fixture(scope="module")
def letters() -> dict[str, str]:
    """The committed verdict letter of every deal of both presets (deal 1 first)."""
    found = {}
    for preset in ("blackhole", "allinarow"):
        header, text = read_verdicts(VERDICTS / f"{preset}.verdicts")
        assert header["first"] == 1
        found[preset] = text
    return found


# --- Tiny games against the plain exhaustive solver ----------------------------------------


def test_tiny_games_cover_both_verdicts_and_both_foundations(tiny_verdicts):
    assert len(tiny_verdicts) >= 400
    assert 0.2 < sum(tiny_verdicts.values()) / len(tiny_verdicts) < 0.8
    for cards in (0, 1, 2):
        outcomes = {won for spec, won in tiny_verdicts.items() if spec[3] == cards}
        assert outcomes == {True, False}, cards


@pytest.mark.parametrize("switches", SWITCHES, ids=SWITCH_IDS)
def test_tiny_game_verdicts_equal_the_exhaustive_solver(tiny_verdicts, switches):
    for spec, winnable in tiny_verdicts.items():
        game = tiny_game(*spec)
        outcome = prove(game, **switches)
        assert outcome.solvable is winnable, spec
        if winnable:
            assert outcome.route is not None and replays_to_win(game, outcome.route), spec
        else:
            assert outcome.route is None


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    ranks=st.integers(3, 7),
    fans=st.integers(2, 5),
    steps=st.integers(0, 8),
)
def test_mid_game_positions_agree_with_the_exhaustive_solver(seed, ranks, fans, steps):
    """Positions a few random moves into a tiny game: foundations of many ranks."""
    start = round_robin_tiny_game(HolePosition, seed, ranks=ranks, piles=fans, on_foundation=1)
    game = random_walk(start, random.Random(seed), steps)
    winnable = solve_exhaustively(game).solvable
    for switches in SWITCHES:
        outcome = prove(game, **switches)
        assert outcome.solvable is winnable, switches
        if winnable:
            assert replays_to_win(game, outcome.route), switches


def test_wins_of_the_reversed_game_are_turned_into_forward_routes(tiny_verdicts, monkeypatch):
    """With turns of one position the reversed search finds many of the wins; each route,
    read backwards into forward moves, replays."""
    monkeypatch.setattr(hole_proof, "TURN", 1)
    winners = []
    run = hole_proof._Search.run

    def spied(search, room):
        result = run(search, room)
        if result == "won":
            winners.append(search.reversed)
        return result

    monkeypatch.setattr(hole_proof._Search, "run", spied)
    for spec, winnable in tiny_verdicts.items():
        if winnable and spec[1] + spec[2] >= 8:
            game = tiny_game(*spec)
            outcome = prove(game)
            assert outcome.route is not None and replays_to_win(game, outcome.route), spec
    assert winners.count(True) >= 20 and winners.count(False) >= 20


def test_a_won_position_is_won_with_an_empty_route():
    game = HolePosition([[], []], [real_position("blackhole", 1).foundation[0]])
    assert prove(game) == solve_exhaustively(game)


# --- Successor generation against the reference engine -------------------------------------


def engine_levels(position: HolePosition, depth: int) -> list[set]:
    """The reference engine's play states reached in exactly 0, 1, ..., ``depth`` moves."""
    frontier = {position.play_state(): position.copy()}
    levels = [set(frontier)]
    for _ in range(depth):
        following = {}
        for board in frontier.values():
            for move in list(board.legal_moves()):
                board.push(move)
                following.setdefault(board.play_state(), board.copy())
                board.pop()
        frontier = following
        levels.append(set(frontier))
    return levels


def prover_levels(position: HolePosition, depth: int) -> list[set]:
    """The prover's own states (no reduction) reached in exactly 0, 1, ..., ``depth`` moves,
    written as the reference engine's play states."""
    top = position.foundation_top
    fans = [tuple(card.rank for card in pile) for pile in position.piles]
    search = hole_proof._Search(
        position.ranks,
        fans,
        0 if top is None else top.rank,
        None,
        {},
        rank_walk=False,
        lone_card=False,
        fan_order=False,
    )
    levels: list[set] = [set() for _ in range(depth + 1)]
    walked = set()

    def walk(played: int) -> None:
        if (played, search._key()) in walked:
            return
        walked.add((played, search._key()))
        piles = tuple(tuple(p[:h]) for p, h in zip(position.piles, search.heights, strict=True))
        levels[played].add((piles, search.rank or None))
        if played < depth:
            for fan in search._moves():
                search._play(fan)
                walk(played + 1)
                search._undo()

    walk(0)
    return levels


@pytest.mark.parametrize(
    ("preset", "number"),
    [("blackhole", 1), ("blackhole", 7), ("blackhole", 99), ("allinarow", 3), ("allinarow", 7)],
)
def test_successors_of_real_deals_equal_the_reference_engine(preset, number):
    start = real_position(preset, number)
    assert prover_levels(start, 5) == engine_levels(start, 5)


def test_successors_of_tiny_games_equal_the_reference_engine():
    for spec in TINY[::9]:
        game = tiny_game(*spec)
        depth = game.cards_left()
        assert prover_levels(game, depth) == engine_levels(game, depth), spec


# --- The rank-walk test against every walk --------------------------------------------------


def walks_end_at(ranks: int, start: int, counts: list[int]) -> int:
    """The ranks (bit mask) at which some walk from ``start`` visiting rank ``k`` exactly
    ``counts[k]`` times ends, found by trying every walk."""
    ends = 0
    left = list(counts)

    def step(rank: int, remaining: int) -> None:
        nonlocal ends
        if remaining == 0:
            ends |= 1 << rank
            return
        for after in (rank % ranks + 1, (rank - 2) % ranks + 1):
            if left[after]:
                left[after] -= 1
                step(after, remaining - 1)
                left[after] += 1

    step(start, sum(counts))
    return ends


@settings(max_examples=400, deadline=None)
@given(data=st.data(), ranks=st.integers(3, 8))
def test_walk_ends_are_the_ends_of_the_walks(data, ranks):
    counts = [0] + [data.draw(st.integers(0, 3)) for _ in range(ranks)]
    if sum(counts) == 0 or sum(counts) > 11:
        counts = [0] + [1] * ranks
    start = data.draw(st.integers(1, ranks))
    assert walk_ends(ranks, start, counts) == walks_end_at(ranks, start, counts)


def test_kept_answers_are_the_answers_of_the_test():
    """Asked in any order, with any end ranks, the kept answers are the test's own."""
    rng = random.Random(5)
    for ranks in (3, 4, 7, 13):
        walks = RankWalks(ranks)
        games = []
        for _ in range(20):
            counts = [0] + [rng.randint(0, 2) for _ in range(ranks)]
            counts[rng.randint(1, ranks)] += 1
            games.append((rng.randint(1, ranks), counts))
        for _ in range(300):
            start, counts = rng.choice(games)
            ends = rng.randrange(1 << (ranks + 1)) & ~1
            packed = sum(count << (4 * rank) for rank, count in enumerate(counts))
            expected = bool(walk_ends(ranks, start, counts) & ends)
            assert walks.some_end(start, packed, ends) is expected


# --- Real deals against the committed verdicts ---------------------------------------------


@pytest.mark.parametrize(("preset", "deals"), [("blackhole", 40), ("allinarow", 30)])
def test_first_deals_get_their_committed_verdicts(letters, preset, deals):
    for number in range(1, deals + 1):
        outcome = prove(real_position(preset, number))
        assert "su"[outcome.solvable is False] == letters[preset][number - 1], number
        if outcome.solvable:
            assert replays_to_win(real_position(preset, number), outcome.route), number


@pytest.mark.parametrize("preset", ["blackhole", "allinarow"])
def test_sampled_losses_are_proved_again(letters, preset):
    """Losses drawn from the whole million-deal file are proved within 300,000 positions."""
    losses = [n for n, letter in enumerate(letters[preset], 1) if letter == "u"]
    for number in random.Random(17).sample(losses, 12):
        outcome = prove(real_position(preset, number), max_positions=300_000)
        assert outcome.solvable is False, number


# --- Budget, inputs, registry ---------------------------------------------------------------


@pytest.mark.parametrize("budget", [1, 2, 50, 1000, 20_000])
def test_the_budget_counts_the_positions_of_both_directions(budget):
    outcome = prove(real_position("allinarow", 7), max_positions=budget)
    assert outcome.solvable is None and outcome.route is None
    assert outcome.positions <= budget


def test_a_budget_large_enough_decides():
    full = prove(real_position("allinarow", 11))
    assert full.solvable is False
    assert prove(real_position("allinarow", 11), max_positions=full.positions) == full


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="max_positions"):
        prove(real_position("blackhole", 1), max_positions=0)
    with pytest.raises(TypeError, match="Black Hole"):
        prove(ThirteenPosition.from_layout(deal("thirteen", 1)))


def test_the_hole_family_names_the_prover():
    assert rules_plugin("hole").loss_prover is prove


def test_the_audit_proves_with_it_a_loss_the_plain_search_does_not_finish():
    budget = 50_000
    assert solve_exhaustively(real_position("allinarow", 20), budget).solvable is None
    finding, kind, reason = audit_claim(
        "allinarow", AuditBudget(max_positions=budget), Claim(20, "unsolvable")
    )
    assert (finding, kind) == (AGREED, "exhausted-search"), reason
