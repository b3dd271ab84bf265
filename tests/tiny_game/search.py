"""The search of the ``sprig`` family: the generic exhaustive solver over its reference engine
(no compiled kernels)."""

from __future__ import annotations

from cloversolve.core.verdicts import Method, Status, StopReason
from cloversolve.rules import Position
from cloversolve.rules.exhaustive import solve_exhaustively
from cloversolve.search.common import Limits, SearchOutcome

#: The numba kernels the search calls (none: nothing compiles).
SEARCH_KERNELS: tuple[object, ...] = ()


def search(position: Position, limits: Limits | None = None) -> SearchOutcome:
    """Decide ``position`` by trying every line of moves, visiting at most ``max_nodes``
    positions (the one budget it keeps)."""
    found = solve_exhaustively(position, (limits or Limits()).max_nodes)
    visited = found.positions
    if found.solvable:
        route = found.route or ()
        return SearchOutcome(
            Status.SOLVED, Method.ROUTE_FOUND, route, visited, visited, max_depth=len(route)
        )
    if found.solvable is False:
        return SearchOutcome(Status.UNSOLVABLE, Method.EXHAUSTED, (), visited, visited)
    return SearchOutcome(
        Status.LIMIT_REACHED, Method.BUDGET, (), visited, visited, stopped_by=StopReason.NODES
    )
