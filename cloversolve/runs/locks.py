"""Exclusive locks on open files (none where the system has no ``fcntl``)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # not POSIX: files are not locked
    fcntl = None  # type: ignore[assignment]


def lock_exclusively(handle: IO[Any]) -> bool:
    """Lock the open file ``handle`` for this process (and the workers it forks) until it is
    closed, without waiting: False when another process holds the lock. Where files cannot be
    locked (not POSIX), True."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def open_locked(path: Path) -> IO[bytes] | None:
    """``path`` opened for reading and writing (created if missing, nothing truncated) and
    locked (:func:`lock_exclusively`), or None when another process holds its lock. A file
    removed or replaced while the lock was taken is opened again, so the lock is always the
    one on the file now at ``path``."""
    while True:
        handle = os.fdopen(os.open(path, os.O_RDWR | os.O_CREAT, 0o666), "r+b")
        if not lock_exclusively(handle):
            handle.close()
            return None
        with contextlib.suppress(FileNotFoundError):
            now, held = os.stat(path), os.fstat(handle.fileno())
            if (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino):
                return handle
        handle.close()
