"""The files a study writes, read back and checked: the verdict file, its side file of
certificates, and the study's JSON with per-deal verdicts.

Every reader goes through :func:`cloversolve.core.inputs.read_bytes` (a size cap, a leading
byte-order mark dropped, the file named in every error) and refuses, in one line that names
the file, what the study would not have written: another format or an unknown version, a
letter that is not a verdict (with its deal number), a certificate of a deal the verdict file
does not hold, a study JSON without one of its fields, summary counts that are not those of
the per-deal verdicts, a method the preset's search never reports.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from ..core.deal_numbers import (
    MAX_DEAL,
    DealNumberError,
    check_deal_number,
    check_json_deal_number,
)
from ..core.inputs import MAX_CATALOGUE_FILE, InputFileError, decode_utf8, quoted, read_bytes
from ..core.jsonio import DuplicateKeyError, loads, shown
from ..core.verdicts import VERDICT_LETTERS, Method, Status
from ..games.registry import find_preset
from ..search.common import LimitError, Limits

VERDICT_FORMAT = "cloversolve-verdicts"
CERTIFICATES_FORMAT = "cloversolve-certificates"
#: The ``version`` of the header of the verdict files and side files written (and read).
VERDICT_FILE_VERSION = 1

_LETTERS = "".join(VERDICT_LETTERS.values()).encode()


def _read_header(data: bytes, file_format: str, what: str, name: str) -> dict[str, Any]:
    """The JSON header line that opens ``data``: of ``file_format`` and a known version,
    naming a known preset, with the fields of its format alone, each once, and a study's
    budget that a study could have had (:class:`InputFileError` otherwise, naming the
    file)."""
    line = data.partition(b"\n")[0]
    try:
        header = loads(line, unique_keys=True)
    except DuplicateKeyError as error:
        raise InputFileError(f"{what} {name!r}: its header: {error}") from None
    except (ValueError, RecursionError):
        header = None
    if not (isinstance(header, dict) and header.get("format") == file_format):
        typed = line.removesuffix(b"\r").decode("utf-8", "replace")
        raise InputFileError(
            f"{what} {name!r} does not open with a {file_format!r} header (its first line is "
            f"{quoted(typed)})"
        )
    unknown = [key for key in header if key not in _HEADER_FIELDS[file_format]]
    if unknown:
        raise InputFileError(
            f"{what} {name!r}: its header has the unknown field {shown(unknown[0])}"
        )
    missing = [key for key in _REQUIRED_FIELDS if key not in header]
    if missing:
        raise InputFileError(f"{what} {name!r}: its header has no {missing[0]!r}")
    version = header["version"]
    if type(version) is not int or version != VERDICT_FILE_VERSION:
        raise InputFileError(
            f"{what} {name!r} is of version {shown(version)}; this cloversolve reads "
            f"version {VERDICT_FILE_VERSION}"
        )
    preset = header.get("preset")
    if not isinstance(preset, str):
        raise InputFileError(f"{what} {name!r}: 'preset' is {shown(preset)}, not a preset name")
    try:
        find_preset(preset)
    except ValueError as error:  # (an unknown preset: the nearest name is suggested)
        raise InputFileError(f"{what} {name!r}: {error}") from None
    problem = _budget_problem({key: header[key] for key in _BUDGET_FIELDS if key in header})
    if problem is not None:
        raise InputFileError(f"{what} {name!r}: {problem}")
    return header


def _budget_problem(budget: dict[str, Any]) -> str | None:
    """Why ``budget`` (fields of :data:`_BUDGET_FIELDS`) is no budget a study could have run
    with (:class:`~cloversolve.search.common.Limits` refuses it), or ``None``."""
    try:
        Limits(**budget)
    except LimitError as error:
        return f"{error.parameter!r} is {shown(error.value)}, not {error.expected}"
    return None


#: The budget of a study, as its verdict file's header states it.
_BUDGET_FIELDS = ("max_nodes", "time_limit", "max_memory")
#: The fields every header has.
_REQUIRED_FIELDS = ("version", "preset", "first")
#: The fields of each file's header.
_HEADER_FIELDS = {
    VERDICT_FORMAT: {"format", "version", "preset", "first", *_BUDGET_FIELDS},
    CERTIFICATES_FORMAT: {"format", "version", "preset", "first"},
}


def _first_deal(header: dict[str, Any], what: str, name: str) -> int:
    """The header's ``first`` deal, in its JSON form (an integer up to 2**53 - 1, decimal text
    beyond), as catalogues write deal numbers."""
    first = header.get("first")
    try:
        return check_json_deal_number(first)
    except DealNumberError:
        raise InputFileError(
            f"{what} {name!r}: 'first' is {shown(first)}, not a deal number in its JSON form "
            "(an integer up to 2**53 - 1, decimal text only past it)"
        ) from None


def read_verdicts(path: str | os.PathLike[str]) -> tuple[dict[str, Any], str]:
    """A verdict file's header (its ``first`` deal an ``int``) and its letters (deal
    ``first + i`` is letter ``i``; lines end in LF or CRLF, and empty lines hold no deal). A
    header of another format or version, or a byte that is not a verdict letter, is refused
    (:class:`InputFileError`, naming the file and, for a letter, its deal)."""
    name, what = os.fspath(path), "verdict file"
    data = read_bytes(path, what, MAX_CATALOGUE_FILE)
    header = _read_header(data, VERDICT_FORMAT, what, name)
    first = _first_deal(header, what, name)
    body = data.partition(b"\n")[2].replace(b"\r\n", b"\n").replace(b"\n", b"")
    if body.translate(None, _LETTERS):  # (a byte that is not a letter: find the first)
        bad = next(i for i, byte in enumerate(body) if byte not in _LETTERS)
        text = body[bad : bad + 4].decode("utf-8", "replace")[0]
        found = f"the letter {text!r}" if text != "\ufffd" else f"the byte 0x{body[bad]:02x}"
        raise InputFileError(
            f"{what} {name!r}: deal {first + bad} has {found} (expected one of {_LETTERS.decode()})"
        )
    if body and first + len(body) - 1 > MAX_DEAL:
        raise InputFileError(
            f"{what} {name!r}: its {len(body):,} letters from deal {first} go past the last "
            f"deal number, {MAX_DEAL}"
        )
    return {**header, "first": first}, body.decode("ascii")


def read_certificates(path: str | os.PathLike[str], preset: str, deals: range) -> dict[int, str]:
    """The certificates of a side file of ``preset`` by deal number (one-line forms), for the
    ``deals`` of its verdict file (an empty line holds none). A header of another format,
    version, preset or first deal, a line that is not a deal number and a certificate, a deal
    outside ``deals`` and a deal given twice are refused (:class:`InputFileError`, quoting
    the line)."""
    name, what = os.fspath(path), "certificates file"
    data = read_bytes(path, what, MAX_CATALOGUE_FILE)
    decode_utf8(data, what, name)  # (a byte that is no UTF-8: refused, never replaced)
    header = _read_header(data, CERTIFICATES_FORMAT, what, name)
    if header["preset"] != preset:
        raise InputFileError(f"{name!r} holds certificates of {shown(header['preset'])}")
    first = _first_deal(header, what, name)
    if first != deals.start:
        raise InputFileError(
            f"{name!r}: its header's first deal is {shown(header.get('first'))}, the verdict "
            f"file's is {deals.start}"
        )
    proofs: dict[int, str] = {}
    for line_number, line in enumerate(data.splitlines()[1:], start=2):
        text = line.decode("utf-8")
        if not text:  # (an empty line holds no certificate)
            continue
        number, _, proof = text.partition(" ")
        problem = None
        if not _is_deal_number(number) or not proof:
            problem = "not a deal number and a certificate, separated by one space"
        elif (malformed := _certificate_problem(proof)) is not None:
            problem = malformed
        elif int(number) not in deals:
            problem = f"deal {number} is not one of the verdict file's deals"
        elif int(number) in proofs:
            problem = f"deal {number} is given twice"
        if problem is not None:
            raise InputFileError(f"{name!r} line {line_number}: {quoted(text)}: {problem}")
        proofs[int(number)] = proof
    return proofs


def _certificate_problem(text: str) -> str | None:
    """Why ``text`` is not a certificate's exact one-line form, or ``None``."""
    from ..solving.certificates import CertificateError, parse_certificate

    try:
        parse_certificate(text)
    except CertificateError as error:
        return str(error)
    return None


def _is_deal_number(text: str) -> bool:
    try:
        check_deal_number(text)
    except DealNumberError:
        return False
    return True


#: The summary counts of a study's JSON, by the per-deal verdict they count.
_COUNTED = {status.count_name: status.value for status in Status}

#: The verdict each search method reaches: a route wins, a budget leaves the deal undecided,
#: every other method proves a loss.
_METHOD_VERDICTS = {
    method.value: {Method.ROUTE_FOUND: Status.SOLVED, Method.BUDGET: Status.LIMIT_REACHED}.get(
        method, Status.UNSOLVABLE
    ).value
    for method in Method
}


def _check_methods(methods: dict[str, int], tally: Counter[str], preset: str) -> None:
    """Each verdict's deals are as many as the ``methods`` that reach it count, and each
    method is one by which ``preset``'s search reaches a verdict."""
    from ..solving.certificates import reported_methods

    unknown = [method for method in methods if method not in _METHOD_VERDICTS]
    if unknown:
        raise ValueError(f"'methods' names {shown(unknown[0])}, not a search method")
    spec = find_preset(preset)
    reported = {method.value for method in reported_methods(spec.family)}
    foreign = [method for method in methods if method not in reported]
    if foreign:
        raise ValueError(
            f"'methods' names {shown(foreign[0])}, which the search of {spec.name} never "
            f"reports (it reports {', '.join(sorted(reported))})"
        )
    reached: Counter[str] = Counter()
    for method, deals in methods.items():
        reached[_METHOD_VERDICTS[method]] += deals
    for field, status in _COUNTED.items():
        if reached[status] != tally[status]:
            raise ValueError(
                f"'methods' counts {reached[status]:,} {field} deals, 'per_deal' holds "
                f"{tally[status]:,}"
            )


#: The fields of a study's JSON that its per-deal verdicts are checked against.
STUDY_JSON_FIELDS = (
    "preset",
    "deals",
    *_COUNTED,
    "methods",
    "solvable_rate",
    "per_deal",
)

#: Every field of a study's JSON (:meth:`cloversolve.runs.study.StudyReport.to_json`): one
#: it does not have is refused, as a verdict file's header refuses a field of another format.
STUDY_JSON_ALL_FIELDS = frozenset(
    {
        *STUDY_JSON_FIELDS,
        "interval_95",
        "seconds",
        "search_seconds",
        "deals_over_1s",
        "slowest_seconds",
        "budget",
    }
)


def study_json_verdicts(data: dict[str, Any], name: str) -> dict[int, str]:
    """The per-deal verdicts of a study's JSON (``study --json --per-deal``) of a known
    preset by deal number, once the file is found consistent: it has every field of
    :data:`STUDY_JSON_FIELDS`, its ``deals`` range holds every deal of ``per_deal``, each once,
    its counts, its methods' counts and its solvable rate are those of ``per_deal``, and each
    method is one the preset's search reports (:class:`InputFileError`, naming the file,
    otherwise)."""
    try:
        missing = [field for field in STUDY_JSON_FIELDS if field not in data]
        if missing:
            raise ValueError(
                f"no {missing[0]!r} (a study's JSON, study --json --per-deal, has "
                f"{', '.join(STUDY_JSON_FIELDS)})"
            )
        unknown = [field for field in data if field not in STUDY_JSON_ALL_FIELDS]
        if unknown:
            raise ValueError(f"the unknown field {shown(unknown[0])}")
        if "budget" in data:
            _check_budget(data["budget"])
        verdicts = _per_deal(data.get("per_deal"))
        _check_span(data.get("deals"), verdicts)
        _check_counts(data, verdicts)
    except ValueError as error:
        raise InputFileError(f"study JSON {name!r}: {error}") from None
    return dict(sorted(verdicts.items()))


def _check_budget(budget: object) -> None:
    """``budget`` is a study's budget, as its verdict file's header states one: its fields
    and nothing else, each a value a study could have run with."""
    if not isinstance(budget, dict):
        raise ValueError(
            f"'budget' is {shown(budget)}, not an object of {', '.join(_BUDGET_FIELDS)}"
        )
    unknown = [key for key in budget if key not in _BUDGET_FIELDS]
    if unknown:
        raise ValueError(f"'budget' has the unknown field {shown(unknown[0])}")
    problem = _budget_problem(budget)
    if problem is not None:
        raise ValueError(f"'budget': {problem}")


def _per_deal(per_deal: object) -> dict[int, str]:
    if not isinstance(per_deal, dict):
        raise ValueError("'per_deal' is not an object of deal numbers and verdicts")
    verdicts: dict[int, str] = {}
    for key, status in per_deal.items():
        try:
            number = check_deal_number(key)
        except DealNumberError:
            raise ValueError(f"{shown(key)} is not a deal number") from None
        if not isinstance(status, str) or status not in VERDICT_LETTERS:
            raise ValueError(f"deal {number} has the verdict {shown(status)}")
        if number in verdicts:
            raise ValueError(f"deal {number} is given twice")
        verdicts[number] = status
    return verdicts


def _check_span(span: object, verdicts: dict[int, str]) -> None:
    """``span`` (``deals``) is the range of deals of ``verdicts``, every one of them."""
    if not isinstance(span, dict):
        raise ValueError(f"'deals' is {shown(span)}, not its range of deals")
    count = span.get("count")
    if verdicts or "first" in span or "last" in span:
        try:
            first = check_json_deal_number(span.get("first"))
            last = check_json_deal_number(span.get("last"))
        except DealNumberError:
            raise ValueError(
                f"'deals' is {shown(span)}, not a range of deals in their JSON form (integers "
                "up to 2**53 - 1, decimal text only past it)"
            ) from None
        outside = [number for number in verdicts if not first <= number <= last]
        if outside:
            raise ValueError(f"deal {min(outside)} of 'per_deal' is outside {first}..{last}")
        if last - first + 1 != count:
            raise ValueError(
                f"'deals' is {shown(span)}: {first}..{last} is not {shown(count)} deals"
            )
    if type(count) is not int or count != len(verdicts):
        raise ValueError(f"'deals' counts {shown(count)} deals, 'per_deal' holds {len(verdicts):,}")


def _check_counts(data: dict[str, Any], verdicts: dict[int, str]) -> None:
    """The counts of ``data`` are those of ``verdicts``."""
    tally = Counter(verdicts.values())
    for field, status in _COUNTED.items():
        value = data.get(field)
        if type(value) is not int or value != tally[status]:
            raise ValueError(f"{field!r} is {shown(value)}, 'per_deal' holds {tally[status]:,}")
    methods = data["methods"]
    counts: list[Any] = list(methods.values()) if isinstance(methods, dict) else [None]
    if not all(type(n) is int and n >= 0 for n in counts) or sum(counts) != len(verdicts):
        raise ValueError(f"'methods' is {shown(methods)}, not a count of its deals")
    _check_methods(methods, tally, data["preset"])
    decided = tally[Status.SOLVED.value] + tally[Status.UNSOLVABLE.value]
    rate = tally[Status.SOLVED.value] / len(verdicts) if decided else None
    if data["solvable_rate"] != rate or isinstance(data["solvable_rate"], bool):
        raise ValueError(f"'solvable_rate' is {shown(data['solvable_rate'])}, not {rate}")
