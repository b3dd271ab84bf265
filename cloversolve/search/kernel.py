"""The contract every family's kernel module keeps, and the status codes its kernels return.

A family's search module (``cloversolve/search/<family>.py``) offers:

``search(position, limits=None, **switches) -> SearchOutcome``
    the entry the family registry calls; ``switches`` turn the module's reductions off, for
    tests (always keyword arguments, on by default).
``SEARCH_KERNELS``
    the numba kernels the wrapper calls from Python (see :mod:`.compiling`).
``perft(position, depth) -> int`` and ``legal_moves(position) -> list``
    the kernel's move generator, counted to ``depth`` and listed at the root, in the
    reference engine's notation, so tests hold it to the reference engine.

Its resumable kernels return one of the codes below; the wrapper's sliced run
(:func:`.driver.run_sliced`) grows what they ask for and calls them again.
"""

from numba import njit

#: The kernel has not finished its slice (internal to a kernel).
RUNNING = 0
#: A win: the route is on the stack.
FOUND = 1
#: Every state was searched: no win.
EXHAUSTED = 2
#: The slice's nodes are spent: look at the budgets, then resume.
PAUSED = 3
#: The transposition table must grow (within the memory rule) before the search goes on.
TABLE_FULL = 4
#: The search stack must grow before the search goes on.
STACK_FULL = 5

#: The decorator of a kernel that only other kernels call. Numba then builds no Python or C
#: entry for it (less to compile on a first run); calling it from Python crashes, so every
#: kernel Python calls keeps ``njit(cache=True)``. Numba compiles a kernel once per distinct
#: argument types (a literal 0 and an ``int32`` array element are each a type of their own),
#: so callers pass integers as ``np.int64(...)`` where the types would otherwise differ.
# (numba's type stubs do not list these two options of its CPU target)
inner_kernel = njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)  # type: ignore[call-overload]
