"""Re-check verdicts without trusting the search kernels (``cloversolve audit``).

A claim is a deal number, its claimed status and, when given, its certificate. The search may
*find* a route or a witness; plain Python *judges* it:

* a route must replay to a win in the reference engine;
* King-bottom and buried-rank witnesses are checked directly on the dealt position;
* a suit-projection loss is proved again by exhausting the projected game, and any other loss
  by exhausting the deal, with the plain-Python exhaustive search within a budget of
  positions. A proof that does not end within the budget is "not re-checked": counted, never
  guessed.

Each claim ends ``agreed``, ``not-rechecked``, ``contradicted`` (the opposite verdict is
proved), ``refused`` (its certificate, given or found, is false, or a certificate given is
of the other verdict, or the file's record of it is false: a catalogue entry that cannot be
read, or whose layout is not its deal's) or ``unsupported`` (a solvable claim given without a
route, which the search finds lost, though plain Python does not prove the loss within the
budget). Each reason says what was checked, and names a certificate the search found as the
search's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..catalogue.verify import layout_problem
from ..core.notation import MoveParseError, parse_route
from ..core.verdicts import Status
from ..games.dealing import deal
from ..games.registry import find_family, find_preset
from ..rules import Position, position_class
from ..rules.exhaustive import solve_exhaustively
from ..rules.loss_witnesses import FALSE, LOST, OPEN, WON  # what a check proves
from ..rules.plugin import rules_plugin
from ..solving.certificates import (
    EXHAUSTED,
    ROUTE,
    Certificate,
    CertificateError,
    parse_certificate,
)
from ..solving.replay import replay_moves
from ..solving.solver import solve

AGREED = "agreed"
NOT_RECHECKED = "not-rechecked"
CONTRADICTED = "contradicted"
REFUSED = "refused"
UNSUPPORTED = "unsupported"
FINDINGS = (AGREED, NOT_RECHECKED, CONTRADICTED, REFUSED, UNSUPPORTED)

SOLVED = Status.SOLVED.value


#: Positions a plain-Python proof of a loss may visit per claim, unless told otherwise: every
#: loss of the sampled audits needs fewer (the largest, ``blackhole`` 568910, about 1.1 million;
#: the hole games' prover keeps a state in a few bytes, and the clover games' in a tuple).
DEFAULT_MAX_POSITIONS = 2_000_000


@dataclass(frozen=True)
class AuditBudget:
    """The budgets of one claim's audit: the search that looks for a route or a witness when
    none is given (``max_nodes``, ``time_limit``), and the plain-Python exhaustive search
    (``max_positions``; ``None``: unbounded)."""

    max_nodes: int | None = None
    time_limit: float | None = 10.0
    max_positions: int | None = DEFAULT_MAX_POSITIONS


@dataclass(frozen=True)
class Claim:
    """A claimed verdict: ``status`` is ``solved`` or ``unsolvable``; ``certificate`` the
    one-line form of its certificate (``None``: the audit finds one)."""

    number: int
    status: str
    certificate: str | None = None
    #: The deal's layout as the file gives it (a catalogue entry's): it must be the deal's.
    layout: Mapping[str, Any] | None = None
    #: Why the file's record of the claim cannot be read (a broken catalogue entry): refused.
    problem: str | None = None


def check_certificate(
    position: Position, certificate: Certificate, max_positions: int | None
) -> tuple[str, str]:
    """What ``certificate`` proves of ``position`` (one of the verdicts of
    :mod:`cloversolve.rules.loss_witnesses`: ``won``, ``lost``, ``open`` or ``false``) and how,
    in a few words; plain Python only."""
    kind = certificate.kind
    if kind == ROUTE:
        return _check_route(position, certificate.fields["route"])
    family = find_family(position.family)
    if kind != EXHAUSTED:  # a witness of the position's family
        witnesses = rules_plugin(position.family).loss_witnesses
        if witnesses is None or kind not in witnesses.kinds:
            return FALSE, f"a {kind} witness does not apply to this game"
        fields = certificate.fields
        return witnesses.check(kind, position, fields, lambda p: _exhaust(p, max_positions))
    unknown = [name for name in certificate.fields["reductions"] if name not in family.reductions]
    if unknown:
        return FALSE, f"{unknown[0]!r} is not a reduction of this game's search"
    return _exhaust(position, max_positions)


def _check_route(position: Position, texts: list[str]) -> tuple[str, str]:
    try:
        moves = parse_route(texts)
    except MoveParseError as error:
        return FALSE, f"the route does not parse ({error})"
    result = replay_moves(position, moves)
    return (WON, "the route replays to a win") if result.won else (FALSE, result.describe())


def _exhaust(position: Position, max_positions: int | None) -> tuple[str, str]:
    """The verdict on ``position`` of the family's loss prover, or of the plain exhaustive
    search when it has none (a route either finds is replayed by the reference engine before
    it counts)."""
    prover = rules_plugin(position.family).loss_prover or solve_exhaustively
    outcome = prover(position, max_positions=max_positions)
    if outcome.solvable is None:
        return OPEN, f"not exhausted within {outcome.positions:,} positions"
    if outcome.solvable:
        assert outcome.route is not None
        verdict, how = _check_route(position.copy(), [str(m) for m in outcome.route])
        return (WON, "the exhaustive search wins") if verdict == WON else (verdict, how)
    return LOST, f"exhausted in {outcome.positions:,} positions"


#: The finding of a check's verdict, by claimed status.
_FINDING = {
    Status.SOLVED.value: {WON: AGREED, LOST: CONTRADICTED, OPEN: NOT_RECHECKED, FALSE: REFUSED},
    Status.UNSOLVABLE.value: {
        WON: CONTRADICTED,
        LOST: AGREED,
        OPEN: NOT_RECHECKED,
        FALSE: REFUSED,
    },
}


def audit_claim(preset: str, budget: AuditBudget, claim: Claim) -> list[Any]:
    """Audit one claim: ``[finding, certificate kind or None, reason]``."""
    if claim.problem is not None:
        return [REFUSED, None, claim.problem]
    dealt = deal(preset, claim.number)
    if claim.layout is not None:
        wrong = layout_problem(preset, claim.number, dealt, claim.layout)
        if wrong is not None:
            return [REFUSED, None, wrong]
    position = position_class(find_preset(preset).family).from_layout(dealt)
    found = claim.certificate is None
    if claim.certificate is not None:
        try:
            certificate = parse_certificate(claim.certificate)
        except CertificateError as error:
            return [REFUSED, None, str(error)]
        mismatch = _kind_mismatch(claim.status, certificate.kind)
        if mismatch is not None:
            return [REFUSED, certificate.kind, mismatch]
    else:
        searched = _find_certificate(preset, claim, budget)
        if searched is None:
            if claim.status == SOLVED:
                return [NOT_RECHECKED, None, "no route given, and the search finds none"]
            nothing = Certificate(EXHAUSTED, {"states": 0, "nodes": 0, "reductions": []})
            verdict, how = check_certificate(position, nothing, budget.max_positions)
            how = f"no certificate given, and the search finds none; {how}"
            return [_FINDING[claim.status][verdict], None, how]
        certificate = searched
    verdict, how = check_certificate(position, certificate, budget.max_positions)
    finding = _FINDING[claim.status][verdict]
    if found and finding == NOT_RECHECKED and certificate.kind != ROUTE and claim.status == SOLVED:
        finding = UNSUPPORTED
        lost = f"the search finds the deal lost ({certificate.kind})"
        how = f"no route given; {lost}, and plain Python does not prove it: {how}"
    elif found:
        how = f"the search's {certificate.kind} certificate: {how}"
    return [finding, certificate.kind, how]


def _kind_mismatch(status: str, kind: str) -> str | None:
    """Why a given certificate of ``kind`` cannot back a claim of ``status``, or ``None``."""
    if status == SOLVED and kind != ROUTE:
        return f"a certificate of a loss ({kind}) given for a solvable claim"
    if status != SOLVED and kind == ROUTE:
        return "a route (a certificate of a win) given for an unsolvable claim"
    return None


def _find_certificate(preset: str, claim: Claim, budget: AuditBudget) -> Certificate | None:
    """A certificate the search finds for the deal (the checks judge it)."""
    result = solve(preset, claim.number, max_nodes=budget.max_nodes, time_limit=budget.time_limit)
    return result.certificate


def audit_index(
    preset: str, budget: AuditBudget, claims: tuple[Claim, ...], index: int
) -> list[Any]:
    """:func:`audit_claim` on ``claims[index]`` (a picklable worker over claim indices)."""
    return audit_claim(preset, budget, claims[index])
