"""The ``thirteen`` rule family (Four Leaf Clovers): its plug-in, :data:`FAMILY`.

Its engine (:mod:`.rules`) and loss witnesses (:mod:`.witnesses`) load with it; its search
(:mod:`.search`, kernels in :mod:`.kernels`), its ``dig`` player (:mod:`.players`) and its
validation player ``tips`` (:mod:`.tips`) on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType

from ...grading.plugin import ValidationPlayer
from ...rules.loss_witnesses import LossWitnesses
from ...rules.plugin import DigPlayer, VisibleHint
from ..plugin import FamilyPlugin, Plugin
from .rules import ThirteenPosition
from .witnesses import WITNESSES


class Thirteen(Plugin):
    """The plug-in of the ``thirteen`` family."""

    engine = ThirteenPosition

    @property
    def loss_witnesses(self) -> LossWitnesses:
        return WITNESSES

    @property
    def dig_player(self) -> DigPlayer:
        from .players import thirteen_dig

        return thirteen_dig

    @property
    def visible_hint(self) -> VisibleHint:
        from ...grading.players import dig_hint

        return dig_hint

    @property
    def validation_players(self) -> Mapping[str, ValidationPlayer]:
        from .tips import TIPS, TIPS_UNDO

        return {"tips": TIPS, "tips-undo": TIPS_UNDO}

    @property
    def js_rules(self) -> str:
        return "thirteenRules"

    @property
    def search_module(self) -> ModuleType:
        from . import search

        return search


#: The family's plug-in.
FAMILY: FamilyPlugin = Thirteen()
