"""Moves and routes: RULES.md's notation, round trips and narrow errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cloversolve.core.notation import (
    FOUNDATION,
    Foundation,
    Group,
    MoveParseError,
    Transfer,
    format_route,
    parse_move,
    parse_route,
)

piles = st.integers(1, 99)
transfers = st.one_of(
    st.builds(Transfer, piles, piles),
    st.builds(Transfer, piles, st.just("F")),
    st.builds(Transfer, st.sampled_from(["F", "FC", "FD", "FH", "FS"]), piles),
)
groups = st.lists(st.integers(1, 16), min_size=2, max_size=16, unique=True).map(
    lambda cells: Group(tuple(sorted(cells)))
)
moves = st.one_of(transfers, groups)


@given(moves)
def test_move_round_trip(move) -> None:
    assert parse_move(str(move)) == move


@given(st.lists(moves, max_size=20))
def test_route_round_trip(route) -> None:
    assert parse_route(format_route(route)) == tuple(route)
    assert parse_route([str(m) for m in route]) == tuple(route)


def test_examples() -> None:
    assert parse_move("4>F") == Transfer(4, "F")
    assert parse_move("4>11") == Transfer(4, 11)
    assert parse_move("F>7") == Transfer("F", 7)
    assert parse_move("FH>7") == Transfer("FH", 7)
    assert parse_move("3+7+12") == Group((3, 7, 12))
    assert parse_route("1>F  2>3\n4+5") == (Transfer(1, "F"), Transfer(2, 3), Group((4, 5)))


def test_foundations_are_typed_places_that_read_as_their_names() -> None:
    move = parse_move("FH>7")
    assert move.src is Foundation.FH and move.dst == 7
    assert move.from_foundation and not move.to_foundation
    assert parse_move("4>F").dst is FOUNDATION and parse_move("4>F").to_foundation
    assert {Transfer("FH", 7): 1}[move] == 1  # equal and hashed like the plain names
    assert str(move) == "FH>7" and repr(move) == "parse_move('FH>7')"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "4",
        "04>F",
        "4>07",
        "0>F",
        "4>FH",
        "F>F",
        "FX>3",
        "4->F",
        "3+3",
        "7+3",
        "3",
        "+3",
        "3+",
        " 4>F",
        "4>F ",
        "a>b",
    ],
)
def test_malformed_moves_quote_input(text: str) -> None:
    with pytest.raises(MoveParseError) as error:
        parse_move(text)
    assert repr(text) in str(error.value)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("text", ["0>F", "04>F", "-1>F", "4>07", "FH>0", "0+3", "3+07"])
def test_a_move_numbered_from_zero_or_with_leading_zeros_says_so(text: str) -> None:
    with pytest.raises(MoveParseError, match="numbered from 1, without leading zeros"):
        parse_move(text)


def test_malformed_route_names_the_move() -> None:
    with pytest.raises(MoveParseError, match=r"move 2 of the route: .*'4>>F'"):
        parse_route("1>F 4>>F")


@pytest.mark.parametrize("text", ["9" * 4400 + ">F", "1>" + "2" * 100, "+".join(["1"] * 40)])
def test_an_overlong_move_is_refused_before_its_numbers_are_read(text: str) -> None:
    with pytest.raises(MoveParseError, match=rf"^not a move: .*\({len(text)} characters") as error:
        parse_move(text)
    assert len(str(error.value)) < 100


@pytest.mark.parametrize("route", [{"4>1", "4>F"}, frozenset({"4>F"}), {"4>1": 1, "4>F": 2}])
def test_an_unordered_collection_is_not_a_route(route) -> None:
    kind = type(route).__name__
    with pytest.raises(MoveParseError, match=rf"^not a route: a {kind} has no order"):
        parse_route(route)


@pytest.mark.parametrize("route", [[1, 2], [None], [Transfer(0, 4)], [b"4>F"], 7])
def test_format_route_refuses_what_is_not_a_route(route) -> None:
    """As the JS module's ``formatRoute``: moves and move strings only, each checked."""
    with pytest.raises(MoveParseError):
        format_route(route)


def test_format_route_takes_moves_move_strings_and_text() -> None:
    assert format_route([parse_move("4>F"), "3>11", Group((1, 2))]) == "4>F 3>11 1+2"
    assert format_route(" 4>F   F>7 ") == "4>F F>7"
