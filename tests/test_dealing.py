"""Numbered deals: PySolFC compatibility (pysol-cards as the oracle) and every preset's shape.

``pysol-cards`` deals ``blackhole`` and ``allinarow`` itself. For the other presets the
outside dealer here takes pysol-cards' deck, its PySolFC generators (``LCRandom31`` with the
Microsoft order for 1..31999, ``MTRandom`` beyond) and its shuffle hook, and deals the talon
as RULES.md states each preset's dealing order; nothing of cloversolve's dealing is used.
"""

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysol_cards.cards import CardRenderer, createCards, ms_rearrange
from pysol_cards.deal_game import Game
from pysol_cards.random import LCRandom31, MTRandom
from pysol_cards.random_base import RandomBase

from cloversolve.core.cards import Card, full_deck
from cloversolve.core.deal_numbers import DealNumberError, check_deal_number
from cloversolve.games.dealing import deal, shuffled_talon
from cloversolve.games.registry import PRESETS

_sample = random.Random(20261130)
MS_NUMBERS = sorted({1, 2, 31998, 31999} | set(_sample.sample(range(3, 31998), 520)))
MT_NUMBERS = sorted(
    {32001, 32002, 10**19, 10**20 - 1} | {_sample.randrange(32003, 10**20 - 1) for _ in range(60)}
)


def pysol_piles(game: str, number: int) -> list[list[str]]:
    dealer = PySolFCGame(game, number, RandomBase.DEALS_PYSOLFC)
    text = dealer.calc_layout_string(CardRenderer(True))
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


#: Layouts of the outside dealer below for a few numbers of each preset, stored so that a
#: change in the oracle itself (a pysol-cards release) shows too.
VECTORS = Path(__file__).parent / "data" / "pysolfc_deals.json"
RANK_LETTERS = "0A23456789TJQK"
CLOVER_BASES = {"AH", "AD", "KS", "KC"}


def pysolfc_shuffle(number: int, cards: list) -> list:
    """pysol-cards' cards shuffled with PySolFC's generator for game ``number``, in dealing
    order (PySolFC deals from the end of its list). pysol-cards' own ``shuffle`` also takes
    the congruential generator for 32000, which PySolFC does not (RULES.md)."""
    microsoft = number <= 31999
    generator = LCRandom31() if microsoft else MTRandom()
    generator.setSeed(number)
    shuffled = generator.shuffle(ms_rearrange(cards) if microsoft else cards)
    return shuffled[::-1]


class PySolFCGame(Game):
    """pysol-cards' dealer for a game, with PySolFC's generator choice for 32000."""

    def deal(self) -> None:
        self.new_cards(pysolfc_shuffle(self.game_num, createCards(1)))


def pysol_talon(number: int, without_tens: bool = False, bases_first: bool = False) -> list[str]:
    """:func:`pysolfc_shuffle` of the deck as text. ``bases_first``: the clover games'
    shuffle hook (pysol-cards' ``_shuffleHookMoveToBottom``) puts the foundation bases first."""
    cards = [c for c in createCards(1) if not (without_tens and c.rank == 10)]
    names = [RANK_LETTERS[c.rank] + c.suit_s() for c in pysolfc_shuffle(number, cards)]
    if not bases_first:
        return names
    hook = PySolFCGame("black_hole", number, RandomBase.DEALS_PYSOLFC)._shuffleHookMoveToBottom
    order = hook(list(range(len(names))), lambda i: (names[i] in CLOVER_BASES, 0), 4)
    return [names[i] for i in order]


def outside_layout(preset: str, number: int) -> dict[str, list[list[str]] | list[str]]:
    """The layout RULES.md describes, dealt from :func:`pysol_talon` (no cloversolve code)."""
    if preset in ("blackhole", "allinarow"):
        game = {"blackhole": "black_hole", "allinarow": "all_in_a_row"}[preset]
        return {"piles": pysol_piles(game, number)}
    if preset == "fifteen":
        talon = pysol_talon(number, without_tens=True)
        return {"cells": talon[:16], "stock": talon[16:]}
    piles = {"thirteen": 13, "thirteen-return": 13, "cloverleaf": 16, "alexander": 12}[preset]
    talon = pysol_talon(number, bases_first=piles in (12, 16))
    if piles in (12, 16):
        assert set(talon[:4]) == CLOVER_BASES
        talon = talon[4:]
    return {"piles": [talon[i::piles] for i in range(piles)]}


def our_layout(preset: str, number: int) -> dict[str, list[list[str]] | list[str]]:
    layout = deal(preset, number)
    if layout.cells:
        return {"cells": [str(c) for c in layout.cells], "stock": [str(c) for c in layout.stock]}
    return {"piles": [[str(c) for c in pile] for pile in layout.piles]}


OUTSIDE_SAMPLE = sorted({1, 2, 31999, 32000, 10**20 - 1} | set(_sample.sample(MS_NUMBERS, 40)))
OUTSIDE_SAMPLE += sorted(_sample.sample(MT_NUMBERS, 20))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_deals_as_the_outside_dealer(preset: str) -> None:
    for number in OUTSIDE_SAMPLE:
        assert our_layout(preset, number) == outside_layout(preset, number), number


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_stored_vectors_match_both_dealers(preset: str) -> None:
    stored = json.loads(VECTORS.read_text())["deals"][preset]
    assert len(stored) >= 4 and {"1", "31999", "32000"} <= set(stored)
    for number, layout in stored.items():
        assert outside_layout(preset, int(number)) == layout, number
        assert our_layout(preset, int(number)) == layout, number


def test_clover_foundation_cards_are_taken_out_before_dealing() -> None:
    # Dealing the four base cards to the fans instead (no hook) would give other fans.
    for number in (1, 40000):
        plain = pysol_talon(number)
        fans = [[str(c) for c in pile] for pile in deal("cloverleaf", number).piles]
        dealt = [card for row in zip(*fans, strict=True) for card in row]
        assert dealt == [card for card in plain if card not in CLOVER_BASES]


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


@pytest.mark.parametrize("number", [1, 31999, 32000, 32001, 10**20 - 1])
@pytest.mark.parametrize("without_tens", [False, True])
def test_talon_is_reverse_of_pysolfc_shuffle(number: int, without_tens: bool) -> None:
    deck = full_deck(without_ranks=frozenset({10}) if without_tens else frozenset())
    talon = [str(c) for c in shuffled_talon(number, deck)]
    assert talon == pysol_talon(number, without_tens=without_tens)


def test_deal_32000_uses_the_mersenne_twister() -> None:
    # pysol-cards' own Game takes the congruential generator for 32000; PySolFC does not.
    generator = MTRandom()
    generator.setSeed(32000)
    shuffled = generator.shuffle(createCards(1))
    expected = [RANK_LETTERS[c.rank] + c.suit_s() for c in reversed(shuffled)]
    assert [str(c) for c in shuffled_talon(32000, full_deck())] == expected
    plain = Game("black_hole", 32000, RandomBase.DEALS_PYSOLFC).calc_layout_string
    assert pysol_piles("black_hole", 32000) != [
        line.split() for line in plain(CardRenderer(True)).splitlines()[1:]
    ]


@pytest.mark.parametrize("bad", [0, -1, 10**20, "0", "1.5", "abc", "", "१२", 1.0, True, None])
def test_bad_deal_numbers(bad: object) -> None:
    with pytest.raises(DealNumberError) as error:
        check_deal_number(bad)
    assert repr(bad) in str(error.value)


LAYOUT_LIKE = ['[[["JD", "QC"]]]', ' {"preset": "thirteen"}', [["JD"]], {"piles": []}]


@pytest.mark.parametrize("given", LAYOUT_LIKE)
def test_a_layout_given_as_a_deal_number_is_called_a_layout(given: object) -> None:
    with pytest.raises(DealNumberError, match="^a layout was given where a deal number goes: "):
        check_deal_number(given)


def test_a_layout_object_given_to_deal_is_called_a_layout() -> None:
    layout = deal("thirteen", 1)
    with pytest.raises(DealNumberError, match="a layout was given where a deal number goes"):
        deal("thirteen", layout)  # type: ignore[arg-type]
    with pytest.raises(DealNumberError, match=r"^bad deal number: \[1\] \(expected a whole"):
        check_deal_number([1])  # (a list of numbers is no layout)


def test_deal_number_text_and_bounds() -> None:
    assert check_deal_number("42") == 42
    assert check_deal_number(10**20 - 1) == 10**20 - 1
    with pytest.raises(DealNumberError):
        deal("thirteen", 10**20)
