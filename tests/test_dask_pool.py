"""The Dask backend: schedulers and workers of another version or without cloversolve,
a scheduler or workers lost mid-run, addresses that are not a scheduler's, and the
settings of local workers."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson
import pytest
from external_tools import require_module
from helpers import (
    CLOVERSOLVE,
    HERE,
    STUDY_PRESET,
    assert_one_line_error,
    needs_dask,
    run,
    start_scheduler,
    stop_processes,
)

import cloversolve.runs.dask_pool as dask_pool_module
from cloversolve.runs.checkpoints import run_deals
from cloversolve.runs.dask_pool import QUIET_WORKERS, DaskPool, check_scheduler
from cloversolve.runs.executors import open_pool
from cloversolve.runs.study import study
from cloversolve.runs.workers import ExecutorError


@pytest.mark.dask
@pytest.mark.parametrize("where", ["worker", "scheduler"])
def test_a_worker_or_scheduler_of_another_version_is_refused(where: str, tmp_path: Path) -> None:
    preload = tmp_path / "other_version.py"
    preload.write_text(
        "import cloversolve.core.version\ncloversolve.core.version.__version__ = '0.0.0+other'\n"
    )
    given = ("--preload", str(preload))
    if where == "worker":
        address, processes = start_scheduler(tmp_path, *given)
    else:
        address, processes = start_scheduler(tmp_path, scheduler_args=given)
    try:
        with pytest.raises(ExecutorError, match=rf"^{where} .*0\.0\.0\+other.*same cloversolve"):
            study(STUDY_PRESET, range(1, 20), scheduler=address)
    finally:
        stop_processes(processes)


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
    address, processes = start_scheduler(tmp_path, "--preload", _without_cloversolve(tmp_path))
    try:
        stderr = _study_refusal(address)
    finally:
        stop_processes(processes)
    (line,) = [line for line in stderr.splitlines() if line.startswith("cloversolve")]
    assert re.fullmatch(
        r"cloversolve: error: Dask worker tcp://\S+ cannot run cloversolve \(.*cloversolve.*\): "
        r"install the same cloversolve on every worker",
        line,
    )


def test_a_scheduler_without_cloversolve_is_refused_in_one_line(tmp_path: Path) -> None:
    preload = ("--preload", _without_cloversolve(tmp_path))
    address, processes = start_scheduler(tmp_path, scheduler_args=preload)
    try:
        stderr = _study_refusal(address)
    finally:
        stop_processes(processes)
    assert re.fullmatch(
        rf"cloversolve: error: Dask scheduler {re.escape(repr(address))} cannot read "
        r"cloversolve's tasks \(.*cloversolve.*\): install the same cloversolve on the "
        r"scheduler's machine\n",
        stderr,
    )


def test_a_lost_scheduler_stops_the_run_in_one_line_that_counts_the_saved_deals(
    tmp_path: Path,
) -> None:
    address, processes = start_scheduler(tmp_path)
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
        stop_processes(processes)
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
    address, processes = start_scheduler(tmp_path)
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
                    stop_processes(processes[:1])  # the only worker leaves
    finally:
        stop_processes(processes)
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
    result = run("study", "fifteen", "--deals", "1..5", "--scheduler", address)
    assert result.exit_code == 2 and result.stdout == ""
    expected = "tcp://HOST:PORT or local:N"
    if address.startswith("local:"):
        expected += f", N {WORKER_COUNT}"
    assert (
        result.stderr == f"cloversolve: error: bad scheduler: {address!r} (expected {expected})\n"
    )


#: What the command line says N of ``local:N`` must be.
WORKER_COUNT = "a whole number from 1 to 1024 in plain decimal digits, as --jobs takes"


@pytest.mark.parametrize(
    "address", ["local:01", "local:+2", "local:\uff12", "local:1025", "local:" + "9" * 20]
)
def test_the_worker_count_of_a_local_cluster_is_read_as_jobs_is(address: str) -> None:
    result = run("study", "fifteen", "--deals", "1..5", "--scheduler", address)
    assert_one_line_error(result, 2, f"bad scheduler: {address!r}", WORKER_COUNT)
    assert result.stdout == ""


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
    result = run("study", "fifteen", "--deals", "1..5", "--scheduler", address)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"cloversolve: error: cannot reach Dask scheduler {address!r}")
