"""Types shared by every search kernel wrapper: limits, verdicts, how a verdict was reached."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..notation import Move

#: Default bound on the transposition table's memory.
DEFAULT_MAX_MEMORY = 512 * 2**20


class Status(enum.Enum):
    """The verdict of a search. ``UNSOLVABLE`` only ever comes from an exhausted search
    (or a sound, documented reduction of one)."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    LIMIT_REACHED = "limit"


class Method(enum.Enum):
    """How a verdict was reached."""

    ROUTE_FOUND = "route-found"
    EXHAUSTED = "exhausted-search"
    KING_BOTTOM = "king-bottom-condition"
    BUDGET = "budget-exhausted"


class StopReason(enum.Enum):
    """Which budget stopped a search that did not decide."""

    NODES = "nodes"
    TIME = "time"
    MEMORY = "memory"


@dataclass(frozen=True)
class Limits:
    """Budgets of one search. ``None`` means unbounded."""

    max_nodes: int | None = None
    time_limit: float | None = None
    max_memory: int = DEFAULT_MAX_MEMORY

    def __post_init__(self) -> None:
        if self.max_nodes is not None and self.max_nodes < 1:
            raise ValueError(f"max_nodes must be positive, got {self.max_nodes!r}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError(f"time_limit must be positive, got {self.time_limit!r}")
        if self.max_memory < 2**20:
            raise ValueError(f"max_memory must be at least 1 MiB, got {self.max_memory!r}")


@dataclass
class SearchOutcome:
    """What a kernel wrapper returns: verdict, route from the searched position, counters;
    ``stopped_by`` names the budget that stopped an undecided search (``None`` otherwise)."""

    status: Status
    method: Method
    route: tuple[Move, ...] = ()
    nodes: int = 0
    states: int = 0
    max_depth: int = 0
    details: dict[str, int | float | str] = field(default_factory=dict)
    stopped_by: StopReason | None = None
