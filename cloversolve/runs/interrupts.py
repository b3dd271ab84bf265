"""Ctrl-C that always stops the command line, whenever it lands.

Python turns SIGINT into ``KeyboardInterrupt`` in the main thread at the next bytecode. Two
places drop it instead, printing "Exception ignored ..." and carrying on:

* a Python callback called from C (numba's cache hands each compiled object to one through
  ctypes, so a Ctrl-C during a first compilation can land there and leave numba to fail
  later with an unrelated error);
* the at-fork hooks Python runs in the parent after starting a worker process.

:func:`forward_dropped_interrupts` re-raises such a dropped interrupt in the main thread, where
the command line's handler turns it into its one-line "interrupted" and exit status 130.
:func:`starting_workers` holds SIGINT back while worker processes are started, so the
parent receives it once the workers are up (never loses it), and a forked worker never dies
of an interrupt before it has set itself to ignore them (Ctrl-C is the parent's business).
:func:`stop_on_signals` makes SIGTERM and SIGHUP stop a run as Ctrl-C does (files cleaned
up, checkpoints reported) and :func:`interrupted_status` gives its exit status, 128 plus the
signal's number; :func:`ignore_stop_signals` keeps them from killing a program that is
ending. :func:`stop_signals_held` lets a file be saved whole whatever signal comes
meanwhile, and :func:`default_stop_signals` keeps a forked worker from running the handlers
it inherited.
"""

from __future__ import annotations

import _thread
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: Exit status after Ctrl-C: 128 + SIGINT.
EXIT_INTERRUPTED = 130


_forwarding = threading.Event()
_dropped = threading.Event()


def forward_dropped_interrupts() -> None:
    """From now on, a ``KeyboardInterrupt`` Python could only report as unraisable is raised
    again in the main thread (other unraisable exceptions are reported as before), until
    :func:`stop_forwarding`."""
    previous = sys.unraisablehook
    _forwarding.set()

    def forward(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _dropped.set()
            # Soon, from another thread: raised now it would be dropped again by this hook
            # (and one that lands in a callback again comes back here).
            timer = threading.Timer(0.01, _interrupt_main_while_forwarding)
            timer.daemon = True
            timer.start()
        else:
            previous(unraisable)

    sys.unraisablehook = forward


def _interrupt_main_while_forwarding() -> None:
    if _forwarding.is_set():
        _thread.interrupt_main()


def interrupt_was_dropped() -> bool:
    """True once an interrupt has been dropped and forwarded. The code it was dropped in
    may have failed for that reason alone (numba, missing the compiled object the callback
    should have stored, raises an error of its own), so such a failure is the interrupt."""
    return _dropped.is_set()


def stop_forwarding() -> None:
    """The run has ended (an interrupt already stopped it, or it finished): an interrupt
    forwarded late must not turn its exit into another."""
    _forwarding.clear()


@contextlib.contextmanager
def _handled_after(signums: frozenset[int]) -> Iterator[None]:
    """Record the signals ``signums`` during the block instead of handling them, and handle
    each one that came, as it would have been handled, when the block ends (main thread)."""
    received: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        received.append(signum)

    previous = {signum: signal.signal(signum, hold) for signum in signums}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(received):
            handler = previous[signum]
            if callable(handler):
                handler(signum, None)
            elif handler != signal.SIG_IGN:
                signal.raise_signal(signum)


@contextlib.contextmanager
def starting_workers(*, new_interpreters: bool = False) -> Iterator[None]:
    """Hold Ctrl-C back for the block and deliver it when the block ends. Processes started
    in the block start with SIGINT blocked, and stay so until they call
    :func:`ignore_interrupts` (forked workers first thing; Dask's once they are up).

    Give ``new_interpreters`` when the block starts processes with a new interpreter
    (multiprocessing's "spawn", as Dask's nanny does): the first such start launches
    multiprocessing's resource tracker, which unblocks SIGINT in the starting thread, so
    the workers would start with it unblocked. It is launched before the block instead."""
    if new_interpreters and hasattr(signal, "pthread_sigmask"):
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    mask = getattr(signal, "pthread_sigmask", None)  # POSIX: held in the kernel as well
    with _handled_after(frozenset({signal.SIGINT})):
        previous_mask = mask(signal.SIG_BLOCK, {signal.SIGINT}) if mask is not None else None
        try:
            yield
        finally:
            if mask is not None and previous_mask is not None:
                mask(signal.SIG_SETMASK, previous_mask)  # one the kernel held lands here


def ignore_interrupts() -> None:
    """In a worker process: ignore SIGINT from now on (dropping one held back at its start)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    unblock = getattr(signal, "pthread_sigmask", None)
    if unblock is not None:
        unblock(signal.SIG_UNBLOCK, {signal.SIGINT})


#: The signals that stop a command line: Ctrl-C, a polite kill, the terminal hanging up.
STOP_SIGNALS = frozenset(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextlib.contextmanager
def stop_signals_held() -> Iterator[None]:
    """Hold the stop signals back for the block (a file being saved is saved whole, whatever
    the user presses meanwhile); one that came meanwhile is handled when the block ends.
    Main thread only."""
    with _handled_after(STOP_SIGNALS):
        yield


#: The first signal :func:`stop_on_signals` turned into a stop, if any.
_stopped_by: list[int] = []


def _stop(signum: int, frame: Any) -> None:
    ignore_stop_signals()  # (stopping once: a second one would cut the cleanup short)
    _stopped_by.append(signum)
    raise KeyboardInterrupt


def ignore_stop_signals() -> None:
    """Ignore SIGTERM and SIGHUP from now on: the program is ending (Python would otherwise
    give them their default action as it shuts down, and be killed with its work done)."""
    for signum in STOP_SIGNALS - {signal.SIGINT}:
        signal.signal(signum, signal.SIG_IGN)


def stop_on_signals() -> None:
    """From now on SIGTERM and SIGHUP stop the program as Ctrl-C does: a ``KeyboardInterrupt``
    in the main thread, so a file being written is removed and a checkpoint's deals are
    reported; once one has, both are ignored while the program ends. A signal that this
    process was started ignoring (SIGHUP under ``nohup``) stays ignored. Main thread only."""
    for signum in STOP_SIGNALS - {signal.SIGINT}:
        if signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _stop)


def interrupted_status() -> int:
    """The exit status of a stopped run: 128 plus the number of the signal that stopped it
    (SIGINT, 130, unless :func:`stop_on_signals` saw SIGTERM or SIGHUP first)."""
    return 128 + _stopped_by[0] if _stopped_by else EXIT_INTERRUPTED


def stopped_by_signal() -> bool:
    """Whether SIGTERM or SIGHUP has stopped the run (after a hang-up, the terminal is
    gone: nothing can be told)."""
    return bool(_stopped_by)


def default_stop_signals() -> None:
    """In a forked worker process: SIGTERM and SIGHUP do what they do by default (end the
    process at once), not what the parent's handlers inherited by the fork would do."""
    for signum in STOP_SIGNALS - {signal.SIGINT}:
        signal.signal(signum, signal.SIG_DFL)


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGINT) stopped a run that has a checkpoint: ``deals`` of its deals are
    saved in the checkpoint at ``path``, and the same run resumes from them."""

    def __init__(self, path: Path, deals: int) -> None:
        super().__init__(f"interrupted; {saved_deals_note(path, deals)}")
        self.path = path
        self.deals = deals


def saved_deals_note(path: Path, deals: int) -> str:
    """What a stopped run tells its user: how many deals ``path`` holds, and how to go on."""
    saved = "1 deal is" if deals == 1 else f"{deals:,} deals are"
    return f"{saved} saved in {str(path)!r}, run the same command again to resume"
