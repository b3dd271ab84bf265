"""What a rule family's plug-in gives the grading layer and those above it: its own
validation players (:mod:`!cloversolve.grading.validation_players` has the generic ones),
and what a validation player is."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from ..core.notation import Move
from ..games.registry import find_family
from ..rules import Position, position_class
from ..rules.plugin import rules_plugin
from ..search.plugin import SearchPlugin


class Game(NamedTuple):
    """One game of a validation player: won or not, and the moves of its final line."""

    won: bool
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class ValidationPlayer:
    """A validation player: the reference engines it plays (``None``: every engine), how it
    plays one seeded game, whether it undoes (``assisted``) and whether it plays only the
    families with a visible hint."""

    name: str
    description: str
    engines: tuple[type[Position], ...] | None
    play: Callable[[Position, random.Random], Game]
    assisted: bool = False
    needs_visible_hint: bool = False

    def plays(self, family: str) -> bool:
        """Whether the player plays the presets of ``family``."""
        if self.needs_visible_hint and rules_plugin(family).visible_hint is None:
            return False
        return self.engines is None or issubclass(position_class(family), self.engines)


class GradingPlugin(SearchPlugin, Protocol):
    """The part of a family's plug-in that the grading layer and those above it know."""

    @property
    def validation_players(self) -> Mapping[str, ValidationPlayer]:
        """The family's own validation players by name (loaded on first use)."""
        ...


def grading_plugin(family: str) -> GradingPlugin:
    """The plug-in of the registered family ``family``, as the grading layer knows it."""
    plugin: GradingPlugin = find_family(family).plugin
    return plugin
