"""Whether a family's search kernels are in numba's cache, and a notice before compiling.

numba compiles the kernels the first time they run and keeps the machine code in its cache
(``__pycache__`` beside the sources), so only the first run after an install pays for it.
Before that first compilation the user is told, in one line on stderr, which family is being
compiled, that this happens once, and about how long it takes.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TextIO

_announced: set[str] = set()
#: True in a pool's worker process: the run's own process speaks for every worker.
_quiet = [False]
#: False while ``cloversolve warm-up`` runs: the notice then does not suggest it.
_suggest_warm_up = [True]


@contextlib.contextmanager
def warming_up() -> Iterator[None]:
    """For the block, the notice does not suggest ``cloversolve warm-up`` (which is running)."""
    _suggest_warm_up.append(False)
    try:
        yield
    finally:
        _suggest_warm_up.pop()


def stay_quiet() -> None:
    """Never print the notice in this process (a pool's worker: the process that started
    the pool prints it once for all its workers)."""
    _quiet[0] = True


def _in_cache(dispatcher: Any) -> bool:
    """True when numba's cache holds machine code of ``dispatcher`` for its current source
    (or when the cache cannot be read: then nothing is announced)."""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # (numba internals changed: say nothing rather than guess)
        return True


def kernels_cached(kernels: tuple[Any, ...]) -> bool:
    """True when every one of ``kernels`` is compiled, in this process or in numba's cache."""
    return all(kernel.signatures or _in_cache(kernel) for kernel in kernels)


def announce_compiling(
    family: str, kernels: tuple[Any, ...], seconds: float, stream: TextIO | None = None
) -> bool:
    """Print one line on stderr (once per process and family) if ``kernels`` must be
    compiled first; True if it printed."""
    if family in _announced or _quiet[0]:
        return False
    _announced.add(family)
    if kernels_cached(kernels):
        return False
    hint = "; `cloversolve warm-up` does it ahead of time" if _suggest_warm_up[-1] else ""
    print(
        f"cloversolve: compiling the {family} search kernels (once per install, "
        f"about {seconds:.0f} s{hint})",
        file=stream or sys.stderr,
        flush=True,
    )
    return True
