"""The visible hint: Python's rule, and cloversolve.js's ``hint`` giving the same move.

Positions come from real games: catalogue routes replayed partway, and seeded games of the
grading panel's players from catalogue deals. Python's hint for each goes to a JSON file, and
node's test runner checks ``tests/web/hint.test.mjs`` against it: every visible hint, and the
route hint wherever the position lies on the catalogue route.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from external_tools import run_node_tests
from samples import part, sample_shares

from cloversolve import IllegalRouteError, NoVisibleHintError, parse_route, visible_hint
from cloversolve.core.notation import Transfer
from cloversolve.grading.players import move_classes
from cloversolve.rules import Position, position_from_layout
from cloversolve.rules.plugin import rules_plugin
from cloversolve.solving.replay import load_layout
from cloversolve.web import module_path
from cloversolve.web.viewer import VIEWER_PRESETS

ROOT = Path(__file__).resolve().parent.parent
NODE_TESTS = Path(__file__).resolve().parent / "web" / "hint.test.mjs"
#: Positions per preset from catalogue routes, and from players' games.
ROUTE_POSITIONS = 250
GAME_POSITIONS = 250
#: The players whose games give positions (each plays at random among its best moves).
GAME_POLICIES = ("dig", "home", "uniform")
#: The longest game played for a position.
GAME_STEPS = 150


def catalogue_entries(preset: str) -> list[dict[str, Any]]:
    data = json.loads((ROOT / "catalogues" / f"{preset}.json").read_text(encoding="utf-8"))
    return list(data["deals"])


def cards_of(position: Position, preset: str) -> dict[str, Any]:
    """The position as layout JSON without a number (the hint reads only the cards)."""
    data = position.to_layout(preset).to_json()
    data["number"] = None
    return data


def start_of(preset: str, entry: dict[str, Any]) -> Position:
    return position_from_layout(load_layout(preset, entry["layout"]))


def along_route(preset: str, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The positions of the entry's route: the start, then after each move."""
    position = start_of(preset, entry)
    found = [cards_of(position, preset)]
    for move in parse_route(entry["route"]):
        position.push(move)
        found.append(cards_of(position, preset))
    return found


def route_hint(positions: list[dict[str, Any]], route: list[str], position: dict) -> dict:
    """What a hint with the entry says: the route's move from the position's last visit on
    the route (before its end), else the visible hint."""
    for k in range(len(route) - 1, -1, -1):
        if positions[k] == position:
            return {"kind": "route", "move": route[k], "routeIndex": k}
    return {"kind": "visible"}


def game_moves(preset: str, entry: dict[str, Any], rng: random.Random, index: int) -> list[str]:
    """The moves of a seeded game of a panel player from the entry's deal, cut at random."""
    position = start_of(preset, entry)
    policy = GAME_POLICIES[index % len(GAME_POLICIES)]
    moves = []
    while len(moves) < GAME_STEPS and not position.is_won():
        classes = [found for found in move_classes(position, policy) if found]
        if not classes:
            break
        move = rng.choice(classes[0])
        position.push(move)
        moves.append(str(move))
    return moves[: rng.randint(0, len(moves))]


def hint_cases(preset: str, share: Fraction) -> list[dict[str, Any]]:
    """Positions of real games of ``preset`` (``share`` of the full sample) with Python's
    visible hint and route hint."""
    rng = random.Random(f"web-hint/{preset}")
    entries = catalogue_entries(preset)
    cases = []
    on_routes = part(ROUTE_POSITIONS, share)
    for index in range(on_routes + part(GAME_POSITIONS, share)):
        entry = rng.choice(entries)
        positions = along_route(preset, entry)
        if index < on_routes:
            moves = entry["route"][: rng.randint(0, len(entry["route"]))]
        else:
            moves = game_moves(preset, entry, rng, index)
        played = start_of(preset, entry)
        for move in parse_route(moves):
            played.push(move)
        position = cards_of(played, preset)
        move = visible_hint(preset, entry["layout"], moves)
        cases.append(
            {
                "position": position,
                "visible": None if move is None else str(move),
                "entry": {key: entry[key] for key in ("number", "layout", "route", "difficulty")},
                "withEntry": route_hint(positions, entry["route"], position),
            }
        )
    return cases


@sample_shares()
def test_javascript_hint_matches_python(tmp_path: Path, share: Fraction) -> None:
    cases = {preset: hint_cases(preset, share) for preset in VIEWER_PRESETS}
    minimum = 2000 * share
    assert sum(len(found) for found in cases.values()) >= minimum
    on_route = [c for found in cases.values() for c in found if c["withEntry"]["kind"] == "route"]
    assert len(on_route) >= 1000 * share
    assert any(c["visible"] is None for found in cases.values() for c in found)
    expected = tmp_path / "hints.json"
    data = {"module": str(module_path()), "cases": cases, "minimum": float(minimum)}
    expected.write_text(json.dumps(data), "utf-8")
    run_node_tests(NODE_TESTS, "CLOVERSOLVE_EXPECTED", expected)


@pytest.mark.parametrize("preset", VIEWER_PRESETS)
def test_the_visible_hint_is_a_legal_move_of_the_rule(preset: str) -> None:
    """A legal move, never a foundation return; in the pile games the greedy ``dig``
    player's move; the same with a route as on the layout the route reaches."""
    rng = random.Random(f"visible/{preset}")
    entries = catalogue_entries(preset)
    for _ in range(40):
        entry = rng.choice(entries)
        route = entry["route"][: rng.randint(0, len(entry["route"]) - 1)]
        position = start_of(preset, entry)
        for move in parse_route(route):
            position.push(move)
        found = visible_hint(preset, entry["number"], route)
        assert found is not None and position.why_illegal(found) is None
        assert not (isinstance(found, Transfer) and isinstance(found.src, str))
        assert visible_hint(preset, cards_of(position, preset)) == found
        if rules_plugin(position.family).dig_player is not None:
            assert found == next(m for moves in move_classes(position, "dig") for m in moves)


@pytest.mark.parametrize("preset", VIEWER_PRESETS)
def test_a_won_position_gets_no_hint(preset: str) -> None:
    entry = catalogue_entries(preset)[0]
    assert visible_hint(preset, entry["number"], entry["route"]) is None


def test_bad_input_is_refused_in_one_line() -> None:
    with pytest.raises(NoVisibleHintError, match="'blackhole'"):
        visible_hint("blackhole", 1)
    with pytest.raises(IllegalRouteError, match="illegal at move 1"):
        visible_hint("thirteen", 1, ["1>F"])
    with pytest.raises(ValueError, match="'nine'"):
        visible_hint("nine", 1)
