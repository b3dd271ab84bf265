"""The shared vocabulary: cards, move notation, reading inputs, JSON, wording, the version
and the notice before numba compiles. It imports nothing else of the package."""
