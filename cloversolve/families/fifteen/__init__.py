"""The ``fifteen`` rule family (the 15-sum game): its plug-in, :data:`FAMILY`.

Its engine (:mod:`.rules`) loads with it; its visible hint (:mod:`.hint`) and its search
(:mod:`.search`, kernels in :mod:`.kernels`) on first use.
"""

from __future__ import annotations

from types import ModuleType

from ...rules.plugin import VisibleHint
from ..plugin import FamilyPlugin, Plugin
from .rules import FifteenPosition


class Fifteen(Plugin):
    """The plug-in of the ``fifteen`` family."""

    engine = FifteenPosition

    @property
    def visible_hint(self) -> VisibleHint:
        from .hint import visible_hint

        return visible_hint

    @property
    def js_rules(self) -> str:
        return "fifteenRules"

    @property
    def search_module(self) -> ModuleType:
        from . import search

        return search


#: The family's plug-in.
FAMILY: FamilyPlugin = Fifteen()
