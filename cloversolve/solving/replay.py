"""Replay a route in the reference engine: the judge of every route the toolkit writes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.jsonio import loads
from ..core.notation import Move, parse_route
from ..core.verdicts import ReplayStatus
from ..core.wording import count
from ..games.dealing import deal
from ..games.layout import Layout, LayoutError
from ..games.registry import find_preset
from ..rules import Position, position_from_layout
from ..rules.layout_check import check_layout


@dataclass(frozen=True)
class ReplayResult:
    """The outcome of a replay. ``illegal_at`` is the 1-based index of the first illegal move."""

    status: ReplayStatus
    moves_played: int
    illegal_at: int | None = None
    reason: str | None = None
    position: Position | None = None

    @property
    def won(self) -> bool:
        return self.status is ReplayStatus.WON

    def describe(self) -> str:
        """One line in plain words."""
        if self.status is ReplayStatus.WON:
            return f"won: the route's {count(self.moves_played, 'move')} put every card away"
        if self.status is ReplayStatus.NOT_WON:
            played = {0: "no moves played", 1: "the one move is legal"}.get(
                self.moves_played, f"all {self.moves_played} moves are legal"
            )
            return f"not won: {played} but the game is not finished"
        return f"illegal at move {self.illegal_at}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        """The outcome as ``replay --json`` prints it (without the position)."""
        return {
            "status": self.status.value,
            "moves_played": self.moves_played,
            "illegal_at": self.illegal_at,
            "reason": self.reason,
        }


def load_layout(preset: str, deal_or_layout: int | str | Layout | Mapping[str, Any]) -> Layout:
    """A layout from a deal number, a :class:`Layout` or layout JSON (an object, or its text)
    for ``preset``: the one way into ``solve``, ``hint`` and ``replay``. A given layout must
    pass :func:`!cloversolve.rules.layout_check.check_layout` (else :class:`LayoutError`)."""
    spec = find_preset(preset)
    if type(deal_or_layout) is int:  # (the common case first)
        return deal(spec.name, deal_or_layout)
    if isinstance(deal_or_layout, str) and deal_or_layout.lstrip().startswith("{"):
        try:
            deal_or_layout = loads(deal_or_layout.encode())
        except ValueError as error:
            raise LayoutError(f"layout JSON text that is not JSON ({error})", "not-json") from None
    if isinstance(deal_or_layout, Layout):
        if deal_or_layout.preset != spec.name:
            raise LayoutError(
                f"layout is for preset {deal_or_layout.preset!r}, not {preset!r}", "wrong-preset"
            )
        return check_layout(deal_or_layout)
    if isinstance(deal_or_layout, Mapping):
        return check_layout(Layout.from_json(deal_or_layout, preset=spec.name))
    return deal(spec.name, deal_or_layout)  # type: ignore[arg-type]


def replay_moves(position: Position, moves: Iterable[Move]) -> ReplayResult:
    """Play ``moves`` on ``position`` (modified in place), stopping at the first illegal one."""
    played = 0
    for index, move in enumerate(moves, start=1):
        reason = position.why_illegal(move)
        if reason is not None:
            return ReplayResult(ReplayStatus.ILLEGAL, played, index, f"{move}: {reason}", position)
        position.push(move)
        played += 1
    status = ReplayStatus.WON if position.is_won() else ReplayStatus.NOT_WON
    return ReplayResult(status, played, position=position)


def replay(
    preset: str,
    deal_or_layout: int | str | Layout | Mapping[str, Any],
    route: str | Iterable[str] | Iterable[Move],
) -> ReplayResult:
    """Replay ``route`` from a deal number or layout of ``preset``.

    ``route`` is text (``"4>F 3>11"``), a list of move strings, or a list of moves.
    Raises ``ValueError`` subclasses for an unknown preset, a bad deal number, a malformed
    layout or a malformed route; an illegal move is a result, not an exception.
    """
    return replay_layout(load_layout(preset, deal_or_layout), route)


def replay_layout(layout: Layout, route: str | Iterable[str] | Iterable[Move]) -> ReplayResult:
    """:func:`replay` from a layout already loaded (:func:`load_layout`)."""
    return replay_moves(position_from_layout(layout), parse_route(route))
