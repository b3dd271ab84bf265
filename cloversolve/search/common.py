"""Types shared by every search kernel wrapper: the limits and the outcome of a search (its
verdict is spelled in :mod:`cloversolve.core.verdicts`)."""

from __future__ import annotations

import math
import numbers
import operator
from dataclasses import dataclass, field
from typing import Any

from ..core.inputs import quoted
from ..core.notation import Move
from ..core.verdicts import Method, Status, StopReason

#: Default bound on the transposition table's memory.
DEFAULT_MAX_MEMORY = 512 * 2**20
#: The smallest memory bound a search accepts.
MIN_MEMORY = 2**20
#: The largest memory bound: 256 TiB, beyond any machine the kernels' tables will meet.
MAX_MEMORY = 2**48
#: The largest node budget: the kernels count nodes in 64-bit integers and add budgets to
#: counts, so budgets stay well inside that range.
MAX_NODES = 2**62


class LimitError(ValueError):
    """A search budget that is not a usable value; ``parameter`` names the budget."""

    def __init__(self, parameter: str, expected: str, value: object) -> None:
        super().__init__(f"{parameter} must be {expected}, got {quoted(value)}")
        self.parameter = parameter
        self.expected = expected
        self.value = value


def _whole_number(parameter: str, value: Any, low: int, high: int, expected: str) -> int:
    """``value`` as an ``int`` if it is an integer (not a bool) in ``low..high``."""
    if type(value) is int and low <= value <= high:  # (the common case, checked first)
        return value
    if isinstance(value, bool):
        raise LimitError(parameter, expected, value)
    try:
        number = operator.index(value)  # ints and NumPy integers; never floats or text
    except TypeError:
        raise LimitError(parameter, expected, value) from None
    if not low <= number <= high:
        raise LimitError(parameter, expected, value)
    return number


@dataclass(frozen=True)
class Limits:
    """Budgets of one search. ``None`` means unbounded."""

    max_nodes: int | None = None
    time_limit: float | None = None
    max_memory: int = DEFAULT_MAX_MEMORY

    def __post_init__(self) -> None:
        """The one check of search budgets, for every family: raise :class:`LimitError`
        (a ``ValueError`` naming the parameter) unless ``max_nodes`` is ``None`` or a whole
        number 1..2**62, ``time_limit`` is ``None`` or a finite number of seconds above 0, and
        ``max_memory`` is a whole number of bytes from 1 MiB to 256 TiB. Values are stored
        as ``int`` and ``float``."""
        if self.max_nodes is not None:
            nodes = _whole_number(
                "max_nodes", self.max_nodes, 1, MAX_NODES, "a whole number from 1 to 2**62"
            )
            if nodes is not self.max_nodes:  # (a NumPy integer, stored as an int)
                object.__setattr__(self, "max_nodes", nodes)
        if self.time_limit is not None:
            seconds = self.time_limit
            expected = "a finite number of seconds above 0"
            if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
                raise LimitError("time_limit", expected, seconds)
            try:
                as_float = float(seconds)
            except OverflowError:  # (an integer too large for a float)
                raise LimitError("time_limit", expected, seconds) from None
            if not math.isfinite(as_float) or not as_float > 0:
                raise LimitError("time_limit", expected, seconds)
            object.__setattr__(self, "time_limit", as_float)
        memory = _whole_number(
            "max_memory",
            self.max_memory,
            MIN_MEMORY,
            MAX_MEMORY,
            "a whole number of bytes from 1 MiB (2**20) to 256 TiB (2**48)",
        )
        if memory is not self.max_memory:
            object.__setattr__(self, "max_memory", memory)


#: The budgets of a search told none: no bound on nodes or time, the default memory bound.
DEFAULT_LIMITS = Limits()


def call_limits(
    limits: Limits | None, max_nodes: int | None, time_limit: float | None, max_memory: int
) -> Limits:
    """The budgets of a call that takes them as ``limits`` or as the three keywords (whose
    defaults are those of :class:`Limits`): ``ValueError`` when ``limits`` comes with a
    keyword other than its default."""
    if limits is None:
        defaults = max_nodes is None and time_limit is None and type(max_memory) is int
        if defaults and max_memory == DEFAULT_MAX_MEMORY:
            return DEFAULT_LIMITS  # (the common call: a frozen value needs no new check)
        return Limits(max_nodes=max_nodes, time_limit=time_limit, max_memory=max_memory)
    if max_nodes is not None or time_limit is not None or max_memory != DEFAULT_MAX_MEMORY:
        raise ValueError("give the budgets as limits or as max_nodes, time_limit and max_memory")
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a Limits, got {quoted(limits)}")
    return limits


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
