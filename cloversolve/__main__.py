"""The ``cloversolve`` program (also ``python -m cloversolve``).

The command line's modules are imported here, under the same Ctrl-C handling as the
commands: an interrupt while they load ends in the one-line "interrupted" and exit status 130,
not in a traceback; so does an error raised by code that an interrupt was dropped in (see
:mod:`cloversolve.runs.interrupts`). SIGTERM and SIGHUP stop the program as Ctrl-C does, with exit
status 128 plus the signal's number.
"""

from __future__ import annotations

import contextlib
import sys
from typing import NoReturn

from .core.lean_numba import keep_numba_lean
from .runs.interrupts import (
    forward_dropped_interrupts,
    ignore_stop_signals,
    interrupt_was_dropped,
    interrupted_status,
    stop_forwarding,
    stop_on_signals,
)


def main() -> None:
    """Run the command line."""
    stop_on_signals()
    forward_dropped_interrupts()
    keep_numba_lean()
    try:
        from .cli.main import main as command_line
    except KeyboardInterrupt:
        _interrupted()
    try:
        command_line()
    except Exception:
        if interrupt_was_dropped():
            _interrupted()
        raise
    finally:
        stop_forwarding()
        ignore_stop_signals()  # (the work is done: a signal now must not kill the exit)


def _interrupted() -> NoReturn:
    stop_forwarding()
    with contextlib.suppress(OSError):  # (after a hang-up there is no terminal to tell)
        print("cloversolve: interrupted", file=sys.stderr)
    sys.exit(interrupted_status())


if __name__ == "__main__":
    main()
