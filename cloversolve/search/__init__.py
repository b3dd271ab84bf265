"""Search kernels: one module per rule family over one shared core.

The core: :mod:`.table` (the transposition table and its memory rule), :mod:`.driver` (the
node budget and the clock of a sliced run), :mod:`.ordering` (the key generator and move
ordering), :mod:`.kernel` (the contract every family module keeps and its status codes),
:mod:`.compiling` (the notice before numba compiles) and :mod:`.common` (limits, verdicts).
"""
