"""Move ordering shared by the search kernels, and the fixed pseudo-random streams their
restarts use to vary it."""

import functools
from collections.abc import Iterator

from numba import njit

_MASK64 = (1 << 64) - 1


def splitmix64(seed: int) -> Iterator[int]:
    """An endless stream of 64-bit words from ``seed`` (splitmix64; fixed across platforms)."""
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


@functools.lru_cache(maxsize=256)
def permutation(size: int, seed: int) -> tuple[int, ...]:
    """A fixed pseudo-random permutation of ``range(size)`` (Fisher-Yates on splitmix64)."""
    order = list(range(size))
    words = splitmix64(seed)
    for n in range(size - 1, 0, -1):
        j = next(words) % (n + 1)
        order[n], order[j] = order[j], order[n]
    return tuple(order)


@njit(cache=True)
def sort_by_score(moves, scores, count):
    """Sort ``moves[:count]`` by ``scores`` (best first), stably, in place (insertion sort:
    move lists are short)."""
    for i in range(1, count):
        move = moves[i]
        score = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < score:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = move
        scores[j + 1] = score
