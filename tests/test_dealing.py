"""Numbered deals: PySolFC compatibility (pysol-cards as the oracle) and every preset's shape."""

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from cloversolve.cards import Card, full_deck
from cloversolve.dealing import DealNumberError, check_deal_number, deal, shuffled_talon
from cloversolve.presets import PRESETS

_sample = random.Random(20261130)
MS_NUMBERS = sorted({1, 2, 31998, 31999} | set(_sample.sample(range(3, 31998), 520)))
MT_NUMBERS = sorted(
    {32001, 32002, 10**19, 10**20 - 1} | {_sample.randrange(32003, 10**20 - 1) for _ in range(60)}
)


def pysol_piles(game: str, number: int) -> list[list[str]]:
    text = Game(game, number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    return [line.split() for line in text.splitlines() if not line.startswith("Foundations")]


@pytest.mark.parametrize(
    ("preset", "game"), [("blackhole", "black_hole"), ("allinarow", "all_in_a_row")]
)
@pytest.mark.parametrize("numbers", [MS_NUMBERS, MT_NUMBERS], ids=["lcg", "mersenne"])
def test_layouts_equal_pysol_cards(preset: str, game: str, numbers: list[int]) -> None:
    assert len(numbers) >= 50
    for number in numbers:
        ours = [[str(c) for c in pile] for pile in deal(preset, number).piles]
        assert ours == pysol_piles(game, number), number


def test_enough_oracle_numbers() -> None:
    assert len(MS_NUMBERS) >= 500 and {1, 31999} <= set(MS_NUMBERS)
    assert len(MT_NUMBERS) >= 50 and 10**19 in MT_NUMBERS


def test_thirteen_deal_1_is_microsoft_freecell_deal_1() -> None:
    freecell_1 = "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C"
    layout = deal("thirteen", 1)
    dealt = [str(layout.piles[i % 13][i // 13]) for i in range(52)]
    assert dealt[:25] == freecell_1.split()


@pytest.mark.parametrize("preset", sorted(PRESETS))
@given(number=st.integers(1, 10**20 - 1))
def test_every_card_dealt_once(preset: str, number: int) -> None:
    spec = PRESETS[preset]
    layout = deal(preset, number)
    assert Counter(layout.all_cards()) == Counter(full_deck(without_ranks=spec.dropped_ranks))
    layout.validate()
    if spec.family == "fifteen":
        assert len(layout.cells) == 16 and len(layout.stock) == 32
    else:
        assert len(layout.piles) == spec.piles
        assert {len(p) for p in layout.piles} == {spec.rows}


def test_clover_foundations_start_with_their_base() -> None:
    for preset in ("cloverleaf", "alexander"):
        found = deal(preset, 7).foundation_map
        assert found == {
            "FC": (Card.parse("KC"),),
            "FD": (Card.parse("AD"),),
            "FH": (Card.parse("AH"),),
            "FS": (Card.parse("KS"),),
        }


def test_hole_foundations() -> None:
    assert deal("blackhole", 9).foundation_map == {"F": (Card.parse("AS"),)}
    layout = deal("allinarow", 9)
    assert layout.foundation_map == {"F": ()}
    assert layout.piles[-1][-1] == Card.parse("AS")


def test_fifteen_deals_grid_then_stock_in_dealing_order() -> None:
    talon = shuffled_talon(5, full_deck(without_ranks=frozenset({10})))
    layout = deal("fifteen", 5)
    assert list(layout.cells) + list(layout.stock) == talon


def test_talon_is_reverse_of_pysolfc_shuffle() -> None:
    # The LCG branch rearranges only 52-card decks: the 48-card talon differs from MT order.
    assert shuffled_talon(31999, full_deck()) != shuffled_talon(32000, full_deck())
    assert deal("thirteen", 32000) != deal("thirteen", 31999)


@pytest.mark.parametrize("bad", [0, -1, 10**20, "0", "1.5", "abc", "", "१२", 1.0, True, None])
def test_bad_deal_numbers(bad: object) -> None:
    with pytest.raises(DealNumberError) as error:
        check_deal_number(bad)
    assert repr(bad) in str(error.value)


def test_deal_number_text_and_bounds() -> None:
    assert check_deal_number("42") == 42
    assert check_deal_number(10**20 - 1) == 10**20 - 1
    with pytest.raises(DealNumberError):
        deal("thirteen", 10**20)
