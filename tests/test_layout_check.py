"""Every layout given to solve, hint and replay is checked: the preset's record, the family's
rules, and for a numbered layout its deal."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cloversolve.cli.main import main
from cloversolve.core.cards import Card, full_deck
from cloversolve.games.dealing import deal
from cloversolve.games.layout import LAYOUT_ERROR_CODES, Layout, LayoutError
from cloversolve.games.registry import PRESETS, find_preset
from cloversolve.rules import position_from_layout
from cloversolve.rules.layout_check import check_layout
from cloversolve.solving.replay import load_layout, replay
from cloversolve.solving.solver import hint, solve

PILE_PRESETS = sorted(name for name, spec in PRESETS.items() if spec.family != "fifteen")


def card(text: str) -> Card:
    return Card.parse(text)


def played(preset: str, number: int, moves: int, seed: int = 0) -> Layout:
    """The layout after up to ``moves`` random legal moves from deal ``number``."""
    chooser = random.Random(seed)
    position = position_from_layout(deal(preset, number))
    for _ in range(moves):
        legal = list(position.legal_moves())
        if not legal:
            break
        position.push(chooser.choice(legal))
    return position.to_layout(preset, number)


def with_pile(layout: Layout, index: int, pile: tuple[Card, ...]) -> Layout:
    piles = list(layout.piles)
    piles[index] = pile
    return dataclasses.replace(layout, piles=tuple(piles))


def with_foundation(layout: Layout, name: str, cards: tuple[Card, ...]) -> Layout:
    found = tuple((n, cards if n == name else c) for n, c in layout.foundations)
    return dataclasses.replace(layout, foundations=found)


# -- the preset's record: fields, counts, cards ----------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_an_empty_layout_is_refused_everywhere(preset: str) -> None:
    empty = Layout(preset)
    with pytest.raises(LayoutError):
        solve(preset, empty)
    with pytest.raises(LayoutError):
        hint(preset, empty)
    with pytest.raises(LayoutError):
        replay(preset, empty, "")


def test_empty_piles_are_not_a_won_game() -> None:
    for preset, piles in (("blackhole", 17), ("thirteen", 13), ("cloverleaf", 16)):
        with pytest.raises(LayoutError, match="missing"):
            solve(preset, Layout(preset, piles=((),) * piles))


def past_the_check(rank: object, suit: object) -> Card:
    """A :class:`Card` of any values, made past its check (as code that builds tuples may)."""
    return tuple.__new__(Card, (rank, suit))


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (past_the_check(14, "C"), "rank 14"),
        (past_the_check(0, "C"), "rank 0"),
        (past_the_check(True, "C"), "rank True"),
        (past_the_check(1.0, "C"), "rank 1.0"),
        (past_the_check(5, "X"), "suit 'X'"),
        (past_the_check(5, "CD"), "suit 'CD'"),
        (past_the_check(5, None), "suit None"),
        ("AS", "not a card: 'AS'"),
        ((1, "S"), r"not a card: \(1, 'S'\)"),
        (None, "not a card: None"),
    ],
)
def test_a_bad_card_is_named(bad: object, message: str) -> None:
    layout = deal("thirteen", 1)
    broken = with_pile(layout, 0, (bad, *layout.piles[0][1:]))  # type: ignore[arg-type]
    with pytest.raises(LayoutError, match=message):
        solve("thirteen", broken)
    fifteen = deal("fifteen", 1)
    cells = dataclasses.replace(fifteen, cells=(bad, *fifteen.cells[1:]))
    if bad is not None:
        with pytest.raises(LayoutError, match=message):
            replay("fifteen", cells, "")


def test_a_bad_card_has_a_readable_repr() -> None:
    assert repr(past_the_check(14, "C")) == "Card(rank=14, suit='C')"
    assert repr(Card.parse("TD")) == "Card.parse('TD')"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"piles": "abc"}, "piles must be a tuple or list, got 'abc'"),
        ({"piles": None}, "piles must be"),
        ({"piles": ("abc",) * 13}, "pile 1 must be"),
        ({"foundations": "F"}, "foundations must be"),
        ({"foundations": (("F",),)}, "pair"),
        ({"foundations": (("FH", ()),)}, "unknown foundation 'FH'"),
        ({"foundations": (("F", ()), ("F", ()))}, "listed twice"),
        ({"foundations": (("F", "AS"),)}, "foundation F must be"),
        ({"cells": (None,) * 16}, "not grid cells"),
        ({"stock": (Card(1, "S"),)}, "not grid cells"),
        ({"preset": "nosuch"}, "unknown preset"),
        ({"number": "7"}, "number must be an integer"),
        ({"number": True}, "number must be an integer"),
    ],
)
def test_malformed_fields_raise_layout_errors(change: dict, message: str) -> None:
    layout = dataclasses.replace(deal("thirteen", 1), **change)
    with pytest.raises(LayoutError, match=message):
        check_layout(layout)


def test_pile_and_cell_counts_follow_the_preset() -> None:
    layout = deal("thirteen", 1)
    twelve = dataclasses.replace(
        layout, piles=layout.piles[:11] + (layout.piles[11] + layout.piles[12],)
    )
    with pytest.raises(LayoutError, match="needs 13 piles, got 12"):
        solve("thirteen", twelve, max_nodes=1000)
    fifteen = deal("fifteen", 1)
    with pytest.raises(LayoutError, match="needs 16 cells, got 15"):
        solve("fifteen", dataclasses.replace(fifteen, cells=fifteen.cells[:15]))
    with pytest.raises(LayoutError, match="not piles"):
        solve("fifteen", dataclasses.replace(fifteen, piles=((),)))


def test_duplicates_and_dropped_ranks_are_refused() -> None:
    layout = deal("alexander", 4)
    doubled = with_pile(layout, 0, (*layout.piles[0], layout.piles[1][0]))
    with pytest.raises(LayoutError, match="duplicate card"):
        solve("alexander", doubled)
    fifteen = deal("fifteen", 4)
    with pytest.raises(LayoutError, match="TD is not in the fifteen deck"):
        solve("fifteen", dataclasses.replace(fifteen, stock=(*fifteen.stock, card("TD"))))


# -- the family's rules: foundation order and what play can leave --------------------------


@pytest.mark.parametrize(
    ("preset", "name", "cards", "message"),
    [
        ("thirteen", "F", "2C", "breaks the A, 2, 3"),
        ("thirteen-return", "F", "AC 3D", "breaks the A, 2, 3"),
        ("blackhole", "F", "", "must start with AS"),
        ("blackhole", "F", "AH", "must start with AS"),
        ("blackhole", "F", "AS 5C", "5C lies on AS"),
        ("allinarow", "F", "5C 7D", "7D lies on 5C"),
        ("cloverleaf", "FH", "2H", "out of sequence"),
        ("alexander", "FC", "KC JC", "out of sequence"),
        ("alexander", "FS", "AS", "out of sequence"),
        ("alexander", "FC", "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC KD", "out of sequence"),
        ("cloverleaf", "FH", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS", "out of sequence"),
    ],
)
def test_foundations_must_be_in_build_order(
    preset: str, name: str, cards: str, message: str
) -> None:
    layout = deal(preset, 9)
    chosen = tuple(card(t) for t in cards.split())
    loose = tuple(c for _, found in layout.foundations for c in found if c not in chosen)
    piles = [tuple(c for c in pile if c not in chosen) for pile in layout.piles]
    piles[0] += loose
    names = find_preset(preset).foundation_names
    foundations = tuple((n, chosen if n == name else ()) for n in names)
    broken = Layout(preset, None, piles=tuple(piles), foundations=foundations)
    with pytest.raises(LayoutError, match=message):
        solve(preset, broken)


def test_fifteen_removed_cards_must_form_groups() -> None:
    layout = deal("fifteen", 3)
    hand_made = dataclasses.replace(layout, number=None)
    alone = hand_made.stock[-1]
    with pytest.raises(LayoutError, match="groups of 15|Jack, Queen and King"):
        solve("fifteen", dataclasses.replace(hand_made, stock=hand_made.stock[:-1]))
    assert alone not in dataclasses.replace(hand_made, stock=hand_made.stock[:-1]).all_cards()
    six_nine = {card("6C"), card("9C")}
    grid_and_stock = [c for c in (*hand_made.cells, *hand_made.stock) if c not in six_nine]
    removed_a_group = dataclasses.replace(
        hand_made, cells=tuple(grid_and_stock[:16]), stock=tuple(grid_and_stock[16:])
    )
    assert check_layout(removed_a_group) is removed_a_group


def test_fifteen_empty_cells_only_once_the_stock_is_empty() -> None:
    layout = deal("fifteen", 3)
    with pytest.raises(LayoutError, match="empty cell"):
        solve("fifteen", dataclasses.replace(layout, number=None, cells=(None, *layout.cells[1:])))


# -- numbered layouts: the number's range and its deal ------------------------------------


@pytest.mark.parametrize("number", [0, -5, 10**20, 2**70])
def test_a_layout_number_out_of_range_is_refused(number: int) -> None:
    layout = dataclasses.replace(deal("thirteen", 1), number=number)
    with pytest.raises(LayoutError, match="bad deal number"):
        solve("thirteen", layout)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_another_deals_number_is_refused(preset: str) -> None:
    layout = dataclasses.replace(deal(preset, 1), number=2)
    with pytest.raises(LayoutError, match=f"not a position of {preset} deal 2"):
        load_layout(preset, layout)
    with pytest.raises(LayoutError, match="deal 2"):
        load_layout(preset, dataclasses.replace(played(preset, 1, 10), number=2))
    assert load_layout(preset, dataclasses.replace(deal(preset, 1), number=None)).number is None


@pytest.mark.parametrize(
    ("number", "message"),
    [
        (2, "not a position of thirteen deal 2"),
        (2**64 - 1, f"not a position of thirteen deal {2**64 - 1}"),
        (0, "bad deal number: 0"),
        (-5, "bad deal number: -5"),
    ],
)
def test_a_wrong_number_in_a_layout_file_is_one_line(tmp_path, number: int, message: str) -> None:
    data = deal("thirteen", 1).to_json()
    data["number"] = number
    path = tmp_path / "layout.json"
    path.write_text(json.dumps(data))
    for command in ("solve", "hint", "replay"):
        result = CliRunner().invoke(main, [command, "thirteen", "--layout", str(path)])
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1
        assert result.output.startswith("cloversolve: error: ")
        assert message in result.output


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    number=st.one_of(st.integers(1, 31999), st.integers(32000, 10**19)),
    moves=st.integers(0, 60),
    seed=st.integers(0, 2**32),
)
def test_every_position_reached_by_play_keeps_its_number(
    preset: str, number: int, moves: int, seed: int
) -> None:
    """Soundness: the deal check never refuses a position that legal play reaches."""
    layout = played(preset, number, moves, seed)
    assert load_layout(preset, layout) == layout
    assert load_layout(preset, layout.to_json()) == layout


def test_a_pile_bottom_no_move_can_change_is_refused() -> None:
    layout = deal("thirteen", 5)
    swapped = with_pile(with_pile(layout, 0, layout.piles[1]), 1, layout.piles[0])
    with pytest.raises(LayoutError, match="pile 1 holds"):
        load_layout("thirteen", swapped)
    assert load_layout("thirteen", dataclasses.replace(swapped, number=None)).number is None


def test_a_card_the_rules_cannot_place_is_refused() -> None:
    layout = deal("thirteen", 5)
    top = layout.piles[0][-1]
    index = next(i for i in range(1, 13) if abs(layout.piles[i][-1].rank - top.rank) not in (1, 12))
    onto = layout.piles[index]
    moved = with_pile(with_pile(layout, 0, layout.piles[0][:-1]), index, (*onto, top))
    with pytest.raises(LayoutError, match=f"pile {index + 1} holds {top} on {onto[-1]}"):
        load_layout("thirteen", moved)


def test_clover_fan_bottoms_change_only_to_aces_and_kings() -> None:
    layout = deal("cloverleaf", 8)
    a, b = [i for i, fan in enumerate(layout.piles) if fan[0].rank not in (1, 13)][:2]
    swapped = with_pile(with_pile(layout, a, layout.piles[b]), b, layout.piles[a])
    with pytest.raises(LayoutError, match=f"fan {a + 1} holds"):
        load_layout("cloverleaf", swapped)


def _adjacent_top_pair(preset: str) -> tuple[int, Layout, int]:
    for number in range(1, 200):
        layout = deal(preset, number)
        for index, pile in enumerate(layout.piles):
            if abs(pile[-1].rank - pile[-2].rank) in (1, 12):
                return number, layout, index
    raise AssertionError("no pile with rank neighbours on top")


def test_hole_cards_leave_each_fan_top_down() -> None:
    number, layout, index = _adjacent_top_pair("allinarow")
    pile = layout.piles[index]
    lower, upper = pile[-2], pile[-1]
    right = with_foundation(with_pile(layout, index, pile[:-2]), "F", (upper, lower))
    assert load_layout("allinarow", right) == right
    wrong = with_foundation(with_pile(layout, index, pile[:-2]), "F", (lower, upper))
    with pytest.raises(LayoutError, match=f"{lower} reached the foundation before {upper}"):
        load_layout("allinarow", wrong)
    assert check_layout(dataclasses.replace(wrong, number=None)).number is None


def test_hole_fans_only_shrink() -> None:
    layout = played("blackhole", 11, 0)
    grown = with_pile(
        with_pile(layout, 0, layout.piles[0][:-1]), 1, (*layout.piles[1], layout.piles[0][-1])
    )
    with pytest.raises(LayoutError, match="fan 2 holds"):
        load_layout("blackhole", grown)


def test_fifteen_stock_and_cells_follow_the_deal() -> None:
    layout = deal("fifteen", 6)
    stock = layout.stock
    shuffled = dataclasses.replace(layout, stock=(stock[1], stock[0], *stock[2:]))
    with pytest.raises(LayoutError, match="stock is not the end part"):
        load_layout("fifteen", shuffled)
    swapped = dataclasses.replace(
        layout, cells=(stock[-1], *layout.cells[1:]), stock=(*stock[:-1], layout.cells[0])
    )
    with pytest.raises(LayoutError, match="stock is not the end part|cell 1 holds"):
        load_layout("fifteen", swapped)
    traded = dataclasses.replace(
        layout, cells=(layout.cells[1], layout.cells[0], *layout.cells[2:])
    )
    with pytest.raises(LayoutError, match="cell 1 holds"):
        load_layout("fifteen", traded)


# -- random corruptions: a LayoutError, never another exception -----------------------------

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.builds(
        past_the_check, st.integers(-2, 16), st.sampled_from(["C", "D", "H", "S", "X", "", "cd"])
    ),
    st.lists(st.text(max_size=2), max_size=3),
    st.tuples(st.integers(0, 14), st.text(max_size=2)),
)


def assert_sound(preset: str, layout: Layout) -> None:
    """What an accepted layout must be, checked here without the layout checker: of the preset,
    made of the preset's cards, each once (all of them, but in ``fifteen`` the removed ones), a
    position the reference engine builds with the same cards (it may make automatic moves)."""
    spec = find_preset(preset)
    assert layout.preset == spec.name
    cards = layout.all_cards()
    assert all(type(c) is Card for c in cards) and len(set(cards)) == len(cards)
    deck = set(full_deck(without_ranks=spec.dropped_ranks))
    if spec.family == "fifteen":
        assert set(cards) <= deck and len(layout.cells) == 16
    else:
        assert set(cards) == deck and len(layout.piles) == spec.piles
    assert layout.number is None or type(layout.number) is int
    again = position_from_layout(layout).to_layout(preset, layout.number)
    assert sorted(map(str, again.all_cards())) == sorted(map(str, cards))


def assert_one_line_refusal(error: LayoutError) -> None:
    """What a refusal must be: one line that says what is wrong, with a documented code."""
    message = str(error)
    assert message.strip() and "\n" not in message, repr(message)
    assert error.code in LAYOUT_ERROR_CODES, error.code


def _corruptions(layout: Layout, data: st.DataObject) -> Layout:
    """``layout`` with one field, one pile or one card replaced by junk."""
    fields = [f.name for f in dataclasses.fields(Layout)]
    target = data.draw(st.sampled_from(fields))
    value = getattr(layout, target)
    if isinstance(value, tuple) and value and data.draw(st.booleans()):
        items = list(value)
        index = data.draw(st.integers(0, len(items) - 1))
        inner = items[index]
        if isinstance(inner, tuple) and inner and data.draw(st.booleans()):
            inner_items = list(inner)
            inner_index = data.draw(st.integers(0, len(inner_items) - 1))
            inner_items[inner_index] = data.draw(JUNK)
            items[index] = tuple(inner_items)
        else:
            items[index] = data.draw(JUNK)
        return dataclasses.replace(layout, **{target: tuple(items)})
    return dataclasses.replace(layout, **{target: data.draw(JUNK)})


@settings(max_examples=300, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), data=st.data())
def test_random_corruptions_raise_layout_errors_only(preset: str, data: st.DataObject) -> None:
    layout = played(preset, data.draw(st.integers(1, 40000)), data.draw(st.integers(0, 30)))
    corrupted = _corruptions(layout, data)
    try:
        check_layout(corrupted)
    except LayoutError as error:
        assert_one_line_refusal(error)
    else:
        assert_sound(preset, corrupted)


@settings(max_examples=200, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), data=st.data())
def test_a_lost_or_doubled_card_is_always_refused(preset: str, data: st.DataObject) -> None:
    layout = dataclasses.replace(
        played(preset, data.draw(st.integers(1, 40000)), data.draw(st.integers(0, 30))),
        number=data.draw(st.sampled_from([None, 1])),
    )
    cards = layout.all_cards()
    assume(cards)
    chosen = data.draw(st.sampled_from(cards))
    doubled = data.draw(st.booleans())
    if find_preset(preset).family == "fifteen":
        cells = tuple(None if c == chosen and not doubled else c for c in layout.cells)
        stock = tuple(c for c in layout.stock if c != chosen or doubled)
        stock = (*stock, chosen) if doubled else stock
        if None in cells and stock:
            cells, stock = tuple(c if c is not None else stock[0] for c in cells), stock[1:]
        broken = dataclasses.replace(layout, cells=cells, stock=stock)
    else:
        piles = tuple(tuple(c for c in pile if c != chosen or doubled) for pile in layout.piles)
        founds = tuple(
            (n, tuple(c for c in f if c != chosen or doubled)) for n, f in layout.foundations
        )
        if doubled:
            piles = ((*piles[0], chosen), *piles[1:])
        broken = dataclasses.replace(layout, piles=piles, foundations=founds)
    with pytest.raises(LayoutError):
        check_layout(broken)


JSON_JUNK = st.recursive(
    st.one_of(
        st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=3)
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), data=st.data())
def test_corrupted_layout_json_raises_layout_errors_only(preset: str, data: st.DataObject) -> None:
    """Replace one value anywhere in a layout's JSON (a field, a pile, a card) with junk."""
    document = played(preset, data.draw(st.integers(1, 40000)), data.draw(st.integers(0, 30)))
    node = document.to_json()
    root = node
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, dict | list) and child and data.draw(st.booleans()):
            node = child
            continue
        node[key] = data.draw(JSON_JUNK)
        break
    try:
        accepted = load_layout(preset, root)
    except LayoutError as error:
        assert_one_line_refusal(error)
    else:
        assert_sound(preset, accepted)
        assert without_empty_parts(accepted.to_json()) == without_empty_parts(root)


def without_empty_parts(document: dict) -> dict:
    """Layout JSON without what may be left out: a null number, empty foundations."""
    kept = {k: v for k, v in document.items() if (k, v) != ("number", None)}
    if isinstance(kept.get("foundations"), dict):
        kept["foundations"] = {k: v for k, v in kept["foundations"].items() if v != []}
    return kept


@settings(max_examples=300, deadline=None)
@given(
    preset=st.sampled_from(["blackhole", "allinarow"]),
    number=st.integers(1, 10**6),
    data=st.data(),
)
def test_the_hole_deal_check_is_exact(preset: str, number: int, data: st.DataObject) -> None:
    """Black Hole / All in a Row: a numbered layout passes exactly when it is reachable.

    Fans are cut down to random bottom parts and the cards taken lie on the foundation in a
    random order; the layout must pass the check exactly when playing those cards in that
    order, each from its dealt fan (the only route that could build that foundation), is
    legal and leads to the layout."""
    dealt = deal(preset, number)
    piles = [list(pile) for pile in dealt.piles]
    home: dict[Card, int] = {}
    for _ in range(data.draw(st.integers(1, 5))):
        index = data.draw(st.sampled_from([i for i, pile in enumerate(piles) if pile]))
        card_taken = piles[index].pop()
        home[card_taken] = index + 1
    order = data.draw(st.permutations(sorted(home)))
    base = dealt.foundation_map["F"]
    layout = Layout(
        preset,
        number,
        piles=tuple(tuple(pile) for pile in piles),
        foundations=(("F", (*base, *order)),),
    )
    try:
        check_layout(layout)
        accepted = True
    except LayoutError:
        accepted = False
    result = replay(preset, number, [f"{home[c]}>F" for c in order])
    assert result.position is not None
    reached = result.illegal_at is None and result.position.to_layout(preset, number) == layout
    assert accepted == reached


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), number=st.integers(1, 10**6), data=st.data())
def test_any_valid_hand_made_layout_is_searched(
    preset: str, number: int, data: st.DataObject
) -> None:
    """The dealt cards spread anyhow (piles of any height, some empty) pass the check, and the
    search kernels take them: what the check lets through, every kernel handles."""
    layout = dataclasses.replace(deal(preset, number), number=None)
    if find_preset(preset).family == "fifteen":
        cards = data.draw(st.permutations(layout.all_cards()))
        layout = dataclasses.replace(layout, cells=tuple(cards[:16]), stock=tuple(cards[16:]))
    else:
        cards = data.draw(st.permutations([c for pile in layout.piles for c in pile]))
        count = len(layout.piles)
        homes = data.draw(st.lists(st.integers(0, count - 1), min_size=len(cards)))
        piles = tuple(
            tuple(c for c, home in zip(cards, homes, strict=False) if home == index)
            for index in range(count)
        )
        layout = dataclasses.replace(layout, piles=piles)
    result = solve(preset, layout, max_nodes=2_000)
    assert result.preset == preset and result.number is None
