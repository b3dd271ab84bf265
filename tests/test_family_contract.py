"""The contract every registered rule family keeps, checked over the registry (no hand list):
move counts against the pinned files of ``tests/fixtures/<preset>/perft.txt``, the search
layer's legal moves and counts against the reference engine, and keys (equal positions get
equal keys, in the reference engine and in the search layer's ``state_key``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers import engine_perft, kernel_count, kernel_counter, random_walk

from cloversolve.games.dealing import deal
from cloversolve.games.layout import Layout
from cloversolve.games.registry import FAMILIES, PRESETS, family_preset
from cloversolve.rules import Position, position_from_layout
from cloversolve.rules.exhaustive import count_reachable
from cloversolve.search.plugin import search_plugin

FIXTURES = Path(__file__).parent / "fixtures"

#: How each pinned measure is counted by the reference engine: move sequences (``perft``)
#: and distinct play states (``states``) reached in exactly a given number of moves.
ENGINE_COUNTS = {"perft": engine_perft, "states": count_reachable}


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
        elif word in ENGINE_COUNTS:
            depth, count = rest.split()
            records[-1][2].append((word, int(depth), int(count)))
        else:
            raise ValueError(f"unknown line in {preset}/perft.txt: {line!r}")
    return records


def contract_positions(family: str) -> list[Position]:
    """A dealt position of the family's first preset and positions some random moves into
    the deal (seeded)."""
    preset = family_preset(family).name
    start = position_from_layout(deal(preset, 7))
    rng = random.Random(f"contract/{preset}")
    return [start, *(random_walk(start, rng, steps) for steps in (5, 15, 30))]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_pinned_move_counts(preset: str) -> None:
    records = perft_records(preset)
    assert len(records) >= 2
    for name, layout_json, counts in records:
        assert counts, name
        position = position_from_layout(Layout.from_json(layout_json))
        for measure, depth, count in counts:
            assert ENGINE_COUNTS[measure](position, depth) == count, (name, measure, depth)
            kernel = kernel_count(preset, measure, position, depth)
            assert kernel in (None, count), (name, measure, depth)
        measures = {measure for measure, _, _ in counts}
        # Every pinned measure is one some kernel counts itself.
        assert any(kernel_count(preset, m, position, 1) is not None for m in measures), name


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_the_search_layer_agrees_with_the_reference_engine(name: str) -> None:
    """What a family's search module offers of the contract (``legal_moves``, ``perft``,
    the ``states`` count) agrees with the reference engine, and it offers a count."""
    module = search_plugin(name).search_module
    perft, states = kernel_counter(name, "perft"), kernel_counter(name, "states")
    assert perft is not None or states is not None, f"{name}'s search offers no move count"
    for position in contract_positions(name):
        reference = sorted(map(str, position.legal_moves()))
        if hasattr(module, "legal_moves"):
            assert sorted(map(str, module.legal_moves(position))) == reference
        for depth in (1, 2, 3):
            if perft is not None:
                assert perft(position.copy(), depth) == engine_perft(position, depth)
            if states is not None:
                assert states(position.copy(), depth) == count_reachable(position, depth)


def positions_around(position: Position) -> list[Position]:
    """``position`` and every position one or two moves from it (fresh copies)."""
    found = [position.copy()]
    for move in list(position.legal_moves()):
        position.push(move)
        found.append(position.copy())
        for reply in list(position.legal_moves()):
            position.push(reply)
            found.append(position.copy())
            position.pop()
        position.pop()
    return found


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_equal_positions_get_equal_keys(name: str) -> None:
    """A copy, a layout round trip and a move taken back keep the key; positions of equal
    keys play alike (the same legal moves, as many cards home, both won or neither)."""
    preset = family_preset(name).name
    play_of_key: dict[Any, tuple[list[str], int, bool]] = {}
    for start in contract_positions(name):
        for position in positions_around(start):
            play = (
                sorted(map(str, position.legal_moves())),
                position.cards_home(),
                position.is_won(),
            )
            assert play_of_key.setdefault(position.key(), play) == play
    for position in contract_positions(name):
        key = position.key()
        assert position.copy().key() == key
        assert position_from_layout(position.to_layout(preset)).key() == key
        for move in list(position.legal_moves()):
            position.push(move)
            position.pop()
            assert position.key() == key, move


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_search_keys_follow_the_reference_keys(name: str) -> None:
    """Positions of equal reference keys get equal search keys; positions of equal search keys
    are alike to the search (symmetric: as many cards home and as many legal moves)."""
    state_key = search_plugin(name).search_module.state_key
    by_search_key: dict[Any, tuple[int, int]] = {}
    by_reference_key: dict[Any, Any] = {}
    for start in contract_positions(name):
        for position in positions_around(start):
            search_key = state_key(position)
            assert by_reference_key.setdefault(position.key(), search_key) == search_key
            alike = (position.cards_home(), len(list(position.legal_moves())))
            assert by_search_key.setdefault(search_key, alike) == alike
    assert len(by_search_key) > 1
