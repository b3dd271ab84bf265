"""The rank-walk test of the hole family (FACTS.md, fact 12, "Rank walk"), in plain Python.

The foundation's future ranks form a walk on the cycle of ranks ``1..ranks`` that starts at
the foundation's rank ``f`` and visits each rank ``k`` exactly ``counts[k]`` times. Writing
``e[k]`` for the number of steps between ``k`` and the rank after it, a walk ending at ``t``
exists exactly when ``e[k-1] + e[k] = 2 counts[k] + [k = f] - [k = t]`` has a non-negative
integer solution whose positive edges connect every rank the walk visits (an Euler trail of
that multigraph from ``f`` to ``t``).
"""

from __future__ import annotations

from collections.abc import Sequence


class RankWalks:
    """Answers of the rank-walk test for one game of ``ranks`` ranks, kept under exactly what
    they depend on: the foundation's rank and the cards left per rank.

    The cards left per rank are passed packed in one integer, 4 bits a rank: rank ``r``'s
    count at bits ``4r`` to ``4r + 3``. Each key keeps the end ranks found possible and those
    found impossible, so an end rank is worked out once, and only when asked about.
    """

    def __init__(self, ranks: int) -> None:
        self.ranks = ranks
        self._known: dict[int, tuple[int, int]] = {}

    def some_end(self, start: int, packed_counts: int, ends: int) -> bool:
        """Whether a walk from rank ``start`` through the cards left can end at one of the
        ranks of the bit mask ``ends`` (bit ``t`` for rank ``t``)."""
        key = (packed_counts << 4) | start
        possible, impossible = self._known.get(key, (0, 0))
        if ends & possible:
            return True
        unknown = ends & ~impossible
        if unknown:
            counts = [(packed_counts >> (4 * r)) & 15 for r in range(self.ranks + 1)]
            for end in range(1, self.ranks + 1):
                if (unknown >> end) & 1:
                    if counts[end] and _walk_exists(self.ranks, start, end, counts):
                        self._known[key] = (possible | 1 << end, impossible)
                        return True
                    impossible |= 1 << end
            self._known[key] = (possible, impossible)
        return False


def walk_ends(ranks: int, start: int, counts: Sequence[int]) -> int:
    """The ranks ``t`` (a bit mask, bit ``t`` for rank ``t``) at which a walk from ``start``
    visiting rank ``k`` exactly ``counts[k]`` times can end; ``counts`` is indexed by rank
    (index 0 unused), ``start`` is a rank ``1..ranks`` and some count is positive."""
    ends = 0
    for end in range(1, ranks + 1):
        if counts[end] and _walk_exists(ranks, start, end, counts):
            ends |= 1 << end
    return ends


def _walk_exists(ranks: int, start: int, end: int, counts: Sequence[int]) -> bool:
    """Whether the edge equations for a walk ``start`` -> ``end`` have a connected
    non-negative solution. Edge ``k`` (index ``k - 1``) joins rank ``k`` and the rank after
    it; edge ``ranks`` joins the top rank and rank 1."""
    degree = [2 * counts[k] + (k == start) - (k == end) for k in range(1, ranks + 1)]
    # Each edge as ``offset + sign * x``, with x the edge joining the top rank and rank 1:
    # the edge after rank k is degree(k) minus the edge before it.
    offsets, signs = [], []
    offset, sign = 0, 1
    for k in range(ranks):
        offset, sign = degree[k] - offset, -sign
        offsets.append(offset)
        signs.append(sign)
    # The last edge computed is x itself again.
    if signs[-1] == -1:  # an odd cycle: offset - x = x fixes x
        if offsets[-1] % 2:
            return False
        candidates = [offsets[-1] // 2]
    else:  # an even cycle: offset + x = x needs offset 0, and x is free within bounds
        if offsets[-1] != 0:
            return False
        low = max(-o for o, s in zip(offsets, signs, strict=True) if s == 1)
        high = min((o for o, s in zip(offsets, signs, strict=True) if s == -1), default=low)
        if low > high:
            return False
        # Between the bounds every edge is positive, so low, one x inside and high suffice.
        candidates = sorted({low, min(low + 1, high), high})
    visited = [k for k in range(1, ranks + 1) if counts[k] or k == start]
    for x in candidates:
        edges = [o + s * x for o, s in zip(offsets, signs, strict=True)]
        lowest = min(edges)
        if lowest > 0 or (lowest == 0 and _connected(ranks, start, edges, visited)):
            return True
    return False


def _connected(ranks: int, start: int, edges: list[int], visited: list[int]) -> bool:
    """Whether the positive ``edges`` (``edges[k - 1]`` after rank ``k``) join ``start`` to
    every rank of ``visited``."""
    reached = {start}
    rank = start
    while edges[rank - 1] > 0 and len(reached) < ranks:  # onwards, to the ranks after
        rank = rank % ranks + 1
        reached.add(rank)
    rank = start
    while edges[(rank - 2) % ranks] > 0 and len(reached) < ranks:  # back, to the ranks before
        rank = (rank - 2) % ranks + 1
        reached.add(rank)
    return all(k in reached for k in visited)
