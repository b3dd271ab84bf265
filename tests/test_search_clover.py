"""The clover search kernel: verdicts against the exhaustive solver, routes replayed by the
reference engine, the fan-order symmetry, the switchable reductions, limits and determinism."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from helpers import engine_perft, random_walk, replays_to_win
from hypothesis import given, settings
from hypothesis import strategies as st
from samples import part, sample_shares
from small_games import foundation_bases, random_tiny_clover_deal
from verdict_checks import assert_outcome_sound

from cloversolve.core.cards import Card
from cloversolve.core.verdicts import Method, Status, StopReason
from cloversolve.families.clover import projection as clover_projection
from cloversolve.families.clover import search as clover
from cloversolve.families.clover.projection import PAIRS, ProjectionWork, projection_key
from cloversolve.families.clover.rules import SUITS, CloverPosition
from cloversolve.families.clover.runs import _Board
from cloversolve.families.clover.search import (
    MAIN_FIRST_NODES,
    RESTART_UNIT_NODES,
    legal_moves,
    perft,
    search,
    state_key,
)
from cloversolve.families.clover.search import _projection as projection
from cloversolve.games.dealing import deal
from cloversolve.rules.exhaustive import solve_exhaustively
from cloversolve.search.common import Limits, SearchOutcome

PRESETS = ("cloverleaf", "alexander")
#: (ranks, fans, games) of the tiny games compared with the exhaustive solver.
TINY_SIZES = ((3, 2, 50), (3, 3, 70), (4, 2, 50), (4, 3, 80), (4, 4, 60), (5, 3, 70), (5, 4, 70),
              (6, 4, 30), (4, 5, 20))  # fmt: skip
SWITCHES = (
    {},
    {"foundation_returns": True},
    {"dead_ends": False},
    {"foundation_returns": True, "dead_ends": False},
)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def real(preset: str, number: int) -> CloverPosition:
    return CloverPosition.from_layout(deal(preset, number))


def tiny_games(share: Fraction) -> Iterator[CloverPosition]:
    """Tiny deals (``share`` of the full sample), and positions a few random moves (returns
    included) into them."""
    rng = random.Random(2024)
    for ranks, fans, count in TINY_SIZES:
        for index in range(part(count, share)):
            position = random_tiny_clover_deal(rng, ranks, fans)
            if index % 3 == 2:
                position = random_walk(position, rng, rng.randrange(1, 6))
            yield position


def permuted(position: CloverPosition, order: list[int]) -> CloverPosition:
    return CloverPosition(
        [position.fans[i] for i in order],
        {s: position.foundation_cards(s) for s in SUITS},
        ranks=position.ranks,
        automatic=False,
    )


def solvable(position: CloverPosition) -> bool:
    """The exhaustive solver's verdict (it always decides these tiny games)."""
    verdict = solve_exhaustively(position).solvable
    assert verdict is not None
    return verdict


def search_with_verdict(position: CloverPosition, expected: bool, switches: dict) -> SearchOutcome:
    """Search ``position`` with ``switches``, check the exhaustive solver's verdict ``expected``
    (and that a route wins), and return the outcome."""
    outcome = search(position, **switches)
    assert outcome.status is (Status.SOLVED if expected else Status.UNSOLVABLE), (
        position, switches
    )  # fmt: skip
    if expected:
        assert replays_to_win(position, outcome.route)
    return outcome


def fix_in_search_budget(monkeypatch: pytest.MonkeyPatch, nodes: int) -> None:
    """Make the in-search projections' budget ``nodes`` and keep it there (it does not grow)."""
    monkeypatch.setattr(clover, "NODE_PROJECTION_NODES", nodes)
    monkeypatch.setattr(clover_projection, "MAX_NODE_BUDGET", nodes)


# --- verdicts ----------------------------------------------------------------------------------


@sample_shares()
def test_verdicts_equal_the_exhaustive_solver_on_tiny_games(share: Fraction) -> None:
    verdicts: Counter[bool] = Counter()
    unsettled = 0
    for position in tiny_games(share):
        expected = solvable(position)
        verdicts[expected] += 1
        unsettled += any(fan and fan[-1] == position.foundation_next(fan[-1].suit)
                         for fan in position.fans)  # fmt: skip
        for switches in SWITCHES:
            search_with_verdict(position, expected, switches)
    assert sum(verdicts.values()) >= 500 * share
    assert verdicts[True] >= 50 * share and verdicts[False] >= 50 * share
    assert unsettled >= 5 * share  # roots just after a foundation return are covered too


@pytest.mark.parametrize("preset", PRESETS)
def test_solved_routes_replay_to_a_win_on_real_deals(preset: str) -> None:
    solved = unsolvable = 0
    for number in itertools.count(1):
        position = real(preset, number)
        outcome = search(position, Limits(max_nodes=30_000))
        if outcome.status is Status.SOLVED:
            assert outcome.method is Method.ROUTE_FOUND
            assert replays_to_win(position, outcome.route)
            solved += 1
        unsolvable += outcome.status is Status.UNSOLVABLE
        if solved >= 200:
            break
    assert number < 600
    if preset == "alexander":
        assert unsolvable > 0


def compare_switch(preset: str, numbers: range, switch: dict[str, bool], budget: int) -> int:
    """Verdicts with the default search and with ``switch``; return how many deals both
    decided (and assert they agree)."""
    decided = 0
    for number in numbers:
        position = real(preset, number)
        default = search(position, Limits(max_nodes=budget))
        other = search(position, Limits(max_nodes=budget), **switch)
        if Status.LIMIT_REACHED in (default.status, other.status):
            continue
        assert default.status is other.status, (preset, number, switch)
        decided += 1
    return decided


@pytest.mark.parametrize("preset", PRESETS)
def test_foundation_returns_do_not_change_verdicts_on_real_deals(preset: str) -> None:
    assert compare_switch(preset, range(1, 26), {"foundation_returns": True}, 40_000) >= 15


@pytest.mark.parametrize("preset", PRESETS)
def test_dead_end_cut_does_not_change_verdicts_on_real_deals(preset: str) -> None:
    assert compare_switch(preset, range(1, 41), {"dead_ends": False}, 40_000) >= 15


@pytest.mark.parametrize(("preset", "number"), [("cloverleaf", 340), ("alexander", 274)])
def test_restarts_do_not_change_verdicts(
    preset: str, number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Deals that the main search does not decide within a few thousand nodes, so it
    # restarts (with these units) before it decides.
    monkeypatch.setattr(clover, "MAIN_FIRST_NODES", 1000)
    monkeypatch.setattr(clover, "RESTART_UNIT_NODES", 1000)
    position = real(preset, number)
    # (projections off: they decide these deals before the restarts would run)
    with_restarts = search(position, Limits(max_nodes=2_000_000), projections=False)
    assert with_restarts.details["restarts"] >= 1
    without = search(position, Limits(max_nodes=2_000_000), restarts=False, projections=False)
    assert without.details["restarts"] == 0
    assert with_restarts.details["decided_by"] == without.details["decided_by"] == "main"
    assert with_restarts.status is without.status is Status.SOLVED
    assert replays_to_win(position, with_restarts.route)
    assert replays_to_win(position, without.route)


@pytest.mark.parametrize("number", [556507, 669348])
def test_restarts_with_diverse_weights_find_the_wins_that_one_ordering_misses(
    number: int,
) -> None:
    # (cloverleaf 556507 took 9.1 million nodes when every restart's weights made much the
    # same order, all of them preferring moves that send cards home and uncover the next
    # cards; 669348 was undecided after 19 million)
    outcome = search(real("cloverleaf", number), Limits(max_nodes=2_000_000))
    assert outcome.status is Status.SOLVED and outcome.details["restarts"] >= 1
    assert replays_to_win(real("cloverleaf", number), outcome.route)


def test_in_search_projections_keep_their_order_whatever_the_restarts_weights() -> None:
    # (alexander 34146 restarts 21 times; with the restarts' weights its projections'
    # sub-searches took 2,080,000 nodes, with the fixed ones 127,000)
    outcome = search(real("alexander", 34146))
    assert outcome.status is Status.UNSOLVABLE and outcome.details["restarts"] >= 10
    assert outcome.details["projection_nodes"] < 300_000


def test_restarts_every_few_nodes_keep_the_verdicts_of_the_exhaustive_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Restarting after a handful of nodes, again and again, abandons paths in every state
    # of the search: the states cleared from the table must be searched again, and the
    # states kept must be finished ones, or a win is missed (or a loss never proved).
    monkeypatch.setattr(clover, "MAIN_FIRST_NODES", 1)
    monkeypatch.setattr(clover, "RESTART_UNIT_NODES", 1)
    verdicts: Counter[bool] = Counter()
    restarted = 0
    for position in tiny_games(Fraction(1)):
        expected = solvable(position)
        verdicts[expected] += 1
        for switches in ({"projections": False}, {"root_projections": False}):
            outcome = search_with_verdict(position, expected, switches)
            restarted += outcome.details["restarts"] >= 3
    assert verdicts[True] >= 50 and verdicts[False] >= 50
    assert restarted >= 100, restarted


#: (ranks, fans, games) of the tiny games searched with projections on and off.
PROJECTION_SIZES = ((3, 2, 250), (3, 3, 300), (4, 2, 250), (4, 3, 400), (4, 4, 300),
                    (5, 3, 300), (5, 4, 200))  # fmt: skip


@sample_shares()
def test_projections_do_not_change_verdicts_on_tiny_games(share: Fraction) -> None:
    rng = random.Random(1212)
    verdicts: Counter[bool] = Counter()
    by_projection = cut = 0
    for ranks, fans, count in PROJECTION_SIZES:
        for index in range(part(count, share)):
            position = random_tiny_clover_deal(rng, ranks, fans)
            if index % 4 == 3:
                position = random_walk(position, rng, rng.randrange(1, 6))
            expected = solvable(position)
            verdicts[expected] += 1
            status = Status.SOLVED if expected else Status.UNSOLVABLE
            on = search(position)
            in_search = search(position, root_projections=False)
            off = search(position, projections=False)
            assert on.status is in_search.status is off.status is status, position
            if on.method is Method.SUIT_PROJECTION:
                by_projection += 1
                suits = on.details["projection_suits"]
                assert len(suits) == 2 and set(suits) <= set(SUITS)
            cut += in_search.details["projection_cuts"] > 0
    assert sum(verdicts.values()) >= 2000 * share
    assert verdicts[False] >= sum(verdicts.values()) / 3
    # Both uses of the lemma are exercised: losses proved at the root, and cuts in the search.
    assert by_projection >= 100 * share and cut >= 20 * share, (by_projection, cut)


@pytest.mark.parametrize("preset", PRESETS)
def test_projections_do_not_change_verdicts_on_real_deals(preset: str) -> None:
    assert compare_switch(preset, range(1, 61), {"projections": False}, 200_000) >= 40
    assert compare_switch(preset, range(1, 31), {"root_projections": False}, 200_000) >= 20


@sample_shares()
def test_states_known_lost_keep_the_verdicts_of_the_exhaustive_solver(
    monkeypatch: pytest.MonkeyPatch, share: Fraction
) -> None:
    # With budgets of a node or a few, most projection searches stop undecided: only the
    # states of those that end without a win may go into the cache of lost states (FACTS.md,
    # fact 15). Storing the others' too gets dozens of these verdicts wrong.
    rng = random.Random(1515)
    verdicts: Counter[bool] = Counter()
    for budget in (1, 2, 4):
        fix_in_search_budget(monkeypatch, budget)
        for ranks, fans, count in ((4, 3, 150), (5, 4, 150), (6, 4, 100)):
            for _ in range(part(count, share)):
                position = random_tiny_clover_deal(rng, ranks, fans)
                expected = solvable(position)
                verdicts[expected] += 1
                outcome = search(position, root_projections=False)
                assert outcome.status is (Status.SOLVED if expected else Status.UNSOLVABLE)
    assert verdicts[False] >= sum(verdicts.values()) / 4, verdicts


def test_states_known_lost_are_skipped_without_changing_verdicts_on_real_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (small projection budgets, so that many projections are searched and some end lost)
    fix_in_search_budget(monkeypatch, 300)
    skipped = decided = 0
    for number in range(1, 41):
        position = real("cloverleaf", number)
        on = search(position, Limits(max_nodes=100_000), root_projections=False)
        off = search(position, Limits(max_nodes=100_000), projections=False)
        skipped += on.details["projection_states_known_lost"]
        if Status.LIMIT_REACHED not in (on.status, off.status):
            assert on.status is off.status, number
            decided += 1
    assert decided >= 30 and skipped >= 1000, (decided, skipped)


def capture_projection_work(monkeypatch: pytest.MonkeyPatch) -> list[ProjectionWork]:
    """The in-search projections' work arrays of every search from now on (in order)."""
    made: list[ProjectionWork] = []

    class Recorded(ProjectionWork):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            made.append(self)

    monkeypatch.setattr(clover, "ProjectionWork", Recorded)
    return made


@sample_shares(Fraction(1, 8))
def test_states_on_the_paths_of_won_projections_can_be_won(
    monkeypatch: pytest.MonkeyPatch, share: Fraction
) -> None:
    # Every projection of a position a few random moves into a tiny game whose key is in
    # the won cache after searching the game must be winnable (by the exhaustive solver).
    made = capture_projection_work(monkeypatch)
    rng = random.Random(3131)
    checked = 0
    for ranks, fans, count in ((5, 4, 80), (6, 4, 80)):
        for _ in range(part(count, share)):
            root = random_tiny_clover_deal(rng, ranks, fans)
            search(root, root_projections=False)
            # (a stored row holds the key's first word with its low bit set, and the second)
            won = {(int(a), int(b)) for a, b in made[-1].tuple[7] if a}
            for _ in range(20):
                walked = random_walk(root, rng, rng.randrange(12))
                for mask in PAIRS:
                    projected = projection(walked, int(mask))
                    key0, key1 = state_key(projected)
                    if (key0 | 1, key1) in won:
                        assert solvable(projected)
                        checked += 1
    assert checked >= 100 * share, checked


def test_a_growing_in_search_budget_keeps_the_verdicts_of_the_exhaustive_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # From a budget of one node, the budget grows where the projections need more (and the
    # searches start again from their roots): verdicts must not change.
    monkeypatch.setattr(clover, "NODE_PROJECTION_NODES", 1)
    rng = random.Random(4242)
    grown = 0
    for ranks, fans, count in ((5, 4, 150), (6, 4, 150)):
        for _ in range(count):
            position = random_tiny_clover_deal(rng, ranks, fans)
            outcome = search_with_verdict(position, solvable(position), {"root_projections": False})
            grown += outcome.details["projection_budget"] > 1
    assert grown >= 30, grown


def test_a_deal_whose_projections_need_a_larger_budget_is_decided_once_it_grows() -> None:
    # (cloverleaf 195287: at the first budget its in-search projections keep stopping
    # undecided, and the main search crawls through a few thousand nodes a minute)
    outcome = search(real("cloverleaf", 195287), Limits(max_nodes=20_000))
    assert outcome.status is Status.SOLVED
    assert outcome.details["projection_budget"] > clover.NODE_PROJECTION_NODES
    assert outcome.details["projection_states_known_won"] > 0


@sample_shares()
def test_three_suit_projections_do_not_change_verdicts_on_tiny_games(
    monkeypatch: pytest.MonkeyPatch, share: Fraction
) -> None:
    # The main search pauses after one node and no restarts run, so the three-suit
    # projections run in every game it does not win at once.
    monkeypatch.setattr(clover, "MAIN_FIRST_NODES", 1)
    rng = random.Random(1203)
    verdicts: Counter[bool] = Counter()
    by_triple = 0
    for ranks, fans, count in ((3, 3, 150), (4, 3, 150), (4, 4, 150), (5, 4, 150)):
        for _ in range(part(count, share)):
            position = random_tiny_clover_deal(rng, ranks, fans)
            expected = solvable(position)
            verdicts[expected] += 1
            outcome = search(position, restarts=False)
            assert outcome.status is (Status.SOLVED if expected else Status.UNSOLVABLE), position
            if (
                outcome.method is Method.SUIT_PROJECTION
                and len(outcome.details["projection_suits"]) == 3
            ):
                by_triple += 1
    assert verdicts[False] >= sum(verdicts.values()) / 4, verdicts
    assert by_triple >= 20 * share, by_triple


def test_three_suit_projections_resumed_in_turns_keep_the_verdicts_of_the_exhaustive_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Main segments of a node or two, each followed by a node for each open three-suit
    # projection: the projections' runs are paused and resumed again and again, beside a
    # main search that restarts between turns (or does not).
    monkeypatch.setattr(clover, "MAIN_FIRST_NODES", 1)
    monkeypatch.setattr(clover, "RESTART_UNIT_NODES", 1)
    monkeypatch.setattr(clover, "TRIPLE_FIRST_NODES", 1)
    rng = random.Random(1205)
    verdicts: Counter[bool] = Counter()
    by_triple = resumed = 0
    for ranks, fans, count in ((4, 3, 100), (4, 4, 100), (5, 4, 100)):
        for _ in range(count):
            position = random_tiny_clover_deal(rng, ranks, fans)
            expected = solvable(position)
            verdicts[expected] += 1
            for restarts in (True, False):
                outcome = search_with_verdict(position, expected, {"restarts": restarts})
                if (
                    outcome.method is Method.SUIT_PROJECTION
                    and len(outcome.details["projection_suits"]) == 3
                ):
                    by_triple += 1
                    # (more projection nodes than the first turns of the four can hold)
                    resumed += outcome.details["root_projection_nodes"] > 20
    assert verdicts[False] >= sum(verdicts.values()) / 4, verdicts
    assert by_triple >= 10 and resumed >= 5, (by_triple, resumed)


def test_a_three_suit_projection_lost_after_many_turns_proves_the_deal_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # alexander 8270: every two-suit projection wins, the one onto C, H and S is lost (in
    # some dozens of nodes). With turns of a node or a few, the loss is proved after many
    # of them, between restarting segments of the main search (small in-search projections
    # keep the main search from finishing first).
    fix_in_search_budget(monkeypatch, 200)
    monkeypatch.setattr(clover, "TRIPLE_FIRST_NODES", 1)
    monkeypatch.setattr(clover, "RESTART_UNIT_NODES", 8)
    outcome = search(real("alexander", 8270), Limits(max_nodes=400_000))
    assert outcome.status is Status.UNSOLVABLE and outcome.method is Method.SUIT_PROJECTION
    assert outcome.details["projection_suits"] == "CHS"
    assert outcome.details["restarts"] >= 5


def test_the_three_suit_projections_get_more_nodes_as_the_main_search_grows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Their nodes per main node double with each doubling of the main search's nodes from
    # TRIPLE_BOOST_NODES on, so alexander 8270's lost projection onto C, H and S is proved
    # after fewer main nodes than with the rate kept at one.
    fix_in_search_budget(monkeypatch, 200)
    monkeypatch.setattr(clover, "MAIN_FIRST_NODES", 8)
    monkeypatch.setattr(clover, "TRIPLE_FIRST_NODES", 1)
    monkeypatch.setattr(clover, "RESTART_UNIT_NODES", 8)
    main_nodes = {}
    for boost in (16, 10**9):
        monkeypatch.setattr(clover, "TRIPLE_BOOST_NODES", boost)
        outcome = search(real("alexander", 8270), Limits(max_nodes=400_000))
        assert outcome.method is Method.SUIT_PROJECTION, boost
        assert outcome.details["projection_suits"] == "CHS"
        main_nodes[boost] = outcome.nodes - outcome.details["root_projection_nodes"]
    assert main_nodes[16] < main_nodes[10**9], main_nodes
    monkeypatch.setattr(clover, "TRIPLE_BOOST_NODES", 16)
    assert [clover._triple_rate(n) for n in (0, 15, 16, 31, 32, 64)] == [1, 1, 2, 2, 4, 8]


@pytest.mark.parametrize(("preset", "number", "suits"), [("cloverleaf", 421, "CH"),
                                                         ("cloverleaf", 213, "CD"),
                                                         ("alexander", 8270, "CHS")])  # fmt: skip
def test_a_lost_projection_proves_the_deal_lost(
    preset: str, number: int, suits: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (alexander 8270: every two-suit projection wins, but one onto three suits is lost;
    # with small in-search projections, so that the main search does not finish first)
    fix_in_search_budget(monkeypatch, 200)
    outcome = search(real(preset, number), Limits(max_nodes=100_000))
    assert outcome.status is Status.UNSOLVABLE and outcome.method is Method.SUIT_PROJECTION
    assert outcome.details["projection_suits"] == suits
    assert outcome.details["decided_by"] == "projection"
    # The projection itself, searched without projections, is exhaustively lost.
    mask = sum(1 << SUITS.index(suit) for suit in suits)
    projected = search(projection(real(preset, number), mask), projections=False)
    assert projected.status is Status.UNSOLVABLE and projected.method is Method.EXHAUSTED


def test_projection_keys_equal_the_keys_of_the_projected_positions() -> None:
    rng = random.Random(7)
    for position in random_positions(11, 40):
        mask = rng.choice([3, 5, 9, 6, 10, 12, 7, 15])
        expected = state_key(projection(position, mask, automatic=False))
        board = _Board(position, 1)
        key = projection_key(board.nfans, board.ranks, board.board, board.hashes, mask)
        assert (int(key[0]), int(key[1])) == expected


def test_projections_stay_within_the_memory_bound() -> None:
    outcome = search(real("cloverleaf", 1), Limits(max_memory=2**20))
    assert outcome.status is Status.SOLVED


def test_a_deal_decided_early_does_not_restart() -> None:
    outcome = search(real("cloverleaf", 2))
    assert outcome.status is Status.SOLVED and outcome.details["restarts"] == 0
    assert outcome.nodes < MAIN_FIRST_NODES


@pytest.mark.slow
@sample_shares()
def test_foundation_returns_do_not_change_verdicts_on_hundreds_of_real_deals(
    monkeypatch: pytest.MonkeyPatch, share: Fraction
) -> None:
    # (small in-search projections: with returns, a projection's game is much larger and
    # would use its whole default budget at every node; verdicts do not depend on it)
    fix_in_search_budget(monkeypatch, 200)
    numbers = range(1, 1 + part(280, share))
    decided = sum(
        compare_switch(p, numbers, {"foundation_returns": True}, 200_000) for p in PRESETS
    )
    assert decided >= 500 * share


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(1, 10**20 - 1))
def test_any_deal_number_gives_a_verdict_or_a_winning_route(preset: str, number: int) -> None:
    position = real(preset, number)
    before = position.key()
    outcome = search(position, Limits(max_nodes=20_000))
    assert position.key() == before
    assert outcome.nodes <= 20_000
    assert_outcome_sound(position, outcome, "clover")


def test_search_is_deterministic() -> None:
    for preset, number in (("cloverleaf", 2), ("alexander", 3), ("alexander", 2)):
        first = search(real(preset, number), Limits(max_nodes=50_000))
        second = search(real(preset, number), Limits(max_nodes=50_000))
        assert (first.status, first.route, first.nodes, first.states, first.max_depth) == (
            second.status, second.route, second.nodes, second.states, second.max_depth
        )  # fmt: skip


def test_won_and_blocked_roots() -> None:
    complete = {"FC": "2C AC", "FD": "AD 2D", "FH": "AH 2H", "FS": "2S AS"}
    won = CloverPosition([[], []], {k: cards(v) for k, v in complete.items()}, ranks=2)
    outcome = search(won)
    assert outcome.status is Status.SOLVED and outcome.route == ()
    fans = [cards("2H 3H"), cards("2D 3D"), cards("2C AC"), cards("2S AS")]
    blocked = CloverPosition(fans, foundation_bases(3), ranks=3)
    assert blocked.is_blocked()
    for dead_ends in (True, False):
        outcome = search(blocked, dead_ends=dead_ends)
        assert outcome.status is Status.UNSOLVABLE and outcome.method is Method.EXHAUSTED


def test_dead_end_is_cut_at_the_root() -> None:
    # 3H lies on 4H on 2H, the card its foundation needs: neither 3H nor anything under it
    # can ever move, though AS and 2S can still shuffle.
    fans = [cards("2H 4H 3H"), cards("3D AC"), cards("2C 4D"), cards("3S 2S"), cards("AS")]
    foundations = {"FC": cards("4C 3C"), "FD": cards("AD 2D"), "FH": cards("AH"), "FS": cards("4S")}
    position = CloverPosition(fans, foundations, ranks=4)
    assert {str(m) for m in position.legal_moves()} == {"4>5", "5>4"}
    cut = search(position, projections=False)
    assert cut.status is Status.UNSOLVABLE and cut.nodes == 0 and cut.details["dead_ends_cut"] == 1
    full = search(position, dead_ends=False, projections=False)
    assert full.status is Status.UNSOLVABLE and full.nodes > 0
    assert solve_exhaustively(position).solvable is False


# --- the kernel's move generator ----------------------------------------------------------------


def random_positions(seed: int, count: int) -> Iterator[CloverPosition]:
    """Positions along random playouts (returns included) from real and tiny deals."""
    rng = random.Random(seed)
    for index in range(count):
        if index % 2:
            position = real(PRESETS[index % 4 // 2], rng.randrange(1, 10**6))
        else:
            position = random_tiny_clover_deal(rng, rng.randrange(3, 8), rng.randrange(2, 7))
        for _ in range(rng.randrange(0, 30)):
            moves = list(position.legal_moves())
            if not moves:
                break
            position.push(rng.choice(moves))
        yield position.copy()


def test_kernel_generates_exactly_the_legal_moves() -> None:
    for position in random_positions(11, 150):
        engine = Counter(map(str, position.legal_moves()))
        assert Counter(map(str, legal_moves(position))) == engine


def test_symmetric_generation_only_drops_fan_permutations() -> None:
    """A move the search skips leads to a fan permutation of the position itself or of the
    position some kept move leads to (same kernel key)."""
    dropped = 0
    for position in random_positions(12, 150):
        kept = legal_moves(position, symmetric=True)
        reachable = {state_key(position)}
        for move in kept:
            position.push(move)
            reachable.add(state_key(position))
            position.pop()
        for move in legal_moves(position):
            if move in kept or move.from_foundation:
                continue  # returns are the subject of their own tests
            dropped += 1
            position.push(move)
            assert state_key(position) in reachable, (position, move)
            position.pop()
    assert dropped > 20


@pytest.mark.parametrize(
    ("preset", "number", "depth"),
    [("alexander", 5, 3), ("cloverleaf", 25, 4), ("alexander", 686, 4)],
)
def test_perft_engine_equals_kernel(preset: str, number: int, depth: int) -> None:
    position = real(preset, number)
    assert perft(position, depth) == engine_perft(position, depth) > 0


def test_perft_with_returns_and_empty_fans() -> None:
    for position in itertools.islice(random_positions(13, 40), 40):
        assert perft(position, 3) == engine_perft(position, 3)


# --- the position key ---------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_position_key_ignores_fan_order_only(data: st.DataObject) -> None:
    preset = data.draw(st.sampled_from(PRESETS))
    position = real(preset, data.draw(st.integers(1, 10**20 - 1)))
    for _ in range(data.draw(st.integers(0, 10))):
        moves = list(position.legal_moves())
        if not moves:
            break
        position.push(data.draw(st.sampled_from(moves)))
    order = data.draw(st.permutations(range(len(position.fans))))
    assert state_key(permuted(position, order)) == state_key(position)


def test_position_keys_are_distinct_across_many_positions() -> None:
    """Equal keys exactly for equal positions up to fan order and empty fans."""
    rng = random.Random(15)
    keys: dict[tuple[int, int], tuple] = {}
    canonicals: dict[tuple, tuple[int, int]] = {}
    for position in random_positions(14, 300):
        for _ in range(2):
            order = list(range(len(position.fans)))
            rng.shuffle(order)
            shuffled = permuted(position, order)
            canonical = (
                position.ranks,
                tuple(sorted(tuple(map(str, fan)) for fan in shuffled.fans if fan)),
                tuple(shuffled.heights[s] for s in SUITS),
            )
            key = state_key(shuffled)
            assert keys.setdefault(key, canonical) == canonical
            assert canonicals.setdefault(canonical, key) == key
    assert len(keys) > 250


# --- limits -------------------------------------------------------------------------------------


def test_node_limit() -> None:
    position = real("cloverleaf", 25)
    outcome = search(position, Limits(max_nodes=1000), projections=False)
    assert outcome.status is Status.LIMIT_REACHED and outcome.method is Method.BUDGET
    assert outcome.nodes == 1000 and outcome.stopped_by is StopReason.NODES


def test_node_limit_counts_the_nodes_between_restarts() -> None:
    position = real("cloverleaf", 25)
    # The first MAIN_FIRST_NODES, then Luby's 1, 1, 2, ... units: two restarts, and the
    # budget ends half-way through the third segment.
    budget = MAIN_FIRST_NODES + 3 * RESTART_UNIT_NODES
    outcome = search(position, Limits(max_nodes=budget), projections=False)
    assert outcome.status is Status.LIMIT_REACHED and outcome.stopped_by is StopReason.NODES
    assert outcome.nodes == budget and outcome.details["restarts"] == 2
    assert "decided_by" not in outcome.details


def test_time_limit() -> None:
    position = real("cloverleaf", 25)
    outcome = search(position, Limits(time_limit=1e-6))
    assert outcome.status is Status.LIMIT_REACHED and outcome.stopped_by is StopReason.TIME


def test_memory_limit_bounds_the_table() -> None:
    position = real("cloverleaf", 25)
    outcome = search(position, Limits(max_memory=2**20), projections=False)
    assert outcome.status is Status.LIMIT_REACHED and outcome.stopped_by is StopReason.MEMORY
    assert outcome.details["table_bytes"] <= 2**20
    assert outcome.states > 10_000
