"""Layout JSON: the front-end contract, round trips and validation errors."""

import pickle

import orjson
import pytest

from cloversolve.core.deal_numbers import DealNumberError
from cloversolve.core.notation import MoveParseError
from cloversolve.games.dealing import deal
from cloversolve.games.layout import LAYOUT_ERROR_CODES, Layout, LayoutError
from cloversolve.games.records import UnknownPresetError
from cloversolve.games.registry import PRESETS
from cloversolve.rules import position_from_layout
from cloversolve.solving.replay import replay
from cloversolve.solving.solver import solve


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_json_round_trip(preset: str) -> None:
    layout = deal(preset, 123)
    data = layout.to_json()
    assert Layout.from_json(data) == layout
    assert list(data)[:2] == ["preset", "number"]


def test_pile_json_shape() -> None:
    data = deal("thirteen", 1).to_json()
    assert set(data) == {"preset", "number", "piles", "foundations"}
    assert data["foundations"] == {"F": []}
    assert data["piles"][0] == ["JD", "QC", "TS", "7D"]


def test_grid_json_shape() -> None:
    data = deal("fifteen", 1).to_json()
    assert set(data) == {"preset", "number", "cells", "stock"}
    assert len(data["cells"]) == 16 and len(data["stock"]) == 32


def _broken(preset: str, change) -> dict:
    data = deal(preset, 2).to_json()
    change(data)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"preset": "nope"}, "unknown preset"),
        (_broken("thirteen", lambda d: d["piles"].pop()), "needs 13 piles"),
        (
            _broken("thirteen", lambda d: d["piles"][0].__setitem__(0, d["piles"][1][0])),
            "duplicate card",
        ),
        (_broken("thirteen", lambda d: d["piles"][0].pop()), "missing"),
        (_broken("thirteen", lambda d: d["piles"][0].__setitem__(0, "XX")), "'XX'"),
        (_broken("thirteen", lambda d: d.__setitem__("foundations", {"FH": []})), "'FH'"),
        (_broken("thirteen", lambda d: d.__setitem__("number", "seven")), "number"),
        (_broken("thirteen", lambda d: d.__setitem__("number", 7.0)), "number"),
        (_broken("fifteen", lambda d: d["cells"].pop()), "16 cells"),
        (_broken("fifteen", lambda d: d["stock"].append("TD")), "not in the fifteen deck"),
        (_broken("cloverleaf", lambda d: d.__setitem__("piles", "x")), "list of lists"),
    ],
)
def test_invalid_layouts(data: object, message: str) -> None:
    with pytest.raises(LayoutError, match=message):
        Layout.from_json(data)


def test_hand_made_layout_has_no_number() -> None:
    data = deal("allinarow", 3).to_json()
    del data["number"]
    layout = Layout.from_json(data)
    assert layout.number is None and "number" not in layout.to_json()
    with pytest.raises(LayoutError, match="not 'blackhole'"):
        Layout.from_json(data, preset="blackhole")


@pytest.mark.parametrize("preset", ["thirteen", "fifteen"])
def test_a_key_the_layout_json_does_not_have_is_refused(preset: str) -> None:
    data = deal(preset, 1).to_json()
    data["stok" if preset == "fifteen" else "foundation"] = []
    with pytest.raises(LayoutError, match=r"unknown layout key '(stok|foundation)' \(a "):
        Layout.from_json(data)


def test_the_library_reads_layout_json_text_and_refuses_what_is_no_layout() -> None:
    text = orjson.dumps(deal("thirteen", 1).to_json()).decode()
    assert solve("thirteen", text).route == solve("thirteen", 1).route
    with pytest.raises(LayoutError, match="layout JSON text that is not JSON"):
        solve("thirteen", "{bad")
    with pytest.raises(LayoutError, match="expected a Layout, got dict"):
        position_from_layout(deal("thirteen", 1).to_json())  # type: ignore[arg-type]
    with pytest.raises(MoveParseError, match="not a route: None"):
        replay("thirteen", 1, None)  # type: ignore[arg-type]
    with pytest.raises(MoveParseError, match="not a route: b'4>1'"):
        replay("thirteen", 1, b"4>1")  # type: ignore[arg-type]
    with pytest.raises(MoveParseError, match=r"move 2 of the route: not a move: None$"):
        replay("thirteen", 1, ["4>1", None])  # type: ignore[list-item]
    with pytest.raises(MoveParseError, match="not a route: a set has no order"):
        replay("thirteen", 1, {"4>1", "4>F"})
    with pytest.raises(MoveParseError, match="not a route: a dict has no order"):
        replay("thirteen", 1, {"4>1": None})
    with pytest.raises(UnknownPresetError) as unknown:
        solve("p" * 100_000, 1)
    assert len(str(unknown.value)) < 300
    with pytest.raises(DealNumberError) as error:
        solve("thirteen", "x" * 100_000)
    assert len(str(error.value)) < 200


def test_a_layout_error_keeps_its_code_through_pickling_and_refuses_unknown_codes() -> None:
    data = {**deal("thirteen", 1).to_json(), "number": 2}
    with pytest.raises(LayoutError) as error:
        solve("thirteen", data)
    assert error.value.code == "not-from-deal" and error.value.code in LAYOUT_ERROR_CODES
    copied = pickle.loads(pickle.dumps(error.value))
    assert (type(copied), copied.code, str(copied)) == (
        LayoutError,
        "not-from-deal",
        str(error.value),
    )
    assert LayoutError("a problem").code == "invalid-layout"
    with pytest.raises(ValueError, match="unknown layout error code 'no-such-code'"):
        LayoutError("a problem", "no-such-code")
    grid = Layout.from_json({"preset": "fifteen", "cells": [None] * 16, "stock": ["AH"]})
    with pytest.raises(LayoutError) as empty:
        position_from_layout(grid)
    assert empty.value.code == "empty-cell-with-stock"
