"""Moves and routes in the notation that RULES.md fixes for the front ends (section
"Numbering, moves and routes").

- ``4>F``: pile 4's exposed card to the foundation (the suit picks it in the clover games).
- ``4>11``: pile 4's exposed card onto pile 11.
- ``F>7``: the single foundation's top card onto pile 7 (``thirteen-return``).
- ``FH>7``: the Hearts foundation's top card onto fan 7 (``cloverleaf``/``alexander``).
- ``3+7+12``: remove the 15-sum group in cells 3, 7 and 12 (ascending, distinct).

Piles and cells are numbered from 1, without leading zeros; the notation sets no upper bound
(a pile or cell the game does not have makes an illegal move, not a malformed one). A route is
a sequence of moves, separated by spaces in text.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Set
from typing import NamedTuple

from .inputs import quoted


class Foundation(enum.StrEnum):
    """A foundation as a move names it. ``F`` is the single foundation of the 13-pile and hole
    games, and in the clover games the foundation of the moving card's suit (``4>F``);
    ``FC`` .. ``FS`` name one suit's foundation. Members are strings: ``Foundation.F == "F"``.
    """

    F = "F"
    FC = "FC"
    FD = "FD"
    FH = "FH"
    FS = "FS"


FOUNDATION = Foundation.F
SUIT_FOUNDATIONS = (Foundation.FC, Foundation.FD, Foundation.FH, Foundation.FS)
GRID_CELLS = 16

_NUMBER = r"[1-9][0-9]*"
#: The longest text :func:`parse_move` reads (a group of all 16 cells, longer than any legal
#: move, is 38 characters; a longer text is refused before any number in it is read).
MAX_MOVE_LENGTH = 64
_TRANSFER = re.compile(rf"(?P<src>{_NUMBER}|F[CDHS]?)>(?P<dst>{_NUMBER}|F)")
_GROUP = re.compile(rf"{_NUMBER}(\+{_NUMBER})+")
#: A move's shape with any digits for its numbers (``0>F``, ``04>1``, ``-1>F``, ``0+3``).
_LOOSE_NUMBERS = re.compile(r"(-?[0-9]+|F[CDHS]?)>(-?[0-9]+|F)|-?[0-9]+(\+-?[0-9]+)+")

#: A place a card moves from or to: a pile number (1-based) or a foundation.
Place = int | Foundation


class MoveParseError(ValueError):
    """A string that is not a move or route in RULES.md's notation."""


class Transfer(NamedTuple):
    """Move one card from ``src`` to ``dst`` (pile numbers or foundation names)."""

    #: Where the card comes from: a pile number (1-based) or a foundation name.
    src: Place
    #: Where it goes: a pile number (1-based) or a foundation name.
    dst: Place

    @property
    def to_foundation(self) -> bool:
        return not isinstance(self.dst, int)

    @property
    def from_foundation(self) -> bool:
        return not isinstance(self.src, int)

    def __str__(self) -> str:
        return f"{self.src}>{self.dst}"

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


class Group(NamedTuple):
    """Remove the cards in ``cells`` (1-based grid cells, ascending) in the 15-sum game."""

    #: The grid cells removed together, 1-based and ascending.
    cells: tuple[int, ...]

    def __str__(self) -> str:
        return "+".join(map(str, self.cells))

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


Move = Transfer | Group


def parse_move(text: str) -> Move:
    """Parse one move; raise :class:`MoveParseError` quoting the input."""
    if not isinstance(text, str):
        raise MoveParseError(f"not a move: {text!r}")
    if len(text) > MAX_MOVE_LENGTH:
        raise MoveParseError(
            f"not a move: {text[:20]!r}... ({len(text)} characters; a move has at most "
            f"{MAX_MOVE_LENGTH})"
        )
    match = _TRANSFER.fullmatch(text)
    if match:
        src, dst = match["src"], match["dst"]
        source: Place = Foundation(src) if src.startswith("F") else int(src)
        target: Place = FOUNDATION if dst == FOUNDATION else int(dst)
        if not isinstance(source, int) and not isinstance(target, int):
            raise MoveParseError(f"not a move: {text!r} (foundation to foundation)")
        return Transfer(source, target)
    if _GROUP.fullmatch(text):
        cells = tuple(int(part) for part in text.split("+"))
        if any(a >= b for a, b in zip(cells, cells[1:], strict=False)):
            raise MoveParseError(f"not a move: {text!r} (cells must be distinct and ascending)")
        return Group(cells)
    if _LOOSE_NUMBERS.fullmatch(text):
        raise MoveParseError(
            f"not a move: {text!r} (piles and cells are numbered from 1, without leading zeros)"
        )
    raise MoveParseError(
        f"not a move: {text!r} (expected e.g. '4>F', '4>11', 'F>7', 'FH>7' or '3+7+12')"
    )


def format_move(move: Move) -> str:
    """The move's text form; ``parse_move(format_move(m)) == m``."""
    return str(move)


def parse_route(route: str | Iterable[str] | Iterable[Move]) -> tuple[Move, ...]:
    """Parse a route given as one space-separated string or as a sequence of moves (move
    strings or :class:`Transfer`/:class:`Group` values, each checked as its text is); the one
    place a route is read. An unordered collection (a set, a mapping) is refused: a route's
    moves have an order."""
    if isinstance(route, bytes | bytearray) or not isinstance(route, str | Iterable):
        raise MoveParseError(f"not a route: {quoted(route)} (expected text or a list of moves)")
    if isinstance(route, Set | Mapping):
        raise MoveParseError(
            f"not a route: a {type(route).__name__} has no order (give the moves as text or a list)"
        )
    parts = route.split() if isinstance(route, str) else list(route)
    moves = []
    for index, part in enumerate(parts, start=1):
        try:
            moves.append(parse_move(str(part) if isinstance(part, Transfer | Group) else part))
        except MoveParseError as error:
            raise MoveParseError(f"move {index} of the route: {error}") from None
    return tuple(moves)


def format_route(moves: str | Iterable[str] | Iterable[Move]) -> str:
    """The route as space-separated text; ``moves`` is read as :func:`parse_route` reads it (a
    :class:`MoveParseError` for anything that is not a route), as the JS module's
    ``formatRoute`` does."""
    return " ".join(str(move) for move in parse_route(moves))
