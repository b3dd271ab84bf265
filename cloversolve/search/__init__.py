"""Search kernels: one module per rule family over one shared core.

The core: :mod:`.table` (the transposition table, exact or lossy, and its memory rule),
:mod:`.driver` (the sliced run loop of every search, its node budget and clock),
:mod:`.ordering` (the cached Zobrist key generator and move ordering), :mod:`.kernel` (the
contract every family module keeps and its status codes) and :mod:`.common` (limits,
verdicts); :mod:`cloversolve.core.compiling` gives the notice before numba compiles.
"""
