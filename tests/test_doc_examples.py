"""The examples of README.md, catalogues/README.md and the site's pages run as pasted.

Every indented command block of these documents is extracted and run, in order, by bash in a
scratch directory (with ``catalogues/`` linked in), one directory per document. A command may
only create the files it redirects its output to (an unquoted ``>`` in a move would create a
file and pass no move). Each command's exit status is the one the documents state, and what it
prints (and the files it writes) is what the document says it prints, checked against sources
other than the command: every command that runs has such a check, or the reason it has none.
The Python examples of the site's pages run as doctests (pytest runs README.md's itself).

Commands that take minutes are shrunk or skipped, each listed here with the reason:
"""

from __future__ import annotations

import csv
import doctest
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

from cloversolve import ReplayStatus, deal, replay, solve, visible_hint
from cloversolve.runs.study_files import read_verdicts

ROOT = Path(__file__).resolve().parent.parent
#: The documents whose examples run: the README, the consumer guide and the site's own pages
#: (``docs/*.md``; the site's other pages are copies of the repository's documents).
PAGES = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "docs").glob("*.md"))
DOCUMENTS = ["README.md", "catalogues/README.md", *PAGES]

#: Commands not run, by their start, with the reason.
SKIPPED = {
    "python -m pip install '.[": "installs the package (and then runs the tests themselves)",
    "python benchmarks/": "benchmarks take minutes",
    "python -m pytest -m full": "runs the tests' full samples (.ci/run runs it after the tests)",
    "cloversolve catalogue build thirteen --deals 1..100000 --per-difficulty 366 --jobs 2  "
    "--out catalogues/": "rebuilds a shipped catalogue: minutes",
    "dask scheduler": "starts a Dask scheduler that runs until stopped",
    "dask worker": "joins a cluster that is not there",
    "cloversolve study blackhole --deals 1..10000000 --scheduler": "needs that cluster",
    "cloversolve grading calibrate thirteen --outcomes games.csv": (
        "needs the games a front end observed (tests/test_calibration.py runs the command on "
        "synthetic games)"
    ),
    "cloversolve catalogue vouch": (
        "rewrites the shipped catalogues' manifest (tests/test_catalogue_manifest.py checks it "
        "is current and runs the command on a folder of its own)"
    ),
    "python -m cloversolve.web.generate": (
        "rewrites the package's generated files (tests/test_games.py checks they are current)"
    ),
}

#: The catalogue build of README.md and docs/catalogues-building.md, as bash reads it.
BUILD_THIRTEEN = (
    "cloversolve catalogue build thirteen --deals 1..100000 --per-difficulty 366 --jobs 2  "
    "--out thirteen.json    # about 10 minutes; resumable: a checkpoint sits beside the output"
)

#: Commands run shrunk, to keep the run short: the command as documented, what runs instead,
#: and the reason.
SHRUNK = {
    "python -m pip install . && cloversolve solve thirteen 1": (
        "cloversolve solve thirteen 1",
        "the package is installed already",
    ),
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
    BUILD_THIRTEEN: (
        "cloversolve catalogue build thirteen --deals 1..100000 --per-difficulty 1 --jobs 2 "
        "--out thirteen.json",
        "a full catalogue takes minutes",
    ),
}

#: Exit status expected of a command other than 0, by the command's text.
EXPECTED_STATUS = {
    # Two moves do not win deal 1: replay exits 1 after showing them (docs/commands.md,
    # "Exit status").
    "cloversolve replay thirteen 1 '4>1' '4>F' --verbose": 1,
}

#: catalogues/README.md's test vectors: the first two piles of thirteen deal 1.
THIRTEEN_1_PILES = [["JD", "QC", "TS", "7D"], ["2D", "KH", "QH", "6D"]]
#: The suit symbols a terminal shows, by suit letter.
SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
DATA = ROOT / "tests" / "data"


def _symbols(cards: list[str]) -> str:
    return " ".join(card[0] + SYMBOLS[card[1]] for card in cards)


def _deal_thirteen_1_text(stdout: str, folder: Path) -> None:
    # The layout with suit symbols, and no colour: the output is not a terminal.
    lines = stdout.splitlines()
    assert f" 1: {_symbols(THIRTEEN_1_PILES[0])}" in lines
    assert f" 2: {_symbols(THIRTEEN_1_PILES[1])}" in lines
    assert sum(bool(re.match(r"\s?\d+: ", line)) for line in lines) == 13
    assert "\x1b" not in stdout


def _deal_thirteen_1(stdout: str, folder: Path) -> None:
    assert json.loads(stdout)["piles"][:2] == THIRTEEN_1_PILES


def _won_route(preset: str, number: int, route: list[str]) -> None:
    assert route and replay(preset, number, route).won, route


def _solve_thirteen_1_text(stdout: str, folder: Path) -> None:
    lines = stdout.splitlines()
    assert lines[0] == "thirteen deal 1: solved (route-found)"
    match = re.fullmatch(r"route \((\d+) moves\): (.*)", lines[1])
    assert match and int(match[1]) == len(match[2].split())
    _won_route("thirteen", 1, match[2].split())


def _solve_thirteen_1(stdout: str, folder: Path) -> None:
    # "verdict, route and search counters"
    result = json.loads(stdout)
    assert result["status"] == "solved" and result["route_length"] == len(result["route"]) > 0
    _won_route("thirteen", 1, result["route"])
    counters = ("nodes", "states", "max_depth", "seconds", "details")
    assert all(key in result for key in counters), sorted(result)


def _committed_verdict(preset: str, number: int) -> str:
    """A deal's verdict in the committed per-deal verdicts of deals 1..10,000."""
    path = DATA / f"{preset}_verdicts_1_10000.csv"
    with path.open(encoding="utf-8") as file:
        rows = {int(row["number"]): row["status"] for row in csv.DictReader(file)}
    return rows[number]


def _my_position(stdout: str, folder: Path) -> None:
    assert stdout == ""  # (redirected to the file)
    written = json.loads((folder / "my-position.json").read_text(encoding="utf-8"))
    assert written == deal("cloverleaf", 5).to_json()


def _solve_my_position(stdout: str, folder: Path) -> None:
    lines = stdout.splitlines()
    verdict = _committed_verdict("cloverleaf", 5)
    assert lines[0].startswith(f"cloverleaf deal 5: {verdict} ("), lines[0]
    if verdict == "solved":
        match = re.fullmatch(r"route \(\d+ moves\): (.*)", lines[1])
        assert match
        _won_route("cloverleaf", 5, match[1].split())


def _replay_verbose(stdout: str, folder: Path) -> None:
    # Each move numbered with the position after it, and the verdict: legal, but not won.
    lines = stdout.splitlines()
    assert lines.index("1. 4>1") < lines.index("2. 4>F")
    assert lines[-1] == "not won: all 2 moves are legal but the game is not finished"
    assert f" 1: {_symbols([*THIRTEEN_1_PILES[0], '8D'])}" in lines  # 4>1 moved 8D onto pile 1


def _route_json(stdout: str, folder: Path) -> None:
    assert stdout == ""
    _solve_thirteen_1((folder / "route.json").read_text(encoding="utf-8"), folder)


def _replay_route_file(stdout: str, folder: Path) -> None:
    route = json.loads((folder / "route.json").read_text(encoding="utf-8"))["route"]
    assert stdout.strip() == f"won: the route's {len(route)} moves put every card away"


def _hint_after_4_1(stdout: str, folder: Path) -> None:
    move, _, said = stdout.strip().partition("  ")
    assert said == "(a win is still possible after this move)"
    after = replay("thirteen", 1, ["4>1", move]).position
    assert after is not None and solve("thirteen", after.to_layout("thirteen", 1)).solved


def _hint_fifteen_2(stdout: str, folder: Path) -> None:
    # A legal move from the visible grid, with no promise: the library's visible-grid hint.
    move, _, said = stdout.strip().partition("  ")
    assert "not a promise" in said, said
    assert move == str(visible_hint("fifteen", 2))
    assert replay("fifteen", 2, [move]).status is not ReplayStatus.ILLEGAL


def _black_hole_solver_counts(preset: str, deals: range) -> tuple[int, int]:
    """Solvable and unsolvable counts of black-hole-solver's stored verdicts."""
    data = json.loads((DATA / "black_hole_solver_verdicts_1_1000.json").read_text())
    letters = data[preset][deals.start - data["first"] : deals.stop - data["first"]]
    return letters.count("s"), letters.count("u")


def _study_blackhole(stdout: str, folder: Path) -> None:
    solvable, unsolvable = _black_hole_solver_counts("blackhole", range(1, 6))
    assert stdout.splitlines()[0].startswith("blackhole deals 1..5: 5 deals")
    assert f"solvable {solvable}  unsolvable {unsolvable}  undecided 0" in stdout.splitlines()


def _view_cloverleaf_1(stdout: str, folder: Path) -> None:
    # The catalogue's route by default, shown won, on a page that needs no network.
    (entry,) = [e for e in _catalogue("cloverleaf")["deals"] if e["number"] == 1]
    moves = len(entry["route"])
    assert stdout.strip() == (
        f"wrote deal.html: cloverleaf deal 1, {moves} moves (catalogue); won: the route's "
        f"{moves} moves put every card away"
    )
    page = (folder / "deal.html").read_text(encoding="utf-8")
    assert page.lstrip().lower().startswith("<!doctype html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)


def _play_thirteen_1(stdout: str, folder: Path) -> None:
    # A catalogue deal, on a page that needs no network (tests/test_play_browser.py plays it).
    assert any(e["number"] == 1 for e in _catalogue("thirteen")["deals"])
    assert stdout.strip() == "wrote play.html: thirteen deal 1 (verified solvable)"
    page = (folder / "play.html").read_text(encoding="utf-8")
    assert page.lstrip().lower().startswith("<!doctype html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)


def _batch_fifteen_2(stdout: str, folder: Path) -> None:
    (line,) = stdout.splitlines()
    result = json.loads(line)
    _, letters = read_verdicts(ROOT / "benchmarks" / "results" / "verdicts" / "fifteen.verdicts")
    assert (result["preset"], result["number"]) == ("fifteen", 2)
    assert result["status"] == {"s": "solved", "u": "unsolvable"}[letters[1]]


def _catalogue(preset: str) -> dict:
    return json.loads((ROOT / "catalogues" / f"{preset}.json").read_text(encoding="utf-8"))


def _verify_thirteen(stdout: str, folder: Path) -> None:
    assert stdout.strip() == "catalogues/thirteen.json: ok"


def _build_thirteen(stdout: str, folder: Path) -> None:
    # (shrunk to one deal of each difficulty; ``catalogue verify`` checks the file next)
    assert stdout.startswith("wrote thirteen.json: 1 easy, 1 normal, 1 hard thirteen deals")
    assert not (folder / "thirteen.json.checkpoint").exists()


def _verify_built_thirteen(stdout: str, folder: Path) -> None:
    assert stdout.strip() == "thirteen.json: ok"
    assert json.loads((folder / "thirteen.json").read_bytes())["preset"] == "thirteen"


def _audit_thirteen_sample(stdout: str, folder: Path) -> None:
    # Every shipped catalogue claim is "solvable" with a route (catalogue verify replays each),
    # so a sample of 20 agrees in full.
    assert stdout.strip() == (
        "thirteen: 20 claims checked, 20 agreed, 0 not re-checked within the budget, "
        "0 contradicted, 0 refused, 0 unsupported"
    )


def _daily_thirteen_hard(stdout: str, folder: Path) -> None:
    # The daily rule of catalogues/README.md, worked out here from the catalogue.
    hard = sorted(e["number"] for e in _catalogue("thirteen")["deals"] if e["difficulty"] == "hard")
    days = (date(2026, 12, 1) - date(2000, 1, 1)).days
    expected = hard[days % len(hard)]
    assert stdout.splitlines()[0] == f"thirteen hard deal of 2026-12-01: deal {expected}"


def _lookup_thirteen_42(stdout: str, folder: Path) -> None:
    entries = {e["number"]: e for e in _catalogue("thirteen")["deals"]}
    assert 42 in entries  # (otherwise the example shows another case: change this check)
    assert stdout.startswith(
        f"thirteen deal 42: verified, difficulty {entries[42]['difficulty']} "
        f"(a winning route of {len(entries[42]['route'])} moves)"
    )


def documented_batch_answers() -> list[str]:
    """The answers the front-ends page shows for its batch stream example."""
    text = (ROOT / "docs" / "front-ends.md").read_text(encoding="utf-8")
    match = re.search(r"answers, one line each:\n\n```text\n(.*?)\n```", text, flags=re.S)
    assert match, "the front-ends page's batch answers are not where they were"
    return match[1].splitlines()


def _batch_with_a_bad_line(stdout: str, folder: Path) -> None:
    # One answer a line, in order: the request's, then the bad line's error; the stream goes on.
    solved, error = documented_batch_answers()
    got = stdout.splitlines()
    assert len(got) == 2 and got[1] == error
    shown = solved[: solved.index("[...]")]
    assert got[0].startswith(shown), got[0][: len(shown)]
    _won_route("thirteen", 42, json.loads(got[0])["route"])


def _study_thirteen_return(stdout: str, folder: Path) -> None:
    result = json.loads(stdout)
    verdicts = [_committed_verdict("thirteen-return", n) for n in range(1, 6)]
    assert result["deals"] == {"first": 1, "last": 5, "count": 5}
    assert (result["solvable"], result["unsolvable"], result["undecided"]) == (
        verdicts.count("solved"),
        verdicts.count("unsolvable"),
        0,
    )
    assert result["budget"]["time_limit"] == 30


def _bench_thirteen(stdout: str, folder: Path) -> None:
    # README: deals/s, nodes/s, latency p50/p90/p99/max, undecided deals, peak RSS, warm start.
    header, _, row = stdout.splitlines()[:3]
    columns = [cell.strip() for cell in header.strip("|").split("|")]
    for reported in ("deals/s", "nodes/s", "p50", "p90", "p99", "max", "undecided", "peak RSS"):
        assert any(reported in column for column in columns), (reported, columns)
    assert any("warm start" in column for column in columns), columns
    cells = dict(zip(columns, (cell.strip() for cell in row.strip("|").split("|")), strict=True))
    assert (cells["preset"], cells["deals"], cells["undecided"]) == ("thirteen", "1..5", "0")


#: What a command's standard output (and the files it writes, in the folder given) must show,
#: by the command's text: checked against the documents' own vectors and rules, the
#: catalogues, black-hole-solver's verdicts and the committed verdicts.
EXPECTED_OUTPUT: dict[str, Callable[[str, Path], None]] = {
    "cloversolve audit catalogues/thirteen.json --sample 20   # re-check verdicts without the "
    "kernels": _audit_thirteen_sample,
    "python -m pip install . && cloversolve solve thirteen 1": _solve_thirteen_1_text,
    "cloversolve deal thirteen 1             # the layout, with suit symbols (colour on a "
    "terminal)": _deal_thirteen_1_text,
    "cloversolve deal thirteen 1 --json      # the layout JSON the front ends read": (
        _deal_thirteen_1
    ),
    "cloversolve solve thirteen 1 --json     # verdict, route and search counters": (
        _solve_thirteen_1
    ),
    "cloversolve deal cloverleaf 5 --json > my-position.json   # edit it, then:": _my_position,
    "cloversolve solve cloverleaf --layout my-position.json": _solve_my_position,
    "cloversolve replay thirteen 1 '4>1' '4>F' --verbose": _replay_verbose,
    "cloversolve solve thirteen 1 --json > route.json": _route_json,
    "cloversolve replay thirteen 1 --route-file route.json": _replay_route_file,
    "cloversolve hint thirteen 1 '4>1'       # a move that keeps a win possible, after the moves "
    "given": _hint_after_4_1,
    "cloversolve hint fifteen 2              # fifteen: a move from the visible grid, no promise": (
        _hint_fifteen_2
    ),
    "cloversolve study blackhole --deals 1..1000 --jobs 2": _study_blackhole,
    "cloversolve view cloverleaf 1 --out deal.html   # a page that steps through the route": (
        _view_cloverleaf_1
    ),
    "cloversolve play thirteen 1 --out play.html     # a page to play the deal in a browser": (
        _play_thirteen_1
    ),
    "cloversolve solve --batch < requests.jsonl      # JSON lines in, JSON lines out (batch "
    "mode)": _batch_fifteen_2,
    "cloversolve catalogue verify catalogues/thirteen.json": _verify_thirteen,
    BUILD_THIRTEEN: _build_thirteen,
    "cloversolve catalogue verify thirteen.json": _verify_built_thirteen,
    "cloversolve daily thirteen --date 2026-12-01 --difficulty hard": _daily_thirteen_hard,
    "cloversolve lookup thirteen 42        # verified and graded, scanned and left out, or "
    "unchecked": _lookup_thirteen_42,
    'printf \'%s\\n\' \'{"id": 1, "preset": "thirteen", "number": 42}\' \'oops\' | '
    "cloversolve solve --batch": _batch_with_a_bad_line,
    "cloversolve study thirteen-return --deals 1..1000000 --jobs 1 --json --time-limit 30": (
        _study_thirteen_return
    ),
    "cloversolve bench thirteen --deals 1..1000 --jobs 2": _bench_thirteen,
}

#: Commands whose output is no promise to check: the file they write is checked by the
#: command that reads it.
UNCHECKED_OUTPUT = {
    'echo \'{"preset": "fifteen", "number": 2}\' > requests.jsonl': "writes the request file",
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
    if command in SHRUNK:
        return SHRUNK[command][0]
    for start in SKIPPED:
        if command.startswith(start):
            return None
    return command


def _commands(document: str) -> list[str]:
    return shell_examples((ROOT / document).read_text(encoding="utf-8"))


#: The documents with a command to run (the others' commands, if any, are all skipped).
RUN_DOCUMENTS = [d for d in DOCUMENTS if any(_prepared(c) is not None for c in _commands(d))]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("CLOVERSOLVE_CATALOGUES", None)
    return env


def test_examples_are_found() -> None:
    readme = shell_examples((ROOT / "README.md").read_text(encoding="utf-8"))
    assert "cloversolve replay thirteen 1 '4>1' '4>F' --verbose" in readme
    assert {"docs/commands.md", "docs/library.md", "docs/front-ends.md"} <= set(PAGES)
    loop = "text\n\n    for p in a b; do\n      echo $p\n    done\n"
    assert shell_examples(loop) == ["for p in a b; do\n  echo $p\ndone"]
    assert output_files("cloversolve replay thirteen 1 4>1 4>F") == {"1", "F"}
    assert output_files("cloversolve replay thirteen 1 '4>1' \"4>F\"  # x > y") == set()


def test_every_skip_and_shrink_is_used() -> None:
    commands = [command for document in DOCUMENTS for command in _commands(document)]
    for start in SKIPPED:
        assert any(command.startswith(start) for command in commands), start
    for documented in SHRUNK:
        assert documented in commands, documented
    for documented in EXPECTED_OUTPUT:
        assert documented in commands, documented


def test_every_command_run_has_its_output_checked() -> None:
    commands = [command for document in DOCUMENTS for command in _commands(document)]
    for command in commands:
        if _prepared(command) is not None:
            assert command in EXPECTED_OUTPUT or command in UNCHECKED_OUTPUT, command
    assert set(UNCHECKED_OUTPUT) <= set(commands)


def test_no_example_has_an_unquoted_move() -> None:
    for document in DOCUMENTS:
        for command in _commands(document):
            strays = {t for t in output_files(command) if re.fullmatch(r"\d+|F[CDHS]?", t)}
            assert not strays, f"{document}: {command!r} redirects to {strays}"


@pytest.mark.slow  # (every command of the document, the catalogue verification among them)
@pytest.mark.parametrize("document", RUN_DOCUMENTS)
def test_shell_examples_run_as_pasted(document: str, tmp_path: Path) -> None:
    (tmp_path / "catalogues").symlink_to(ROOT / "catalogues")
    env = _environment()
    ran = checked = 0
    commands = _commands(document)
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
            EXPECTED_OUTPUT[original](done.stdout, tmp_path)
            checked += 1
        ran += 1
    assert checked == sum(command in EXPECTED_OUTPUT for command in commands)
    assert ran >= 1


#: The site's pages that hold Python examples (``>>>``).
PYTHON_PAGES = [page for page in PAGES if ">>> " in (ROOT / page).read_text(encoding="utf-8")]


def test_the_library_page_has_python_examples() -> None:
    assert "docs/library.md" in PYTHON_PAGES


@pytest.mark.parametrize("page", PYTHON_PAGES)
def test_python_examples_of_the_pages(page: str) -> None:
    # As pytest runs README.md's (its default option flags: ELLIPSIS).
    failed, attempted = doctest.testfile(
        str(ROOT / page), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert attempted and not failed, f"{page}: {failed} of {attempted} examples failed"
