"""The ``cloversolve`` program (also ``python -m cloversolve``).

The command line's modules are imported here, under the same Ctrl-C handling as the
commands: an interrupt while they load ends in the one-line "interrupted" and exit status 130,
not in a traceback; so does an error raised by code that an interrupt was dropped in (see
:mod:`cloversolve.interrupts`).
"""

from __future__ import annotations

import sys
from typing import NoReturn

from .interrupts import (
    EXIT_INTERRUPTED,
    forward_dropped_interrupts,
    interrupt_was_dropped,
    stop_forwarding,
)


def main() -> None:
    """Run the command line."""
    forward_dropped_interrupts()
    try:
        from .cli import main as command_line
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


def _interrupted() -> NoReturn:
    stop_forwarding()
    print("cloversolve: error: interrupted", file=sys.stderr)
    sys.exit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    main()
