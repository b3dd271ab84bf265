"""The contracts of a rule family's loss witnesses and loss prover (named in its registry
record). The witnesses: the kinds of witness it knows, how it makes a kind's certificate fields
for a lost position, and how it checks them in plain Python (``cloversolve audit``). The
prover: a plain-Python exhaustive search shortened by the reductions of FACTS.md, each written
anew from its statement there, never from the search kernels."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .base import Position
from .exhaustive import ExhaustiveOutcome

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


class LossProver(Protocol):
    """A family's loss prover: decides a position in plain Python, importing nothing of
    ``cloversolve.search``, with the family's reductions (each argued in FACTS.md and tested
    against :func:`!cloversolve.rules.exhaustive.solve_exhaustively` on tiny games)."""

    def __call__(self, position: Position, max_positions: int | None = None) -> ExhaustiveOutcome:
        """The same contract as :func:`!cloversolve.rules.exhaustive.solve_exhaustively`:
        ``solvable`` True with a winning route, False when every line loses, ``None`` when
        ``max_positions`` distinct positions were visited first (``position`` unchanged)."""
        ...
