"""Tests of the 15-sum game's reference engine (preset ``fifteen``)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import small_fifteen_position

from cloversolve.core.cards import Card, full_deck, parse_cards
from cloversolve.core.notation import Group, Transfer, parse_move
from cloversolve.families.fifteen.rules import FifteenPosition, group_reason
from cloversolve.games.dealing import deal
from cloversolve.games.layout import Layout, LayoutError
from cloversolve.rules import position_from_layout
from cloversolve.rules.base import IllegalMoveError
from cloversolve.rules.exhaustive import solve_exhaustively

DEAL_NUMBERS = st.integers(min_value=1, max_value=10**20 - 1)
FIFTEEN_DECK = full_deck(without_ranks=frozenset({10}))


def grid(*texts: str | None) -> list[Card | None]:
    """Sixteen cells from card texts, padded with empty cells."""
    cells = [None if t is None else Card.parse(t) for t in texts]
    return cells + [None] * (16 - len(cells))


def all_cards(position: FifteenPosition) -> list[Card]:
    return position.grid_cards() + list(position.stock)


def brute_force_moves(position: FifteenPosition) -> set[Group]:
    """Every subset of the grid's cells of one suit that the rules allow."""
    moves = set()
    for suit in "CDHS":
        cells = [i + 1 for i, c in enumerate(position.cells) if c is not None and c.suit == suit]
        for size in range(2, len(cells) + 1):
            for chosen in itertools.combinations(cells, size):
                if group_reason([position.cells[c - 1] for c in chosen]) is None:
                    moves.add(Group(chosen))
    return moves


def random_playout(position: FifteenPosition, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        moves = list(position.legal_moves())
        if not moves:
            return
        position.push(rng.choice(moves))


# -- construction and data --------------------------------------------------------------


def test_deal_round_trips_through_layout_and_json() -> None:
    layout = deal("fifteen", 1)
    position = FifteenPosition.from_layout(layout)
    assert position.to_layout("fifteen", 1) == layout
    assert Layout.from_json(layout.to_json()) == layout
    assert sorted(all_cards(position)) == sorted(FIFTEEN_DECK)
    assert len(position.stock) == 32 and len(position.grid_cards()) == 16


def test_position_from_layout_dispatches_to_the_fifteen_engine() -> None:
    assert isinstance(position_from_layout(deal("fifteen", 7)), FifteenPosition)


def test_construction_rejects_impossible_positions() -> None:
    with pytest.raises(ValueError, match="16 cells"):
        FifteenPosition([Card.parse("AC")] * 3)
    with pytest.raises(ValueError, match="twice"):
        FifteenPosition(grid("AC", "AC"))
    with pytest.raises(ValueError, match="Tens"):
        FifteenPosition(grid("TC", "5C"))
    with pytest.raises(ValueError, match="empty cell"):
        FifteenPosition(grid("AC"), parse_cards(["2C"]))
    layout = Layout("fifteen", cells=tuple(grid("AC")), stock=(Card.parse("2C"),))
    with pytest.raises(LayoutError, match="empty cell"):
        FifteenPosition.from_layout(layout)
    with pytest.raises(LayoutError, match="not a fifteen game"):
        FifteenPosition.from_layout(deal("thirteen", 1))


# -- the rules ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("texts", "legal"),
    [
        (["6C", "9C"], True),
        (["AC", "2C", "3C", "4C", "5C"], True),
        (["JD", "QD", "KD"], True),
        (["6C", "9D"], False),  # two suits
        (["7C", "9C"], False),  # 16
        (["JD", "QD"], False),  # not the whole trio
        (["JD", "QD", "KD", "AD"], False),  # a number with the courts
        (["5C", "JC"], False),  # a court card never counts as a number
        (["JH", "QS", "KH"], False),
    ],
)
def test_group_rules(texts: list[str], legal: bool) -> None:
    position = FifteenPosition(grid(*texts))
    move = Group(tuple(range(1, len(texts) + 1)))
    assert position.is_legal(move) is legal
    assert (group_reason(parse_cards(texts)) is None) is legal


def test_why_illegal_names_the_problem() -> None:
    position = FifteenPosition(grid("6C", None, "9C", "7C"))
    assert "empty" in position.why_illegal(parse_move("1+2"))
    assert "total 13" in position.why_illegal(parse_move("1+4"))
    assert "at least two" in position.why_illegal(Group((1,)))
    assert "ascending" in position.why_illegal(Group((3, 1)))
    assert "1..16" in position.why_illegal(Group((1, 17)))
    assert "groups" in position.why_illegal(Transfer(1, "F"))
    with pytest.raises(IllegalMoveError, match="1\\+4"):
        position.push_checked(parse_move("1+4"))
    position.push_checked(parse_move("1+3"))
    assert position.cells[0] is None and position.cells[2] is None


@settings(max_examples=80, deadline=None)
@given(
    number=DEAL_NUMBERS,
    seed=st.integers(0, 2**32 - 1),
    cells=st.lists(st.integers(-1, 18), max_size=6),
)
def test_why_illegal_accepts_exactly_the_brute_force_groups(
    number: int, seed: int, cells: list[int]
) -> None:
    position = FifteenPosition.from_layout(deal("fifteen", number))
    rng = random.Random(seed)
    random_playout(position, rng, rng.randrange(30))
    legal = brute_force_moves(position)
    candidates = [Group(tuple(cells)), Group(tuple(sorted(set(cells))))]
    for size in (2, 3):
        candidates += [Group(chosen) for chosen in itertools.combinations(range(1, 17), size)]
    for move in legal:
        candidates += [move, Group(move.cells[::-1]), Group(move.cells[:-1])]
    for move in candidates:
        reason = position.why_illegal(move)
        assert (reason is None) is (move in legal), (move, reason)
        assert reason is None or reason


def test_cells_refill_in_ascending_cell_order_whatever_the_selection() -> None:
    cells = parse_cards(["AS", "9D", "2S", "6D", *[f"{r}H" for r in "23456789"], "JC", "QC"])
    cells += parse_cards(["KC", "AH"])
    position = FifteenPosition(cells, parse_cards(["5C", "7C", "8C"]))
    position.push_checked(parse_move("2+4"))
    assert position.cells[1] == Card.parse("5C") and position.cells[3] == Card.parse("7C")
    assert position.stock == (Card.parse("8C"),)
    position.push_checked(parse_move("13+14+15"))
    assert position.cells[12] == Card.parse("8C")
    assert position.cells[13] is None and position.cells[14] is None
    assert position.stock == ()


def test_win_needs_grid_and_stock_empty() -> None:
    position = FifteenPosition(grid("7S", "8S"))
    assert not position.is_won() and not position.is_blocked()
    position.push_checked(parse_move("1+2"))
    assert position.is_won() and not position.is_blocked()
    assert FifteenPosition(grid()).is_won()
    assert FifteenPosition(grid("7S", "9S")).is_blocked()


def test_legal_moves_order_is_per_suit_then_by_cells() -> None:
    position = FifteenPosition(
        grid("KS", "6D", "9D", "QS", "7C", "8C", "JS", "AC", "5C", "9C", "4D", "5D")
    )
    moves = [str(m) for m in position.legal_moves()]
    assert moves == ["5+6", "8+9+10", "2+3", "2+11+12", "1+4+7"]


@pytest.mark.parametrize("number", [1, 2, 3, 40000, 10**20 - 1])
def test_legal_moves_equal_brute_force_on_deals(number: int) -> None:
    position = FifteenPosition.from_layout(deal("fifteen", number))
    rng = random.Random(number)
    for _ in range(8):
        moves = list(position.legal_moves())
        assert len(moves) == len(set(moves))
        assert set(moves) == brute_force_moves(position)
        if not moves:
            break
        position.push(rng.choice(moves))


# -- properties of play --------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(number=DEAL_NUMBERS, seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_every_card_once_and_remove_only_legal_groups(
    number: int, seed: int
) -> None:
    position = FifteenPosition.from_layout(deal("fifteen", number))
    rng = random.Random(seed)
    removed: list[Card] = []
    while True:
        moves = list(position.legal_moves())
        if not moves:
            break
        move = rng.choice(moves)
        group = [position.cells[c - 1] for c in move.cells]
        assert group_reason(group) is None
        position.push_checked(move)
        removed += group
        counts = Counter(all_cards(position) + removed)
        assert sorted(counts) == sorted(FIFTEEN_DECK) and set(counts.values()) == {1}
        assert position.stock == () or None not in position.cells
    if position.is_won():
        assert position.grid_cards() == [] and position.stock == ()
        assert sorted(removed) == sorted(FIFTEEN_DECK)


@settings(max_examples=60, deadline=None)
@given(number=DEAL_NUMBERS, seed=st.integers(0, 2**32 - 1))
def test_pop_restores_the_position_exactly(number: int, seed: int) -> None:
    position = FifteenPosition.from_layout(deal("fifteen", number))
    rng = random.Random(seed)
    history = []
    while True:
        moves = list(position.legal_moves())
        if not moves:
            break
        history.append((position.key(), position.to_layout()))
        position.push(rng.choice(moves))
    while history:
        key, layout = history.pop()
        position.pop()
        assert position.key() == key and position.to_layout() == layout
    assert position.move_stack == []


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_small_positions_keep_their_cards(seed: int) -> None:
    rng = random.Random(seed)
    position = small_fifteen_position(rng)
    before = sorted(all_cards(position))
    assert set(position.legal_moves()) == brute_force_moves(position)
    random_playout(position, rng, 6)
    removed = [c for c in before if c not in all_cards(position)]
    assert sorted(all_cards(position) + removed) == before
    assert position.copy().key() == position.key()


def test_a_won_deal_has_removed_every_card() -> None:
    number = next(n for n in range(1, 20) if solve_exhaustively(deal_position(n), 3000).solvable)
    position = deal_position(number)
    route = solve_exhaustively(position, 3000).route
    assert route is not None
    removed: list[Card] = []
    for move in route:
        removed += [position.cells[c - 1] for c in move.cells]
        position.push_checked(move)
    assert position.is_won() and not position.is_blocked()
    assert position.grid_cards() == [] and position.stock == ()
    assert sorted(removed) == sorted(FIFTEEN_DECK)


def deal_position(number: int) -> FifteenPosition:
    return FifteenPosition.from_layout(deal("fifteen", number))


def test_render_shows_suit_symbols_colours_and_stock_size() -> None:
    position = FifteenPosition.from_layout(deal("fifteen", 1))
    plain = position.render()
    assert "♦" in plain and "\x1b[" not in plain and "stock: 32 cards" in plain
    assert len(plain.splitlines()) == 5
    assert "\x1b[31m" in position.render(color=True)
    move = next(position.legal_moves())
    position.push(move)
    assert f"stock: {32 - len(move.cells)} cards" in position.render()
    assert "··" in FifteenPosition(grid("7S", None, "8S")).render()
