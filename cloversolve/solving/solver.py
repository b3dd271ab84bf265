"""``solve()`` and ``hint()``: the public face of the search kernels.

Every route a search returns is replayed by the reference engine before it leaves this
module; a route that does not replay to a win is a bug and raises :class:`RouteCheckError`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.notation import Move
from ..core.verdicts import HintVerdict, Method, ReplayStatus, Status
from ..games.layout import Layout
from ..games.records import HintPolicy
from ..games.registry import find_preset
from ..rules import Position, position_class
from ..rules.plugin import rules_plugin
from ..search.common import DEFAULT_MAX_MEMORY, Limits, SearchOutcome, call_limits
from ..search.plugin import family_search
from .certificates import Certificate, certify, route_certificate
from .replay import ReplayResult, load_layout, replay_layout, replay_moves

#: Exit codes of ``cloversolve solve`` by verdict.
EXIT_CODES = {Status.SOLVED: 0, Status.UNSOLVABLE: 3, Status.LIMIT_REACHED: 4}


class RouteCheckError(RuntimeError):
    """A search produced a route that the reference engine does not accept (a bug)."""


@dataclass(frozen=True)
class SolveResult:
    """The verdict on one position, the route when solved, and the search counters.

    ``nodes`` counts the moves the search made (every run: restarts, root projections),
    ``states`` the positions it stored, ``max_depth`` its deepest line; ``seconds`` is the wall
    time of the search and of the route's check. ``details`` holds the family's own counters
    and switches (``docs/verdicts.md``, "What a verdict reports", lists them).
    ``certificate`` proves the verdict (:mod:`cloversolve.solving.certificates`: the route, or the
    witness of a loss; ``None`` when undecided); ``loss_certificate`` is the witness of a loss
    alone.
    """

    preset: str
    number: int | None
    status: Status
    method: Method
    route: tuple[Move, ...]
    nodes: int
    states: int
    max_depth: int
    seconds: float
    details: Mapping[str, Any] = field(default_factory=dict)
    loss_certificate: Certificate | None = None

    @classmethod
    def _with_fields(cls, **fields: Any) -> SolveResult:
        """The result whose fields (every one of them) are ``fields``: what the constructor
        makes, without its one frozen assignment per field (a cost a fast game's solve
        notices)."""
        result = object.__new__(cls)
        result.__dict__.update(fields)
        return result

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED

    @property
    def certificate(self) -> Certificate | None:
        """The route when solved, the witness of the loss when unsolvable, else ``None`` (made
        when asked for: most callers never read a route's certificate)."""
        if self.status is Status.SOLVED:
            return route_certificate(self.route)
        return self.loss_certificate

    @property
    def route_strings(self) -> list[str]:
        return [str(move) for move in self.route]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (``status`` is ``solved``, ``unsolvable`` or ``limit``)."""
        return {
            "preset": self.preset,
            "number": self.number,
            "status": self.status.value,
            "method": self.method.value,
            "route": self.route_strings,
            "route_length": len(self.route),
            "nodes": self.nodes,
            "states": self.states,
            "max_depth": self.max_depth,
            "seconds": round(self.seconds, 6),
            "details": dict(self.details),
            "certificate": None if self.certificate is None else self.certificate.to_json(),
        }


def search_position(position: Position, family: str, limits: Limits) -> SearchOutcome:
    """Run the rule family's search kernel on a reference position."""
    return family_search(family)(position, limits)


def _check_route(engine: type[Position], layout: Layout, route: tuple[Move, ...]) -> None:
    result = replay_moves(engine.from_layout(layout), route)
    if not result.won:
        raise RouteCheckError(
            f"internal error: the route found for {layout.preset} "
            f"{layout.number or 'layout'} does not replay to a win ({result.describe()})"
        )


def solve(
    preset: str,
    deal: int | str | Layout | Mapping[str, Any],
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    limits: Limits | None = None,
) -> SolveResult:
    """Decide a deal (number) or a layout of ``preset``: a winning route, or a proof of none.

    ``deal`` is a deal number, or a layout (a :class:`Layout`, or layout JSON as an object or
    its text). ``max_nodes`` bounds the moves the search makes, ``time_limit`` its wall-clock
    seconds, ``max_memory`` the bytes of its arrays (``docs/verdicts.md``, "What the budgets
    bound"); ``limits`` gives the three at once, as a :class:`Limits` (not with them).
    "No solution" is a status, not an exception; a search that runs out of budget says
    ``LIMIT_REACHED``. Without a time limit the same input always gives the same result; a
    time limit is wall-clock, so a deal close to it can fall either side from run to run.

    Raises ``UnknownPresetError``, ``DealNumberError``, ``LayoutError`` or ``LimitError``
    (each a ``ValueError`` with a one-line message) on bad input.
    """
    spec = find_preset(preset)
    layout = load_layout(spec.name, deal)
    budget = call_limits(limits, max_nodes, time_limit, max_memory)
    return _solve_layout(spec.name, layout, budget)


def _solve_layout(preset: str, layout: Layout, limits: Limits) -> SolveResult:
    """:func:`solve` on a loaded layout of the (canonical) preset ``preset``."""
    spec = find_preset(preset)
    if spec.name not in _WARM:
        # Load the kernels first: the time limit and the reported seconds are the search's.
        warm_up(spec.name)
    started = time.perf_counter()
    engine = position_class(spec.family)
    position = engine.from_layout(layout)
    outcome = search_position(position, spec.family, limits)  # (it leaves ``position`` as is)
    seconds = time.perf_counter() - started
    if outcome.status is Status.SOLVED:
        _check_route(engine, layout, outcome.route)
    lost = outcome.status is Status.UNSOLVABLE
    loss_certificate = certify(position, outcome, spec.family) if lost else None
    return SolveResult._with_fields(
        preset=spec.name,
        number=layout.number,
        status=outcome.status,
        method=outcome.method,
        route=outcome.route if outcome.status is Status.SOLVED else (),
        nodes=outcome.nodes,
        states=outcome.states,
        max_depth=outcome.max_depth,
        seconds=seconds,
        details=outcome.details,
        loss_certificate=loss_certificate,
    )


def warm_up(preset: str) -> None:
    """Compile (or load from numba's cache) the search kernels of ``preset`` in this process,
    with a short search of deal 1 and a growth of the shared table, so that the first timed
    search does not pay for it. Worker processes forked afterwards inherit the kernels."""
    spec = find_preset(preset)
    _WARM.add(spec.name)
    solve(spec.name, 1, max_nodes=2_000)  # (numba loads here, as the search layer loads it)
    from ..search.table import grown, new_table

    grown(new_table(2))


#: Presets whose kernels this process has loaded (see :func:`warm_up`).
_WARM: set[str] = set()


@dataclass(frozen=True)
class Hint:
    """A suggested move. ``keeps_win`` is True when a win is proven possible after ``move``;
    ``status`` is the verdict of the position the hint was asked for, or
    :attr:`HintVerdict.NOT_SEARCHED` for a visible-grid hint, which does not decide it."""

    move: Move | None
    status: Status | HintVerdict
    keeps_win: bool
    explanation: str

    def to_json(self) -> dict[str, Any]:
        return {
            "move": None if self.move is None else str(self.move),
            "status": self.status.value,
            "keeps_win": self.keeps_win,
            "explanation": self.explanation,
        }


class IllegalRouteError(ValueError):
    """The moves given to :func:`hint` are not all legal; ``result`` says where and why."""

    def __init__(self, result: ReplayResult) -> None:
        super().__init__(f"route is {result.describe()}")
        self.result = result


def hint(
    preset: str,
    position: int | str | Layout | Mapping[str, Any],
    route: str | Iterable[str] | Iterable[Move] = (),
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    limits: Limits | None = None,
) -> Hint:
    """A move after which a win is still possible, when one exists, in the position that
    ``route`` (moves as :func:`~cloversolve.replay` takes them; none by default)
    reaches from a deal number or layout. An illegal move in ``route`` raises
    :class:`IllegalRouteError`. The budgets of its search are those of :func:`solve`, given the
    same ways.

    A won position needs no move: the hint says so (``move`` None, ``SOLVED``). Families whose
    hint policy is :attr:`~cloversolve.games.records.HintPolicy.VISIBLE` (``fifteen``: the front
    ends promise players that a hint reveals nothing about the stock) name a legal move chosen
    from what a player sees, without a promise of a win and without searching, so within any
    budget: its ``status`` is :attr:`HintVerdict.NOT_SEARCHED` (``UNSOLVABLE`` when no legal
    move is left).
    """
    spec = find_preset(preset)
    layout = load_layout(spec.name, position)
    played = replay_layout(layout, route)
    if played.status is ReplayStatus.ILLEGAL:
        raise IllegalRouteError(played)
    if played.moves_played:
        assert played.position is not None
        layout = played.position.to_layout(layout.preset, layout.number)
    budget = call_limits(limits, max_nodes, time_limit, max_memory)
    family = spec.rule_family
    start = position_class(family.name).from_layout(layout)
    if start.is_won():
        return Hint(None, Status.SOLVED, True, "the position is already won; no move is needed")
    if family.hint_policy is HintPolicy.VISIBLE:
        visible_hint = rules_plugin(family.name).visible_hint
        if visible_hint is None:
            raise TypeError(f"family {family.name!r} gives no visible hint")
        move = visible_hint(start)
        if move is None:
            return Hint(None, Status.UNSOLVABLE, False, "no legal move is left")
        return Hint(
            move,
            HintVerdict.NOT_SEARCHED,
            False,
            "a legal move chosen from the visible cards; not a promise of a win",
        )
    result = _solve_layout(spec.name, layout, budget)
    if result.status is Status.SOLVED:
        return Hint(result.route[0], Status.SOLVED, True, "a win is still possible after this move")
    if result.status is Status.UNSOLVABLE:
        return Hint(None, Status.UNSOLVABLE, False, "no winning continuation exists")
    return Hint(
        None,
        Status.LIMIT_REACHED,
        False,
        "the search ran out of budget before finding a winning move",
    )
