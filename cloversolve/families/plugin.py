"""A rule family's plug-in: the one object (``FAMILY`` in the family's package) through which
every layer reaches the family's code.

:class:`FamilyPlugin` is the whole of what a family offers; each layer knows the part it
uses (:class:`~cloversolve.rules.plugin.RulesPlugin`,
:class:`~cloversolve.search.plugin.SearchPlugin`,
:class:`~cloversolve.grading.plugin.GradingPlugin`). :class:`Plugin` gives the
defaults of the optional parts; a family's package subclasses it, imports its engine and
states its search module, which loads on first use (importing a family never loads numba).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from ..games.registry import find_family
from ..grading.plugin import GradingPlugin, ValidationPlayer
from ..rules.loss_witnesses import LossProver, LossWitnesses
from ..rules.plugin import DigPlayer, VisibleHint


class FamilyPlugin(GradingPlugin, Protocol):
    """Everything a rule family offers: its engine, loss witnesses and prover, players and
    hint, search, validation players, and for front ends its JS rules."""

    @property
    def js_rules(self) -> str | None:
        """The export of the family's JS rules module (``rules.js`` in its folder) that
        ``cloversolve.js`` uses (``None``: front ends get none of its presets)."""
        ...


class Plugin:
    """The defaults of a family's plug-in: no loss witnesses or prover, the default ``dig``
    preference, no visible hint, no validation players of its own and no JS rules. A family
    states its ``engine`` and its ``search_module``."""

    @property
    def loss_witnesses(self) -> LossWitnesses | None:
        return None

    @property
    def loss_prover(self) -> LossProver | None:
        return None

    @property
    def dig_player(self) -> DigPlayer | None:
        return None

    @property
    def visible_hint(self) -> VisibleHint | None:
        return None

    @property
    def validation_players(self) -> Mapping[str, ValidationPlayer]:
        return {}

    @property
    def js_rules(self) -> str | None:
        return None


def family_plugin(family: str) -> FamilyPlugin:
    """The plug-in of the registered family ``family``, whole."""
    plugin: FamilyPlugin = find_family(family).plugin
    return plugin
