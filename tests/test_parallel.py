"""The executor seam: the same results from every backend (this process, local processes,
a Dask LocalCluster, a separately started Dask scheduler with two workers on 127.0.0.1),
lazy ranges, checkpoints that resume and refuse what is not theirs, lost workers, version
checks, Ctrl-C, output paths."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from types import ModuleType

import orjson
import pytest
from click.testing import CliRunner
from external_tools import require_module
from helpers import CLOVERSOLVE

import cloversolve.catalogue.build as catalogue_module
import cloversolve.cli.bench as cli_bench_module
import cloversolve.runs.dask_pool as dask_pool_module
import cloversolve.runs.output as output_module
import cloversolve.runs.study as study_module
from cloversolve.catalogue.build import build, checkpoint_path
from cloversolve.catalogue.files import load
from cloversolve.catalogue.verify import verify
from cloversolve.cli.main import main
from cloversolve.core.deal_numbers import DealNumberError, parse_deal_range
from cloversolve.runs.checkpoints import Checkpoint, CheckpointError, run_deals
from cloversolve.runs.dask_pool import QUIET_WORKERS, DaskPool, check_scheduler
from cloversolve.runs.executors import map_chunks, open_pool
from cloversolve.runs.output import (
    OutputPathError,
    atomic_output,
    check_output_folder,
    check_output_path,
    write_atomic,
)
from cloversolve.runs.study import study
from cloversolve.runs.study_files import read_verdicts
from cloversolve.runs.workers import ExecutorError, InlinePool, cap_jobs, run_chunk, versions


def needs_dask() -> ModuleType:
    """Dask's ``distributed`` for the tests that run Dask (skipped without it, failed in CI)."""
    return require_module("distributed", "the Dask backend's tests need the test extra's Dask")


@pytest.fixture(autouse=True)
def _dask_for_dask_tests(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("dask"):
        needs_dask()


STUDY_PRESET, STUDY_DEALS = "fifteen", range(1, 601)
BUILD_PRESET, BUILD_DEALS, PER_DIFFICULTY = "fifteen", range(1, 400), 2
TIMING = ("seconds", "search_seconds", "deals_over_1s", "slowest_seconds")
HERE = Path(__file__).resolve().parent


def without_timing(data: dict) -> dict:
    return {key: value for key, value in data.items() if key not in TIMING}


def _start_scheduler(
    folder: Path, *worker_args: str, scheduler_args: tuple[str, ...] = ()
) -> tuple[str, list[subprocess.Popen]]:
    """A Dask scheduler on 127.0.0.1 and one ``dask worker`` command; the address."""
    file = folder / "scheduler.json"
    # The scheduler and the workers unpickle this module's helpers: they can import it.
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


def _stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A separately started scheduler with two single-threaded workers."""
    distributed = needs_dask()
    address, processes = _start_scheduler(tmp_path_factory.mktemp("dask"), "--nworkers", "2")
    try:
        with distributed.Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=90)
        yield address
    finally:
        _stop(processes)


#: The backends that run Dask: only their cases take the Dask marker (and the cluster).
DASK_BACKENDS = ("local2", "cluster")


def backend_cases(*names: str) -> list:
    """Parameters for a test run on each backend of ``names``, the Dask ones marked ``dask``."""
    return [
        pytest.param(name, marks=pytest.mark.dask) if name in DASK_BACKENDS else name
        for name in names
    ]


def backend(name: str, request: pytest.FixtureRequest) -> dict:
    """The run options of backend ``name``; the separate Dask cluster starts only for its own
    cases, so the local cases run without Dask."""
    if name == "cluster":
        return {"scheduler": request.getfixturevalue("cluster")}
    return {"jobs1": {"jobs": 1}, "jobs2": {"jobs": 2}, "local2": {"scheduler": "local:2"}}[name]


def cli_args(options: dict) -> list[str]:
    if "scheduler" in options:
        return ["--scheduler", options["scheduler"]]
    return ["--jobs", str(options["jobs"])]


# -- identical results ----------------------------------------------------------------------


def study_verdicts_and_catalogue(options: dict, folder: Path) -> tuple[dict, bytes, bytes]:
    """The study JSON (timing aside), verdict file and catalogue one backend gives."""
    verdict_file, out = folder / "study.verdicts", folder / "catalogue.json"
    result = CliRunner().invoke(
        main,
        ["study", STUDY_PRESET, "--deals", "1..600", "--json", "--no-progress"]
        + ["--verdicts", str(verdict_file), *cli_args(options)],
    )
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


class Interrupt(Exception):
    pass


@pytest.mark.dask
@pytest.mark.parametrize(("first", "then"), [("cluster", "jobs2"), ("jobs2", "cluster")])
def test_an_interrupted_client_resumes_on_either_backend(
    first: str,
    then: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reference = study(STUDY_PRESET, STUDY_DEALS, verdicts=tmp_path / "ref.verdicts")
    checkpoint, verdicts = tmp_path / "run.ckpt", tmp_path / "run.verdicts"
    real_add = study_module.StudyReport.add
    calls = itertools.count()

    def add_then_stop(self: study_module.StudyReport, results: list) -> None:
        if next(calls) == 3:
            raise Interrupt
        real_add(self, results)

    monkeypatch.setattr(study_module.StudyReport, "add", add_then_stop)
    with pytest.raises(Interrupt):
        study(
            STUDY_PRESET,
            STUDY_DEALS,
            checkpoint=checkpoint,
            verdicts=verdicts,
            chunk_size=50,
            **backend(first, request),
        )
    assert not verdicts.exists()  # no half-written verdict file ...
    assert len(checkpoint.read_bytes().splitlines()) >= 1 + 3  # ... but finished chunks kept
    monkeypatch.setattr(study_module.StudyReport, "add", real_add)
    resumed = study(
        STUDY_PRESET,
        STUDY_DEALS,
        checkpoint=checkpoint,
        verdicts=verdicts,
        **backend(then, request),
    )
    assert without_timing(resumed.to_json()) == without_timing(reference.to_json())
    assert verdicts.read_bytes() == (tmp_path / "ref.verdicts").read_bytes()


@pytest.mark.dask
@pytest.mark.parametrize("where", ["worker", "scheduler"])
def test_a_worker_or_scheduler_of_another_version_is_refused(where: str, tmp_path: Path) -> None:
    preload = tmp_path / "other_version.py"
    preload.write_text(
        "import cloversolve.core.version\ncloversolve.core.version.__version__ = '0.0.0+other'\n"
    )
    given = ("--preload", str(preload))
    if where == "worker":
        address, processes = _start_scheduler(tmp_path, *given)
    else:
        address, processes = _start_scheduler(tmp_path, scheduler_args=given)
    try:
        with pytest.raises(ExecutorError, match=rf"^{where} .*0\.0\.0\+other.*same cloversolve"):
            study(STUDY_PRESET, range(1, 20), scheduler=address)
    finally:
        _stop(processes)


@pytest.mark.dask
def test_a_cluster_lost_while_the_run_starts_is_one_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from distributed.comm.core import CommClosedError

    def lost(self: DaskPool) -> None:
        raise CommClosedError("in <TCP (closed) ConnectionPool.broadcast>: Stream is closed")

    monkeypatch.setattr(DaskPool, "_check_workers", lost)
    with pytest.raises(ExecutorError, match=r"failed while the run started \(in <TCP"):
        open_pool(scheduler="local:1").__enter__()


def _study_refusal(scheduler: str) -> str:
    """What ``cloversolve study`` of five deals on ``scheduler`` prints on stderr when it is
    refused (exit status 2, no traceback)."""
    command = [*CLOVERSOLVE, "study", "fifteen", "--deals", "1..5", "--scheduler", scheduler]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


def _without_cloversolve(folder: Path) -> str:
    """A Dask preload file that makes cloversolve impossible to import, as on a machine where
    it is not installed."""
    preload = folder / "no_cloversolve.py"
    preload.write_text("import sys\nsys.modules['cloversolve'] = None\n")
    return str(preload)


def test_a_worker_without_cloversolve_is_refused_in_one_line(tmp_path: Path) -> None:
    address, processes = _start_scheduler(tmp_path, "--preload", _without_cloversolve(tmp_path))
    try:
        stderr = _study_refusal(address)
    finally:
        _stop(processes)
    (line,) = [line for line in stderr.splitlines() if line.startswith("cloversolve")]
    assert re.fullmatch(
        r"cloversolve: error: Dask worker tcp://\S+ cannot run cloversolve \(.*cloversolve.*\): "
        r"install the same cloversolve on every worker",
        line,
    )


def test_a_scheduler_without_cloversolve_is_refused_in_one_line(tmp_path: Path) -> None:
    preload = ("--preload", _without_cloversolve(tmp_path))
    address, processes = _start_scheduler(tmp_path, scheduler_args=preload)
    try:
        stderr = _study_refusal(address)
    finally:
        _stop(processes)
    assert re.fullmatch(
        rf"cloversolve: error: Dask scheduler {re.escape(repr(address))} cannot read "
        r"cloversolve's tasks \(.*cloversolve.*\): install the same cloversolve on the "
        r"scheduler's machine\n",
        stderr,
    )


def test_a_lost_scheduler_stops_the_run_in_one_line_that_counts_the_saved_deals(
    tmp_path: Path,
) -> None:
    address, processes = _start_scheduler(tmp_path)
    checkpoint = tmp_path / "lost.ckpt"
    command = [*CLOVERSOLVE, "study", "blackhole", "--deals", "1..1000000", "--no-progress"]
    command += ["--scheduler", address, "--checkpoint", str(checkpoint), "--chunk-size", "50"]
    try:
        run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not checkpoint.exists() or len(checkpoint.read_bytes().splitlines()) < 3:
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        processes[1].kill()  # the scheduler
        out, err = run.communicate(timeout=300)  # a guard against a hang, not a timing
    finally:
        _stop(processes)
    saved = sum(
        len(orjson.loads(line)["results"]) for line in checkpoint.read_bytes().splitlines()[1:]
    )
    assert run.returncode == 2, err
    # (Dask's reason, "scheduler-connection-lost", or the connection's when a result was
    # being fetched as it went: "Stream is closed", "[Errno 104] Connection reset by peer")
    assert re.fullmatch(
        rf"cloversolve: error: lost the Dask scheduler {re.escape(repr(address))} "
        r"\([^\n]+\); "
        rf"{saved:,} deals are saved in {re.escape(repr(str(checkpoint)))}, run the same "
        "command again to resume\n",
        err,
    )


def test_a_scheduler_lost_while_a_result_is_fetched_is_one_error() -> None:
    distributed = needs_dask()
    from distributed.comm.core import CommClosedError

    class LostFuture:
        def result(self) -> None:
            try:
                raise ConnectionResetError(104, "Connection reset by peer")
            except ConnectionResetError as reset:
                raise CommClosedError("in <TCP (closed) ConnectionPool.gather>") from reset

    class Finished:
        def has_ready(self) -> bool:
            return True

        def __next__(self) -> LostFuture:
            return future

    future = LostFuture()
    pool = DaskPool.__new__(DaskPool)  # (no cluster: only the fetching of one result)
    pool.address, pool.done, pool.futures = "tcp://10.0.0.7:8786", Finished(), {future: range(1, 5)}
    pool.killed_worker = distributed.scheduler.KilledWorker
    with pytest.raises(ExecutorError) as lost:
        pool.next_done()
    assert str(lost.value) == (
        "lost the Dask scheduler 'tcp://10.0.0.7:8786' ([Errno 104] Connection reset by peer)"
    )


def slow_square(number: int) -> int:
    time.sleep(0.05)
    return number * number


def test_a_run_whose_workers_all_left_stops_in_one_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = needs_dask()
    address, processes = _start_scheduler(tmp_path)
    finished = []
    try:
        with distributed.Client(address, timeout="30s") as client:
            client.wait_for_workers(1, timeout=90)
        monkeypatch.setattr(dask_pool_module, "WAIT_FOR_WORKERS", 1)
        monkeypatch.setattr(dask_pool_module, "WORKER_CHECK", 0.2)
        with pytest.raises(ExecutorError) as stopped:
            for number, _ in run_deals(slow_square, range(1, 100_000), scheduler=address):
                finished.append(number)
                if number == 20:
                    _stop(processes[:1])  # the only worker leaves
    finally:
        _stop(processes)
    assert finished[:20] == list(range(1, 21))
    assert str(stopped.value) == (
        f"every Dask worker left {address!r} and none joined again within 1 s"
    )


@pytest.mark.parametrize(
    ("banner", "said"),
    [(None, "said nothing"), (b"SSH-2.0-OpenSSH_9.0\r\n", "answered in another protocol")],
)
def test_a_server_that_is_not_a_dask_scheduler_is_refused(banner: bytes | None, said: str) -> None:
    # A web server (a scheduler's dashboard) accepts the connection and waits for a request:
    # a Dask client would wait with it for ever. One that speaks first in another protocol
    # would have the client read its bytes as a message length.
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        if banner is not None:
            threading.Thread(target=_greet_once, args=(server, banner), daemon=True).start()
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        stderr = _study_refusal(address)
    assert stderr == (
        f"cloversolve: error: {address!r} is not a Dask scheduler (it {said} where a "
        "scheduler greets its clients; a scheduler listens on port 8786 unless told "
        "otherwise, its dashboard on 8787)\n"
    )


@pytest.mark.parametrize(
    ("role", "what"), [("worker", "a Dask worker"), ("nanny", "a Dask worker's nanny")]
)
def test_the_address_of_a_dask_worker_or_its_nanny_is_refused_in_one_line(
    role: str, what: str, cluster: str
) -> None:
    distributed = needs_dask()
    with distributed.Client(cluster, timeout="30s") as client:
        worker, info = next(iter(client.scheduler_info()["workers"].items()))
    address = worker if role == "worker" else info["nanny"]
    assert _study_refusal(address) == (
        f"cloversolve: error: {address!r} is {what}, not a Dask scheduler (give the address "
        "the scheduler printed when it started; a scheduler listens on port 8786 unless told "
        "otherwise)\n"
    )


def _greet_once(server: socket.socket, banner: bytes) -> None:
    connection, _ = server.accept()
    with connection:
        connection.sendall(banner)
        time.sleep(30)  # (the probe stops reading long before)


class OtherVersionPool(InlinePool):
    def next_done(self):  # type: ignore[no-untyped-def]
        first, (_, spent, results) = super().next_done()
        return first, (("9.9.9", 1, "tcp://10.0.0.7:4242"), spent, results)


def test_a_chunk_stamped_with_another_version_is_refused_naming_its_worker() -> None:
    with pytest.raises(ExecutorError) as refused:
        list(map_chunks(OtherVersionPool(None), abs, range(1, 10), chunk_size=4))
    version, rules = versions()
    assert str(refused.value) == (
        "worker tcp://10.0.0.7:4242 deciding deals 1..4 runs cloversolve 9.9.9, rules version "
        f"1; this process runs cloversolve {version}, rules version {rules}: install the same "
        "cloversolve on every worker"
    )


def test_a_chunk_says_which_dask_worker_ran_it(cluster: str) -> None:
    distributed = needs_dask()
    with distributed.Client(cluster, timeout="30s") as client:
        workers = set(client.scheduler_info()["workers"])
        (version, rules, where), _, results = client.submit(run_chunk, abs, -2, 1, None).result()
    assert (version, rules) == versions() and results == [2, 1, 0]
    assert where in workers


def test_a_local_cluster_says_once_that_its_kernels_compile(tmp_path: Path) -> None:
    # An empty numba cache: both workers compile, the run says so in one line.
    args = ["study", "fifteen", "--deals", "1..10", "--scheduler", "local:2"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [*CLOVERSOLVE, *args], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    notices = [line for line in done.stderr.splitlines() if "compiling" in line]
    assert notices == [notices[0]] and "fifteen search kernels" in notices[0]


@pytest.mark.dask
def test_local_dask_workers_keep_the_default_malloc(monkeypatch: pytest.MonkeyPatch) -> None:
    # Dask's nanny would set MALLOC_TRIM_THRESHOLD_, which makes every search map its tables
    # afresh; the workers of a local cluster get this process's environment, no more.
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    with open_pool(scheduler="local:1") as pool:
        assert isinstance(pool, DaskPool)
        seen = pool.client.run(os.environ.get, "MALLOC_TRIM_THRESHOLD_")
    assert list(seen.values()) == [None]
    assert "MALLOC_TRIM_THRESHOLD_" not in os.environ


def test_the_cluster_guide_gives_tcp_workers_the_settings_of_local_workers() -> None:
    yaml = require_module("yaml", "reading the cluster guide's YAML needs PyYAML (Dask has it)")
    guide = (HERE.parent / "docs" / "clusters.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```yaml\n(.*?)```", guide, flags=re.DOTALL)

    def flat(tree: dict, prefix: str = "") -> dict:
        items: dict = {}
        for key, value in tree.items():
            if isinstance(value, dict):
                items.update(flat(value, f"{prefix}{key}."))
            else:
                items[prefix + key] = value
        return items

    assert flat(yaml.safe_load(block)) == QUIET_WORKERS


def _default_stop_signals() -> None:
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("where", "signum", "whole_group", "status"),
    [
        (["--jobs", "2"], signal.SIGINT, True, 130),  # as a terminal's Ctrl-C: the whole group
        (["--scheduler", "local:2"], signal.SIGINT, True, 130),
        (["--jobs", "2"], signal.SIGTERM, False, 143),  # as ``kill PID``
        (["--jobs", "1"], signal.SIGHUP, False, 129),
    ],
)
def test_a_stop_signal_ends_a_study_quietly_and_leaves_only_its_checkpoint(
    where: list[str], signum: int, whole_group: bool, status: int, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "ctrl-c.ckpt"
    command = [*CLOVERSOLVE, "study", "thirteen", "--deals"]
    command += ["1..1000000", *where, "--no-progress", "--time-limit", "2"]
    command += ["--verdicts", str(tmp_path / "verdicts.txt")]
    process = subprocess.Popen(
        command + ["--checkpoint", str(checkpoint), "--chunk-size", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_stop_signals,  # (not ignored, as under ``nohup``)
    )
    deadline = time.monotonic() + 120
    while not checkpoint.exists() or len(checkpoint.read_bytes().splitlines()) < 2:
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.1)
    if whole_group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    out, err = process.communicate(timeout=180)  # a guard against a hang, not a timing
    assert process.returncode == status
    lines = checkpoint.read_bytes().splitlines()[1:]
    saved = sum(len(orjson.loads(line)["results"]) for line in lines)
    assert err.strip() == (
        f"cloversolve: interrupted; {saved:,} deals are saved in {str(checkpoint)!r}, "
        "run the same command again to resume"
    )
    assert os.listdir(tmp_path) == [checkpoint.name]  # (no verdicts, whole or in part)


def test_a_checkpoint_in_use_by_another_run_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    first = checkpoint_of(path)
    list(first.records(range(1, 10)))
    first.open()
    first.commit(range(1, 3), [1, 2])
    second = checkpoint_of(path)
    assert list(second.records(range(1, 10))) == [(range(1, 3), [1, 2])]
    with pytest.raises(CheckpointError, match="in use by another run"):
        second.open()
    first.commit(range(3, 4), [3])  # (the first run's file as it was)
    first.close()
    second.open()  # free once the first run has closed it
    second.commit(range(3, 5), [3, 4])
    second.close()
    assert [c for c, _ in checkpoint_of(path).records(range(1, 10))] == [range(1, 3), range(3, 5)]


# -- checkpoints ----------------------------------------------------------------------------


def checkpoint_of(path: Path) -> Checkpoint:
    return Checkpoint(path, {"kind": "test", "preset": "x"})


def test_checkpoint_header_is_on_disk_before_any_deal(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    seen: list[bytes] = []

    def look(number: int) -> int:
        seen.append(path.read_bytes())
        return number

    with open_pool(1) as pool:
        from cloversolve.runs.checkpoints import run_checkpointed

        list(run_checkpointed(pool, look, range(1, 3), checkpoint_of(path)))
    assert seen[0].count(b"\n") == 1 and orjson.loads(seen[0])["kind"] == "test"


@pytest.mark.parametrize(
    "content", [b"", b'{"kind": "catalogue", "other": 1}\n', b'{"format":"cloversolve-che']
)
def test_an_empty_or_header_only_checkpoint_is_a_fresh_start(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "ckpt"
    path.write_bytes(content)
    reference = study(STUDY_PRESET, range(1, 50))
    again = study(STUDY_PRESET, range(1, 50), checkpoint=path)
    assert without_timing(again.to_json()) == without_timing(reference.to_json())


def _route_and_layout_files() -> list[bytes]:
    route = CliRunner().invoke(main, ["solve", "thirteen", "1", "--json"])
    layout = CliRunner().invoke(main, ["deal", "thirteen", "1", "--json"])
    return [route.stdout.encode(), layout.stdout.encode()]


@pytest.mark.parametrize(
    "content",
    [b"my precious notes\n", b"my notes", b"line one\nline two\n", *_route_and_layout_files()],
    # (ids that do not hold the route file's timing: every worker of a parallel run must
    # collect the same tests)
    ids=["notes", "notes-unended", "two-lines", "route-file", "layout-file"],
)
def test_a_file_that_is_not_a_checkpoint_is_refused_and_kept(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    result = CliRunner().invoke(
        main, ["study", "thirteen", "--deals", "1..10", "--checkpoint", str(path)]
    )
    assert result.exit_code == 2
    assert result.output == (
        f"cloversolve: error: {str(path)!r} is not a cloversolve checkpoint (its first line "
        "is not a checkpoint header); refusing to overwrite it\n"
    )
    assert path.read_bytes() == content
    with pytest.raises(CheckpointError, match="is not a cloversolve checkpoint"):
        list(checkpoint_of(path).records(range(1, 10)))


def _saved_checkpoint(path: Path) -> Checkpoint:
    saved = checkpoint_of(path)
    with open_pool(1) as pool:
        from cloversolve.runs.checkpoints import run_checkpointed

        list(run_checkpointed(pool, abs, range(1, 31), saved, chunk_size=10))
    saved.close()
    return checkpoint_of(path)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"5", "not a chunk record"),
        (b'{"number": 31, "result": {}}', "not a chunk record"),
        (b'{"first": 31, "results": [31], "digest": "00"}', "digest"),
    ],
)
def test_checkpoint_lines_that_are_not_records_of_this_run_are_refused(
    tmp_path: Path, line: bytes, why: str
) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)
    with path.open("ab") as handle:
        handle.write(line + b"\n")
    with pytest.raises(CheckpointError, match=why):
        list(checkpoint_of(path).records(range(1, 100)))


def test_an_edited_checkpoint_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)
    path.write_bytes(path.read_bytes().replace(b"[11,12,13", b"[11,99,13"))
    with pytest.raises(CheckpointError, match="line 3 .*digest"):
        list(checkpoint_of(path).records(range(1, 100)))


def _never(number: int) -> int:
    raise AssertionError(f"deal {number} was decided again")


@pytest.mark.parametrize("stop", [31, 25, 16, 11, 3])
def test_a_checkpoint_of_a_longer_run_resumes_a_shorter_one(tmp_path: Path, stop: int) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)  # deals 1..30 in chunks of 10
    before = path.read_bytes()
    saved = checkpoint_of(path)
    with open_pool(1) as pool:
        from cloversolve.runs.checkpoints import run_checkpointed

        chunks = list(run_checkpointed(pool, _never, range(1, stop), saved))
    saved.close()
    assert [n for _, results in chunks for n in results] == list(range(1, stop))
    assert path.read_bytes() == before  # the deals past the range are kept


def test_a_study_resumes_from_the_checkpoint_of_a_longer_study(tmp_path: Path) -> None:
    path = tmp_path / "long.ckpt"
    study(STUDY_PRESET, range(1, 120), checkpoint=path, chunk_size=7)
    before = path.read_bytes()
    short = study(STUDY_PRESET, range(1, 40), checkpoint=path)
    assert without_timing(short.to_json()) == without_timing(
        study(STUDY_PRESET, range(1, 40)).to_json()
    )
    assert short.work.deals == 0 and path.read_bytes() == before


def test_a_checkpoint_of_another_first_deal_is_refused_plainly(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)
    with pytest.raises(CheckpointError, match=r"starts at deal 1, this run at deal 11: .*1\.\.B"):
        list(checkpoint_of(path).records(range(11, 100)))


def test_an_interrupted_study_says_how_many_deals_its_checkpoint_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.ckpt"
    real_add = study_module.StudyReport.add
    calls = itertools.count()

    def add_then_stop(self: study_module.StudyReport, results: list) -> None:
        if next(calls) == 3:
            raise KeyboardInterrupt
        real_add(self, results)

    monkeypatch.setattr(study_module.StudyReport, "add", add_then_stop)
    args = ["study", STUDY_PRESET, "--deals", "1..100", "--chunk-size", "10"]
    result = CliRunner().invoke(main, [*args, "--checkpoint", str(path)])
    assert result.exit_code == 130
    saved = sum(len(orjson.loads(line)["results"]) for line in path.read_bytes().splitlines()[1:])
    assert saved == 40  # four chunks recorded; the fourth stopped before it was tallied
    assert result.output.splitlines()[-1] == (
        f"cloversolve: interrupted; 40 deals are saved in {str(path)!r}, run the same "
        "command again to resume"
    )
    monkeypatch.setattr(study_module.StudyReport, "add", real_add)
    without = CliRunner().invoke(main, args)
    assert without.exit_code == 0


def test_an_interruption_before_the_checkpoint_exists_says_only_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted_while_workers_start(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(study_module, "open_pool", interrupted_while_workers_start)
    path = tmp_path / "never.ckpt"
    args = ["study", STUDY_PRESET, "--deals", "1..100", "--checkpoint", str(path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130 and not path.exists()
    assert result.output == "cloversolve: interrupted\n"  # no "0 deals are saved"


@pytest.mark.parametrize(
    ("before", "now", "shown"),
    [
        (["--time-limit", "5"], ["--time-limit", "7"], "time_limit: 5.0 there, 7.0 here"),
        ([], ["--max-nodes", "100"], "max_nodes: not set there, 100 here"),
    ],
)
def test_a_checkpoint_of_other_parameters_names_them(
    before: list[str], now: list[str], shown: str, tmp_path: Path
) -> None:
    path = tmp_path / "run.ckpt"
    args = ["study", STUDY_PRESET, "--deals", "1..20", "--checkpoint", str(path)]
    assert CliRunner().invoke(main, [*args, *before]).exit_code == 0
    result = CliRunner().invoke(main, [*args, *now])
    assert result.exit_code == 2
    assert result.output == (
        f"cloversolve: error: checkpoint {str(path)!r} belongs to a run with other parameters "
        f"({shown}); give the same parameters to resume it, or another checkpoint file\n"
    )


def test_a_catalogue_checkpoint_of_another_build_is_named_in_one_short_line(
    tmp_path: Path,
) -> None:
    """Another preset's build differs in its preset and in many fields of its grading rule:
    the message names the first with their values and counts the rest, no object shown."""
    out = tmp_path / "x.json"
    fifteen = Checkpoint(
        checkpoint_path(out),
        catalogue_module._checkpoint_header("fifteen", catalogue_module.grading_rule("fifteen")),
    )
    checkpoint_path(out).write_bytes(fifteen.header_bytes + b"\n" + b'{"first": 1}\n')
    result = CliRunner().invoke(
        main,
        [
            "catalogue",
            "build",
            "thirteen",
            "--deals",
            "1..9",
            "--per-difficulty",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 2 and result.stdout == ""
    line = result.stderr.strip()
    assert "\n" not in line and "{" not in line and len(line) < 250 + len(str(out)), line
    assert "(preset: 'fifteen' there, 'thirteen' here; grading." in line
    assert re.search(r"; \d+ more in grading\)", line), line


def stop_builds_at_chunk(
    monkeypatch: pytest.MonkeyPatch, index: int, error: type[BaseException] = KeyboardInterrupt
) -> Callable[[], None]:
    """Make catalogue builds raise ``error`` when chunk ``index`` (from 0) reaches the
    selection; the function returned puts the real selection back."""
    real_advance = catalogue_module._Selection.advance
    calls = itertools.count()

    def advance_then_stop(self, chunk, results):  # type: ignore[no-untyped-def]
        if next(calls) == index:
            raise error
        real_advance(self, chunk, results)

    monkeypatch.setattr(catalogue_module._Selection, "advance", advance_then_stop)
    return lambda: monkeypatch.setattr(catalogue_module._Selection, "advance", real_advance)


def test_an_interrupted_build_says_how_many_deals_its_checkpoint_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "cat.json"
    stop_builds_at_chunk(monkeypatch, 2)
    args = ["catalogue", "build", BUILD_PRESET, "--deals", "1..399", "--per-difficulty", "2"]
    result = CliRunner().invoke(main, [*args, "--out", str(out), "--chunk-size", "3"])
    assert result.exit_code == 130 and not out.exists()
    assert result.output.splitlines()[-1] == (
        f"cloversolve: interrupted; 9 deals are saved in {str(checkpoint_path(out))!r}, "
        "run the same command again to resume"
    )


@pytest.mark.parametrize(
    ("tail", "dropped"), [(b'{"first": 31, "resu', 1), (b"\n", 0), (b"  \n", 0)]
)
def test_a_torn_last_line_is_dropped_and_counted(tail: bytes, dropped: int, tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)
    with path.open("ab") as handle:
        handle.write(tail)
    saved = checkpoint_of(path)
    chunks = list(saved.records(range(1, 100)))
    assert [c for c, _ in chunks] == [range(1, 11), range(11, 21), range(21, 31)]
    assert saved.dropped == dropped  # (a blank line held no deals: no note of a loss)
    saved.open()  # resuming cuts the torn line off
    saved.close()
    assert path.read_bytes().endswith(b"}\n") and path.read_bytes().count(b"\n") == 1 + 3


def test_a_damaged_line_before_the_last_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.ckpt"
    _saved_checkpoint(path)
    header, first, *rest = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(header + first[: len(first) // 2] + b"\n" + b"".join(rest))
    with pytest.raises(CheckpointError, match="line 2 is damaged"):
        list(checkpoint_of(path).records(range(1, 100)))


@pytest.mark.parametrize(
    ("result", "why"),
    [
        (["bogus", "route-found", 1, 0.1], 'status "bogus"'),
        (["solved", "nonsense", 1, 0.1], 'method "nonsense"'),
        (["solved", "route-found", -5, 0.1], "nodes -5"),
        (["solved", "route-found", 1, "NaN"], 'seconds "NaN"'),
        ([1, 2, 3], "[1,2,3] is not"),
        (None, "null is not"),
    ],
)
def test_a_forged_study_record_is_refused_in_one_line(
    tmp_path: Path, result: object, why: str
) -> None:
    path = tmp_path / "s.ckpt"
    args = ["study", STUDY_PRESET, "--deals", "1..30", "--chunk-size", "10", "--no-progress"]
    assert CliRunner().invoke(main, [*args, "--checkpoint", str(path)]).exit_code == 0
    header, first, *rest = path.read_bytes().splitlines(keepends=True)
    saved = Checkpoint(path, {})
    saved.header_bytes = orjson.dumps(orjson.loads(header), option=orjson.OPT_SORT_KEYS)
    saved.key = hashlib.sha256(saved.header_bytes).digest()
    record = orjson.loads(first)
    record["results"][3] = result
    record["digest"] = saved.digest(record["first"], record["results"])  # a valid digest
    path.write_bytes(header + orjson.dumps(record) + b"\n" + b"".join(rest))
    refused = CliRunner().invoke(main, [*args, "--checkpoint", str(path)])
    assert refused.exit_code == 2, refused.output
    lines = refused.stderr.splitlines()
    assert len(lines) == 1 and "line 2 is not a record of this run (deal 4: " in lines[0]
    assert why in lines[0]


def _torn(path: Path) -> None:
    """Cut the last line of ``path`` short, as a kill during a write does."""
    data = path.read_bytes()
    path.write_bytes(data[: data.rstrip(b"\n").rfind(b"\n") + 20])


def test_a_resumed_study_and_build_say_they_dropped_a_torn_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkpoint = tmp_path / "s.ckpt"
    args = ["study", STUDY_PRESET, "--deals", "1..60", "--chunk-size", "10", "--no-progress"]
    first = CliRunner().invoke(main, [*args, "--json", "--checkpoint", str(checkpoint)])
    _torn(checkpoint)
    again = CliRunner().invoke(main, [*args, "--json", "--checkpoint", str(checkpoint)])
    assert again.exit_code == 0 and json.loads(again.stdout) != {}
    assert without_timing(json.loads(again.stdout)) == without_timing(json.loads(first.stdout))
    assert again.stderr == (
        f"resuming from {str(checkpoint)!r}: 50 of 60 deals done\n"
        f"note: dropped 1 line of checkpoint {str(checkpoint)!r} cut short by an interrupted "
        "write (or unreadable); any deals they held were done again\n"
    )
    out = tmp_path / "cat.json"
    build_args = ["catalogue", "build", BUILD_PRESET, "--deals", "1..399", "--per-difficulty"]
    build_args += ["2", "--out", str(out), "--chunk-size", "3", "--no-progress"]
    undo = stop_builds_at_chunk(monkeypatch, 4)
    assert CliRunner().invoke(main, build_args).exit_code == 130
    undo()
    _torn(checkpoint_path(out))
    built = CliRunner().invoke(main, build_args)
    assert built.exit_code == 0, built.output
    resumed, dropped = built.stderr.splitlines()[:2]
    assert resumed.startswith(f"resuming from {str(checkpoint_path(out))!r}: ")
    assert dropped.startswith(
        f"note: dropped 1 line of checkpoint {str(checkpoint_path(out))!r} cut short"
    )


def test_a_resumed_record_whose_route_does_not_win_is_not_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "forged.json"
    undo = stop_builds_at_chunk(monkeypatch, 3, Interrupt)
    with pytest.raises(Interrupt):
        build(BUILD_PRESET, BUILD_DEALS, PER_DIFFICULTY, out, chunk_size=2)
    undo()
    path = checkpoint_path(out)
    header, *records = path.read_bytes().splitlines()
    saved = Checkpoint(path, {})
    saved.header_bytes = orjson.dumps(orjson.loads(header), option=orjson.OPT_SORT_KEYS)
    saved.key = __import__("hashlib").sha256(saved.header_bytes).digest()
    forged = []
    for line in records:
        record = orjson.loads(line)
        for result in record["results"]:
            if result["status"] == "solved" and not forged:
                result["route"] = result["route"][:-1]  # one move short of the win
                forged.append(result["number"])
        record["digest"] = saved.digest(record["first"], record["results"])
        path.write_bytes(path.read_bytes().replace(line, orjson.dumps(record)))
    assert forged
    report = build(BUILD_PRESET, BUILD_DEALS, PER_DIFFICULTY, out)
    assert [problem.number for problem in report.rejected] == forged
    assert "route does not replay to a win" in report.rejected[0].message
    assert forged[0] not in [entry["number"] for entry in orjson.loads(out.read_bytes())["deals"]]


# -- ranges, jobs, schedulers, outputs ------------------------------------------------------


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
    result = CliRunner().invoke(
        main,
        ["catalogue", "build", BUILD_PRESET, "--deals", "1..99999999999999999999"]
        + ["--per-difficulty", "1", "--out", str(out), "--no-progress"],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_bytes())["parameters"]["deals"]["last"] == "99999999999999999999"
    assert load(out)["parameters"]["deals"]["last"] == 10**20 - 1 and verify(out) == []


def test_a_bench_of_too_many_deals_is_refused_in_one_line() -> None:
    result = CliRunner().invoke(main, ["bench", "fifteen", "--deals", "1..99999999999999999999"])
    assert result.exit_code == 2
    assert result.output.startswith("cloversolve: error: ") and result.output.count("\n") == 1
    assert "at most 1,000,000 deals" in result.output


def test_deal_zero_is_named_as_out_of_range() -> None:
    with pytest.raises(DealNumberError, match=r"'0\.\.5' \(deal 0 is out of range"):
        parse_deal_range("0..5")
    with pytest.raises(DealNumberError, match="expected A..B"):
        parse_deal_range("one..5")


def test_jobs_are_capped_by_the_deals_and_the_cores() -> None:
    assert cap_jobs(64, range(1, 3)) == 2
    assert cap_jobs(10**6, range(1, 10**20)) <= 4 * (os.cpu_count() or 1)
    assert cap_jobs(1, range(1, 10**20)) == 1


def test_jobs_and_a_scheduler_are_not_given_together() -> None:
    args = ["study", "fifteen", "--deals", "1..5", "--jobs", "2", "--scheduler", "local:2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert result.output == "cloversolve: error: give --jobs or --scheduler, not both\n"


@pytest.mark.parametrize(
    "address",
    [
        "local:0",
        "local:x",
        "8786",
        "tcp://",
        "tcp://:8786",
        "tcp://host",
        "tcp://127.0.0.1:99999",
        "tcp://127.0.0.1:0",
        "tls://127.0.0.1:8786",
        "ucx://127.0.0.1:1",
        "inproc://x",
    ],
)
def test_bad_scheduler_addresses_are_refused(address: str) -> None:
    with pytest.raises(ExecutorError, match="bad scheduler"):
        check_scheduler(address)
    result = CliRunner().invoke(
        main, ["study", "fifteen", "--deals", "1..5", "--scheduler", address]
    )
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"cloversolve: error: bad scheduler: {address!r} (expected tcp://HOST:PORT or local:N)\n"
    )


def test_a_scheduler_without_dask_installed_names_the_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "dask", None)  # as if Dask were not installed
    with pytest.raises(ExecutorError) as refused:
        open_pool(scheduler="local:1").__enter__()
    assert str(refused.value) == (
        "--scheduler needs Dask: install the dask extra (python -m pip install '.[dask]' in a "
        "cloversolve checkout)"
    )
    import tomllib

    extras = tomllib.loads((HERE.parent / "pyproject.toml").read_text())["project"]
    assert {"dask", "bench"} <= set(extras["optional-dependencies"])


@pytest.mark.dask
def test_a_scheduler_nobody_listens_at_is_refused_at_once() -> None:
    with socket.socket() as probe:  # a free port, closed again: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    result = CliRunner().invoke(
        main, ["study", "fifteen", "--deals", "1..5", "--scheduler", address]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith(f"cloversolve: error: cannot reach Dask scheduler {address!r}")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "empty"),
        (".", "is a directory"),
        ("missing/out.json", "no folder"),
        ("/sys/out.json", "cannot write"),
    ],
)
def test_unusable_out_files_fail_before_any_grading(
    name: str, why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    graded: list[int] = []
    monkeypatch.setattr(catalogue_module, "grade_worker", lambda *args: graded.append(1))
    with pytest.raises(OutputPathError, match=why):
        check_output_path(name, "catalogue")
    result = CliRunner().invoke(
        main,
        ["catalogue", "build", "fifteen", "--deals", "1..50", "--per-difficulty", "1"]
        + ["--out", name],
    )
    assert result.exit_code != 0 and not graded
    assert list(tmp_path.iterdir()) == []  # no stray temporary or checkpoint file


def _special_files(folder: Path) -> dict[str, Path]:
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    device = folder / "device.json"
    device.symlink_to(os.devnull)  # a link to a device: writing it must not replace the link
    return {"a named pipe": fifo, "a character device": device, "a directory": folder}


def test_outputs_that_are_not_regular_files_are_refused(tmp_path: Path) -> None:
    for kind, path in _special_files(tmp_path).items():
        with pytest.raises(OutputPathError, match=f"is {kind}"):
            check_output_path(path, "catalogue")
    with pytest.raises(OutputPathError, match="'/dev/full' is a character device"):
        check_output_path("/dev/full", "catalogue")
    with (
        pytest.raises(OutputPathError, match="is a named pipe"),
        atomic_output(tmp_path / "fifo") as out,
    ):
        out.write(b"never")
    assert stat_kind(tmp_path / "fifo") == "fifo"


def stat_kind(path: Path) -> str:
    return "fifo" if stat.S_ISFIFO(path.lstat().st_mode) else "other"


@pytest.mark.parametrize("option", ["--verdicts", "--checkpoint"])
def test_study_outputs_that_are_not_regular_files_are_refused_before_any_deal(
    tmp_path: Path, option: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    decided: list[int] = []
    monkeypatch.setattr(study_module, "study_deal", lambda *args: decided.append(1))
    for kind, path in _special_files(tmp_path).items():
        if kind == "a directory":
            continue
        result = CliRunner().invoke(
            main, ["study", STUDY_PRESET, "--deals", "1..5", option, str(path)]
        )
        assert result.exit_code == 2, (kind, result.output)
        assert result.output == (
            f"cloversolve: error: bad {option[2:]} file: {str(path)!r} is {kind}, not a "
            "regular file\n"
        )
    assert not decided and (tmp_path / "device.json").is_symlink()


def test_one_file_for_verdicts_and_checkpoint_is_refused_before_any_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decided: list[int] = []
    monkeypatch.setattr(study_module, "study_deal", lambda *args: decided.append(1))
    same = tmp_path / "same.txt"
    args = ["study", STUDY_PRESET, "--deals", "1..5", "--verdicts", str(same)]
    result = CliRunner().invoke(main, [*args, "--checkpoint", str(same)])
    assert result.exit_code == 2, result.output
    assert result.output == (
        f"cloversolve: error: the verdicts and the checkpoint are both {str(same)!r}\n"
    )
    assert not decided and not same.exists()


def test_outputs_are_written_through_symbolic_links(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "verdicts.txt"
    earlier = {"format": "cloversolve-verdicts", "preset": STUDY_PRESET, "first": 1}
    target.write_bytes(json.dumps(earlier).encode() + b"\n")  # an earlier verdict file
    link = tmp_path / "link.verdicts"
    link.symlink_to(target)
    dangling = tmp_path / "new.verdicts"
    dangling.symlink_to(tmp_path / "real" / "new.txt")
    for path in (link, dangling):
        result = CliRunner().invoke(
            main, ["study", STUDY_PRESET, "--deals", "1..5", "--verdicts", str(path)]
        )
        assert result.exit_code == 0, result.output
        assert path.is_symlink()
        assert read_verdicts(path)[1] == read_verdicts(path.resolve())[1] != ""
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["new.txt", "verdicts.txt"]
    write_atomic(link, b"through the link")
    assert link.is_symlink() and target.read_bytes() == b"through the link"


def test_atomic_writes_never_open_a_file_already_at_the_temporary_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"untouched")
    target = tmp_path / "out.json"
    tokens = iter(["aa", "aa", "bb"])  # the second try meets the planted link again
    monkeypatch.setattr(output_module.secrets, "token_hex", lambda size: next(tokens))
    planted = tmp_path / f".out.json.{os.getpid()}.aa.tmp"
    planted.symlink_to(victim)  # a link planted at the first name tried
    write_atomic(target, b"new content")
    assert target.read_bytes() == b"new content" and victim.read_bytes() == b"untouched"
    assert planted.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [planted.name, "out.json", "victim.txt"]
    )
    mask = os.umask(0o022)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask


def test_atomic_writes_reach_a_file_whose_name_is_as_long_as_names_go(tmp_path: Path) -> None:
    longest = os.pathconf(tmp_path, "PC_NAME_MAX")
    target = tmp_path / ("v" * longest)
    write_atomic(target, b"content")  # (its temporary file's name is no longer)
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
    assert target.read_bytes() == b"content"


@pytest.mark.parametrize("option", ["--checkpoint", "--out"])
def test_a_name_too_long_for_an_output_or_its_checkpoint_is_refused_in_one_line(
    option: str, tmp_path: Path
) -> None:
    longest = os.pathconf(tmp_path, "PC_NAME_MAX")
    if option == "--out":  # (a name that fits, but not with ``.checkpoint`` after it)
        name = "c" * (longest - 3)
        command = ["catalogue", "build", BUILD_PRESET, "--per-difficulty", "1"]
    else:
        name, command = "c" * (longest + 1), ["study", STUDY_PRESET]
    result = CliRunner().invoke(main, [*command, "--deals", "1..50", option, str(tmp_path / name)])
    assert result.exit_code == 2
    assert result.output.startswith("cloversolve: error: bad ") and result.output.count("\n") == 1
    assert "File name too long" in result.output and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["catalogue", "build", BUILD_PRESET, "--deals", "1..50", "--out", "-"],
        ["study", STUDY_PRESET, "--deals", "1..5", "--verdicts", "-"],
        ["bench", STUDY_PRESET, "--deals", "1..5", "--out", "-"],  # (a folder)
    ],
)
def test_a_dash_for_an_output_file_is_refused_not_taken_as_a_file_name(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert result.output.startswith("cloversolve: error: bad ") and "'-'" in result.output
    assert result.output.count("\n") == 1 and list(tmp_path.iterdir()) == []


def test_a_build_output_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    args = ["catalogue", "build", BUILD_PRESET, "--deals", "1..50", "--per-difficulty", "1"]
    result = CliRunner().invoke(main, [*args, "--out", str(fifo)])
    assert result.exit_code == 2
    assert result.output == (
        f"cloversolve: error: bad catalogue file: {str(fifo)!r} is a named pipe, not a "
        "regular file\n"
    )
    assert stat_kind(fifo) == "fifo" and sorted(tmp_path.iterdir()) == [fifo]
    out = tmp_path / "cat.json"
    os.mkfifo(checkpoint_path(out))
    result = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 2 and "is a named pipe" in result.output


def test_a_build_whose_checkpoint_is_its_output_under_another_name_is_refused(
    tmp_path: Path,
) -> None:
    args = ["catalogue", "build", BUILD_PRESET, "--deals", "1..50", "--per-difficulty", "1"]
    for link in (os.symlink, os.link):
        out = tmp_path / link.__name__ / "cat.json"
        out.parent.mkdir()
        out.write_bytes(b"")
        link(out, checkpoint_path(out))
        result = CliRunner().invoke(main, [*args, "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert result.output == (
            f"cloversolve: error: the catalogue and the checkpoint are both {str(out)!r} "
            f"(as {str(checkpoint_path(out))!r})\n"
        )
        assert out.read_bytes() == b""


def test_an_unusable_bench_folder_fails_before_any_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    benched: list[int] = []
    monkeypatch.setattr(cli_bench_module, "bench", lambda *args, **kwargs: benched.append(1))
    plain = tmp_path / "notes.txt"
    plain.write_text("notes")
    cases = {
        str(plain): f"{str(plain)!r} is not a folder",
        str(plain / "out"): f"{str(plain / 'out')!r} ({str(plain)!r} is not a folder)",
        "": "'' (empty)",
    }
    for out, why in cases.items():
        result = CliRunner().invoke(
            main, ["bench", STUDY_PRESET, "--deals", "1..3", "--no-warm-start", "--out", out]
        )
        assert result.exit_code == 2, result.output
        assert result.output == f"cloversolve: error: bad bench output folder: {why}\n"
    for name in ("bench.md", "bench_fifteen.json", "bench_fifteen.png"):
        taken = tmp_path / f"taken_{name}" / name  # a folder where the file would go
        taken.mkdir(parents=True)
        result = CliRunner().invoke(
            main, ["bench", STUDY_PRESET, "--deals", "1..3", "--out", str(taken.parent)]
        )
        assert result.exit_code == 2, result.output
        assert result.output == (
            f"cloversolve: error: bad bench output file: {str(taken)!r} is a directory\n"
        )
    assert not benched and plain.read_text() == "notes"
    assert check_output_folder(tmp_path / "new" / "deeper") == tmp_path / "new" / "deeper"
    assert not (tmp_path / "new").exists()  # checked, not made
