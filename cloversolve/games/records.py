"""The record types of the game registry: one :class:`Family` per rule family and one
:class:`Preset` per playable rule set, with the grading parameters a preset carries.

Records are data. A family names its package (``cloversolve.families.<family>``) by dotted
path and imports it on first use, so reading the registry never loads a rules engine, a search
kernel or numba.
A preset states only where it differs from its family's defaults (the rule switches).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..core.cards import Card
from ..core.loading import resolve


class UnknownFamilyError(ValueError):
    """A rule-family name that is not registered."""


def _no_registry(name: str) -> Family:
    raise LookupError(f"no registry is loaded to find the family {name!r}")


#: How a preset finds its family's record: the registry's ``find_family``, which the registry
#: installs with :func:`use_family_lookup` as it loads (the records sit below the registry's
#: data and do not import it).
_family_lookup: Callable[[str], Family] = _no_registry


def use_family_lookup(lookup: Callable[[str], Family]) -> None:
    """Make ``lookup`` the way every preset finds its rule family's record."""
    global _family_lookup
    _family_lookup = lookup


class UnknownPresetError(ValueError):
    """A preset name that is not in the registry."""


class HintPolicy(enum.Enum):
    """How ``hint()`` chooses a move.

    ``SEARCH``: the first move of a winning route (a promise of a win). ``VISIBLE``: a legal
    move chosen from what a player sees, without searching hidden cards (no promise).
    """

    SEARCH = "search"
    VISIBLE = "visible"


@dataclass(frozen=True)
class Family:
    """One rule family: its rules' defaults and the package that plays it.

    ``module`` is the dotted path of the family's package (``cloversolve.families.<family>``,
    or a plug-in's own), whose ``FAMILY`` object is the family's plug-in: its reference engine,
    search, players, loss witnesses and JS rules (:attr:`plugin`; each layer knows the part it
    uses: :class:`cloversolve.rules.plugin.RulesPlugin` and the layers' plug-ins above it).

    Shape: ``grid`` positions are a grid of cells and a stock, dealt cells first in ascending
    order; otherwise piles dealt round-robin (``fans``: the piles are fans, so called in
    messages and drawn overlapping sideways), and foundations whose route names are
    ``foundation_names`` (one ``F``, or one per suit, ``F`` + suit letter) and which build
    in the directions ``foundation_builds`` (``up`` or ``down``, one per foundation; empty: the
    foundation wraps round and has no one direction).

    Rules: ``foundation_return`` says whether a foundation's top card may move back to the
    tableau by default; ``switches`` names the rule switches (fields of :class:`Preset`
    defaulting to the family's) whose per-preset value the engine reads. ``hint_policy`` says
    how ``hint()`` chooses a move (:attr:`HintPolicy.VISIBLE`: the plug-in's visible hint).

    Grading: ``grading_panel`` names the player models (``cloversolve.grading.players.PLAYERS``)
    whose win rates grade the family's presets (empty: not graded). ``compile_seconds`` is about
    how long a first run compiles the family's kernels (said in the notice before compiling).

    Certificates: ``reductions`` names the reductions the family's exhaustive search uses
    (FACTS.md argues each), as an ``exhausted-search`` certificate lists them.
    """

    name: str
    module: str
    foundation_names: tuple[str, ...] = ("F",)
    foundation_builds: tuple[str, ...] = ()
    grid: bool = False
    fans: bool = False
    hint_policy: HintPolicy = HintPolicy.SEARCH
    grading_panel: tuple[str, ...] = ("dig", "lookahead", "home", "planner", "patient")
    compile_seconds: float = 10.0
    foundation_return: bool = False
    switches: tuple[str, ...] = ()
    reductions: tuple[str, ...] = ()

    @property
    def plugin(self) -> Any:
        """The family's plug-in, the ``FAMILY`` object of its package, imported on first use
        (typed by the layer that asks for it: ``rules_plugin``, ``search_plugin``, ...)."""
        return resolve(f"{self.module}:FAMILY")


@dataclass(frozen=True)
class Grading:
    """A preset's grading parameters (grading version 2; the panel is its family's). The
    fields are those of :class:`cloversolve.grading.grading.GradingRule`, which documents them."""

    games: int
    max_steps: int
    depth: int
    patience: int
    easy_threshold: float
    hard_threshold: float
    solve_nodes: int
    check_nodes: int


@dataclass(frozen=True)
class FirstGrading:
    """A preset's grading-version-1 parameters, kept to check the catalogues built with them
    (the fields of :class:`cloversolve.grading.grading.PlayoutRule`)."""

    policy: str
    playouts: int
    max_steps: int
    score: str
    easy_threshold: float
    hard_threshold: float
    solve_nodes: int
    check_nodes: int


@dataclass(frozen=True)
class Preset:
    """One playable rule set: a family's rules with the preset's deck, shape and switches.

    ``family`` names a :class:`~cloversolve.games.records.Family` of the registry. Deck: the 52
    cards without ``dropped_ranks``; ``foundation_cards`` start on the foundations (dealt first,
    out of the talon) and ``dealt_last`` are moved to the end of the talon before dealing
    (PySolFC's shuffle hooks). Shape: ``piles`` piles or fans, dealt round-robin, or grid cells
    (the rest of the talon is the stock). ``switches`` holds the rule switches the preset sets
    differently from its family (only those the family's engine reads). ``grading`` and
    ``first_grading`` are its grading parameters (``None``: not graded); ``front_end`` says
    whether front ends get the preset (the JS module, the viewer, the shipped catalogues).
    """

    name: str
    family: str
    description: str
    rules: str
    piles: int
    foundation_cards: tuple[Card, ...] = ()
    dealt_last: tuple[Card, ...] = ()
    dropped_ranks: frozenset[int] = frozenset()
    switches: Mapping[str, bool] = field(default_factory=dict, hash=False)
    grading: Grading | None = None
    first_grading: FirstGrading | None = None
    front_end: bool = False

    @cached_property
    def rule_family(self) -> Family:
        """The registry record of the preset's rule family."""
        return _family_lookup(self.family)

    @property
    def foundation_names(self) -> tuple[str, ...]:
        """Route names of the foundations (``F``, or ``FC FD FH FS``)."""
        return self.rule_family.foundation_names

    @property
    def foundation_return(self) -> bool:
        """Whether a foundation's top card may move back to the tableau."""
        return self.switches.get("foundation_return", self.rule_family.foundation_return)

    @property
    def deck_size(self) -> int:
        """Cards in the preset's deck."""
        return 4 * (13 - len(self.dropped_ranks))

    @property
    def rows(self) -> int:
        """Cards dealt to each pile (1 for a grid: a card per cell)."""
        if self.rule_family.grid:
            return 1
        return (self.deck_size - len(self.foundation_cards)) // self.piles
