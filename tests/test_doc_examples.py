"""The shell examples of README.md and catalogues/README.md run as pasted in bash.

Every indented command block of both documents is extracted and run, in order, by bash in a
scratch directory (with ``catalogues/`` linked in). A command may only create the files it
redirects its output to (an unquoted ``>`` in a move would create a file and pass no move).

Commands that take minutes are shrunk or skipped, each listed here with the reason:
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from cloversolve import replay, solve
from cloversolve.study import read_verdicts

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ["README.md", "catalogues/README.md"]

#: Commands not run, by their start, with the reason.
SKIPPED = {
    "python -m pip install": "installs the package (and then runs the tests themselves)",
    "python benchmarks/": "benchmarks take minutes",
    "cloversolve catalogue build": "a full catalogue build takes hours",
    "dask scheduler": "starts a Dask scheduler that runs until stopped",
    "dask worker": "joins a cluster that is not there",
    "cloversolve study blackhole --deals 1..10000000 --scheduler": "needs that cluster",
}

#: Commands run shrunk, to keep the run short: the command as documented, what runs instead,
#: and the reason.
SHRUNK = {
    "cloversolve study blackhole --deals 1..1000 --jobs 2": (
        "cloversolve study blackhole --deals 1..5 --jobs 2",
        "a thousand deals",
    ),
    "cloversolve study thirteen-return --deals 1..1000000 --jobs 1 --json --time-limit 30": (
        "cloversolve study thirteen-return --deals 1..5 --jobs 1 --json --time-limit 30",
        "a million deals",
    ),
    "cloversolve bench thirteen --deals 1..1000 --jobs 2": (
        "cloversolve bench thirteen --deals 1..5 --jobs 2",
        "a thousand deals",
    ),
}

#: Exit status expected of a command other than 0, by the command's text.
EXPECTED_STATUS = {
    # Two moves do not win deal 1: replay exits 1 after showing them.
    "cloversolve replay thirteen 1 '4>1' '4>F' --verbose": 1,
}


def _deal_thirteen_1(stdout: str) -> None:
    # catalogues/README.md's test vectors
    piles = json.loads(stdout)["piles"]
    assert piles[0] == ["JD", "QC", "TS", "7D"] and piles[1] == ["2D", "KH", "QH", "6D"]


def _solve_thirteen_1(stdout: str) -> None:
    result = json.loads(stdout)
    assert result["status"] == "solved" and result["route_length"] == len(result["route"]) > 0
    assert replay("thirteen", 1, result["route"]).won


def _hint_after_4_1(stdout: str) -> None:
    move, _, said = stdout.strip().partition("  ")
    assert said == "(a win is still possible after this move)"
    after = replay("thirteen", 1, ["4>1", move]).position
    assert after is not None and solve("thirteen", after.to_layout("thirteen", 1)).solved


def _catalogue(preset: str) -> dict:
    return json.loads((ROOT / "catalogues" / f"{preset}.json").read_text(encoding="utf-8"))


def _daily_thirteen_hard(stdout: str) -> None:
    # The daily rule of catalogues/README.md, worked out here from the catalogue.
    hard = sorted(e["number"] for e in _catalogue("thirteen")["deals"] if e["difficulty"] == "hard")
    days = (date(2026, 12, 1) - date(2000, 1, 1)).days
    expected = hard[days % len(hard)]
    assert stdout.splitlines()[0] == f"thirteen hard deal of 2026-12-01: deal {expected}"


def _lookup_thirteen_42(stdout: str) -> None:
    entries = {e["number"]: e for e in _catalogue("thirteen")["deals"]}
    assert 42 in entries  # (otherwise the example shows another case: change this check)
    assert stdout.startswith(
        f"thirteen deal 42: verified, difficulty {entries[42]['difficulty']} "
        f"(a winning route of {len(entries[42]['route'])} moves)"
    )


def _batch_fifteen_2(stdout: str) -> None:
    (line,) = stdout.splitlines()
    result = json.loads(line)
    _, letters = read_verdicts(ROOT / "benchmarks" / "results" / "verdicts" / "fifteen.verdicts")
    assert (result["preset"], result["number"]) == ("fifteen", 2)
    assert result["status"] == {"s": "solved", "u": "unsolvable"}[letters[1]]


#: What a command's standard output must show, by the command's text (checked against the
#: documents' own vectors and rules, the catalogues and the committed verdicts).
EXPECTED_OUTPUT: dict[str, Callable[[str], None]] = {
    "cloversolve deal thirteen 1 --json      # the layout JSON the front ends read": (
        _deal_thirteen_1
    ),
    "cloversolve solve thirteen 1 --json     # verdict, route and search counters": (
        _solve_thirteen_1
    ),
    "cloversolve hint thirteen 1 '4>1'       # a move that keeps a win possible, after the moves "
    "given": _hint_after_4_1,
    "cloversolve daily thirteen --date 2026-12-01 --difficulty hard": _daily_thirteen_hard,
    "cloversolve lookup thirteen 42        # verified and graded, scanned and left out, or "
    "unchecked": _lookup_thirteen_42,
    "cloversolve solve --batch < requests.jsonl      # JSON lines in, JSON lines out (see below)": (
        _batch_fifteen_2
    ),
}


def shell_examples(text: str) -> list[str]:
    """The commands of the indented (4-space) blocks: continuation lines joined, comments kept
    (bash ignores them), a ``for`` loop kept whole."""
    commands: list[str] = []
    lines = text.splitlines()
    index = 0
    in_fence = in_block = False
    while index < len(lines):
        line = lines[index]
        if line.startswith("```"):
            in_fence = not in_fence
        if line.strip() and not line.startswith("    "):
            in_block = False
        elif not line.strip():
            in_block = in_block or (index + 1 < len(lines) and not in_fence)
        if in_fence or not in_block or not line.strip():
            index += 1
            continue
        command = line[4:]
        while command.endswith("\\") and index + 1 < len(lines):
            index += 1
            command = command[:-1] + " " + lines[index].strip()
        if command.startswith("for "):
            while not command.rstrip().endswith("done") and index + 1 < len(lines):
                index += 1
                command += "\n" + lines[index][4:]
        if not command.startswith(" "):  # a deeper indent is a code listing's body
            commands.append(command)
        index += 1
    return commands


#: Options whose value is a file the command writes.
OUTPUT_OPTIONS = {"--out", "--verdicts", "--checkpoint"}


def output_files(command: str) -> set[str]:
    """Files named after an unquoted ``>`` or an output option, or made by ``mkdir`` (the only
    files the command may create)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.commenters = "#"
    lexer.wordchars += "-"
    tokens = list(lexer)
    made = {
        after
        for before, after in zip(tokens, tokens[1:], strict=False)
        if (">" in before and set(before) <= set("();<>|&")) or before in OUTPUT_OPTIONS
    }
    if tokens[:1] == ["mkdir"]:
        made |= {token for token in tokens[1:] if not token.startswith("-")}
    return made


def _prepared(command: str) -> str | None:
    for start in SKIPPED:
        if command.startswith(start):
            return None
    return SHRUNK.get(command, (command, ""))[0]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("CLOVERSOLVE_CATALOGUES", None)
    return env


def test_examples_are_found() -> None:
    readme = shell_examples((ROOT / "README.md").read_text(encoding="utf-8"))
    assert "cloversolve replay thirteen 1 '4>1' '4>F' --verbose" in readme
    loop = "text\n\n    for p in a b; do\n      echo $p\n    done\n"
    assert shell_examples(loop) == ["for p in a b; do\n  echo $p\ndone"]
    assert output_files("cloversolve replay thirteen 1 4>1 4>F") == {"1", "F"}
    assert output_files("cloversolve replay thirteen 1 '4>1' \"4>F\"  # x > y") == set()


def test_every_skip_and_shrink_is_used() -> None:
    commands = [
        command
        for document in DOCUMENTS
        for command in shell_examples((ROOT / document).read_text(encoding="utf-8"))
    ]
    for start in SKIPPED:
        assert any(command.startswith(start) for command in commands), start
    for documented in SHRUNK:
        assert documented in commands, documented
    for documented in EXPECTED_OUTPUT:
        assert documented in commands, documented


def test_no_example_has_an_unquoted_move() -> None:
    for document in DOCUMENTS:
        for command in shell_examples((ROOT / document).read_text(encoding="utf-8")):
            strays = {t for t in output_files(command) if re.fullmatch(r"\d+|F[CDHS]?", t)}
            assert not strays, f"{document}: {command!r} redirects to {strays}"


@pytest.mark.parametrize("document", DOCUMENTS)
def test_shell_examples_run_as_pasted(document: str, tmp_path: Path) -> None:
    (tmp_path / "catalogues").symlink_to(ROOT / "catalogues")
    env = _environment()
    ran = checked = 0
    commands = shell_examples((ROOT / document).read_text(encoding="utf-8"))
    for original in commands:
        command = _prepared(original)
        if command is None:
            continue
        before = set(os.listdir(tmp_path))
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        expected = EXPECTED_STATUS.get(original, 0)
        assert done.returncode == expected, f"{original!r}: {done.stdout}{done.stderr}"
        assert "Traceback" not in done.stderr, original
        created = set(os.listdir(tmp_path)) - before
        assert created <= output_files(command), f"{original!r} created {created}"
        if original in EXPECTED_OUTPUT:
            EXPECTED_OUTPUT[original](done.stdout)
            checked += 1
        ran += 1
    assert checked == sum(command in EXPECTED_OUTPUT for command in commands)
    assert ran >= 1
