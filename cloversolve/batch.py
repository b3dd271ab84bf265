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
the reason). A line that is not a valid request is answered with ``{"line": n, "error":
"..."}`` (and its ``id`` when it could be read) and the stream goes on. Blank lines are
skipped without an answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import IO, Any

from .cli_common import CliError, parse_size
from .inputs import quoted
from .jsonio import dumps, loads
from .replay import load_layout
from .search.common import DEFAULT_MAX_MEMORY, Limits
from .solver import IllegalRouteError, hint, solve

KINDS = ("solve", "hint")
_LIMIT_FIELDS = ("max_nodes", "time_limit", "memory")
_COMMON_FIELDS = frozenset({"id", "preset", "number", "layout", *_LIMIT_FIELDS})
_FIELDS = {"solve": _COMMON_FIELDS, "hint": _COMMON_FIELDS | {"route"}}


class BatchRequestError(ValueError):
    """A request line that is not a valid request."""


@dataclass(frozen=True)
class BatchLimits:
    """Default search limits of every request (a request's own fields override them)."""

    max_nodes: int | None = None
    time_limit: float | None = None
    max_memory: int = DEFAULT_MAX_MEMORY


@dataclass
class BatchCounts:
    """How many requests a batch answered, and how many of them with an error object."""

    answered: int = 0
    errors: int = 0


def request_limits(request: Mapping[str, Any], defaults: BatchLimits) -> dict[str, Any]:
    """The search limits of a request: its own fields, else the defaults."""
    limits: dict[str, Any] = {
        "max_nodes": defaults.max_nodes,
        "time_limit": defaults.time_limit,
        "max_memory": defaults.max_memory,
    }
    for name in ("max_nodes", "time_limit"):
        if request.get(name) is not None:
            limits[name] = request[name]
    memory = request.get("memory")
    if isinstance(memory, str):
        try:
            limits["max_memory"] = parse_size(memory, option="'memory'")
        except CliError as error:
            raise BatchRequestError(error.format_message()) from None
    elif memory is not None:
        limits["max_memory"] = memory
    # the search's one validator (cloversolve.search.common.Limits) checks every value
    Limits(**limits)
    return limits


def read_request(kind: str, text: str) -> dict[str, Any]:
    """The JSON object of one line; :class:`BatchRequestError` if it is not one."""
    try:
        request = loads(text.encode())
    except ValueError as error:
        raise BatchRequestError(f"not JSON: {text.strip()[:80]!r} ({error})") from None
    if not isinstance(request, dict):
        raise BatchRequestError(f"a request must be a JSON object, got {text.strip()[:80]!r}")
    return request


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
    if ("number" in request) == ("layout" in request):
        raise BatchRequestError("give exactly one of 'number' and 'layout'")
    number = request.get("number")
    if "number" in request and (isinstance(number, bool) or not isinstance(number, int | str)):
        raise BatchRequestError(f"'number' must be a whole number, got {number!r}")
    if "layout" in request and not isinstance(request["layout"], dict):
        raise BatchRequestError("'layout' must be a layout object (as 'deal --json' prints)")
    route = request.get("route", [])
    if not isinstance(route, str | list):
        raise BatchRequestError(f"'route' must be a list of moves, got {route!r}")


def answer(kind: str, request: Mapping[str, Any], defaults: BatchLimits) -> dict[str, Any]:
    """The result object of one valid request (``ValueError`` subclasses for bad values)."""
    preset = request["preset"]
    source = request["number"] if "number" in request else request["layout"]
    limits = request_limits(request, defaults)
    layout = load_layout(preset, source)
    if kind == "solve":
        return solve(layout.preset, layout, **limits).to_json()
    try:
        advice = hint(layout.preset, layout, request.get("route", []), **limits)
    except IllegalRouteError as illegal:  # (an answer, as ``hint --json`` prints it)
        return {"preset": layout.preset, "number": layout.number, **illegal.result.to_json()}
    return {"preset": layout.preset, "number": layout.number, **advice.to_json()}


def answer_line(kind: str, line_number: int, text: str, defaults: BatchLimits) -> dict[str, Any]:
    """The output object for one input line: a result, or an error object."""
    request: dict[str, Any] = {}
    try:
        request = read_request(kind, text)
        check_request(kind, request)
        result = answer(kind, request, defaults)
    except ValueError as error:
        result = {"line": line_number, "error": str(error)}
    except RuntimeError as error:
        result = {"line": line_number, "error": f"internal error: {error}"}
    if "id" in request:
        return {"id": request["id"], **result}
    return result


def encode(result: Mapping[str, Any]) -> bytes:
    """One output line (compact JSON; deal numbers of any size)."""
    return dumps(result) + b"\n"


def run_batch(
    kind: str, lines: Iterable[str | bytes], out: IO[bytes], defaults: BatchLimits
) -> BatchCounts:
    """Answer every request line of ``lines`` on ``out``, in order, flushing each answer."""
    if kind not in KINDS:
        raise ValueError(f"unknown batch kind {kind!r}")
    counts = BatchCounts()
    for line_number, raw in enumerate(lines, start=1):
        try:
            text = raw.decode() if isinstance(raw, bytes) else raw
            if line_number == 1:
                text = text.removeprefix("\ufeff")  # (a byte order mark, as files may have)
        except UnicodeDecodeError as error:
            byte = f"byte {error.object[error.start]:#04x} at column {error.start + 1}"
            result: dict[str, Any] = {"line": line_number, "error": f"not UTF-8 text ({byte})"}
        else:
            if not text.strip():
                continue  # (a blank line is no request: it gets no answer)
            result = answer_line(kind, line_number, text, defaults)
        out.write(encode(result))
        out.flush()
        counts.answered += 1
        counts.errors += "error" in result
    return counts


def serve(kind: str, defaults: BatchLimits) -> BatchCounts:
    """Answer the requests on standard input on standard output (the ``--batch`` options)."""
    import sys

    return run_batch(kind, sys.stdin.buffer, sys.stdout.buffer, defaults)
