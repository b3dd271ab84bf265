"""What a rule family's plug-in gives the rules layer and those above it: its reference
engine, its loss witnesses and prover, and the move choices of its players that read a
position only (the grading players' ``dig`` preference and the visible hint).

A family's plug-in is the object ``FAMILY`` of its package (``cloversolve/families/<family>/``,
named by the ``module`` of its registry record,
:class:`cloversolve.games.records.Family`). It offers more
than this to the layers above: :class:`cloversolve.search.plugin.SearchPlugin` adds its search,
:class:`cloversolve.grading.plugin.GradingPlugin` its validation players and
:class:`cloversolve.families.plugin.FamilyPlugin` is the whole of it. Each layer takes the part
it knows; the members load their modules on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..core.notation import Move
from ..games.registry import find_family
from .base import Position
from .loss_witnesses import LossProver, LossWitnesses

#: The grading players' ``dig`` preference: the legal moves in classes, best class first.
DigPlayer = Callable[[Position], list[list[Move]]]
#: A visible-information hint: a legal move chosen from what a player sees, or ``None``.
VisibleHint = Callable[[Position], Move | None]


class RulesPlugin(Protocol):
    """The part of a family's plug-in that the rules layer and those above it know."""

    @property
    def engine(self) -> type[Position]:
        """The reference engine class."""
        ...

    @property
    def loss_witnesses(self) -> LossWitnesses | None:
        """The loss witnesses (``None``: the family has none)."""
        ...

    @property
    def loss_prover(self) -> LossProver | None:
        """The loss prover, the plain-Python search that proves losses again with the
        reductions of FACTS.md written anew from their statements (``None``: the plain
        exhaustive search proves them)."""
        ...

    @property
    def dig_player(self) -> DigPlayer | None:
        """The grading player's ``dig`` preference (``None``: moves that send cards home
        first, then the rest)."""
        ...

    @property
    def visible_hint(self) -> VisibleHint | None:
        """The visible-information hint (``None``: the family gives none)."""
        ...


def rules_plugin(family: str) -> RulesPlugin:
    """The plug-in of the registered family ``family``, as the rules layer knows it."""
    plugin: RulesPlugin = find_family(family).plugin
    return plugin
