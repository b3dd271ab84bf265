"""The clover reference engine (``cloverleaf``, ``alexander``): rules, automatic moves,
push/pop, layouts."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import foundation_bases, random_tiny_clover_deal

from cloversolve.core.cards import Card
from cloversolve.core.notation import SUIT_FOUNDATIONS, Group, Transfer, parse_move
from cloversolve.families.clover.rules import SUITS, UP_SUITS, CloverPosition
from cloversolve.games.dealing import deal
from cloversolve.games.layout import Layout, LayoutError
from cloversolve.rules import IllegalMoveError, position_from_layout
from cloversolve.rules.exhaustive import solve_exhaustively

PRESETS = ("cloverleaf", "alexander")


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def small_position(**kwargs: bool) -> CloverPosition:
    """A hand-made 5-rank position (no fan top card is due to a foundation).

    Foundations hold their bases only: FC 5C, FD AD, FH AH, FS 5S.
    """
    fans = [
        cards("2H 4D"),
        cards("2D 3D"),
        cards("4H 5D"),
        cards("4S AC"),
        cards("4C 2C"),
        cards("3C 5H"),
        cards("AS 3H"),
        cards("2S 3S"),
        [],
        [],
    ]
    return CloverPosition(fans, foundation_bases(5), ranks=5, **kwargs)


def hearts_done_position() -> CloverPosition:
    """A 4-rank position with the Hearts foundation complete and two empty fans."""
    fans = [cards("2D AS"), cards("3C 2S"), cards("3S 3D"), cards("2C 4D AC"), [], []]
    foundations = {
        "FC": cards("4C"),
        "FD": cards("AD"),
        "FH": cards("AH 2H 3H 4H"),
        "FS": cards("4S"),
    }
    return CloverPosition(fans, foundations, ranks=4)


def all_cards(position: CloverPosition) -> list[Card]:
    found = [c for suit in SUITS for c in position.foundation_cards(suit)]
    return found + [c for fan in position.fans for c in fan]


def is_settled(position: CloverPosition) -> bool:
    return all(
        not fan or fan[-1] != position.foundation_next(fan[-1].suit) for fan in position.fans
    )


def every_transfer(position: CloverPosition) -> list[Transfer]:
    """Every well-formed transfer between the position's places (legal or not)."""
    fans = range(1, len(position.fans) + 1)
    sources: list[int | str] = [*fans, *SUIT_FOUNDATIONS]
    return [
        Transfer(s, d)
        for s in sources
        for d in (*fans, "F")
        if not (isinstance(s, str) and d == "F")
    ]


# --- the deal and the automatic moves --------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_deal_is_followed_by_automatic_moves(preset: str) -> None:
    for number in range(1, 60):
        layout = deal(preset, number)
        position = CloverPosition.from_layout(layout)
        assert is_settled(position)
        assert Counter(all_cards(position)) == Counter(layout.all_cards())
        # The automatic moves only took top cards: every fan is a prefix of its dealt fan.
        for fan, dealt in zip(position.fans, layout.piles, strict=True):
            assert tuple(fan) == dealt[: len(fan)]
        moved = sum(len(d) - len(f) for f, d in zip(position.fans, layout.piles, strict=True))
        assert moved == sum(position.heights.values()) - 4


def test_first_cloverleaf_deal_plays_2h_and_qs() -> None:
    # Deal 1 shows 2H on fan 15 and QS on fan 8: both go up at once.
    layout = deal("cloverleaf", 1)
    assert layout.piles[14][-1] == Card.parse("2H") and layout.piles[7][-1] == Card.parse("QS")
    position = CloverPosition.from_layout(layout)
    assert position.foundation_cards("H") == cards("AH 2H")
    assert position.foundation_cards("S") == cards("KS QS")
    assert position.foundation_cards("D") == cards("AD")
    assert position.foundation_cards("C") == cards("KC")


def test_position_from_layout_dispatches_to_clover() -> None:
    position = position_from_layout(deal("alexander", 7))
    assert isinstance(position, CloverPosition)
    assert len(position.fans) == 12


def test_from_layout_rejects_other_families() -> None:
    with pytest.raises(LayoutError):
        CloverPosition.from_layout(deal("thirteen", 1))


# --- foundations -----------------------------------------------------------------------------


def test_foundation_directions() -> None:
    position = small_position()
    assert position.foundation_next("H") == Card.parse("2H")
    assert position.foundation_next("D") == Card.parse("2D")
    assert position.foundation_next("S") == Card.parse("4S")
    assert position.foundation_next("C") == Card.parse("4C")
    assert {s for s in SUITS if position.base_rank(s) == 1} == UP_SUITS
    full = deal("cloverleaf", 3)
    real = CloverPosition.from_layout(full)
    for suit in SUITS:
        expected_base = 1 if suit in UP_SUITS else 13
        assert real.foundation_cards(suit)[0] == Card(expected_base, suit)


def test_foundation_accepts_only_its_next_card() -> None:
    position = small_position()
    assert position.why_illegal(parse_move("1>F")) == "the Diamonds foundation needs 2D, not 4D"
    hearts = hearts_done_position()
    hearts.push(parse_move("FH>5"))
    hearts.push(parse_move("5>F"))
    assert hearts.foundation_cards("H") == cards("AH 2H 3H 4H")


def test_complete_foundation_accepts_nothing() -> None:
    position = hearts_done_position()
    assert position.foundation_next("H") is None
    position.push(parse_move("FH>5"))  # 4H to an empty fan, exempt for now
    assert position.fans[4] == cards("4H")
    assert position.why_illegal(parse_move("5>F")) is None


# --- fan moves -------------------------------------------------------------------------------


def test_legal_moves_of_a_hand_made_position() -> None:
    position = small_position()
    expected = {
        "1>2", "1>3", "2>1", "3>1", "3>9", "3>10", "4>5", "4>9", "4>10", "5>4", "6>9", "6>10",
        "FC>9", "FC>10", "FD>9", "FD>10", "FH>9", "FH>10", "FS>9", "FS>10",
    }  # fmt: skip
    moves = [str(m) for m in position.legal_moves()]
    assert len(moves) == len(set(moves))
    assert set(moves) == expected


def test_no_wrapping_between_ace_and_top_rank() -> None:
    fans = [cards("2D 2H AH"), cards("3D 5H"), cards("4D 3H 4H"), cards("5D")]
    foundations = {"FC": cards("5C 4C 3C 2C AC"), "FD": cards("AD"), "FS": cards("5S 4S 3S 2S AS")}
    position = CloverPosition(fans, foundations, ranks=5, automatic=False)
    reason = "5H does not go on AH (same suit, one rank apart)"
    assert position.why_illegal(parse_move("2>1")) == reason
    assert position.why_illegal(parse_move("1>2")) is not None
    assert position.is_legal(parse_move("3>2"))  # 4H on 5H
    assert position.is_legal(parse_move("1>F"))  # AH to the empty Hearts foundation


def test_only_ace_or_top_rank_on_an_empty_fan() -> None:
    position = small_position()
    assert position.why_illegal(parse_move("7>9")) == "only an Ace or a 5 may go on an empty fan"
    assert position.is_legal(parse_move("4>9"))  # AC
    assert position.is_legal(parse_move("6>9"))  # 5H, the top rank of this deck
    real = CloverPosition.from_layout(deal("cloverleaf", 1))
    with_space = CloverPosition([*real.fans, []], {s: real.foundation_cards(s) for s in SUITS})
    reason = with_space.why_illegal(parse_move("1>17"))  # 8H
    assert reason == "only an Ace or a K may go on an empty fan"


def test_reasons_for_illegal_moves() -> None:
    position = small_position()
    reasons = {
        "3+7+12": "only single-card moves exist in this game",
        "F>7": "name the foundation: FC, FD, FH, FS, not 'F'",
        "11>1": "there is no fan 11 (fans are 1..10)",
        "1>11": "there is no fan 11 (fans are 1..10)",
        "9>1": "fan 9 is empty",
        "1>1": "a card cannot move onto its own fan",
        "7>8": "3H does not go on 3S (same suit, one rank apart)",
    }
    for text, reason in reasons.items():
        assert position.why_illegal(parse_move(text)) == reason
    with pytest.raises(IllegalMoveError, match="'7>8'"):
        position.push_checked(parse_move("7>8"))
    assert position.why_illegal(Group((1, 2))) is not None


# --- foundation returns and the exemption ----------------------------------------------------


def test_returned_card_is_exempt_until_the_next_player_move() -> None:
    position = small_position()
    position.push(parse_move("FH>9"))  # AH to an empty fan; FH accepts AH again but waits
    assert position.fans[8] == cards("AH")
    assert position.foundation_cards("H") == []
    assert position.why_illegal(parse_move("7>F")) == "the Hearts foundation needs AH, not 3H"
    position.push(parse_move("FS>10"))  # another return: now AH goes home, 5S waits
    assert position.fans[8] == [] and position.fans[9] == cards("5S")
    assert position.foundation_cards("H") == cards("AH")
    assert position.foundation_cards("S") == []
    position.push(parse_move("3>1"))  # a fan move (5D onto 4D): 5S goes home too
    assert position.fans[9] == []
    assert position.foundation_cards("S") == cards("5S")
    for _ in range(3):
        position.pop()
    assert position.key() == small_position().key()


def test_returned_card_may_be_played_back_by_the_player() -> None:
    position = small_position()
    position.push(parse_move("FD>9"))
    assert position.is_legal(parse_move("9>F"))
    position.push(parse_move("9>F"))
    assert position.key() == small_position().key()


def test_emptied_foundation_accepts_only_its_base() -> None:
    position = small_position()
    position.push(parse_move("FS>9"))
    assert position.foundation_top("S") is None
    assert position.foundation_next("S") == Card.parse("5S")
    assert position.why_illegal(parse_move("8>F")) == "the Spades foundation needs 5S, not 3S"
    assert not any(m.src == "FS" for m in position.legal_moves())


def test_returned_chain_goes_home_after_a_fan_move() -> None:
    position = hearts_done_position()
    before = position.key()
    position.push(parse_move("FH>5"))  # 4H to an empty fan
    position.push(parse_move("FH>5"))  # 3H onto 4H
    assert position.fans[4] == cards("4H 3H")
    assert position.foundation_cards("H") == cards("AH 2H")
    position.push(parse_move("1>6"))  # AS to the other empty fan: 3H, then 4H go home
    assert position.fans[4] == []
    assert position.foundation_cards("H") == cards("AH 2H 3H 4H")
    position.pop()
    assert position.fans[4] == cards("4H 3H")
    position.pop()
    position.pop()
    assert position.key() == before


# --- properties over random play -------------------------------------------------------------


def random_start(data: st.DataObject) -> CloverPosition:
    if data.draw(st.booleans(), label="real deal"):
        preset = data.draw(st.sampled_from(PRESETS), label="preset")
        number = data.draw(st.integers(1, 10**20 - 1), label="deal")
        return CloverPosition.from_layout(deal(preset, number))
    ranks = data.draw(st.integers(2, 7), label="ranks")
    fans = data.draw(st.integers(1, 8), label="fans")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    return random_tiny_clover_deal(random.Random(seed), ranks, fans)


def check_invariants(position: CloverPosition) -> None:
    deck = Counter(Card(r, s) for s in SUITS for r in range(1, position.ranks + 1))
    assert Counter(all_cards(position)) == deck
    # Rebuilding validates every foundation's sequence (raises LayoutError otherwise).
    copy = position.copy()
    assert copy.key() == position.key()
    if position.is_won():
        assert not any(position.fans)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_playouts_keep_every_card_and_pop_restores(data: st.DataObject) -> None:
    position = random_start(data)
    history = []
    for _ in range(data.draw(st.integers(0, 40), label="length")):
        moves = list(position.legal_moves())
        if not moves:
            break
        for move in moves:  # every legal move is undone exactly
            key = position.key()
            position.push(move)
            check_invariants(position)
            position.pop()
            assert position.key() == key
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        history.append((position.key(), position.to_layout("cloverleaf"), move))
        position.push(move)
        check_invariants(position)
    assert position.move_stack == [move for _, _, move in history]
    for key, layout, move in reversed(history):
        assert position.pop() == move
        assert position.key() == key
        assert position.to_layout("cloverleaf") == layout


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_legal_moves_agree_with_why_illegal(data: st.DataObject) -> None:
    position = random_start(data)
    for _ in range(data.draw(st.integers(0, 15), label="length")):
        moves = list(position.legal_moves())
        legal = set(moves)
        assert len(legal) == len(moves)
        for move in every_transfer(position):
            assert (position.why_illegal(move) is None) == (move in legal), move
        if not moves:
            assert position.is_won() or position.is_blocked()
            break
        position.push(moves[data.draw(st.integers(0, len(moves) - 1), label="move")])


def test_won_tiny_games_have_every_card_on_the_foundations() -> None:
    rng = random.Random(7)
    won = 0
    for _ in range(40):
        position = random_tiny_clover_deal(rng, 4, 3)
        route = solve_exhaustively(position).route
        if route is None:
            continue
        for move in route:
            position.push_checked(move)
        assert position.is_won() and not position.is_blocked()
        assert not any(position.fans)
        assert all(position.heights[s] == 4 for s in SUITS)
        won += 1
    assert won > 10


def test_blocked_position() -> None:
    # 3-rank game: every foundation's next card lies under a card with nowhere to go.
    fans = [cards("2H 3H"), cards("2D 3D"), cards("2C AC"), cards("2S AS")]
    position = CloverPosition(fans, foundation_bases(3), ranks=3)
    assert list(position.legal_moves()) == []
    assert position.is_blocked() and not position.is_won()


# --- layouts, construction, rendering ---------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_layout_json_round_trip(preset: str) -> None:
    position = CloverPosition.from_layout(deal(preset, 42))
    position.push(next(position.legal_moves()))
    layout = position.to_layout(preset, 42)
    again = CloverPosition.from_layout(Layout.from_json(layout.to_json()))
    assert again.key() == position.key()
    assert list(layout.to_json()["foundations"]) == ["FC", "FD", "FH", "FS"]


def test_construction_errors() -> None:
    good = small_position()
    fans = [list(f) for f in good.fans]
    bases = foundation_bases(5)
    with pytest.raises(LayoutError, match="duplicate card 4D"):
        CloverPosition([*fans, cards("4D")], bases, ranks=5)
    with pytest.raises(LayoutError, match="missing"):
        CloverPosition(fans[1:], bases, ranks=5)
    with pytest.raises(LayoutError, match="out of sequence"):
        CloverPosition(fans, {**bases, "FH": cards("AH 3H")}, ranks=5)
    with pytest.raises(LayoutError, match="not in a deck"):
        CloverPosition([*fans, cards("6H")], bases, ranks=5)
    with pytest.raises(LayoutError, match="unknown foundation"):
        CloverPosition(fans, {**bases, "F": []}, ranks=5)
    by_suit = {name[-1]: found for name, found in bases.items()}
    assert CloverPosition(fans, by_suit, ranks=5).key() == good.key()


def test_render_shows_suit_symbols_and_colours() -> None:
    position = CloverPosition.from_layout(deal("cloverleaf", 1))
    plain = position.render()
    assert "♥" in plain and "♠" in plain and "\x1b[" not in plain
    assert plain.splitlines()[0].startswith("FC K♣")
    assert len(plain.splitlines()) == 1 + 16
    coloured = position.render(color=True)
    assert "\x1b[31m2♥\x1b[0m" in coloured and "\x1b[31mK♣" not in coloured
