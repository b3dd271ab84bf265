"""cloversolve: solver and deal-verification toolkit for the clover family of patience games.

>>> from cloversolve import deal
>>> deal("thirteen", 1).piles[0][0]
Card.parse('JD')
"""

from .core.cards import Card, CardParseError
from .core.deal_numbers import DealNumberError
from .core.notation import Group, MoveParseError, Transfer, format_route, parse_move, parse_route
from .core.verdicts import HintVerdict, Method, ReplayStatus, Status
from .core.version import __version__ as __version__
from .games.dealing import deal
from .games.layout import Layout, LayoutError
from .games.records import Preset, UnknownPresetError
from .games.registry import PRESETS, find_preset
from .grading.visible import NoVisibleHintError, visible_hint
from .rules import IllegalMoveError, Position, position_from_layout
from .search.common import LimitError, Limits
from .solving.replay import ReplayResult, replay
from .solving.solver import Hint, IllegalRouteError, SolveResult, hint, solve

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
