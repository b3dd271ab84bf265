"""Certificates of verdicts: a solvable deal's route, an unsolvable deal's witness.

Each loss carries the witness of the method that proved it:

* ``king-bottom``: the bottom card of every pile (``bottoms``), none of the last rank;
* ``buried-rank``: each rank that can never be uncovered and the cards that bury it;
* ``suit-projection``: the suits of a projection that is lost;
* ``exhausted-search``: the states and nodes the search counted and the reductions it used.

A certificate has a JSON form (``solve --json``, batch answers) and a one-line text form (the
side file of a verdict file). ``cloversolve audit`` checks them without the search kernels.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.cards import RANK_LETTERS, SUITS, Card
from ..core.jsonio import shown
from ..core.notation import Move
from ..core.verdicts import CERTIFICATE_KINDS, Method, Status
from ..games.registry import find_family
from ..rules import Position
from ..rules.loss_witnesses import WitnessNotFound
from ..rules.plugin import rules_plugin
from ..search.common import SearchOutcome

ROUTE = CERTIFICATE_KINDS[Method.ROUTE_FOUND]
KING_BOTTOM = CERTIFICATE_KINDS[Method.KING_BOTTOM]
BURIED_RANK = CERTIFICATE_KINDS[Method.BURIED_RANK]
SUIT_PROJECTION = CERTIFICATE_KINDS[Method.SUIT_PROJECTION]
EXHAUSTED = CERTIFICATE_KINDS[Method.EXHAUSTED]
#: Every certificate kind.
KINDS = (ROUTE, KING_BOTTOM, BURIED_RANK, SUIT_PROJECTION, EXHAUSTED)


class CertificateError(ValueError):
    """A certificate that cannot be read (its JSON or text form is malformed)."""


#: The certificate kind of each search method that proves a loss by a family's witness.
WITNESS_KINDS = {
    Method.KING_BOTTOM: KING_BOTTOM,
    Method.BURIED_RANK: BURIED_RANK,
    Method.SUIT_PROJECTION: SUIT_PROJECTION,
}


def reported_methods(family: str) -> frozenset[Method]:
    """The methods by which ``family``'s search reaches a verdict: a route, an exhausted
    search, a budget's stop, and a loss by each witness its family knows (its certificate
    must be found again)."""
    witnesses = rules_plugin(family).loss_witnesses
    kinds = set(witnesses.kinds) if witnesses is not None else set()
    return frozenset(
        method for method in Method if method not in WITNESS_KINDS or WITNESS_KINDS[method] in kinds
    )


@dataclass(frozen=True)
class Certificate:
    """The proof of a verdict: ``kind`` (one of :data:`KINDS`) and the fields of its kind."""

    kind: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.fields}

    def to_text(self) -> str:
        """The one-line form: the kind, then its fields (see :func:`parse_certificate`)."""
        data = self.fields
        if self.kind == ROUTE:
            parts = list(data["route"])
        elif self.kind == KING_BOTTOM:
            parts = [card or "-" for card in data["bottoms"]]
        elif self.kind == BURIED_RANK:
            parts = [f"{b['rank']}:{','.join(b['under'])}" for b in data["buried"]]
        elif self.kind == SUIT_PROJECTION:
            parts = [data["suits"]]
        else:
            reductions = ",".join(data["reductions"])
            parts = [f"states={data['states']}", f"nodes={data['nodes']}"]
            parts += [reductions] if reductions else []  # (none: no trailing field)
        return " ".join([self.kind, *parts])


def route_certificate(route: tuple[Move, ...] | list[str]) -> Certificate:
    return Certificate(ROUTE, {"route": [str(move) for move in route]})


def _witness_certificate(kind: str, position: Position, details: Mapping[str, Any]) -> Certificate:
    """The ``kind`` witness of ``position`` by its family's loss witnesses."""
    witnesses = rules_plugin(position.family).loss_witnesses
    if witnesses is None or kind not in witnesses.kinds:
        raise WitnessNotFound(f"internal error: a {kind} witness does not apply to this game")
    return Certificate(kind, witnesses.fields(kind, position, details))


def certify(position: Position, outcome: SearchOutcome, family: str) -> Certificate | None:
    """The certificate of a search's verdict on ``position`` (``None`` when undecided).

    Raises :class:`~cloversolve.rules.loss_witnesses.WitnessNotFound` when the witness of the
    search's method is not there."""
    if outcome.status is Status.SOLVED:
        return route_certificate(outcome.route)
    if outcome.status is not Status.UNSOLVABLE:
        return None
    if outcome.method is not Method.EXHAUSTED:  # (an identity test: it runs on every lost deal)
        return _witness_certificate(WITNESS_KINDS[outcome.method], position, outcome.details)
    return Certificate(
        EXHAUSTED,
        {
            "states": outcome.states,
            "nodes": outcome.nodes,
            "reductions": list(find_family(family).reductions),
        },
    )


# -- reading ----------------------------------------------------------------------------------

_CARD = re.compile(f"[{RANK_LETTERS}][{SUITS}]")
#: A count: a whole number written as deal numbers are, without a leading zero.
_COUNT = re.compile(r"(states|nodes)=(0|[1-9][0-9]*)")
_RANK = re.compile(r"[1-9][0-9]?")
_NAME = re.compile(r"[a-z][a-z-]*")


def _card_text(value: Any, where: str) -> str:
    if not (isinstance(value, str) and _CARD.fullmatch(value)):
        raise CertificateError(f"{where}: {shown(value)} is not a card")
    Card.parse(value)
    return value


def certificate_from_json(data: Any) -> Certificate:
    """A certificate from its JSON form; :class:`CertificateError` quotes what is wrong."""
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        raise CertificateError(f"{shown(data)} is not a certificate (kind one of {KINDS})")
    kind = data["kind"]
    expected = {
        ROUTE: {"route"},
        KING_BOTTOM: {"bottoms"},
        BURIED_RANK: {"buried"},
        SUIT_PROJECTION: {"suits"},
        EXHAUSTED: {"states", "nodes", "reductions"},
    }[kind]
    fields = {key: value for key, value in data.items() if key != "kind"}
    if set(fields) != expected:
        raise CertificateError(f"a {kind} certificate has the fields {sorted(expected)}")
    if kind == ROUTE and not (
        isinstance(fields["route"], list)
        and all(isinstance(move, str) and move.split() == [move] for move in fields["route"])
    ):
        raise CertificateError(f"a route certificate's route is {shown(fields['route'])}")
    try:
        text = Certificate(kind, fields).to_text()
    except (TypeError, KeyError, AttributeError):
        raise CertificateError(f"{shown(data)} is not a certificate") from None
    certificate = parse_certificate(text)
    if certificate.to_json() != data:
        raise CertificateError(f"{shown(data)} is not a certificate")
    return certificate


def parse_certificate(text: str) -> Certificate:
    """A certificate from its one-line form, e.g. ``route 4>F 3>1``, ``king-bottom 5H QC -``,
    ``buried-rank 8:7S,9C``, ``suit-projection CH`` or ``exhausted-search states=12 nodes=40
    king-bottom,buried-rank``, exactly as :meth:`Certificate.to_text` writes it (one space
    between fields, none around them, whole numbers without a leading zero);
    :class:`CertificateError` quotes what is wrong."""
    certificate = _parse_fields(text)
    if certificate.to_text() != text:
        raise CertificateError(
            f"{shown(text)} is not a certificate's one-line form (fields separated by single "
            "spaces, whole numbers without a leading zero)"
        )
    return certificate


def _parse_fields(text: str) -> Certificate:
    """The certificate of ``text``'s fields, however they are spaced."""
    if not isinstance(text, str) or not text.split():
        raise CertificateError(f"{shown(text)} is not a certificate")
    kind, *parts = text.split()
    if kind == ROUTE:
        return Certificate(ROUTE, {"route": parts})
    if kind == KING_BOTTOM:
        bottoms = [None if p == "-" else _card_text(p, kind) for p in parts]
        return Certificate(KING_BOTTOM, {"bottoms": bottoms})
    if kind == BURIED_RANK and parts:
        buried = []
        for part in parts:
            rank, _, under = part.partition(":")
            if not (_RANK.fullmatch(rank) and int(rank) <= 13 and under):
                raise CertificateError(f"{kind}: {shown(part)} is not RANK:CARD,CARD...")
            cards = [_card_text(card, kind) for card in under.split(",")]
            buried.append({"rank": int(rank), "under": cards})
        return Certificate(BURIED_RANK, {"buried": buried})
    if kind == SUIT_PROJECTION and len(parts) == 1:
        suits = parts[0]
        if not (set(suits) <= set(SUITS) and 0 < len(set(suits)) == len(suits) < len(SUITS)):
            raise CertificateError(f"{kind}: {shown(suits)} is not two or three suit letters")
        return Certificate(SUIT_PROJECTION, {"suits": suits})
    if kind == EXHAUSTED and len(parts) in (2, 3):
        counts = [_COUNT.fullmatch(part) for part in parts[:2]]
        reductions = parts[2].split(",") if len(parts) == 3 else []
        if all(counts) and all(_NAME.fullmatch(name) for name in reductions):
            found = {m.group(1): int(m.group(2)) for m in counts if m}
            if set(found) == {"states", "nodes"}:
                return Certificate(EXHAUSTED, {**found, "reductions": reductions})
    raise CertificateError(f"{shown(text)} is not a certificate")
