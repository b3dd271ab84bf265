"""The rule-family registry: one record per family, registered once.

A record names, for every layer, the one place that plays the family: its reference engine
(``cloversolve/rules/``), its search kernel (``cloversolve/search/``), how hints are given and
which move preference the grading player uses. No other module branches on a family's name or
on an engine's type: they look the record up. Adding a family means writing its modules and
adding one :class:`Family` to :data:`FAMILIES`.

Records name their modules by dotted path and import them on first use, so that reading the
registry (as :mod:`cloversolve.presets` does) never loads numba.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .notation import Move
    from .rules.base import Position
    from .search.common import Limits, SearchOutcome


class UnknownFamilyError(ValueError):
    """A rule-family name that is not registered."""


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


def _resolve(path: str) -> Any:
    """The object a ``module:attribute`` path names (imported on first use)."""
    module_name, _, attribute = path.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


@dataclass(frozen=True)
class Family:
    """One rule family and the module of every layer that plays it.

        ``grid``: positions are a grid of cells and a stock (else piles and foundations);
        ``foundation_names`` are the route names of the foundations (one ``F``, or one per suit,
        ``F`` + suit letter). ``visible_hint`` is the family's visible-information hint
        (:func:`cloversolve.visible.visible_hint`; ``hint()`` gives it when ``hint_policy`` is
        :attr:`HintPolicy.VISIBLE`); ``dig_player`` is the grading player's ``dig`` preference
        (``None``: moves that send cards home first, then the rest); ``grading_panel`` names the
    player models (``cloversolve.players.PLAYERS``) whose win rates grade the family's presets
    (empty: not graded). Paths are
        ``package.module:attribute``. ``compile_seconds`` is about how long a first run compiles
        the family's kernels (measured on a fresh install; said in the notice before compiling).
    """

    name: str
    engine_path: str
    search_path: str
    foundation_names: tuple[str, ...] = ("F",)
    grid: bool = False
    hint_policy: HintPolicy = HintPolicy.SEARCH
    visible_hint_path: str | None = None
    dig_player_path: str | None = None
    grading_panel: tuple[str, ...] = ("dig", "lookahead", "home", "planner", "patient")
    compile_seconds: float = 10.0

    @property
    def engine(self) -> type[Position]:
        """The reference engine class."""
        return _cached(self.engine_path)  # type: ignore[no-any-return]

    @cached_property
    def search(self) -> SearchEntry:
        """The search entry of the family's kernel module. The first time in a process, if
        its kernels are not yet in numba's cache, a line on stderr says they are compiling."""
        entry = _cached(self.search_path)
        _announce(self)
        return entry  # type: ignore[no-any-return]

    def announce_compiling(self) -> None:
        """Print the line that says the kernels are compiling, now, if they are not yet in
        numba's cache (once per process), for workers that are about to compile them."""
        _announce(self)

    @property
    def search_kernels(self) -> tuple[Any, ...]:
        """The numba kernels the family's search calls from Python (``SEARCH_KERNELS`` of
        its search module)."""
        module = importlib.import_module(self.search_path.partition(":")[0])
        return tuple(module.SEARCH_KERNELS)

    @property
    def visible_hint(self) -> Callable[[Position], Move | None]:
        """The visible-information hint (a family without one raises ``TypeError``)."""
        if self.visible_hint_path is None:
            raise TypeError(f"family {self.name!r} gives no visible hint")
        return _cached(self.visible_hint_path)  # type: ignore[no-any-return]

    @property
    def dig_player(self) -> Callable[[Position], list[list[Move]]] | None:
        """The grading player's ``dig`` move preference, if the family has its own."""
        if self.dig_player_path is None:
            return None
        return _cached(self.dig_player_path)  # type: ignore[no-any-return]


@cache
def _cached(path: str) -> Any:
    return _resolve(path)


def _announce(family: Family) -> None:
    from .search.compiling import announce_compiling  # (once per family and process)

    announce_compiling(family.name, family.search_kernels, family.compile_seconds)


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family(
            "thirteen",
            "cloversolve.rules.thirteen:ThirteenPosition",
            "cloversolve.search.thirteen:search",
            visible_hint_path="cloversolve.players:dig_hint",
            dig_player_path="cloversolve.players:thirteen_dig",
            compile_seconds=6,
        ),
        Family(
            "fifteen",
            "cloversolve.rules.fifteen:FifteenPosition",
            "cloversolve.search.fifteen:search",
            grid=True,
            hint_policy=HintPolicy.VISIBLE,
            visible_hint_path="cloversolve.search.fifteen:visible_hint",
            grading_panel=("random", "largest", "hint", "patient"),
            compile_seconds=4,
        ),
        Family(
            "clover",
            "cloversolve.rules.clover:CloverPosition",
            "cloversolve.search.clover:search",
            foundation_names=("FC", "FD", "FH", "FS"),
            visible_hint_path="cloversolve.players:dig_hint",
            dig_player_path="cloversolve.players:clover_dig",
            grading_panel=("dig", "lookahead", "home", "planner", "patient", "careful"),
            compile_seconds=10,
        ),
        Family(
            "hole",
            "cloversolve.rules.hole:HolePosition",
            "cloversolve.search.hole:search",
            grading_panel=(),
            compile_seconds=4,
        ),
    )
}


def find_family(name: str) -> Family:
    """The registered family called ``name``; :class:`UnknownFamilyError` otherwise."""
    family = FAMILIES.get(name)
    if family is None:
        raise UnknownFamilyError(f"unknown rule family: {name!r} (known: {', '.join(FAMILIES)})")
    return family
