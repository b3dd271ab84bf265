"""The claims an audit re-checks, read from a verdict file (with its optional side file of
certificates), a study's JSON with per-deal verdicts, or a catalogue."""

from __future__ import annotations

import os
import random
from collections.abc import Iterable
from dataclasses import dataclass

from ..catalogue.files import (
    CatalogueError,
    load_with_entry_problems,
    number_of,
)
from ..core.deal_numbers import DealNumberError, check_deal_number
from ..core.inputs import (
    MAX_CATALOGUE_FILE,
    InputFileError,
    is_checkpoint,
    opens_with_format,
    parse_json,
    quoted,
    read_bytes,
)
from ..core.jsonio import shown
from ..core.verdicts import VERDICT_LETTERS, Status
from ..games.registry import find_preset
from ..runs.study_files import (
    CERTIFICATES_FORMAT,
    VERDICT_FORMAT,
    read_certificates,
    read_verdicts,
    study_json_verdicts,
)
from ..solving.certificates import ROUTE, Certificate
from .checks import Claim

_STATUS_OF_LETTER = {letter: status for status, letter in VERDICT_LETTERS.items()}
#: The claimed statuses an audit re-checks (undecided deals claim nothing).
CLAIMED = (Status.SOLVED.value, Status.UNSOLVABLE.value)


class ClaimsError(ValueError):
    """A file that holds no claims an audit can read (one line that quotes the problem)."""


@dataclass
class ClaimSet:
    """The claims of one file: the preset, the claims in deal order, and the deals that claim
    nothing (undecided)."""

    preset: str
    claims: list[Claim]
    undecided: int = 0

    def select(self, only: str | None = None, sample: int | None = None, seed: int = 0) -> ClaimSet:
        """The claims of status ``only`` (all when ``None``), then ``sample`` of them drawn
        with ``seed`` (all when ``None``), in deal order."""
        claims = [c for c in self.claims if only is None or c.status == only]
        if sample is not None and sample < len(claims):
            chosen = sorted(random.Random(seed).sample(range(len(claims)), sample))
            claims = [claims[index] for index in chosen]
        return ClaimSet(self.preset, claims, self.undecided)


def read_claims(path: str | os.PathLike[str], certificates: str | None = None) -> ClaimSet:
    """The claims of a verdict file, a study JSON (``study --json --per-deal``) or a
    catalogue; ``certificates`` names a verdict file's side file of certificates."""
    data = read_bytes(path, "claims file", MAX_CATALOGUE_FILE)
    if opens_with_format(data, VERDICT_FORMAT):
        return _verdict_claims(path, certificates)
    if opens_with_format(data, CERTIFICATES_FORMAT):
        raise ClaimsError(
            f"{str(path)!r} is a side file of certificates: audit its verdict file, with "
            "--certificates naming this one"
        )
    if is_checkpoint(data):
        raise ClaimsError(
            f"{str(path)!r} is a build/study checkpoint, not a result file: audit the run's "
            "--verdicts file, its --json --per-deal output or the catalogue it built"
        )
    if certificates is not None:
        raise ClaimsError("--certificates goes with a verdict file")
    try:
        data = parse_json(data, "claims file", str(path))
    except InputFileError as error:  # (neither JSON nor a verdict file: say what opens it)
        first = data.partition(b"\n")[0].removesuffix(b"\r").decode("utf-8", "replace")
        raise ClaimsError(
            f"{error}; its first line, {quoted(first)}, is no {VERDICT_FORMAT!r} header either"
        ) from None
    if isinstance(data, dict) and data.get("format") == "cloversolve-catalogue":
        return _catalogue_claims(path)
    if isinstance(data, dict) and "per_deal" in data:
        return _study_claims(path, data)
    raise ClaimsError(
        f"{str(path)!r} is not a verdict file, a study's JSON with per-deal verdicts "
        "(study --json --per-deal) or a catalogue"
    )


def _verdict_claims(path: str | os.PathLike[str], certificates: str | None) -> ClaimSet:
    header, letters = read_verdicts(path)
    preset, first = find_preset(header["preset"]).name, header["first"]
    proofs: dict[int, str] = {}
    if certificates is not None:
        proofs = read_certificates(certificates, preset, range(first, first + len(letters)))
    claims, undecided = [], 0
    for index, letter in enumerate(letters):
        number, status = first + index, _STATUS_OF_LETTER[letter]
        if status not in CLAIMED:
            if number in proofs:  # (a study writes no certificate for an undecided deal)
                raise ClaimsError(
                    f"{certificates!r}: deal {number} has a certificate, but {str(path)!r} "
                    "says it is undecided"
                )
            undecided += 1
            continue
        claims.append(Claim(number, status, proofs.get(number)))
    return ClaimSet(preset, claims, undecided)


def _study_claims(path: str | os.PathLike[str], data: dict) -> ClaimSet:
    preset = find_preset(_text(data.get("preset"), path, "preset")).name
    verdicts = study_json_verdicts(data, str(path))
    claims = [Claim(number, status) for number, status in verdicts.items() if status in CLAIMED]
    return ClaimSet(preset, claims, len(verdicts) - len(claims))


def _catalogue_claims(path: str | os.PathLike[str]) -> ClaimSet:
    """A catalogue's claims: each entry claims its deal is won by its route, with its layout.
    An entry that cannot be read, or that lists its deal again, is a claim refused by its deal
    number; one without a deal number makes the file unreadable."""
    try:
        data, entry_problems = load_with_entry_problems(path)
    except CatalogueError as error:
        raise ClaimsError(str(error)) from None
    claims, seen = [], set()
    for index, entry in enumerate(data["deals"]):
        problem = entry_problems.get(index)
        try:
            number = check_deal_number(number_of(entry))
        except DealNumberError:
            raise ClaimsError(f"{str(path)!r} is not a valid catalogue: {problem}") from None
        if problem is None and number in seen:
            problem = "listed again (a catalogue lists each deal once)"
        seen.add(number)
        if problem is None:
            route = _route_text(entry["route"])
            claims.append(Claim(number, Status.SOLVED.value, route, layout=entry["layout"]))
        else:
            claims.append(Claim(number, Status.SOLVED.value, problem=problem))
    return ClaimSet(find_preset(data["preset"]).name, claims)


def _route_text(route: Iterable[str]) -> str:
    return Certificate(ROUTE, {"route": list(route)}).to_text()


def _text(value: object, path: str | os.PathLike[str], field: str) -> str:
    if not isinstance(value, str):
        raise ClaimsError(f"{str(path)!r}: {field!r} is {shown(value)}, not a preset name")
    return value
