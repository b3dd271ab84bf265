"""cloversolve: solver and deal-verification toolkit for the clover family of patience games.

>>> from cloversolve import deal
>>> deal("thirteen", 1).piles[0][0]
Card.parse('JD')
"""

__version__ = "0.1.0"

from .cards import Card, CardParseError
from .dealing import DealNumberError, deal
from .layout import Layout, LayoutError
from .notation import Group, MoveParseError, Transfer, format_route, parse_move, parse_route
from .presets import PRESETS, Preset, UnknownPresetError, find_preset
from .replay import ReplayResult, ReplayStatus, replay
from .rules import IllegalMoveError, Position, position_from_layout
from .search.common import LimitError, Limits, Method, Status
from .solver import Hint, HintVerdict, IllegalRouteError, SolveResult, hint, solve
from .visible import NoVisibleHintError, visible_hint

__all__ = [
    "PRESETS",
    "Card",
    "CardParseError",
    "DealNumberError",
    "Group",
    "Hint",
    "HintVerdict",
    "IllegalMoveError",
    "IllegalRouteError",
    "Layout",
    "LayoutError",
    "LimitError",
    "Limits",
    "Method",
    "MoveParseError",
    "NoVisibleHintError",
    "Position",
    "Preset",
    "ReplayResult",
    "ReplayStatus",
    "SolveResult",
    "Status",
    "Transfer",
    "UnknownPresetError",
    "deal",
    "find_preset",
    "format_route",
    "hint",
    "parse_move",
    "parse_route",
    "position_from_layout",
    "replay",
    "solve",
    "visible_hint",
]
