"""The transposition table every search kernel shares, and its one memory rule.

A table is a flat ``(entries, 2)`` array of ``uint64``: row ``i`` holds the two 64-bit keys of
one state, ``entries`` is a power of two, a state's row is found by linear probing from its
home row (:func:`_home`, from its first key), and a row whose first word is 0 is empty (stored
first keys have their low bit set, so no key is 0). A search that abandons states it has not
finished clears their rows (:func:`remove`): a cleared row holds an even first word, which
lookups step over, and stays occupied until the table grows. A lookup wrongly reports a state
as seen only if both keys of two different states agree; why that is negligible and can never
invent a win is FACTS.md, fact 13.

**Lossy mode** (:func:`visit`): a lookup looks at a window of rows from the state's home row
only; when every row of the window holds another state, the new state replaces one of them
(a forgotten state costs time when it is met again, never a verdict). A lossy table never
clears rows and needs no growth to go on.

**Growth and memory rule** (one for every table and cache of every kernel). A table that may
still double asks to grow when half of its rows hold states (:data:`GROW_LOAD`); the largest
table a budget allows is filled to three quarters (:data:`FULL_LOAD`), and then its family
stops, stops storing, or (lossy mode) goes on replacing states: :func:`fill_stop` gives the
count of stored states at which a table is full. While a table grows, the old and the new
array both exist until every entry is copied, so a table may double only when old plus new,
with the other live arrays counted, fit in its byte budget: :func:`grow_within` returns the
grown table or ``None``, :func:`max_entries` is the largest size the same rule reaches, and
:func:`first_entries` the size of a fresh table.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .kernel import inner_kernel, kernel

#: Bytes per table row (two 64-bit keys).
ENTRY_BYTES = 16
_ONE = np.uint64(1)
#: The first word of a cleared row (:func:`remove`): even, so never a stored key.
_CLEARED = np.uint64(2)
#: Loads (stored states per row, as numerator and denominator) at which a table that may still
#: double asks to grow, and to which the largest table a budget allows is filled.
GROW_LOAD = (1, 2)
FULL_LOAD = (3, 4)
#: :data:`FULL_LOAD` as a number.
MAX_LOAD = FULL_LOAD[0] / FULL_LOAD[1]
#: The fill stop of a lossy table at its largest size: it never asks to grow again.
NO_STOP = 1 << 62


@inner_kernel
def mix(z):  # type: ignore[no-untyped-def]
    """splitmix64's finaliser: a bijection of 64-bit words that scatters every bit
    (``mix(0) == 0``); the one hash step of every kernel that hashes a part of its state
    (a pile, a fan) before summing the parts. Keys that are plain sums or XORs of Zobrist
    words need none."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@inner_kernel
def _home(k1, mask):  # type: ignore[no-untyped-def]
    """The row a probe for first word ``k1`` starts from in a table of ``mask + 1`` rows
    (the bits above the low bit, which every stored first word has set)."""
    return np.int64((k1 >> _ONE) & np.uint64(mask))


@inner_kernel
def _slot(table, k1, key2):  # type: ignore[no-untyped-def]
    """The row holding the state with first word ``k1`` (low bit set) and second ``key2``,
    or the empty row where its probe ends."""
    mask = table.shape[0] - 1
    i = _home(k1, mask)
    while True:
        stored = table[i, 0]
        if stored == 0 or (stored == k1 and table[i, 1] == key2):
            return i
        i = (i + 1) & mask


@inner_kernel
def probe(table, key1, key2):  # type: ignore[no-untyped-def]
    """Whether the state ``(key1, key2)`` is stored."""
    return table[_slot(table, key1 | _ONE, key2), 0] != 0


@inner_kernel
def insert(table, key1, key2):  # type: ignore[no-untyped-def]
    """Store the state ``(key1, key2)``; False if it was already there."""
    k1 = key1 | _ONE
    i = _slot(table, k1, key2)
    if table[i, 0] != 0:
        return False
    table[i, 0] = k1
    table[i, 1] = key2
    return True


@inner_kernel
def remove(table, key1, key2):  # type: ignore[no-untyped-def]
    """Clear the state ``(key1, key2)``: its row keeps a marker that lookups step over (it
    stays occupied until the table grows); False if the state was not stored."""
    i = _slot(table, key1 | _ONE, key2)
    if table[i, 0] == 0:
        return False
    table[i, 0] = _CLEARED
    table[i, 1] = 0
    return True


@intrinsic
def _prefetch_row(typingctx, table, row):  # type: ignore[no-untyped-def]
    """Ask the processor to start loading row ``row`` of ``table`` into its caches (a hint:
    nothing is read, and nothing happens if the row is not there)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        table_type = signature.args[0]
        array = context.make_array(table_type)(context, builder, args[0])
        first = context.get_constant(types.intp, 0)
        pointer = cgutils.get_item_pointer(
            context, builder, table_type, array, [args[1], first], wraparound=False
        )
        bytes_pointer = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [bytes_pointer, int32, int32, int32])
        function = cgutils.get_or_insert_function(builder.module, hint, "llvm.prefetch.p0i8")
        # (a read, kept in every cache level, of data)
        builder.call(
            function, [builder.bitcast(pointer, bytes_pointer), int32(0), int32(3), int32(1)]
        )
        return context.get_dummy_value()

    return types.void(table, row), codegen


@inner_kernel
def prefetch(table, key1):  # type: ignore[no-untyped-def]
    """Start loading the first row a lookup of the state with first word ``key1`` reads
    (:func:`visit`, :func:`probe`), so that the lookup, issued a little later, waits less for
    memory; it changes nothing in the table."""
    _prefetch_row(table, _home(key1 | _ONE, table.shape[0] - 1))


#: Results of :func:`visit`: the state was stored already, or it took an empty row, or it
#: replaced another state.
SEEN, NEW_ROW, REPLACED = 0, 1, 2


@inner_kernel
def visit(table, key1, key2, window):  # type: ignore[no-untyped-def]
    """Lossy mode: store the state ``(key1, key2)`` unless one of the ``window`` rows from its
    first row holds it; when all of them hold other states, it replaces one (chosen by its
    second key). Returns :data:`SEEN`, :data:`NEW_ROW` or :data:`REPLACED`."""
    k1 = key1 | _ONE
    mask = table.shape[0] - 1
    home = _home(k1, mask)
    for step in range(window):
        i = (home + step) & mask
        stored = table[i, 0]
        if stored == 0:
            table[i, 0] = k1
            table[i, 1] = key2
            return NEW_ROW
        if stored == k1 and table[i, 1] == key2:
            return SEEN
    i = (home + np.int64(key2 >> np.uint64(33)) % window) & mask
    table[i, 0] = k1
    table[i, 1] = key2
    return REPLACED


@kernel
def rehash(old, new):  # type: ignore[no-untyped-def]
    """Copy every stored row of ``old`` into the empty, larger table ``new`` (cleared rows
    are dropped)."""
    mask = new.shape[0] - 1
    for j in range(old.shape[0]):
        k1 = old[j, 0]
        if k1 & _ONE == 0:
            continue
        i = _home(k1, mask)
        while new[i, 0] != 0:
            i = (i + 1) & mask
        new[i, 0] = k1
        new[i, 1] = old[j, 1]


@inner_kernel
def grow_prefix(whole, rows):  # type: ignore[no-untyped-def]
    """Double in place the table held in the first ``rows`` rows of ``whole`` (at most half
    of it): its rows go to the top of ``whole``, the first ``2 * rows`` rows are emptied and
    they are rehashed back (for a kernel that keeps a table in a prefix of one array)."""
    moved = whole[whole.shape[0] - rows :]
    for i in range(rows):
        moved[i, 0] = whole[i, 0]
        moved[i, 1] = whole[i, 1]
    whole[: 2 * rows, :] = 0
    rehash(moved, whole[: 2 * rows])


def new_table(entries: int) -> np.ndarray:
    """An empty table of ``entries`` rows (a power of two)."""
    return np.zeros((entries, 2), dtype=np.uint64)


def max_entries(budget: int) -> int:
    """The largest power-of-two row count whose table, together with the half-size table it
    grows from, fits in ``budget`` bytes (at least 1)."""
    fitting = 2 * budget // (3 * ENTRY_BYTES)  # (old + new = 1.5 new)
    return 1 << (fitting.bit_length() - 1) if fitting > 1 else 1


def first_entries(initial: int, budget: int) -> int:
    """The size of a fresh table: ``initial`` rows, halved until it fits in ``budget``."""
    entries = initial
    while entries > 1 and entries * ENTRY_BYTES > budget:
        entries //= 2
    return entries


def can_grow(table: np.ndarray, budget: int, other_bytes: int = 0) -> bool:
    """Whether ``table`` may double: the old and the new table, with ``other_bytes`` of
    other live arrays, fit in ``budget`` bytes."""
    return 3 * table.nbytes + other_bytes <= budget


def grow_within(table: np.ndarray, budget: int, other_bytes: int = 0) -> np.ndarray | None:
    """``table`` doubled (:func:`grown`) if the memory rule lets it grow within ``budget``
    bytes beside ``other_bytes`` of other live arrays (:func:`can_grow`), else ``None``."""
    return grown(table) if can_grow(table, budget, other_bytes) else None


def fill_stop(entries: int, max_entries: int, lossy: bool = False) -> int:
    """The count of stored states at which a table of ``entries`` rows is full:
    :data:`GROW_LOAD` of its rows while it may still double (fewer than ``max_entries`` rows),
    else :data:`FULL_LOAD` of them, or
    :data:`NO_STOP` for a lossy table (kernels use :func:`fill_stop_kernel`, the same rule)."""
    if entries < max_entries:
        return entries * GROW_LOAD[0] // GROW_LOAD[1]
    if lossy:
        return NO_STOP
    return entries * FULL_LOAD[0] // FULL_LOAD[1]


#: :func:`fill_stop` compiled, for the kernels that size their own tables.
fill_stop_kernel = inner_kernel(fill_stop)


def grown(table: np.ndarray) -> np.ndarray:
    """A table twice as large holding the same states (the caller drops the old one)."""
    bigger = new_table(2 * table.shape[0])
    rehash(table, bigger)
    return bigger
