"""Tests of the Four Leaf Clovers reference engine (presets thirteen and thirteen-return)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import engine_perft
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import round_robin_tiny_game

from cloversolve.core.notation import Group, Transfer, parse_move
from cloversolve.families.thirteen.rules import ThirteenPosition, are_neighbours
from cloversolve.games.dealing import deal
from cloversolve.games.layout import LayoutError
from cloversolve.rules import position_from_layout
from cloversolve.rules.base import IllegalMoveError

PRESETS = ("thirteen", "thirteen-return")


def moves_of(position: ThirteenPosition) -> list[str]:
    return [str(move) for move in position.legal_moves()]


# -- hand-made positions ------------------------------------------------------------------------


def test_moves_wrap_between_king_and_ace_and_foundation_needs_an_ace():
    position = ThirteenPosition.parse([["KS", "AH"], ["2C"], ["QD", "KH"]])
    assert moves_of(position) == ["1>F", "1>2", "1>3", "2>1", "3>1"]


def test_after_the_top_rank_the_foundation_needs_an_ace_again():
    position = ThirteenPosition.parse([["2D"], ["AD"]], ["AS", "2S", "3S"], ranks=3)
    assert position.needed_rank == 1
    assert moves_of(position) == ["2>F", "1>2", "2>1"]
    assert position.why_illegal(parse_move("1>F")) == "the foundation needs rank 1, not 2D"


def test_nothing_goes_onto_an_empty_pile():
    position = ThirteenPosition.parse([["AS"], [], ["3C", "2H"]])
    assert moves_of(position) == ["1>F", "1>3", "3>1"]
    assert "empty" in position.why_illegal(parse_move("1>2"))
    assert "empty" in position.why_illegal(parse_move("2>1"))


def test_foundation_returns_only_in_the_return_preset():
    piles, foundation = [["3H"], ["AC"], ["9D"]], ["AS", "2S"]
    plain = ThirteenPosition.parse(piles, foundation)
    returning = ThirteenPosition.parse(piles, foundation, allow_return=True)
    assert "never return" in plain.why_illegal(parse_move("F>1"))
    assert moves_of(returning) == ["1>F", "F>1", "F>2"]
    assert returning.why_illegal(parse_move("F>3")) == "2S is not one rank above or below 9D"
    returning.push_checked(parse_move("F>1"))
    assert returning.needed_rank == 2
    assert [str(c) for c in returning.piles[0]] == ["3H", "2S"]
    assert moves_of(returning) == ["1>F", "1>2", "2>1", "F>1"]


def test_return_from_an_empty_foundation_is_illegal():
    position = ThirteenPosition.parse([["2S"], ["AC"]], allow_return=True)
    assert position.why_illegal(parse_move("F>1")) == "the foundation is empty"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("FH>1", "one foundation"),
        ("1>FH", "one foundation"),
        ("4>1", "no pile 4"),
        ("1>4", "no pile 4"),
        ("1>1", "own pile"),
        ("3>1", "pile 3 is empty"),
        ("2>F", "needs rank 1"),
        ("2>1", "not one rank above or below"),
    ],
)
def test_why_illegal_explains(text, reason):
    position = ThirteenPosition.parse([["AS", "KD"], ["5C"], []])
    move = Transfer("1", "FH") if text == "1>FH" else parse_move(text)
    assert reason in position.why_illegal(move)
    with pytest.raises(IllegalMoveError, match=reason):
        position.push_checked(move)


def test_group_moves_do_not_exist_here():
    position = ThirteenPosition.parse([["AS"], ["2C"]])
    assert "single-card" in position.why_illegal(Group((1, 2)))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"piles": [["AS"], ["AS"]]}, "twice"),
        ({"piles": [["5S"]], "ranks": 4}, "above the deck's top rank"),
        ({"piles": [["3S"]], "foundation": ["2S"]}, "breaks"),
        ({"piles": [["AS"]], "ranks": 1}, "ranks must be"),
    ],
)
def test_constructor_rejects_impossible_positions(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ThirteenPosition.parse(**kwargs)


def test_neighbouring_ranks_wrap():
    assert are_neighbours(13, 1) and are_neighbours(1, 13) and are_neighbours(5, 6)
    assert not are_neighbours(5, 5) and not are_neighbours(5, 7)
    assert are_neighbours(4, 1, ranks=4) and not are_neighbours(4, 1, ranks=5)


# -- layouts and display ----------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_layout_round_trip(preset):
    layout = deal(preset, 7)
    position = position_from_layout(layout)
    assert isinstance(position, ThirteenPosition)
    assert position.allow_return == (preset == "thirteen-return")
    assert position.to_layout(preset, 7) == layout
    unnumbered = {key: value for key, value in layout.to_json().items() if key != "number"}
    assert position.to_layout().to_json() == unnumbered
    assert len(position.piles) == 13 and all(len(pile) == 4 for pile in position.piles)


def test_from_layout_rejects_other_families():
    with pytest.raises(LayoutError, match="not played by the thirteen engine"):
        ThirteenPosition.from_layout(deal("allinarow", 1))


def test_render_shows_symbols_and_colours():
    position = ThirteenPosition.parse([["KS", "TD"], []], ["AH"])
    plain = position.render()
    assert plain.splitlines() == ["F: A♥ (1 card)", "1: K♠ T♦", "2:"]
    coloured = position.render(color=True)
    assert "\x1b[31mT♦\x1b[0m" in coloured and "\x1b[31mK♠" not in coloured


def test_repr_rebuilds_the_position():
    position = ThirteenPosition.parse([["KS", "TD"], []], ["AH"], ranks=13, allow_return=True)
    rebuilt = eval(repr(position), {"ThirteenPosition": ThirteenPosition})
    assert rebuilt.key() == position.key() and rebuilt.allow_return


# -- properties of random play ----------------------------------------------------------------


def check_playout(position: ThirteenPosition, rng: random.Random, steps: int) -> None:
    """Play random legal moves, checking the engine's invariants after every move."""
    cards = Counter(c for pile in position.piles for c in pile) + Counter(position.foundation)
    total = sum(cards.values())
    for _ in range(steps):
        moves = list(position.legal_moves())
        assert len(set(moves)) == len(moves)
        assert all(position.why_illegal(m) is None for m in moves)
        for candidate in random_transfers(rng, len(position.piles)):
            if candidate not in moves:
                assert isinstance(position.why_illegal(candidate), str)
        if not moves:
            assert position.is_blocked() or position.is_won()
            break
        before_key, before_layout = position.key(), position.to_layout()
        move = rng.choice(moves)
        position.push(move)
        assert position.pop() == move
        assert position.key() == before_key and position.to_layout() == before_layout
        position.push(move)
        now = Counter(c for pile in position.piles for c in pile) + Counter(position.foundation)
        assert now == cards
        assert all(c.rank == i % position.ranks + 1 for i, c in enumerate(position.foundation))
        if position.is_won():
            assert len(position.foundation) == total


def random_transfers(rng: random.Random, piles: int) -> list[Transfer]:
    places = [*range(1, piles + 1), "F"]
    transfers = []
    for _ in range(4):
        src, dst = rng.choice(places), rng.choice(places)
        if not (src == "F" and dst == "F"):
            transfers.append(Transfer(src, dst))
    return transfers


@settings(max_examples=40, deadline=None)
@given(
    number=st.integers(1, 10**20 - 1),
    preset=st.sampled_from(PRESETS),
    rng=st.randoms(use_true_random=False),
)
def test_random_playouts_on_real_deals(number, preset, rng):
    check_playout(ThirteenPosition.from_layout(deal(preset, number)), rng, 60)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    ranks=st.integers(2, 6),
    suits=st.integers(1, 4),
    piles=st.integers(1, 5),
    allow_return=st.booleans(),
    rng=st.randoms(use_true_random=False),
)
def test_random_playouts_on_tiny_games(seed, ranks, suits, piles, allow_return, rng):
    position = round_robin_tiny_game(
        ThirteenPosition, seed, ranks=ranks, suits=suits, piles=piles, allow_return=allow_return
    )
    check_playout(position, rng, 200)


def test_a_won_position_has_every_card_on_the_foundation():
    position = ThirteenPosition.parse([["2S", "AS"], ["2C"], ["AC"]], ranks=2)
    for text in ("1>F", "1>F", "3>F", "2>F"):
        assert not position.is_won()
        position.push_checked(parse_move(text))
    assert position.is_won() and not position.is_blocked()
    assert [str(c) for c in position.foundation] == ["AS", "2S", "AC", "2C"]
    assert list(position.legal_moves()) == []


def test_blocked_position():
    position = ThirteenPosition.parse([["KS", "5D"], ["9C"]])
    assert position.is_blocked()


def test_perft_of_a_hand_counted_position():
    # Depth 2, counted by hand: after 1>F one move (2>F); after 1>2 and after 1>3 five each
    # (the Ace to the foundation or onto K/2, the King or Two onto the Ace); after 2>1 none;
    # after 3>1 two (KH onto QD, QD onto KH).
    position = ThirteenPosition.parse([["KS", "AH"], ["2C"], ["QD", "KH"]])
    assert [engine_perft(position, depth) for depth in range(3)] == [1, 5, 13]
