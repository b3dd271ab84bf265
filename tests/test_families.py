"""The rule-family registry, the kernel contract every family keeps and the hint every
family gives."""

from __future__ import annotations

import random

import naive_hole
import pytest
from helpers import engine_perft, kernel_counter, random_walk

from cloversolve import HintVerdict, hint, solve
from cloversolve.dealing import deal
from cloversolve.families import FAMILIES, HintPolicy, UnknownFamilyError, find_family
from cloversolve.presets import PRESETS, family_preset
from cloversolve.rules import position_class, position_from_layout
from cloversolve.rules.base import Position
from cloversolve.search.common import Status


def test_every_preset_names_a_registered_family() -> None:
    for preset in PRESETS.values():
        family = preset.rule_family
        assert family is find_family(preset.family)
        assert preset.foundation_names == family.foundation_names


def test_every_family_has_a_preset() -> None:
    assert {preset.family for preset in PRESETS.values()} == set(FAMILIES)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_a_record_names_an_engine_of_its_family(name: str) -> None:
    family = FAMILIES[name]
    assert issubclass(family.engine, Position)
    assert family.engine.family == name
    assert position_class(name) is family.engine
    assert callable(family.search)
    if family.hint_policy is HintPolicy.VISIBLE:
        assert callable(family.visible_hint)


def test_unknown_family() -> None:
    with pytest.raises(UnknownFamilyError, match="'nine'"):
        find_family("nine")


def _first_solved(preset: str) -> tuple[int, object]:
    for number in range(1, 40):
        result = solve(preset, number, max_nodes=2_000_000)
        if result.solved:
            return number, result
    raise AssertionError(f"no solved deal of {preset} in 1..39")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_hint_on_a_won_position_needs_no_move(preset: str) -> None:
    number, result = _first_solved(preset)
    position = position_from_layout(deal(preset, number))
    for move in result.route:  # type: ignore[attr-defined]
        position.push(move)
    assert position.is_won()
    advice = hint(preset, position.to_layout(preset).to_json(), max_nodes=10)
    assert advice.move is None
    assert advice.status is Status.SOLVED
    assert advice.keeps_win


@pytest.mark.parametrize("preset", list(PRESETS))
def test_hint_honours_its_limits(preset: str) -> None:
    with pytest.raises(ValueError, match="max_nodes"):
        hint(preset, 1, max_nodes=0)
    with pytest.raises(ValueError, match="time_limit"):
        hint(preset, 1, time_limit=-1.0)
    advice = hint(preset, 1, max_nodes=1)
    if PRESETS[preset].rule_family.hint_policy is HintPolicy.SEARCH:
        assert advice.status in (Status.LIMIT_REACHED, Status.UNSOLVABLE)
        if advice.status is Status.LIMIT_REACHED:
            assert advice.move is None
    else:
        assert advice.move is not None and advice.status is HintVerdict.NOT_SEARCHED


def _contract_positions(preset: str) -> list[Position]:
    """A dealt position and two positions some random moves into the deal (seeded)."""
    start = position_from_layout(deal(preset, 7))
    rng = random.Random(f"contract/{preset}")
    return [start, *(random_walk(start, rng, steps) for steps in (5, 15))]


@pytest.mark.parametrize("name", list(FAMILIES))
def test_the_kernel_contract_agrees_with_the_reference_engine(name: str) -> None:
    """What a family's kernel module offers of the contract (``legal_moves``, ``perft``,
    the ``states`` count) agrees with the reference engine, and it offers a count."""
    family = FAMILIES[name]
    module = family.search_module
    perft, states = kernel_counter(name, "perft"), kernel_counter(name, "states")
    assert perft is not None or states is not None, f"{name}'s kernel offers no move count"
    for position in _contract_positions(family_preset(name).name):
        reference = list(position.legal_moves())
        if hasattr(module, "legal_moves"):
            assert sorted(map(str, module.legal_moves(position))) == sorted(map(str, reference))
        for depth in (1, 2):
            if perft is not None:
                assert perft(position.copy(), depth) == engine_perft(position, depth)
            if states is not None:
                assert states(position.copy(), depth) == naive_hole.naive_reachable(position, depth)
