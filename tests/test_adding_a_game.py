"""Adding a game, proved: the ``sprig`` game (``tests/tiny_game``, a family's folder: its
plug-in, records, reference engine and search) is registered through
:func:`cloversolve.games.register` alone, and ``solve``, ``replay``, ``hint``, ``study`` and
``catalogue build`` play it, through the library and the command line, with no other change
to the package.

Every verdict is checked against :func:`wins`, a decision of the deal written here from the
rules alone (neither the engine nor the search), and every route is replayed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from helpers import run
from tiny_game.records import SPRIG, SPRIG_PRESET
from tiny_game.rules import RANKS, SprigPosition

from cloversolve import Card, Layout, Status, deal, hint, replay, solve
from cloversolve.catalogue.build import build
from cloversolve.games import (
    FAMILIES,
    PRESETS,
    HintPolicy,
    Registration,
    UnknownPresetError,
    find_family,
    find_preset,
    front_end_presets,
    register,
    shipped_presets,
)
from cloversolve.grading.grading import GRADING_RULES, grading_rule
from cloversolve.runs.study import study
from cloversolve.runs.study_files import read_verdicts
from cloversolve.web.generate import stale_files

#: The deals the tests play: they hold solvable deals of every grade and unsolvable ones.
DEALS = range(1, 41)
DEAL_RANGE = f"{DEALS.start}..{DEALS.stop - 1}"


@pytest.fixture(scope="module")
def sprig() -> Iterator[Registration]:
    with register(SPRIG, SPRIG_PRESET) as registration:
        yield registration


def wins(piles: Sequence[Sequence[Card]], home: int = 0) -> bool:
    """Whether the piles (bottom to top, ``home`` cards already on the foundation) can all go
    home: a search over how many cards each pile still holds, from the rules alone."""
    total = home + sum(len(pile) for pile in piles)

    @cache
    def won_from(heights: tuple[int, ...]) -> bool:
        played = total - sum(heights)
        if played == total:
            return True
        wanted = played % RANKS + 1
        return any(
            won_from(heights[:i] + (height - 1,) + heights[i + 1 :])
            for i, height in enumerate(heights)
            if height and piles[i][height - 1].rank == wanted
        )

    return won_from(tuple(len(pile) for pile in piles))


def deal_wins(number: int) -> bool:
    return wins(deal("sprig", number).piles)


def suit_piles(top_rank: int) -> tuple[tuple[Card, ...], ...]:
    """One pile per suit, Ace to 4 from the bottom (``top_rank`` 4) or 4 to Ace (1)."""
    ranks = range(1, RANKS + 1) if top_rank == RANKS else range(RANKS, 0, -1)
    return tuple(tuple(Card(rank, suit) for rank in ranks) for suit in "CDHS")


# -- the registration path -------------------------------------------------------------------


def test_a_registered_game_is_found_and_leaves_with_its_registration() -> None:
    with register(SPRIG, SPRIG_PRESET) as registration:
        assert find_preset("sprig") is SPRIG_PRESET and find_family("sprig") is SPRIG
        assert registration.presets == (SPRIG_PRESET,)
        assert SPRIG_PRESET not in shipped_presets()
        assert "sprig" not in front_end_presets() and stale_files() == []
        assert grading_rule("sprig").panel == ("home",) and "sprig" not in GRADING_RULES
        listed = run("presets", "--json")
        assert {"name": "sprig", "family": "sprig", "description": SPRIG_PRESET.description} in (
            json.loads(listed.output)
        )
        assert SPRIG_PRESET.rules in run("rules", "sprig").output
    assert "sprig" not in PRESETS and "sprig" not in FAMILIES
    with pytest.raises(UnknownPresetError, match="'sprig'"):
        find_preset("sprig")
    gone = run("solve", "sprig", "1")
    assert gone.exit_code == 2 and "unknown preset: 'sprig'" in gone.stderr


@pytest.mark.parametrize(
    ("family", "presets", "problem"),
    [
        (SPRIG, (), "no preset given"),
        (replace(SPRIG, name="thirteen"), (SPRIG_PRESET,), "family name 'thirteen' is taken"),
        (SPRIG, (replace(SPRIG_PRESET, name="thirteen"),), "preset name 'thirteen' is taken"),
        (SPRIG, (SPRIG_PRESET, SPRIG_PRESET), "preset name 'sprig' is taken"),
        (replace(SPRIG, name="Sprig 2"), (SPRIG_PRESET,), "got 'Sprig 2'"),
        (SPRIG, (replace(SPRIG_PRESET, family="hole"),), "preset 'sprig' is of family 'hole'"),
        (SPRIG, (replace(SPRIG_PRESET, front_end=True),), "the shipped presets only"),
        (replace(SPRIG, module="tiny_game:FAMILY"), (SPRIG_PRESET,), "not a dotted module path"),
        (
            replace(SPRIG, module="tiny_game.search"),
            (SPRIG_PRESET,),
            "module 'tiny_game.search' gives no plug-in FAMILY",
        ),
        (
            replace(SPRIG, hint_policy=HintPolicy.VISIBLE),
            (SPRIG_PRESET,),
            "its plug-in gives no visible hint",
        ),
        (SPRIG, (replace(SPRIG_PRESET, piles=3),), "preset 'sprig' deals 16 cards to 3 piles"),
        (
            SPRIG,
            (replace(SPRIG_PRESET, switches={"foundation_return": True}),),
            "sets switches its engine ignores: ['foundation_return']",
        ),
        (
            replace(SPRIG, grading_panel=()),
            (SPRIG_PRESET,),
            "preset 'sprig' is graded without a panel",
        ),
    ],
)
def test_a_bad_record_is_refused_in_one_line(family, presets, problem: str) -> None:
    before = (dict(FAMILIES), dict(PRESETS))
    with pytest.raises(ValueError, match="^cannot register family ") as refused:
        register(family, *presets)
    message = str(refused.value)
    assert problem in message and "\n" not in message
    assert (dict(FAMILIES), dict(PRESETS)) == before


def test_a_record_of_another_type_is_refused() -> None:
    with pytest.raises(TypeError, match="takes a Family first, got Preset"):
        register(SPRIG_PRESET)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got str"):
        register(SPRIG, "sprig")  # type: ignore[arg-type]


def test_a_registered_name_is_taken(sprig: Registration) -> None:
    with pytest.raises(ValueError, match="family name 'sprig' is taken"):
        register(SPRIG, replace(SPRIG_PRESET, name="sprig-two"))


# -- the game, through the library -------------------------------------------------------------


def test_the_independent_decision_knows_wins_and_losses() -> None:
    assert wins(suit_piles(top_rank=1)) and not wins(suit_piles(top_rank=RANKS))
    verdicts = {deal_wins(number) for number in DEALS}
    assert verdicts == {True, False}


def test_solve_and_replay_agree_with_the_rules(sprig: Registration) -> None:
    for number in DEALS:
        result = solve("sprig", number)
        assert result.solved == deal_wins(number), number
        if result.solved:
            assert replay("sprig", number, result.route_strings).won
            assert result.certificate is not None and result.certificate.kind == "route"
        else:
            assert result.status is Status.UNSOLVABLE
            assert result.certificate is not None
            assert result.certificate.kind == "exhausted-search"
            assert not replay("sprig", number, []).won
        if result.states > 1:  # (a search that needs more than one position stops undecided)
            assert solve("sprig", number, max_nodes=1).status is Status.LIMIT_REACHED


def test_a_layout_dealt_to_lose_is_unsolvable_and_one_dealt_to_win_is_won(
    sprig: Registration,
) -> None:
    lost = Layout("sprig", piles=suit_piles(top_rank=RANKS), foundations=(("F", ()),))
    assert SprigPosition.from_layout(lost).is_blocked()  # every exposed card is a 4
    assert solve("sprig", lost).status is Status.UNSOLVABLE
    refused = hint("sprig", lost)
    assert refused.move is None and refused.status is Status.UNSOLVABLE
    won = Layout("sprig", piles=suit_piles(top_rank=1), foundations=(("F", ()),))
    result = solve("sprig", won)
    assert result.solved and replay("sprig", won, result.route_strings).won
    assert result.route_strings[:4] == ["1>F", "1>F", "1>F", "1>F"]


def test_a_hint_keeps_the_win(sprig: Registration) -> None:
    for number in DEALS:
        given = hint("sprig", number)
        if not deal_wins(number):
            assert given.move is None and given.status is Status.UNSOLVABLE
            continue
        assert given.keeps_win and given.move is not None
        after = replay("sprig", number, [given.move]).position
        assert after is not None
        assert wins(after.piles, after.cards_home())  # type: ignore[attr-defined]


def test_a_study_counts_the_verdicts(sprig: Registration, tmp_path: Path) -> None:
    verdicts = tmp_path / "verdicts.txt"
    report = study("sprig", DEALS, verdicts=str(verdicts))
    expected = "".join("s" if deal_wins(number) else "u" for number in DEALS)
    header, letters = read_verdicts(verdicts)
    assert (header["preset"], header["first"], letters) == ("sprig", DEALS.start, expected)
    assert report.counts == {
        "solvable": expected.count("s"),
        "unsolvable": expected.count("u"),
        "undecided": 0,
    }
    assert study("sprig", DEALS, jobs=2).counts == report.counts  # (forked workers)


def check_catalogue(path: Path) -> dict:
    """The catalogue at ``path`` once every entry is a solvable deal whose route wins, with
    one deal of each grade."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["preset"] == "sprig"
    assert data["parameters"]["grading"]["panel"] == ["home"]
    assert sorted(entry["difficulty"] for entry in data["deals"]) == ["easy", "hard", "normal"]
    for entry in data["deals"]:
        assert deal_wins(entry["number"])
        assert replay("sprig", entry["number"], entry["route"]).won
    return data


def test_a_catalogue_is_built(sprig: Registration, tmp_path: Path) -> None:
    out = tmp_path / "sprig.json"
    report = build("sprig", DEALS, 1, out)
    assert report.counts == {"easy": 1, "normal": 1, "hard": 1}
    data = check_catalogue(out)
    scanned = range(DEALS.start, report.scanned_to + 1)
    assert report.statuses["solved"] == sum(deal_wins(number) for number in scanned)
    assert data["parameters"]["statuses"] == report.statuses


# -- the game, through the command line --------------------------------------------------------


def test_the_command_line_solves_replays_and_hints(sprig: Registration) -> None:
    solvable = next(number for number in DEALS if deal_wins(number))
    unsolvable = next(number for number in DEALS if not deal_wins(number))
    solved = run("solve", "sprig", str(solvable), "--json")
    assert solved.exit_code == 0, solved.output
    route = json.loads(solved.output)["route"]
    assert replay("sprig", solvable, route).won
    assert run("solve", "sprig", str(unsolvable)).exit_code == 3
    replayed = run("replay", "sprig", str(solvable), *route, "--json")
    assert replayed.exit_code == 0 and json.loads(replayed.output)["status"] == "won"
    assert run("replay", "sprig", str(solvable), *route[:-1]).exit_code == 1
    hinted = run("hint", "sprig", str(solvable), *route[:2], "--json")
    assert hinted.exit_code == 0, hinted.output
    move = json.loads(hinted.output)["move"]
    after = replay("sprig", solvable, [*route[:2], move]).position
    assert after is not None
    assert wins(after.piles, after.cards_home())  # type: ignore[attr-defined]


def test_the_command_line_studies_and_builds_a_catalogue(
    sprig: Registration, tmp_path: Path
) -> None:
    studied = run("study", "sprig", "--deals", DEAL_RANGE, "--json")
    assert studied.exit_code == 0, studied.output
    solvable = sum(deal_wins(number) for number in DEALS)
    assert json.loads(studied.output)["solvable"] == solvable
    assert json.loads(studied.output)["unsolvable"] == len(DEALS) - solvable
    out = tmp_path / "cli.json"
    built = run(
        *("catalogue", "build", "sprig", "--deals", DEAL_RANGE),
        *("--per-difficulty", "1", "--out", str(out)),
    )
    assert built.exit_code == 0, built.output
    assert "1 easy, 1 normal, 1 hard sprig deals" in built.output
    check_catalogue(out)
    again = tmp_path / "library.json"
    build("sprig", DEALS, 1, again)
    assert out.read_bytes() == again.read_bytes()
