"""The README's JavaScript example gives the values its comments show, and the stable ``code``
of an illegal move is the one the README names, run by node on the shipped module."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from external_tools import node

ROOT = Path(__file__).resolve().parent.parent
MODULE = ROOT / "cloversolve" / "web" / "cloversolve.js"

#: The example's lines whose comments state a value (README.md, "Front ends").
DOCUMENTED = [
    'deal("thirteen", 1).piles[0];                    // ["JD", "QC", "TS", "7D"]',
    'r.status;        // "not-won" ("won", "not-won" or "illegal")',
    "r.positions;     // 4 positions: the start (after the deal's automatic moves), then one",
    "r.steps;         // 6 steps: every move in order, the automatic ones as their own steps",
    'legalMoves(r.positions.at(-1));                  // ["3>8", "4>5", ..., "FD>12"], in the',
    'replay("thirteen", 1, "4>1 4>4");                // {status: "illegal", illegalAt: 2, '
    'code: "same-pile",',
    '//  reason: "4>4: a card cannot move onto its own pile", ...}',
    'dailyIndex("2025-01-01", 366);                   // 348',
]

#: Illegal moves (a preset, deal 1, a route whose last move is illegal) for every code the
#: README names, with the code.
CODES = [
    ("thirteen", "4>1 4>4", "same-pile"),
    ("thirteen", "1>F", "foundation-refuses"),
    ("cloverleaf", "1>2", "target-refuses"),
    ("thirteen", "4>1 4>F 12>F 7>F 3>11 3>F 12>3 12>7 12>F 1>12", "empty-target"),
    ("fifteen", "1+2", "group-total"),
]

SCRIPT = """
import { deal, replay, legalMoves, dailyIndex } from %(module)s;
const r = replay("cloverleaf", 1, "14>11 12>11 12>13");
const illegal = replay("thirteen", 1, "4>1 4>4");
const codes = %(codes)s.map(([preset, route]) => {
  const x = replay(preset, 1, route);
  return [x.status, x.illegalAt, x.code];
});
console.log(JSON.stringify({
  pile: deal("thirteen", 1).piles[0],
  big: deal("fifteen", 99999999999999999999n).cells.length,
  status: r.status,
  positions: r.positions.length,
  steps: r.steps.length,
  legal: legalMoves(r.positions.at(-1)),
  illegal: [illegal.status, illegal.illegalAt, illegal.code, illegal.reason],
  daily: dailyIndex("2025-01-01", 366),
  codes,
}));
"""


def readme_lines() -> list[str]:
    return [line.strip() for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()]


def test_the_documented_lines_are_in_the_readme() -> None:
    lines = readme_lines()
    for documented in DOCUMENTED:
        assert any(line.startswith(documented) for line in lines), documented
    text = " ".join(lines)
    for _, _, code in CODES[1:]:
        assert f"`{code}`" in text, code


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> dict:
    program = node()
    script = tmp_path_factory.mktemp("js") / "example.mjs"
    routes = [[preset, route] for preset, route, _ in CODES]
    script.write_text(
        SCRIPT % {"module": json.dumps(MODULE.as_uri()), "codes": json.dumps(routes)},
        encoding="utf-8",
    )
    done = subprocess.run([program, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_example_gives_the_documented_values(shown: dict) -> None:
    assert shown["pile"] == ["JD", "QC", "TS", "7D"]
    assert shown["big"] == 16
    assert (shown["status"], shown["positions"], shown["steps"]) == ("not-won", 4, 6)
    assert shown["legal"][:2] == ["3>8", "4>5"] and shown["legal"][-1] == "FD>12"
    assert shown["illegal"] == [
        "illegal",
        2,
        "same-pile",
        "4>4: a card cannot move onto its own pile",
    ]
    assert shown["daily"] == 348


def test_each_named_code_is_given_by_its_illegal_move(shown: dict) -> None:
    expected = [["illegal", len(route.split()), code] for _, route, code in CODES]
    assert shown["codes"] == expected
