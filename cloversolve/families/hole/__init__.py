"""The ``hole`` rule family (Black Hole, All in a Row): its plug-in, :data:`FAMILY`.

Its engine (:mod:`.rules`) loads with it; its search (:mod:`.search`, kernels in
:mod:`.kernels`) on first use.
"""

from __future__ import annotations

from types import ModuleType

from ..plugin import FamilyPlugin, Plugin
from .rules import HolePosition


class Hole(Plugin):
    """The plug-in of the ``hole`` family."""

    engine = HolePosition

    @property
    def search_module(self) -> ModuleType:
        from . import search

        return search


#: The family's plug-in.
FAMILY: FamilyPlugin = Hole()
