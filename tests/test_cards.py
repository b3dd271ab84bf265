"""Cards: parsing, formatting, ids and decks."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cloversolve.core.cards import RANK_LETTERS, SUITS, Card, CardParseError, full_deck

cards = st.builds(Card, st.integers(1, 13), st.sampled_from(SUITS))


@given(cards)
def test_parse_format_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card


@given(st.integers(0, 51))
def test_id_round_trip(card_id: int) -> None:
    assert Card.from_id(card_id).id == card_id


def test_examples() -> None:
    assert Card.parse("TD") == Card(10, "D")
    assert str(Card(1, "S")) == "AS"
    assert Card.parse("AS").id == 13  # PySolFC: spades are suit 1
    assert Card.parse("KC").symbol() == "K♣"


@pytest.mark.parametrize("text", ["", "T", "10D", "1D", "TX", "td", "AS ", None, 12])
def test_malformed_card_quotes_input(text: object) -> None:
    with pytest.raises(CardParseError) as error:
        Card.parse(text)  # type: ignore[arg-type]
    assert repr(text) in str(error.value)
    assert isinstance(error.value, ValueError)


def test_full_deck_order_and_drops() -> None:
    deck = full_deck()
    assert len(deck) == 52 == len(set(deck))
    assert [c.id for c in deck] == list(range(52))
    no_tens = full_deck(without_ranks=frozenset({10}))
    assert len(no_tens) == 48 and all(c.rank != 10 for c in no_tens)
    assert [str(c) for c in full_deck(ranks=2)] == ["AC", "2C", "AS", "2S", "AH", "2H", "AD", "2D"]
    assert set(RANK_LETTERS) == {str(c)[0] for c in deck}


def test_full_deck_is_a_fresh_list_each_time() -> None:
    deck = full_deck(without_ranks=frozenset({10}))
    deck.clear()
    assert len(full_deck(without_ranks=frozenset({10}))) == 48
    assert full_deck(without_ranks={10}) == full_deck(without_ranks=frozenset({10}))  # type: ignore[arg-type]


NO_CARDS = [(99, "X"), (0, "H"), (14, "C"), (1, "h"), (True, "H"), (1.0, "H"), (5, ["H"])]


@pytest.mark.parametrize("rank, suit", NO_CARDS)
def test_a_value_that_is_no_card_is_refused_when_the_card_is_made(
    rank: object, suit: object
) -> None:
    bad = rank if not isinstance(rank, int) or not 1 <= rank <= 13 or rank is True else suit
    for make in (
        lambda: Card(rank, suit),  # type: ignore[arg-type]
        lambda: Card(rank=rank, suit=suit),  # type: ignore[arg-type]
        lambda: Card._make([rank, suit]),
        lambda: Card(7, "H")._replace(rank=rank, suit=suit),
    ):
        with pytest.raises(ValueError, match="not a card") as refused:
            make()
        assert repr(bad) in str(refused.value)


@pytest.mark.parametrize("rank, suit", NO_CARDS)
def test_a_value_that_is_no_card_has_no_symbol_and_says_why(rank: object, suit: object) -> None:
    card = tuple.__new__(Card, (rank, suit))  # (made past the check)
    with pytest.raises(ValueError, match="not a card"):
        card.symbol()
    assert str(card) == repr(card) == f"Card(rank={rank!r}, suit={suit!r})"
