"""What a rule family's plug-in gives the search layer and those above it: its search module
(loaded on first use, so that importing a family loads neither its kernels nor numba), and
the family's search entry with the notice before its kernels compile."""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any, Protocol

from ..core.compiling import announce_compiling as _announce
from ..core.lean_numba import import_numba
from ..games.records import Family
from ..games.registry import find_family
from ..rules.base import Position
from ..rules.plugin import RulesPlugin
from .common import Limits, SearchOutcome


class SearchEntry(Protocol):
    """The search entry every family's search module offers (its ``search``)."""

    def __call__(self, position: Position, limits: Limits | None = None) -> SearchOutcome: ...


class SearchPlugin(RulesPlugin, Protocol):
    """The part of a family's plug-in that the search layer and those above it know."""

    @property
    def search_module(self) -> ModuleType:
        """The family's search module, imported on first use: its ``search`` (a
        :class:`SearchEntry`), ``SEARCH_KERNELS`` (the numba kernels it calls from Python)
        and the kernel counts the tests compare with the engine (``perft``, ``legal_moves``,
        ``state_key``, ...)."""
        ...


def search_plugin(family: str) -> SearchPlugin:
    """The plug-in of the registered family ``family``, as the search layer knows it (numba
    imported first, lean in the program's process: :mod:`!cloversolve.core.lean_numba`)."""
    import_numba()
    plugin: SearchPlugin = find_family(family).plugin
    return plugin


def search_kernels(family: str) -> tuple[Any, ...]:
    """The numba kernels the family's search calls from Python (``SEARCH_KERNELS``)."""
    return tuple(search_plugin(family).search_module.SEARCH_KERNELS)


def announce_compiling(family: str) -> None:
    """Print the line that says the family's kernels are compiling, now, if they are not yet
    in numba's cache (once per process), for workers that are about to compile them."""
    _announce(family, search_kernels(family), find_family(family).compile_seconds)


def family_search(family: str) -> SearchEntry:
    """The family's search entry. The first time in a process, if its kernels are not yet in
    numba's cache, a line on stderr says they are compiling."""
    return _search_entry(find_family(family))


@cache
def _search_entry(record: Family) -> SearchEntry:
    """The search entry of the family ``record`` registers, looked up once per record: a
    search costs tens of microseconds in the fastest games, and finding the entry through the
    plug-in again each time adds a tenth to that."""
    entry: SearchEntry = search_plugin(record.name).search_module.search
    announce_compiling(record.name)
    return entry
