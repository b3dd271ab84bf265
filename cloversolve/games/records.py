"""The record types of the game registry: one :class:`Family` per rule family and one
:class:`Preset` per playable rule set, with the grading parameters a preset carries.

Records are data. A family names the modules of its layers by dotted path and imports them
on first use, so reading the registry never loads a rules engine, a search kernel or numba.
A preset states only where it differs from its family's defaults (the rule switches).
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, Protocol

from ..core.cards import Card

if TYPE_CHECKING:
    from ..core.notation import Move
    from ..grading.validation_players import ValidationPlayer
    from ..rules.base import Position
    from ..rules.loss_witnesses import LossProver, LossWitnesses
    from ..search.common import Limits, SearchOutcome


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


class SearchEntry(Protocol):
    """The search entry every kernel module offers."""

    def __call__(self, position: Position, limits: Limits | None = None) -> SearchOutcome: ...


@cache
def resolve(path: str) -> Any:
    """The object a ``package.module:attribute`` path names (the module itself without an
    attribute), imported on first use."""
    module_name, _, attribute = path.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


@dataclass(frozen=True)
class Family:
    """One rule family: its rules' defaults and the module of every layer that plays it.

    ``engine_path``, ``search_path``, ``visible_hint_path`` and ``dig_player_path`` are
    ``package.module:attribute`` paths (the reference engine class, the search entry, the
    visible-information hint of a family whose front ends give one, and the grading player's
    ``dig`` preference, ``None``: moves that send cards home first, then the rest).

    Shape: ``grid`` positions are a grid of cells and a stock, dealt cells first in ascending
    order; otherwise piles dealt round-robin (``fans``: the piles are fans, so called in
    messages and drawn overlapping sideways), and foundations whose route names are
    ``foundation_names`` (one ``F``, or one per suit, ``F`` + suit letter) and which build
    in the directions ``foundation_builds`` (``up`` or ``down``, one per foundation; empty: the
    foundation wraps round and has no one direction).

    Front ends: ``js_rules_path`` is the ``file.js:export`` of the family's rules module for
    the JS module (``cloversolve/web/``; ``None``: front ends get none of its presets).

    Rules: ``foundation_return`` says whether a foundation's top card may move back to the
    tableau by default; ``switches`` names the rule switches (fields of :class:`Preset`
    defaulting to the family's) whose per-preset value the engine reads.

    Grading: ``grading_panel`` names the player models (``cloversolve.grading.players.PLAYERS``)
    whose win rates grade the family's presets (empty: not graded). ``compile_seconds`` is about
    how long a first run compiles the family's kernels (said in the notice before compiling).

    Validation players: ``validation_player_paths`` holds ``name: package.module:attribute``
    entries, the family's own validation players (every family also has the generic ones).

    Certificates: ``reductions`` names the reductions the family's exhaustive search uses
    (FACTS.md argues each), as an ``exhausted-search`` certificate lists them;
    ``loss_witnesses_path`` is the ``package.module:attribute`` path of the family's loss
    witnesses (``None``: it has none); ``loss_prover_path`` that of its loss prover, the
    plain-Python search that proves losses again with the reductions of FACTS.md written anew
    from their statements (``None``: the plain exhaustive search proves them).
    """

    name: str
    engine_path: str
    search_path: str
    foundation_names: tuple[str, ...] = ("F",)
    foundation_builds: tuple[str, ...] = ()
    grid: bool = False
    fans: bool = False
    js_rules_path: str | None = None
    hint_policy: HintPolicy = HintPolicy.SEARCH
    visible_hint_path: str | None = None
    dig_player_path: str | None = None
    grading_panel: tuple[str, ...] = ("dig", "lookahead", "home", "planner", "patient")
    compile_seconds: float = 10.0
    foundation_return: bool = False
    switches: tuple[str, ...] = ()
    reductions: tuple[str, ...] = ()
    loss_witnesses_path: str | None = None
    loss_prover_path: str | None = None
    validation_player_paths: tuple[str, ...] = ()

    @property
    def engine(self) -> type[Position]:
        """The reference engine class."""
        return resolve(self.engine_path)  # type: ignore[no-any-return]

    @property
    def search_module(self) -> Any:
        """The family's search kernel module (its ``search``, ``SEARCH_KERNELS`` and the
        kernel counts it offers: ``perft``, ``legal_moves``, ...)."""
        return resolve(self.search_path.partition(":")[0])

    @cached_property
    def search(self) -> SearchEntry:
        """The search entry of the family's kernel module. The first time in a process, if
        its kernels are not yet in numba's cache, a line on stderr says they are compiling."""
        entry = resolve(self.search_path)
        self.announce_compiling()
        return entry  # type: ignore[no-any-return]

    def announce_compiling(self) -> None:
        """Print the line that says the kernels are compiling, now, if they are not yet in
        numba's cache (once per process), for workers that are about to compile them."""
        from ..core.compiling import announce_compiling  # (once per family and process)

        announce_compiling(self.name, self.search_kernels, self.compile_seconds)

    @property
    def search_kernels(self) -> tuple[Any, ...]:
        """The numba kernels the family's search calls from Python (``SEARCH_KERNELS`` of
        its search module)."""
        return tuple(self.search_module.SEARCH_KERNELS)

    @property
    def visible_hint(self) -> Callable[[Position], Move | None]:
        """The visible-information hint (:func:`cloversolve.visible_hint`;
        ``hint()`` gives it when :attr:`hint_policy` is :attr:`HintPolicy.VISIBLE`); a family
        without one raises ``TypeError``."""
        if self.visible_hint_path is None:
            raise TypeError(f"family {self.name!r} gives no visible hint")
        return resolve(self.visible_hint_path)  # type: ignore[no-any-return]

    @property
    def dig_player(self) -> Callable[[Position], list[list[Move]]] | None:
        """The grading player's ``dig`` move preference, if the family has its own."""
        if self.dig_player_path is None:
            return None
        return resolve(self.dig_player_path)  # type: ignore[no-any-return]

    @property
    def loss_witnesses(self) -> LossWitnesses | None:
        """The family's loss witnesses, if it has any."""
        if self.loss_witnesses_path is None:
            return None
        return resolve(self.loss_witnesses_path)  # type: ignore[no-any-return]

    @property
    def loss_prover(self) -> LossProver | None:
        """The family's loss prover, if it has one."""
        if self.loss_prover_path is None:
            return None
        return resolve(self.loss_prover_path)  # type: ignore[no-any-return]

    @property
    def validation_player_names(self) -> tuple[str, ...]:
        """The names of the family's own validation players."""
        return tuple(name for name, _ in self._validation_player_entries())

    @property
    def validation_players(self) -> dict[str, ValidationPlayer]:
        """The family's own validation players by name."""
        return {name: resolve(path) for name, path in self._validation_player_entries()}

    def _validation_player_entries(self) -> list[tuple[str, str]]:
        """``(name, path)`` of each ``name: path`` entry of :attr:`validation_player_paths`."""
        entries = (entry.partition(":") for entry in self.validation_player_paths)
        return [(name.strip(), path.strip()) for name, _, path in entries]


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
