"""cloversolve.js checks layouts, move texts and arguments exactly as the toolkit does.

The layouts and move texts of :mod:`parity_vectors` (mutations of real deals and of positions
along catalogue routes), each with the toolkit's verdict, go to a JSON file; node's own test
runner then runs ``tests/web/parity.test.mjs``, which checks that the module agrees on every
one. A Hypothesis test sends more mutated layouts and move texts, a batch per node run.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from external_tools import node, run_node_tests
from hypothesis import given, settings
from hypothesis import strategies as st
from parity_vectors import (
    FRONT_END,
    MOVE_PIECES,
    MUTATIONS,
    base_layouts,
    js_wording,
    layout_vector,
    layout_vectors,
    move_texts,
    move_vectors,
    mutated,
)

from cloversolve.core.deal_numbers import DealNumberError, check_deal_number
from cloversolve.core.notation import MoveParseError, parse_route
from cloversolve.games.dealing import deal
from cloversolve.games.layout import LAYOUT_ERROR_CODES, LayoutError
from cloversolve.solving.replay import load_layout
from cloversolve.web import module_path

NODE_TESTS = Path(__file__).resolve().parent / "web" / "parity.test.mjs"
MINIMUM = {"layouts": 2000, "moves": 2000}


def run_node(tmp_path: Path, data: dict[str, Any]) -> None:
    """Run the node tests on ``data`` (plus the module's path and the codes); assert a pass."""
    vectors = tmp_path / "parity.json"
    payload = {"module": str(module_path()), "codes": list(LAYOUT_ERROR_CODES), **data}
    vectors.write_text(json.dumps(payload), encoding="utf-8")
    run_node_tests(NODE_TESTS, "CLOVERSOLVE_PARITY", vectors)


def reported_layouts() -> dict[str, dict[str, str]]:
    """The user's layouts, as the toolkit refuses them (code and JS-worded message)."""
    thirteen = deal("thirteen", 1).to_json()
    swapped = json.loads(json.dumps(thirteen))
    bottoms = thirteen["piles"][1][0], thirteen["piles"][0][0]
    swapped["piles"][0][0], swapped["piles"][1][0] = bottoms
    fifteen = deal("fifteen", 1).to_json()
    cases = {
        "bottom cards of piles 1 and 2 swapped": ("thirteen", swapped),
        '"number": 2': ("thirteen", {**thirteen, "number": 2}),
        '"number": "one"': ("thirteen", {**thirteen, "number": "one"}),
        '"number": true': ("thirteen", {**thirteen, "number": True}),
        "fifteen with one stock card removed": (
            "fifteen",
            {**fifteen, "stock": fifteen["stock"][:-1]},
        ),
    }
    found = {}
    for what, (preset, data) in cases.items():
        try:
            load_layout(preset, data)
        except LayoutError as error:
            found[what] = {"code": error.code, "message": js_wording(str(error))}
        else:
            raise AssertionError(f"the toolkit accepts the layout with {what}")
    return found


def test_reported_layouts_are_refused_with_their_codes() -> None:
    codes = {what: verdict["code"] for what, verdict in reported_layouts().items()}
    assert codes == {
        "bottom cards of piles 1 and 2 swapped": "not-from-deal",
        '"number": 2': "not-from-deal",
        '"number": "one"': "bad-number",
        '"number": true': "bad-number",
        "fifteen with one stock card removed": "removed-cards",
    }


def test_vectors_cover_every_preset_and_every_refusal() -> None:
    layouts = layout_vectors()
    verdicts = [v["verdict"] for v in layouts] + [v["bare"] for v in layouts]
    codes = {(verdict or {}).get("code", "accepted") for verdict in verdicts}
    expected = set(LAYOUT_ERROR_CODES) - {"invalid-layout"}
    assert expected | {"accepted"} <= codes, sorted(expected - codes)
    for preset in FRONT_END:
        mine = [v for v in layouts if v["preset"] == preset]
        assert sum(v["verdict"] is None for v in mine) >= 20, preset
        assert sum(v["verdict"] is not None for v in mine) >= 300, preset
    kinds = {v["verdict"]["kind"] for v in move_vectors(move_texts(300))}
    assert kinds == {"malformed", "illegal", "legal"}


def test_javascript_checks_equal_the_toolkit_checks(tmp_path: Path) -> None:
    layouts = layout_vectors()
    moves = move_vectors(move_texts())
    assert len(layouts) >= MINIMUM["layouts"] and len(moves) >= MINIMUM["moves"]
    data = {"layouts": layouts, "moves": moves, "reported": reported_layouts()}
    run_node(tmp_path, {**data, "minimum": MINIMUM})


mutation_lists = st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=4)
layout_cases = st.tuples(
    st.sampled_from(FRONT_END), st.integers(0, 40), mutation_lists, st.integers(0, 2**32 - 1)
)
# Characters the toolkit's Unicode tables assign (Cn excluded): node's tables may be newer, and
# repr() quotes a character unassigned in Python's tables escaped.
move_piece = st.sampled_from(MOVE_PIECES) | st.characters(exclude_categories=["Cs", "Cn"])
move_text = st.lists(move_piece, max_size=12).map("".join)


@settings(max_examples=4, deadline=None, derandomize=True)
@given(
    st.lists(layout_cases, min_size=150, max_size=150),
    st.lists(move_text, min_size=150, max_size=300),
)
def test_javascript_agrees_on_generated_layouts_and_moves(
    tmp_path_factory: pytest.TempPathFactory,
    cases: list[tuple[str, int, list[str], int]],
    texts: list[str],
) -> None:
    layouts = []
    for preset, index, kinds, seed in cases:
        bases = base_layouts(preset)
        layouts.append(layout_vector(preset, mutated(bases[index % len(bases)], kinds, seed)))
    data = {"layouts": layouts, "moves": move_vectors(texts), "minimum": {"layouts": 0, "moves": 0}}
    run_node(tmp_path_factory.mktemp("parity"), data)


#: Every character Python strips and splits text on, and two that JavaScript alone takes for
#: white space (``\ufeff``) or that neither does (``\u200b``).
SPACES = [chr(c) for c in range(0x3001) if chr(c).isspace()] + ["\ufeff", "\u200b"]


def test_deal_numbers_and_routes_are_stripped_and_split_on_pythons_white_space(
    tmp_path: Path,
) -> None:
    script = tmp_path / "spaces.mjs"
    script.write_text(
        f"import * as cs from {json.dumps(module_path().as_uri())};\n"
        "const spaces = JSON.parse(process.argv[2]);\n"
        "const verdict = (f) => { try { return String(f()); } catch (e) { return e.name; } };\n"
        "console.log(JSON.stringify(spaces.map((c) => [\n"
        "  verdict(() => cs.checkDealNumber(c + '7' + c)),\n"
        "  verdict(() => cs.parseRoute('4>1' + c + '4>F').length),\n"
        "])));\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        [node(), str(script), json.dumps(SPACES)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )

    def verdict(compute: Any) -> str:
        try:
            return str(compute())
        except (DealNumberError, MoveParseError) as error:
            return type(error).__name__

    ours = [
        [
            verdict(lambda c=c: check_deal_number(c + "7" + c)),
            verdict(lambda c=c: len(parse_route("4>1" + c + "4>F"))),
        ]
        for c in SPACES
    ]
    assert "DealNumberError" in {number for number, _ in ours}  # (not every case is taken)
    assert json.loads(run.stdout) == ours


def test_a_layout_given_as_a_deal_number_is_worded_as_the_toolkit_words_it(tmp_path: Path) -> None:
    # (an object is quoted in each language's own way: only the words around it are compared)
    values = ['[[["JD", "QC"]]]', ' {"preset": "thirteen"}', [["JD"]], {"piles": []}, [1], "abc"]
    script = tmp_path / "layout_number.mjs"
    script.write_text(
        f"import * as cs from {json.dumps(module_path().as_uri())};\n"
        "const values = JSON.parse(process.argv[2]);\n"
        "const verdict = (f) => { try { return String(f()); } catch (e) { return e.message; } };\n"
        "console.log(JSON.stringify(values.map((v) => verdict(() => cs.checkDealNumber(v)))));\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        [node(), str(script), json.dumps(values)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    ours = []
    for value in values:
        with pytest.raises(DealNumberError) as error:
            check_deal_number(value)
        ours.append(js_wording(str(error.value)))
    assert sum("a layout was given" in message for message in ours) == 4
    theirs = json.loads(run.stdout)
    object_at = values.index({"piles": []})
    words = "} (deal numbers are 1 .. 10**20-1; give a layout as layout JSON, a Layout, or --layout"
    for messages in (theirs, ours):
        head, _, tail = messages.pop(object_at).partition(": {")
        assert head == "a layout was given where a deal number goes", messages
        assert tail.endswith(f"{words} FILE)"), messages
    assert theirs == ours
