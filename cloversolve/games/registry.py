"""The game registry: every rule family and every preset, each registered once.

A layer that needs to know something of a game (its deck, shape, rule switches, engine,
search kernel, hint policy, grading rule or panel, whether front ends get it) looks it up
here; no other module branches on a game's name. Adding a preset means adding one
:class:`~cloversolve.Preset`; adding a family means writing its modules
(``cloversolve/rules/<family>.py`` and its players, ``cloversolve/search/<family>.py``) and
adding one :class:`~cloversolve.games.records.Family`. The front ends' generated files follow
from :mod:`!cloversolve.games.generate`.
"""

from __future__ import annotations

import difflib
from dataclasses import replace
from types import MappingProxyType

from ..core.cards import Card
from ..core.inputs import quoted
from .records import (
    Family,
    FirstGrading,
    Grading,
    HintPolicy,
    Preset,
    UnknownFamilyError,
    UnknownPresetError,
    use_family_lookup,
)

_DIG_PANEL = ("dig", "lookahead", "home", "planner", "patient")

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family(
            "thirteen",
            "cloversolve.rules.thirteen:ThirteenPosition",
            "cloversolve.search.thirteen:search",
            visible_hint_path="cloversolve.grading.players:dig_hint",
            dig_player_path="cloversolve.rules.thirteen_players:thirteen_dig",
            validation_player_paths=(
                "tips: cloversolve.grading.thirteen_tips:TIPS",
                "tips-undo: cloversolve.grading.thirteen_tips:TIPS_UNDO",
            ),
            loss_witnesses_path="cloversolve.rules.thirteen_witnesses:WITNESSES",
            js_rules_path="thirteen.js:thirteenRules",
            grading_panel=_DIG_PANEL,
            compile_seconds=6,
            switches=("foundation_return",),
            reductions=(
                "king-bottom",
                "buried-rank",
                "suits-and-pile-order",
                "relabelled-restarts",
                "transposition-table",
            ),
        ),
        Family(
            "fifteen",
            "cloversolve.rules.fifteen:FifteenPosition",
            "cloversolve.search.fifteen:search",
            grid=True,
            js_rules_path="fifteen.js:fifteenRules",
            hint_policy=HintPolicy.VISIBLE,
            visible_hint_path="cloversolve.search.fifteen:visible_hint",
            grading_panel=("random", "largest", "hint", "patient"),
            compile_seconds=4,
            reductions=("partition-and-schedule", "court-trio", "transposition-table"),
        ),
        Family(
            "clover",
            "cloversolve.rules.clover:CloverPosition",
            "cloversolve.search.clover:search",
            foundation_names=("FC", "FD", "FH", "FS"),
            foundation_builds=("down", "up", "up", "down"),
            fans=True,
            js_rules_path="clover.js:cloverRules",
            visible_hint_path="cloversolve.grading.players:dig_hint",
            dig_player_path="cloversolve.rules.clover_players:clover_dig",
            loss_witnesses_path="cloversolve.rules.clover_witnesses:WITNESSES",
            grading_panel=(*_DIG_PANEL, "careful"),
            compile_seconds=10,
            foundation_return=True,
            reductions=(
                "no-returns-when-settled",
                "suit-projection",
                "fan-order",
                "dead-ends",
                "restarts-keeping-states",
                "transposition-table",
            ),
        ),
        Family(
            "hole",
            "cloversolve.rules.hole:HolePosition",
            "cloversolve.search.hole:search",
            fans=True,
            grading_panel=(),
            compile_seconds=4,
            reductions=("reverse", "rank-walk", "lone-card", "fan-symmetry", "transposition-table"),
        ),
    )
}

_THIRTEEN_RULES = """\
52 cards in 13 piles of 4, all face up; one foundation; no stock.
The foundation starts with an Ace of any suit, then takes the next rank up, suits ignored;
after a King comes an Ace again. Win with all 52 cards on it.
A pile's exposed card may go to the foundation, or onto the exposed card of another
non-empty pile one rank higher or lower (suits ignored, King and Ace wrap both ways).
An emptied pile stays empty. Foundation cards never come back."""

_THIRTEEN_RETURN_RULES = _THIRTEEN_RULES.replace(
    "Foundation cards never come back.",
    "The foundation's top card may move back onto a non-empty pile whose exposed card is one\n"
    "rank higher or lower (wrapping); the foundation then needs that card's rank again.",
)

_FIFTEEN_RULES = """\
48 cards (no Tens): 16 in a 4x4 grid (cells 1..16 row by row), 32 in the stock.
Remove a group of two or more cards of one suit: number cards (A=1 .. 9) totalling exactly 15,
or that suit's Jack, Queen and King together. Emptied cells refill from the stock in
ascending cell order; when the stock is empty they stay empty. Win by removing all 48 cards."""

_CLOVER_RULES = """\
52 cards. A-hearts and A-diamonds start foundations building up in suit to the King;
K-spades and K-clubs start foundations building down in suit to the Ace.
The other 48 cards lie face up in {piles} fans of {rows}. A fan's top card may go to its
foundation or onto another fan's top card of the same suit one rank higher or lower (no
wrapping). Only an Ace or a King may go on an empty fan. A foundation's top card may move
back onto a fan that accepts it. Cards a foundation accepts are moved there automatically
after every move (except a card just taken from a foundation). Win with all 52 on them."""

_BLACKHOLE_RULES = """\
A-spades starts the single foundation; the other 51 cards lie in 17 fans of 3.
A fan's top card may go to the foundation when it is one rank above or below the
foundation's top card (suits ignored, King and Ace wrap). No other moves. Win with all 52."""

_ALLINAROW_RULES = """\
52 cards in 13 columns of 4; the foundation starts empty and takes any card first, then
cards one rank above or below its top card (suits ignored, wrapping). No tableau building.
Win with all 52 on the foundation."""

_CLOVER_FOUNDATIONS = tuple(Card.parse(t) for t in ("AH", "AD", "KS", "KC"))
_ACE_OF_SPADES = (Card.parse("AS"),)
_RETURNS = MappingProxyType({"foundation_return": True})

# Grading (the panel is the family's): the thresholds are the thirds of the scores of the
# solvable training deals 100001..100000+N (N = 600 for fifteen, 200 for the thirteen-pile
# presets, 150 for the clover presets; benchmarks/grading_panel.py), as near a third each as
# ties allow, validated on fresh deals 200001 and up. ``first_grading``: grading version 1.

#: The grading records the presets of a shape share; a preset states where it differs.
_PILE_GRADING = Grading(
    games=3,
    max_steps=300,
    depth=2,
    patience=200,
    easy_threshold=0.333333,
    hard_threshold=0.133333,
    solve_nodes=20_000_000,
    check_nodes=200_000,
)
_PILE_FIRST_GRADING = FirstGrading(
    policy="dig",
    playouts=16,
    max_steps=300,
    score="playout_rate",
    easy_threshold=0.75,
    hard_threshold=0.4375,
    solve_nodes=20_000_000,
    check_nodes=200_000,
)
_FAN_GRADING = Grading(
    games=3,
    max_steps=150,
    depth=2,
    patience=150,
    easy_threshold=0.222222,
    hard_threshold=0.0,
    solve_nodes=500_000,
    check_nodes=20_000,
)
_FAN_FIRST_GRADING = FirstGrading(
    policy="dig",
    playouts=16,
    max_steps=150,
    score="playout_rate",
    easy_threshold=0.25,
    hard_threshold=0.0,
    solve_nodes=500_000,
    check_nodes=20_000,
)

#: Every registered preset by name, in registry order.
PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "thirteen",
            "thirteen",
            "Four Leaf Clovers: 13 piles, one wrapping foundation (PySolFC game 267)",
            _THIRTEEN_RULES,
            piles=13,
            grading=_PILE_GRADING,
            first_grading=_PILE_FIRST_GRADING,
            front_end=True,
        ),
        Preset(
            "thirteen-return",
            "thirteen",
            "Four Leaf Clovers with foundation cards playable back to the piles",
            _THIRTEEN_RETURN_RULES,
            piles=13,
            switches=_RETURNS,
            grading=replace(_PILE_GRADING, easy_threshold=0.266667),
            first_grading=_PILE_FIRST_GRADING,
            front_end=True,
        ),
        Preset(
            "fifteen",
            "fifteen",
            "Four Leaf Clover, the Japanese 15-sum game: same-suit groups from a 4x4 grid",
            _FIFTEEN_RULES,
            piles=16,
            dropped_ranks=frozenset({10}),
            grading=Grading(
                games=8,
                max_steps=48,
                depth=1,
                patience=20,
                easy_threshold=1.0,
                hard_threshold=0.5625,
                solve_nodes=20_000_000,
                check_nodes=200_000,
            ),
            first_grading=FirstGrading(
                policy="uniform",
                playouts=32,
                max_steps=48,
                score="playout_rate",
                easy_threshold=0.95,
                hard_threshold=0.375,
                solve_nodes=20_000_000,
                check_nodes=200_000,
            ),
            front_end=True,
        ),
        Preset(
            "cloverleaf",
            "clover",
            "Clover Leaf: 16 fans of 3, red Aces up and black Kings down (Thomas Warfield)",
            _CLOVER_RULES.format(piles=16, rows=3),
            piles=16,
            foundation_cards=_CLOVER_FOUNDATIONS,
            grading=_FAN_GRADING,
            first_grading=_FAN_FIRST_GRADING,
            front_end=True,
        ),
        Preset(
            "alexander",
            "clover",
            "Alexander the Great: Clover Leaf rules with 12 fans of 4",
            _CLOVER_RULES.format(piles=12, rows=4),
            piles=12,
            foundation_cards=_CLOVER_FOUNDATIONS,
            grading=replace(_FAN_GRADING, patience=1000, easy_threshold=0.111111),
            first_grading=replace(
                _FAN_FIRST_GRADING, score="solver_nodes", easy_threshold=43, hard_threshold=300
            ),
            front_end=True,
        ),
        Preset(
            "blackhole",
            "hole",
            "Black Hole (PySolFC game 98), reference preset for black-hole-solver",
            _BLACKHOLE_RULES,
            piles=17,
            foundation_cards=_ACE_OF_SPADES,
        ),
        Preset(
            "allinarow",
            "hole",
            "All in a Row (PySolFC game 405), reference preset for black-hole-solver",
            _ALLINAROW_RULES,
            piles=13,
            dealt_last=_ACE_OF_SPADES,
        ),
    )
}


def find_family(name: str) -> Family:
    """The registered family called ``name``;
    :class:`~cloversolve.games.records.UnknownFamilyError` otherwise."""
    family = FAMILIES.get(name)
    if family is None:
        raise UnknownFamilyError(f"unknown rule family: {name!r} (known: {', '.join(FAMILIES)})")
    return family


use_family_lookup(find_family)


def find_preset(name: str) -> Preset:
    """The preset called ``name``; an :class:`UnknownPresetError` suggests the nearest name."""
    preset = PRESETS.get(name) if isinstance(name, str) else None
    if preset is not None:
        return preset
    close = difflib.get_close_matches(str(name)[:100], PRESETS, n=1, cutoff=0.4)
    hint = f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(PRESETS)}"
    raise UnknownPresetError(f"unknown preset: {quoted(name)}{hint}")


def family_preset(family: str, **switches: bool) -> Preset:
    """The first registered preset of ``family`` whose rule switches have the given values
    (e.g. ``family_preset("thirteen", foundation_return=True)``)."""
    for preset in PRESETS.values():
        if preset.family == family and all(
            getattr(preset, name) == value for name, value in switches.items()
        ):
            return preset
    shown = ", ".join(f"{name}={value}" for name, value in switches.items())
    raise UnknownPresetError(f"no preset of family {family!r} with {shown or 'any switches'}")


def front_end_presets() -> tuple[str, ...]:
    """The names of the presets front ends get, in registry order."""
    return tuple(name for name, preset in PRESETS.items() if preset.front_end)


def registry_problems() -> list[str]:
    """What is inconsistent in the registry (empty when every record holds together)."""
    problems = [
        f"family {family.name!r} gives a direction to some foundations only"
        for family in FAMILIES.values()
        if family.foundation_builds
        and len(family.foundation_builds) != len(family.foundation_names)
    ]
    for preset in PRESETS.values():
        family = FAMILIES.get(preset.family)
        if family is None:
            problems.append(f"preset {preset.name!r} names no registered family")
            continue
        foreign = sorted(set(preset.switches) - set(family.switches))
        if foreign:
            problems.append(f"preset {preset.name!r} sets switches its engine ignores: {foreign}")
        if (preset.grading is not None) != bool(family.grading_panel):
            problems.append(f"preset {preset.name!r} is graded without a panel or the reverse")
        if preset.front_end and family.js_rules_path is None:
            problems.append(f"preset {preset.name!r} is for front ends, its family has no JS rules")
        dealt = preset.deck_size - len(preset.foundation_cards)
        if not family.grid and dealt % preset.piles:
            problems.append(f"preset {preset.name!r} deals {dealt} cards to {preset.piles} piles")
    return problems
