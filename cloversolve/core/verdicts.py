"""The one verdict vocabulary: :class:`Status`, with :class:`Method` (how it was reached) and
:class:`StopReason` (which budget stopped an undecided search) as its details; beside it the
statuses of a hint that does not search (:class:`HintVerdict`) and of a replayed route
(:class:`ReplayStatus`).

Every verdict the package writes (JSON, verdict files' letters, catalogues, batch answers,
audits, a study's counts) is spelled here and nowhere else
(``tests/test_verdict_vocabulary.py`` fails on a verdict's word written elsewhere in the
package)."""

from __future__ import annotations

import enum
from collections.abc import Mapping


class Status(enum.Enum):
    """The verdict of a search. ``UNSOLVABLE`` only ever comes from an exhausted search
    (or from one shortened by a fact argued in FACTS.md)."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    LIMIT_REACHED = "limit"

    @property
    def letter(self) -> str:
        """The verdict's letter in a verdict file: ``s``, ``u`` or ``?`` (undecided)."""
        return _LETTERS[self]

    @property
    def count_name(self) -> str:
        """The name under which a study or benchmark counts the verdict: ``solvable``,
        ``unsolvable`` or ``undecided``."""
        return _COUNT_NAMES[self]

    @classmethod
    def of_letter(cls, letter: str) -> Status:
        """The verdict of a verdict file's letter (``KeyError`` for another letter)."""
        return _STATUS_OF_LETTER[letter]


_LETTERS = {Status.SOLVED: "s", Status.UNSOLVABLE: "u", Status.LIMIT_REACHED: "?"}
_STATUS_OF_LETTER = {letter: status for status, letter in _LETTERS.items()}
_COUNT_NAMES = {
    Status.SOLVED: "solvable",
    Status.UNSOLVABLE: "unsolvable",
    Status.LIMIT_REACHED: "undecided",
}

#: Verdict letters of a verdict file, by the status (its value) they stand for.
VERDICT_LETTERS = {status.value: status.letter for status in Status}


def verdict_counts(statuses: Mapping[str, int]) -> dict[str, int]:
    """Counts by status value (``{"solved": 3, ...}``) as a study or benchmark writes them:
    by :attr:`Status.count_name`, every status present, in the order of :class:`Status`."""
    return {status.count_name: statuses.get(status.value, 0) for status in Status}


class Method(enum.Enum):
    """How a verdict was reached."""

    ROUTE_FOUND = "route-found"
    EXHAUSTED = "exhausted-search"
    KING_BOTTOM = "king-bottom-condition"
    BURIED_RANK = "buried-rank"
    SUIT_PROJECTION = "suit-projection"
    BUDGET = "budget-exhausted"


class StopReason(enum.Enum):
    """Which budget stopped a search that did not decide."""

    NODES = "nodes"
    TIME = "time"
    MEMORY = "memory"


class HintVerdict(enum.Enum):
    """The status of a hint that deliberately leaves the verdict open: the visible-grid hint
    of ``fifteen`` (FACTS.md, fact 11) reads only the visible cards and never searches."""

    NOT_SEARCHED = "not-searched"


class ReplayStatus(enum.Enum):
    """The outcome of replaying a route: a win, legal moves that do not win, an illegal move."""

    WON = "won"
    NOT_WON = "not-won"
    ILLEGAL = "illegal"


#: The certificate kind backing each method's verdict (a route, or the witness of the loss);
#: a budget's stop has none.
CERTIFICATE_KINDS = {
    Method.ROUTE_FOUND: "route",
    Method.KING_BOTTOM: "king-bottom",
    Method.BURIED_RANK: "buried-rank",
    Method.SUIT_PROJECTION: "suit-projection",
    Method.EXHAUSTED: "exhausted-search",
}

#: The former name of the ``stopped_by`` detail, still written beside it.
FORMER_STOPPED_BY = "limit"
