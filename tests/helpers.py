"""Helpers shared by the test modules: move counts by the reference engine and by the search
kernels, route replays, and cards left on the table."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable

from cloversolve.layout import Layout
from cloversolve.notation import Move
from cloversolve.presets import find_preset
from cloversolve.rules import Position


def engine_perft(position: Position, depth: int) -> int:
    """Move sequences of exactly ``depth`` moves from ``position``, by the reference engine
    (the position is restored afterwards)."""
    if depth == 0:
        return 1
    total = 0
    for move in list(position.legal_moves()):
        position.push(move)
        total += engine_perft(position, depth - 1)
        position.pop()
    return total


def replays_to_win(position: Position, route: Iterable[Move]) -> bool:
    """Play ``route`` on a copy of ``position``, checking every move; True if it wins."""
    board = position.copy()
    for move in route:
        board.push_checked(move)
    return board.is_won()


def random_walk(position: Position, rng: random.Random, steps: int) -> Position:
    """``position`` after up to ``steps`` random legal moves (fewer if it gets blocked), as a
    fresh position without history; ``position`` itself is left as it was."""
    board = position.copy()
    for _ in range(steps):
        moves = list(board.legal_moves())
        if not moves:
            break
        board.push(rng.choice(moves))
    return board.copy()


def cards_left(layout: Layout) -> int:
    """Cards still in play: on the piles, or in the grid and the stock."""
    if layout.is_grid:
        return sum(card is not None for card in layout.cells) + len(layout.stock)
    return sum(len(pile) for pile in layout.piles)


# -- the search kernels' own counts, behind one name per measure ----------------------------------


def _thirteen_perft(position: Position, depth: int) -> int:
    from cloversolve.search.thirteen import kernel_perft

    return kernel_perft(position, depth)


def _fifteen_perft(position: Position, depth: int) -> int:
    from cloversolve.search.fifteen import kernel_perft

    return kernel_perft(position, depth)


def _clover_perft(position: Position, depth: int) -> int:
    from cloversolve.search.clover import perft

    return perft(position, depth)


def _hole_perft(position: Position, depth: int) -> int:
    from cloversolve.search.hole import perft

    return perft(position, depth)


def _hole_states(position: Position, depth: int) -> int:
    from cloversolve.search.hole import count_reachable

    return count_reachable(position, depth)


#: Per rule family, the kernel's count of move sequences of a given length (``perft``).
KERNEL_PERFT: dict[str, Callable[[Position, int], int]] = {
    "thirteen": _thirteen_perft,
    "fifteen": _fifteen_perft,
    "clover": _clover_perft,
    "hole": _hole_perft,
}
#: Per rule family, the kernel's count of distinct play states reached in exactly a given
#: number of moves (the ``hole`` kernel counts both).
KERNEL_STATES: dict[str, Callable[[Position, int], int]] = {"hole": _hole_states}


def kernel_count(preset: str, measure: str, position: Position, depth: int) -> int | None:
    """The kernel's count of ``measure`` (``perft`` or ``states``) for ``preset``, or ``None``
    when its kernel offers no such count."""
    table = KERNEL_PERFT if measure == "perft" else KERNEL_STATES
    count = table.get(find_preset(preset).family)
    return None if count is None else count(position.copy(), depth)


#: The ``cloversolve`` program, started as its console script starts it. (Not ``python -m``:
#: CPython ends a ``-m`` module by SIGINT instead of its exit status once an interrupt has
#: passed through code run by ``exec``, as numba's compiler runs it.)
CLOVERSOLVE = [
    sys.executable,
    "-c",
    "import sys; from cloversolve.__main__ import main; sys.argv[0] = 'cloversolve'; main()",
]
