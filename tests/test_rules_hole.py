"""The Black Hole / All in a Row reference engine."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import round_robin_tiny_game

from cloversolve.core.cards import Card, full_deck
from cloversolve.core.notation import Group, Transfer, parse_move
from cloversolve.families.hole.rules import HolePosition, ranks_adjacent
from cloversolve.games.dealing import deal
from cloversolve.games.layout import LayoutError
from cloversolve.rules import IllegalMoveError, position_from_layout
from cloversolve.rules.exhaustive import count_reachable, solve_exhaustively

PRESETS = ("blackhole", "allinarow")
deal_numbers = st.one_of(st.integers(1, 31999), st.integers(32000, 10**12))


def card(text: str) -> Card:
    return Card.parse(text)


def fans(*piles: str) -> list[list[Card]]:
    return [[card(t) for t in pile.split()] for pile in piles]


def all_cards(position: HolePosition) -> Counter:
    return Counter([c for pile in position.piles for c in pile] + position.foundation)


def random_playout(position: HolePosition, data: st.DataObject) -> list:
    moves = []
    while True:
        legal = list(position.legal_moves())
        if not legal or not data.draw(st.booleans(), label="go on"):
            return moves
        move = data.draw(st.sampled_from(legal), label="move")
        position.push(move)
        moves.append(move)


# --- Setting up positions ------------------------------------------------------------------


def test_black_hole_deal_has_ace_of_spades_on_foundation_and_17_fans_of_3():
    position = HolePosition.from_layout(deal("blackhole", 1))
    assert position.foundation == [card("AS")]
    assert [len(p) for p in position.piles] == [3] * 17
    assert all_cards(position) == Counter(full_deck())


def test_all_in_a_row_deal_has_empty_foundation_and_13_columns_of_4():
    position = HolePosition.from_layout(deal("allinarow", 1))
    assert position.foundation == []
    assert [len(p) for p in position.piles] == [4] * 13
    assert all_cards(position) == Counter(full_deck())


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("number", [1, 2, 617, 31999, 32000, 10**15])
def test_layout_round_trips(preset, number):
    layout = deal(preset, number)
    assert HolePosition.from_layout(layout).to_layout(preset, number) == layout


def test_position_from_layout_dispatches_to_the_hole_engine():
    assert isinstance(position_from_layout(deal("allinarow", 5)), HolePosition)


def test_from_layout_rejects_other_families():
    with pytest.raises(LayoutError, match="not a Black Hole"):
        HolePosition.from_layout(deal("thirteen", 1))


def test_constructor_rejects_duplicates_and_ranks_out_of_range():
    with pytest.raises(ValueError, match="twice"):
        HolePosition(fans("AS 2S", "2S"))
    with pytest.raises(ValueError, match="highest rank"):
        HolePosition(fans("AS 5S"), ranks=4)
    with pytest.raises(ValueError, match="ranks must be"):
        HolePosition(fans("AS"), ranks=2)


# --- The rules -----------------------------------------------------------------------------


def test_ranks_adjacent_wraps_between_king_and_ace():
    assert ranks_adjacent(13, 1) and ranks_adjacent(1, 13)
    assert ranks_adjacent(5, 6) and ranks_adjacent(6, 5)
    assert not ranks_adjacent(5, 5) and not ranks_adjacent(5, 7)
    assert ranks_adjacent(4, 1, ranks=4) and not ranks_adjacent(4, 1, ranks=5)


def test_legal_moves_are_top_cards_one_rank_away_in_fan_order():
    position = HolePosition(fans("3C 2D", "5H KS", "QC KH", "AD 4S", ""), [card("AS")])
    assert [str(m) for m in position.legal_moves()] == ["1>F", "2>F", "3>F"]


def test_empty_foundation_takes_any_card():
    position = HolePosition(fans("3C 2D", "5H KS", "", "9D 4S"))
    assert [str(m) for m in position.legal_moves()] == ["1>F", "2>F", "4>F"]


def test_first_deal_moves():
    # Black Hole deal 1 shows 2C on fan 3 and 2H on fan 16 next to the AS foundation.
    position = HolePosition.from_layout(deal("blackhole", 1))
    assert [str(m) for m in position.legal_moves()] == ["3>F", "16>F"]
    assert len(list(HolePosition.from_layout(deal("allinarow", 1)).legal_moves())) == 13


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1>2", "only move"),
        ("F>1", "only move"),
        ("9>F", "no fan 9"),
        ("3>F", "empty"),
        ("2>F", "not one rank"),
    ],
)
def test_why_illegal_names_the_problem(text, reason):
    position = HolePosition(fans("2D", "5H", ""), [card("AS")])
    assert reason in position.why_illegal(parse_move(text))
    with pytest.raises(IllegalMoveError, match=reason):
        position.push_checked(parse_move(text))


def test_group_moves_are_illegal():
    position = HolePosition(fans("2D"), [card("AS")])
    assert "only move" in position.why_illegal(Group((1, 2)))


def test_push_and_pop_move_one_card():
    position = HolePosition(fans("KD 2D", "QC"), [card("AS")])
    move = Transfer(1, "F")
    position.push_checked(move)
    assert position.piles == fans("KD", "QC") and position.foundation_top == card("2D")
    assert position.pop() == move
    assert position.piles == fans("KD 2D", "QC") and position.foundation == [card("AS")]


def test_tiny_game_wraps_at_its_highest_rank():
    position = HolePosition(fans("4C", "2D"), [card("AS")], ranks=4)
    assert [str(m) for m in position.legal_moves()] == ["1>F", "2>F"]


def test_won_and_blocked():
    position = HolePosition(fans("2D", "3C"), [card("AS")])
    assert not position.is_won() and not position.is_blocked()
    position.push(Transfer(1, "F"))
    position.push(Transfer(2, "F"))
    assert position.is_won() and not position.is_blocked()
    assert HolePosition(fans("5D"), [card("AS")]).is_blocked()


def test_key_ignores_history_but_not_the_foundation_top():
    a = HolePosition(fans("3C", "2D"), [card("AS")])
    b = HolePosition(fans("3C", "2D"), [card("4H"), card("AS")])
    c = HolePosition(fans("3C", "2D"), [card("AH")])
    assert a.key() == b.key() and a.key() != c.key()


def test_render_shows_symbols_and_colours_red_suits_only_on_request():
    position = HolePosition(fans("KD 2S", ""), [card("AH")])
    plain = position.render()
    assert plain.splitlines() == ["F: A♥  (1 card)", "1: K♦ 2♠", "2:"]
    coloured = position.render(color=True)
    assert "\x1b[31mK♦\x1b[0m" in coloured and "\x1b[31m2♠" not in coloured
    assert "\x1b" not in plain
    assert "F: --" in HolePosition(fans("2S")).render()


# --- Properties over real deals ------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(PRESETS), number=deal_numbers, data=st.data())
def test_random_playouts_keep_every_card_once_and_obey_the_foundation(preset, number, data):
    position = HolePosition.from_layout(deal(preset, number))
    before = all_cards(position)
    random_playout(position, data)
    assert all_cards(position) == before
    pile = position.foundation
    start = 1 if preset == "blackhole" else 0
    assert preset != "blackhole" or pile[0] == card("AS")
    for lower, upper in zip(pile[start:], pile[start + 1 :], strict=False):
        assert ranks_adjacent(lower.rank, upper.rank)


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(PRESETS), number=deal_numbers, data=st.data())
def test_pop_undoes_push_exactly(preset, number, data):
    position = HolePosition.from_layout(deal(preset, number))
    snapshots = []
    while True:
        legal = list(position.legal_moves())
        if not legal or not data.draw(st.booleans(), label="go on"):
            break
        snapshots.append((position.key(), position.to_layout(preset)))
        position.push(data.draw(st.sampled_from(legal), label="move"))
    while snapshots:
        position.pop()
        assert (position.key(), position.to_layout(preset)) == snapshots.pop()
    assert position.to_layout(preset, number) == deal(preset, number)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_legal_moves_are_exactly_the_moves_why_illegal_accepts(seed, data):
    start = data.draw(st.integers(0, 1))
    position = round_robin_tiny_game(HolePosition, seed, ranks=5, piles=5, on_foundation=start)
    random_playout(position, data)
    candidates = [Transfer(i, "F") for i in range(1, 7)] + [Transfer(1, 2), Transfer("F", 1)]
    accepted = [m for m in candidates if position.why_illegal(m) is None]
    assert accepted == list(position.legal_moves())


def test_a_won_game_has_every_card_on_the_foundation():
    # A tiny game played to a win by the first legal move that keeps it winnable.
    for seed in range(200):
        position = round_robin_tiny_game(HolePosition, seed, ranks=4, piles=4, on_foundation=1)
        route = solve_exhaustively(position).route
        if route is None:
            continue
        cards = all_cards(position)
        for move in route:
            position.push_checked(move)
        assert position.is_won()
        assert not any(position.piles) and Counter(position.foundation) == cards
        return
    pytest.fail("no winnable tiny game among 200 seeds")


@pytest.mark.parametrize(
    ("preset", "number"), [("blackhole", 1), ("blackhole", 7), ("allinarow", 3)]
)
def test_perft_counts_positions_by_depth(preset, number):
    position = HolePosition.from_layout(deal(preset, number))
    counts = [count_reachable(position, depth) for depth in range(5)]
    assert counts[0] == 1
    assert counts[1] == len(list(position.legal_moves()))
    if preset == "allinarow":
        assert counts[1] == 13
