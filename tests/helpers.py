"""Helpers shared by the test modules: move counts by the reference engine and by the search
kernels, route replays, cards left on the table, the command line run in this process, and
runs of many deals on each backend (a Dask scheduler and its workers started for a test)."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner, Result
from external_tools import require_module

from cloversolve.cli.main import main
from cloversolve.core.notation import Move
from cloversolve.games.layout import Layout
from cloversolve.games.registry import find_preset
from cloversolve.rules import Position
from cloversolve.search.plugin import search_plugin


def engine_perft(position: Position, depth: int) -> int:
    """Move sequences of exactly ``depth`` moves from ``position``, by the reference engine
    (the position is restored afterwards)."""
    if depth == 0:
        return 1
    total = 0
    for move in list(position.legal_moves()):
        position.push(move)
        total += engine_perft(position, depth - 1)
        position.pop()
    return total


def replays_to_win(position: Position, route: Iterable[Move]) -> bool:
    """Play ``route`` on a copy of ``position``, checking every move; True if it wins."""
    board = position.copy()
    for move in route:
        board.push_checked(move)
    return board.is_won()


def random_walk(position: Position, rng: random.Random, steps: int) -> Position:
    """``position`` after up to ``steps`` random legal moves (fewer if it gets blocked), as a
    fresh position without history; ``position`` itself is left as it was."""
    board = position.copy()
    for _ in range(steps):
        moves = list(board.legal_moves())
        if not moves:
            break
        board.push(rng.choice(moves))
    return board.copy()


def cards_left(layout: Layout) -> int:
    """Cards still in play: on the piles, or in the grid and the stock."""
    if layout.is_grid:
        return sum(card is not None for card in layout.cells) + len(layout.stock)
    return sum(len(pile) for pile in layout.piles)


# -- the search kernels' own counts, behind one name per measure ----------------------------------

#: The kernel module's function of each measure: move sequences of a given length (``perft``)
#: and distinct play states reached in exactly a given number of moves (``states``).
KERNEL_MEASURES = {"perft": "perft", "states": "count_reachable"}


def kernel_counter(family: str, measure: str) -> Callable[[Position, int], int] | None:
    """The family's kernel count of ``measure`` (from its plug-in's search module), or
    ``None`` when its kernel offers no such count."""
    counter = getattr(search_plugin(family).search_module, KERNEL_MEASURES[measure], None)
    return counter if callable(counter) else None


def kernel_count(preset: str, measure: str, position: Position, depth: int) -> int | None:
    """The kernel's count of ``measure`` (``perft`` or ``states``) for ``preset``, or ``None``
    when its kernel offers no such count."""
    count = kernel_counter(find_preset(preset).family, measure)
    return None if count is None else count(position.copy(), depth)


#: The ``cloversolve`` program, started as its console script starts it. (Not ``python -m``:
#: CPython ends a ``-m`` module by SIGINT instead of its exit status once an interrupt has
#: passed through code run by ``exec``, as numba's compiler runs it.)
CLOVERSOLVE = [
    sys.executable,
    "-c",
    "import sys; from cloversolve.__main__ import main; sys.argv[0] = 'cloversolve'; main()",
]


def run(*args: object, env: dict[str, str] | None = None, color: bool = False) -> Result:
    """``cloversolve ARGS`` run in this process, each argument as text (``env``: variables
    set for the run; ``color``: as on a terminal). An exception that escapes the command line
    fails the test with its traceback."""
    arguments = [str(arg) for arg in args]
    return CliRunner().invoke(main, arguments, env=env, color=color, catch_exceptions=False)


def assert_one_line_error(result: Result, code: int, *quoted: str) -> str:
    """Check that ``result`` ended with status ``code`` and one line on stderr, a
    ``cloversolve: error:`` holding each text of ``quoted``, no traceback; that line."""
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("cloversolve: error: ")
    for text in quoted:
        assert text in lines[0]
    assert "Traceback" not in result.output
    return lines[0]


def load_benchmark(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as a fresh module (the benchmarks are scripts, not part of the
    package)."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The method a study names for each verdict in :func:`study_json` (every family reports it).
_METHOD_OF = {
    "solved": "route-found",
    "unsolvable": "exhausted-search",
    "limit": "budget-exhausted",
}


def study_json(preset: str, per_deal: dict[int, str]) -> dict:
    """A study's JSON (``study --json --per-deal``) of consecutive deals whose summary counts,
    method counts and solvable rate are those of ``per_deal`` (deal number: ``solved``,
    ``unsolvable`` or ``limit``)."""
    numbers = sorted(per_deal)
    span = {"first": numbers[0], "last": numbers[-1]} if numbers else {}
    verdicts = list(per_deal.values())
    solved, decided = verdicts.count("solved"), len(verdicts) - verdicts.count("limit")
    methods: dict[str, int] = {}
    for verdict in verdicts:
        methods[_METHOD_OF[verdict]] = methods.get(_METHOD_OF[verdict], 0) + 1
    return {
        "preset": preset,
        "deals": {**span, "count": len(numbers)},
        "solvable": solved,
        "unsolvable": verdicts.count("unsolvable"),
        "undecided": verdicts.count("limit"),
        "methods": dict(sorted(methods.items())),
        "solvable_rate": solved / len(verdicts) if decided else None,
        "per_deal": {str(number): per_deal[number] for number in numbers},
    }


# -- runs of many deals on each backend -----------------------------------------------------------

STUDY_PRESET, STUDY_DEALS = "fifteen", range(1, 601)
BUILD_PRESET, BUILD_DEALS, PER_DIFFICULTY = "fifteen", range(1, 400), 2
TIMING = ("seconds", "search_seconds", "deals_over_1s", "slowest_seconds")
HERE = Path(__file__).resolve().parent


def needs_dask() -> ModuleType:
    """Dask's ``distributed`` for the tests that run Dask (skipped without it, failed in CI)."""
    return require_module("distributed", "the Dask backend's tests need the test extra's Dask")


def without_timing(data: dict) -> dict:
    return {key: value for key, value in data.items() if key not in TIMING}


def start_scheduler(
    folder: Path, *worker_args: str, scheduler_args: tuple[str, ...] = ()
) -> tuple[str, list[subprocess.Popen]]:
    """A Dask scheduler on 127.0.0.1 and one ``dask worker`` command; the address."""
    file = folder / "scheduler.json"
    # The scheduler and the workers unpickle the test modules' helpers: they can import them.
    quiet = {
        "stdout": subprocess.DEVNULL,
        "stderr": subprocess.DEVNULL,
        "env": {**os.environ, "PYTHONPATH": str(HERE)},
    }
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0"]
        + ["--no-dashboard", "--scheduler-file", str(file), *scheduler_args],
        **quiet,
    )
    deadline = time.monotonic() + 60
    while not file.exists() or not file.read_text().strip():
        assert time.monotonic() < deadline, "the Dask scheduler did not start"
        time.sleep(0.1)
    address = json.loads(file.read_text())["address"]
    worker = subprocess.Popen(
        [sys.executable, "-m", "dask", "worker", address, "--nthreads", "1", "--no-dashboard"]
        + ["--local-directory", str(folder), *worker_args],
        **quiet,
    )
    return address, [worker, scheduler]


def stop_processes(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


#: The backends that run Dask: only their cases take the Dask marker (and the cluster).
DASK_BACKENDS = ("local2", "cluster")


def backend_cases(*names: str) -> list:
    """Parameters for a test run on each backend of ``names``, the Dask ones marked ``dask``."""
    return [
        pytest.param(name, marks=pytest.mark.dask) if name in DASK_BACKENDS else name
        for name in names
    ]


def backend(name: str, request: pytest.FixtureRequest) -> dict:
    """The run options of backend ``name``; the separate Dask cluster (the fixture ``cluster``)
    starts only for its own cases, so the local cases run without Dask."""
    if name == "cluster":
        return {"scheduler": request.getfixturevalue("cluster")}
    return {"jobs1": {"jobs": 1}, "jobs2": {"jobs": 2}, "local2": {"scheduler": "local:2"}}[name]
