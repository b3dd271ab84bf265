"""Grading: the rule, deterministic metrics, player models that leave positions untouched, and
the validation that an independent player finds Easy easier than Normal and Normal than Hard."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import orjson
import pytest

from cloversolve.dealing import deal
from cloversolve.grading import (
    DIFFICULTIES,
    GRADING_RULES,
    GradingError,
    GradingRule,
    difficulty,
    grade_deal,
    grading_rule,
    measure_playouts,
    move_classes,
    playout,
    score_of,
)
from cloversolve.replay import replay
from cloversolve.rules import position_from_layout
from cloversolve.study import wilson_interval

CATALOGUES = Path(__file__).resolve().parent.parent / "catalogues"

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from grading_players import (  # noqa: E402  (the validation players live beside their benchmark)
    VALIDATION_PLAYERS,
    patient_player_wins,
    planner_wins,
    validation_player_wins,
)


def rule(**changes) -> GradingRule:
    fields = {
        "policy": "dig",
        "playouts": 8,
        "max_steps": 100,
        "score": "playout_rate",
        "easy_threshold": 0.75,
        "hard_threshold": 0.25,
        "solve_nodes": 1000,
        "check_nodes": 100,
    }
    return GradingRule(**{**fields, **changes})


def test_rule_maps_scores_to_grades_at_the_thresholds() -> None:
    higher = rule()
    assert [difficulty(s, higher) for s in (1, 0.75, 0.7, 0.26, 0.25, 0)] == [
        "easy",
        "easy",
        "normal",
        "normal",
        "hard",
        "hard",
    ]
    lower = rule(score="solver_nodes", easy_threshold=64, hard_threshold=200)
    assert [difficulty(s, lower) for s in (1, 64, 65, 199, 200, 10**6)] == [
        "easy",
        "easy",
        "normal",
        "normal",
        "hard",
        "hard",
    ]
    metrics = {"playout_wins": 3, "playouts": 8, "solver_nodes": 70}
    assert score_of(metrics, higher) == 0.375 and score_of(metrics, lower) == 70


@pytest.mark.parametrize(
    "changes",
    [
        {"easy_threshold": 0.2, "hard_threshold": 0.25},
        {"easy_threshold": 0.25, "hard_threshold": 0.25},
        {"score": "solver_nodes", "easy_threshold": 300, "hard_threshold": 200},
        {"policy": "clever"},
        {"score": "luck"},
        {"playouts": 0},
        {"easy_threshold": "high"},
        {"rule": "easy if lucky"},
    ],
)
def test_malformed_rules_are_refused(changes: dict) -> None:
    with pytest.raises(GradingError):
        rule(**changes)


def test_rule_json_round_trip_and_words() -> None:
    for preset, stated in GRADING_RULES.items():
        assert GradingRule.from_json(stated.to_json()) == stated, preset
        assert str(stated.easy_threshold) in stated.rule
    with pytest.raises(GradingError):
        GradingRule.from_json({"policy": "dig"})
    with pytest.raises(GradingError, match="no grading rule"):
        grading_rule("blackhole")


@pytest.mark.parametrize("preset", ["thirteen", "fifteen", "cloverleaf"])
def test_player_models_restore_the_position(preset: str) -> None:
    position = position_from_layout(deal(preset, 3))
    before = (position.key(), position.to_layout(preset, 3))
    policy = GRADING_RULES[preset].policy
    playout(position, policy, 200, random.Random(1))
    playout(position, policy, 200)
    planner_wins(position, 2, "seed")
    patient_player_wins(position, 50, "seed")
    assert (position.key(), position.to_layout(preset, 3)) == before


def test_move_classes_partition_the_legal_moves() -> None:
    for preset, number in (("thirteen", 5), ("thirteen-return", 5), ("alexander", 2)):
        position = position_from_layout(deal(preset, number))
        classes = move_classes(position, "dig")
        ranked = [move for group in classes for move in group]
        player_moves = [m for m in position.legal_moves() if not isinstance(m.src, str)]
        assert sorted(map(str, ranked)) == sorted(map(str, player_moves))
        assert all(classes)


def test_playouts_are_seeded() -> None:
    position = position_from_layout(deal("thirteen", 11))
    stated = GRADING_RULES["thirteen"]
    runs = {measure_playouts(position, stated, f"seed-{i}") for i in range(4)}
    assert measure_playouts(position, stated, "seed-0") == measure_playouts(
        position, stated, "seed-0"
    )
    assert len(runs) > 1  # the seed matters: the player model is really random


@pytest.mark.parametrize(("preset", "number"), [("thirteen", 2), ("fifteen", 1)])
def test_grade_deal_is_deterministic_and_its_route_wins(preset: str, number: int) -> None:
    first, second = grade_deal(preset, number), grade_deal(preset, number)
    assert first == second
    assert first.status == "solved" and first.difficulty in DIFFICULTIES
    assert replay(preset, number, first.route).won
    metrics = first.metrics
    assert metrics["score"] == score_of(metrics, grading_rule(preset))
    assert first.difficulty == difficulty(metrics["score"], grading_rule(preset))
    assert 0 <= metrics["safe_first_moves"] <= metrics["first_moves"]
    assert 0 <= metrics["playout_wins"] <= metrics["playouts"]


def test_unsolvable_deals_get_no_grade() -> None:
    # thirteen deal 6 has no King at the bottom of a pile (FACTS.md fact 1).
    assert not any(pile[0].rank == 13 for pile in deal("thirteen", 6).piles)
    graded = grade_deal("thirteen", 6)
    assert graded.status == "unsolvable" and graded.difficulty is None and not graded.route


def shipped_sample(preset: str, per_difficulty: int) -> dict[str, list[dict]]:
    path = CATALOGUES / f"{preset}.json"
    assert path.is_file(), f"the validation sample comes from the shipped catalogue {path}"
    deals = orjson.loads(path.read_bytes())["deals"]
    return {
        level: [e for e in deals if e["difficulty"] == level][:per_difficulty]
        for level in DIFFICULTIES
    }


def test_shipped_grades_are_reproducible() -> None:
    sample = shipped_sample("fifteen", 2)
    for entries in sample.values():
        for entry in entries:
            graded = grade_deal("fifteen", entry["number"])
            assert graded.metrics == entry["metrics"]
            assert graded.difficulty == entry["difficulty"]


def test_independent_player_finds_easy_deals_easier() -> None:
    """The validation player (not the grading player) on a small sample of shipped fifteen
    deals: win rates ordered Easy > Normal > Hard, Easy and Hard intervals apart."""
    assert VALIDATION_PLAYERS["fifteen"][0] == "patient"
    sample = shipped_sample("fifteen", 80)
    rates, intervals = {}, {}
    for level, entries in sample.items():
        wins = sum(validation_player_wins("fifteen", e["number"]) for e in entries)
        rates[level] = wins / len(entries)
        intervals[level] = wilson_interval(wins, len(entries))
    assert rates["easy"] > rates["normal"] > rates["hard"], rates
    assert intervals["easy"][0] > intervals["hard"][1], intervals
    assert intervals["normal"][0] > intervals["hard"][1], intervals
