"""A small game added through the public registration path alone, shaped as a rule family's
folder: the family ``sprig``'s plug-in, :data:`FAMILY` (its reference engine :mod:`.rules`
and its search :mod:`.search`), and the records :func:`cloversolve.games.register` takes, its
registry line (:mod:`.records`)."""

from __future__ import annotations

from types import ModuleType

from cloversolve.families.plugin import FamilyPlugin, Plugin

from .rules import SprigPosition


class Sprig(Plugin):
    """The plug-in of the ``sprig`` family: its engine and its search, nothing optional."""

    engine = SprigPosition

    @property
    def search_module(self) -> ModuleType:
        from . import search

        return search


#: The family's plug-in.
FAMILY: FamilyPlugin = Sprig()
