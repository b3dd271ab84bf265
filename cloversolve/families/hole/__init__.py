"""The ``hole`` rule family (Black Hole, All in a Row): its plug-in, :data:`FAMILY`.

Its engine (:mod:`.rules`) loads with it; its loss prover (:mod:`.proof`, with the rank-walk
test of :mod:`.walks`: plain Python, it never imports the search) and its search
(:mod:`.search`, kernels in :mod:`.kernels`) on first use.
"""

from __future__ import annotations

from types import ModuleType

from ...rules.loss_witnesses import LossProver
from ..plugin import FamilyPlugin, Plugin
from .rules import HolePosition


class Hole(Plugin):
    """The plug-in of the ``hole`` family."""

    engine = HolePosition

    @property
    def loss_prover(self) -> LossProver:
        from .proof import prove

        return prove

    @property
    def search_module(self) -> ModuleType:
        from . import search

        return search


#: The family's plug-in.
FAMILY: FamilyPlugin = Hole()
