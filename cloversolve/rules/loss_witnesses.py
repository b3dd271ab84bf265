"""The contract of a rule family's loss witnesses (named in its registry record): the kinds of
witness it knows, how it makes a kind's certificate fields for a lost position, and how it
checks them in plain Python (``cloversolve audit``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .base import Position

#: What a check proves of a position: won, lost, nothing within the budget, or the
#: certificate is false.
WON, LOST, OPEN, FALSE = "won", "lost", "open", "false"

#: A check's verdict (one of the above) and how it was reached, in a few words.
Check = tuple[str, str]


class WitnessNotFound(RuntimeError):
    """The search reported a loss by a method whose witness plain Python does not find
    again (a bug in the search or in the witness)."""


class LossWitnesses(Protocol):
    """A family's loss witnesses."""

    @property
    def kinds(self) -> tuple[str, ...]:
        """The certificate kinds of the witnesses it knows."""
        ...

    def fields(self, kind: str, position: Position, details: Mapping[str, Any]) -> dict[str, Any]:
        """The certificate fields of a ``kind`` witness that ``position`` is lost (``details``:
        the search's); raises :class:`WitnessNotFound` when the witness is not there."""
        ...

    def check(
        self,
        kind: str,
        position: Position,
        fields: Mapping[str, Any],
        exhaust: Callable[[Position], Check],
    ) -> Check:
        """What a ``kind`` witness with ``fields`` proves of ``position``; ``exhaust`` is the
        plain-Python exhaustive search's verdict on a position, within the audit's budget."""
        ...
