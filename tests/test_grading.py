"""Grading: the rule, deterministic metrics, the panel of player models (seeded, leaving
positions untouched), catalogues of the previous grading version, and a held-out check that a
player left out of the panel finds Easy easier than Hard."""

from __future__ import annotations

import random
from pathlib import Path

import orjson
import pytest

from cloversolve.games.dealing import deal
from cloversolve.games.registry import FAMILIES, find_preset
from cloversolve.grading.grading import (
    DIFFICULTIES,
    GRADING_RULES,
    GRADING_VERSION,
    GradingError,
    GradingRule,
    PlayoutRule,
    difficulty,
    grade_deal,
    grading_rule,
    move_classes,
    panel_score,
    play_metrics,
    score_of,
)
from cloversolve.grading.players import PLAYERS, Strength, panel_of, player_wins
from cloversolve.rules import position_from_layout
from cloversolve.runs.calibration import share_thresholds
from cloversolve.runs.study import wilson_interval
from cloversolve.solving.replay import replay
from cloversolve.solving.solver import solve

CATALOGUES = Path(__file__).resolve().parent.parent / "catalogues"
RESULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "results"


def rule(**changes) -> GradingRule:
    fields = {
        "panel": ("dig", "home"),
        "games": 4,
        "max_steps": 100,
        "depth": 2,
        "patience": 50,
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
    metrics = {"panel_games": 4, "panel_wins": {"dig": 3, "home": 0}}
    assert score_of(metrics, higher) == 0.375 == panel_score({"dig": 3, "home": 0}, 4)
    with pytest.raises(KeyError):
        score_of({"panel_games": 4, "panel_wins": {"dig": 3}}, higher)


def test_previous_version_rules_still_grade_their_catalogues() -> None:
    lower = PlayoutRule(
        policy="dig",
        playouts=8,
        max_steps=100,
        score="solver_nodes",
        easy_threshold=64,
        hard_threshold=200,
        solve_nodes=1000,
        check_nodes=100,
    )
    assert [difficulty(s, lower) for s in (1, 64, 65, 199, 200, 10**6)] == [
        "easy",
        "easy",
        "normal",
        "normal",
        "hard",
        "hard",
    ]
    assert GradingRule.from_json(lower.to_json()) == lower
    shipped = orjson.loads((CATALOGUES / "fifteen.json").read_bytes())
    stated = GradingRule.from_json(shipped["parameters"]["grading"])
    entry = shipped["deals"][0]
    assert difficulty(score_of(entry["metrics"], stated), stated) == entry["difficulty"]


@pytest.mark.parametrize(
    "changes",
    [
        {"easy_threshold": 0.2, "hard_threshold": 0.25},
        {"easy_threshold": 0.25, "hard_threshold": 0.25},
        {"panel": ("dig", "clever")},
        {"panel": ()},
        {"panel": ("dig", "dig")},
        {"score": "luck"},
        {"games": 0},
        {"patience": 0},
        {"easy_threshold": "high"},
        {"rule": "easy if lucky"},
        {"version": 1},
    ],
)
def test_malformed_rules_are_refused(changes: dict) -> None:
    with pytest.raises(GradingError):
        rule(**changes)


def test_thresholds_are_the_thirds_of_the_training_scores() -> None:
    """Every preset's thresholds are what the validation benchmark's training step gives:
    the thirds of the panel scores of its solvable training deals, recorded per deal with the
    rule's current play parameters."""
    reports = orjson.loads((RESULTS / "grading_panel.json").read_bytes())
    assert [report["preset"] for report in reports] == list(GRADING_RULES)
    for report in reports:
        preset = report["preset"]
        stated = GRADING_RULES[preset]
        saved = orjson.loads((RESULTS / f"grading_panel_deals_{preset}.json").read_bytes())
        play = {k: v for k, v in stated.to_json().items() if "threshold" not in k and k != "rule"}
        assert saved["rule"] == play, preset
        first, last, solvable = report["training_deals"]
        records = [saved["deals"][str(n)] for n in range(first, last + 1)]
        scores = [r["score"] for r in records if r["status"] == "solved"]
        assert len(scores) == solvable, preset
        assert share_thresholds(scores) == (stated.easy_threshold, stated.hard_threshold), preset
        assert report["stated_thresholds"] == report["fitted_thresholds"], preset


def test_rule_json_round_trip_and_words() -> None:
    for preset, stated in GRADING_RULES.items():
        assert GradingRule.from_json(stated.to_json()) == stated, preset
        assert GradingRule.from_json(orjson.loads(orjson.dumps(stated.to_json()))) == stated
        assert str(stated.easy_threshold) in stated.rule
        assert stated.version == GRADING_VERSION
        assert stated.panel == find_preset(preset).rule_family.grading_panel
    with pytest.raises(GradingError):
        GradingRule.from_json({"panel": ["dig"], "version": 2})
    with pytest.raises(GradingError, match="grading version"):
        GradingRule.from_json({**rule().to_json(), "version": 3})
    with pytest.raises(GradingError, match="no grading rule"):
        grading_rule("blackhole")


def test_every_graded_family_has_a_panel_of_four_kinds_of_player() -> None:
    for family in FAMILIES.values():
        panel = panel_of(family.name)
        assert all(name in PLAYERS for name in panel)
        graded = any(find_preset(p).family == family.name for p in GRADING_RULES)
        assert len(panel) >= 4 or not graded, family.name
    for model in PLAYERS.values():
        assert model.description.endswith(".")


@pytest.mark.parametrize("preset", ["thirteen", "thirteen-return", "fifteen", "cloverleaf"])
def test_panel_players_restore_the_position_and_are_seeded(preset: str) -> None:
    position = position_from_layout(deal(preset, 3))
    before = (position.key(), position.to_layout(preset, 3))
    strength = Strength(max_steps=150, depth=2, patience=60)
    for player in panel_of(find_preset(preset).family):
        first = player_wins(position, player, 3, strength, "seed")
        assert first == player_wins(position, player, 3, strength, "seed"), player
        assert 0 <= first <= 3
        assert (position.key(), position.to_layout(preset, 3)) == before, player


def test_random_players_depend_on_their_seed() -> None:
    position = position_from_layout(deal("fifteen", 1))
    strength = Strength(max_steps=48, depth=1, patience=20)
    runs = {player_wins(position, "random", 1, strength, f"seed-{i}") for i in range(12)}
    assert runs == {0, 1}


def test_move_classes_partition_the_player_moves() -> None:
    for preset, number in (("thirteen", 5), ("thirteen-return", 5), ("alexander", 2)):
        position = position_from_layout(deal(preset, number))
        player_moves = [m for m in position.legal_moves() if not isinstance(m.src, str)]
        for policy in ("dig", "home", "lookahead"):
            classes = move_classes(position, policy)
            ranked = [move for group in classes for move in group]
            assert sorted(map(str, ranked)) == sorted(map(str, player_moves)), policy
            assert all(classes)


def test_lookahead_prefers_moves_that_send_cards_home() -> None:
    position = position_from_layout(deal("thirteen", 5))
    best = move_classes(position, "lookahead")[0]
    before = position.cards_home()
    home_now = [m for m in position.legal_moves() if m.dst == "F"]
    for move in best:
        position.push(move)
        assert position.cards_home() > before or not home_now
        position.pop()


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
    assert set(metrics["panel_wins"]) == set(grading_rule(preset).panel)
    assert {k: metrics[k] for k in ("panel_games", "panel_wins", "score")} == play_metrics(
        preset, number
    )


def test_unsolvable_deals_get_no_grade() -> None:
    # thirteen deal 6 has no King at the bottom of a pile (FACTS.md, fact 1).
    assert not any(pile[0].rank == 13 for pile in deal("thirteen", 6).piles)
    graded = grade_deal("thirteen", 6)
    assert graded.status == "unsolvable" and graded.difficulty is None and not graded.route


def test_shipped_grades_are_reproducible_under_their_stated_rule() -> None:
    shipped = orjson.loads((CATALOGUES / "fifteen.json").read_bytes())
    stated = GradingRule.from_json(shipped["parameters"]["grading"])
    for level in DIFFICULTIES:
        entry = next(e for e in shipped["deals"] if e["difficulty"] == level)
        graded = grade_deal("fifteen", entry["number"], stated)
        assert graded.metrics == entry["metrics"]
        assert graded.difficulty == entry["difficulty"]


def solvable_records(preset: str, numbers: range) -> list[dict]:
    stated = grading_rule(preset)
    return [
        play_metrics(preset, n)
        for n in numbers
        if solve(preset, n, max_nodes=stated.solve_nodes).status.value == "solved"
    ]


def test_a_held_out_player_finds_easy_deals_easier() -> None:
    """Leave the ``patient`` player out of the fifteen panel: thresholds from the other
    players' scores on training deals grade fresh deals, and the left-out player wins the
    Easy ones more often than the Hard ones, intervals apart."""
    panel = list(grading_rule("fifteen").panel)
    others = [p for p in panel if p != "patient"]

    def score(record: dict) -> float:
        return panel_score({p: record["panel_wins"][p] for p in others}, record["panel_games"])

    easy, hard = share_thresholds([score(r) for r in solvable_records("fifteen", range(1, 150))])
    won: dict[str, list[float]] = {level: [] for level in DIFFICULTIES}
    for record in solvable_records("fifteen", range(5001, 5301)):
        level = "easy" if score(record) >= easy else "hard" if score(record) <= hard else "normal"
        won[level].append(record["panel_wins"]["patient"] / record["panel_games"])
    rates = {level: sum(w) / len(w) for level, w in won.items()}
    intervals = {level: wilson_interval(sum(w), len(w)) for level, w in won.items()}
    assert rates["easy"] > rates["normal"] > rates["hard"], rates
    assert intervals["easy"][0] > intervals["hard"][1], intervals


def test_share_thresholds_leave_room_for_every_grade() -> None:
    rng = random.Random(5)
    scores = [round(rng.random(), 2) for _ in range(300)]
    easy, hard = share_thresholds(scores)
    shares = [sum(s >= easy for s in scores) / 300, sum(s <= hard for s in scores) / 300]
    assert all(0.28 < share < 0.38 for share in shares), shares
    tied = [0.0] * 200 + [0.1] * 30 + [0.2] * 20 + [0.5] * 10
    assert share_thresholds(tied) == (0.2, 0.0)
    with pytest.raises(ValueError):
        share_thresholds([0.0, 1.0])


PILE_CATALOGUES = ["alexander", "cloverleaf", "thirteen", "thirteen-return"]


@pytest.mark.parametrize("preset", PILE_CATALOGUES)
def test_every_pile_catalogue_score_and_grade_follow_from_its_panel_wins(preset: str) -> None:
    # Worked out here from docs/grading.md's rule (the mean of the players' win rates; easy if
    # score >= easy, hard if score <= hard), not with the toolkit's grading code.
    shipped = orjson.loads((CATALOGUES / f"{preset}.json").read_bytes())
    stated = shipped["parameters"]["grading"]
    assert stated["version"] == 2 and stated["score"] == "panel_mean"
    for entry in shipped["deals"]:
        metrics = entry["metrics"]
        wins = metrics["panel_wins"]
        assert list(wins) == stated["panel"] and metrics["panel_games"] == stated["games"]
        score = sum(wins.values()) / (len(wins) * stated["games"])
        assert metrics["score"] == round(score, 6), entry["number"]
        shown = metrics["score"]  # (the thresholds apply to the score as stated, 6 decimals)
        level = (
            "easy"
            if shown >= stated["easy_threshold"]
            else "hard"
            if shown <= stated["hard_threshold"]
            else "normal"
        )
        assert entry["difficulty"] == level, entry["number"]


#: One entry a pile catalogue, its difficulty rotated: its panel is played again.
REPLAYED_GRADES = [("thirteen", "easy"), ("thirteen-return", "normal"), ("cloverleaf", "hard")]


@pytest.mark.parametrize(("preset", "level"), REPLAYED_GRADES)
def test_a_pile_catalogue_entry_is_played_again_to_its_wins(preset: str, level: str) -> None:
    shipped = orjson.loads((CATALOGUES / f"{preset}.json").read_bytes())
    stated = GradingRule.from_json(shipped["parameters"]["grading"])
    entries = [e for e in shipped["deals"] if e["difficulty"] == level]
    entry = random.Random(f"{preset}-{level}").choice(entries)
    again = play_metrics(preset, entry["number"], stated)
    assert {k: entry["metrics"][k] for k in again} == again
