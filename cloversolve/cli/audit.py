"""The ``cloversolve audit`` command: re-check the verdicts of a file without trusting the
search kernels (:mod:`cloversolve.audit.checks`)."""

from __future__ import annotations

import sys

import click

from ..audit.checks import DEFAULT_MAX_POSITIONS
from ..core.verdicts import Status
from .common import (
    EXIT_NO,
    CliError,
    MinusDigitArguments,
    Seconds,
    WholeNumber,
    print_json,
    progress_option,
)
from .executor import executor_options

#: The verdicts an audit checks: the decided ones.
_CLAIMED = (Status.SOLVED, Status.UNSOLVABLE)


@click.command("audit", cls=MinusDigitArguments)
@click.argument("file")
@click.option(
    "--certificates",
    default=None,
    metavar="FILE",
    help="The side file of certificates of a verdict file (study --certificates).",
)
@click.option(
    "--only",
    type=click.Choice([status.count_name for status in _CLAIMED]),
    default=None,
    help="Check only the claims of this verdict.",
)
@click.option(
    "--sample",
    type=WholeNumber(),
    default=None,
    metavar="N",
    help="Check N claims drawn at random.",
)
@click.option(
    "--seed",
    type=WholeNumber(minimum=0),
    default=0,
    show_default=True,
    metavar="S",
    help="Seed of --sample.",
)
@click.option(
    "--max-positions",
    type=WholeNumber(),
    default=DEFAULT_MAX_POSITIONS,
    show_default=True,
    metavar="N",
    help="Positions the plain-Python proof of a loss may visit per claim.",
)
@click.option(
    "--time-limit",
    type=Seconds(),
    default=10.0,
    show_default=True,
    help="Seconds the search may take per deal to find a route or a witness.",
)
@executor_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON summary.")
@progress_option
def audit_command(
    file: str,
    certificates: str | None,
    only: str | None,
    sample: int | None,
    seed: int,
    max_positions: int,
    time_limit: float,
    jobs: int,
    scheduler: str | None,
    chunk_size: int | None,
    as_json: bool,
    progress: bool | None,
) -> int:
    """Re-check the verdicts of FILE without trusting the search kernels.

    FILE is a verdict file (study --verdicts), a study's JSON with per-deal verdicts (study
    --json --per-deal) or a catalogue (each entry's layout must be its deal's and its route
    must win; its metrics and grades are for `catalogue verify`). A route must replay to a win
    in the reference engine; King-bottom and buried-rank witnesses are checked directly; other
    losses are proved again in plain Python (the game's loss prover, a search with the reductions
    of FACTS.md, or else the plain exhaustive search) within --max-positions ("not re-checked"
    when it does not end). Exit status: 0 every claim agrees or is not re-checked; 1 a claim is
    contradicted, a certificate (false, or of the other verdict) or a catalogue entry refused
    (each listed by its deal number), or a solvable claim has no route while the search finds
    the deal lost (unsupported); 2 the input cannot be read, or holds nothing to audit. --json
    lists the deals that disagree and those not re-checked.
    """
    from ..audit.checks import AuditBudget
    from ..audit.claims import read_claims
    from ..audit.run import run_audit

    wanted = {status.count_name: status.value for status in _CLAIMED}
    everything = read_claims(file, certificates)
    if not everything.claims:
        held = (
            f"its {everything.undecided:,} deals are all undecided, which claims nothing"
            if everything.undecided
            else "it holds no deals"
        )
        raise CliError(f"nothing to audit in {file!r}: {held}")
    claims = everything.select(None if only is None else wanted[only], sample, seed)
    if not claims.claims:
        raise CliError(
            f"nothing to audit: --only {only} selects none of the "
            f"{len(everything.claims):,} claims of {file!r}"
        )
    budget = AuditBudget(time_limit=time_limit, max_positions=max_positions)
    show = sys.stderr.isatty() if progress is None else progress
    report = run_audit(
        claims, budget, jobs=jobs, scheduler=scheduler, chunk_size=chunk_size, progress=show
    )
    summary = report.to_json()
    if as_json:
        print_json(summary)
    else:
        click.echo(
            f"{report.preset}: {summary['checked']:,} claims checked, {summary['agreed']:,} "
            f"agreed, {summary['not_rechecked']:,} not re-checked within the budget, "
            f"{summary['contradicted']:,} contradicted, {summary['refused']:,} refused, "
            f"{summary['unsupported']:,} unsupported"
        )
        for number, finding, reason in summary["disagreements"]:
            click.echo(f"deal {number}: {finding}: {reason}")
    return 0 if report.agreed else EXIT_NO
