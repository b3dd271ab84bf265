"""The clover family's loss prover (``cloversolve/families/clover/proof.py``; FACTS.md, section 17):
its moves are the reference engine's, its verdicts the plain exhaustive solver's with every
reduction on, off and left out in turn, its caches and cuts hold only what they claim, and it
agrees with the committed verdicts of real deals."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import fields, replace

import pytest
from helpers import random_walk, replays_to_win
from small_games import random_tiny_clover_deal
from test_family_contract import perft_records

from cloversolve.audit.checks import check_certificate
from cloversolve.core.cards import Card
from cloversolve.families.clover import proof as clover_proof
from cloversolve.families.clover.proof import Reductions, State, _Search, compact, move_of, prove
from cloversolve.families.clover.rules import SUITS, CloverPosition
from cloversolve.families.clover.witnesses import projection
from cloversolve.games.dealing import deal
from cloversolve.games.layout import Layout
from cloversolve.rules.exhaustive import solve_exhaustively
from cloversolve.rules.loss_witnesses import LOST
from cloversolve.rules.plugin import rules_plugin
from cloversolve.runs.study_files import read_verdicts
from cloversolve.solving.certificates import Certificate

PRESETS = ("cloverleaf", "alexander")
ALL_ON = Reductions()
NAMES = tuple(f.name for f in fields(Reductions))
#: All reductions, none, and each one left out.
VARIANTS = (
    ALL_ON,
    Reductions(**{name: False for name in NAMES}),
    *(replace(ALL_ON, **{name: False}) for name in NAMES),
)
#: (ranks, fans, games) of the tiny games.
TINY_SIZES = ((3, 2, 30), (3, 3, 40), (4, 2, 30), (4, 3, 50), (4, 4, 40), (5, 3, 40), (5, 4, 40),
              (6, 4, 15))  # fmt: skip
UNREDUCED = Reductions(no_returns_when_settled=False, fan_order=False)


def tiny_games(seed: int) -> Iterator[CloverPosition]:
    """Tiny deals, and positions a few random moves (returns included) into them."""
    rng = random.Random(seed)
    for ranks, fans, count in TINY_SIZES:
        for index in range(count):
            position = random_tiny_clover_deal(rng, ranks, fans)
            if index % 3 == 2:
                position = random_walk(position, rng, rng.randrange(1, 6))
            yield position


def position_of(run: _Search, state: State) -> CloverPosition:
    """The reference engine's position of a compact ``state``."""
    fans = [[Card(c & 15, SUITS[c >> 4]) for c in fan] for fan in state[0]]
    foundations = {
        suit: [Card(c & 15, suit) for c in run.order[s][: state[1][s]]]
        for s, suit in enumerate(SUITS)
    }
    return CloverPosition(fans, foundations, ranks=run.ranks, automatic=False)


def solvable(position: CloverPosition) -> bool:
    verdict = solve_exhaustively(position).solvable
    assert verdict is not None
    return verdict


# --- moves ----------------------------------------------------------------------------------------


def compact_perft(run: _Search, state: State, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(compact_perft(run, run.play(state, step), depth - 1) for step in run.steps(state))


@pytest.mark.parametrize("preset", PRESETS)
def test_unreduced_moves_count_as_the_pinned_perft(preset: str) -> None:
    checked = 0
    for name, layout, counts in perft_records(preset):
        position = CloverPosition.from_layout(Layout.from_json(layout))
        run = _Search(position.ranks, UNREDUCED, None)
        for measure, depth, count in counts:
            if measure == "perft" and count <= 5_000:
                assert compact_perft(run, compact(position), depth) == count, (name, depth)
                checked += 1
    assert checked >= 3


def test_unreduced_moves_are_the_legal_moves_and_lead_to_the_same_positions() -> None:
    rng = random.Random(5)
    positions = 0
    for index in range(120):
        if index % 2:
            position = CloverPosition.from_layout(
                deal(PRESETS[index % 4 // 2], rng.randrange(1, 10**6))
            )
        else:
            position = random_tiny_clover_deal(rng, rng.randrange(3, 8), rng.randrange(2, 7))
        for _ in range(rng.randrange(0, 30)):
            run = _Search(position.ranks, UNREDUCED, None)
            state = compact(position)
            steps = run.steps(state)
            assert Counter(str(move_of(s)) for s in steps) == Counter(
                map(str, position.legal_moves())
            )
            for step in steps:
                position.push(move_of(step))
                assert compact(position) == run.play(state, step)
                position.pop()
            positions += 1
            if not steps:
                break
            position.push(move_of(rng.choice(steps)))
            position = position.copy()  # the history goes, as in a position handed to the prover
    assert positions >= 500


def test_reduced_moves_drop_only_returns_from_settled_positions_and_fan_permutations() -> None:
    dropped = 0
    for position in tiny_games(7):
        run = _Search(position.ranks, ALL_ON, None)
        state = compact(position)
        reduced = {run.key(run.play(state, step)) for step in run.steps(state)}
        full = _Search(position.ranks, UNREDUCED, None)
        for step in full.steps(state):
            child = run.key(run.play(state, step))
            # a lone card moved to an empty fan gives the position itself, up to fan order
            same = child == run.key(state)
            assert child in reduced or same or (step[0] < 0 and run.settled(state)), (
                position,
                step,
            )
        dropped += len(full.steps(state)) - len(run.steps(state))
    assert dropped >= 50


# --- verdicts -------------------------------------------------------------------------------------


def test_verdicts_equal_the_exhaustive_solver_on_tiny_games() -> None:
    verdicts: Counter[bool] = Counter()
    unsettled = 0
    for position in tiny_games(2024):
        expected = solvable(position)
        verdicts[expected] += 1
        unsettled += not _Search(position.ranks, ALL_ON, None).settled(compact(position))
        for reductions in VARIANTS:
            outcome = prove(position, reductions=reductions)
            assert outcome.solvable is expected, (position, reductions)
            if expected:
                assert outcome.route is not None and replays_to_win(position, outcome.route)
    assert verdicts[True] >= 60 and verdicts[False] >= 60
    assert unsettled >= 5  # roots just after a foundation return are covered too


def test_tiny_projection_budgets_keep_the_verdicts(monkeypatch: pytest.MonkeyPatch) -> None:
    # Most projections stop undecided: they must prove and store nothing.
    monkeypatch.setattr(clover_proof, "ROOT_PROJECTION_POSITIONS", 1)
    monkeypatch.setattr(clover_proof, "SEARCH_PROJECTION_POSITIONS", 3)
    for position in tiny_games(99):
        assert prove(position).solvable is solvable(position), position


def test_a_budget_too_small_decides_nothing() -> None:
    position = CloverPosition.from_layout(deal("alexander", 2))
    outcome = prove(position, max_positions=5)
    assert outcome.solvable is None and outcome.route is None
    with pytest.raises(ValueError, match="at least 1"):
        prove(position, max_positions=0)


# --- cuts and caches: each holds only what it claims --------------------------------------------


def test_dead_ends_projections_and_cached_states_are_what_they_claim() -> None:
    cuts: Counter[str] = Counter()
    rng = random.Random(31)
    for position in tiny_games(31):
        run = _Search(position.ranks, ALL_ON, None)
        for _ in range(6):  # positions along a random line of the game
            state = compact(position)
            if run.settled(state) and run.dead_end(state):
                cuts["dead end"] += 1
                assert not solvable(position), position
            if run.projection_lost(state, 10**6):
                cuts["projection"] += 1
                assert not solvable(position), position
            moves = list(position.legal_moves())
            if not moves:
                break
            position.push(rng.choice(moves))
            position = position.copy()
        for key in sorted(run.lost, key=repr)[:15]:
            cuts["stored lost"] += 1
            assert not solvable(position_of(run, key)), key
        for key in sorted(run.won, key=repr)[:15]:
            cuts["stored won"] += 1
            assert solvable(position_of(run, key)), key
    assert min(cuts[kind] for kind in ("dead end", "projection", "stored lost", "stored won")) >= 20


# --- real deals -----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_verdicts_equal_the_committed_verdicts_of_real_deals(preset: str) -> None:
    _, letters = read_verdicts(f"benchmarks/results/verdicts/{preset}.verdicts")
    rng = random.Random(preset)
    numbers = rng.sample([n for n in range(1, 10_001) if letters[n - 1] == "u"], 12)
    numbers += rng.sample([n for n in range(1, 10_001) if letters[n - 1] == "s"], 4)
    decided = 0
    for number in numbers:
        position = CloverPosition.from_layout(deal(preset, number))
        outcome = prove(position, max_positions=60_000)
        if outcome.solvable is None:
            continue
        decided += 1
        assert outcome.solvable is (letters[number - 1] == "s"), (preset, number)
        if outcome.solvable:
            assert outcome.route is not None and replays_to_win(position, outcome.route)
    assert decided >= 13


def test_the_audit_proves_a_projection_loss_the_plain_search_cannot() -> None:
    assert rules_plugin("clover").loss_prover is prove
    position = CloverPosition.from_layout(deal("cloverleaf", 25))
    suits = next(
        a + b
        for i, a in enumerate(SUITS)
        for b in SUITS[i + 1 :]
        if prove(projection(position, a + b)).solvable is False
    )
    assert solve_exhaustively(projection(position, suits), 10_000).solvable is None
    certificate = Certificate("suit-projection", {"suits": suits})
    verdict, _ = check_certificate(position, certificate, 10_000)
    assert verdict == LOST


def test_a_three_suit_projection_lost_with_its_two_suit_projections_won_is_proved_lost() -> None:
    # alexander 8270 is lost in Clubs, Hearts and Spades (FACTS.md, fact 4) while the root's
    # two-suit projections are all won: only the search of the three-suit game proves it.
    position = projection(CloverPosition.from_layout(deal("alexander", 8270)), "CHS")
    assert all(prove(projection(position, pair)).solvable for pair in ("CH", "CS", "HS"))
    assert prove(position, max_positions=300_000).solvable is False
