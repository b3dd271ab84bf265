"""The fixture matrix of ``tests/fixtures/<preset>/``: positions of known verdict, checked
against the reference engine, the plain exhaustive solver and the kernels (the pinned move
counts of ``perft.txt`` are part of ``test_family_contract.py``).

``positions.json`` lists positions as layout JSON with their verdict and how it was
established (``naive``: the plain exhaustive solver, ``cloversolve.rules.exhaustive``;
``kernel``: the toolkit's exhaustive search, a win confirmed by replaying its route; a loss
so established is regression data, pinned below to an independent source where one exists:
the exhaustive solver in the hole games and ``fifteen``, FACTS.md's fact 1 in the 13-pile
games; the clover games' have none). ``perft.txt`` pins, as
python-chess's perft files do, ``perft DEPTH COUNT`` (move sequences) and, for the hole games,
``states DEPTH COUNT`` (distinct play states) for a few positions. ``make_fixtures.py`` wrote
them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import replays_to_win

from cloversolve import Status, solve
from cloversolve.games.layout import Layout
from cloversolve.games.registry import PRESETS, find_preset
from cloversolve.rules import position_from_layout
from cloversolve.rules.exhaustive import solve_exhaustively

FIXTURES = Path(__file__).parent / "fixtures"
#: The node budget the fixtures' whole deals were decided within.
DEAL_NODES = 200_000


def positions(preset: str) -> list[dict[str, Any]]:
    return json.loads((FIXTURES / preset / "positions.json").read_text())


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
    for entry in positions(preset):
        layout = Layout.from_json(entry["layout"])
        solvable = entry["verdict"] == "solvable"
        result = solve(preset, layout, max_nodes=DEAL_NODES)
        assert result.status is (Status.SOLVED if solvable else Status.UNSOLVABLE), entry["name"]
        position = position_from_layout(layout)
        if solvable:
            assert replays_to_win(position, result.route), entry["name"]
        if entry["established_by"] == "naive":
            assert solve_exhaustively(position).solvable is solvable, entry["name"]


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
        else:  # (the exhaustive solver decides these whole deals within a second)
            outcome = solve_exhaustively(position_from_layout(layout))
            assert outcome.solvable is False, entry["name"]
