"""Calibration: outcomes files, thresholds refitted to what players won, and the
``grading calibrate`` command, on synthetic outcomes drawn from a known hidden difficulty."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner
from helpers import run

from cloversolve.cli.main import main
from cloversolve.grading.grading import difficulty, grading_rule, play_metrics
from cloversolve.runs.calibration import (
    Outcome,
    OutcomesError,
    calibrate,
    fit_thresholds,
    parse_outcomes,
)

#: Win probability of a game by its hidden difficulty.
WIN_CHANCE = {"easy": 0.85, "normal": 0.5, "hard": 0.15}


def synthetic_outcomes(
    scores: dict[int, float], easy: float, hard: float, games: int, seed: int
) -> list[Outcome]:
    """Games whose win chance depends only on a hidden grade: thresholds ``easy`` and
    ``hard`` on the scores."""
    hidden = grading_rule("fifteen").with_thresholds(easy, hard)
    rng = random.Random(seed)
    return [
        Outcome(number, rng.random() < WIN_CHANCE[difficulty(score, hidden)])
        for number, score in scores.items()
        for _ in range(games)
    ]


def test_refitted_thresholds_recover_a_hidden_difficulty() -> None:
    rng = random.Random(3)
    scores = {n: round(rng.random(), 2) for n in range(1, 401)}
    outcomes = synthetic_outcomes(scores, easy=0.7, hard=0.3, games=12, seed=4)
    old = grading_rule("fifteen").with_thresholds(0.97, 0.03)
    report = calibrate(scores, outcomes, old)
    easy, hard = report["rule"]["easy_threshold"], report["rule"]["hard_threshold"]
    assert abs(easy - 0.7) <= 0.03 and abs(hard - 0.3) <= 0.03, (easy, hard)
    assert report["new"]["log_loss"] < report["old"]["log_loss"]
    assert report["new"]["brier"] < report["old"]["brier"]
    assert report["new"]["ordered"]
    rates = [report["new"]["by_difficulty"][level]["rate"] for level in ("easy", "normal", "hard")]
    assert all(
        abs(r - WIN_CHANCE[level]) < 0.05 for r, level in zip(rates, WIN_CHANCE, strict=True)
    )
    # The "new" report grades the deals with the refitted thresholds, and no other ones.
    refitted = grading_rule("fifteen").with_thresholds(easy, hard)
    assert report["rule"] == refitted.to_json()
    graded = Counter(difficulty(score, refitted) for score in scores.values())
    assert {level: row["deals"] for level, row in report["new"]["by_difficulty"].items()} == {
        level: graded[level] for level in WIN_CHANCE
    }


def test_fit_refuses_outcomes_the_scores_do_not_order() -> None:
    flat = [(s / 10, 5, 10) for s in range(10)]
    with pytest.raises(ValueError, match="ordered"):
        fit_thresholds(flat)


def test_outcomes_files_in_csv_and_json_lines() -> None:
    csv_text = "deal,won,moves,seconds\n5,1,80,12.5\n6,false,,\n"
    assert parse_outcomes(csv_text) == [Outcome(5, True, 80, 12.5), Outcome(6, False)]
    lines = '{"deal": 5, "won": true, "moves": 80}\n\n{"number": 6, "won": 0}\n'
    assert parse_outcomes(lines) == [Outcome(5, True, 80), Outcome(6, False)]


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("deal,moves\n5,10\n", "must name deal and won"),
        ("deal,won\n5,maybe\n", "'maybe'"),
        ("deal,won\nfive,1\n", "'five'"),
        ("deal,won\n0,1\n", "'0'"),
        ('{"deal": 5, "won": true}\n[1]\n', "line 2"),
        ('{"deal": 5}\n', "needs a deal"),
        ("deal,won\n5,1,80\n", "line 2"),
        ("deal,won\n", "no outcomes"),
        ("", "not even a header"),
        ("deal,won\n1\n", "line 2: no value for won"),
        ("deal,won,moves\n5,1,-7\n", "'-7'"),
        ("deal,won,moves\n5,1,7.5\n", "'7.5'"),
        ('{"deal": 5, "won": true, "moves": 7.5}\n', "7.5"),
        ('{"deal": 5, "won": true, "moves": true}\n', "moves"),
        ("deal,won,seconds\n5,1,nan\n", "'nan'"),
        ("deal,won,seconds\n5,1,inf\n", "'inf'"),
        ("deal,won,seconds\n5,1,-1\n", "'-1'"),
        ('{"deal": 5, "won": true, "seconds": false}\n', "seconds"),
        ('{"deal": 5.0, "won": true}\n', "bad deal number 5.0"),
        ('{"deal": true, "won": true}\n', "bad deal number True"),
        ('{"deal": -5, "won": true}\n', "bad deal number -5"),
        ('{"deal": 5, "won": 2}\n', "won must be"),
        ("[1, 2, 3]\n", "a JSON array is not an outcomes file"),
        ('  [{"deal": 5, "won": true}]', "a JSON array is not an outcomes file"),
    ],
)
def test_malformed_outcomes_are_refused(text: str, quoted: str) -> None:
    with pytest.raises(OutcomesError, match=None) as error:
        parse_outcomes(text)
    assert quoted in str(error.value)


def test_outcomes_are_read_exactly() -> None:
    lines = '\n{"deal": 99999999999999999999, "won": 1, "moves": 0, "seconds": 0}\n'
    assert parse_outcomes(lines) == [Outcome(10**20 - 1, True, 0, 0.0)]
    assert parse_outcomes("deal,won,moves,seconds\n 7 ,true, 12 , 3.5 \n") == [
        Outcome(7, True, 12, 3.5)
    ]


def test_cli_calibrate_recovers_a_hidden_difficulty_from_real_scores(tmp_path) -> None:
    numbers = range(1, 61)
    scores = {n: play_metrics("fifteen", n)["score"] for n in numbers}
    ordered = sorted(scores.values())
    easy, hard = ordered[40], ordered[20]
    easy = min(s for s in ordered if s > hard) if easy <= hard else easy
    outcomes = synthetic_outcomes(scores, easy, hard, games=20, seed=9)
    path = tmp_path / "outcomes.csv"
    path.write_text("deal,won\n" + "".join(f"{o.number},{int(o.won)}\n" for o in outcomes))
    result = run("grading", "calibrate", "fifteen", "--outcomes", path, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["deals"] == 60 and report["games"] == 1200
    hidden = grading_rule("fifteen").with_thresholds(easy, hard)
    refit = grading_rule("fifteen").with_thresholds(
        report["rule"]["easy_threshold"], report["rule"]["hard_threshold"]
    )
    agree = sum(difficulty(s, hidden) == difficulty(s, refit) for s in scores.values())
    assert agree >= 0.9 * len(scores), (easy, hard, report["rule"])
    assert report["new"]["log_loss"] <= report["old"]["log_loss"]
    few = tmp_path / "few.jsonl"
    few.write_text(
        "".join(json.dumps({"deal": o.number, "won": o.won}) + "\n" for o in outcomes[:400])
    )
    text = run("grading", "calibrate", "fifteen", "--outcomes", few)
    assert text.exit_code == 0 and "refitted rule: score = mean win rate" in text.output


@pytest.mark.parametrize(
    ("args", "quoted"),
    [
        (["grading", "calibrate", "fiftteen", "--outcomes", "x.csv"], "'fiftteen'"),
        (["grading", "calibrate", "fifteen", "--outcomes", "missing.csv"], "'missing.csv'"),
        *(
            (["grading", "calibrate", "fifteen", "--outcomes", "x.csv", "--min-share", v], f"'{v}'")
            for v in ("nan", "inf", "-0.1", "0.5", "a", "1_0")
        ),
    ],
)
def test_cli_calibrate_bad_input_is_one_line(args: list[str], quoted: str, tmp_path) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and quoted in lines[0] and lines[0].startswith("cloversolve: error:")


@pytest.mark.parametrize(
    ("name", "content", "quoted"),
    [
        ("adir", None, "Is a directory"),
        ("outcomes.json", "[1, 2, 3]\n", "a JSON array is not an outcomes file"),
        ("negative.csv", "deal,won,moves,seconds\n5,1,-7,2\n", "'-7'"),
        ("nan.csv", "deal,won,moves,seconds\n5,1,7,nan\n", "'nan'"),
        ("bom.jsonl", '\ufeff{"deal": 5, "won": "maybe"}\n', "'maybe'"),
    ],
)
def test_cli_calibrate_refuses_bad_outcomes_in_one_line(
    tmp_path, name: str, content: str | None, quoted: str
) -> None:
    path = tmp_path / name
    if content is None:
        path.mkdir()
    else:
        path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(main, ["grading", "calibrate", "fifteen", "--outcomes", path])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cloversolve: error:"), result.stderr
    assert quoted in lines[0] and str(path) in lines[0]
    assert "header must name" not in lines[0]


def test_cli_calibrate_malformed_file_is_one_line(tmp_path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("deal,won\n5,perhaps\n")
    result = CliRunner().invoke(main, ["grading", "calibrate", "fifteen", "--outcomes", path])
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "'perhaps'" in lines[0] and str(path) in lines[0]
