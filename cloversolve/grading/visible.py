"""``visible_hint()``: the hint a front end shows, chosen from what a player sees.

The rule belongs to the family (its plug-in's ``visible_hint``): in ``fifteen`` the
visible-grid hint (:func:`cloversolve.families.fifteen.hint.visible_hint`: it never looks at the
stock); in the pile games, where every card is face up, the move of the grading panel's
``dig`` player played greedily (:func:`cloversolve.grading.players.dig_hint`), the one-move
player of
the panel that wins most. It searches nothing and promises no win. ``cloversolve.js``'s
``hint`` gives the same move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..core.notation import Move
from ..games.layout import Layout
from ..games.registry import find_preset
from ..rules.plugin import rules_plugin
from ..solving.replay import ReplayStatus, load_layout, replay_layout
from ..solving.solver import IllegalRouteError


class NoVisibleHintError(ValueError):
    """A preset whose family has no visible hint."""


def visible_hint(
    preset: str,
    position: int | str | Layout | Mapping[str, Any],
    route: str | Iterable[str] | Iterable[Move] = (),
) -> Move | None:
    """The visible hint in the position that ``route`` (moves as
    :func:`~cloversolve.replay` takes them; none by default) reaches from a deal
    number
    or layout of ``preset``: a legal move, or ``None`` when the game is won or the rule has no
    move. An illegal move in ``route`` raises
    :class:`~cloversolve.solving.solver.IllegalRouteError`;
    a preset without a visible hint (``blackhole``, ``allinarow``) raises
    :class:`NoVisibleHintError`.
    """
    spec = find_preset(preset)
    family_hint = rules_plugin(spec.family).visible_hint
    if family_hint is None:
        raise NoVisibleHintError(f"preset {spec.name!r} has no visible hint")
    played = replay_layout(load_layout(spec.name, position), route)
    if played.status is ReplayStatus.ILLEGAL:
        raise IllegalRouteError(played)
    assert played.position is not None
    if played.position.is_won():
        return None
    return family_hint(played.position)
