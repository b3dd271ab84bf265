"""The fixture matrix of ``tests/fixtures/<preset>/``: positions of known verdict and move
counts per depth, checked against the reference engine, the naive solvers and the kernels.

``positions.json`` lists positions as layout JSON with their verdict and how it was
established (``naive``: the naive exhaustive solver of ``tests/naive_*.py``; ``kernel``: the
toolkit's exhaustive search, a win confirmed by replaying its route; a loss so established is
regression data, pinned below to an independent source where one exists: the naive solver in
the hole games and ``fifteen``, FACTS.md's fact 1 in the 13-pile games; the clover games' have
none). ``perft.txt`` pins, as
python-chess's perft files do, ``perft DEPTH COUNT`` (move sequences) and, for the hole games,
``states DEPTH COUNT`` (distinct play states) for a few positions. ``make_fixtures.py`` wrote
them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import naive_clover
import naive_fifteen
import naive_hole
import naive_thirteen
import pytest
from helpers import engine_perft, kernel_count, replays_to_win

from cloversolve import Status, solve
from cloversolve.layout import Layout
from cloversolve.presets import PRESETS, find_preset
from cloversolve.rules import Position, position_from_layout

FIXTURES = Path(__file__).parent / "fixtures"
#: The node budget the fixtures' whole deals were decided within.
DEAL_NODES = 200_000

NAIVE_VERDICT = {
    "thirteen": naive_thirteen.is_winnable,
    "fifteen": lambda position: naive_fifteen.naive_solve(position) is not None,
    "clover": naive_clover.naive_solvable,
    "hole": lambda position: naive_hole.naive_solve(position) is not None,
}


def positions(preset: str) -> list[dict[str, Any]]:
    return json.loads((FIXTURES / preset / "positions.json").read_text())


def perft_records(preset: str) -> list[tuple[str, dict[str, Any], list[tuple[str, int, int]]]]:
    """``(id, layout JSON, [(measure, depth, count), ...])`` per position of ``perft.txt``."""
    records: list[tuple[str, dict[str, Any], list[tuple[str, int, int]]]] = []
    for line in (FIXTURES / preset / "perft.txt").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "id":
            records.append((rest, {}, []))
        elif word == "layout":
            records[-1][1].update(json.loads(rest))
        elif word in ("perft", "states"):
            depth, count = rest.split()
            records[-1][2].append((word, int(depth), int(count)))
        else:
            raise ValueError(f"unknown line in {preset}/perft.txt: {line!r}")
    return records


def engine_count(measure: str, position: Position, depth: int) -> int:
    if measure == "perft":
        return engine_perft(position, depth)
    return naive_hole.naive_reachable(position, depth)


def test_every_preset_has_a_fixture_directory() -> None:
    presets = [p.name for p in FIXTURES.iterdir() if (p / "positions.json").is_file()]
    assert sorted(presets) == sorted(PRESETS)
    assert all((FIXTURES / preset / "perft.txt").is_file() for preset in presets)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_fixtures_cover_both_verdicts_and_parse(preset: str) -> None:
    entries = positions(preset)
    assert {e["verdict"] for e in entries} == {"solvable", "unsolvable"}
    assert {e["established_by"] for e in entries} <= {"naive", "kernel"}
    assert len({e["name"] for e in entries}) == len(entries)
    for entry in entries:
        layout = Layout.from_json(entry["layout"])
        assert layout.preset == preset and layout.to_json() == entry["layout"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_verdicts_of_the_fixture_positions(preset: str) -> None:
    family = find_preset(preset).family
    for entry in positions(preset):
        layout = Layout.from_json(entry["layout"])
        solvable = entry["verdict"] == "solvable"
        result = solve(preset, layout, max_nodes=DEAL_NODES)
        assert result.status is (Status.SOLVED if solvable else Status.UNSOLVABLE), entry["name"]
        position = position_from_layout(layout)
        if solvable:
            assert replays_to_win(position, result.route), entry["name"]
        if entry["established_by"] == "naive":
            assert NAIVE_VERDICT[family](position.copy()) is solvable, entry["name"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_pinned_move_counts(preset: str) -> None:
    records = perft_records(preset)
    assert len(records) >= 2
    for name, layout_json, counts in records:
        assert counts, name
        position = position_from_layout(Layout.from_json(layout_json))
        for measure, depth, count in counts:
            assert engine_count(measure, position, depth) == count, (name, measure, depth)
            kernel = kernel_count(preset, measure, position, depth)
            assert kernel in (None, count), (name, measure, depth)
        measures = {measure for measure, _, _ in counts}
        # Every pinned measure is one some kernel counts itself.
        assert any(kernel_count(preset, m, position, 1) is not None for m in measures), name


#: The presets whose kernel-established losses have an independent check.
LOSS_PINS = ["allinarow", "blackhole", "fifteen", "thirteen", "thirteen-return"]


@pytest.mark.parametrize("preset", LOSS_PINS)
def test_kernel_losses_are_confirmed_independently(preset: str) -> None:
    family = find_preset(preset).family
    losses = [
        e
        for e in positions(preset)
        if e["established_by"] == "kernel" and e["verdict"] != "solvable"
    ]
    assert losses
    for entry in losses:
        layout = Layout.from_json(entry["layout"])
        if family == "thirteen":  # FACTS.md, fact 1: a win needs a King at a pile's bottom
            assert entry["method"] == "king-bottom-condition"
            assert all(pile[0].rank != 13 for pile in layout.piles), entry["name"]
        else:  # (the naive solvers decide these whole deals within a second)
            assert NAIVE_VERDICT[family](position_from_layout(layout)) is False, entry["name"]
