"""The layout a command works on (a deal number or a layout file) and the route files beside it,
read and checked before any work starts."""

from __future__ import annotations

from typing import Any

from ..core.deal_numbers import DealNumberError, check_deal_number
from ..core.inputs import parse_json, read_json, read_text
from ..core.jsonio import shown
from ..core.notation import MoveParseError, parse_route
from ..games.dealing import deal
from ..games.layout import Layout
from ..games.registry import find_preset
from ..solving.replay import load_layout
from .common import (
    CliError,
    route_texts,
)


def read_route_file(path: str, layout: Layout) -> list[str]:
    """A route file for ``layout``: moves separated by white space, a JSON list of moves (one
    move an element), or a JSON object with a ``route`` list (as ``solve --json`` prints);
    an object that names another ``preset`` or deal ``number`` is refused. ``-`` reads
    standard input."""
    text = read_text(path, "route file", dash_is_stdin=True)
    if text.lstrip()[:1] not in ("[", "{"):
        return _parsed(path, route_texts([text]))
    data = parse_json(text, "route file", path)
    owner = data if isinstance(data, dict) else None
    if owner is not None:
        data = owner.get("route")
    if not isinstance(data, list) or not all(isinstance(m, str) for m in data):
        found = ""
        if isinstance(data, list):
            wrong = next(m for m in data if not isinstance(m, str))
            found = f" ({shown(wrong)} is not a move text)"
        raise CliError(
            f"route file {path!r} must hold moves, a JSON list of moves or "
            f"an object with a 'route' list{found}"
        )
    if owner is not None:
        _check_route_owner(path, owner, layout)
    return _parsed(path, data)  # (one move an element, as the library reads a list)


def _parsed(path: str, texts: list[str]) -> list[str]:
    """``texts``, the moves of route file ``path``, once they all parse (else an error that
    names the file)."""
    try:
        parse_route(texts)
    except MoveParseError as error:
        raise CliError(f"route file {path!r}: {error}") from None
    return texts


def _check_route_owner(path: str, data: dict[str, Any], layout: Layout) -> None:
    """Refuse a route file whose ``preset`` or ``number`` is not ``layout``'s (a number is
    compared when both name one: a hand-made layout has none), or is no preset name or deal
    number at all."""
    preset, number = data.get("preset", layout.preset), data.get("number")
    if not isinstance(preset, str):
        raise CliError(f"route file {path!r}: 'preset' is {shown(preset)}, not a preset name")
    if number is not None:
        try:  # (a JSON integer, or decimal text: the JSON form of a number past 2**53 - 1)
            number = check_deal_number(number)
        except DealNumberError:
            raise CliError(
                f"route file {path!r}: 'number' is {shown(number)}, not a deal number"
            ) from None
    other_number = number is not None and layout.number is not None and number != layout.number
    if preset != layout.preset or other_number:
        theirs = preset if number is None else f"{preset} deal {number}"
        ours = f"{layout.preset} deal {layout.number}" if layout.number else layout.preset
        raise CliError(f"route file {path!r} holds a route of {theirs}, not of {ours}")


def _read_layout_file(path: str) -> dict[str, Any]:
    data = read_json(path, "layout file")
    if not isinstance(data, dict):
        raise CliError(
            f"layout file {path!r} holds {shown(data)}, not a layout object "
            "(the JSON 'deal PRESET NUMBER --json' prints)"
        )
    return data


def route_beside_layout(
    layout_file: str | None, number: str | None, route: tuple[str, ...]
) -> tuple[tuple[str, ...], str | None]:
    """The route and deal number of ``replay``/``hint`` arguments: with ``--layout`` there is
    no NUMBER, so the argument in its place is the first move (a number there is an error)."""
    if layout_file is None or number is None:
        return route, number
    if number.lstrip("-").isdigit():
        raise CliError("give a deal NUMBER or --layout FILE, not both")
    return (number, *route), None


def layout_from_args(preset: str, number: str | None, layout_file: str | None) -> Layout:
    spec = find_preset(preset)
    if layout_file is not None:
        if number is not None:
            raise CliError("give a deal NUMBER or --layout FILE, not both")
        data = _read_layout_file(layout_file)
        try:
            return load_layout(spec.name, data)
        except ValueError as error:  # (a malformed or impossible layout, or a bad card)
            raise CliError(f"layout file {layout_file!r}: {error}") from None
    if number is None:
        raise CliError("missing deal NUMBER (or --layout FILE)")
    return deal(spec.name, check_deal_number(number))


def layout_name(layout: Layout) -> str:
    """What a command's text calls ``layout``: "deal N" only when it is that deal's start
    (a layout file's ``number`` proves no more than the layout check's necessary condition),
    "layout (numbered N)" for another position that carries a number, else "layout"."""
    if layout.number is None:
        return "layout"
    if layout == deal(layout.preset, layout.number):
        return f"deal {layout.number}"
    return f"layout (numbered {layout.number})"
