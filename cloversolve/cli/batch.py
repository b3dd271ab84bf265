"""Batch mode for back ends: JSON requests in, one per line; JSON results out, one per line.

``cloversolve solve --batch`` and ``cloversolve hint --batch`` answer a stream of requests
from one warm process (the search kernels compile or load once), in order: the n-th output
line answers the n-th request line. A request is an object::

    {"preset": "thirteen", "number": 42}
    {"preset": "cloverleaf", "layout": {...layout JSON...}, "max_nodes": 100000}
    {"id": "a7", "preset": "thirteen", "number": 1, "route": ["4>1"]}        (hint only)

with exactly one of ``number`` (an integer or decimal text) and ``layout``; optional
``max_nodes``, ``time_limit`` (seconds), ``memory`` (bytes, or text such as ``"512M"``) that
override the command line's limits for that request; ``route`` (hint only): the moves played
so far; ``id``: any JSON value, echoed in the answer. The answer is the object
``solve --json`` or ``hint --json`` prints, after the ``id`` if one was given (for a hint
after an illegal route, what ``replay --json`` prints: ``"status": "illegal"``, the move and
the reason). Any other line is answered with ``{"line": n, "error": "..."}`` (after its
``id`` when the line could be read) and the stream goes on, whatever the line holds: bytes
that are not UTF-8, lone surrogates, numbers beyond a double, nesting too deep to read, or
more than :data:`~cloversolve.core.inputs.MAX_SMALL_FILE` bytes (the cap of an input file: the
rest of such a line is skipped unread). Errors name the request's own fields and quote its
values as the line wrote them, in JSON (``1e3``, not the ``1000.0`` it reads as; ``true``,
``"512 M"``). A line that is empty or holds only spaces and tabs is skipped without an
answer.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import IO, Any

from ..core.deal_numbers import DealNumberError, check_deal_number
from ..core.inputs import InputFileError, capped_lines, quoted, shortened, standard_input
from ..core.jsonio import dumps, loads, shown
from ..search.common import LimitError, Limits
from ..solving.replay import load_layout
from ..solving.solver import IllegalRouteError, hint, solve
from .common import CliError, parse_size

KINDS = ("solve", "hint")
_LIMIT_FIELDS = ("max_nodes", "time_limit", "memory")
_COMMON_FIELDS = frozenset({"id", "preset", "number", "layout", *_LIMIT_FIELDS})
_FIELDS = {"solve": _COMMON_FIELDS, "hint": _COMMON_FIELDS | {"route"}}
#: The request field of each search limit (``Limits`` names ``memory`` ``max_memory``).
_FIELD_OF_LIMIT = {"max_nodes": "max_nodes", "time_limit": "time_limit", "max_memory": "memory"}
#: What a blank line may hold: spaces, tabs and its line end.
_BLANK = " \t\r\n"


class BatchRequestError(ValueError):
    """A request line that is not a valid request."""


class Request(dict[str, Any]):
    """A request's fields, with the ``line`` they were read from (to quote values as typed)."""

    line = ""


_DECODER = json.JSONDecoder()
_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def typed(request: Mapping[str, Any], field: str, width: int = 60) -> str:
    """The value of ``field`` as the request line wrote it (``1e3``, not the ``1000.0`` it
    reads as), else as JSON; at most ``width`` characters."""
    raw = _raw_value(request.line, field) if isinstance(request, Request) else None
    return shown(request[field], width) if raw is None else shortened(raw, width)


def _raw_value(line: str, field: str) -> str | None:
    """The text of the value of the top-level ``field`` of the JSON object ``line`` (which
    has been read: it is valid JSON), or ``None`` when it cannot be found again."""
    try:
        index = _past_space(line, 0)
        if line[index] != "{":
            return None
        index = _past_space(line, index + 1)
        while line[index] == '"':
            key, index = json.decoder.scanstring(line, index + 1)  # type: ignore[attr-defined]
            start = _past_space(line, _past_space(line, index) + 1)  # (past the colon)
            _, end = _DECODER.raw_decode(line, start)
            if key == field:
                return line[start:end]
            index = _past_space(line, _past_space(line, end) + 1)  # (past the comma)
    except (ValueError, IndexError, RecursionError):  # (a value too deep or long to find)
        return None
    return None


def _past_space(line: str, index: int) -> int:
    """The index of the first character at or after ``index`` that is no JSON white space."""
    space = _JSON_SPACE.match(line, index)
    return index if space is None else space.end()


@dataclass
class BatchCounts:
    """How many requests a batch answered, and how many of them with an error object."""

    answered: int = 0
    errors: int = 0


def request_limits(request: Mapping[str, Any], defaults: Limits) -> Limits:
    """The search limits of a request: its own fields, else the command line's ``defaults``."""
    limits: dict[str, Any] = asdict(defaults)
    for name in ("max_nodes", "time_limit"):
        if request.get(name) is not None:
            limits[name] = request[name]
    memory = request.get("memory")
    if isinstance(memory, str):
        try:
            limits["max_memory"] = parse_size(memory, "'memory'", typed=typed(request, "memory"))
        except CliError as error:
            raise BatchRequestError(error.format_message()) from None
    elif memory is not None:
        limits["max_memory"] = memory
    try:  # the search's one validator (cloversolve.search.common.Limits) checks every value
        return Limits(**limits)
    except LimitError as error:  # (in the request's words: its field name, JSON values)
        field = _FIELD_OF_LIMIT[error.parameter]
        raise BatchRequestError(
            f"'{field}' must be {error.expected}, got "
            f"{typed(request, field) if field in request else shown(error.value, 60)}"
        ) from None


def read_request(kind: str, text: str) -> Request:
    """The JSON object of one line; :class:`BatchRequestError` if it is not one."""
    try:
        data = text.encode()
        request = loads(data)  # (either parser refuses lone surrogates and 1e400)
        _check_unique_keys(data)
    except (ValueError, RecursionError) as error:  # (bad JSON, too deep for the reader)
        raise BatchRequestError(f"not JSON: {text.strip()[:80]!r} ({error})") from None
    if not isinstance(request, dict):
        raise BatchRequestError(
            f"a request must be a JSON object, got {shortened(text.strip(_BLANK), 80)}"
        )
    read = Request(request)
    read.line = text
    return read


def _check_unique_keys(data: bytes) -> None:
    """Refuse a line whose objects name a key twice (the reader keeps the last). The standard
    library's reader that finds them stops short of orjson's depth: a line nested deeper is
    judged by its depth alone, as an ``id`` too deep to echo is."""
    with contextlib.suppress(RecursionError):
        loads(data, unique_keys=True)


def check_request(kind: str, request: Mapping[str, Any]) -> None:
    """Check a request's fields; :class:`BatchRequestError` says what is wrong."""
    unknown = sorted(set(request) - _FIELDS[kind])
    if unknown:
        raise BatchRequestError(
            f"unknown field {quoted(unknown[0])} (a {kind} request takes "
            f"{', '.join(sorted(_FIELDS[kind]))})"
        )
    if "preset" not in request:
        raise BatchRequestError("missing field 'preset'")
    if not isinstance(request["preset"], str):
        raise BatchRequestError(f"'preset' must be a preset name, got {typed(request, 'preset')}")
    if ("number" in request) == ("layout" in request):
        raise BatchRequestError("give exactly one of 'number' and 'layout'")
    number = request.get("number")
    if "number" in request and (isinstance(number, bool) or not isinstance(number, int | str)):
        raise BatchRequestError(f"'number' must be a whole number, got {typed(request, 'number')}")
    if "number" in request:
        try:
            check_deal_number(number)
        except DealNumberError:  # (the value quoted as JSON, as every field's)
            raise BatchRequestError(
                f"'number' must be a deal number (1 .. 10**20-1, plain digits), got "
                f"{typed(request, 'number')}"
            ) from None
    if "layout" in request and not isinstance(request["layout"], dict):
        raise BatchRequestError(
            f"'layout' must be a layout object (as 'deal --json' prints), "
            f"got {typed(request, 'layout', 40)}"
        )
    route = request.get("route", [])
    if not isinstance(route, list):
        raise BatchRequestError(f"'route' must be a list of moves, got {typed(request, 'route')}")
    for index, move in enumerate(route, start=1):
        if not isinstance(move, str):
            raise BatchRequestError(f"move {index} of 'route' is {shown(move)}, not a move")
    if "id" in request and not _echoable(request["id"]):
        raise BatchRequestError("'id' is nested too deeply to be echoed")


def answer(kind: str, request: Mapping[str, Any], defaults: Limits) -> dict[str, Any]:
    """The result object of one valid request (``ValueError`` subclasses for bad values)."""
    preset = request["preset"]
    source = request["number"] if "number" in request else request["layout"]
    limits = request_limits(request, defaults)
    layout = load_layout(preset, source)
    if kind == "solve":
        return solve(layout.preset, layout, limits=limits).to_json()
    try:
        advice = hint(layout.preset, layout, request.get("route", []), limits=limits)
    except IllegalRouteError as illegal:  # (an answer, as ``hint --json`` prints it)
        return {"preset": layout.preset, "number": layout.number, **illegal.result.to_json()}
    return {"preset": layout.preset, "number": layout.number, **advice.to_json()}


def answer_line(kind: str, line_number: int, text: str, defaults: Limits) -> dict[str, Any]:
    """The output object for one input line: a result, or an error object."""
    request: dict[str, Any] = {}
    try:
        request = read_request(kind, text)
        check_request(kind, request)
        result = answer(kind, request, defaults)
    except ValueError as error:
        result = {"line": line_number, "error": str(error)}
    except (RuntimeError, MemoryError) as error:
        result = {"line": line_number, "error": f"internal error: {error}"}
    if "id" in request and _echoable(request["id"]):
        return {"id": request["id"], **result}
    return result


def _echoable(value: Any) -> bool:
    """Whether ``value`` can be written back in an answer (deep nesting cannot)."""
    try:
        dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def encode(result: Mapping[str, Any]) -> bytes:
    """One output line (compact JSON; deal numbers of any size)."""
    return dumps(result) + b"\n"


def run_batch(
    kind: str,
    lines: Iterable[str | bytes | InputFileError],
    out: IO[bytes],
    defaults: Limits,
) -> BatchCounts:
    """Answer every request line of ``lines`` on ``out``, in order, flushing each answer
    (an :class:`~cloversolve.core.inputs.InputFileError` in ``lines``, as
    :func:`~cloversolve.core.inputs.capped_lines` gives for a line over its cap, is answered with
    its message)."""
    if kind not in KINDS:
        raise ValueError(f"unknown batch kind {kind!r}")
    counts = BatchCounts()
    for line_number, raw in enumerate(lines, start=1):
        result = _answer_raw(kind, line_number, raw, defaults)
        if result is None:
            continue  # (a blank line is no request: it gets no answer)
        out.write(encode(result))
        out.flush()
        counts.answered += 1
        counts.errors += "error" in result
    return counts


def _answer_raw(
    kind: str, line_number: int, raw: str | bytes | InputFileError, defaults: Limits
) -> dict[str, Any] | None:
    """The answer to one raw line, or ``None`` for a blank line."""
    if isinstance(raw, InputFileError):
        return {"line": line_number, "error": str(raw)}
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    try:
        text = data.decode()
    except UnicodeDecodeError as error:
        byte = f"byte {error.object[error.start]:#04x} at column {error.start + 1}"
        return {"line": line_number, "error": f"not UTF-8 text ({byte})"}
    if line_number == 1:
        text = text.removeprefix("\ufeff")  # (a byte order mark, as files may have)
    if not text.strip(_BLANK):
        return None
    return answer_line(kind, line_number, text, defaults)


def serve(kind: str, defaults: Limits) -> BatchCounts:
    """Answer the requests on standard input on standard output (the ``--batch`` options);
    each line is read up to the cap of an input file."""
    import sys

    lines = capped_lines(standard_input("the requests"), "request line")
    return run_batch(kind, lines, sys.stdout.buffer, defaults)
