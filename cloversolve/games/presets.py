"""The presets of the game registry (:mod:`cloversolve.games`), under their first import
path: each preset's rule family, deck, shape, rule switches and plain-words rules."""

from __future__ import annotations

from .records import Preset, UnknownPresetError
from .registry import PRESETS, family_preset, find_preset, front_end_presets

__all__ = [
    "PRESETS",
    "Preset",
    "UnknownPresetError",
    "family_preset",
    "find_preset",
    "front_end_presets",
]
