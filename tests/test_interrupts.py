"""Ctrl-C stops the command line wherever it lands: in a callback from C, while worker
processes start, while the command line's modules load. Each case is provoked exactly (a
callback that raises, a fork hook that sends SIGINT), in a child Python process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from helpers import CLOVERSOLVE

from cloversolve.runs.checkpoints import run_deals
from cloversolve.runs.interrupts import starting_workers, stop_signals_held

needs_signal_masks = pytest.mark.skipif(
    not hasattr(signal, "pthread_sigmask") or not hasattr(os, "register_at_fork"),
    reason="needs POSIX signal masks and fork hooks",
)


def run_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=120,  # a guard against a hang, not a timing
    )


CALLBACK_FROM_C = """
    import ctypes, sys, time
    from cloversolve.runs.interrupts import forward_dropped_interrupts
    if sys.argv[1] == "forward":
        forward_dropped_interrupts()
    compare_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
    def compare(a, b):
        raise KeyboardInterrupt  # as if Ctrl-C landed inside the callback
    numbers = (ctypes.c_int * 2)(2, 1)
    try:
        ctypes.CDLL(None).qsort(numbers, 2, ctypes.sizeof(ctypes.c_int), compare_type(compare))
        time.sleep(0.5)  # the program goes on doing something
        print("went on")
    except KeyboardInterrupt:
        print("stopped")
"""


@needs_signal_masks
def test_an_interrupt_dropped_in_a_callback_from_c_still_stops_the_program() -> None:
    plain = run_python(CALLBACK_FROM_C, "plain")
    assert plain.stdout.strip() == "went on"  # what Python does by itself
    assert "Exception ignored" in plain.stderr
    forwarded = run_python(CALLBACK_FROM_C, "forward")
    assert forwarded.stdout.strip() == "stopped"
    assert "Exception ignored" not in forwarded.stderr


@needs_signal_masks
def test_an_interrupt_while_workers_start_is_delivered_when_they_are_up() -> None:
    reached = False
    with pytest.raises(KeyboardInterrupt), starting_workers():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        reached = True
    assert reached


@needs_signal_masks
def test_a_worker_interrupted_as_it_starts_survives_and_works() -> None:
    done = run_python("""
        import os, signal
        from cloversolve.runs.local_pool import LocalPool
        # SIGINT reaches each new worker before any of its own code runs
        os.register_at_fork(after_in_child=lambda: os.kill(os.getpid(), signal.SIGINT))
        pool = LocalPool(2, None)
        pool.submit(abs, range(-3, 0))
        print(pool.next_done()[1][2])
        pool.close()
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[3, 2, 1]"
    assert done.stderr == ""


@needs_signal_masks
def test_an_interrupt_while_a_worker_starts_stops_the_pool_and_its_workers() -> None:
    done = run_python("""
        import multiprocessing, os, signal
        from cloversolve.runs.local_pool import LocalPool
        os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGINT))
        try:
            LocalPool(2, None)
            print("went on")
        except KeyboardInterrupt:
            print("stopped", len(multiprocessing.active_children()))
    """)
    assert done.stdout.strip() == "stopped 0", done.stderr
    assert "Exception ignored" not in done.stderr


SPAWNED_WORKER_MASK = """
    import multiprocessing, shutil, sys
    from cloversolve.runs.interrupts import starting_workers
    spawn = multiprocessing.get_context("spawn")  # a new interpreter, as Dask's nanny starts
    with starting_workers(new_interpreters=sys.argv[1] == "new"):
        worker = spawn.Process(target=shutil.copyfile, args=("/proc/self/status", sys.argv[2]))
        worker.start()
    worker.join()
"""


@needs_signal_masks
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
@pytest.mark.parametrize(("kind", "blocked"), [("new", True), ("plain", False)])
def test_workers_with_a_new_interpreter_start_with_interrupts_held_back(
    kind: str, blocked: bool, tmp_path: Path
) -> None:
    status = tmp_path / "status"
    done = run_python(SPAWNED_WORKER_MASK, kind, str(status))
    assert done.returncode == 0, done.stderr
    (mask,) = (
        int(line.split()[1], 16)
        for line in status.read_text().splitlines()
        if line.startswith("SigBlk:")
    )
    assert bool(mask & (1 << (signal.SIGINT - 1))) is blocked  # (multiprocessing unblocks it)


def test_an_interrupt_while_the_command_line_loads_is_one_line() -> None:
    done = run_python("""
        import sys
        class Interrupt:
            def find_spec(self, name, path=None, target=None):
                if name == "cloversolve.cli.main":
                    raise KeyboardInterrupt
        sys.meta_path.insert(0, Interrupt())
        sys.argv = ["cloversolve", "presets"]
        from cloversolve.__main__ import main
        main()
    """)
    assert done.returncode == 130
    assert done.stderr == "cloversolve: interrupted\n"


FAILS_AFTER_A_DROPPED_INTERRUPT = """
    import ctypes, sys
    import cloversolve.cli.main

    def command():
        if sys.argv[1] == "dropped":
            compare_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
            def compare(a, b):
                raise KeyboardInterrupt
            numbers = (ctypes.c_int * 2)(2, 1)
            ctypes.CDLL(None).qsort(numbers, 2, 4, compare_type(compare))
        raise RuntimeError("no compiled object yet")  # as numba does after a dropped one

    cloversolve.cli.main.main = command
    from cloversolve.__main__ import main
    main()
"""


@needs_signal_masks
def test_an_error_caused_by_a_dropped_interrupt_is_the_interrupt() -> None:
    dropped = run_python(FAILS_AFTER_A_DROPPED_INTERRUPT, "dropped")
    assert dropped.returncode == 130
    assert dropped.stderr == "cloversolve: interrupted\n"
    # the same error without an interrupt is not hidden
    plain = run_python(FAILS_AFTER_A_DROPPED_INTERRUPT, "plain")
    assert plain.returncode == 1
    assert "RuntimeError: no compiled object yet" in plain.stderr


def test_an_interrupt_without_a_checkpoint_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import cloversolve.cli.main as cli

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("cloversolve.runs.study.study", interrupted)  # (imported as it runs)
    result = CliRunner().invoke(cli.main, ["study", "fifteen", "--deals", "1..10"])
    assert result.exit_code == 130
    assert result.stderr == "cloversolve: interrupted\n"  # no empty line before it


@needs_signal_masks
def test_stop_signals_wait_for_the_end_of_a_held_block() -> None:
    received: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: received.append(signum))
    try:
        with stop_signals_held():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # (time for a signal that was not held to be handled)
            assert received == []
        assert received == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)


def _stop_handlers(number: int) -> tuple[bool, bool]:
    """In a worker: whether SIGTERM and SIGHUP do what they do by default."""
    return tuple(  # type: ignore[return-value]
        signal.getsignal(getattr(signal, name, signal.SIGTERM)) == signal.SIG_DFL
        for name in ("SIGTERM", "SIGHUP")
    )


@needs_signal_masks
def test_workers_do_not_run_the_parents_stop_handlers() -> None:
    def parents(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = {s: signal.signal(s, parents) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        results = [result for _, result in run_deals(_stop_handlers, range(1, 5), jobs=2)]
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    assert results == [(True, True)] * 4


def test_a_run_stops_once_whatever_stop_signals_follow() -> None:
    done = run_python(
        """
        import signal
        from cloversolve.runs.interrupts import interrupted_status, stop_on_signals
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        stop_on_signals()
        try:
            signal.raise_signal(signal.SIGTERM)
        except KeyboardInterrupt:
            print("stopped")
        signal.raise_signal(signal.SIGHUP)  # the run is already ending: no second stop
        signal.raise_signal(signal.SIGTERM)
        print(interrupted_status())
        """
    )
    assert (done.returncode, done.stdout.split()) == (0, ["stopped", "143"]), done.stderr


def test_a_stop_signal_ignored_from_the_start_stays_ignored() -> None:
    done = run_python(
        """
        import signal
        from cloversolve.runs.interrupts import interrupted_status, stop_on_signals
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
        stop_on_signals()
        signal.raise_signal(signal.SIGHUP)
        print(interrupted_status())
        """
    )
    assert (done.returncode, done.stdout.split()) == (0, ["130"]), done.stderr


def test_a_finished_command_is_not_killed_by_a_late_stop_signal() -> None:
    # (Python gives a handled signal its default action back while it shuts down: a signal
    # in that moment would kill a command that has done its work)
    done = run_python(
        """
        import signal, sys
        from cloversolve.__main__ import main
        sys.argv = ["cloversolve", "presets"]
        try:
            main()
        except SystemExit as end:
            assert not end.code
        signal.raise_signal(signal.SIGTERM)
        print("alive", file=sys.stderr)
        """
    )
    assert (done.returncode, done.stderr) == (0, "alive\n")


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
