"""The one check of a layout before ``solve``, ``hint`` or ``replay`` uses it.

Three layers, each asked of the part of the toolkit that knows the rule:

1. :meth:`~cloversolve.games.layout.Layout.validate` checks what the preset's record says (field
   types, pile and cell counts, foundation names, the deck: every card valid and present
   once, no dropped rank).
2. The rule family's reference engine builds the position and rejects what no position of
   the family can hold (foundation order: see each engine's ``from_layout``).
3. A numbered layout must be in range and agree with that deal: the engine's
   ``why_not_from_deal`` names a reason the layout cannot arise from the deal by legal moves.
   For Black Hole and All in a Row the check is exact (a layout that passes is reachable); in
   the other families it is a necessary condition checked pile by pile (``thirteen``,
   clover: every card above the undisturbed bottom of a pile could have been placed on the
   card below it) or cell by cell (``fifteen``: the stock is an end part of the dealt stock and
   every grid card was dealt to its cell or drawn since). A number that passes is kept; it
   then says "a position of this deal" in that sense.
"""

from __future__ import annotations

from ..core.deal_numbers import DealNumberError, check_deal_number
from ..games.dealing import deal
from ..games.layout import Layout, LayoutError
from ..games.registry import find_preset
from . import position_class


def check_layout(layout: Layout) -> Layout:
    """Return ``layout`` if it is a legal position of its preset (and of its deal, when it
    has a number); otherwise raise :class:`LayoutError` naming the first problem."""
    layout.validate()
    engine = position_class(find_preset(layout.preset).family)
    engine.from_layout(layout)
    if layout.number is not None:
        try:
            number = check_deal_number(layout.number)
        except DealNumberError as error:
            raise LayoutError(f"{error} in the layout", "number-out-of-range") from None
        problem = engine.why_not_from_deal(deal(layout.preset, number), layout)
        if problem is not None:
            raise LayoutError(
                f"not a position of {layout.preset} deal {number}: {problem}", "not-from-deal"
            )
    return layout
