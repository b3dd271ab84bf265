"""The executor seam (``open_pool``, ``map_chunks``, ``run_deals``): the same results from
every backend (this process, local processes, a Dask LocalCluster, a separately started
Dask scheduler with two workers on 127.0.0.1), lost workers, errors that reach the caller,
huge ranges walked lazily, and the options that choose the backend."""

from __future__ import annotations

import itertools
import json
import os
import signal
from functools import partial
from pathlib import Path

import pytest
from helpers import (
    BUILD_DEALS,
    BUILD_PRESET,
    PER_DIFFICULTY,
    STUDY_PRESET,
    backend,
    backend_cases,
    run,
    without_timing,
)

from cloversolve.catalogue.build import build
from cloversolve.catalogue.files import load
from cloversolve.catalogue.verify import verify
from cloversolve.core.deal_numbers import DealNumberError, parse_deal_range
from cloversolve.runs.checkpoints import run_deals
from cloversolve.runs.executors import map_chunks, open_pool
from cloversolve.runs.study_files import read_verdicts


def cli_args(options: dict) -> list[str]:
    if "scheduler" in options:
        return ["--scheduler", options["scheduler"]]
    return ["--jobs", str(options["jobs"])]


def study_verdicts_and_catalogue(options: dict, folder: Path) -> tuple[dict, bytes, bytes]:
    """The study JSON (timing aside), verdict file and catalogue one backend gives."""
    verdict_file, out = folder / "study.verdicts", folder / "catalogue.json"
    result = run(
        "study", STUDY_PRESET, "--deals", "1..600", "--json", "--no-progress",
        "--verdicts", str(verdict_file), *cli_args(options),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    build(BUILD_PRESET, BUILD_DEALS, PER_DIFFICULTY, out, **options)
    return without_timing(json.loads(result.output)), verdict_file.read_bytes(), out.read_bytes()


@pytest.fixture(scope="module")
def one_process_results(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, bytes, bytes]:
    """What ``--jobs 1`` gives: the results every other backend must give."""
    return study_verdicts_and_catalogue({"jobs": 1}, tmp_path_factory.mktemp("jobs1"))


def test_one_process_gives_a_whole_verdict_file(
    one_process_results: tuple[dict, bytes, bytes], tmp_path: Path
) -> None:
    report, verdicts, _ = one_process_results
    (tmp_path / "jobs1.verdicts").write_bytes(verdicts)
    header, letters = read_verdicts(tmp_path / "jobs1.verdicts")
    assert header["preset"] == STUDY_PRESET and header["first"] == 1 and len(letters) == 600
    assert letters.count("s") == report["solvable"] > 0


@pytest.mark.parametrize("name", backend_cases("jobs2", "local2", "cluster"))
def test_every_backend_gives_the_same_study_verdicts_and_catalogue(
    name: str,
    one_process_results: tuple[dict, bytes, bytes],
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> None:
    got = study_verdicts_and_catalogue(backend(name, request), tmp_path)
    assert got[0] == one_process_results[0]
    assert got[1] == one_process_results[1]
    assert got[2] == one_process_results[2]


def test_results_do_not_depend_on_the_chunk_size() -> None:
    square = partial(pow, exp=2)
    expected = [n * n for n in range(1, 200)]
    for size in (None, 1, 7, 500):
        with open_pool(2, warm=None) as pool:
            got = [
                r for _, rs in map_chunks(pool, square, range(1, 200), chunk_size=size) for r in rs
            ]
        assert got == expected


# -- faults ---------------------------------------------------------------------------------


def die_once(marker: str, number: int) -> int:
    """``number`` squared, but the first worker to reach deal 7 is killed on the spot."""
    if number == 7 and not os.path.exists(marker):
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return number * number


@pytest.mark.parametrize("where", backend_cases("jobs2", "cluster"))
def test_a_killed_worker_loses_nothing(
    where: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    marker = tmp_path / "killed"
    options = backend(where, request)
    results = list(run_deals(partial(die_once, str(marker)), range(1, 41), **options))
    assert marker.exists()  # a worker was killed ...
    assert results == [(n, n * n) for n in range(1, 41)]  # ... and its chunk ran again


@pytest.mark.parametrize("where", backend_cases("jobs1", "jobs2", "cluster"))
def test_an_error_in_a_worker_reaches_the_caller_as_itself(
    where: str, request: pytest.FixtureRequest
) -> None:
    with pytest.raises(ZeroDivisionError):
        list(run_deals(partial(divmod, 1), range(-3, 3), **backend(where, request)))


def test_huge_ranges_are_walked_lazily() -> None:
    top = range(10**20 - 1000, 10**20)
    with open_pool(1) as pool:
        chunks = map_chunks(pool, abs, range(1, 10**20))
        first_chunks = list(itertools.islice(chunks, 3))
        chunks.close()
        last = list(map_chunks(pool, abs, top))
    assert first_chunks[0][0].start == 1
    assert [n for _, rs in last for n in rs] == list(top)
    assert parse_deal_range("1..99999999999999999999") == range(1, 10**20)


def test_a_build_over_a_huge_range_stops_when_its_quotas_fill(tmp_path: Path) -> None:
    out = tmp_path / "huge.json"
    result = run(
        "catalogue", "build", BUILD_PRESET, "--deals", "1..99999999999999999999",
        "--per-difficulty", "1", "--out", str(out), "--no-progress",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_bytes())["parameters"]["deals"]["last"] == "99999999999999999999"
    assert load(out)["parameters"]["deals"]["last"] == 10**20 - 1 and verify(out) == []


def test_a_bench_of_too_many_deals_is_refused_in_one_line() -> None:
    result = run("bench", "fifteen", "--deals", "1..99999999999999999999")
    assert result.exit_code == 2
    assert result.output.startswith("cloversolve: error: ") and result.output.count("\n") == 1
    assert "at most 1,000,000 deals" in result.output


def test_deal_zero_is_named_as_out_of_range() -> None:
    with pytest.raises(DealNumberError, match=r"'0\.\.5' \(deal 0 is out of range"):
        parse_deal_range("0..5")
    with pytest.raises(DealNumberError, match="expected A..B"):
        parse_deal_range("one..5")


def test_jobs_and_a_scheduler_are_not_given_together() -> None:
    args = ["study", "fifteen", "--deals", "1..5", "--jobs", "2", "--scheduler", "local:2"]
    result = run(*args)
    assert result.exit_code == 2
    assert result.output == "cloversolve: error: give --jobs or --scheduler, not both\n"
