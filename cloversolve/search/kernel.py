"""The contract every family's kernel module keeps, and the status codes its kernels return.

A family's search module (``cloversolve/families/<family>/search.py``) offers:

``search(position, limits=None, **switches) -> SearchOutcome``
    the entry the family's plug-in gives; ``switches`` turn the module's reductions off, for
    tests (always keyword arguments, on by default).
``SEARCH_KERNELS``
    the numba kernels the wrapper calls from Python (see :mod:`cloversolve.core.compiling`).
``perft(position, depth) -> int`` and ``legal_moves(position) -> list``
    the kernel's move generator, counted to ``depth`` and listed at the root, in the
    reference engine's notation, so tests hold it to the reference engine.
``state_key(position) -> tuple[int, int]``
    the search's 128-bit key of a position: equal for positions the search takes for one
    state (reached by other move orders, or differing only by a symmetry it uses), different
    otherwise.

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

#: The first slots of every search kernel's counter array (``int64``): nodes expanded, states
#: stored and the deepest line reached; each family's own slots follow from
#: :data:`FIRST_FAMILY_SLOT`.
NODES_SLOT, STATES_SLOT, MAX_DEPTH_SLOT = range(3)
FIRST_FAMILY_SLOT = 3

#: The decorator of a search kernel that Python calls. Kernels are compiled without numba's
#: reference counting of arrays (``_nrt=False``): with it, every array taken from a tuple,
#: every row view and every call of another kernel with arrays paid an atomic increment and
#: decrement, which took a third of the clover search's time (and some of its compile time).
#: Such a kernel cannot create an array (``np.empty``, a copy, an array expression); its
#: arrays come from the wrapper. The few kernels that build arrays (setting up a position,
#: listing moves for tests) keep ``njit(cache=True)``.
# (numba's type stubs do not list ``_nrt`` nor the two options below of its CPU target)
kernel = njit(cache=True, _nrt=False)  # type: ignore[call-overload]
#: The decorator of a kernel that only other kernels call: as :data:`kernel`, and numba builds
#: no Python or C entry for it (less to compile on a first run); calling it from Python
#: crashes. Numba compiles a kernel once per distinct argument types (a literal 0 and an
#: ``int32`` array element are each a type of their own), so callers pass integers as
#: ``np.int64(...)`` where the types would otherwise differ.
inner_kernel = njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)  # type: ignore[call-overload]
#: The decorator of a kernel inlined into its one caller (compiled once, as part of it). Only
#: for a short kernel: numba copies the inlined kernel's code block by block, each block with
#: every variable of the kernel, so inlining a long one (a search loop) costs more than
#: compiling it on its own as an :data:`inner_kernel`.
inlined_kernel = njit(cache=True, _nrt=False, inline="always")  # type: ignore[call-overload]
