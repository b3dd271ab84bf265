"""Reference rules engines in plain Python, one module per rule family."""

from __future__ import annotations

import importlib

from ..layout import Layout
from ..presets import find_preset
from .base import IllegalMoveError, Position

_ENGINES = {
    "thirteen": ("thirteen", "ThirteenPosition"),
    "fifteen": ("fifteen", "FifteenPosition"),
    "clover": ("clover", "CloverPosition"),
    "hole": ("hole", "HolePosition"),
}


def position_class(family: str) -> type[Position]:
    """The reference engine class of a rule family."""
    module_name, class_name = _ENGINES[family]
    module = importlib.import_module(f"{__name__}.{module_name}")
    return getattr(module, class_name)


def position_from_layout(layout: Layout) -> Position:
    """The reference position a layout describes."""
    return position_class(find_preset(layout.preset).family).from_layout(layout)


__all__ = ["IllegalMoveError", "Position", "position_class", "position_from_layout"]
