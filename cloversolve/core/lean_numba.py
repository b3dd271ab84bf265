"""numba in the ``cloversolve`` program: started without the optional packages it would load
for features the search kernels never use.

When numba starts, it imports SciPy (to hand ``np.dot`` and ``np.linalg`` to BLAS), cffi (to
call C functions) and coverage (to report compiled lines) if they are installed: most of the
import time of a warm ``cloversolve solve``. The kernels use none of them. The program
(:mod:`cloversolve.__main__`) calls :func:`keep_numba_lean`; then :func:`import_numba`, which
the search layer calls before it loads a family's search, imports numba and sets up its
compiler with those packages out of sight, and puts them back in sight: a later ``import
scipy`` (the grading calibration's) works as ever. A library process is left as it is (its
own numba code may want SciPy's BLAS), and so is a package already imported.
"""

from __future__ import annotations

import sys

#: The packages numba looks for as it starts, for features the kernels do not use.
UNUSED_BY_THE_KERNELS = ("scipy", "cffi", "coverage")
#: The modules of numba that look for them: its start, its array functions (SciPy's BLAS)
#: and its typing of cffi functions (numba imports the last two when its first kernel loads).
_NUMBA_MODULES = ("numba", "numba.np.arraymath", "numba.core.typing.cffi_utils")

_lean = [False]


def keep_numba_lean() -> None:
    """Start numba in this process, when a search needs it, without the packages of
    :data:`UNUSED_BY_THE_KERNELS` (for the program's process alone: see the module)."""
    _lean[0] = True


def import_numba() -> None:
    """Import numba, in a lean process without the packages of :data:`UNUSED_BY_THE_KERNELS`
    (a process that has not asked, or that has numba already, is left as it is)."""
    if not _lean[0] or "numba" in sys.modules:
        return
    hidden = [name for name in UNUSED_BY_THE_KERNELS if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # (an import of it fails)
    try:
        for module in _NUMBA_MODULES:
            try:
                __import__(module)
            except ImportError:  # (numba's modules moved: they load when numba wants them)
                continue
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]
