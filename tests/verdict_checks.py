"""What every search outcome must be, whichever verdict it has: used by the tests that search
random deals, so that no verdict passes unchecked."""

from __future__ import annotations

from helpers import replays_to_win

from cloversolve.core.verdicts import Method, Status
from cloversolve.rules import Position
from cloversolve.search.common import SearchOutcome

#: The methods that may prove a loss, by family (docs/library.md: exhausted search or a sound
#: reduction).
LOSS_METHODS = {
    "hole": {Method.EXHAUSTED},
    "thirteen": {Method.EXHAUSTED, Method.KING_BOTTOM, Method.BURIED_RANK},
    "clover": {Method.EXHAUSTED, Method.SUIT_PROJECTION},
}


def assert_outcome_sound(start: Position, outcome: SearchOutcome, family: str) -> None:
    """A win comes with a route the reference engine wins with; a loss with a sound method and
    no route; an undecided search names the budget that stopped it."""
    if outcome.status is Status.SOLVED:
        assert outcome.method is Method.ROUTE_FOUND and outcome.stopped_by is None
        assert replays_to_win(start, outcome.route)
    elif outcome.status is Status.UNSOLVABLE:
        assert outcome.method in LOSS_METHODS[family] and outcome.route == ()
        assert outcome.stopped_by is None
    else:
        assert outcome.status is Status.LIMIT_REACHED
        assert outcome.method is Method.BUDGET and outcome.route == ()
        assert outcome.stopped_by is not None
