"""Move ordering shared by the search kernels, and the fixed pseudo-random streams their
restarts use to vary it."""

import functools
import math
from collections.abc import Iterator

import numpy as np

from .kernel import inner_kernel

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


@functools.lru_cache(maxsize=64)
def key_words(seed: int, count: int) -> np.ndarray:
    """The first ``count`` words of :func:`splitmix64` from ``seed`` as a read-only array
    (computed at once with numpy's wrapping arithmetic): the keys of every kernel's hashes."""
    state = np.uint64(seed & _MASK64) + np.arange(1, count + 1, dtype=np.uint64) * np.uint64(
        0x9E3779B97F4A7C15
    )
    z = (state ^ (state >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    words = z ^ (z >> np.uint64(31))
    words.setflags(write=False)
    return words


@functools.lru_cache(maxsize=64)
def zobrist(seed: int, shape: tuple[int, ...]) -> np.ndarray:
    """Read-only Zobrist keys of ``shape``: the first words of :func:`key_words` from ``seed``
    in C order, made once per seed and shape (every family's keys come from here)."""
    return key_words(seed, math.prod(shape)).reshape(shape)


@functools.lru_cache(maxsize=256)
def permutation(size: int, seed: int) -> tuple[int, ...]:
    """A fixed pseudo-random permutation of ``range(size)`` (Fisher-Yates on splitmix64)."""
    order = list(range(size))
    words = splitmix64(seed)
    for n in range(size - 1, 0, -1):
        j = next(words) % (n + 1)
        order[n], order[j] = order[j], order[n]
    return tuple(order)


@inner_kernel
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
