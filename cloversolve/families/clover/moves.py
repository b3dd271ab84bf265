"""Board primitives and the move generator of the ``clover`` kernel (see
:mod:`cloversolve.families.clover.search` for the search and the encoding of a position)."""

import numpy as np

from ...search.kernel import inner_kernel, kernel
from ...search.table import mix

#: Card codes are ``16 * suit + rank - 1``: arrays indexed by a card have this many slots.
_CODES = 64


# The kernels pass three tuples of arrays, all owned by the wrapper:
#   board  = (fans[N, C], flen[N], height[4], top_fan[C], place[C])       int32
#            top_fan[c]: the fan whose top card is c, else -1; place[c] = 64 * fan + index
#            of card c while it lies on a fan (stale once it is on a foundation)
#   hashes = (fan_hash[N, 2], total_hash[2], zfan[2, C, C], zfound[2, 4, R + 1])  uint64
#   stack  = (moves[D, M], nmoves[D], nexts[D], autos[D, C], nauto[D], scores[M],
#             scratch[4, 8 * 64])


# --- board primitives ------------------------------------------------------------------------


@inner_kernel
def _toggle_fan_hash(fan, depth, card, hashes):
    fan_hash, total_hash, zfan, _ = hashes
    for t in range(2):
        old = fan_hash[fan, t]
        new = old ^ zfan[t, depth, card]
        fan_hash[fan, t] = new
        total_hash[t] += mix(new) - mix(old)


@inner_kernel
def _fan_push(fan, card, board, hashes):
    fans, flen, _, top_fan, place = board
    n = flen[fan]
    if n > 0:
        top_fan[fans[fan, n - 1]] = -1
    fans[fan, n] = card
    flen[fan] = n + 1
    top_fan[card] = fan
    place[card] = fan * 64 + n
    _toggle_fan_hash(np.int64(fan), np.int64(n), np.int64(card), hashes)


@inner_kernel
def _fan_pop(fan, board, hashes):
    fans, flen, _, top_fan, _ = board
    n = flen[fan] - 1
    card = fans[fan, n]
    flen[fan] = n
    top_fan[card] = -1
    if n > 0:
        top_fan[fans[fan, n - 1]] = fan
    _toggle_fan_hash(np.int64(fan), np.int64(n), np.int64(card), hashes)
    return card


@inner_kernel
def _foundation_card(suit, height, ranks):
    """The ``height``-th card (1-based) of a foundation; D and H build up, C and S down."""
    if suit == 1 or suit == 2:
        return (suit << 4) + height - 1
    return (suit << 4) + ranks - height


@inner_kernel
def _foundation_next(suit, height, ranks):
    """The card the foundation of ``suit`` accepts, or -1 when it is complete."""
    h = height[suit]
    if h == ranks:
        return -1
    return _foundation_card(suit, h + 1, ranks)


@inner_kernel
def _foundation_push(suit, board, hashes):
    height = board[2]
    zfound = hashes[3]
    total_hash = hashes[1]
    h = height[suit]
    height[suit] = h + 1
    for t in range(2):
        total_hash[t] += zfound[t, suit, h + 1] - zfound[t, suit, h]


@inner_kernel
def _foundation_pop(suit, ranks, board, hashes):
    height = board[2]
    zfound = hashes[3]
    total_hash = hashes[1]
    h = height[suit]
    height[suit] = h - 1
    for t in range(2):
        total_hash[t] += zfound[t, suit, h - 1] - zfound[t, suit, h]
    return _foundation_card(suit, np.int64(h), ranks)


@inner_kernel
def _is_won(height, ranks):
    return height[0] == ranks and height[1] == ranks and height[2] == ranks and height[3] == ranks


@inner_kernel
def _is_settled(height, top_fan, ranks):
    """True when no fan top card is the card its foundation accepts next."""
    for s in range(4):
        card = _foundation_next(s, height, ranks)
        if card >= 0 and top_fan[card] >= 0:
            return False
    return True


# --- moves -----------------------------------------------------------------------------------


@inner_kernel
def _apply(move, depth, nfans, ranks, board, hashes, autos, nauto):
    """Play ``move`` then the automatic moves, recording them in ``autos[depth]``."""
    height, top_fan = board[2], board[3]
    source = move >> 8
    target = move & 255
    if source < nfans:
        card = _fan_pop(source, board, hashes)
        exempt = -1
    else:
        card = _foundation_pop(source - nfans, ranks, board, hashes)
        exempt = card
    if target < nfans:
        _fan_push(target, card, board, hashes)
    else:
        _foundation_push(target - nfans, board, hashes)
    count = 0
    progress = True
    while progress:
        progress = False
        for s in range(4):
            due = _foundation_next(s, height, ranks)
            if due >= 0 and due != exempt:
                fan = top_fan[due]
                if fan >= 0:
                    _fan_pop(np.int64(fan), board, hashes)
                    _foundation_push(s, board, hashes)
                    autos[depth, count] = fan * 4 + s
                    count += 1
                    progress = True
    nauto[depth] = count


@inner_kernel
def _undo(move, depth, nfans, ranks, board, hashes, autos, nauto):
    """Undo ``_apply(move, depth, ...)`` exactly."""
    for k in range(nauto[depth] - 1, -1, -1):
        code = autos[depth, k]
        card = _foundation_pop(code & 3, ranks, board, hashes)
        _fan_push(code >> 2, card, board, hashes)
    source = move >> 8
    target = move & 255
    if target < nfans:
        card = _fan_pop(target, board, hashes)
    else:
        card = _foundation_pop(target - nfans, ranks, board, hashes)
    if source < nfans:
        _fan_push(source, card, board, hashes)
    else:
        _foundation_push(source - nfans, board, hashes)


@inner_kernel
def _moved_suits(move, depth, nfans, board, autos, nauto):
    """A bit mask holding the suit of every card that ``_apply(move, depth, ...)`` moved (and
    maybe more), read from the position after it."""
    fans, flen = board[0], board[1]
    source = move >> 8
    target = move & 255
    suits = 0
    if source >= nfans:
        suits |= 1 << (source - nfans)
    if target >= nfans:
        suits |= 1 << (target - nfans)
    elif flen[target] > 0:
        # (the moved card, unless an automatic move took it on, which the loop below records)
        suits |= 1 << (fans[target, flen[target] - 1] >> 4)
    for k in range(nauto[depth]):
        suits |= 1 << (autos[depth, k] & 3)
    return suits


@inner_kernel
def _add_targets(out, n, source, card, nfans, ranks, board, first_empty, symmetric, lone):
    """Append the fan targets of ``card`` (taken from ``source``); return the new count."""
    flen, top_fan = board[1], board[3]
    rank = card & 15
    if rank + 1 < ranks and top_fan[card + 1] >= 0:
        out[n] = source * 256 + top_fan[card + 1]
        n += 1
    if rank > 0 and top_fan[card - 1] >= 0:
        out[n] = source * 256 + top_fan[card - 1]
        n += 1
    if (rank == 0 or rank == ranks - 1) and first_empty >= 0:
        if symmetric:
            if not lone:
                out[n] = source * 256 + first_empty
                n += 1
        else:
            for j in range(nfans):
                if flen[j] == 0:
                    out[n] = source * 256 + j
                    n += 1
    return n


@kernel
def _generate(out, nfans, ranks, board, returns, symmetric):
    """Write the player moves of the position to ``out``; return how many.

    ``returns``: 1 = foundation returns everywhere, 0 = only in unsettled positions.
    ``symmetric``: try one empty fan per card and no lone card to an empty fan.
    """
    fans, flen, height, top_fan, _ = board
    first_empty = -1
    for i in range(nfans):
        if flen[i] == 0:
            first_empty = i
            break
    n = np.int64(0)  # (typed: a literal 0 would compile a second copy of the callees)
    for i in range(nfans):
        h = flen[i]
        if h == 0:
            continue
        card = fans[i, h - 1]
        suit = card >> 4
        if _foundation_next(suit, height, ranks) == card:
            out[n] = i * 256 + nfans + suit
            n += 1
        n = _add_targets(
            out, n, np.int64(i), np.int64(card), nfans, ranks, board, first_empty, symmetric, h == 1
        )
    if returns == 1 or not _is_settled(height, top_fan, ranks):
        for s in range(4):
            if height[s] > 0:
                card = _foundation_card(s, np.int64(height[s]), ranks)
                n = _add_targets(
                    out,
                    n,
                    np.int64(nfans + s),
                    np.int64(card),
                    nfans,
                    ranks,
                    board,
                    first_empty,
                    symmetric,
                    np.bool_(False),
                )
    return n


@inner_kernel
def _suit_position(card, ranks):
    """1-based position of ``card`` in its foundation's building order."""
    suit = card >> 4
    rank = card & 15
    if suit == 1 or suit == 2:
        return rank + 1
    return ranks - rank
