"""The ``clover`` rule family (Clover Leaf, Alexander the Great): its plug-in, :data:`FAMILY`.

Its engine (:mod:`.rules`) and loss witnesses (:mod:`.witnesses`) load with it, its loss
prover (:mod:`.proof`, plain Python: it never imports the search) on first use; its search
(:mod:`.search`, with its kernels and reductions: :mod:`.kernels`, :mod:`.runs`,
:mod:`.moves`, :mod:`.order`, :mod:`.dead_ends`, :mod:`.projection`) and its ``dig`` player
(:mod:`.players`) on first use.
"""

from __future__ import annotations

from types import ModuleType

from ...rules.loss_witnesses import LossProver, LossWitnesses
from ...rules.plugin import DigPlayer, VisibleHint
from ..plugin import FamilyPlugin, Plugin
from .rules import CloverPosition
from .witnesses import WITNESSES


class Clover(Plugin):
    """The plug-in of the ``clover`` family."""

    engine = CloverPosition

    @property
    def loss_witnesses(self) -> LossWitnesses:
        return WITNESSES

    @property
    def loss_prover(self) -> LossProver:
        from .proof import prove

        return prove

    @property
    def dig_player(self) -> DigPlayer:
        from .players import clover_dig

        return clover_dig

    @property
    def visible_hint(self) -> VisibleHint:
        from ...grading.players import dig_hint

        return dig_hint

    @property
    def js_rules(self) -> str:
        return "cloverRules"

    @property
    def search_module(self) -> ModuleType:
        from . import search

        return search


#: The family's plug-in.
FAMILY: FamilyPlugin = Clover()
