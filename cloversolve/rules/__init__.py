"""Reference rules engines in plain Python, one module per rule family."""

from __future__ import annotations

from ..games.layout import Layout, LayoutError
from ..games.registry import find_preset
from .base import IllegalMoveError, Position
from .plugin import rules_plugin


def position_class(family: str) -> type[Position]:
    """The reference engine class of a rule family."""
    return rules_plugin(family).engine


def position_from_layout(layout: Layout) -> Position:
    """The reference position a layout describes (a :class:`~cloversolve.games.layout.Layout`;
    ``Layout.from_json`` reads layout JSON)."""
    if not isinstance(layout, Layout):
        raise LayoutError(
            f"expected a Layout, got {type(layout).__name__} (Layout.from_json reads layout JSON)",
            "bad-field",
        )
    return position_class(find_preset(layout.preset).family).from_layout(layout)


__all__ = ["IllegalMoveError", "Position", "position_class", "position_from_layout"]
