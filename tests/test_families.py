"""The rule-family registry and the hint every family gives (the contract every family
keeps: ``test_family_contract.py``)."""

from __future__ import annotations

import pytest

from cloversolve import HintVerdict, hint, solve
from cloversolve.core.verdicts import Status
from cloversolve.games.dealing import deal
from cloversolve.games.records import HintPolicy, UnknownFamilyError
from cloversolve.games.registry import FAMILIES, PRESETS, find_family
from cloversolve.rules import position_class, position_from_layout
from cloversolve.rules.base import Position
from cloversolve.search.plugin import family_search, search_plugin


def test_every_preset_names_a_registered_family() -> None:
    for preset in PRESETS.values():
        family = preset.rule_family
        assert family is find_family(preset.family)
        assert preset.foundation_names == family.foundation_names


def test_every_family_has_a_preset() -> None:
    assert {preset.family for preset in PRESETS.values()} == set(FAMILIES)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_a_record_names_an_engine_of_its_family(name: str) -> None:
    plugin = search_plugin(name)
    assert issubclass(plugin.engine, Position)
    assert plugin.engine.family == name
    assert position_class(name) is plugin.engine
    assert callable(family_search(name))
    if FAMILIES[name].hint_policy is HintPolicy.VISIBLE:
        assert callable(plugin.visible_hint)


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
