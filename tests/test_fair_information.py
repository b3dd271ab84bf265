"""Players see only what a player sees: the real order of the unseen cards (a stock) never
changes their choices, until a move reveals a card that differs.

A game is played twice from the same seen cards, the unseen ones in two orders. The
unassisted players' lines agree move for move until the first move after which the seen
cards differ; an assisted player (one that undoes, and so sees what its undone moves
revealed) makes the same first move. The panel players that read more are named in
:data:`SEES_THE_UNSEEN` (and in docs/grading.md): for them the test shows that they do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence

import pytest

from cloversolve.core.cards import Card
from cloversolve.core.notation import Move
from cloversolve.games.dealing import deal
from cloversolve.games.registry import PRESETS
from cloversolve.grading.grading import grading_rule
from cloversolve.grading.information import determinized
from cloversolve.grading.players import PLAYERS, panel_of
from cloversolve.grading.validation_players import (
    validation_game,
    validation_players,
    validation_players_of,
)
from cloversolve.rules import Position, position_from_layout

#: Panel players whose lookahead reads the cards that its move reveals (their grades were
#: measured so; docs/grading.md says which): by family.
SEES_THE_UNSEEN = {"fifteen": {"largest"}}
#: Deals per preset, and orders of the unseen cards per deal.
DEALS, ORDERS = 12, 2


def _presets_with_unseen_cards() -> list[str]:
    """One preset of each family whose deals have unseen cards."""
    found: dict[str, str] = {}
    for preset in PRESETS.values():
        if position_from_layout(deal(preset.name, 1)).unseen_cards():
            found.setdefault(preset.family, preset.name)
    return sorted(found.values())


UNSEEN_PRESETS = _presets_with_unseen_cards()


class _Recording:
    """Records the moves on the position's stack at each ``is_won()`` call: a player asks it
    last on the line it ends on, before it restores the position."""

    def __init__(self, position: Position) -> None:
        self.stack: list[Move] = []
        self.pushed: list[Move] = []
        self.line: tuple[Move, ...] = ()
        original = type(position)

        def push(this: Position, move: Move) -> None:
            self.stack.append(move)
            self.pushed.append(move)
            original.push(this, move)

        def pop(this: Position) -> Move:
            self.stack.pop()
            return original.pop(this)

        def is_won(this: Position) -> bool:
            self.line = tuple(self.stack)
            return original.is_won(this)

        recording = type("Recording", (original,), {"push": push, "pop": pop, "is_won": is_won})
        position.__class__ = recording


def _seen(position: Position) -> Hashable:
    """What a player sees: the position with its unseen cards in one fixed order."""
    return position.with_unseen_cards(sorted(position.unseen_cards())).key()


def _reordered(position: Position, rng: random.Random) -> Position:
    order = list(position.unseen_cards())
    rng.shuffle(order)
    return position.with_unseen_cards(order)


def _agreed_until_revealed(a: Position, b: Position, line_a: Sequence, line_b: Sequence) -> int:
    """How many moves the two lines agree on while the seen cards stay equal; fails on the
    first move chosen differently from equal seen cards."""
    a, b = a.copy(), b.copy()
    for step, (move_a, move_b) in enumerate(zip(line_a, line_b, strict=False)):
        assert _seen(a) == _seen(b)
        assert move_a == move_b, f"move {step + 1} differs: {move_a} and {move_b}"
        a.push(move_a)
        b.push(move_b)
        if _seen(a) != _seen(b):
            return step + 1
    assert _seen(a) != _seen(b) or len(line_a) == len(line_b)
    return min(len(line_a), len(line_b))


Play = Callable[[Position, str], tuple[tuple[Move, ...], tuple[Move, ...]]]


def _validation(player: str) -> Play:
    def play(position: Position, seed: str) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
        recording = _Recording(position)
        game = validation_game(position, player, seed)
        return game.moves, tuple(recording.pushed[:1])

    return play


def _panel(player: str, preset: str) -> Play:
    strength = grading_rule(preset).strength

    def play(position: Position, seed: str) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
        recording = _Recording(position)
        PLAYERS[player].play(position, random.Random(seed), strength)
        return recording.line, tuple(recording.pushed[:1])

    return play


def _games(preset: str, play: Play) -> list[tuple[Position, Position, tuple, tuple]]:
    """Pairs of games from the same seen cards, the unseen ones in two orders."""
    games = []
    rng = random.Random(f"orders/{preset}")
    for number in range(1, DEALS + 1):
        base = position_from_layout(deal(preset, number))
        for order in range(ORDERS):
            a, b = base.copy(), _reordered(base, rng)
            seed = f"test/{number}/{order}"
            games.append((a.copy(), b.copy(), play(a, seed), play(b, seed)))
    return games


def _cases() -> list[tuple[str, str, bool, bool]]:
    """(preset, player, a validation player?, assisted?) of every player of the presets with
    unseen cards, but the panel players of :data:`SEES_THE_UNSEEN`."""
    cases = []
    for preset in UNSEEN_PRESETS:
        family = PRESETS[preset].family
        for name in validation_players_of(family):
            cases.append((preset, name, True, validation_players()[name].assisted))
        for name in panel_of(family):
            if name not in SEES_THE_UNSEEN.get(family, set()):
                cases.append((preset, name, False, PLAYERS[name].assisted))
    return cases


def test_some_family_has_unseen_cards() -> None:
    assert UNSEEN_PRESETS


@pytest.mark.parametrize(("preset", "player", "validation", "assisted"), _cases())
def test_the_order_of_the_unseen_cards_never_changes_a_choice(
    preset: str, player: str, validation: bool, assisted: bool
) -> None:
    play = _validation(player) if validation else _panel(player, preset)
    compared = 0
    for a, b, (line_a, first_a), (line_b, first_b) in _games(preset, play):
        if assisted:
            assert first_a == first_b
            compared += bool(first_a)
        else:
            compared += _agreed_until_revealed(a, b, line_a, line_b)
    assert compared >= DEALS * ORDERS


@pytest.mark.parametrize(
    ("preset", "player"),
    [
        (preset, name)
        for preset in UNSEEN_PRESETS
        for name in sorted(SEES_THE_UNSEEN.get(PRESETS[preset].family, ()))
    ],
)
def test_the_panel_players_said_to_read_unseen_cards_do(preset: str, player: str) -> None:
    play = _panel(player, preset)
    differs = 0
    for a, b, (line_a, _), (line_b, _) in _games(preset, play):
        try:
            _agreed_until_revealed(a, b, line_a, line_b)
        except AssertionError:
            differs += 1
    assert differs > 0


def test_a_determinized_copy_keeps_the_seen_cards_and_ignores_the_real_order() -> None:
    for preset in UNSEEN_PRESETS:
        position = position_from_layout(deal(preset, 2))
        other = _reordered(position, random.Random(1))
        a = determinized(position, random.Random("r"))
        b = determinized(other, random.Random("r"))
        assert a.key() == b.key()
        assert _seen(a) == _seen(position)
        assert sorted(a.unseen_cards()) == sorted(position.unseen_cards())
        assert [determinized(position, random.Random(i)).key() for i in range(3)] != [a.key()] * 3


def test_a_position_without_unseen_cards_is_its_own_determinized_copy() -> None:
    rng = random.Random(5)
    state = rng.getstate()
    for preset in PRESETS:
        position = position_from_layout(deal(preset, 1))
        if not position.unseen_cards():
            assert determinized(position, rng) is position
            assert position.with_unseen_cards(()).key() == position.key()
    assert rng.getstate() == state


def test_an_order_that_is_no_permutation_of_the_unseen_cards_is_refused() -> None:
    for preset in PRESETS:
        position = position_from_layout(deal(preset, 1))
        wrong: list[Card] = [*position.unseen_cards()[1:], Card(10, "S")]
        with pytest.raises(ValueError, match="permutation"):
            position.with_unseen_cards(wrong)
