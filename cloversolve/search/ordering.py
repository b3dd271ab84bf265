"""Move ordering shared by the search kernels."""

from numba import njit


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
